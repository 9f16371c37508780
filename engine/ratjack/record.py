"""Match records: a finished Ratjack match as plain text, and back (the format is
``docs/RATJACK_RECORD.md``)::

    Ratjack match record, format 1
    Event: Ratjack match #4
    Player 1: Alice
    ...
    Seats: 3
    Decks: rb
    Seed: 8812
    Result: p2
    Reason: three_vp
    VP: 1 3 0
    Rounds: 4

    round 1  # p3 begins
    p3: draw deck, up R5, p1@1
    p1: draw discard, discard W2, flip @1, p2@2

:func:`write_record` turns a seed, the options and the log of a finished match into that
text; :func:`read_record` reads it back and replays it, checking every decision against
:func:`~.rules.legal_actions` and the ending against the header. Header values are escaped
(``\\#``, ``\\\\``, ``\\u{202e}`` for control, format and bidirectional characters) so a
name can neither start a comment nor reorder the line on screen.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..game import RecordHeader
from .actions import Action, format_action, seat_name
from .cards import DECK_PAIRS
from .errors import MatchRecordError, RatjackError, UnfinishedMatchError
from .notation import parse_action
from .rules import MAX_SEATS, MIN_SEATS, apply, forfeit, new_game, to_act
from .state import Phase, Reason, State

#: The first line of every record; the number is the format's version.
FORMAT_LINE = "Ratjack match record, format 1"
#: How the platform ends a match outside the game (``RecordHeader.ending``).
ENDINGS = ("resigned", "timeout", "draw_agreed", "abandoned", "ended_by_moderator", "stopped")
#: A forfeit in the body (RJ8.4): ``p2: forfeit``.
FORFEIT_WORD = "forfeit"
REQUIRED_KEYS = ("Seats", "Decks", "Seed", "Result", "Reason")

_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def escape(value: str) -> str:
    """``value`` as a header writes it: ``\\`` and ``#`` escaped, control, format (bidi
    included) and separator characters as ``\\u{hex}``; ordinary spaces kept."""
    out = []
    for ch in str(value):
        if ch == "\\":
            out.append("\\\\")
        elif ch == "#":
            out.append("\\#")
        elif unicodedata.category(ch) in _ESCAPED_CATEGORIES:
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    return "".join(out)


_UNESCAPE = re.compile(r"\\(\\|#|u\{([0-9a-fA-F]{1,6})\})")


def unescape(text: str) -> str:
    """The inverse of :func:`escape`."""
    def one(m: re.Match[str]) -> str:
        if m.group(2) is not None:
            code = int(m.group(2), 16)
            return chr(code) if code <= 0x10FFFF else m.group(0)
        return m.group(1)
    return _UNESCAPE.sub(one, text)


def strip_comment(line: str) -> str:
    """``line`` up to its first ``#`` that is not escaped."""
    i = 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] == "#":
            return line[:i]
        i += 1
    return line


@dataclass(frozen=True)
class MatchRecord:
    """A record as read.

    Attributes:
        header: every header line, key -> value (unescaped), in order.
        seed, seats, decks: the game's seed, seat count and deck pair.
        winners: the seats of the Result line; reason: the Reason line (a :class:`Reason`
            value or one of :data:`ENDINGS`).
        log: every decision ``(seat, action)``; an action of None is a forfeit.
        final: the state the replay reaches.
    """

    header: dict[str, str]
    seed: int
    seats: int
    decks: str
    winners: tuple[int, ...]
    reason: str
    log: tuple[tuple[int, Action | None], ...]
    final: State = field(repr=False, compare=False)

    @property
    def players(self) -> tuple[str, ...]:
        """The names of the ``Player N`` lines, by seat ("" when missing)."""
        return tuple(self.header.get(f"Player {q + 1}", "") for q in range(self.seats))


# ----------------------------------------------------------------------------- writing
def _play(seed: int, seats: int, decks: str,
          log: Iterable[tuple[int, Action | None]]) -> State:
    s = new_game(seed, seats, decks)
    for seat, action in log:
        s = forfeit(s, seat) if action is None else apply(s, seat, action)
    return s


def write_record(seed: int, seats: int, decks: str, log: Sequence[tuple[int, Action | None]],
                 header: RecordHeader | None = None) -> str:
    """The record of a finished match (``docs/RATJACK_RECORD.md``).

    Args:
        seed, seats, decks, log: what :func:`~.rules.replay` takes (a None action: a forfeit).
        header: the platform's lines; ``header.ending`` and ``header.winners`` for a match
            ended outside the game (the game then is not over).

    Raises:
        UnfinishedMatchError: the game is not over and no ending outside it is given.
        MatchRecordError: an ending outside the game for a game its rules ended, or an
            unknown ending.
        RatjackError: an action of the log that is not legal at its point.
    """
    header = header if header is not None else RecordHeader()
    final = _play(seed, seats, decks, log)
    if final.phase is Phase.OVER:
        if header.ending is not None:
            raise MatchRecordError(0, "", f"the game ended by its rules ({final.reason.value})"
                                   f", not {header.ending}")
        winners, reason = final.winners, final.reason.value
    else:
        if header.ending is None:
            raise UnfinishedMatchError("the match is still in progress: only a finished match "
                                       "has a record (its seed fixes the deck orders)")
        if header.ending not in ENDINGS:
            raise MatchRecordError(0, "", f"unknown ending {header.ending!r}; known: "
                                   f"{', '.join(ENDINGS)}")
        winners, reason = tuple(sorted(header.winners)), header.ending
    lines = [FORMAT_LINE]
    values = [("Event", header.event), ("Server", header.server), ("Date", header.date)]
    names = (*header.players, *([""] * seats))[:seats]
    values += [(f"Player {q + 1}", name) for q, name in enumerate(names)]
    values += [("Seats", str(seats)), ("Decks", decks), ("Seed", str(int(seed))),
               ("Result", " ".join(seat_name(q) for q in winners) or "none"),
               ("Reason", reason), ("VP", " ".join(str(v) for v in final.vp)),
               ("Rounds", str(final.round))]
    for key, value in values:
        lines.append(f"{key}: {escape(value) or '-'}")
    lines.append("")
    lines.extend(_body(seed, seats, decks, log))
    return "\n".join(lines) + "\n"


def _body(seed: int, seats: int, decks: str,
          log: Sequence[tuple[int, Action | None]]) -> list[str]:
    """One ``round N`` line per round, then one line per run of one seat's decisions within a
    turn (docs/RATJACK_RECORD.md)."""
    s = new_game(seed, seats, decks)
    lines = [f"round 1  # {seat_name(s.current)} begins"]
    group: tuple[int, int, int] | None = None  # (seat, round, turn) of the line being built
    items: list[str] = []

    def flush() -> None:
        nonlocal group, items
        if group is not None and items:
            lines.append(f"{seat_name(group[0])}: {', '.join(items)}")
        group, items = None, []

    for seat, action in log:
        key = (seat, s.round, s.turn)
        if key != group:
            flush()
            group = key
        items.append(FORFEIT_WORD if action is None else format_action(action))
        before = s.round
        s = forfeit(s, seat) if action is None else apply(s, seat, action)
        if s.round != before or s.phase is Phase.OVER:
            flush()
            if s.last_round is not None:
                gains = ", ".join(f"{seat_name(q)} +{g}" for q, g in
                                  enumerate(s.last_round.gains) if g) or "no VP"
                lines.append(f"# round {s.last_round.round} ends: {s.last_round.end.value}, "
                             f"{gains}")
            if s.round != before:
                lines.append(f"round {s.round}  # {seat_name(s.current)} begins")
    flush()
    return lines


# ----------------------------------------------------------------------------- reading
_HEADER = re.compile(r"([A-Za-z][A-Za-z0-9 ]*?)\s*:\s*(.*)")
_ROUND = re.compile(r"round\s+(\d+)", re.I)
_LINE = re.compile(r"p(\d)\s*:\s*(.*)", re.I)


_KEYS = {k.lower(): k for k in ("Event", "Server", "Date", "Seats", "Decks", "Seed", "Result",
                                 "Reason", "VP", "Rounds")}


def _canonical_key(key: str) -> str:
    """A header key as this module spells it (keys are case-insensitive)."""
    words = " ".join(key.split())
    m = re.fullmatch(r"player (\d+)", words, re.I)
    if m:
        return f"Player {int(m.group(1))}"
    return _KEYS.get(words.lower(), words)


def read_record(text: str) -> MatchRecord:
    """Read a record and replay it, checking it all.

    A leading byte-order mark and Windows line endings are accepted; ``#`` starts a comment
    (in header values only an escaped ``\\#`` is a character); blank lines are ignored;
    notation is read as :func:`~.notation.parse_action` reads a player's entry.

    Raises:
        MatchRecordError: the first line that does not parse, names an action that is not
            legal at its point, or contradicts the header; line 0 for the record as a whole.
    """
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not lines or lines[0].strip() != FORMAT_LINE:
        raise MatchRecordError(1, lines[0] if lines else "", f"the first line must be "
                               f"{FORMAT_LINE!r}")
    header: dict[str, str] = {}
    where: dict[str, tuple[int, str]] = {}
    n = 1
    while n < len(lines) and lines[n].strip():
        raw = lines[n]
        m = _HEADER.fullmatch(strip_comment(raw).strip())
        if not m:
            raise MatchRecordError(n + 1, raw, "a header line is 'Key: value'")
        key = _canonical_key(m.group(1))
        if key in header:
            raise MatchRecordError(n + 1, raw, f"{key!r} appears twice")
        value = unescape(m.group(2).strip())
        header[key] = "" if value == "-" else value
        where[key] = (n + 1, raw)
        n += 1
    for key in REQUIRED_KEYS:
        if key not in header:
            raise MatchRecordError(n, "", f"the header has no {key!r} line (needed: "
                                   f"{', '.join(REQUIRED_KEYS)})")
    seats, decks, seed, winners, reason = _read_header(header, where)
    s = new_game(seed, seats, decks)
    log: list[tuple[int, Action | None]] = []
    last = (n, "")
    for index in range(n, len(lines)):
        raw = lines[index]
        body = strip_comment(raw).strip()
        if body:
            s = _read_line(index + 1, raw, body, s, log)
            last = (index + 1, raw)
    _check_end(s, header, where, winners, reason, last)
    return MatchRecord(header, seed, seats, decks, winners, reason, tuple(log), s)


def _read_header(header: dict[str, str], where: dict[str, tuple[int, str]]
                 ) -> tuple[int, str, int, tuple[int, ...], str]:
    line, raw = where["Seats"]
    if not header["Seats"].isdigit() or not MIN_SEATS <= int(header["Seats"]) <= MAX_SEATS:
        raise MatchRecordError(line, raw, "Seats is 2, 3 or 4")
    seats = int(header["Seats"])
    line, raw = where["Decks"]
    decks = header["Decks"].lower()
    if decks not in DECK_PAIRS:
        raise MatchRecordError(line, raw, f"Decks is one of {', '.join(DECK_PAIRS)}")
    line, raw = where["Seed"]
    try:
        seed = int(header["Seed"])
    except ValueError:
        raise MatchRecordError(line, raw, "the seed is a whole number") from None
    line, raw = where["Result"]
    words = header["Result"].lower().split()
    if words == ["none"]:
        winners: tuple[int, ...] = ()
    else:
        names = {seat_name(q): q for q in range(seats)}
        if not words or any(w not in names for w in words):
            raise MatchRecordError(line, raw, f"Result names the winners "
                                   f"({', '.join(names)}) or 'none'")
        winners = tuple(sorted({names[w] for w in words}))
    line, raw = where["Reason"]
    reason = header["Reason"].lower()
    if reason not in {r.value for r in Reason} | set(ENDINGS):
        known = ", ".join([r.value for r in Reason] + list(ENDINGS))
        raise MatchRecordError(line, raw, f"unknown reason {reason!r}; known: {known}")
    return seats, decks, seed, winners, reason


def _read_line(number: int, raw: str, body: str, s: State,
               log: list[tuple[int, Action | None]]) -> State:
    m = _ROUND.fullmatch(body)
    if m:
        if int(m.group(1)) != s.round:
            raise MatchRecordError(number, raw, f"this is round {s.round}, not {m.group(1)}")
        return s
    m = _LINE.fullmatch(body)
    if not m:
        raise MatchRecordError(number, raw, "expected 'round N' or 'pN: actions'")
    seat = int(m.group(1)) - 1
    if not 0 <= seat < s.seats:
        raise MatchRecordError(number, raw, f"there is no p{seat + 1} in a game of {s.seats}")
    items = [p.strip() for p in m.group(2).split(",")]
    if not any(items):
        raise MatchRecordError(number, raw, "no action after the colon")
    for item in items:
        if not item:
            raise MatchRecordError(number, raw, "an empty action between commas")
        if s.phase is Phase.OVER:
            raise MatchRecordError(number, raw, f"{item!r} comes after the end of the game")
        if item.lower() == FORFEIT_WORD:
            if s.forfeited[seat]:
                raise MatchRecordError(number, raw, f"{seat_name(seat)} already left the match")
            s = forfeit(s, seat)
            log.append((seat, None))
            continue
        if seat not in to_act(s):
            waiting = ", ".join(seat_name(q) for q in sorted(to_act(s)))
            raise MatchRecordError(number, raw, f"{item!r}: {seat_name(seat)} does not decide "
                                   f"now ({waiting} does)")
        try:
            action = parse_action(item, s, seat)
        except RatjackError as exc:
            raise MatchRecordError(number, raw, str(exc)) from None
        s = apply(s, seat, action)
        log.append((seat, action))
    return s


def _check_end(s: State, header: dict[str, str], where: dict[str, tuple[int, str]],
               winners: tuple[int, ...], reason: str, last: tuple[int, str]) -> None:
    game_reasons = {r.value for r in Reason}
    line, raw = where["Reason"]
    if reason in game_reasons:
        if s.phase is not Phase.OVER:
            raise MatchRecordError(*last, f"the record stops here, in round {s.round}, but the "
                                   f"game is not over (the header says {reason}): is it cut "
                                   f"short?")
        if s.reason.value != reason:
            raise MatchRecordError(line, raw, f"the game ends {s.reason.value}, not {reason}")
        if s.winners != winners:
            said = " ".join(seat_name(q) for q in s.winners)
            raise MatchRecordError(*where["Result"], f"the game's winners are {said}")
    elif s.phase is Phase.OVER:
        raise MatchRecordError(line, raw, f"the game itself ended ({s.reason.value}): its "
                               f"reason is not {reason}")
    if "VP" in header:
        line, raw = where["VP"]
        if header["VP"].split() != [str(v) for v in s.vp]:
            raise MatchRecordError(line, raw, f"the replay gives VP "
                                   f"{' '.join(str(v) for v in s.vp)}")
    if "Rounds" in header:
        line, raw = where["Rounds"]
        if header["Rounds"] != str(s.round):
            raise MatchRecordError(line, raw, f"the replay plays {s.round} rounds")


__all__ = ["ENDINGS", "FORMAT_LINE", "MatchRecord", "escape", "read_record", "strip_comment",
           "unescape", "write_record"]
