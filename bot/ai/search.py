"""The hard level: a determinized search over the side's own decisions (a beam search,
escape plans, a lookahead to the next card pick) and a card pick by a payoff matrix over
the opponent's modelled pick."""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence

import engine
from bot.ai import params
from bot.ai.easy import greedy, ranked, rollout
from bot.ai.evaluation import Position, score
from bot.ai.params import W
from bot.ai.pick_model import opponent_pick_model, opponent_pool
from engine import Action, MoveBaby, Phase, Pick, Side, View
from engine.geometry import BOARD_SQUARES, NEIGHBOURS
from engine.state import BABY, EMPTY, EXIT, SETUP_PHASES

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
_OWN_SEQUENCE = frozenset({Phase.EFFECT, Phase.AP, Phase.MOTHER_RETURN}) | SETUP_PHASES


class OutOfTime(Exception):
    """The decision's hard deadline has passed: the search stops where it is and answers
    with its best decision so far (the easy level's when it has none yet)."""


class Clock:
    """Work cap (playouts) plus optional wall-clock deadlines, in seconds of ``now``.

    ``deadline``: no new batch of playouts (nor, after the first two, a proposal's
    lookahead) starts after it (soft). ``hard_deadline``: :meth:`check`, called inside
    every loop of the search, raises :class:`OutOfTime` after it. Without deadlines (fixed
    ``iterations``) the clock is never read, so the work is exactly the cap."""

    def __init__(self, cap: int, deadline: float | None, hard_deadline: float | None = None,
                 now: Callable[[], float] = time.perf_counter):
        self.cap = cap
        self.used = 0
        self.deadline = deadline
        self.hard_deadline = hard_deadline
        self.now = now

    def expired(self) -> bool:
        """True once the soft deadline has passed (never without one)."""
        return self.deadline is not None and self.now() > self.deadline

    def check(self) -> None:
        """Raise :class:`OutOfTime` once the hard deadline has passed (never without one)."""
        if self.hard_deadline is not None and self.now() > self.hard_deadline:
            raise OutOfTime

    def spend(self, k: int) -> bool:
        """True if a batch of ``k`` more playouts may run (and counts them). The first
        batch always runs (but :meth:`check` may still stop it)."""
        self.check()
        if self.used:
            if self.used + k > self.cap:
                return False
            if self.expired():
                return False
        self.used += k
        return True


def _no_clock() -> Clock:
    """A clock without deadlines, for the search's helpers called without one."""
    return Clock(0, None)


def _value(state, me: Side, w: dict[str, float] = W) -> float:
    """Value of a (determinized) state for ``me``: :func:`score` in points of ``w``, or
    for a side of ``WIN_CHANCE`` the chance of winning that the points predict (0.0 to
    1.0: a lost game about 0, a won one about 1)."""
    points = (1.0 if me is RAPTOR else -1.0) * score(Position.of(state), w)
    chance = params.WIN_CHANCE.get(me)
    if chance is None:
        return points
    slope, offset = chance
    return 1.0 / (1.0 + math.exp(-(slope * points + offset)))


def _mine(state, me: Side, r0: int) -> bool:
    return (state.phase in _OWN_SEQUENCE and state.round == r0
            and engine.to_act(state) == frozenset((me,)))


def _beam(state, me: Side, width: int, w: dict[str, float] = W,
          clock: Clock | None = None) -> list[tuple[float, Action, object]]:
    """Beam search over ``me``'s own decisions until control passes (or the phase
    sequence ends); returns end positions ``(score, first action, state)`` best first,
    the best one per first action. Raises :class:`OutOfTime` from ``clock.check``."""
    clock = clock or _no_clock()
    r0 = state.round
    frontier: list[tuple[object, Action | None]] = [(state, None)]
    finals: dict[Action, tuple[float, Action, object]] = {}
    while frontier:
        cands: list[tuple[float, int, object, Action, Action]] = []
        order = 0
        for node, first in frontier:
            clock.check()
            if not _mine(node, me, r0):
                val = _value(node, me, w)
                if first not in finals or finals[first][0] < val:
                    finals[first] = (val, first, node)
                continue
            for val, _neg, a in ranked(node, me, engine.legal_actions(node, me), w,
                                        clock.check):
                cands.append((val, -order, node, a, first if first is not None else a))
                order += 1
        if not cands:
            break
        cands.sort(key=lambda x: (x[0], x[1]), reverse=True)
        frontier = []
        seen = set()
        for _val, _o, node, a, first in cands:
            nxt = engine.apply(node, me, a)
            key = (tuple(nxt.board), nxt.sleep_tokens, nxt.escaped, nxt.captured,
                   nxt.reserve, nxt.phase, nxt.ap.remaining if nxt.ap else -1,
                   nxt.effect.done if nxt.effect else -1)
            if key in seen:
                continue
            seen.add(key)
            frontier.append((nxt, first))
            if len(frontier) >= width:
                break
    return sorted(finals.values(), key=lambda x: x[0], reverse=True)


def _escape_path(board: Sequence[int], start: int, exits: Sequence[int]) -> list[int]:
    """Shortest path (squares after ``start``) of a baby from ``start`` to an exit over
    free squares (R7.1, R3.2); empty when there is none."""
    prev = {start: start}
    queue = [start]
    for q in queue:
        for n in NEIGHBOURS[q]:
            if n in prev:
                continue
            c = board[n]
            if c == EXIT and n in exits:
                path = [n]
                while q != start:
                    path.append(q)
                    q = prev[q]
                return path[::-1]
            if c == EMPTY:
                prev[n] = q
                queue.append(n)
    return []


def _escape_plans(state, w: dict[str, float], width: int,
                  clock: Clock) -> list[tuple[float, Action, object]]:
    """Raptor AP phase: for each active baby that can reach an exit with the action points
    left (R7.1), the position after it walks there (then the beam's best use of any AP
    left, a beam of ``width``), as ``(score, first action, state)`` proposals for the hard
    search. A beam over single steps misses these plans, since each step alone gains
    little. Raises :class:`OutOfTime` from ``clock.check``."""
    out = []
    ap = state.ap.remaining
    for q in BOARD_SQUARES:
        if state.board[q] != BABY:
            continue
        clock.check()
        path = _escape_path(state.board, q, state.layout.exits)
        if not path or len(path) > ap:
            continue
        s, frm, first = state, q, None
        for to in path:
            a = MoveBaby(frm, to)
            if a not in engine.legal_actions(s, RAPTOR):
                break
            first = first or a
            s = engine.apply(s, RAPTOR, a)
            frm = to
        else:
            if _mine(s, RAPTOR, state.round):
                rest = _beam(s, RAPTOR, width, w, clock)
                if rest:
                    s = rest[0][2]
            out.append((_value(s, RAPTOR, w), first, s))
    return out


def decide_sequence(state, me: Side, legal: Sequence[Action], rng: random.Random,
                    clock: Clock, styles: dict[Side, dict[str, float]],
                    width: int | None = None, top_k: int | None = None) -> Action:
    """Hard level outside the pick: a beam search (``width``, default ``me``'s
    ``BEAM_WIDTH``) proposes the best sequences of own decisions (``top_k`` of them,
    default ``me``'s ``TOP_K``); each proposal's end position is re-determinized from
    ``me``'s view of it and valued by the lookahead (``LOOKAHEAD``,
    :func:`_best_by_lookahead`) or played on by rollouts to the end of the next round;
    the first action of the best wins.

    Raises :class:`OutOfTime` if the clock's hard deadline passes in the beam search (the
    caller then answers as the easy level); once there are proposals, it answers with the
    best one valued so far (by their static scores if none was)."""
    w = styles[me]
    width = params.BEAM_WIDTH[me] if width is None else width
    top_k = params.TOP_K[me] if top_k is None else top_k
    finals = _beam(state, me, width, w, clock)[:max(1, min(top_k, clock.cap))]
    if params.ESCAPE_PLANS and me is RAPTOR and state.phase is Phase.AP:
        try:
            finals += _escape_plans(state, w, width, clock)
        except OutOfTime:
            return max(finals, key=lambda x: x[0])[1] if finals else greedy(state, me, legal, w)
    if not finals:
        return greedy(state, me, legal, w)
    if len(finals) == 1:
        return finals[0][1]
    if params.LOOKAHEAD.get(me):
        finals.sort(key=lambda x: x[0], reverse=True)
        return _best_by_lookahead(finals, state.round, me, rng, clock, styles)
    last_round = max(state.round, 1) + params.ROLLOUT_ROUNDS
    views = [None if node.phase is Phase.OVER else engine.view(node, me)
             for _v, _f, node in finals]
    totals = [0.0] * len(finals)
    try:
        while clock.spend(len(finals)):
            sample_seed = rng.getrandbits(64)
            sample = []
            for i, (static, _first, _node) in enumerate(finals):
                clock.check()
                if views[i] is None:
                    sample.append(static)
                    continue
                s = engine.sample_state(views[i], random.Random(sample_seed))
                sample.append(_value(rollout(s, last_round, styles, clock.check), me, w))
            totals = [t + x for t, x in zip(totals, sample, strict=True)]
    except OutOfTime:
        pass  # the samples played out in full are compared (none: the static scores)
    best = max(range(len(finals)), key=lambda i: (totals[i], finals[i][0], -i))
    return finals[best][1]


def _best_by_lookahead(finals: list[tuple[float, Action, object]], r0: int, me: Side,
                       rng: random.Random, clock: Clock,
                       styles: dict[Side, dict[str, float]]) -> Action:
    """The first action of the proposal (``(static score, first action, end state)``
    from :func:`_beam`, best first, round ``r0``) whose end is worth most by
    :func:`_next_pick_value`, averaged over ``LOOKAHEAD_SAMPLES`` determinizations of
    ``me``'s view of it (the same ones for every proposal); a finished game keeps its
    static score. Proposals are valued in order; once the clock's deadline has passed
    (never with fixed ``iterations``), those left after the first two are not; once its
    hard deadline has passed, none more is, and the best of those valued wins (the best
    static score if none was)."""
    seeds = [rng.getrandbits(64) for _ in range(params.LOOKAHEAD_SAMPLES)]
    values: list[float] = []
    try:
        for static, _first, node in finals:
            if len(values) >= 2 and clock.expired():
                break
            clock.check()
            if node.phase is Phase.OVER:
                values.append(static)
                continue
            nv = engine.view(node, me)
            total = 0.0
            for seed in seeds:
                s = engine.sample_state(nv, random.Random(seed))
                total += _next_pick_value(s, me, r0, random.Random(seed + 1), styles, clock)
            values.append(total / len(seeds))
    except OutOfTime:
        if not values:
            return finals[0][1]
    best = max(range(len(values)), key=lambda i: (values[i], finals[i][0], -i))
    return finals[best][1]



def _with_opponent_card(v: View, me: Side, card: int, rng: random.Random, tries: int = 60):
    """A determinization of ``v`` where the opponent holds (or has picked) ``card``;
    None if none turned up in ``tries`` samples."""
    opp = me.other
    for _ in range(tries):
        s = engine.sample_state(v, rng)
        if s.picks[opp] == card or (s.picks[opp] is None and card in s.hands[opp]):
            return s
    return None


def _pair_base(v: View, me: Side, theirs: int, rng: random.Random):
    """A determinization of ``v`` where the opponent holds ``theirs``, with that card
    already picked when the opponent picks first (R5.2); None if none turned up."""
    opp = me.other
    base = _with_opponent_card(v, me, theirs, rng)
    if base is not None and engine.to_act(base) == frozenset((opp,)) and base.picks[opp] is None:
        base = engine.apply(base, opp, Pick(theirs))  # it picks first (R5.2)
    return base


def _pair_column(base, me: Side, hand: Sequence[int], theirs: int,
                 judge: Callable[[object, int], float], clock: Clock) -> dict[int, float]:
    """``{own card: judge(state after both picks, round)}`` on the determinization
    ``base`` (from :func:`_pair_base`) where the opponent picks ``theirs``; the picks are
    made in the order the rules ask (R5.1, R5.2). Raises :class:`OutOfTime` from
    ``clock.check``."""
    opp = me.other
    out = {}
    for mine in hand:
        clock.check()
        s = engine.apply(base, me, Pick(mine))
        if s.phase is Phase.PICK and s.round == base.round and s.picks[opp] is None:
            s = engine.apply(s, opp, Pick(theirs))
        out[mine] = judge(s, base.round)
    return out


def _pair_bases(v: View, me: Side, support: Sequence[int], rng: random.Random,
                clock: Clock) -> dict:
    """``{opponent card: determinization}`` for each card of ``support`` (in order, one
    draw of ``rng`` each) that a determinization where the opponent holds it was found
    for (:func:`_pair_base`). Raises :class:`OutOfTime` from ``clock.check``."""
    bases = {}
    for theirs in support:
        clock.check()
        base = _pair_base(v, me, theirs, random.Random(rng.getrandbits(64)))
        if base is not None:
            bases[theirs] = base
    return bases


def _round_end_values(bases: dict, me: Side, hand: Sequence[int],
                      styles: dict[Side, dict[str, float]],
                      clock: Clock) -> dict[tuple[int, int], float]:
    """``{(own card, opponent card): value}`` on the determinizations ``bases`` (from
    :func:`_pair_bases`): the round (and ``PICK_ROUNDS`` more) played out by the policies
    of ``styles`` and valued for ``me`` by :func:`_value` at its end."""
    w = styles[me]

    def judge(s, r0: int) -> float:
        return _value(rollout(s, r0 + params.PICK_ROUNDS, styles, clock.check), me, w)

    return {(mine, theirs): value for theirs, base in bases.items()
            for mine, value in _pair_column(base, me, hand, theirs, judge, clock).items()}


def _pair_values(v: View, me: Side, hand: Sequence[int], support: Sequence[int],
                 rng: random.Random, styles: dict[Side, dict[str, float]],
                 clock: Clock | None = None) -> dict[tuple[int, int], float]:
    """``{(own card, opponent card): value}`` for ``me`` (:func:`_value` with
    ``styles[me]``) of the pick of ``v``: for each opponent card of ``support``, a
    determinization where the opponent holds it; for each own card of ``hand`` the picks
    are made in the order the rules ask (the scientist first under observation, R5.2) and
    the round is played out by the policies of ``styles`` (R5.3-R5.5) and scored at its
    end. A card no determinization was found for has no entries."""
    clock = clock or _no_clock()
    return _round_end_values(_pair_bases(v, me, support, rng, clock), me, hand, styles, clock)


def _pick_table(v: View, me: Side, hand: Sequence[int], rng: random.Random,
                styles: dict[Side, dict[str, float]], min_prob: float = 0.0,
                clock: Clock | None = None, *,
                deadline: Clock | None = None) -> dict[int, float]:
    """Expected value for ``me`` (``styles[me]`` points) of each card of ``hand`` in the
    pick of ``v`` (R5.1-R5.5): for every pair (own card, opponent card) the round is
    played out by the policies of ``styles`` on a determinization where the opponent
    holds that card, and scored at the round's end; the pairs are weighted by the
    opponent's pick model (a shown pick is certain, R5.2). Under observation as the
    scientist, the raptor is assumed to answer each card with its best card in each hand
    it may hold. ``min_prob``: opponent cards the model gives less are left out.

    With a ``clock``, for a side of ``PICK_LOOKAHEAD``, the pairs are then valued again,
    one opponent card at a time from the likeliest, by the lookahead
    (:func:`_next_pick_value`: the round played out, then our best card of the next
    round), on the same determinizations; each opponent card spends ``len(hand)`` units
    of the clock, and the cards the clock leaves no room for keep their values at the
    round's end (the first one is always valued again). An opponent card's values are
    all of one kind, so the comparison of our cards stays fair. Once the clock's hard
    deadline has passed, no opponent card more is valued again (one half done keeps its
    values at the round's end); before the lookahead, :class:`OutOfTime` is raised.
    ``deadline``: without a ``clock`` (no lookahead), the clock whose hard deadline
    bounds the work all the same.

    Returns:
        ``{card: expected value}`` for every card of ``hand``, as :func:`_value` gives them
        (0.0 for a card no determinization could be found for)."""
    opp = me.other
    probs = opponent_pick_model(v, me)
    pool, _known = opponent_pool(v, me)
    support = sorted(probs) if probs is not None else pool
    if min_prob and probs is not None:
        support = [o for o in support if probs[o] >= min_prob]
    timer = clock or deadline or _no_clock()
    bases = _pair_bases(v, me, support, rng, timer)
    values = _round_end_values(bases, me, hand, styles, timer)
    if clock is not None and params.PICK_LOOKAHEAD.get(me):
        likeliest = sorted(bases, key=lambda o: (-probs[o], o)) if probs is not None else bases
        try:
            for theirs in likeliest:
                if not clock.spend(len(hand)):
                    break
                seed = rng.getrandbits(64)

                def ahead(s, r0: int, seed: int = seed) -> float:
                    return _next_pick_value(s, me, r0, random.Random(seed), styles, clock)

                column = _pair_column(bases[theirs], me, hand, theirs, ahead, clock)
                for mine, value in column.items():
                    values[mine, theirs] = value
        except OutOfTime:
            pass
    if probs is not None:
        return {c: _expected_value(c, values, probs) for c in hand}
    size = max(1, min(v.hand_sizes[opp], len(pool)))
    hands = list(itertools.combinations(pool, size))

    def expected(c: int) -> float:
        total = 0.0
        for h in hands:
            total += min((values[c, o] for o in h if (c, o) in values), default=0.0)
        return total / len(hands)

    return {c: expected(c) for c in hand}


def _expected_value(card: int, values: dict[tuple[int, int], float],
                    probs: dict[int, float]) -> float:
    """Value of playing ``card`` against an opponent who picks each card with ``probs``,
    from the pair values ``{(own card, opponent card): value}`` (pairs without a value are
    left out and the rest reweighted; 0.0 when none has one)."""
    num = sum(p * values[card, o] for o, p in probs.items() if (card, o) in values)
    den = sum(p for o, p in probs.items() if (card, o) in values)
    return num / den if den else 0.0


def decide_pick(v: View, me: Side, hand: Sequence[int], rng: random.Random,
                             styles: dict[Side, dict[str, float]],
                             clock: Clock | None = None) -> int:
    """Hard card pick: the card of ``hand`` with the best value in :func:`_pick_table`
    (the lower card on a tie); ``clock`` bounds its lookahead (``PICK_LOOKAHEAD``).
    Raises :class:`OutOfTime` if the clock's hard deadline passes before every pair of
    cards has its value at the round's end."""
    table = _pick_table(v, me, hand, rng, styles, clock=clock)
    return max(hand, key=lambda c: (table[c], -c))


def _next_pick_value(state, me: Side, r0: int, rng: random.Random,
                     styles: dict[Side, dict[str, float]], clock: Clock | None = None) -> float:
    """Value for ``me`` (:func:`_value`: points of ``styles[me]``, ``+-WIN`` for a finished
    game, or a chance of winning for a side of ``WIN_CHANCE``) of a determinized ``state``
    of round ``r0``: the round is played out by the policies of
    ``styles``, then the next round's pick is valued as the hard card pick values it
    (:func:`_pick_table`: our best card against the opponent's pick model, each pair
    played out to that round's end; opponent cards under ``LOOKAHEAD_MIN_PROB`` left
    out). Under observation (R5.2) the raptor answers each card the scientist may show
    with its best card. Raises :class:`OutOfTime` from ``clock.check``."""
    w = styles[me]
    clock = clock or _no_clock()
    clock.check()
    s = rollout(state, r0, styles, clock.check)
    if s.phase is not Phase.PICK:
        return _value(s, me, w)
    hand = sorted(s.hands[me])
    v = engine.view(s, me)
    opp = me.other
    if me is RAPTOR and s.observation and s.picks[opp] is None:
        probs = opponent_pick_model(v, me)
        support = [o for o in sorted(probs) if probs[o] >= params.LOOKAHEAD_MIN_PROB]
        values = _pair_values(v, me, hand, support, rng, styles, clock)
        shown = [o for o in support if (hand[0], o) in values]
        den = sum(probs[o] for o in shown)
        if not den:
            return _value(s, me, w)
        return sum(probs[o] * max(values[c, o] for c in hand) for o in shown) / den
    return max(_pick_table(v, me, hand, rng, styles, params.LOOKAHEAD_MIN_PROB,
                           deadline=clock).values())

