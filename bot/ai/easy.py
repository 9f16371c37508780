"""The easy level: a greedy policy one step ahead of the fast model for every decision
but the card pick, and a card pick by the card pick model; also the policy of the hard
level's playouts."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import engine
from bot.ai import params
from bot.ai.evaluation import Position, remember, score, weights_id
from bot.ai.model import after, ap_cost
from bot.ai.params import W
from bot.ai.pick_model import CardModel, card_merits, opponent_pool
from engine import Action, End, Phase, Pick, Side, View

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST


#: Actions scored between two calls of a ``check`` in :func:`ranked` (its deadline).
CHECK_EVERY = 32


def ranked(state, side: Side, legal: Sequence[Action], w: dict[str, float] = W,
           check: Callable[[], None] | None = None) -> list[tuple[float, int, Action]]:
    """Every legal non-pick action scored one step ahead for ``side`` (best first);
    ``check`` (a search's deadline, which may raise) is called every
    :data:`CHECK_EVERY` actions, so that a large set of actions is no long loop."""
    sign = 1.0 if side is RAPTOR else -1.0
    epsilon = params.COST_EPSILON
    ap_phase = state.phase is Phase.AP
    p = Position.of(state)
    out = []
    for i, a in enumerate(legal):
        if check is not None and i % CHECK_EVERY == CHECK_EVERY - 1:
            check()
        cost = ap_cost(a, state)
        q = after(p, a, cost)
        if ap_phase and type(a) is End:
            q.ap_left = 0  # R5.5: unspent AP are lost
        out.append((sign * score(q, w) - epsilon * cost, -i, a))
    out.sort(reverse=True)  # by value, then by order: -i differs for every action
    return out


def greedy(state, side: Side, legal: Sequence[Action], w: dict[str, float] = W,
           check: Callable[[], None] | None = None) -> Action:
    """Easy policy for every decision but the card pick (weights ``w``; ``check`` as in
    :func:`ranked`)."""
    return ranked(state, side, legal, w, check)[0][2]


def pick_merits(v: View, me: Side, hand: Sequence[int], w: dict[str, float] = W
                ) -> dict[int, tuple[float, int]]:
    """The easy card pick's rating of each card of ``hand`` for ``me`` in ``v``
    (``{card: (value, -card)}``, the larger the better): against the opponent's card when
    it is known (R5.2); as the scientist under observation, whose card the raptor sees
    before picking (R5.2), the raptor's best reply from each hand of its size it may
    hold, on average; otherwise :func:`bot.ai.pick_model.card_merits` (every card the
    opponent may still play, alike)."""
    pool, known = opponent_pool(v, me)
    if known is None and not (v.observation and me is SCIENTIST):
        return card_merits(v, me, hand, w)
    model = CardModel(Position.of(v), w)
    if known is not None:
        return {c: (model.outcome(me, c, known), -c) for c in hand}
    size = max(1, min(v.hand_sizes[me.other], len(pool)))
    hands = list(itertools.combinations(pool, size))

    def worst(c: int) -> float:
        return sum(min(model.outcome(me, c, o) for o in h) for h in hands) / len(hands)

    return {c: (worst(c), -c) for c in hand}


def pick_card(v: View, me: Side, hand: Sequence[int], w: dict[str, float] = W) -> int:
    """Easy card pick: the card of ``hand`` that :func:`pick_merits` rates best."""
    merits = pick_merits(v, me, hand, w)
    return max(hand, key=merits.__getitem__)


def decide(v: View, state, me: Side, legal: Sequence[Action]) -> Action:
    if state.phase is Phase.PICK:
        card = pick_card(v, me, [a.card for a in legal])
        return Pick(card)
    return greedy(state, me, legal)


def policy(state, side: Side, w: dict[str, float] = W,
           check: Callable[[], None] | None = None) -> Action:
    """The easy policy (with weights ``w``) on a (determinized) state, used inside hard
    playouts: it reads only the public position and ``side``'s own cards, as the easy
    level does from a view. ``check``: as in :func:`ranked`.

    Outside the card pick the decision depends only on the public position (R11.1), which
    the playouts of one search meet again and again (every determinization of a view
    replays the rest of its round alike), so it is memoized on that position
    (:func:`_public_key`); ``w`` must not be changed in place once used."""
    if state.phase is Phase.PICK:
        legal = engine.legal_actions(state, side)
        if len(legal) == 1:
            return legal[0]
        return Pick(pick_card(engine.view(state, side), side, [a.card for a in legal], w))
    key = _public_key(state, side, w)
    hit = _POLICY_MEMO.get(key)
    if hit is not None:
        return hit
    legal = engine.legal_actions(state, side)
    a = legal[0] if len(legal) == 1 else greedy(state, side, legal, w, check)
    return remember(_POLICY_MEMO, key, a, MEMO_SIZE)


#: Decisions the memo of :func:`policy` keeps (the last ones, or more).
MEMO_SIZE = 32_768
_POLICY_MEMO: dict[tuple, Action] = {}


def _public_key(state, side: Side, w: dict[str, float]) -> tuple:
    """Everything a decision of :func:`greedy` outside the card pick reads: what
    :func:`engine.legal_actions` reads outside the pick (board, phase, effect, action
    points, tokens, reserve), what :class:`Position` and :func:`ap_cost` read, the
    weights (by identity) and ``COST_EPSILON``. The hands, decks and seed are left out:
    they change no such decision."""
    return (bytes(state.board), side, weights_id(w), params.COST_EPSILON, state.phase, state.round,
            state.ap, state.effect, state.sleep_tokens, state.escaped, state.captured,
            state.reserve, state.mother_off, state.observation, state.observe_next,
            state.revealed, state.winner, state.layout.exits)


def rollout(state, last_round: int, styles: dict[Side, dict[str, float]] | None = None,
            check: Callable[[], None] | None = None):
    """Play the easy policy for both sides (weights ``styles[side]``, :data:`W` by
    default) until round ``last_round`` is over (or the game); in a simultaneous pick the
    raptor picks first, which changes nothing since neither sees the other's card (R5.1).
    ``check`` (a search's deadline, which may raise) is called before every decision of
    the playout and inside the scoring of large sets of actions (:func:`ranked`)."""
    s = state
    while s.phase is not Phase.OVER and s.round <= last_round:
        if check is not None:
            check()
        movers = engine.to_act(s)
        side = RAPTOR if RAPTOR in movers else SCIENTIST
        s = engine.apply(s, side, policy(s, side, styles[side] if styles else W, check))
    return s

