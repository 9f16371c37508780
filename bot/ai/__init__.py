"""The AI opponent: chooses one decision from a player's :class:`engine.View`, honestly.

Public API::

    choose_action(view, *, level="easy", seed=0, time_budget=2.0, iterations=None,
                  clock=time.perf_counter) -> Action
    evaluate(view) -> float

Modules (each imports only the engine, the standard library and the modules above it)::

    params      tuning constants and evaluation weights, one line each (why: benchmarks/RESULTS.md)
    evaluation  static evaluation of a position (Position, score, evaluate)
    model       the fast transition model: the position after an action, its AP cost
    pick_model  card values from the position; the model of the opponent's card pick
    easy        the easy level; also the policy of the hard level's playouts
    search      the hard (and medium) level: beam search, escape plans, lookahead,
                payoff-matrix pick

Honesty (R11): the AI never receives or reads a :class:`engine.GameState`. It only sees the
view of the side to move (``view.viewer``). To know its legal actions it builds a
*determinization* with :func:`engine.sample_state` (the opponent's hand, deck order and
unrevealed pick drawn at random, consistently with the view) and asks
:func:`engine.legal_actions`, which only depend on public information and its own hand, so
they are exact. Nothing it computes depends on the real hidden cards of the opponent.

Levels:

* ``easy`` — a fast heuristic (a few milliseconds). Placements, card effects, AP actions
  and the mother's return are chosen greedily with a static evaluation of the position
  (:func:`evaluate`) one step ahead. The card pick scores each card of the hand against
  every card the opponent may still hold (uniformly), with a rough value for the effect of
  the lower card and for the action points of the higher one.
* ``medium`` — the hard level's search made smaller: ``MEDIUM_WORK_SHARE`` of its work
  and of its time budget, a beam of ``MEDIUM_BEAM_WIDTH`` and ``MEDIUM_TOP_K`` proposals
  compared (the card pick's payoff matrix is the hard one's, with fewer lookaheads).
* ``hard`` — a determinized Monte Carlo search. Effects, AP actions, placements and the
  mother's return: a beam search over the side's own sequence of decisions (until control
  passes) proposes its best end positions (in the raptor's AP phase, also every whole
  escape of a baby that the AP left can complete, which single steps judged one at a time
  miss); each proposal is re-determinized from the side's own view of it and valued, and
  the first decision of the proposal with the best value is played. The raptor
  (``LOOKAHEAD``) plays the round out (the easy policy for both sides) and values the next
  round's card pick as its card pick does (below): its best card against the scientist's
  modelled pick, each pair of cards played out to that round's end; under observation
  (R5.2) its best answer to each card the scientist may show. The raptor's values are
  chances of winning (``WIN_CHANCE``: the logistic of its score, fitted to game
  outcomes), so its averages weigh a lost game as 0, not as -10000. The scientist plays
  rollouts (the easy policy for both sides) to the end of the next round, scored with
  :func:`evaluate`, and takes the best mean.
  The card pick: a payoff matrix. For every pair (own card, opponent card) the round is played
  out by the easy policies on a determinization where the opponent holds that card and is
  scored at its end; the opponent's pick is modelled from its possible hands (every hand
  of the cards outside its discard pile, each playing the easy heuristic's card, mixed with
  a uniform pick ``UNIFORM_MIX``; the scientist weighs them alike, the raptor leans towards
  hands keeping the cards the heuristic likes least, ``HAND_STICKINESS``); a shown pick
  (R5.2) is certain, and when the raptor will see our card first it is assumed to answer
  with its best card. The raptor (``PICK_LOOKAHEAD``) then values the pairs again, from
  the scientist's likeliest card down while its budget lasts, by the lookahead its other
  decisions use: the round played out, then its best card of the next round.

Determinism: the same view, ``seed``, ``level`` and ``iterations`` give the same action.
With ``iterations=None`` the hard level caps its work at a number of playouts derived from
``time_budget`` and also stops when the clock passes the budget; the result is then
deterministic whenever the cap is reached first (the usual case on a machine at least as
fast as the calibration one); pass ``iterations`` to fix the work exactly. The scientist's
card pick and the escape proposals do a fixed amount of work, whatever the budget (at most
3 × 9 one-round playouts for a pick); the raptor's pick adds the lookahead of one
scientist card (its 3 pairs) per 3 units of the cap, the first always, and none once the
deadline has passed; the raptor's lookahead does a fixed amount per proposal (one round
played out, then the next pick's table) and, with ``iterations=None``, starts no proposal
after the first two once the deadline has passed.

The clock is a promise: with ``iterations=None`` every loop of the search (the beam, the
escape plans, the rollouts and each of their decisions, the scoring of large sets of
actions, the lookahead, the pick's table) reads the clock and stops once
:func:`deadline_after` has passed (``DEADLINE_HARD_SHARE`` of the budget, at least
``DEADLINE_MARGIN`` before its end), wherever it is; the decision is then
the best one valued so far, or the easy level's when the search has none yet. With fixed
``iterations`` the clock is never read.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import engine
from bot.ai import easy, params, search
from bot.ai.evaluation import evaluate
from bot.ai.params import W
from engine import Action, Phase, Pick, Side, View

__all__ = ["LEVELS", "choose_action", "deadline_after", "evaluate"]

LEVELS = ("easy", "medium", "hard")


def deadline_after(budget: float) -> float:
    """Seconds after the call at which a search of ``budget`` seconds stops wherever it
    is: ``DEADLINE_HARD_SHARE`` of the budget, but never less than ``DEADLINE_MARGIN``
    before its end (0 when the budget is smaller than that margin: the easy level's
    answer at once). The margin is what the answer needs after the last clock read on a
    loaded machine, where the process may wait tens of milliseconds for a core."""
    return max(0.0, budget - max((1.0 - params.DEADLINE_HARD_SHARE) * budget,
                                 params.DEADLINE_MARGIN))


def choose_action(view: View, *, level: str = "easy", seed: int = 0,
                  time_budget: float = 2.0, iterations: int | None = None,
                  clock: Callable[[], float] = time.perf_counter) -> Action:
    """Choose the decision of ``view.viewer`` in the position shown by ``view``.

    Args:
        view: the view of the side to move (:func:`engine.view` with a side), never the
            state itself. Any decision: setup placements (R4), the card pick (R5.1, R5.2),
            effect units (R9, R10), AP actions including End (R7, R8) and the mother's
            return (R9.2).
        level: ``"easy"`` (a greedy heuristic, a few ms), ``"medium"`` (a smaller
            search) or ``"hard"`` (a search); :data:`LEVELS`.
        seed: fixes every random choice: the same view, seed, level and iterations give
            the same action.
        time_budget: hard level, seconds per decision: no new batch of playouts (nor,
            after the first two, a new proposal's lookahead) starts after
            ``DEADLINE_SHARE`` of it, and the search stops wherever it is after
            :func:`deadline_after` it (then answering with its best decision so
            far, or the easy level's). Ignored when ``iterations`` is given, and by the
            easy level.
        iterations: hard level, the exact work: the number of round playouts it may run
            (in the raptor's card pick, the lookahead of one pair of cards counts as one).
            None: ``max(1, round(time_budget * PLAYOUTS_PER_SECOND))`` playouts, stopping
            early if the budget runs out. The medium level does ``MEDIUM_WORK_SHARE`` of
            this work (at least 1 playout) within as much of ``time_budget``.
        clock: the time in seconds (a monotonic clock), read only by the hard level with
            ``iterations=None``; a test may pass a fake one.

    Returns:
        One of ``engine.legal_actions`` for the viewer in every state consistent with the
        view (legality depends only on public information and the viewer's own cards).

    Raises:
        ValueError: ``view`` is public (no viewer), the viewer has nothing to decide, the
            level is unknown, or ``time_budget``/``iterations`` are not positive.
        TypeError: ``view`` is not an :class:`engine.View`.
    """
    started = clock() if iterations is None and level != "easy" else 0.0  # the budget's start
    if not isinstance(view, View):
        raise TypeError(f"choose_action needs an engine.View, got {type(view).__name__}")
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    if view.viewer is None:
        raise ValueError("choose_action needs a player's view, not the public one")
    me = Side(view.viewer)
    if me not in view.to_act:
        raise ValueError(f"the {me.value} has nothing to decide now "
                         f"(phase {view.phase.value})")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if iterations is None and not time_budget > 0:
        raise ValueError(f"time_budget must be positive, got {time_budget}")
    rng = random.Random(f"raptor-ai:{level}:{int(seed)}")
    state = engine.sample_state(view, rng)
    legal = engine.legal_actions(state, me)
    if not legal:  # pragma: no cover - the engine offers a decision to every side to act
        raise ValueError(f"the {me.value} has no legal action in this view")
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        return easy.decide(view, state, me, legal)
    share = params.MEDIUM_WORK_SHARE if level == "medium" else 1.0
    if iterations is not None:
        work = search.Clock(max(1, round(iterations * share)), None)
    else:
        budget = time_budget * share
        cap = max(1, round(budget * params.PLAYOUTS_PER_SECOND))
        hard = started + deadline_after(budget)
        work = search.Clock(cap, min(started + params.DEADLINE_SHARE * budget, hard), hard,
                            clock)
    # medium's narrower search; hard's by side, search.decide_sequence's defaults
    width, top_k = ((params.MEDIUM_BEAM_WIDTH, params.MEDIUM_TOP_K) if level == "medium"
                    else (None, None))
    # own decisions with the hard style of our side; the opponent modelled as the easy level
    styles = {me: params.HARD_STYLE[me], me.other: W}
    # on the clock, a legal answer is ready before the search starts (the easy level's,
    # which draws nothing from rng): past the hard deadline nothing is left to compute
    ready = easy.decide(view, state, me, legal) if iterations is None else None
    try:
        if state.phase is Phase.PICK:
            hand = [a.card for a in legal]
            return Pick(search.decide_pick(view, me, hand, rng, styles, work))
        return search.decide_sequence(state, me, legal, rng, work, styles, width, top_k)
    except search.OutOfTime:
        return ready  # no search result yet: the easy level's

