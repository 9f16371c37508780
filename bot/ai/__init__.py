"""The AI opponent: chooses one decision from a player's :class:`engine.View`, honestly.

Public API::

    choose_action(view, *, level="easy", seed=0, time_budget=2.0, iterations=None,
                  clock=time.perf_counter) -> Action
    evaluate(view) -> float

Honesty (R11): it reads only the view of the side to move, never a :class:`engine.GameState`;
the same view, ``seed``, ``level`` and ``iterations`` give the same action. How the levels
search, what keeps it honest and how it keeps to its clock: ``docs/AI.md``.
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

