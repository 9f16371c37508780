"""The rules' computations on a state, each in one named function that legality, ``apply``,
the refusal reasons, the views and the AI all call: a card's worth and a player's total
(RJ4.1), who is an opponent (RJ4.5), where a chip lies, and whether an effect is fully
resolvable (RJ4.2) with what it misses.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CHIP_SIZES, LIMIT, Effect, Need, effect_of, value_of
from .state import State


def face(s: State, chip: int) -> int:
    """The showing face of ``chip`` this round (RJ1.2, RJ2.2)."""
    return s.signs[chip] * CHIP_SIZES[chip]


def chip_of_face(s: State, value: int) -> int | None:
    """The chip showing ``value`` this round, or None (faces all differ, RJ1.2)."""
    for chip, size in enumerate(CHIP_SIZES):
        if s.signs[chip] * size == value:
            return chip
    return None


def total(s: State, seat: int) -> int:
    """The total of ``seat``: its visible cards' values plus their chips (RJ4.1); hidden cards
    and their chips count 0; it may be negative."""
    t = 0
    for x in s.displays[seat]:
        if x.up:
            t += value_of(x.card)
            for chip in x.chips:
                t += s.signs[chip] * CHIP_SIZES[chip]
    return t


def is_over_limit(s: State, seat: int) -> bool:
    """Whether ``seat``'s total is over 25 (RJ8.1, RJ8.2)."""
    return total(s, seat) > LIMIT


def in_round(s: State) -> list[int]:
    """The seats still in this round (not eliminated, not forfeited), in seat order."""
    return [q for q in range(s.seats) if not s.out[q]]


def opponents(s: State, seat: int) -> list[int]:
    """``seat``'s opponents: the other players not eliminated this round (RJ4.5)."""
    return [q for q in range(s.seats) if q != seat and not s.out[q]]


def next_seat(s: State, seat: int) -> int | None:
    """The next seat after ``seat`` in seat order that is in the round (RJ2.3), or None."""
    for k in range(1, s.seats + 1):
        q = (seat + k) % s.seats
        if not s.out[q]:
            return q
    return None


def chip_place(s: State, chip: int) -> tuple[int, int] | None:
    """Where ``chip`` lies: ``(seat, index)`` of its card (0-based index), or None for the
    reserve."""
    for seat, display in enumerate(s.displays):
        for i, x in enumerate(display):
            if chip in x.chips:
                return seat, i
    return None


def slot_index(s: State, seat: int, card: str) -> int | None:
    """The 0-based index of ``card`` in ``seat``'s display, or None."""
    for i, x in enumerate(s.displays[seat]):
        if x.card == card:
            return i
    return None


class Counts(NamedTuple):
    """What the needs of RJ4.2 are judged on, for one player resolving an effect (RJ4.3:
    the effect's card counts among their cards and visible cards)."""

    reserve: int
    own_hidden: int
    own_visible: int
    own_cards: int
    opp_hidden: int
    opp_visible: int
    chips_on_opp: int
    chips_on_own: int
    cards_with_chips: int
    discard: int
    deck: int
    opponents: int


def counts(s: State, seat: int, *, playing: bool = False) -> Counts:
    """The :class:`Counts` of ``seat``; ``playing``: the effect's card is still in the hand
    and is judged as already face up in the display (RJ4.2)."""
    own_hidden = own_visible = chips_on_own = opp_hidden = opp_visible = chips_on_opp = 0
    with_chips = 0
    for q, display in enumerate(s.displays):
        if s.out[q]:
            continue
        for x in display:
            if x.chips:
                with_chips += 1
            if q == seat:
                chips_on_own += len(x.chips)
                if x.up:
                    own_visible += 1
                else:
                    own_hidden += 1
            else:
                chips_on_opp += len(x.chips)
                if x.up:
                    opp_visible += 1
                else:
                    opp_hidden += 1
    extra = 1 if playing else 0
    return Counts(len(s.reserve), own_hidden, own_visible + extra,
                  own_hidden + own_visible + extra, opp_hidden, opp_visible, chips_on_opp,
                  chips_on_own, with_chips, len(s.discard), len(s.deck),
                  len(opponents(s, seat)))


def need_met(need: Need, n: int, c: Counts) -> bool:
    """Whether the counts ``c`` meet ``need`` ``n`` times (RJ4.2; the needs' words are in
    :data:`~.cards.NEED_TEXTS`)."""
    if need is Need.CHIP:
        return c.reserve >= n
    if need is Need.OPP_HIDDEN:
        return c.opp_hidden >= n
    if need is Need.OPP_VISIBLE:
        return c.opp_visible >= n
    if need is Need.OPP_CARD:
        return c.opp_hidden + c.opp_visible >= n
    if need is Need.OWN_HIDDEN:
        return c.own_hidden >= n
    if need is Need.OTHER_VISIBLE:
        return c.own_visible - 1 >= n  # RJ4.3: "other" leaves the effect's own card out
    if need is Need.OWN_CARDS:
        return c.own_cards >= n
    if need is Need.DISCARD:
        return c.discard >= n
    if need is Need.DECK:
        return c.deck >= n
    if need is Need.CHIP_ON_OPP_CARD:
        return c.chips_on_opp >= n
    if need is Need.CHIP_ON_CARD:
        return c.chips_on_own + c.chips_on_opp >= n
    if need is Need.CHIP_ON_OWN_CARD:
        return c.chips_on_own >= n
    if need is Need.CHIPS_ON_TWO_CARDS:
        return c.cards_with_chips >= 2
    if need is Need.OPPONENT:
        return c.opponents >= n
    if need is Need.HIDDEN_CARD:
        return c.own_hidden + c.opp_hidden >= n
    if need is Need.CHIP_ANYWHERE:
        return c.reserve + c.chips_on_own + c.chips_on_opp >= n
    raise AssertionError(need)


def missing(effect: Effect, c: Counts) -> tuple[Need, int] | None:
    """The first need of ``effect`` that ``c`` does not meet, or None (fully resolvable)."""
    for need, n in effect.needs:
        if not need_met(need, n, c):
            return need, n
    return None


def fully_resolvable(s: State, seat: int, card: str, *, playing: bool = False) -> bool:
    """Whether ``card``'s effect is fully resolvable for ``seat`` now (RJ4.2): every need met,
    judged with the card face up in ``seat``'s display (``playing``: it is still in the hand
    and counted as if it were) and the other card in hand. The same predicate decides a
    triggered effect (RJ4.4)."""
    return missing(effect_of(card), counts(s, seat, playing=playing)) is None
