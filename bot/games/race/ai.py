"""AI seats for Raptor Race: one decision from a seat's view, honestly, within a clock.

Public API::

    choose_action(view, *, level="easy", seed=0, time_budget=None, iterations=None,
                  clock=time.perf_counter) -> Action
    expected_score(board, raptors, winner, card) -> float

Honesty (RR9.2): the AI receives a :class:`engine.race.RaceView`, never a state. It knows
its own card and what is on the table; to list its legal actions and to look ahead within
its turn it builds a state with :func:`engine.race.sample_state` (the other seats' cards
drawn at random among the cards that are not its own, a fresh seed), which changes nothing
it reads: legality and the positions a turn can reach depend on no card, and its values
read its own card only. The dice to come are not in the view either: the AI weighs every
roll by its chance.

How it values a position (:func:`expected_score`): the points its card is expected to
score. A race that is over scores exactly (RR7.1, RR7.2). Otherwise the order of the
finish is modelled as a Plackett-Luce draw with weight ``exp(beta * row)`` per raptor, the
``beta`` read from :data:`BETA` by the leader's distance to the finish line (fitted to
finished races by ``benchmarks/fit_race_eval.py``; figures in ``benchmarks/RESULTS.md``),
and the card's points (engine.race.scoring) averaged over the 60 possible top threes.

Levels:

* ``easy``: a beginner. Sets aside the dice that move its card's raptors or a T-Rex, the
  rest with chance :data:`EASY_KEEP_ALL`; moves by a rule of thumb (its card's raptors
  forward, the others back) with chance :data:`EASY_SENSE`, else at random.
* ``medium``: one step ahead. Each step is the one whose position is valued best; each
  roll keeps the selection whose expected value is best if the dice rolled again were
  then all kept, the dice's effect judged by :func:`_dice_value`.
* ``hard``: its whole turn. Moves: an exact search of every sequence of steps to the end
  of the turn (engine.race.legal_actions and apply, positions met twice valued once), the
  end positions valued by :func:`expected_score`. Rolls: the exact expectimax of the
  rolling (every roll to come weighed by its chance, the best selection after each), the
  final dice judged by :func:`_dice_value`.

Clock and determinism: the same view, level, seed and ``iterations`` give the same action.
``iterations`` caps the hard search's positions (default :data:`DEFAULT_NODES`); with
``time_budget`` (seconds) and no ``iterations`` the cap is ``time_budget *``
:data:`NODES_PER_SECOND` and the search also stops when the clock passes the budget (a
position it has no budget left for is valued by its dice left, :func:`_dice_value`, as
the rolls are). The seed
breaks ties between equal values, and draws the easy level's choices.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, permutations

import engine.race as race
from engine.race import (
    CARDS,
    FOOTPRINT_FACES,
    Board,
    Face,
    Keep,
    Move,
    NoStep,
    Phase,
    RaceState,
    RaceView,
    Raptor,
)
from engine.race.predicates import forward_steps
from engine.race.scoring import best_score, placing, score_in_order
from engine.race.track import TRACKS, row_of

LEVELS = ("easy", "medium", "hard")

# --- tuning: one line each; why: benchmarks/RESULTS.md ("Raptor Race AI")
#: Plackett-Luce sharpness by the leader's distance to the line (1, 2, ...; the last entry
#: for every distance beyond), per board: fitted by benchmarks/fit_race_eval.py.
BETA: dict[Board, tuple[float, ...]] = {  # beta = c0 + c1 / d: 0.432 + 0.537 / d, 0.454 + 0.705 / d
    Board.DESERT: (0.97, 0.70, 0.61, 0.57, 0.54, 0.52, 0.51, 0.50, 0.49, 0.49, 0.48, 0.48,
                   0.47),
    Board.JUNGLE: (1.16, 0.81, 0.69, 0.63, 0.59, 0.57, 0.55, 0.54, 0.53, 0.52, 0.52, 0.51),
}
#: The easy level: the share of its moves made by its rule of thumb (the rest at random),
#: and its chance of keeping every die of a roll at once.
EASY_SENSE = 0.6
EASY_KEEP_ALL = 0.35
#: The hard search's cap on positions searched when nothing else is given, and the cap per
#: second of ``time_budget``.
DEFAULT_NODES = 6000
NODES_PER_SECOND = 20_000


# ----------------------------------------------------------------------------- values
_TRIPLES = tuple(permutations(range(5), 3))


@lru_cache(maxsize=32)
def _card_triples(card: int) -> tuple[tuple[int, int, int, int], ...]:
    """The top threes (raptor indices, first place first) in which ``card`` scores, with
    its points (RR7.1, from engine.race.scoring)."""
    out = []
    for i, j, k in _TRIPLES:
        rest = [r for r in range(5) if r not in (i, j, k)]
        order = [race.RAPTORS[n] for n in (i, j, k, *rest)]
        points = score_in_order(CARDS[card], order).total
        if points:
            out.append((i, j, k, points))
    return tuple(out)


def _beta(board: Board, leader_row: int) -> float:
    table = BETA[board]
    distance = TRACKS[board].rows - leader_row
    return table[min(max(distance, 1), len(table)) - 1]


def _row_value(board: Board, rows: Sequence[int], card: int) -> float:
    """The card's expected points when the raptors stand on ``rows`` and none has
    crossed (the Plackett-Luce model of the module docstring)."""
    beta = _beta(board, max(rows))
    top = max(rows)
    w = [math.exp(beta * (r - top)) for r in rows]
    total_w = sum(w)
    value = 0.0
    for i, j, k, points in _card_triples(card):
        wi, wj = w[i], w[j]
        value += points * wi * wj * w[k] / (total_w * (total_w - wi) * (total_w - wi - wj))
    return value


def expected_score(board: Board, raptors: Sequence[int], winner: Raptor | None,
                   card: int) -> float:
    """The points ``card`` is expected to score with the raptors on ``raptors`` (colour
    order): exact once a raptor has crossed (``winner``; RR7.1, RR7.2), else the model."""
    if winner is not None:
        return float(best_score(CARDS[card], placing(raptors, winner)).total)
    return _row_value(board, [row_of(sp) for sp in raptors], card)


def _value(state: RaceState, card: int) -> float:
    return expected_score(state.board, state.raptors, state.winner, card)


# ----------------------------------------------------------------------------- the dice
def _dice_value(state: RaceState, faces: Sequence[Face], card: int) -> float:
    """What a result of ``faces`` is worth from ``state``'s position, judged quickly: each
    colour die one row forward for its raptor when its forward step is straight ahead
    (RR5.3, engine.race.predicates), a booster it reaches one row for the raptor best for
    the card (RR5.6), each T-Rex one row back for the raptor that helps most (RR5.5); a
    raptor past the top row crossed (RR6.1). Lanes, arrows and the order of the dice are
    left out: this values rolls, the exact search values steps."""
    board, t = state.board, state.track
    rows = [row_of(sp) for sp in state.raptors]
    spaces = list(state.raptors)

    def forward(n: int) -> bool:
        ends = forward_steps(t, spaces, spaces[n], 0, 0)
        ahead = spaces[n] + 5
        if ahead not in ends:
            return False
        spaces[n] = ahead
        rows[n] += 1
        return rows[n] >= t.rows

    for face in faces:
        if face is Face.T:
            continue
        n = face.raptor.index
        if forward(n):
            return _crossed_value(state, rows, n, card)
        if spaces[n] in t.boosters:
            others = [m for m in range(5) if m != n and spaces[m] + 5 in forward_steps(
                t, spaces, spaces[m], 0, 0)]
            if others:
                m = max(others, key=lambda m: _row_value(
                    board, [r + (i == m) for i, r in enumerate(rows)], card))
                if forward(m):
                    return _crossed_value(state, rows, m, card)
    for _ in range(sum(1 for f in faces if f is Face.T)):
        back = [m for m in range(5) if rows[m] > 0 and spaces[m] - 5 not in spaces
                and spaces[m] - 5 not in t.obstacles]
        if not back:
            break
        m = max(back, key=lambda m: _row_value(board, [r - (i == m) for i, r in
                                                        enumerate(rows)], card))
        rows[m] -= 1
        spaces[m] -= 5
    return _row_value(board, rows, card)


def _crossed_value(state: RaceState, rows: list[int], n: int, card: int) -> float:
    raptors = tuple(r * 5 + (sp % 5) for r, sp in zip(rows, state.raptors, strict=True))
    return float(best_score(CARDS[card], placing(raptors, race.RAPTORS[n])).total)


@lru_cache(maxsize=8)
def _outcomes(n: int) -> tuple[tuple[tuple[Face, ...], float], ...]:
    """Every roll of ``n`` footprint dice as a sorted multiset, with its chance."""
    out = []
    for faces in combinations_with_replacement(FOOTPRINT_FACES, n):
        counts = Counter(faces)
        ways = math.factorial(n)
        for c in counts.values():
            ways //= math.factorial(c)
        out.append((race.components.sorted_faces(faces), ways / 6 ** n))
    return tuple(out)


def _selections(rolled: tuple[Face, ...]) -> tuple[tuple[Face, ...], ...]:
    return race.predicates.keep_choices(race.components.sorted_faces(rolled))


class _RollPlanner:
    """The expectimax of the rolling (RR4.2) from one position: the value of the dice set
    aside so far when the rest are rolled and the best selection is kept after each roll,
    the final dice valued by :func:`_dice_value`."""

    def __init__(self, state: RaceState, card: int) -> None:
        self.state, self.card = state, card
        self.final: dict[tuple[Face, ...], float] = {}
        self.memo: dict[tuple[Face, ...], float] = {}

    def result(self, kept: tuple[Face, ...]) -> float:
        key = race.components.sorted_faces(kept)
        if key not in self.final:
            self.final[key] = _dice_value(self.state, key, self.card)
        return self.final[key]

    def value(self, kept: tuple[Face, ...]) -> float:
        """The expected value with ``kept`` set aside and the others still to roll."""
        n = 4 - len(kept)
        if n == 0:
            return self.result(kept)
        key = race.components.sorted_faces(kept)
        if key not in self.memo:
            self.memo[key] = sum(p * max(self.value(key + k) for k in _selections(roll))
                                 for roll, p in _outcomes(n))
        return self.memo[key]

    def one_roll(self, kept: tuple[Face, ...]) -> float:
        """The expected value with ``kept`` set aside if every die rolled again is then
        kept (the medium level's one step ahead)."""
        n = 4 - len(kept)
        if n == 0:
            return self.result(kept)
        return sum(p * self.result(kept + roll) for roll, p in _outcomes(n))


# ----------------------------------------------------------------------------- the move
class _Budget:
    def __init__(self, nodes: int, deadline: float | None, clock: Callable[[], float]):
        self.nodes, self.deadline, self.clock = nodes, deadline, clock

    def spend(self) -> bool:
        """One position more; False once the cap or the deadline is reached."""
        self.nodes -= 1
        if self.nodes < 0:
            return False
        if self.deadline is not None and self.nodes % 64 == 0 and self.clock() > self.deadline:
            self.nodes = -1
            return False
        return True


class _TurnSearch:
    """Every sequence of steps to the end of the turn, each end position valued by
    :func:`expected_score`; positions reached twice are searched once."""

    def __init__(self, seat: int, card: int, budget: _Budget) -> None:
        self.seat, self.card, self.budget = seat, card, budget
        self.memo: dict[tuple, float] = {}

    def after(self, s: RaceState, a) -> tuple[RaceState, bool]:
        t = race.apply(s, self.seat, a)
        return t, t.is_over or t.turn != s.turn

    def value(self, s: RaceState) -> float:
        key = (tuple(sorted(s.used)), s.raptors, s.arrows_used, s.pending)
        if key in self.memo:
            return self.memo[key]
        if not self.budget.spend():
            return self.quick(s)
        best = -1.0
        for a in race.legal_actions(s, self.seat):
            t, done = self.after(s, a)
            best = max(best, _value(t, self.card) if done else self.value(t))
        self.memo[key] = best
        return best

    def quick(self, s: RaceState) -> float:
        """A position the search has no budget left for: its dice left judged quickly
        (:func:`_dice_value`; a pending booster's step is left out)."""
        return _dice_value(s, s.left, self.card)


# ----------------------------------------------------------------------------- levels
def _easy(state: RaceState, legal: list, card: int, rng: random.Random):
    mine = set(CARDS[card])
    if state.phase is Phase.ROLL:
        if rng.random() < EASY_KEEP_ALL:
            return legal[-1] if len(legal[-1].faces) == len(state.rolled) else legal[0]
        wanted = tuple(f for f in state.rolled if f is Face.T or f.raptor in mine)
        for a in legal:
            if a.faces == wanted and not a.arrows:
                return a
        return rng.choice(legal)
    if rng.random() >= EASY_SENSE:
        return rng.choice(legal)

    def sense(a) -> float:
        if isinstance(a, NoStep):
            return 0.0
        rank = CARDS[card].index(a.raptor) if a.raptor in mine else None
        forward = not (isinstance(a, Move) and a.die is Face.T)
        if forward:
            return 3.0 - rank if rank is not None else -1.0
        return 1.0 if rank is None else -3.0 + rank
    best = max(sense(a) for a in legal)
    return rng.choice([a for a in legal if sense(a) == best])


def _best(options: list[tuple[object, float]], rng: random.Random):
    top = max(v for _, v in options)
    ties = [a for a, v in options if v >= top - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def _roll_choice(state: RaceState, legal: list[Keep], card: int, rng: random.Random,
                 deep: bool):
    planner = _RollPlanner(state, card)
    score = planner.value if deep else planner.one_roll
    options = [(a, score(state.kept + a.faces)) for a in legal if not a.arrows]
    choice = _best(options, rng)
    return choice


def choose_action(view: RaceView, *, level: str = "easy", seed: int = 0,
                  time_budget: float | None = None, iterations: int | None = None,
                  clock: Callable[[], float] = time.perf_counter):
    """Choose the decision of ``view.viewer`` in the position ``view`` shows.

    Args:
        view: the seat's own view (:func:`engine.race.view` with a seat), never the state.
        level: ``"easy"``, ``"medium"`` or ``"hard"`` (:data:`LEVELS`).
        seed: draws the easy level's choices and breaks ties: the same view, level, seed
            and ``iterations`` give the same action.
        time_budget: seconds for this decision (the hard level's search stops when it has
            passed); None: no clock.
        iterations: the hard search's cap on positions; None: from ``time_budget``, else
            :data:`DEFAULT_NODES`.
        clock: a monotonic clock in seconds, read only with ``time_budget`` and no
            ``iterations`` (a test may pass a fake one).

    Returns:
        One of the viewer's legal actions (the same in every state consistent with the
        view).

    Raises:
        ValueError: a public view, a seat with nothing to decide, an unknown level, or a
            budget that is not positive.
        TypeError: ``view`` is not a :class:`engine.race.RaceView`.
    """
    started = clock() if time_budget is not None and iterations is None else 0.0
    if not isinstance(view, RaceView):
        raise TypeError(f"choose_action needs a RaceView, got {type(view).__name__}")
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    if view.viewer is None:
        raise ValueError("choose_action needs a seat's view, not the public one")
    if view.viewer not in view.to_act:
        raise ValueError(f"seat {view.viewer} has nothing to decide now")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if time_budget is not None and not time_budget > 0:
        raise ValueError(f"time_budget must be positive, got {time_budget}")
    rng = random.Random(f"race-ai:{level}:{int(seed)}")
    state = race.sample_state(view, rng)
    seat, card = view.viewer, view.my_card
    legal = race.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        return _easy(state, legal, card, rng)
    if state.phase is Phase.ROLL:
        return _roll_choice(state, legal, card, rng, deep=level == "hard")
    if level == "medium":
        search = _TurnSearch(seat, card, _Budget(0, None, clock))
        options = []
        for a in legal:
            t, done = search.after(state, a)
            options.append((a, _value(t, card)))
        return _best(options, rng)
    if iterations is not None:
        nodes, deadline = iterations, None
    elif time_budget is not None:
        nodes, deadline = max(1, int(time_budget * NODES_PER_SECOND)), started + time_budget
    else:
        nodes, deadline = DEFAULT_NODES, None
    search = _TurnSearch(seat, card, _Budget(nodes, deadline, clock))
    options = []
    for a in legal:
        t, done = search.after(state, a)
        options.append((a, _value(t, card) if done else search.value(t)))
    return _best(options, rng)


__all__ = ["BETA", "LEVELS", "choose_action", "expected_score"]
