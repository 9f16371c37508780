"""A text picture of a race position: :func:`to_diagram` (of a state or a view) and
:func:`from_diagram` (a state, for tests and the terminal).

Format::

    race: jungle, 3 seats
         A B C D E
         =finish==
     11  . # . ^ .
     10  + . . . +
      9  . . ^ . .
      8  . + . + .
      7  # . . . ^
      6  . . + . .
      5  . ^ . # .
      4  + . B . +
      3  . . # O .
      2  ^ . . . #
      1  . + . + .
      0  s G s P Y
    seed: 7
    cards: 11 4 8
    first: 1
    turn: 3
    seat: 2
    phase: move
    kept: BBGT
    used: B
    arrows: 2
    arrows used: 1
    pending: O

The grid is RR2's (``+`` booster, ``^`` tree, ``#`` rock, ``s`` start space, ``.`` plain)
with each raptor's letter on its space; a raptor that crossed the finish line stands on a
row above the line. When read, rows may be left out (they hold no raptor) and ``.`` may
stand for any space without an obstacle. Seats are numbered from 1 as players count them.
Keys, each optional (defaults in brackets): ``seed`` [0], ``cards`` (one per seat) [1 2
...], ``first`` [1], ``turn`` [1], ``seat`` [the first], ``phase`` roll/move/over [roll],
``rolls`` [the turn number], ``rolled`` and ``kept`` (faces, ``-`` for none) [-],
``arrows`` (the arrows die's face, Jungle) [0], ``arrows aside`` yes/no [yes in the move],
``used`` [-], ``arrows used`` [0], ``pending`` (a raptor) [-], ``forfeited`` (seats) [-]. A
view's diagram has no seed, and ``?`` for each card the viewer may not see
(:func:`from_diagram` does not read those).
"""

from __future__ import annotations

from .components import CARDS, RAPTORS, Face, Raptor, sorted_faces
from .errors import StateError
from .state import Phase, RaceState
from .track import LANES, Board, Obstacle, Track, at, row_of, track
from .view import RaceView

_OBSTACLE_CHARS = {Obstacle.TREE: "^", Obstacle.ROCK: "#"}
FINISH_LINE = "     =finish=="
#: The character column of lane A in a grid line (lanes two columns apart).
GRID_COLUMN = 5
LEGEND = ("grid: + booster  ^ tree  # rock  s start space  . plain space  "
          "B G O P Y the raptors")


def _cell(t: Track, sp: int) -> str:
    if sp in t.obstacles:
        return _OBSTACLE_CHARS[t.obstacles[sp]]
    if sp in t.boosters:
        return "+"
    return "s" if row_of(sp) == 0 else "."


def _fits(t: Track, sp: int, ch: str) -> bool:
    """Whether grid character ``ch`` may stand for the raptor-less space ``sp``: its own
    symbol, or ``.`` for any space without an obstacle (a booster, a start space);
    beyond the finish line a blank."""
    if t.crossed(sp):
        return ch == " "
    return ch == _cell(t, sp) or (ch == "." and sp not in t.obstacles)


def grid(t: Track, raptors: tuple[int, ...]) -> list[str]:
    """The grid lines of a track with the raptors (colour order) on it."""
    on = {sp: r.value for r, sp in zip(RAPTORS, raptors, strict=True)}
    lines = ["     " + " ".join(LANES)]
    beyond = [at(lane, t.rows) for lane in range(5)]
    if any(sp in on for sp in beyond):
        lines.append(f"{t.rows:3d}  " + " ".join(on.get(sp, " ") for sp in beyond).rstrip())
    lines.append(FINISH_LINE)
    for row in range(t.rows - 1, -1, -1):
        cells = (on.get(at(lane, row)) or _cell(t, at(lane, row)) for lane in range(5))
        lines.append(f"{row:3d}  " + " ".join(cells))
    return lines


def _faces_text(faces) -> str:
    return "".join(f.value for f in faces) or "-"


def _seats_text(seats) -> str:
    return " ".join(str(s + 1) for s in seats) or "-"


def to_diagram(position: RaceState | RaceView) -> str:
    """The text picture of a state, or of a view (no seed, unseen cards as ``?``)."""
    p = position
    t = track(p.board)
    lines = [f"race: {p.board.value}, {p.seats} seats", *grid(t, p.raptors)]
    if isinstance(p, RaceState):
        lines.append(f"seed: {p.seed}")
        cards = list(p.cards)
    else:
        cards = list(p.cards) if p.cards is not None else [
            p.my_card if s == p.viewer else "?" for s in range(p.seats)]
    lines += [f"cards: {' '.join(map(str, cards))}", f"first: {p.first + 1}",
              f"turn: {p.turn}", f"seat: {p.seat + 1}", f"phase: {p.phase.value}"]
    if isinstance(p, RaceState):
        lines.append(f"rolls: {p.rolls}")
    lines += [f"rolled: {_faces_text(p.rolled)}", f"kept: {_faces_text(p.kept)}"]
    if p.arrow_die is not None:
        lines += [f"arrows: {p.arrow_die}", f"arrows aside: {'yes' if p.arrow_aside else 'no'}"]
    lines.append(f"used: {_faces_text(p.used)}")
    if p.arrow_die is not None:
        lines.append(f"arrows used: {p.arrows_used}")
    lines.append(f"pending: {p.pending.value if p.pending else '-'}")
    lines.append(f"forfeited: {_seats_text(p.forfeited)}")
    return "\n".join(lines) + "\n"


_KEYS = {"seed", "cards", "first", "turn", "seat", "phase", "rolls", "rolled", "kept",
         "arrows", "arrows aside", "used", "arrows used", "pending", "forfeited"}


def from_diagram(text: str) -> RaceState:
    """Read a diagram (module docstring) into a state, checked (:meth:`RaceState.check`).

    Raises:
        StateError: a malformed grid, an unknown key, impossible values.
    """
    lines = [ln.rstrip() for ln in text.strip("\n").splitlines() if ln.strip()]
    try:
        head, rest = lines[0].split(":", 1)
        board_name, seats_text = (w.strip() for w in rest.split(","))
        if head.strip() != "race" or not seats_text.endswith("seats"):
            raise ValueError
        t = track(Board(board_name))
        seats = int(seats_text.split()[0])
    except (ValueError, IndexError):
        raise StateError("a diagram starts with 'race: <desert|jungle>, <n> seats'") from None
    raptors: dict[Raptor, int] = {}
    keys: dict[str, str] = {}
    for line in lines[1:]:
        body = line.strip()
        if body.split() == list(LANES) or body == FINISH_LINE.strip():
            continue
        first = body.split()[0]
        if first.isdigit():
            row = int(first)
            if row > t.rows:
                raise StateError(f"row {row} is not a row of the {t.board.value} track")
            for lane in range(5):
                pos = GRID_COLUMN + 2 * lane
                ch = line[pos] if pos < len(line) else " "
                if ch in {r.value for r in RAPTORS}:
                    raptor = Raptor(ch)
                    if raptor in raptors:
                        raise StateError(f"raptor {ch} stands twice in the grid")
                    raptors[raptor] = at(lane, row)
                elif not _fits(t, at(lane, row), ch):
                    raise StateError(f"row {row}, lane {LANES[lane]}: {ch!r} is not what the "
                                     f"{t.board.value} track has there")
            continue
        key, _, value = body.partition(":")
        key = key.strip()
        if key not in _KEYS:
            raise StateError(f"unknown key {key!r}; keys: {', '.join(sorted(_KEYS))}")
        keys[key] = value.strip()
    if set(raptors) != set(RAPTORS):
        raise StateError("the grid must show all five raptors B G O P Y")
    try:
        state = _state(t, seats, raptors, keys)
    except (ValueError, KeyError) as exc:
        if isinstance(exc, StateError):
            raise
        raise StateError(f"a bad value in the diagram: {exc}") from None
    return state.check()


def _faces(text: str) -> tuple[Face, ...]:
    return () if text in ("", "-") else sorted_faces(Face(c) for c in text.upper())


def _seat_list(text: str) -> tuple[int, ...]:
    return () if text in ("", "-") else tuple(sorted(int(w) - 1 for w in text.split()))


def _state(t: Track, seats: int, raptors: dict[Raptor, int], keys: dict[str, str]
           ) -> RaceState:
    cards = (tuple(int(w) for w in keys["cards"].split()) if "cards" in keys
             else tuple(sorted(CARDS))[:seats])
    first = int(keys.get("first", "1")) - 1
    turn = int(keys.get("turn", "1"))
    phase = Phase(keys.get("phase", "roll"))
    arrow_die = int(keys.get("arrows", "0")) if t.arrows else None
    if "arrows" in keys and not t.arrows:
        raise StateError("there is no arrows die on the Desert")
    aside_default = "yes" if phase is not Phase.ROLL else "no"
    arrow_aside = t.arrows and keys.get("arrows aside", aside_default) == "yes"
    on_beyond = [r for r in RAPTORS if t.crossed(raptors[r])]
    pending = keys.get("pending", "-")
    return RaceState(
        seed=int(keys.get("seed", "0")), board=t.board, seats=seats, cards=cards,
        first=first, raptors=tuple(raptors[r] for r in RAPTORS), turn=turn,
        seat=int(keys.get("seat", str(first + 1))) - 1, phase=phase,
        rolls=int(keys.get("rolls", str(turn))), rolled=_faces(keys.get("rolled", "-")),
        kept=_faces(keys.get("kept", "-")), arrow_die=arrow_die, arrow_aside=arrow_aside,
        used=tuple(Face(c) for c in keys.get("used", "-").replace("-", "").upper()),
        arrows_used=int(keys.get("arrows used", "0")),
        pending=None if pending == "-" else Raptor(pending.upper()),
        forfeited=_seat_list(keys.get("forfeited", "-")),
        winner=on_beyond[0] if len(on_beyond) == 1 else None, steps=(), last_steps=(),
        last_seat=None)
