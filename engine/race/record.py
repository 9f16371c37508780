"""Race records: a finished race as plain text, and back (the format is
``docs/RACE_RECORD.md``)::

    Raptor Race record, format 1
    Event: Race #3
    Seat 1: Alice
    Seat 2: Bob
    Board: desert
    Seats: 2
    Seed: 17
    Reason: finished
    Winners: 2
    Cards: 11 4
    Scores: 15 18
    Order: B Y O=G P
    Turns: 12

    turn 1, seat 2: keep O, keep OT, keep Y, O>C3, O>C4, +Y>E1, TB>D3  # rolled ...

:func:`write_record` turns a seed, the options and the log of a finished race into that
text; :func:`read_record` reads it back and replays it, checking every decision against
the legal actions and every header line the replay can check (the cards, winners, scores,
order and turns). Only a finished race has a record (the seed fixes every card and roll,
RR9.2); a race ended outside the game (a platform's ending, :data:`ENDINGS`) has one too,
since it is over.

Header values are escaped so that a name cannot break a record: ``\\`` as ``\\\\``, ``#``
as ``\\#`` (``#`` starts a comment), control, format (bidi and zero-width) and separator
characters as ``\\uXXXX`` (:func:`escape`, :func:`unescape`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..game import Outcome, RecordHeader
from .actions import Forfeit, Keep, LogEntry, format_action
from .errors import RaceError, RaceRecordError, UnfinishedRaceError
from .notation import parse_action
from .rules import apply, forfeit, new_game
from .scoring import outcome, placing
from .state import MAX_SEATS, MIN_SEATS, RaceState, Reason
from .track import Board

#: The first line of every record; the number is the format's version.
FORMAT_LINE = "Raptor Race record, format 1"
#: The platform's words for a race ended outside the game (engine.game.RecordHeader).
ENDINGS = ("resigned", "timeout", "draw_agreed", "abandoned", "ended_by_moderator",
           "stopped")
#: Header keys in the order written; ``Seat N`` lines come after ``Date``.
HEADER_KEYS = ("Event", "Server", "Date", "Board", "Seats", "Seed", "Reason", "Winners",
               "Cards", "Scores", "Order", "Turns")
REQUIRED_KEYS = ("Board", "Seats", "Seed", "Reason")
_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


# ----------------------------------------------------------------------------- escapes
def escape(value: str) -> str:
    """A header value on one line that reads back as ``value`` (:func:`unescape`): white
    space runs as one space, ``\\`` ``#`` and the characters that could hide or reorder
    text (control, bidi and other format characters, line separators) escaped; an empty
    value is ``-`` (and a value ``-`` is ``\\-``)."""
    text = " ".join(value.split())
    if text == "-":
        return "\\-"
    out = []
    for ch in text:
        if ch in "\\#":
            out.append("\\" + ch)
        elif unicodedata.category(ch) in _ESCAPED_CATEGORIES:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    return "".join(out) or "-"


_UNESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")


def unescape(value: str) -> str:
    """The value :func:`escape` wrote (``-`` reads as empty)."""
    if value == "-":
        return ""

    def one(m: re.Match) -> str:
        code = m.group(1)
        return chr(int(code[1:], 16)) if len(code) > 1 else code

    return _UNESCAPE.sub(one, value)


def strip_comment(line: str) -> str:
    """``line`` without its comment: from the first ``#`` that is not escaped (``\\#``)."""
    i = 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] == "#":
            return line[:i]
        i += 1
    return line


# ----------------------------------------------------------------------------- the record
@dataclass(frozen=True)
class RaceRecord:
    """A record as read.

    Attributes:
        header: every header line, key -> value (unescaped), in order.
        seed, seats, board: the race's setup.
        reason: ``"finished"`` (RR6.1) or one of :data:`ENDINGS`.
        winners: the seats in first place (0-based).
        players: the names by seat (``Seat N`` lines; empty when missing).
        log: every ``(seat, entry)`` in order, forfeits included.
        final: the state the replay reaches.
    """

    header: dict[str, str]
    seed: int
    seats: int
    board: Board
    reason: str
    winners: frozenset[int]
    players: tuple[str, ...]
    log: tuple[tuple[int, LogEntry], ...]
    final: RaceState = field(repr=False, compare=False)

    @property
    def outcome(self) -> Outcome | None:
        """The race's own outcome when it finished (RR7), else None."""
        return outcome(self.final)


def order_text(state: RaceState) -> str:
    """The RR6.2 placing as a record writes it: ``B Y O=G P`` (tied raptors joined by
    ``=``)."""
    return " ".join("=".join(r.value for r in group)
                    for group in placing(state.raptors, state.winner))


def _seats_text(seats) -> str:
    return " ".join(str(s + 1) for s in sorted(seats)) or "-"


# ----------------------------------------------------------------------------- writing
def write_record(seed: int, seats: int, board: Board | str,
                 log: Sequence[tuple[int, LogEntry]], header: RecordHeader) -> str:
    """The record of a finished race (``docs/RACE_RECORD.md``).

    Args:
        seed, seats, board, log: what :func:`engine.race.replay` takes.
        header: the platform's lines (event, server, date, the players by seat) and, for a
            race ended outside the game, ``ending`` (one of :data:`ENDINGS`) and
            ``winners``.

    Returns:
        The text, lines ending in ``\\n``.

    Raises:
        UnfinishedRaceError: the race goes on and no ending outside it is given.
        RaceRecordError: an ending given for a race that finished, or an unknown ending.
        RaceError: an entry of the log that is not legal at its point.
    """
    states = _states(seed, seats, board, log)
    final = states[-1]
    if final.is_over:
        if header.ending is not None:
            raise RaceRecordError(0, "", f"the race finished by its rules: it has no ending "
                                  f"{header.ending!r}")
        reason, winners = Reason.FINISHED.value, outcome(final).winners
    else:
        if header.ending is None:
            raise UnfinishedRaceError("the race is still under way: only a finished race has "
                                      "a record (its seed fixes every card and roll)")
        if header.ending not in ENDINGS:
            raise RaceRecordError(0, "", f"unknown ending {header.ending!r}; known: "
                                  f"{', '.join(ENDINGS)}")
        reason, winners = header.ending, header.winners
    lines = [FORMAT_LINE]
    values = {"Event": header.event, "Server": header.server, "Date": header.date}
    for key in ("Event", "Server", "Date"):
        lines.append(f"{key}: {escape(values[key])}")
    names = (*header.players, *([""] * seats))[:seats]
    lines.extend(f"Seat {n + 1}: {escape(name)}" for n, name in enumerate(names))
    lines += [f"Board: {Board(board).value}", f"Seats: {seats}", f"Seed: {int(seed)}",
              f"Reason: {reason}", f"Winners: {_seats_text(winners)}",
              f"Cards: {' '.join(map(str, final.cards))}"]
    if final.is_over:
        scores = outcome(final).scores
        lines += [f"Scores: {' '.join(str(int(s)) for s in scores)}",
                  f"Order: {order_text(final)}"]
    lines += [f"Turns: {final.turn}", ""]
    lines.extend(_body(states, log))
    return "\n".join(lines) + "\n"


def _states(seed: int, seats: int, board: Board | str,
            log: Sequence[tuple[int, LogEntry]]) -> list[RaceState]:
    """The state before each entry of ``log``, then the final one."""
    state = new_game(seed, seats, board)
    out = [state]
    for seat, entry in log:
        state = _apply_entry(state, seat, entry)
        out.append(state)
    return out


def _apply_entry(state: RaceState, seat: int, entry: LogEntry) -> RaceState:
    if type(entry) is Forfeit:
        after = forfeit(state, seat)
        if after is None or after is state:
            raise RaceError(f"seat {seat + 1} cannot leave the race here")
        return after
    return apply(state, seat, entry)


def _roll_text(state: RaceState) -> str:
    arrows = "" if state.arrow_die is None or state.arrow_aside else f"/{state.arrow_die}"
    return "".join(f.value for f in state.rolled) + arrows


def _body(states: list[RaceState], log: Sequence[tuple[int, LogEntry]]) -> list[str]:
    """One line per turn (split where a seat forfeits), each decision in notation, the
    rolls in a comment."""
    lines: list[str] = []
    items: list[str] = []
    rolls: list[str] = []
    head = ""

    def flush() -> None:
        nonlocal items, rolls
        if items:
            note = f"  # rolled {', '.join(rolls)}" if rolls else ""
            lines.append(f"{head}: {', '.join(items)}{note}")
        items, rolls = [], []

    for (seat, entry), before in zip(log, states[:-1], strict=True):
        if type(entry) is Forfeit:
            flush()
            lines.append(f"seat {seat + 1} forfeits")
            continue
        line_head = f"turn {before.turn}, seat {before.seat + 1}"
        if line_head != head:
            flush()
            head = line_head
        if type(entry) is Keep:  # each Keep follows a roll: what it showed
            rolls.append(_roll_text(before))
        items.append(format_action(entry))
    flush()
    return lines


# ----------------------------------------------------------------------------- reading
_HEADER = re.compile(r"([A-Za-z][A-Za-z ]*?(?: \d+)?)\s*:\s*(.*)")
_TURN = re.compile(r"turn\s+(\d+)\s*,\s*seat\s+(\d+)\s*:\s*(.*)", re.I)
_FORFEIT = re.compile(r"seat\s+(\d+)\s+forfeits", re.I)
_SEAT_KEY = re.compile(r"seat (\d+)", re.I)


def _canonical_key(key: str) -> str:
    if m := _SEAT_KEY.fullmatch(key):
        return f"Seat {int(m.group(1))}"
    for known in HEADER_KEYS:
        if known.lower() == key.lower():
            return known
    return key


def read_record(text: str) -> RaceRecord:
    """Read a record and replay it, checking it all.

    A leading byte-order mark and Windows line endings are accepted; an unescaped ``#``
    starts a comment; blank lines are ignored in the body; keys and keywords are
    case-insensitive; each decision is read as :func:`engine.race.parse_action` reads a
    player's entry.

    Raises:
        RaceRecordError: the first line that does not parse, names an action that is not
            legal at its point, or contradicts the replay (a header line it checks, a turn
            or seat that is not the one playing); line 0 for the record as a whole.
    """
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != FORMAT_LINE:
        raise RaceRecordError(1, lines[0] if lines else "",
                              f"a race record starts with {FORMAT_LINE!r}")
    header: dict[str, str] = {}
    where: dict[str, tuple[int, str]] = {}
    n = 1
    while n < len(lines) and lines[n].strip():
        raw = lines[n]
        body = strip_comment(raw).strip()
        n += 1
        if not body:
            continue
        m = _HEADER.fullmatch(body)
        if not m:
            raise RaceRecordError(n, raw, "a header line is 'Key: value'")
        key = _canonical_key(m.group(1))
        if key in header:
            raise RaceRecordError(n, raw, f"the key {key!r} appears twice")
        header[key] = unescape(m.group(2).strip())
        where[key] = (n, raw)
    for key in REQUIRED_KEYS:
        if key not in header:
            raise RaceRecordError(n, "", f"the header has no {key!r} line (needed: "
                                  f"{', '.join(REQUIRED_KEYS)})")
    seed, seats, board, reason = _read_setup(header, where)
    state = new_game(seed, seats, board)
    log: list[tuple[int, LogEntry]] = []
    last = (n, "")
    for index in range(n, len(lines)):
        raw = lines[index]
        body = strip_comment(raw).strip()
        if body:
            state = _read_line(index + 1, raw, body, state, log)
            last = (index + 1, raw)
    _check_end(state, header, where, reason, last)
    winners = (outcome(state).winners if state.is_over
               else _read_seats(header.get("Winners", "-"), seats, *where.get("Winners", last)))
    players = tuple(header.get(f"Seat {s + 1}", "") for s in range(seats))
    return RaceRecord(header=header, seed=seed, seats=seats, board=board, reason=reason,
                      winners=frozenset(winners), players=players, log=tuple(log), final=state)


def _read_setup(header: dict[str, str], where: dict[str, tuple[int, str]]
                ) -> tuple[int, int, Board, str]:
    try:
        seed = int(header["Seed"])
    except ValueError:
        raise RaceRecordError(*where["Seed"], "the seed is a whole number") from None
    try:
        seats = int(header["Seats"])
    except ValueError:
        seats = 0
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RaceRecordError(*where["Seats"], "Seats is a number from 2 to 5")
    try:
        board = Board(header["Board"].lower())
    except ValueError:
        raise RaceRecordError(*where["Board"], "Board is desert or jungle") from None
    reason = header["Reason"].lower()
    if reason != Reason.FINISHED.value and reason not in ENDINGS:
        raise RaceRecordError(*where["Reason"], f"unknown reason {reason!r}; known: "
                              f"{', '.join((Reason.FINISHED.value, *ENDINGS))}")
    return seed, seats, board, reason


def _read_seats(text: str, seats: int, line: int, raw: str) -> set[int]:
    if text.strip() in ("", "-"):
        return set()
    try:
        out = {int(w) - 1 for w in text.split()}
    except ValueError:
        out = {-1}
    if not out <= set(range(seats)):
        raise RaceRecordError(line, raw, f"seats are numbered 1 to {seats}")
    return out


def _read_line(number: int, raw: str, body: str, state: RaceState,
               log: list[tuple[int, LogEntry]]) -> RaceState:
    if state.is_over:
        raise RaceRecordError(number, raw, f"the race is already over (turn {state.turn}, "
                              f"{state.winner.value} crossed the finish line)")
    if m := _FORFEIT.fullmatch(body):
        seat = int(m.group(1)) - 1
        after = forfeit(state, seat) if 0 <= seat < state.seats else state
        if after is None or after is state:
            raise RaceRecordError(number, raw, f"seat {seat + 1} cannot leave the race here")
        log.append((seat, Forfeit()))
        return after
    m = _TURN.fullmatch(body)
    if not m:
        raise RaceRecordError(number, raw, "expected 'turn N, seat S: ...' or 'seat S "
                              "forfeits'")
    turn, seat = int(m.group(1)), int(m.group(2)) - 1
    if turn != state.turn:
        raise RaceRecordError(number, raw, f"this is turn {state.turn}, not {turn}")
    if seat != state.seat:
        raise RaceRecordError(number, raw, f"turn {turn} is seat {state.seat + 1}'s")
    items = [p.strip() for p in m.group(3).split(",")]
    if not any(items):
        raise RaceRecordError(number, raw, "no action after the colon")
    for item in items:
        if not item:
            raise RaceRecordError(number, raw, "an empty action between commas")
        if state.is_over:
            raise RaceRecordError(number, raw, f"{item!r} comes after the end of the race")
        if state.turn != turn:
            raise RaceRecordError(number, raw, f"{item!r}: turn {turn} is over")
        try:
            action = parse_action(item, state, seat)
        except RaceError as exc:
            raise RaceRecordError(number, raw, str(exc)) from None
        state = apply(state, seat, action)
        log.append((seat, action))
    return state


def _check_end(state: RaceState, header: dict[str, str], where: dict[str, tuple[int, str]],
               reason: str, last: tuple[int, str]) -> None:
    if reason == Reason.FINISHED.value:
        if not state.is_over:
            raise RaceRecordError(*last, f"the record stops in turn {state.turn}, but the "
                                  "race is not over (the header says finished): is it cut "
                                  "short?")
        result = outcome(state)
        checks = {"Winners": _seats_text(result.winners),
                  "Scores": " ".join(str(int(s)) for s in result.scores),
                  "Order": order_text(state)}
    else:
        if state.is_over:
            raise RaceRecordError(*where["Reason"], f"the race itself finished: its reason "
                                  f"is not {reason}")
        checks = {}
    checks["Cards"] = " ".join(map(str, state.cards))
    checks["Turns"] = str(state.turn)
    for key, expected in checks.items():
        if key in header and " ".join(header[key].split()).upper() != expected.upper():
            raise RaceRecordError(*where[key], f"the replay gives {key} {expected}")


__all__ = [
    "ENDINGS", "FORMAT_LINE", "HEADER_KEYS", "RaceRecord", "escape", "order_text",
    "read_record", "strip_comment", "unescape", "write_record",
]
