"""A text diagram of a position, for the terminal and the tests: :func:`to_diagram` writes
every part of a state (hidden cards included), :func:`from_diagram` reads one back, with
defaults for what a test does not care about::

    players: 3
    decks: rb
    round: 2
    turn: 5
    current: p2
    phase: action
    vp: 1 0 2
    chips: +1 -2 +3 +4 -5 +10
    deck: C5 W9
    discard: C7 W2
    p1 hand: R5 C9{p2}
    p1 display: R3[+3] ~C7 ~W2{p2} ~B9{*}[-10]
    p2 hand: B1
    p2 display: R12
    out: p3

A display lists its cards left to right (RJ3.5): ``~`` marks a hidden card, ``[+3 -10]`` its
chips by face, ``{p2 p3}`` who besides the owner knows a hidden or hand card (``{*}``:
everyone, RJ11.2). ``deck`` lists the top of the deck first, and the round's cards that no
line names go below them, in table order; ``deck: .`` is an empty deck, the cards no line
names then lying at the bottom of the discard pile. ``discard`` lists the pile bottom first.
Chips on no card are in the reserve. Further lines: ``seed``, ``forfeited: p3``, ``pN gone:``
(cards that left with an eliminated player), ``extra turns``, ``drawn`` (Weasel 3's card),
``last gain``, ``stack`` (effects being resolved, ``R6 p1 1 p1@2`` = card, resolver, next
step, picks; several separated by ``|``). ``#`` starts a comment.
"""

from __future__ import annotations

import re

from .actions import Chip, Opponent, Target, format_action, seat_name
from .cards import CHIP_SIZES, DECK_PAIRS, format_face, is_card, round_cards
from .errors import StateError
from .predicates import chip_of_face
from .state import EVERYONE, Frame, HandCard, Phase, Reason, Slot, State


def _seen(seen: frozenset[int]) -> str:
    if not seen:
        return ""
    if EVERYONE in seen:
        return "{*}"
    return "{" + " ".join(seat_name(q) for q in sorted(seen)) + "}"


def _slot(s: State, x: Slot) -> str:
    chips = "[" + " ".join(format_face(s.signs[c] * CHIP_SIZES[c]) for c in x.chips) + "]"
    return (("" if x.up else "~") + x.card + (_seen(x.seen) if not x.up else "")
            + (chips if x.chips else ""))


def to_diagram(s: State) -> str:
    """Every part of ``s`` as the text :func:`from_diagram` reads (events and the last round's
    result are not part of a position)."""
    lines = [f"players: {s.seats}", f"decks: {s.decks}", f"seed: {s.seed}",
             f"round: {s.round}", f"turn: {s.turn}", f"current: {seat_name(s.current)}",
             f"phase: {s.phase.value}", "vp: " + " ".join(str(v) for v in s.vp),
             "chips: " + " ".join(format_face(s.signs[c] * CHIP_SIZES[c])
                                  for c in range(len(CHIP_SIZES))),
             "deck: " + (" ".join(reversed(s.deck)) or "."),
             "discard: " + " ".join(s.discard)]
    for q in range(s.seats):
        if s.out[q]:
            if s.gone[q]:
                lines.append(f"{seat_name(q)} gone: " + " ".join(s.gone[q]))
            continue
        lines.append(f"{seat_name(q)} hand: " + " ".join(h.card + _seen(h.seen)
                                                         for h in s.hands[q]))
        lines.append(f"{seat_name(q)} display: " + " ".join(_slot(s, x)
                                                            for x in s.displays[q]))
    out = [seat_name(q) for q in range(s.seats) if s.out[q] and not s.forfeited[q]]
    if out:
        lines.append("out: " + " ".join(out))
    gone = [seat_name(q) for q in range(s.seats) if s.forfeited[q]]
    if gone:
        lines.append("forfeited: " + " ".join(gone))
    if s.extra_turns:
        lines.append(f"extra turns: {s.extra_turns}")
    if s.drawn is not None:
        lines.append(f"drawn: {s.drawn}")
    if s.last_gain:
        lines.append("last gain: " + " ".join(seat_name(q) for q in s.last_gain))
    if s.shuffles:
        lines.append(f"shuffles: {s.shuffles}")
    if s.stack:
        lines.append("stack: " + " | ".join(
            " ".join([f.card, seat_name(f.seat), str(f.step), *map(format_action, f.picks)])
            for f in s.stack))
    if s.winners:
        lines.append("winners: " + " ".join(seat_name(q) for q in s.winners))
        lines.append(f"reason: {s.reason.value}")
    return "\n".join(lines) + "\n"


_LINE = re.compile(r"\s*([a-z][a-z0-9 ]*?)\s*:\s*(.*)", re.I)
_ITEM = re.compile(r"(~?)([A-Za-z]\d{1,2})(\{[^}]*\})?(\[[^\]]*\])?$")


def _seat(word: str, seats: int) -> int:
    m = re.fullmatch(r"p([1-4])", word.lower())
    if not m or int(m.group(1)) > seats:
        raise StateError(f"{word!r} is not a seat (p1 .. p{seats})")
    return int(m.group(1)) - 1


def _knowers(text: str | None, seats: int) -> frozenset[int]:
    if not text:
        return frozenset()
    inner = text[1:-1].split()
    if inner == ["*"]:
        return frozenset({EVERYONE})
    return frozenset(_seat(w, seats) for w in inner)


def from_diagram(text: str) -> State:
    """The state a diagram describes (see the module docstring); its legality is checked as
    far as card and chip counts go.

    Raises:
        StateError: a line that cannot be read, a card named twice or not of the round's
            decks, a chip face not of this round, a seat out of range.
    """
    keys: dict[str, str] = {}
    for raw in text.splitlines():
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        m = _LINE.fullmatch(body)
        if m:
            key, value = " ".join(m.group(1).lower().split()), m.group(2).strip()
        elif re.fullmatch(r"p[1-4] (out|forfeited)", body, re.I):
            key, value = body.lower(), ""
        else:
            raise StateError(f"not a diagram line: {raw!r}")
        if key in keys:
            raise StateError(f"{key!r} appears twice")
        keys[key] = value
    try:
        return _build(keys)
    except StateError:
        raise
    except (ValueError, KeyError, IndexError) as exc:
        raise StateError(f"not a diagram: {exc}") from None


def _build(keys: dict[str, str]) -> State:
    named = [int(k[1]) for k in keys if re.match(r"p[1-4] ", k)]
    named += [int(w[1]) for key in ("out", "forfeited", "current") for w in
              keys.get(key, "").split()]
    seats = int(keys.pop("players", "0")) or max([2, *named])
    if not 2 <= seats <= 4:
        raise StateError(f"a game has 2 to 4 players, not {seats}")
    decks = keys.pop("decks", "rb")
    if decks not in DECK_PAIRS:
        raise StateError(f"decks is one of {', '.join(DECK_PAIRS)}")
    s = State.__new__(State)
    s.seed, s.seats, s.decks = int(keys.pop("seed", "0")), seats, decks
    s.round, s.turn = int(keys.pop("round", "1")), int(keys.pop("turn", "1"))
    s.current = _seat(keys.pop("current", "p1"), seats)
    s.phase = Phase(keys.pop("phase", "draw"))
    s.vp = [int(v) for v in keys.pop("vp", " ".join("0" * seats)).split()]
    faces = [int(f) for f in keys.pop("chips", "+1 +2 +3 +4 +5 +10").split()]
    if [abs(f) for f in faces] != list(CHIP_SIZES):
        raise StateError("chips lists the six faces in the order 1 2 3 4 5 10 (signed)")
    s.signs = tuple(1 if f > 0 else -1 for f in faces)
    cards = round_cards(decks)
    used: set[str] = set()

    def card(name: str) -> str:
        name = name.upper()
        if not is_card(name) or name not in cards:
            raise StateError(f"{name!r} is not a card of decks {decks}")
        if name in used:
            raise StateError(f"{name} is named twice")
        used.add(name)
        return name

    placed: set[int] = set()

    def chips(text: str | None) -> tuple[int, ...]:
        out = []
        for word in (text or "[]")[1:-1].split():
            chip = chip_of_face(s, int(word.replace("−", "-")))
            if chip is None or chip in placed:
                raise StateError(f"chip {word} is not a chip of this round, or is placed twice")
            placed.add(chip)
            out.append(chip)
        return tuple(out)

    s.forfeited = [False] * seats
    s.out = [False] * seats
    for w in keys.pop("forfeited", "").split():
        s.forfeited[_seat(w, seats)] = s.out[_seat(w, seats)] = True
    for w in keys.pop("out", "").split():
        s.out[_seat(w, seats)] = True
    s.hands, s.displays, s.gone = ([[] for _ in range(seats)] for _ in range(3))
    for q in range(seats):
        name = seat_name(q)
        for word in keys.pop(f"{name} hand", "").split():
            m = _ITEM.match(word)
            if not m or m.group(1) or m.group(4):
                raise StateError(f"{word!r} is not a hand card such as R5 or R5{{p2}}")
            s.hands[q].append(HandCard(card(m.group(2)), _knowers(m.group(3), seats)))
        for word in _items(keys.pop(f"{name} display", "")):
            m = _ITEM.match(word)
            if not m:
                raise StateError(f"{word!r} is not a display card such as R3, ~C7{{p2}}[+3]")
            up = not m.group(1)
            s.displays[q].append(Slot(card(m.group(2)), up, chips(m.group(4)),
                                      frozenset() if up else _knowers(m.group(3), seats)))
        s.gone[q] = [card(w) for w in keys.pop(f"{name} gone", "").split()]
    s.reserve = [c for c in range(len(CHIP_SIZES)) if c not in placed]
    s.discard = [card(w) for w in keys.pop("discard", "").split()]
    drawn = keys.pop("drawn", "")
    s.drawn = card(drawn) if drawn else None
    deck_text = keys.pop("deck", "")
    exact = deck_text.strip() == "." or deck_text.strip().endswith(" .")
    top = [card(w) for w in deck_text.replace(".", " ").split()]
    rest = [c for c in cards if c not in used]
    if exact:
        s.deck = list(reversed(top))
        s.discard = rest + s.discard
    else:
        s.deck = list(reversed(rest)) + list(reversed(top))
    s.extra_turns = int(keys.pop("extra turns", "0"))
    s.shuffles = int(keys.pop("shuffles", "0"))
    s.last_gain = tuple(_seat(w, seats) for w in keys.pop("last gain", "").split())
    s.stack = [_frame(part, s) for part in keys.pop("stack", "").split("|") if part.strip()]
    s.winners = tuple(_seat(w, seats) for w in keys.pop("winners", "").split())
    reason = keys.pop("reason", "")
    s.reason = Reason(reason) if reason else None
    s.events, s.last_round, s._legal = [], None, None
    if keys:
        raise StateError(f"unknown diagram lines: {', '.join(sorted(keys))}")
    return s


def _items(text: str) -> list[str]:
    """A display's words, chips in brackets kept with their card (``R3[+3 -10]``)."""
    return re.findall(r"~?[A-Za-z]\d{1,2}(?:\{[^}]*\})?(?:\[[^\]]*\])?", text)


def _frame(text: str, s: State) -> Frame:
    words = text.split()
    card, seat, step = words[0].upper(), _seat(words[1], s.seats), int(words[2])
    picks = []
    for w in words[3:]:
        if "@" in w:
            who, place = w.split("@")
            picks.append(Target(_seat(who, s.seats), int(place)))
        elif re.fullmatch(r"p[1-4]", w):
            picks.append(Opponent(_seat(w, s.seats)))
        else:
            picks.append(Chip(int(w)))
    return Frame(card, seat, step, tuple(picks))
