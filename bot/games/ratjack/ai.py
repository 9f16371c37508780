"""AI seats for Ratjack: choose one decision from a player's :class:`engine.ratjack.View`.

Public API::

    choose_action(view, *, level="easy", seed=0, time_budget=None, iterations=None,
                  clock=time.perf_counter) -> Action
    value(state, seat) -> float

Honesty (RJ11.2): the AI never receives a state. It reads the view of the seat to move;
where it needs a full state (to apply actions, to look ahead) it builds *determinizations*
with :func:`engine.ratjack.sample_state`: every card hidden from it (the other hands, the
hidden cards it has not seen, the deck order) drawn at random from the cards it does not
know, consistently with the view. Its legal actions are the view's own (``view.legal``).

Levels:

* ``easy`` — one step of greed on one determinization: each legal action applied and the
  position valued (:func:`value`), a random action now and then (``EASY_NOISE``); the draw
  by a rule (take the discard pile's top card when it brings the total to between
  ``DRAW_LOW`` and 25, else the deck). A few milliseconds.
* ``hard`` — flat determinized Monte Carlo: for each of ``iterations`` determinizations,
  every legal action is applied and played out — the rest of the AI's turn greedily, then
  the other players' turns by the easy policy, until the AI's next turn begins or the round
  ends — and the position valued; the action with the best mean wins. The same
  determinizations and random streams serve every action (common random numbers), so the
  comparison is of the actions, not of the luck.

:func:`value` is the AI's judgement of a position for a seat: its VP plus its chance to take
this round's VP, against the others' (their leader weighed most). The round chance is a
softmax of the totals (a total of exactly 25 all but wins; over 25 is out), sharper as the
deck runs down.

Determinism: the same view, ``level``, ``seed`` and ``iterations`` give the same action.
With ``iterations=None`` the hard level runs up to ``MAX_SAMPLES`` determinizations and
stops starting new ones once ``time_budget`` (default :data:`DEFAULT_BUDGET` seconds) has
passed: the clock is read between determinizations only, at least one always runs.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engine.ratjack import (
    LIMIT,
    Action,
    Draw,
    Phase,
    Source,
    State,
    View,
    apply,
    legal_actions,
    sample_state,
    to_act,
    total,
)
from engine.ratjack.cards import value_of

LEVELS = ("easy", "hard")
#: The easy level's share of random decisions (the rest are greedy).
EASY_NOISE = 0.15
#: The easy level takes the discard pile's top card when it brings its total to at least
#: this (and not over 25).
DRAW_LOW = 19
#: The hard level's default seconds per decision, and its cap on determinizations.
DEFAULT_BUDGET = 1.0
MAX_SAMPLES = 64
#: A play-out stops after this many decisions even if the AI's turn has not come back.
ROLLOUT_LIMIT = 60
#: How sharply the round chance follows the totals: from ``SHARPNESS_START`` with a full
#: deck to ``SHARPNESS_START + SHARPNESS_GROWTH`` with an empty one.
SHARPNESS_START = 2.5
SHARPNESS_GROWTH = 7.5
#: The weight of the opponents' leader against their mean, in :func:`value`.
LEADER_WEIGHT = 0.5
#: The value of winning the game (and minus that of losing it).
GAME_VALUE = 10.0


# --------------------------------------------------------------------------- evaluation
def round_chances(s: State) -> dict[int, float]:
    """Each seat's chance to take this round's VP, as :func:`value` estimates it: a softmax
    of the totals of the players still in (exactly 25: all but certain; over 25: none)."""
    alive = [q for q in range(s.seats) if not s.out[q]]
    if not alive:
        return {}
    k = SHARPNESS_START + SHARPNESS_GROWTH * (1 - len(s.deck) / 24)
    weights = {}
    for q in alive:
        t = total(s, q)
        if t > LIMIT:
            weights[q] = 0.0
        elif t == LIMIT:
            weights[q] = 1e6
        else:
            weights[q] = math.exp(k * max(t, 0) / LIMIT)
    z = sum(weights.values()) or 1.0
    return {q: w / z for q, w in weights.items()}


def value(s: State, seat: int) -> float:
    """How good ``s`` is for ``seat``: its VP and round chance against the other seats'
    (their leader weighs ``LEADER_WEIGHT``, their mean the rest); a finished game is
    ``GAME_VALUE`` won or lost."""
    if s.phase is Phase.OVER:
        return GAME_VALUE if seat in s.winners else -GAME_VALUE
    chances = round_chances(s)
    worth = [s.vp[q] + chances.get(q, 0.0) for q in range(s.seats)]
    others = [worth[q] for q in range(s.seats) if q != seat and not s.forfeited[q]]
    if not others:
        return worth[seat]
    return worth[seat] - LEADER_WEIGHT * max(others) - (1 - LEADER_WEIGHT) * (
        sum(others) / len(others))


# --------------------------------------------------------------------------- policies
def _draw_rule(s: State, seat: int) -> Action:
    """The easy level's draw: the discard pile's top card when it brings the total to
    ``DRAW_LOW``-25, else the deck."""
    if s.discard:
        t = total(s, seat) + value_of(s.discard[-1])
        if DRAW_LOW <= t <= LIMIT:
            return Draw(Source.DISCARD)
    return Draw(Source.DECK)


def greedy_action(s: State, seat: int, legal: list[Action] | None = None) -> Action:
    """The legal action of ``seat`` whose result :func:`value` rates best (the first of
    equals); the draw by :func:`_draw_rule`."""
    legal = legal_actions(s, seat) if legal is None else legal
    if len(legal) == 1:
        return legal[0]
    if s.phase is Phase.DRAW:
        return _draw_rule(s, seat)
    best, best_value = legal[0], -math.inf
    for a in legal:
        v = value(apply(s, seat, a), seat)
        if v > best_value:
            best, best_value = a, v
    return best


def easy_action(s: State, seat: int, rng: random.Random) -> Action:
    """The easy policy on a full state: greedy, random with chance ``EASY_NOISE``."""
    legal = legal_actions(s, seat)
    if len(legal) > 1 and rng.random() < EASY_NOISE:
        return rng.choice(legal)
    return greedy_action(s, seat, legal)


def play_out(s: State, seat: int, rng: random.Random) -> float:
    """:func:`value` for ``seat`` once the rest of its turn (greedy) and the other players'
    turns (easy) are played, up to the start of its next turn or the round's end."""
    start_round, start_turn = s.round, s.turn
    for _ in range(ROLLOUT_LIMIT):
        if s.phase is Phase.OVER or s.round != start_round:
            break
        (q,) = to_act(s)
        if q == seat and s.current == seat and s.phase is Phase.DRAW and s.turn != start_turn:
            break
        action = greedy_action(s, q) if q == seat and s.current == seat else easy_action(
            s, q, rng)
        s = apply(s, q, action)
    return value(s, seat)


# --------------------------------------------------------------------------- entry point
def choose_action(view: View, *, level: str = "easy", seed: int = 0,
                  time_budget: float | None = None, iterations: int | None = None,
                  clock: Callable[[], float] = time.perf_counter) -> Action:
    """The decision of ``view.viewer`` in the position its view shows.

    Args:
        view: the view of the seat to decide (``engine.ratjack.view(state, seat)``).
        level: ``"easy"`` or ``"hard"`` (:data:`LEVELS`).
        seed: fixes every random choice (same view, level, seed and iterations: same
            action).
        time_budget: hard level, seconds for this decision (default
            :data:`DEFAULT_BUDGET`): no determinization starts after it.
        iterations: hard level, the exact number of determinizations (the clock is then
            not read).
        clock: a monotonic clock in seconds (tests pass a fake one).

    Returns:
        One of ``view.legal``.

    Raises:
        ValueError: a spectator's view, a seat with nothing to decide, an unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"level is one of {', '.join(LEVELS)}, not {level!r}")
    if view.viewer is None or not view.legal:
        raise ValueError("the AI decides for a seat that has a decision to make")
    legal = list(view.legal)
    if len(legal) == 1:
        return legal[0]
    seat = view.viewer
    rng = random.Random(f"ratjack-ai:{seed}")
    if level == "easy":
        return easy_action(sample_state(view, rng), seat, rng)
    samples = iterations if iterations is not None else MAX_SAMPLES
    deadline = None if iterations is not None else clock() + (
        DEFAULT_BUDGET if time_budget is None else time_budget)
    totals = [0.0] * len(legal)
    for k in range(max(1, samples)):
        if k and deadline is not None and clock() >= deadline:
            break
        s = sample_state(view, rng)
        stream = rng.getrandbits(32)
        for i, a in enumerate(legal):
            totals[i] += play_out(apply(s, seat, a), seat, random.Random(stream))
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    return legal[best]
