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

#: Hard level: playouts per second of budget used as the work cap when ``iterations`` is None.
#: Calibrated on a shared 2-core server, where 160 playouts (the cap at the default 2 s) took
#: about 0.55 s for a typical decision and 1.6 s at worst: the cap, not the clock, ends the
#: search, so the default is deterministic in practice.
PLAYOUTS_PER_SECOND = 80
#: Hard level: share of ``time_budget`` after which no new batch of playouts starts, so that
#: the batch under way, and the choice, still end within the budget (a batch of rollouts
#: took up to 0.15 s on the loaded calibration machine).
DEADLINE_SHARE = 0.85
#: Hard level: beam width of the search over the side's own sequence of decisions.
BEAM_WIDTH = 6
#: Hard level: how many end positions of the beam search are compared by rollouts.
TOP_K = 6
#: Hard level: full rounds a rollout plays after the current one.
ROLLOUT_ROUNDS = 1
#: Hard level: chance that the modelled opponent picks any card of its hand. The likelihood
#: of the easy scientist's real picks is best near 0.02 (benchmarks/fit_pick_model.py), but
#: the hard raptor plays worse with less hedging: 43 and 48 wins at 0.05 against 50 and 50
#: (vs easy, 20 playouts, 100 games per set, even seeds from 1000 and 2000), and 43 against
#: 50 at 0.45 (seeds from 1000). Measured since, each against the shipped AI on seeds from
#: 1000 (45 wins): 0.1 in the real pick only, 40 (+4 -9 game by game); 0.1 in the lookahead
#: only, 45 (+1 -1); no share when the opponent's hand is known (its cards outside the
#: discard pile are just its hand), 36 against 39 of 92 (+0 -3). The share does not hedge
#: errors of the pair values: a raptor that knows the real card at its picks won 77, and 65
#: with this share mixed into it.
UNIFORM_MIX = 0.3
#: Hard level, by modelling side: how much the opponent pick model leans towards hands
#: holding the cards the easy heuristic likes least. The easy level plays the card it likes
#: most, so it keeps the others, round after round (R5.6: it draws back to 3); a hand's
#: weight is the product over its cards of ``exp(kappa * rank / (n - 1))``, rank 0 for the
#: card it likes most of the n it may hold. 0: all hands alike. kappa 2 is also the best fit
#: to the easy scientist's real picks (mean log-likelihood -1.305 against -1.496 for
#: kappa 0, both at mix 0.02; benchmarks/fit_pick_model.py). Measured (hard raptor vs
#: easy, 20 playouts, 100 games per seed set, even seeds from 1000, 2000, 5000): kappa 2
#: won 50, 50 (of 99) and 43 against 48, 43 and 37 with all hands alike (143 against 128,
#: +64 -49 game by game: within noise, p about 0.2, but ahead on every set). Official
#: benchmark (bench_ai.py, hard vs easy, 200 games, 0.5 s, seeds from 5000): 146 wins
#: (73.0 %, as raptor 46 of 100) against 138 (69.0 %, 38 of 100) before; at the default
#: 2 s, where no deadline cuts the raptor's lookahead short (at 0.5 s a few are, as the
#: machine's load has it), 143 (71.5 %, as raptor 43 of 100, as with 20 playouts); with a
#: coming observation counted by the evaluation (_Pos.of), 144 (72.0 %, 44 of 100).
HAND_STICKINESS: dict[Side, float] = {RAPTOR: 2.0}
#: Hard level: full rounds the card pick's playouts go on after the current one (1 was
#: worse as raptor vs easy at 0.25 s: 11/40 against 16/40, seeds 1040-1118 even; with 20
#: playouts, level: 45 against 42 of 96 games, +26 -23, and 20 against 27 of 46, +6 -13,
#: on even seeds from 1000 and 2000, for twice the time).
PICK_ROUNDS = 0
#: Hard level: sides whose own sequences (effects, AP, the mother's return) are valued by
#: playing the round out and valuing the next round's card pick as the hard pick does,
#: instead of by rollouts through the next round with the easy pick. On for the raptor:
#: hard raptor vs easy, 20 playouts, 100 games per seed set (even seeds from 1000, 2000,
#: 5000): 48, 39 and 34 wins against 36, 36 and 34 without it (121 against 106 of 300,
#: +67 -52 game by game: a gain within noise). The hard scientist already wins them all.
LOOKAHEAD: dict[Side, bool] = {RAPTOR: True}
#: Hard level: sides that value positions as a chance of winning, ``1 / (1 + exp(-(slope
#: * points + offset)))`` of their :func:`_score` points, rather than as points, so that an
#: average over the opponent's cards or over determinizations counts a lost game as one bad
#: outcome (0) among others, not as -10000 points that outweigh everything else. Fitted by
#: logistic regression of game outcomes on the score at each round's start, 200 games of
#: hard raptor vs easy, even seeds 3000-3398 (benchmarks/fit_win_chance.py). Measured
#: (hard raptor vs easy, 20 playouts, 100 games per seed set, even seeds from 1000, 2000,
#: 5000; an earlier fit on 150 of the 200 games, slope 0.00577, offset 1.894): 50, 41 and
#: 39 wins against 48, 39 and 34 with points (+21 -12 game by game); these constants: 48
#: and 43 against 48 and 39 on the first two sets (+15 -11). Never worse, but within noise.
WIN_CHANCE: dict[Side, tuple[float, float]] = {RAPTOR: (0.0065, 2.41)}
#: Hard level: sides whose card pick values each pair of cards (its own, the opponent's) by
#: that lookahead too (the round played out, then its best card of the next round against
#: the model), rather than by the position at the round's end. Measured, hard raptor vs
#: easy, 100 games per seed set: even seeds from 1000, 20 playouts, 67 wins against 45
#: without it (+30 -8 game by game; 74 when every pair is valued again); from 2000, 2 s, 68
#: (56 without, at 20 playouts). Official benchmark (bench_ai.py, 200 games, 2 s, seeds from
#: 5000): 153 wins (76.5 %, as raptor 53 of 100) against 144 (72.0 %, 44 of 100); hard
#: decisions median 91 ms, 95th percentile 583 ms, worst 1.56 s on a 2-core machine.
PICK_LOOKAHEAD: dict[Side, bool] = {RAPTOR: True}
#: Hard level: determinizations per proposal for that lookahead.
LOOKAHEAD_SAMPLES = 1
#: Hard level: opponent cards below this probability are left out of that lookahead.
LOOKAHEAD_MIN_PROB = 0.1
#: Hard level: propose whole escapes of babies in the raptor's AP phase.
ESCAPE_PLANS = True

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
#: Threat on a baby by the number of steps the nearest scientist needs to stand next to it
#: (Manhattan distance; a frightened scientist needs one more, to stand up).
DECAY = (1.0, 0.6, 0.4, 0.25, 0.15, 0.1, 0.05)
#: Hard level: the weights of its own side's evaluation and policy (the opponent is
#: modelled with :data:`W`, as the easy level plays).
HARD_STYLE: dict[Side, dict[str, float]] = {RAPTOR: W, SCIENTIST: W}
#: Lines of fire on the mother weigh more as her sleep tokens grow (index: tokens now).
SHOT_SCALE = (1.0, 1.2, 1.5, 2.0, 5.0)
#: Sleep tokens on the mother (R6.2: five lose), cumulative penalty for the raptor.
SLEEP_PENALTY = (0.0, 60.0, 130.0, 220.0, 340.0, WIN)
#: Path costs for a baby's distance to an exit (rocks and off-board squares are walls).
PATH_COST = {EMPTY: 1, BABY: 1, BABY_ASLEEP: 1, BABY_ASLEEP_NEW: 1, MOTHER: 1, FIRE: 3,
              SCIENTIST_FRIGHTENED: 4, SCIENTIST_FRIGHTENED_NEW: 4, SCIENTIST_ACTIVE: 5,
              SCIENTIST_USED: 5}

COST_EPSILON = 0.75  # points per AP spent: prefer the cheaper of two equal results
