"""A text picture of a position that round-trips: :func:`to_diagram` / :func:`from_diagram`.

Format (every line but the grid is ``key: value``; unknown keys are an error)::

       A B C D E F G H I J K L M
    1  o . . . . . . . . . . . o
    2    . . # . . . . . . . .
    3    S . . . . # . . . B .
    4    . . . . . . M . . . .
    5    . . # . # . . . # . S
    6  o . . . . . . . . . . . o
    phase: pick
    round: 3
    sleep: 1
    raptor hand: 2 5 7
    ...

Grid cells: ``.`` free space, ``#`` rock, ``*`` fire, ``o`` exit, ``M`` mother, ``B`` baby,
``b`` sleeping baby, ``z`` baby put to sleep this round (R7.4), ``S`` scientist, ``A``
scientist that made its aggressive action this round (R8.6), ``s`` frightened scientist,
``f`` scientist frightened this round (R8.2), blank: not part of the board.

Keys (defaults in brackets, so a test diagram may give only what matters):
``options`` environment layout setup [jungle standard manual] · ``tiles`` six ``face/turns``
[the environment's faces 1-6, unturned] · ``seed`` [0] · ``shuffles`` [0] · ``round`` [1] ·
``phase`` (an :class:`~engine.state.Phase` value) [pick] · ``effect`` ``<side> <card>
[done=N] [called=SQ,SQ]`` · ``ap`` ``<side> <AP left> [mother-moved]`` · ``sleep``,
``escaped``, ``captured``, ``killed`` [0] · ``reserve`` [10 minus scientists on the board and
killed] · ``mother`` ``off`` (after Disappearance) · ``observation``, ``observe-next``
``yes``/``no`` [no] · ``revealed`` ``<raptor card> <scientist card>`` · ``<side> hand``,
``<side> deck`` (top card first), ``<side> discard`` (oldest first), ``<side> pick``; a
side's hand defaults to its three lowest cards not elsewhere and the deck to the rest,
ascending · ``winner`` ``<side> <reason>``. ``-`` means empty or none.

Events are not part of a diagram: a state read back has none.
"""

from __future__ import annotations

from .cards import CARD_VALUES
from .errors import DiagramError
from .geometry import (
    ALL_EXIT_SQUARES,
    BOARD_SQUARES,
    COLS,
    EXIT_CHOICES,
    FACES,
    ROWS,
    SQUARE_NAMES,
    Layout,
    sq,
    square,
    standard_layout,
)
from .state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    EMPTY,
    EXIT,
    FIRE,
    LAYOUTS,
    MOTHER,
    ROCK,
    SCIENTIST_ACTIVE,
    SCIENTIST_CODES,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
    SCIENTISTS,
    SETUPS,
    VOID,
    APState,
    EffectState,
    GameState,
    Options,
    Phase,
    Reason,
    Side,
)

CHARS = {
    VOID: " ", EMPTY: ".", ROCK: "#", FIRE: "*", EXIT: "o", MOTHER: "M", BABY: "B",
    BABY_ASLEEP: "b", BABY_ASLEEP_NEW: "z", SCIENTIST_ACTIVE: "S", SCIENTIST_USED: "A",
    SCIENTIST_FRIGHTENED: "s", SCIENTIST_FRIGHTENED_NEW: "f",
}
CODES = {v: k for k, v in CHARS.items()}
HEADER = "    " + " ".join("ABCDEFGHIJKLM")


def _cards(cards) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def _yn(flag: bool) -> str:
    return "yes" if flag else "no"


#: What each grid character means (the "Grid cells" paragraph above), for people reading one.
LEGEND = ("grid: . free  # rock  * fire  o exit  M mother  B baby  b sleeping baby\n"
          "      z baby put to sleep this round  S scientist  s frightened scientist\n"
          "      A scientist that made its aggressive action this round\n"
          "      f scientist frightened this round\n")


def to_diagram(state: GameState) -> str:
    """The text picture of ``state`` (format in the module docstring)."""
    lines = [HEADER]
    for r in range(ROWS):
        cells = " ".join(CHARS[state.board[sq(r, c)]] for c in range(COLS))
        lines.append(f"{r + 1}   {cells}".rstrip())
    o = state.options
    lines.append(f"options: {o.environment} {o.layout} {o.setup}")
    lines.append("tiles: " + " ".join(f"{f}/{t}" for f, t in state.layout.tiles))
    lines.append(f"seed: {state.seed}")
    lines.append(f"shuffles: {state.shuffles}")
    lines.append(f"round: {state.round}")
    lines.append(f"phase: {state.phase.value}")
    if state.effect is not None:
        e = state.effect
        extra = f" called={','.join(SQUARE_NAMES[c] for c in e.called)}" if e.called else ""
        lines.append(f"effect: {e.side.value} {e.card} done={e.done}{extra}")
    if state.ap is not None:
        a = state.ap
        lines.append(f"ap: {a.side.value} {a.remaining}" + (" mother-moved" if a.mother_moved
                                                            else ""))
    lines.append(f"sleep: {state.sleep_tokens}")
    lines.append(f"escaped: {state.escaped}")
    lines.append(f"captured: {state.captured}")
    lines.append(f"killed: {state.killed}")
    lines.append(f"reserve: {state.reserve}")
    if state.mother_off:
        lines.append("mother: off")
    lines.append(f"observation: {_yn(state.observation)}")
    lines.append(f"observe-next: {_yn(state.observe_next)}")
    if state.revealed is not None:
        lines.append(f"revealed: {state.revealed[0]} {state.revealed[1]}")
    for side in (Side.RAPTOR, Side.SCIENTIST):
        n = side.value
        lines.append(f"{n} hand: {_cards(state.hands[side])}")
        lines.append(f"{n} deck: {_cards(state.decks[side])}")
        lines.append(f"{n} discard: {_cards(state.discards[side])}")
        pick = state.picks[side]
        lines.append(f"{n} pick: {'-' if pick is None else pick}")
    if state.winner is not None:
        lines.append(f"winner: {state.winner.value} {state.reason.value}")
    return "\n".join(lines) + "\n"


_KEYS = {"options", "tiles", "seed", "shuffles", "round", "phase", "effect", "ap", "sleep",
         "escaped", "captured", "killed", "reserve", "mother", "observation", "observe-next",
         "revealed", "winner"} | {f"{s} {k}" for s in ("raptor", "scientist")
                                  for k in ("hand", "deck", "discard", "pick")}


def _parse_cards(text: str, where: str) -> tuple[int, ...]:
    if text.strip() in ("-", ""):
        return ()
    try:
        cards = tuple(int(x) for x in text.split())
    except ValueError as exc:
        raise DiagramError(f"{where}: {text!r} is not a list of card values 1-9") from exc
    if any(c not in CARD_VALUES for c in cards):
        raise DiagramError(f"{where}: {text!r} has a value outside 1-9")
    return cards


def _yes(text: str, key: str) -> bool:
    if text not in ("yes", "no"):
        raise DiagramError(f"{key}: expected yes or no, got {text!r}")
    return text == "yes"


def from_diagram(text: str) -> GameState:
    """Read a diagram (module docstring) into a state.

    Raises:
        DiagramError: a malformed grid, an unknown key, impossible values.
    """
    raw = [ln.rstrip("\n") for ln in text.strip("\n").splitlines()]
    raw = [ln for ln in raw if ln.strip()]
    if not raw or raw[0].split() != list("ABCDEFGHIJKLM"):
        raise DiagramError("a diagram starts with the column header 'A B C ... M'")
    col0 = raw[0].index("A")
    board = [VOID] * (ROWS * COLS)
    for r in range(ROWS):
        if r + 1 >= len(raw):
            raise DiagramError(f"row {r + 1} of the grid is missing")
        line = raw[r + 1]
        if not line.startswith(str(r + 1)):
            raise DiagramError(f"grid row {r + 1} must start with its number: {line!r}")
        for c in range(COLS):
            pos = col0 + 2 * c
            ch = line[pos] if pos < len(line) else " "
            if ch not in CODES:
                raise DiagramError(f"row {r + 1}, column {'ABCDEFGHIJKLM'[c]}: unknown cell "
                                   f"{ch!r}")
            code = CODES[ch]
            q = sq(r, c)
            on_board = 1 <= c <= 11
            if on_board and code in (VOID, EXIT):
                raise DiagramError(f"{SQUARE_NAMES[q]} is a board space: it cannot be "
                                   f"{'blank' if code == VOID else 'an exit'}")
            if not on_board and code not in (VOID, EXIT):
                raise DiagramError(f"{SQUARE_NAMES[q]}: columns A and M hold only exits")
            if code == EXIT and q not in ALL_EXIT_SQUARES:
                raise DiagramError(f"{SQUARE_NAMES[q]} cannot be an exit: exits are only "
                                   f"at A1 A3 A4 A6 M1 M3 M4 M6 (R2.1)")
            board[q] = code
    kv: dict[str, str] = {}
    for line in raw[ROWS + 1:]:
        if ":" not in line:
            raise DiagramError(f"expected 'key: value', got {line!r}")
        key, _, value = line.partition(":")
        key = key.strip().lower()
        if key not in _KEYS:
            raise DiagramError(f"unknown key {key!r}; known: {', '.join(sorted(_KEYS))}")
        kv[key] = value.strip()

    env, lay, setup = (kv.get("options", "jungle standard manual").split() + [None] * 3)[:3]
    if env not in FACES or lay not in LAYOUTS or setup not in SETUPS:
        raise DiagramError(f"options: expected '<jungle|savannah> <random|standard> "
                           f"<manual|quick>', got {kv.get('options')!r}")
    exits = []
    for t, choices in EXIT_CHOICES.items():
        found = [q for q in choices if board[q] == EXIT]
        if len(found) != 1:
            raise DiagramError(f"L-tile X{t - 5} needs exactly one exit (one of "
                               f"{' '.join(SQUARE_NAMES[q] for q in choices)})")
        exits.append(found[0])
    if "tiles" in kv:
        tiles = []
        for item in kv["tiles"].split():
            face, _, turns = item.partition("/")
            if face not in FACES[env] or not turns.isdigit():
                raise DiagramError(f"tiles: {item!r} is not '<face>/<turns>' of {env}")
            tiles.append((face, int(turns) % 4))
        if len(tiles) != 6:
            raise DiagramError("tiles: six square-tile faces are needed")
    else:
        tiles = list(standard_layout(env).tiles)
    layout = Layout(env, tuple(tiles), tuple(exits))  # type: ignore[arg-type]

    s = GameState.__new__(GameState)
    try:
        s.seed = int(kv.get("seed", "0"))
        s.shuffles = int(kv.get("shuffles", "0"))
        s.round = int(kv.get("round", "1"))
        s.phase = Phase(kv.get("phase", "pick"))
        s.sleep_tokens = int(kv.get("sleep", "0"))
        s.escaped = int(kv.get("escaped", "0"))
        s.captured = int(kv.get("captured", "0"))
        s.killed = int(kv.get("killed", "0"))
    except ValueError as exc:
        raise DiagramError(f"bad number or phase: {exc}") from exc
    on_board = sum(1 for q in BOARD_SQUARES if board[q] in SCIENTIST_CODES)
    s.reserve = int(kv.get("reserve", str(SCIENTISTS - on_board - s.killed)))
    s.options = Options(env, lay, setup)
    s.layout = layout
    s.board = board
    s.mother_off = kv.get("mother", "on") == "off"
    s.observation = _yes(kv.get("observation", "no"), "observation")
    s.observe_next = _yes(kv.get("observe-next", "no"), "observe-next")
    s.revealed = None
    if "revealed" in kv and kv["revealed"] != "-":
        rc = _parse_cards(kv["revealed"], "revealed")
        if len(rc) != 2:
            raise DiagramError("revealed: two values, raptor's then scientist's")
        s.revealed = (rc[0], rc[1])
    s.hands, s.decks, s.discards, s.picks = {}, {}, {}, {}
    for side in (Side.RAPTOR, Side.SCIENTIST):
        n = side.value
        discard = _parse_cards(kv.get(f"{n} discard", "-"), f"{n} discard")
        pick_text = kv.get(f"{n} pick", "-")
        pick = None if pick_text == "-" else _parse_cards(pick_text, f"{n} pick")[0]
        used = set(discard) | ({pick} if pick is not None else set())
        rest = [c for c in CARD_VALUES if c not in used]
        hand = (_parse_cards(kv[f"{n} hand"], f"{n} hand") if f"{n} hand" in kv
                else tuple(rest[:3]))
        deck = (_parse_cards(kv[f"{n} deck"], f"{n} deck") if f"{n} deck" in kv
                else tuple(c for c in rest if c not in hand))
        allc = list(hand) + list(deck) + list(discard) + ([pick] if pick is not None else [])
        if len(allc) != len(set(allc)):
            raise DiagramError(f"{n}: a card appears twice among hand, deck, discard, pick")
        s.hands[side] = tuple(sorted(hand))
        s.decks[side] = deck
        s.discards[side] = discard
        s.picks[side] = pick
    s.effect = None
    if "effect" in kv:
        parts = kv["effect"].split()
        try:
            side, card = Side(parts[0]), int(parts[1])
            done, called = 0, ()
            for p in parts[2:]:
                if p.startswith("done="):
                    done = int(p[5:])
                elif p.startswith("called="):
                    called = tuple(square(x) for x in p[7:].split(",") if x)
                else:
                    raise ValueError(p)
        except (ValueError, IndexError) as exc:
            raise DiagramError(f"effect: expected '<side> <card> [done=N] [called=SQ,..]', "
                               f"got {kv['effect']!r}") from exc
        s.effect = EffectState(side, card, done, called)
    s.ap = None
    if "ap" in kv:
        parts = kv["ap"].split()
        try:
            s.ap = APState(Side(parts[0]), int(parts[1]), "mother-moved" in parts[2:])
        except (ValueError, IndexError) as exc:
            raise DiagramError(f"ap: expected '<side> <AP> [mother-moved]', got {kv['ap']!r}") \
                from exc
        if not 0 <= s.ap.remaining <= 8:  # R5.5: the difference of two cards 1-9
            raise DiagramError(f"ap: AP left must be 0 to 8, got {s.ap.remaining}")
    s.winner = s.reason = None
    if "winner" in kv:
        try:
            w, reason = kv["winner"].split()
            s.winner, s.reason = Side(w), Reason(reason)
        except ValueError as exc:
            raise DiagramError(f"winner: expected '<side> <reason>', got {kv['winner']!r}") \
                from exc
    if s.phase is Phase.EFFECT and s.effect is None:
        raise DiagramError("phase effect needs an 'effect:' line")
    if s.phase is Phase.AP and s.ap is None:
        raise DiagramError("phase ap needs an 'ap:' line")
    if s.phase in (Phase.EFFECT, Phase.AP) and s.revealed is None:
        raise DiagramError(f"phase {s.phase.value} needs a 'revealed:' line")
    mothers = board.count(MOTHER)
    if mothers > 1 or (mothers == 0 and not s.mother_off and s.phase not in (
            Phase.SETUP_MOTHER, Phase.OVER)):
        raise DiagramError("the board needs exactly one mother (M) unless 'mother: off'")
    s.events = s.round_events = s.last_round_events = ()
    s._legal = {}
    return s
