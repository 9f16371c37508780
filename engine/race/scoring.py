"""The end of the race and its scoring (RR6, RR7): the placing of the raptors, each card's
points with the order best for its holder, and the ranking of the seats.

A *placing* is the raptors in groups, best first: the raptor that crossed the finish line
alone, then the others by row, higher rows first, raptors of one row in one group (tied,
RR6.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations, product
from typing import NamedTuple

from ..game import Outcome
from .components import CARDS, RAPTORS, SLOT_POINTS, TOP3_BONUS, Raptor
from .state import RaceState, Reason
from .track import row_of

Placing = tuple[tuple[Raptor, ...], ...]


def placing(raptors: Sequence[int], winner: Raptor | None) -> Placing:
    """The groups of RR6.2 for raptors on the spaces ``raptors`` (colour order): ``winner``
    (the raptor that crossed, RR6.1) alone first when there is one, then the others by row,
    higher first; a group lists its raptors in colour order."""
    rows: dict[int, list[Raptor]] = {}
    for r, sp in zip(RAPTORS, raptors, strict=True):
        if r is not winner:
            rows.setdefault(row_of(sp), []).append(r)
    groups = [tuple(rows[row]) for row in sorted(rows, reverse=True)]
    return ((winner,), *groups) if winner is not None else tuple(groups)


def orders(groups: Placing) -> list[tuple[Raptor, ...]]:
    """Every order of the five raptors the placing allows: tied raptors in any order
    (RR7.2)."""
    return [tuple(r for part in parts for r in part)
            for parts in product(*(permutations(g) for g in groups))]


class CardScore(NamedTuple):
    """What one card scores (RR7.1) in one order: ``slots`` the points of slots 1-3,
    ``bonus`` the top-three bonus, ``order`` the raptors' order it was scored with."""

    slots: tuple[int, int, int]
    bonus: int
    order: tuple[Raptor, ...]

    @property
    def total(self) -> int:
        return sum(self.slots) + self.bonus


def score_in_order(card: Sequence[Raptor], order: Sequence[Raptor]) -> CardScore:
    """RR7.1 for the raptors ``card`` (slot 1 first) and a strict ``order`` (first place
    first): 10 if slot 1 is first, 8 if slot 2 is in the first two, 5 if slot 3 is in the
    top three, 3 more when the card's raptors are the top three."""
    slots = tuple(points if order.index(r) < place else 0
                  for r, (points, place) in zip(card, SLOT_POINTS, strict=True))
    bonus = TOP3_BONUS if set(order[:3]) == set(card) else 0
    return CardScore(slots, bonus, tuple(order))  # type: ignore[arg-type]


def best_score(card: Sequence[Raptor], groups: Placing) -> CardScore:
    """RR7.2: the card's score in the order of ``groups`` best for its holder (the first
    such order in :func:`orders` when several give the same points)."""
    return max((score_in_order(card, o) for o in orders(groups)), key=lambda s: s.total)


def card_scores(state: RaceState) -> tuple[CardScore, ...] | None:
    """Each seat's card scored (RR7.1, RR7.2, forfeited seats too, RR3.6); None while the
    race goes on."""
    if not state.is_over:
        return None
    groups = placing(state.raptors, state.winner)
    return tuple(best_score(CARDS[number], groups) for number in state.cards)


def outcome(state: RaceState) -> Outcome | None:
    """The ranking of a finished race: the most points first, equal points sharing a place
    with no tie-break (RR7.3); None while it goes on."""
    scores = card_scores(state)
    if scores is None:
        return None
    return Outcome.by_scores([s.total for s in scores], Reason.FINISHED.value)
