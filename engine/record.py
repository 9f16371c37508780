"""Match records: a finished match as plain text, and back (the format is ``docs/RECORD.md``).

A record is to Raptor what PGN is to chess: header lines (``Key: value``) saying who played
what, where, with which options and seed, and how it ended; then the rounds, one line per
decision group, every decision in the action notation of :mod:`engine.notation`::

    Raptor match record, format 2
    Event: Raptor match #12
    ...
    Seed: 8812736
    Result: scientist
    Reason: babies_captured
    Rounds: 23

    round 1: raptor 5, scientist 3  # scientist: Jeep ×2, raptor: 2 AP
      effect scientist: C3-G3, end
      ap raptor: G2-G5, kill F3

:func:`write_record` turns a seed, options and the action log of a finished match into that
text; :func:`read_record` reads it back and replays it with :func:`engine.replay`, checking
every decision against :func:`engine.legal_actions` and the ending against the header. A
record is only written for a finished match (the seed fixes both hands, R11.2); a pick that
was never revealed (a match ended outside the game mid-pick) is left out.

Header values are free text (player and server names): :func:`escape_value` writes the
characters that would break a line, hide text or reorder it as ``\\u{XXXX}`` (a backslash as
``\\\\``), so the text a name holds is what reads back; format 1 records (older writers,
no escapes) are read as they were written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .actions import Action, Pick
from .cards import card_name
from .errors import RaptorError
from .game import Ending
from .messages import Text
from .notation import format_action, parse_action
from .predicates import ap_total
from .rules import apply, new_game, to_act
from .state import GameState, Options, Phase, Reason, Side

#: The format this version writes: 2 escapes header values (:func:`escape_value`), 1 did not.
FORMAT = 2
#: The first line of every record; the number is the format's version.
FORMAT_LINE = f"Raptor match record, format {FORMAT}"
#: The formats :func:`read_record` reads.
READ_FORMATS = (1, 2)


class MatchRecordError(RaptorError):
    """A record that cannot be read, names an illegal action, or does not reach its stated
    ending. ``line`` is the 1-based line number (0: the record as a whole), ``text`` that
    line, ``reason`` what is wrong; the message quotes all three."""

    def __init__(self, line: int, text: str, reason: str) -> None:
        self.line, self.text, self.reason = line, text, reason
        where = f"line {line}: " if line else ""
        quoted = f" ({text.strip()[:80]!r})" if text.strip() else ""
        super().__init__(f"{where}{reason}{quoted}")


class UnfinishedMatchError(RaptorError):
    """A record was asked of a match still in progress: its seed and hands are secret
    (R11.2) until it is over."""


def ending_banner(result: str | None, reason: Ending | str) -> Text:
    """The one-line banner of a match ended outside the game, for its board image and a
    replay's last frame, e.g. ``"Scientist wins: the raptor resigned"``, ``"Draw by
    agreement"``. ``result`` is ``"raptor"``, ``"scientist"``, ``"draw"`` or None/``"none"``.
    """
    reason = str(reason.value if isinstance(reason, Ending) else reason)
    if result == "draw":
        return Text("Draw by agreement")
    if result in (None, "none"):
        if reason == Ending.STOPPED:
            return Text("No result: the player stopped the match")
        if reason == Ending.AI_FAILED:
            return Text("No result: the AI could not decide")
        return (Text("No result: ended by a moderator") if reason == Ending.ENDED_BY_MODERATOR
                else Text("No result: both players ran out of time"))
    winner = Side(result)
    names = {Side.RAPTOR: Text("Raptor"), Side.SCIENTIST: Text("Scientist")}
    sides = {Side.RAPTOR: Text("raptor"), Side.SCIENTIST: Text("scientist")}
    if reason == Ending.RESIGNED:
        return Text("{winner} wins: the {loser} resigned", winner=names[winner],
                    loser=sides[winner.other])
    if reason == Ending.TIMEOUT:
        return Text("{winner} wins: the {loser} ran out of time", winner=names[winner],
                    loser=sides[winner.other])
    return Text("{winner} wins: {reason}", winner=names[winner], reason=reason)


#: The results an ending outside the game allows.
_ENDING_RESULTS = {
    Ending.RESIGNED: ("raptor", "scientist"), Ending.TIMEOUT: ("raptor", "scientist"),
    Ending.DRAW_AGREED: ("draw",), Ending.ABANDONED: ("none",),
    Ending.ENDED_BY_MODERATOR: ("none",), Ending.STOPPED: ("none",),
    Ending.AI_FAILED: ("none",),
}
RESULTS = ("raptor", "scientist", "draw", "none")
#: Header keys in the order :func:`write_record` writes them; the descriptive ones (Event to
#: Scientist) may be missing from a record, the others may not.
HEADER_KEYS = ("Event", "Server", "Date", "Raptor", "Scientist", "Environment", "Layout",
               "Setup", "Seed", "Result", "Reason", "Rounds")
REQUIRED_KEYS = ("Environment", "Layout", "Setup", "Seed", "Result", "Reason")
#: Header keys whose values the reader interprets (words and numbers, never a ``#``): a ``#``
#: after them starts a comment. Every other value is free text to the end of its line.
WORD_KEYS = (*REQUIRED_KEYS, "Rounds")


# ----------------------------------------------------------------------------- escaping
#: Unicode's bidirectional controls (the Bidi_Control property): raw in a name they reorder
#: the text around them (U+202E RIGHT-TO-LEFT OVERRIDE turns "abc" into "cba" on screen).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
#: General categories never written raw: controls (C0, DEL, C1: line breaks, tabs, NUL),
#: line and paragraph separators (they end a line for :meth:`str.splitlines`), lone
#: surrogates (not encodable as UTF-8).
_ESCAPED_CATEGORIES = frozenset({"Cc", "Zl", "Zp", "Cs"})
_ESCAPE = re.compile(r"\\(?:u\{([0-9A-Fa-f]{1,6})\}|(\\))?")


def _escaped(ch: str) -> bool:
    """Whether header values write ``ch`` as an escape: a backslash, a bidi control, a
    control or line-ending character, a lone surrogate, or U+FFFD (the reader takes it for a
    sign of binary data)."""
    return (ch == "\\" or ch == "\ufffd" or ch in BIDI_CONTROLS
            or unicodedata.category(ch) in _ESCAPED_CATEGORIES)


def escape_value(text: str) -> str:
    """A header value as format 2 writes it: one line, every character of ``text`` kept.

    A backslash becomes ``\\\\``; each character :func:`_escaped` names, and white space at
    either end (the reader strips it), becomes ``\\u{XXXX}`` (its code point, upper-case hex,
    at least four digits). ``#`` is written as it is (free text runs to the end of the line).
    ``escape_value("Bob\\u202e")`` is ``"Bob\\\\u{202E}"``; :func:`unescape_value` reverses it.
    """
    out = []
    last = len(text) - 1
    for i, ch in enumerate(text):
        if ch == "\\":
            out.append("\\\\")
        elif _escaped(ch) or (ch.isspace() and i in (0, last)):
            out.append(f"\\u{{{ord(ch):04X}}}")
        else:
            out.append(ch)
    return "".join(out)


def unescape_value(text: str) -> str:
    """The text a format-2 header value holds (the inverse of :func:`escape_value`).

    Raises:
        ValueError: a backslash that starts neither ``\\\\`` nor ``\\u{hex}`` (1 to 6 hex
            digits, at most 10FFFF); the message says which.
    """
    def one(m: re.Match[str]) -> str:
        if m.group(2):
            return "\\"
        if m.group(1) is None or int(m.group(1), 16) > 0x10FFFF:
            bad = m.group(0) if m.group(1) else text[m.start():m.start() + 2]
            raise ValueError(f"{bad!r} is no escape: a backslash in a header value starts "
                             "\\\\ (a backslash) or \\u{hex} (a character by its code point, "
                             "at most 10FFFF)")
        return chr(int(m.group(1), 16))

    return _ESCAPE.sub(one, text)


@dataclass(frozen=True)
class MatchRecord:
    """A record as read (or about to be written).

    Attributes:
        header: every header line, key -> value, in order (unknown keys kept).
        seed: the game's seed; options: its :class:`engine.Options`.
        result: ``"raptor"``, ``"scientist"``, ``"draw"`` or ``"none"``.
        reason: an :class:`engine.Reason` (the game ended, R6) or an :class:`Ending`.
        actions: every decision ``(side, action)`` in the order applied.
        final: the state :func:`engine.replay` reaches from them.
    """

    header: dict[str, str]
    seed: int
    options: Options
    result: str
    reason: Reason | Ending
    actions: tuple[tuple[Side, Action], ...]
    final: GameState = field(repr=False, compare=False)

    @property
    def rounds(self) -> int:
        """Rounds played (see :func:`rounds_played`)."""
        return rounds_played(self.final)

    def round_states(self) -> list[GameState]:
        """The state after each round that ended (a new round's card pick, or the game's
        end), then the final state if the match ended during a round (outside the game):
        what a replay shows frame by frame. Empty for a match ended during setup."""
        return round_states(self.seed, self.options, self.actions)


def rounds_played(state: GameState) -> int:
    """The number of rounds played up to ``state``: its round, or the one before when that
    round's card pick has not begun (0 during setup)."""
    if state.phase is Phase.PICK and not any(state.picks.values()):
        return state.round - 1
    return state.round


def round_states(seed: int, options: Options,
                 actions: Iterable[tuple[Side, Action]]) -> list[GameState]:
    """See :meth:`MatchRecord.round_states`.

    Raises:
        RaptorError: an action that is not legal at its point.
    """
    s = new_game(seed, **_options_dict(options))
    out: list[GameState] = []
    for side, action in actions:
        before = s.round
        s = apply(s, side, action)
        if (before >= 1 and s.round != before) or s.is_over:
            out.append(s)
    if not s.is_over and s.round >= 1 and rounds_played(s) == s.round:
        out.append(s)  # ended outside the game during a round
    return out


def _options_dict(options: Options) -> dict[str, str]:
    return {"environment": options.environment, "layout": options.layout,
            "setup": options.setup}


# ----------------------------------------------------------------------------- writing
def write_record(seed: int, options: Options | Mapping[str, str],
                 actions: Iterable[tuple[Side | str, Action]], *,
                 result: str | None = None, reason: Reason | Ending | str | None = None,
                 event: str = "", server: str = "", date: str = "", raptor: str = "",
                 scientist: str = "") -> str:
    """The record of a finished match (format of ``docs/RECORD.md``).

    Args:
        seed, options, actions: what :func:`engine.replay` takes (the effective action log,
            undone actions left out).
        result, reason: how the match ended. A game won under R6 needs neither (they are
            read from the final state; if given, they must agree); a match ended outside
            the game needs both: ``reason`` an :class:`Ending`, ``result`` one it allows.
        event, server, date, raptor, scientist: descriptive header lines, any text (escaped
            by :func:`escape_value`, so that each stays on its line and reads back as given;
            empty ones are written as ``-``).

    Returns:
        The text, lines ending in ``\\n``.

    Raises:
        UnfinishedMatchError: the game is not over and no ending outside it is given.
        MatchRecordError: ``result``/``reason`` contradict the game or each other.
        RaptorError: an action in the log that is not legal at its point.
    """
    opts = options if isinstance(options, Options) else Options(**dict(options))
    log = [(Side(sd), a) for sd, a in actions]
    state = new_game(seed, **_options_dict(opts))
    for sd, a in log:
        state = apply(state, sd, a)
    if state.is_over:
        result = result or state.winner.value
        reason = Reason(reason) if reason is not None else state.reason
        if result != state.winner.value or reason is not state.reason:
            raise MatchRecordError(0, "", f"the game ended {state.winner.value} "
                                   f"{state.reason.value}, not {result} {reason}")
    else:
        if reason is None:
            raise UnfinishedMatchError("the match is still in progress: only a finished match "
                                       "has a record (its seed and hands are still secret)")
        reason = _ending(reason, 0, "")
        result = result or "none"
        _check_ending_result(reason, result, 0, "")
        # a pick never revealed stays secret (R11.2): leave the unfinished pick out
        while log and isinstance(log[-1][1], Pick) and state.revealed is None and any(
                state.picks.values()):
            log.pop()
            state = new_game(seed, **_options_dict(opts))
            for sd, a in log:
                state = apply(state, sd, a)
    header = {"Event": event, "Server": server, "Date": date, "Raptor": raptor,
              "Scientist": scientist, "Environment": opts.environment, "Layout": opts.layout,
              "Setup": opts.setup, "Seed": str(int(seed)), "Result": result,
              "Reason": str(reason.value), "Rounds": str(rounds_played(state))}
    lines = [FORMAT_LINE]
    for key in HEADER_KEYS:
        lines.append(f"{key}: {escape_value(str(header[key])) or '-'}")
    lines.append("")
    lines.extend(_body(seed, opts, log))
    return "\n".join(lines) + "\n"


def _body(seed: int, opts: Options, log: Sequence[tuple[Side, Action]]) -> list[str]:
    """The round lines of a log (see docs/RECORD.md)."""
    s = new_game(seed, **_options_dict(opts))
    lines: list[str] = []
    group: tuple[str, Side] | None = None  # (keyword, side) of the line being written
    items: list[str] = []
    picks: list[tuple[Side, int]] = []
    pick_round = 0

    def flush() -> None:
        nonlocal group, items
        if group is not None and items:
            word, side = group
            indent = "" if word == "setup" else "  "
            lines.append(f"{indent}{word} {side.value}: {', '.join(items)}")
        group, items = None, []

    def flush_picks() -> None:
        nonlocal picks
        if not picks:
            return
        text = ", ".join(f"{sd.value} {card}" for sd, card in picks)
        note = _round_note(dict(picks)) if len(picks) == 2 else ""
        lines.append(f"round {pick_round}: {text}" + (f"  # {note}" if note else ""))
        picks = []

    for side, action in log:
        if isinstance(action, Pick):
            flush()
            if not picks:
                pick_round = s.round
            picks.append((side, action.card))
        else:
            flush_picks()
            word = _PHASE_WORDS[s.phase]
            if group != (word, side):
                flush()
                group = (word, side)
            items.append(format_action(action))
        s = apply(s, side, action)
        if s.revealed is not None or s.round != pick_round:
            flush_picks()
    flush_picks()
    flush()
    return lines


def _round_note(picks: Mapping[Side, int]) -> str:
    """The comment after a round line: what the two cards lead to (R5.3-R5.5)."""
    rv, sv = picks[Side.RAPTOR], picks[Side.SCIENTIST]
    if rv == sv:
        return "tie"
    low = Side.RAPTOR if rv < sv else Side.SCIENTIST
    return (f"{low.value}: {card_name(low, min(rv, sv))}, {low.other.value}: "
            f"{ap_total((rv, sv))} AP")


_PHASE_WORDS = {Phase.SETUP_MOTHER: "setup", Phase.SETUP_BABIES: "setup",
                Phase.SETUP_SCIENTISTS: "setup", Phase.EFFECT: "effect", Phase.AP: "ap",
                Phase.MOTHER_RETURN: "return"}
_WORD_PHASES = {
    "setup": (Phase.SETUP_MOTHER, Phase.SETUP_BABIES, Phase.SETUP_SCIENTISTS),
    "effect": (Phase.EFFECT,), "ap": (Phase.AP,), "return": (Phase.MOTHER_RETURN,),
}
_PHASE_SAYS = {
    Phase.SETUP_MOTHER: "the raptor places the mother (setup raptor: M@...)",
    Phase.SETUP_BABIES: "the raptor places the babies (setup raptor: B@...)",
    Phase.SETUP_SCIENTISTS: "the scientist places the scientists (setup scientist: S@...)",
    Phase.PICK: "the card pick (round N: raptor C, scientist C)",
    Phase.EFFECT: "an effect ('effect <side>: ...')",
    Phase.AP: "an AP phase ('ap <side>: ...')",
    Phase.MOTHER_RETURN: "the mother's return ('return raptor: M@...')",
    Phase.OVER: "nothing: the game is over",
}


# ----------------------------------------------------------------------------- reading
_HEADER = re.compile(r"([A-Za-z][A-Za-z ]*?)\s*:\s*(.*)")
_FORMAT = re.compile(r"Raptor match record, format (\S+)", re.I)
_ROUND = re.compile(r"round\s+(\d+)\s*:\s*(.*)", re.I)
_GROUP = re.compile(r"(setup|effect|ap|return)\s+(raptor|scientist)\s*:\s*(.*)", re.I)
_PICK = re.compile(r"(raptor|scientist)\s+(\d+)", re.I)


def read_record(text: str) -> MatchRecord:
    """Read a record and replay it (:func:`engine.replay`), checking it all.

    Formats 1 and 2 are read (:data:`READ_FORMATS`): a format 2 header value is unescaped
    (:func:`unescape_value`), a format 1 one is taken as written. A leading byte-order mark
    and Windows line endings are accepted; ``#`` starts a comment to the end of the line,
    except in a free-text header value (Event, Server, Date, Raptor, Scientist, unknown keys),
    which runs to the end of its line; blank lines are ignored; keywords and notation are
    case-insensitive (:func:`engine.parse_action` reads each decision).

    Returns:
        The :class:`MatchRecord`, its ``final`` state being the replay's.

    Raises:
        MatchRecordError: the first line that does not parse, names an action that is not legal
            at its point, or contradicts the game (a round number, a side, a phase); line 0
            or the ending's line when the replay does not reach the stated ending or round
            count.
    """
    if text.startswith("\ufeff"):  # a byte-order mark, as some editors save UTF-8 text
        text = text[1:]
    if "\x00" in text or "\ufffd" in text[:200]:
        raise MatchRecordError(1, "", "not a Raptor match record: this is binary data, not "
                               "text (a record is a UTF-8 text file, see docs/RECORD.md)")
    lines = text.splitlines()
    first = lines[0] if lines else ""
    version = _FORMAT.fullmatch(first.strip())
    if not version or version.group(1) not in map(str, READ_FORMATS):
        if version:
            raise MatchRecordError(1, first, f"not a Raptor match record this version reads: "
                                   f"it reads formats {' and '.join(map(str, READ_FORMATS))} "
                                   f"only, not format {version.group(1)}")
        raise MatchRecordError(1, first, f"not a Raptor match record: the first line must be "
                               f"{FORMAT_LINE!r}")
    escaped = version.group(1) != "1"
    header: dict[str, str] = {}
    where: dict[str, tuple[int, str]] = {}
    n = 1  # index of the line being read (line number n + 1)
    while n < len(lines):
        raw = lines[n]
        body = raw.split("#", 1)[0].strip()
        if _ROUND.fullmatch(body) or _GROUP.fullmatch(body) or (not body and header):
            break
        n += 1
        if not body:
            continue
        m = _HEADER.fullmatch(raw.strip())
        if not m:
            raise MatchRecordError(n, raw, "a header line is 'Key: value'")
        key = m.group(1).strip().title()
        if key in header:
            raise MatchRecordError(n, raw, f"{key!r} appears twice in the header")
        value = m.group(2).split("#", 1)[0] if key in WORD_KEYS else m.group(2)
        try:
            header[key] = unescape_value(value.strip()) if escaped else value.strip()
        except ValueError as exc:
            raise MatchRecordError(n, raw, str(exc)) from None
        where[key] = (n, raw)
    for key in REQUIRED_KEYS:
        if key not in header:
            raise MatchRecordError(n, "", f"the header has no {key!r} line (needed: "
                                   f"{', '.join(REQUIRED_KEYS)})")
    seed, options, result, reason = _read_header(header, where)
    state = new_game(seed, **_options_dict(options))
    log: list[tuple[Side, Action]] = []
    last = (n, lines[n - 1])  # the last line read, for a record that stops short
    for index in range(n, len(lines)):
        raw = lines[index]
        body = raw.split("#", 1)[0].strip()
        if body:
            state = _read_line(index + 1, raw, body, state, log)
            last = (index + 1, raw)
    _check_end(state, header, where, result, reason, last)
    return MatchRecord(header=header, seed=seed, options=options, result=result,
                       reason=reason, actions=tuple(log), final=state)


def _read_header(header: dict[str, str], where: dict[str, tuple[int, str]]
                 ) -> tuple[int, Options, str, Reason | Ending]:
    line, raw = where["Seed"]
    try:
        seed = int(header["Seed"])
    except ValueError:
        raise MatchRecordError(line, raw, "the seed is a whole number") from None
    values = {}
    for key, allowed in (("Environment", ("jungle", "savannah")),
                         ("Layout", ("random", "standard")), ("Setup", ("quick", "manual"))):
        value = header[key].lower()
        if value not in allowed:
            line, raw = where[key]
            raise MatchRecordError(line, raw, f"{key} is {' or '.join(allowed)}")
        values[key.lower()] = value
    options = Options(**values)
    line, raw = where["Result"]
    result = header["Result"].lower()
    if result not in RESULTS:
        raise MatchRecordError(line, raw, f"Result is one of {', '.join(RESULTS)}")
    line, raw = where["Reason"]
    word = header["Reason"].lower()
    try:
        reason: Reason | Ending = Reason(word)
    except ValueError:
        reason = _ending(word, line, raw)
        _check_ending_result(reason, result, *where["Result"])
    else:
        if result not in ("raptor", "scientist"):
            raise MatchRecordError(*where["Result"], f"a game won under R6 ({word}) has a "
                                   "winner: raptor or scientist")
    return seed, options, result, reason


def _ending(word: Reason | Ending | str, line: int, raw: str) -> Ending:
    try:
        return Ending(str(word.value if isinstance(word, StrEnum) else word).lower())
    except ValueError:
        known = ", ".join([r.value for r in Reason] + [e.value for e in Ending])
        raise MatchRecordError(line, raw, f"unknown reason {str(word)!r}; known: {known}") from None


def _check_ending_result(reason: Ending, result: str, line: int, raw: str) -> None:
    allowed = _ENDING_RESULTS[reason]
    if result not in allowed:
        raise MatchRecordError(line, raw, f"a match ended by {reason.value} has the result "
                               f"{' or '.join(allowed)}, not {result!r}")


def _read_line(number: int, raw: str, body: str, state: GameState,
               log: list[tuple[Side, Action]]) -> GameState:
    """Apply one body line to ``state``; returns the new state."""
    if state.is_over:
        raise MatchRecordError(number, raw, f"the game is already over (round {state.round}, "
                               f"{state.winner.value} {state.reason.value})")
    m = _ROUND.fullmatch(body)
    if m:
        if state.phase is not Phase.PICK:
            raise MatchRecordError(number, raw, f"a card pick here, but the game expects "
                                   f"{_PHASE_SAYS[state.phase]}")
        if int(m.group(1)) != state.round:
            raise MatchRecordError(number, raw, f"this is round {state.round}, not {m.group(1)}")
        parts = [p.strip() for p in m.group(2).split(",") if p.strip()]
        if not parts or len(parts) > 2:
            raise MatchRecordError(number, raw, "a round line names one or two picks, e.g. "
                                   "'round 3: raptor 5, scientist 2'")
        for part in parts:
            pm = _PICK.fullmatch(part)
            if not pm:
                raise MatchRecordError(number, raw, f"{part!r} is not a pick such as 'raptor 5'")
            side, card = Side(pm.group(1).lower()), int(pm.group(2))
            if side not in to_act(state):
                raise MatchRecordError(number, raw, f"the {side.value} does not pick now")
            if card not in state.hands[side]:
                raise MatchRecordError(number, raw, f"the {side.value} has no {card} in hand "
                                       f"(hand: {' '.join(map(str, state.hands[side]))})")
            action = Pick(card)
            state = apply(state, side, action)
            log.append((side, action))
        return state
    m = _GROUP.fullmatch(body)
    if not m:
        raise MatchRecordError(number, raw, "expected 'round N: ...', 'setup <side>: ...', "
                               "'effect <side>: ...', 'ap <side>: ...' or 'return raptor: ...'")
    word, side = m.group(1).lower(), Side(m.group(2).lower())
    items = [p.strip() for p in m.group(3).split(",")]
    if not any(items):
        raise MatchRecordError(number, raw, "no action after the colon")
    for item in items:
        if not item:
            raise MatchRecordError(number, raw, "an empty action between commas")
        if state.is_over:
            raise MatchRecordError(number, raw, f"{item!r} comes after the end of the game "
                                   f"({state.winner.value} {state.reason.value})")
        if state.phase not in _WORD_PHASES[word]:
            raise MatchRecordError(number, raw, f"{item!r} is read as {word}, but the game "
                                   f"expects {_PHASE_SAYS[state.phase]}")
        if side not in to_act(state):
            raise MatchRecordError(number, raw, f"{item!r}: the {side.value} does not decide now")
        try:
            action = parse_action(item, state, side)
        except RaptorError as exc:
            raise MatchRecordError(number, raw, str(exc)) from None
        state = apply(state, side, action)
        log.append((side, action))
    return state


def _check_end(state: GameState, header: dict[str, str], where: dict[str, tuple[int, str]],
               result: str, reason: Reason | Ending, last: tuple[int, str]) -> None:
    line, raw = where["Reason"]
    if isinstance(reason, Reason):
        if not state.is_over:
            raise MatchRecordError(*last, f"the record stops here, in round {state.round}, but "
                                   f"the game is not over (the header says {result} "
                                   f"{reason.value}): is the record cut short?")
        if state.reason is reason and state.winner.value != result:
            raise MatchRecordError(*where["Result"], f"the game ends {state.winner.value} "
                                   f"{state.reason.value}, not {result} {reason.value}")
        if state.reason is not reason or state.winner.value != result:
            raise MatchRecordError(line, raw, f"the game ends {state.winner.value} "
                                   f"{state.reason.value}, not {result} {reason.value}")
    elif state.is_over:
        raise MatchRecordError(line, raw, f"the game itself ended ({state.winner.value} "
                               f"{state.reason.value}): its reason is not {reason.value}")
    if "Rounds" in header:
        line, raw = where["Rounds"]
        if header["Rounds"] != str(rounds_played(state)):
            n = rounds_played(state)
            raise MatchRecordError(line, raw, f"the replay plays {n} round{'' if n == 1 else 's'}")


__all__ = [
    "BIDI_CONTROLS", "FORMAT", "FORMAT_LINE", "HEADER_KEYS", "READ_FORMATS", "REQUIRED_KEYS",
    "RESULTS", "WORD_KEYS", "Ending", "MatchRecord", "MatchRecordError",
    "UnfinishedMatchError", "ending_banner", "escape_value", "read_record", "round_states",
    "rounds_played", "unescape_value", "write_record",
]
