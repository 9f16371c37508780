"""The card pick model: rough values of each card's effect and of action points from the
public position (the easy pick's), and the model of the opponent's pick (the hard
pick's)."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

from bot.ai import params
from bot.ai.evaluation import (
    ACTIVE_SCI,
    ANY_SCI,
    ASLEEP,
    FAR,
    MANHATTAN,
    Position,
    clear_shots,
    exit_distances,
)
from bot.ai.params import W
from engine import CARD_TABLE, CARD_VALUES, Card, Side, Unit, View
from engine.geometry import BOARD_SQUARES, NEIGHBOURS
from engine.predicates import (
    BABIES_TO_WIN,
    fire_supply,
    gas_targets,
    mother_move_cost,
    mother_runs,
)
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    MOTHER,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED,
)

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST


def threats(b: Sequence[int]) -> tuple[int, int, int]:
    """(active babies next to an active scientist, sleeping babies next to one, targets of
    Sleeping Gas R10.1 by :func:`engine.predicates.gas_targets`)."""
    sleep_t = capture_t = 0
    for q in BOARD_SQUARES:
        c = b[q]
        if c == BABY:
            if any(b[n] == SCIENTIST_ACTIVE for n in NEIGHBOURS[q]):
                sleep_t += 1
        elif c == BABY_ASLEEP or c == BABY_ASLEEP_NEW:
            if any(b[n] == SCIENTIST_ACTIVE for n in NEIGHBOURS[q]):
                capture_t += 1
    return sleep_t, capture_t, len(gas_targets(b))


def _knapsack(items: list[tuple[int, float]], k: int, per_ap: float) -> float:
    """Greedy fill of ``k`` AP with ``(cost, gain)`` items, leftover AP at ``per_ap``."""
    total = 0.0
    for cost, gain in sorted(items, key=lambda x: x[1] / x[0], reverse=True):
        if cost <= k:
            total += gain
            k -= cost
    return total + per_ap * k


class _EffectFacts(NamedTuple):
    """What the worth of a card's effect depends on, in one position (see _effect_worth)."""

    can_call: bool      # an active baby and the mother on the board (R9.1, R9.4)
    shooters: int       # active scientists with a clear shot at the mother (R8.5)
    sleep_tokens: int   # on the mother
    scientists: bool    # any active scientist (to frighten, R9.3; to drive, R10.3)
    threat: int         # shots, sleeps and captures the scientists threaten now
    sleepy: int         # sleep tokens plus sleeping babies: what Recovery undoes (R9.5)
    gas: int            # active babies in a gas's reach (R10.1)
    reserve: int        # scientists in the reserve (R10.2)
    fire: bool          # fire tokens left in the supply (R10.5)


def _effect_worth(card: Card, f: _EffectFacts) -> float:
    """Rough worth in points of ``card``'s effect for its side (R9, R10), from what it does
    and how many units it allows (the card table, :data:`engine.CARD_TABLE`): a base and a
    worth per unit, or per unit that the position can use."""
    n = card.most
    unit = card.unit
    if unit is Unit.CALL:
        return 5.0 + 10.0 * n if f.can_call else 0.0
    if unit is Unit.DISAPPEAR:
        return 30.0 + 40.0 * f.shooters + 10.0 * f.sleep_tokens
    if unit is Unit.FEAR:
        return (10.0 + 10.0 * n + 30.0 * min(n, f.threat)) if f.scientists else 0.0
    if unit is Unit.RECOVER:
        return 45.0 * min(n, f.sleepy)
    if unit is Unit.GAS:
        return 50.0 * min(n, f.gas)
    if unit is Unit.REINFORCE:
        return 50.0 * min(n, f.reserve)
    if unit is Unit.JEEP:
        return 5.0 + 7.5 * n if f.scientists else 0.0
    if unit is Unit.FIRE:
        return 10.0 * n - 5.0 if f.fire else 0.0
    return 0.0  # R9.7, R10.6: no effect


@functools.lru_cache(maxsize=4096)
def _effect_table(facts: _EffectFacts) -> dict[Side, dict[int, float]]:
    """``{side: {card value: worth}}`` of every card of the table in a position with these
    ``facts`` (:func:`_effect_worth`); shared between calls, never to be changed."""
    return {side: {c.value: _effect_worth(c, facts) for c in CARD_TABLE if c.side is side}
            for side in (RAPTOR, SCIENTIST)}


class CardModel:
    """Rough values, for one side, of each card's effect and of k action points, from the
    public position (R5.4, R5.5, R9, R10). Used by the easy card pick."""

    def __init__(self, p: Position, w: dict[str, float] = W):
        b = p.board
        m = None if p.mother_off else (b.index(MOTHER) if MOTHER in b else None)
        sleep_t, capture_t, gas = threats(b)
        active = [q for q in BOARD_SQUARES if b[q] in ACTIVE_SCI]
        shooters = len(clear_shots(b, m, active)) if m is not None else 0
        active_sci = sum(1 for q in BOARD_SQUARES if b[q] in ACTIVE_SCI)
        frightened_old = sum(1 for q in BOARD_SQUARES if b[q] == SCIENTIST_FRIGHTENED)
        asleep = sum(1 for q in BOARD_SQUARES if b[q] in ASLEEP)
        active_babies = [q for q in BOARD_SQUARES if b[q] == BABY]
        dist = exit_distances(b, p.exits)
        # raptor AP items
        r_items: list[tuple[int, float]] = []
        if m is not None:
            for n in NEIGHBOURS[m]:
                if b[n] in ANY_SCI:
                    r_items.append((1, w["scientist"] + 5))
                elif b[n] == BABY_ASLEEP:
                    r_items.append((1, 35.0))
            dests = mother_runs(b, m)
            if dests:
                move = mother_move_cost(p.sleep_tokens, False)
                if shooters:
                    r_items.append((move, w["shot_line"] * shooters))
                best = 0
                for t in dests:
                    best = max(best, sum(1 for n in NEIGHBOURS[t] if b[n] in ANY_SCI
                                         and n not in NEIGHBOURS[m]))
                if best:
                    r_items.append((move + best, (w["scientist"] + 5) * best))
        need = BABIES_TO_WIN - p.escaped
        for d in sorted(dist[q] for q in active_babies)[:need]:
            if d < FAR:
                r_items.append((max(1, d), w["escaped"] if d <= 9 else 20.0))
        self.r_items = r_items
        # scientist AP items
        s_items: list[tuple[int, float]] = []
        s_items += [(1, w["captured"])] * capture_t
        s_items += [(1, 60.0)] * shooters
        s_items += [(1, 45.0)] * sleep_t
        s_items += [(1, 15.0)] * frightened_old
        # scientists that must first walk up to a baby (R8.1): steps + the action
        if active:
            for q in BOARD_SQUARES:
                c = b[q]
                if c == BABY or c in ASLEEP:
                    steps = min(map(MANHATTAN[q].__getitem__, active)) - 1
                    if steps >= 1:
                        gain = w["captured"] - 20.0 if c != BABY else 40.0
                        s_items.append((steps + 1, gain))
        self.s_items = s_items
        facts = _EffectFacts(can_call=bool(active_babies) and m is not None,
                             shooters=shooters, sleep_tokens=p.sleep_tokens,
                             scientists=active_sci > 0, threat=shooters + sleep_t + capture_t,
                             sleepy=p.sleep_tokens + asleep, gas=gas, reserve=p.reserve,
                             fire=fire_supply(b) > 0)
        self.effect = _effect_table(facts)
        self._ap: dict[tuple[Side, int], float] = {}

    def ap(self, side: Side, k: int) -> float:
        key = (side, k)
        v = self._ap.get(key)
        if v is None:
            items = self.r_items if side is RAPTOR else self.s_items
            v = self._ap[key] = _knapsack(items, k, 6.0)
        return v

    def outcome(self, side: Side, mine: int, theirs: int) -> float:
        """Value for ``side`` of the round where it plays ``mine`` and the opponent
        ``theirs`` (R5.3-R5.5)."""
        if mine == theirs:
            return 0.0
        if mine < theirs:
            return self.effect[side][mine] - self.ap(side.other, theirs - mine)
        return self.ap(side, mine - theirs) - self.effect[side.other][theirs]


def opponent_pool(v: View, me: Side) -> tuple[list[int], int | None]:
    """Cards the opponent may hold or have picked (all but its discard pile), and its pick
    when it is known (revealed, or shown under observation R5.2)."""
    opp = me.other
    known = None
    if v.picked[opp]:
        if v.revealed is not None:
            known = v.revealed[0 if opp is RAPTOR else 1]
        elif opp is SCIENTIST and v.shown_pick is not None:
            known = v.shown_pick
    pool = [c for c in CARD_VALUES if c not in v.discards[opp]]
    return pool, known



def card_merits(v: View, side: Side, cards: Sequence[int], w: dict[str, float] = W
                ) -> dict[int, tuple[float, int]]:
    """How much ``side`` likes each of ``cards`` (its own) in the public position of ``v``,
    as the easy card pick rates them when the other side's card is unknown (R5.1):
    :meth:`CardModel.outcome` summed over the cards the other side may still play (outside
    its discard pile, R5.6). Returns ``{card: (merit, -card)}``: the larger the better, the
    lower card first on a tie. (The easy pick's other cases, a known card and the
    scientist's pick under observation R5.2: :func:`bot.ai.easy.pick_merits`.)"""
    model = CardModel(Position.of(v), w)
    theirs = [c for c in CARD_VALUES if c not in v.discards[side.other]]
    return {c: (sum(model.outcome(side, c, o) for o in theirs), -c) for c in cards}


def opponent_pick_model(v: View, me: Side) -> dict[int, float] | None:
    """Probability of each card the opponent may pick now, seen from ``me``'s view: the
    easy heuristic's choice over every hand the opponent may hold, mixed with a uniform
    pick (``UNIFORM_MIX``). Hands are equally likely, or for a side of ``HAND_STICKINESS``
    weighted towards the cards the heuristic likes least, which it keeps in hand. A known
    pick (revealed or shown, R5.2) is certain. None when the opponent will see our card
    first (R5.2, we are the scientist). Under observation, before the scientist shows its
    card, the usual heuristic stands in for the one the easy level then uses (our best
    answer from each hand): the exact rule played no better (hard raptor vs easy, 20
    playouts, 300 games: 139 against 143 wins, +4 -8 game by game).

    Returns:
        ``{card: probability}`` over the cards outside the opponent's discard pile (R5.6),
        summing to 1; or None as above."""
    opp = me.other
    pool, known = opponent_pool(v, me)
    if known is not None:
        return {known: 1.0}
    if v.observation and me is SCIENTIST:
        return None
    # the hand it picks (or picked) from: its hand now, plus a face-down pick
    size = max(1, min(v.hand_sizes[opp] + (1 if v.picked[opp] else 0), len(pool)))
    merit = card_merits(v, opp, pool)
    hands = list(itertools.combinations(pool, size))
    # a hand's weight: the product of its cards' weights, exp(kappa * rank / (n - 1)) with
    # rank 0 for the card the opponent likes most and n - 1 for the one it likes least
    kappa = params.HAND_STICKINESS.get(me, 0.0)
    liked = sorted(pool, key=merit.__getitem__, reverse=True)
    card_weight = {c: math.exp(kappa * i / max(1, len(pool) - 1)) for i, c in enumerate(liked)}
    weights = [math.prod(card_weight[c] for c in h) for h in hands]
    return picks_of_hands(pool, merit, hands, weights)


def picks_of_hands(pool: Sequence[int], merit: dict[int, tuple[float, int]],
                   hands: Sequence[Sequence[int]], weights: Sequence[float]
                   ) -> dict[int, float]:
    """The chance of each card of ``pool`` (the cards the opponent may pick) when it holds
    each of ``hands`` with a chance proportional to its weight and picks the card of it
    that ``merit`` rates best (:func:`card_merits`), mixed with a uniform pick over the
    pool (``UNIFORM_MIX``). Returns ``{card: probability}``, summing to 1."""
    mix = params.UNIFORM_MIX
    total = sum(weights)
    probs = dict.fromkeys(pool, mix / len(pool))
    for h, weight in zip(hands, weights, strict=True):
        probs[max(h, key=merit.__getitem__)] += (1.0 - mix) * weight / total
    return probs

