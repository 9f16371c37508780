"""Helpers for the Ratjack rule tests: positions from diagrams (:mod:`engine.ratjack.diagram`),
the legal actions in notation, playing entries, reading a display back as diagram words."""

from __future__ import annotations

import textwrap

from engine.ratjack import (
    State,
    apply,
    format_action,
    from_diagram,
    legal_actions,
    parse_action,
    to_act,
    to_diagram,
)


def pos(text: str) -> State:
    """The position of a diagram (indented text is fine)."""
    return from_diagram(textwrap.dedent(text))


def who(s: State) -> int:
    """The one seat to act."""
    (seat,) = to_act(s)
    return seat


def acts(s: State, seat: int | None = None) -> list[str]:
    """The notation of every legal action of ``seat`` (default: the seat to act), in order;
    no two share a notation."""
    seat = who(s) if seat is None else seat
    out = [format_action(a) for a in legal_actions(s, seat)]
    assert len(out) == len(set(out)), f"two legal actions share a notation: {out}"
    return out


def play(s: State, *entries: str) -> State:
    """Apply entries one after another, each by the seat to act then."""
    for text in entries:
        seat = who(s)
        s = apply(s, seat, parse_action(text, s, seat))
    return s


def line(s: State, key: str) -> str:
    """The value of one line of the position's diagram (``"p1 display"``, ``"discard"``)."""
    for row in to_diagram(s).splitlines():
        k, _, v = row.partition(": ")
        if k == key:
            return v
    return ""


def row(s: State, seat: int) -> str:
    """``seat``'s display as diagram words, e.g. ``"B3[+3] ~R9"``."""
    return line(s, f"p{seat + 1} display")


def hand(s: State, seat: int) -> str:
    return line(s, f"p{seat + 1} hand")


def kinds(s: State) -> list[str]:
    """The kinds of this round's events, in order."""
    return [e.kind for e in s.events]


def _mentioned(text: str) -> set[str]:
    import re
    return {m.upper() for m in re.findall(r"(?<![A-Za-z0-9])([RBCWrbcw]\d{1,2})(?!\d)", text)}


def _fillers(text: str, decks: str, n: int, avoid: set[str]) -> list[str]:
    """``n`` cards of the deck pair that the diagram text does not name (Rat 6s left out, so
    a filler never triggers anything when discarded)."""
    from engine.ratjack import round_cards
    used = _mentioned(text) | avoid
    free = [c for c in round_cards(decks) if c not in used and c[1:] not in ("6",)]
    return free[:n]


def blocked(card: str, text: str, decks: str) -> State:
    """The position ``text`` (no ``phase`` nor ``p1 hand`` line) with ``card`` and a filler in
    p1's hand, p1 to play."""
    body = textwrap.dedent(text)
    (filler,) = _fillers(body, decks, 1, {card})
    return pos(f"decks: {decks}\nphase: action\np1 hand: {card} {filler}\n{body}")


def triggered(card: str, text: str, decks: str, *, by_rat6: bool = False) -> State:
    """The position ``text`` with ``card`` hidden at the end of p1's display, then flipped:
    by the discard action (a filler discarded), or by a Rat 6 played up (``by_rat6``: the
    discard pile stays as it is)."""
    import re
    body = textwrap.dedent(text)
    m = re.search(r"^p1 display:(.*)$", body, re.M)
    cards = m.group(1).split() if m else []
    words = " ".join([*cards, f"~{card}"])
    body = (body[:m.start()] + f"p1 display: {words}" + body[m.end():] if m
            else body + f"\np1 display: {words}\n")
    place = len(re.findall(r"~?[A-Za-z]\d{1,2}(?:\{[^}]*\})?(?:\[[^\]]*\])?", words))
    if by_rat6:
        six = next(c for c in ("R6", "B6") if c[0] in decks.upper() and c not in
                   _mentioned(body))
        (filler,) = _fillers(body, decks, 1, {card, six})
        s = pos(f"decks: {decks}\nphase: action\np1 hand: {six} {filler}\n{body}")
        return play(s, f"up {six}", f"p1@{place}")
    fillers = _fillers(body, decks, 2, {card})
    s = pos(f"decks: {decks}\nphase: action\np1 hand: {' '.join(fillers)}\n{body}")
    return play(s, f"discard {fillers[0]}", f"flip @{place}")


def played(s: State) -> list:
    """The events of the round the last action was played in: this round's, or the last
    round's when that action ended it (the new round's events hold only its start)."""
    if s.last_round is not None and [e.kind for e in s.events] == ["round"]:
        return list(s.last_round.events)
    return list(s.events)


def assert_skipped(s: State, card: str) -> None:
    """``card`` was triggered, skipped (RJ4.4) and left face up, and the turn is over."""
    events = played(s)
    assert [e.card for e in events if e.kind == "skipped"] == [card]
    displays = s.last_round.displays if events is not s.events and s.last_round and (
        [e.kind for e in s.events] == ["round"]) else s.displays
    assert any(x.card == card and x.up for x in displays[0]), displays[0]
    assert s.phase.value == "draw" and (s.current != 0 or s.turn == 1)


def random_states(count: int, seed: int = 0, *, seats: tuple[int, ...] = (2, 3, 4)):
    """``count`` states reached by seeded random play (each game stopped at a random step,
    games of every seat count and deck pair), as ``(state, rng)``."""
    import random

    from engine.ratjack import DECK_PAIRS, Phase, new_game
    rng = random.Random(seed)
    pairs = list(DECK_PAIRS)
    for k in range(count):
        s = new_game(rng.getrandbits(32), seats[k % len(seats)], pairs[k % len(pairs)])
        for _ in range(rng.randrange(400)):
            if s.phase is Phase.OVER:
                break
            q = who(s)
            s = apply(s, q, rng.choice(legal_actions(s, q)))
        yield s, rng


def redeal(s: State, viewer: int | None, rng) -> State:
    """``s`` with every card hidden from ``viewer`` (None: a spectator) dealt again at random
    among the places hidden from them: other players' unknown hand cards, hidden cards they
    have not seen, the deck order, the cards gone with eliminated players, another's
    Weasel 3 card; and a new seed. What ``viewer`` knows stays (RJ11.2)."""
    from engine.ratjack.view import knows
    t = s.copy()
    places: list[tuple[str, int, int]] = []
    for q in range(t.seats):
        for i, h in enumerate(t.hands[q]):
            if not knows(t, viewer, q, h.seen):
                places.append(("hand", q, i))
        for i, x in enumerate(t.displays[q]):
            if not x.up and not knows(t, viewer, q, x.seen):
                places.append(("display", q, i))
        for i in range(len(t.gone[q])):
            places.append(("gone", q, i))
    places += [("deck", 0, i) for i in range(len(t.deck))]
    drawer = t.stack[-1].seat if t.drawn is not None else None
    if t.drawn is not None and viewer != drawer:
        places.append(("drawn", 0, 0))

    def get(p):
        kind, q, i = p
        return {"hand": lambda: t.hands[q][i].card, "display": lambda: t.displays[q][i].card,
                "gone": lambda: t.gone[q][i], "deck": lambda: t.deck[i],
                "drawn": lambda: t.drawn}[kind]()

    cards = [get(p) for p in places]
    rng.shuffle(cards)
    for (kind, q, i), card in zip(places, cards, strict=True):
        if kind == "hand":
            t.hands[q][i] = t.hands[q][i]._replace(card=card)
        elif kind == "display":
            t.displays[q][i] = t.displays[q][i]._replace(card=card)
        elif kind == "gone":
            t.gone[q][i] = card
        elif kind == "deck":
            t.deck[i] = card
        else:
            t.drawn = card
    t.seed = rng.getrandbits(40)
    t._legal = None
    return t
