"""The AI's tuning parameters: search sizes, the opponent pick model's constants and the
evaluation's weights, each with a one-line meaning.

Code that a benchmark may override at run time (``benchmarks/bench_ai_ablation.py --set``,
``benchmarks/fit_pick_model.py``) reads these as ``params.NAME`` when it runs.
"""

from __future__ import annotations

from engine import Side
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    EMPTY,
    FIRE,
    MOTHER,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
)

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST

# Why each value: benchmarks/RESULTS.md, "The AI's tuning", with the runs that measured it.

# ----------------------------------------------------------------------------- hard search
#: Playouts per second of ``time_budget``: the work cap when ``iterations`` is None. The
#: cap must end the search well before the clock: at it a decision costs no more CPU than
#: 160 playouts did before the search was made faster (``calibrate_playouts.py``).
PLAYOUTS_PER_SECOND = 240
#: Share of ``time_budget`` after which no new batch of playouts (or lookahead) starts.
DEADLINE_SHARE = 0.85
#: Share of ``time_budget`` after which the search stops wherever it is and answers with
#: its best decision so far (the easy level's if none): the rest is the margin to answer.
DEADLINE_HARD_SHARE = 0.95
#: Seconds kept at least between the hard deadline and the end of the budget: on a
#: loaded machine the process may wait this long for a core between two clock reads
#: (benchmarks/bench_clock.py, a CPU hog on both cores: gaps up to about 40 ms).
DEADLINE_MARGIN = 0.04
#: By side, the beam width of the hard search over the side's own sequence of decisions.
BEAM_WIDTH: dict[Side, int] = {RAPTOR: 12, SCIENTIST: 6}
#: By side, end positions of the hard search's beam compared by rollouts or the lookahead.
TOP_K: dict[Side, int] = {RAPTOR: 12, SCIENTIST: 6}
#: Full rounds a rollout plays after the current one.
ROLLOUT_ROUNDS = 1
#: Full rounds the card pick's playouts go on after the current one.
PICK_ROUNDS = 0
#: Propose whole escapes of babies in the raptor's AP phase.
ESCAPE_PLANS = True
#: Sides whose own sequences are valued by the lookahead (the round played out, then the
#: next round's card pick valued as the hard pick does) instead of by rollouts.
LOOKAHEAD: dict[Side, bool] = {RAPTOR: True}
#: Sides whose card pick values each pair of cards by that lookahead, not at the round's end.
PICK_LOOKAHEAD: dict[Side, bool] = {RAPTOR: True}
#: Determinizations per proposal for the lookahead.
LOOKAHEAD_SAMPLES = 1
#: Opponent cards below this probability are left out of the lookahead's next pick.
LOOKAHEAD_MIN_PROB = 0.1
#: Sides that value positions as a chance of winning, ``1 / (1 + exp(-(slope * points +
#: offset)))`` of their score, ``(slope, offset)``; the others value them in points.
WIN_CHANCE: dict[Side, tuple[float, float]] = {RAPTOR: (0.0065, 2.41)}

# ----------------------------------------------------------------------------- medium level
#: Medium level: the hard search with this share of its work (playouts, fixed
#: ``iterations``) and of its time budget (so it also answers sooner).
MEDIUM_WORK_SHARE = 0.25
#: Medium level: beam width of its search over the side's own sequence of decisions.
MEDIUM_BEAM_WIDTH = 2
#: Medium level: end positions of its beam search compared by rollouts or the lookahead.
MEDIUM_TOP_K = 2

# ----------------------------------------------------------------------------- pick model
#: Chance that the modelled opponent picks any card it may hold, uniformly.
UNIFORM_MIX = 0.3
#: By modelling side: kappa, how much the model leans towards opponent hands keeping the
#: cards the easy heuristic likes least (a hand weighs ``exp(kappa * rank / (n - 1))`` per
#: card, rank 0 for the card it likes most of the n it may hold; 0: all hands alike).
HAND_STICKINESS: dict[Side, float] = {RAPTOR: 2.0}

# ----------------------------------------------------------------------------- evaluation
#: Points of a won game (the score of a lost one is its negation).
WIN = 10_000.0

#: Evaluation weights, in points for the raptor (the scientist's score is the negation).
W = {
    "escaped": 150.0,           # per escaped baby (R6.1)
    "captured": 150.0,          # per captured baby (R6.2)
    "scientist": 70.0,          # per scientist on the board (R6.1: none left wins)
    "reserve": 12.0,            # per scientist in the reserve (reinforcements, R10.2)
    "few": 0.0,                 # times (4 - n)^2 when only n <= 3 scientists are left
    "baby_near": 60.0,          # an active baby next to an exit is worth this much ...
    "baby_step": 7.0,           # ... minus this per step of its path to the nearest exit
    "asleep": 30.0,             # a sleeping baby (cannot move; can be captured)
    "sleep_threat": 28.0,       # an active baby next to an active scientist (R8.3) ...
    "capture_threat": 50.0,     # a sleeping baby next to one (R8.4); both fade with the
                                # steps a scientist needs to get next to it (DECAY)
    "guard": 12.0,              # a sleeping baby next to the mother (R7.4)
    "shot_line": 28.0,          # an active scientist with a clear shot at the mother (R8.5)
    "kill_threat": 30.0,        # a scientist next to the mother (R7.3)
    "kill_reach": 8.0,          # a scientist next to a square the mother reaches in 1 move
    "frightened": 10.0,         # a frightened scientist (needs an AP to stand, R8.2)
    "mother_scientist": 2.0,    # per step between the mother and the nearest scientist
    "observe_next": 15.0,       # R5.2 next round favours the raptor
    "sleep_scale": 1.0,         # times SLEEP_PENALTY
    "asleep_path": 0.4,         # a sleeping baby's path value, as a share of an active one's
    "spare_baby": 0.3,          # path value of babies beyond the (3 - escaped) best, a share
    # action points still to be spent this round (see _potential): each is about half the
    # net gain of the action itself (its value minus the threat already counted above), so
    # that cashing it in always scores better than keeping it
    "kill_now": 20.0,           # a scientist next to the mother, AP left
    "wake_now": 15.0,           # a sleeping baby next to the mother, AP left
    "capture_now": 35.0,        # a sleeping baby next to an unused scientist, AP left
    "shot_now": 30.0,           # an unused scientist with a clear shot, AP left
    "sleep_now": 35.0,          # an active baby next to an unused scientist, AP left
}
#: Threat on a baby by the steps the nearest scientist needs to stand next to it.
DECAY = (1.0, 0.6, 0.4, 0.25, 0.15, 0.1, 0.05)
#: Hard level: the weights of its own side's evaluation (the opponent is modelled with W).
HARD_STYLE: dict[Side, dict[str, float]] = {RAPTOR: W, SCIENTIST: W}
#: Weight of the lines of fire on the mother by her sleep tokens now.
SHOT_SCALE = (1.0, 1.2, 1.5, 2.0, 5.0)
#: Penalty for the raptor by the mother's sleep tokens (R6.2: five lose).
SLEEP_PENALTY = (0.0, 60.0, 130.0, 220.0, 340.0, WIN)
#: Cost of a step onto each kind of square for a baby's path to an exit (others: walls).
PATH_COST = {EMPTY: 1, BABY: 1, BABY_ASLEEP: 1, BABY_ASLEEP_NEW: 1, MOTHER: 1, FIRE: 3,
              SCIENTIST_FRIGHTENED: 4, SCIENTIST_FRIGHTENED_NEW: 4, SCIENTIST_ACTIVE: 5,
              SCIENTIST_USED: 5}

#: Points per AP spent: the easy policy prefers the cheaper of two equal results.
COST_EPSILON = 0.75
