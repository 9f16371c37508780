"""The AI opponent: chooses one decision from a player's :class:`engine.View`, honestly.

Public API::

    choose_action(view, *, level="easy", seed=0, time_budget=2.0, iterations=None) -> Action
    evaluate(view) -> float

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
"""

from __future__ import annotations

import itertools
import math
import random
import re
import time
from collections.abc import Callable, Sequence

import engine
from engine import (
    Action,
    CallBaby,
    Capture,
    End,
    Frighten,
    Gas,
    Heal,
    Jeep,
    Kill,
    MoveBaby,
    MoveMother,
    MoveScientist,
    Phase,
    Pick,
    PlaceBaby,
    PlaceFire,
    PlaceMother,
    PlaceScientist,
    PutOut,
    Reinforce,
    Shoot,
    Side,
    SleepBaby,
    Stand,
    View,
    Wake,
)
from engine.geometry import (
    BOARD_SQUARES,
    L_TILES,
    NEIGHBOURS,
    RAYS,
    TILE_NEIGHBOURS,
    TILE_OF,
    TILE_SQUARES,
)
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    EMPTY,
    EXIT,
    FIRE,
    FIRE_TOKENS,
    MOTHER,
    ROCK,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
)

__all__ = ["LEVELS", "choose_action", "evaluate"]

LEVELS = ("easy", "hard")
RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
CARDS = (1, 2, 3, 4, 5, 6, 7, 8, 9)

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

# The evaluation scans the board by code ranges: free/rock/fire < mother < active baby <
# sleeping babies < active scientists < frightened ones.
if not (max(EMPTY, ROCK, FIRE) < MOTHER < BABY < BABY_ASLEEP < BABY_ASLEEP_NEW
        < SCIENTIST_ACTIVE < SCIENTIST_USED < SCIENTIST_FRIGHTENED
        < SCIENTIST_FRIGHTENED_NEW):  # pragma: no cover - guards an engine renumbering
    raise ImportError("bot.ai expects the engine's cell codes in their documented order")

_SETUP = (Phase.SETUP_MOTHER, Phase.SETUP_BABIES, Phase.SETUP_SCIENTISTS)
_OWN_SEQUENCE = (Phase.EFFECT, Phase.AP, Phase.MOTHER_RETURN) + _SETUP

# ----------------------------------------------------------------------------- evaluation
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
                                # steps a scientist needs to get next to it (_DECAY)
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
_DECAY = (1.0, 0.6, 0.4, 0.25, 0.15, 0.1, 0.05)
#: Hard level: the weights of its own side's evaluation and policy (the opponent is
#: modelled with :data:`W`, as the easy level plays).
HARD_STYLE: dict[Side, dict[str, float]] = {RAPTOR: W, SCIENTIST: W}
#: Lines of fire on the mother weigh more as her sleep tokens grow (index: tokens now).
SHOT_SCALE = (1.0, 1.2, 1.5, 2.0, 5.0)
#: Sleep tokens on the mother (R6.2: five lose), cumulative penalty for the raptor.
SLEEP_PENALTY = (0.0, 60.0, 130.0, 220.0, 340.0, WIN)
#: Path costs for a baby's distance to an exit (rocks and off-board squares are walls).
_PATH_COST = {EMPTY: 1, BABY: 1, BABY_ASLEEP: 1, BABY_ASLEEP_NEW: 1, MOTHER: 1, FIRE: 3,
              SCIENTIST_FRIGHTENED: 4, SCIENTIST_FRIGHTENED_NEW: 4, SCIENTIST_ACTIVE: 5,
              SCIENTIST_USED: 5}
_STEP_COST = tuple(_PATH_COST.get(c, 0) for c in range(16))
_ACTIVE_SCI = (SCIENTIST_ACTIVE, SCIENTIST_USED)
_ANY_SCI = (SCIENTIST_ACTIVE, SCIENTIST_USED, SCIENTIST_FRIGHTENED, SCIENTIST_FRIGHTENED_NEW)
_ASLEEP = (BABY_ASLEEP, BABY_ASLEEP_NEW)
_SHOT_TRANSPARENT = frozenset({EMPTY, FIRE, BABY, BABY_ASLEEP, BABY_ASLEEP_NEW,
                               SCIENTIST_FRIGHTENED, SCIENTIST_FRIGHTENED_NEW})
_FAR = 30


class _Pos:
    """The public part of a position that the evaluation needs, cheap to copy and change.

    Built from a :class:`engine.View` or a determinized state (same attribute names).
    ``ap_side``/``ap_left`` are the action points still to be spent this round: those of
    the AP phase in progress, or during an effect those the higher card will bring (R5.5).
    """

    __slots__ = ("board", "sleep", "escaped", "captured", "reserve", "mother_off",
                 "observe_next", "exits", "setup", "winner", "ap_side", "ap_left",
                 "mother_moved")

    @classmethod
    def of(cls, src) -> _Pos:
        p = cls.__new__(cls)
        p.board = list(src.board)
        p.sleep = src.sleep_tokens
        p.escaped = src.escaped
        p.captured = src.captured
        p.reserve = src.reserve
        p.mother_off = src.mother_off
        # the coming round's observation (R5.2), from the round's start until its pick
        # ends: ``observe_next`` turns into ``observation`` when the round is over
        p.observe_next = src.observe_next or (src.observation and src.phase is Phase.PICK)
        p.exits = src.layout.exits
        p.setup = src.phase in _SETUP
        p.winner = src.winner
        p.ap_side, p.ap_left, p.mother_moved = None, 0, False
        if src.phase is Phase.AP and src.ap is not None:
            p.ap_side, p.ap_left, p.mother_moved = (src.ap.side, src.ap.remaining,
                                                    src.ap.mother_moved)
        elif src.phase is Phase.EFFECT and src.effect is not None and src.revealed:
            p.ap_side = src.effect.side.other
            p.ap_left = abs(src.revealed[0] - src.revealed[1])
        return p

    def copy(self) -> _Pos:
        p = _Pos.__new__(_Pos)
        p.board = self.board[:]
        p.sleep, p.escaped, p.captured, p.reserve = (self.sleep, self.escaped, self.captured,
                                                     self.reserve)
        p.mother_off, p.observe_next, p.exits, p.setup, p.winner = (
            self.mother_off, self.observe_next, self.exits, self.setup, self.winner)
        p.ap_side, p.ap_left, p.mother_moved = self.ap_side, self.ap_left, self.mother_moved
        return p


def _exit_distances(board: Sequence[int], exits: Sequence[int]) -> list[int]:
    """Cheapest path cost from every square to an exit for a baby (``_PATH_COST``; ``_FAR``
    when none), by Dial's algorithm. Memoized on the pattern of path costs, which moves of
    babies and of the mother, shots and sleeps leave unchanged."""
    key = (bytes(board).translate(_COST_CLASS), exits)
    hit = _DIST_CACHE.get(key)
    if hit is not None:
        return hit
    dist = [_FAR] * len(board)
    buckets: list[list[int]] = [[] for _ in range(_FAR)]
    for e in exits:
        dist[e] = 0
        buckets[0].append(e)
    step_cost = _STEP_COST
    for d in range(_FAR):
        for u in buckets[d]:
            if dist[u] != d:
                continue
            cu = board[u]
            nd = d + (1 if cu == EXIT else step_cost[cu])
            if nd >= _FAR:
                continue
            for v in NEIGHBOURS[u]:
                if nd < dist[v] and step_cost[board[v]]:
                    dist[v] = nd
                    buckets[nd].append(v)
    if len(_DIST_CACHE) > 4096:
        _DIST_CACHE.clear()
    _DIST_CACHE[key] = dist
    return dist


_DIST_CACHE: dict[tuple, list[int]] = {}
#: bytes.translate table: cell code -> its path cost (exits kept apart as 99).
_COST_CLASS = bytes((99 if c == EXIT else _STEP_COST[c]) if c < 16 else 0 for c in range(256))


def _shooters(board: Sequence[int], m: int) -> int:
    """Active scientists with a clear shot at the mother on ``m`` (R8.5)."""
    n = 0
    for ray in RAYS[m]:
        for t in ray:
            c = board[t]
            if c in _SHOT_TRANSPARENT:
                continue
            if c == SCIENTIST_ACTIVE or c == SCIENTIST_USED:
                n += 1
            break
    return n


def _mother_destinations(board: Sequence[int], m: int) -> list[int]:
    """Squares the mother reaches with one move (R7.2)."""
    out = []
    for ray in RAYS[m]:
        for t in ray:
            if board[t] != EMPTY:
                break
            out.append(t)
    return out


def _score(p: _Pos, w: dict[str, float] = W) -> float:
    """Static evaluation of ``p`` in points for the raptor (see :func:`evaluate`), with
    the weights ``w`` (:data:`W` by default)."""
    if p.winner is not None:
        return WIN if p.winner is RAPTOR else -WIN
    if p.escaped >= 3:
        return WIN
    if p.captured >= 3 or p.sleep >= 5:
        return -WIN
    b = p.board
    babies, asleep, active, frightened = [], [], [], []
    mother = None
    for found in _PIECES.finditer(bytes(b)):
        q = found.start()
        c = b[q]
        if c == BABY:
            babies.append(q)
        elif c == MOTHER:
            mother = q
        elif c < SCIENTIST_ACTIVE:
            asleep.append(q)
        elif c < SCIENTIST_FRIGHTENED:
            active.append(q)
        else:
            frightened.append(q)
    n_sci = len(active) + len(frightened)
    if not n_sci and not p.setup:
        return WIN
    s = (w["escaped"] * p.escaped - w["captured"] * p.captured
         - w["sleep_scale"] * SLEEP_PENALTY[p.sleep]
         - w["scientist"] * n_sci - w["reserve"] * p.reserve
         + w["frightened"] * len(frightened))
    if p.observe_next:
        s += w["observe_next"]
    if n_sci <= 3 and not p.setup:
        s += w["few"] * (4 - n_sci) ** 2
    # babies: distance to the nearest exit; only the (3 - escaped) best count fully;
    # threats from scientists that could reach them (during setup, from the free squares
    # of L-tiles still without a scientist, R4.2)
    if babies or asleep:
        dist = _exit_distances(b, p.exits)
        hunters = active
        if p.setup:
            hunters = list(active)
            for t in L_TILES:
                if not any(b[q] >= SCIENTIST_ACTIVE for q in TILE_SQUARES[t]):
                    hunters.extend(q for q in TILE_SQUARES[t] if b[q] == EMPTY)
        decay = _DECAY
        far = len(decay)
        near, step = w["baby_near"], w["baby_step"]
        values = []
        for q in babies:
            values.append(max(0.0, near - step * (dist[q] - 1)))
            steps = _reach_steps(q, hunters, frightened)
            if steps < far:
                s -= w["sleep_threat"] * decay[steps]
        for q in asleep:
            values.append(w["asleep_path"] * max(0.0, near - step * (dist[q] - 1)))
            s -= w["asleep"]
            steps = _reach_steps(q, hunters, frightened)
            if steps < far:
                s -= w["capture_threat"] * decay[steps]
            if mother is not None and mother in NEIGHBOURS[q]:
                s += w["guard"]
        values.sort(reverse=True)
        need = 3 - p.escaped
        s += sum(values[:need]) + w["spare_baby"] * sum(values[need:])
    # the mother: lines of fire, kill threats, reach
    if mother is not None:
        shooters = _shooters(b, mother)
        if shooters:
            s -= w["shot_line"] * SHOT_SCALE[p.sleep] * (1.0 + 0.5 * (shooters - 1))
        adjacent = [n for n in NEIGHBOURS[mother] if b[n] >= SCIENTIST_ACTIVE]
        s += w["kill_threat"] * len(adjacent)
        reach = set()
        for t in _mother_destinations(b, mother):
            for n in NEIGHBOURS[t]:
                if b[n] >= SCIENTIST_ACTIVE:
                    reach.add(n)
        s += w["kill_reach"] * len(reach.difference(adjacent))
        if n_sci:
            row = _MANHATTAN[mother]
            s -= w["mother_scientist"] * min(min(map(row.__getitem__, active), default=99),
                                             min(map(row.__getitem__, frightened), default=99))
    if p.ap_left > 0:
        s += _potential(p, mother, asleep, babies, w)
    return s


#: Squares holding a figurine (codes MOTHER..SCIENTIST_FRIGHTENED_NEW), found at C speed.
_PIECES = re.compile(b"[%c-%c]" % (MOTHER, SCIENTIST_FRIGHTENED_NEW))


def _reach_steps(q: int, active: list[int], frightened: list[int]) -> int:
    """Steps the nearest scientist needs to stand next to ``q`` (Manhattan distance; a
    frightened one needs one more, to stand up, R8.2); 99 when there is none."""
    row = _MANHATTAN[q]
    best = min(map(row.__getitem__, active), default=100) - 1
    if frightened:
        best = min(best, min(map(row.__getitem__, frightened)))
    return best


#: Manhattan distance between any two squares.
_MANHATTAN = tuple(tuple(abs(a // 13 - b // 13) + abs(a % 13 - b % 13) for b in range(78))
                   for a in range(78))


def _potential(p: _Pos, mother: int | None, asleep: list[int], babies: list[int],
               w: dict[str, float]) -> float:
    """What the action points still to be spent this round can surely cash in, in points
    for the raptor: kills and wakes next to the mother (R7.3, R7.4), or captures, shots
    and sleeps by active scientists (R8.3-R8.5)."""
    b = p.board
    r = p.ap_left
    if p.ap_side is RAPTOR:
        if mother is None:
            return 0.0
        kills = sum(1 for n in NEIGHBOURS[mother] if b[n] in _ANY_SCI)
        k = min(r, kills)
        wakes = sum(1 for n in NEIGHBOURS[mother] if b[n] == BABY_ASLEEP)
        return w["kill_now"] * k + w["wake_now"] * min(r - k, wakes)
    used: set[int] = set()
    gains = []
    for q in asleep:
        for n in NEIGHBOURS[q]:
            if b[n] == SCIENTIST_ACTIVE and n not in used:
                used.add(n)
                gains.append(w["capture_now"])
                break
    if mother is not None:
        for ray in RAYS[mother]:
            for t in ray:
                c = b[t]
                if c in _SHOT_TRANSPARENT:
                    continue
                if c == SCIENTIST_ACTIVE and t not in used:
                    used.add(t)
                    gains.append(w["shot_now"])
                break
    for q in babies:
        for n in NEIGHBOURS[q]:
            if b[n] == SCIENTIST_ACTIVE and n not in used:
                used.add(n)
                gains.append(w["sleep_now"])
                break
    gains.sort(reverse=True)
    return -sum(gains[:r])


def evaluate(v: View) -> float:
    """Static evaluation of the position in ``v`` in points for the raptor (positive: the
    raptor is ahead; the scientist's score is the negation). Uses public information only
    (R11.1): escaped/captured babies, sleep tokens, scientists on the board and in reserve,
    the babies' path lengths to the exits, sleeping babies, threats next to scientists,
    lines of fire on the mother and her kill threats. A won game is ``+-10000``.
    """
    return _score(_Pos.of(v))


# ----------------------------------------------------------------------------- light model
def _fire_group(b: list[int], start: int) -> list[int]:
    seen = {start}
    stack = [start]
    while stack:
        q = stack.pop()
        for n in NEIGHBOURS[q]:
            if b[n] == FIRE and n not in seen:
                seen.add(n)
                stack.append(n)
    return list(seen)


def _after(p: _Pos, a: Action, cost: int = 0) -> _Pos:
    """The position after ``a`` (a legal action costing ``cost`` AP), for evaluation only:
    the engine's :func:`engine.apply` stays the one source of truth for play."""
    q = p.copy()
    b = q.board
    t = type(a)
    if cost:
        q.ap_left -= cost
    if t is MoveMother:
        q.mother_moved = True
    if t is MoveBaby:
        b[a.frm] = EMPTY
        if b[a.to] == EXIT:
            q.escaped += 1
        else:
            b[a.to] = BABY
    elif t is MoveMother or t is MoveScientist or t is CallBaby:
        b[a.to] = b[a.frm]
        b[a.frm] = EMPTY
    elif t is Jeep:
        for ray in RAYS[a.frm]:
            if a.to in ray:
                for x in ray[: ray.index(a.to) + 1]:
                    if b[x] == FIRE:
                        b[x] = EMPTY
                break
        b[a.to] = b[a.frm]
        b[a.frm] = EMPTY
    elif t is Kill:
        b[a.at] = EMPTY
    elif t is Wake:
        b[a.at] = BABY
    elif t is PutOut:
        for x in _fire_group(b, a.at):
            b[x] = EMPTY
    elif t is Stand:
        b[a.at] = SCIENTIST_ACTIVE
    elif t is SleepBaby:
        b[a.at] = BABY_ASLEEP_NEW
        b[a.by] = SCIENTIST_USED
    elif t is Capture:
        b[a.at] = EMPTY
        b[a.by] = SCIENTIST_USED
        q.captured += 1
    elif t is Shoot:
        b[a.by] = SCIENTIST_USED
        q.sleep += 1
    elif t is Frighten:
        b[a.at] = SCIENTIST_FRIGHTENED_NEW
    elif t is Heal:
        q.sleep -= 1
    elif t is Gas:
        b[a.at] = BABY_ASLEEP_NEW
    elif t is Reinforce:
        b[a.to] = SCIENTIST_ACTIVE
        q.reserve -= 1
    elif t is PlaceFire:
        b[a.at] = FIRE
    elif t is PlaceMother:
        b[a.to] = MOTHER
        q.mother_off = False
    elif t is PlaceBaby:
        b[a.to] = BABY
    elif t is PlaceScientist:
        b[a.to] = SCIENTIST_ACTIVE
    return q


def _ap_cost(a: Action, state) -> int:
    t = type(a)
    if t is MoveScientist:
        return a.cost
    if t is MoveMother:
        return 1 if state.ap.mother_moved else 1 + state.sleep_tokens
    if t is End or state.phase is not Phase.AP:
        return 0
    return 1


_COST_EPSILON = 0.75  # points per AP spent: prefer the cheaper of two equal results


def _ranked(state, side: Side, legal: Sequence[Action],
            w: dict[str, float] = W) -> list[tuple[float, int, Action]]:
    """Every legal non-pick action scored one step ahead for ``side`` (best first)."""
    sign = 1.0 if side is RAPTOR else -1.0
    p = _Pos.of(state)
    out = []
    for i, a in enumerate(legal):
        cost = _ap_cost(a, state)
        q = _after(p, a, cost)
        if type(a) is End and state.phase is Phase.AP:
            q.ap_left = 0  # R5.5: unspent AP are lost
        val = sign * _score(q, w) - _COST_EPSILON * cost
        out.append((val, -i, a))
    out.sort(key=lambda x: (x[0], x[1]), reverse=True)
    return out


def _greedy(state, side: Side, legal: Sequence[Action], w: dict[str, float] = W) -> Action:
    """Easy policy for every decision but the card pick (weights ``w``)."""
    return _ranked(state, side, legal, w)[0][2]


# ----------------------------------------------------------------------------- card values
def _threats(b: Sequence[int]) -> tuple[int, int, int]:
    """(active babies next to an active scientist, sleeping babies next to one, targets of
    Sleeping Gas R10.1)."""
    sleep_t = capture_t = 0
    sci_tiles = set()
    for q in BOARD_SQUARES:
        if b[q] == SCIENTIST_ACTIVE or b[q] == SCIENTIST_USED:
            sci_tiles.add(TILE_OF[q])
            sci_tiles.update(TILE_NEIGHBOURS[TILE_OF[q]])
    gas = 0
    for q in BOARD_SQUARES:
        c = b[q]
        if c == BABY:
            if TILE_OF[q] in sci_tiles:
                gas += 1
            if any(b[n] == SCIENTIST_ACTIVE for n in NEIGHBOURS[q]):
                sleep_t += 1
        elif c == BABY_ASLEEP or c == BABY_ASLEEP_NEW:
            if any(b[n] == SCIENTIST_ACTIVE for n in NEIGHBOURS[q]):
                capture_t += 1
    return sleep_t, capture_t, gas


def _knapsack(items: list[tuple[int, float]], k: int, per_ap: float) -> float:
    """Greedy fill of ``k`` AP with ``(cost, gain)`` items, leftover AP at ``per_ap``."""
    total = 0.0
    for cost, gain in sorted(items, key=lambda x: x[1] / x[0], reverse=True):
        if cost <= k:
            total += gain
            k -= cost
    return total + per_ap * k


class _CardModel:
    """Rough values, for one side, of each card's effect and of k action points, from the
    public position (R5.4, R5.5, R9, R10). Used by the easy card pick."""

    def __init__(self, p: _Pos, w: dict[str, float] = W):
        b = p.board
        m = None if p.mother_off else (b.index(MOTHER) if MOTHER in b else None)
        sleep_t, capture_t, gas = _threats(b)
        shooters = _shooters(b, m) if m is not None else 0
        active_sci = sum(1 for q in BOARD_SQUARES if b[q] in _ACTIVE_SCI)
        frightened_old = sum(1 for q in BOARD_SQUARES if b[q] == SCIENTIST_FRIGHTENED)
        asleep = sum(1 for q in BOARD_SQUARES if b[q] in _ASLEEP)
        active_babies = [q for q in BOARD_SQUARES if b[q] == BABY]
        dist = _exit_distances(b, p.exits)
        # raptor AP items
        r_items: list[tuple[int, float]] = []
        if m is not None:
            for n in NEIGHBOURS[m]:
                if b[n] in _ANY_SCI:
                    r_items.append((1, w["scientist"] + 5))
                elif b[n] == BABY_ASLEEP:
                    r_items.append((1, 35.0))
            dests = _mother_destinations(b, m)
            if dests:
                move = 1 + p.sleep
                if shooters:
                    r_items.append((move, w["shot_line"] * shooters))
                best = 0
                for t in dests:
                    best = max(best, sum(1 for n in NEIGHBOURS[t] if b[n] in _ANY_SCI
                                         and n not in NEIGHBOURS[m]))
                if best:
                    r_items.append((move + best, (w["scientist"] + 5) * best))
        need = 3 - p.escaped
        for d in sorted(dist[q] for q in active_babies)[:need]:
            if d < _FAR:
                r_items.append((max(1, d), w["escaped"] if d <= 9 else 20.0))
        self.r_items = r_items
        # scientist AP items
        s_items: list[tuple[int, float]] = []
        s_items += [(1, w["captured"])] * capture_t
        s_items += [(1, 60.0)] * shooters
        s_items += [(1, 45.0)] * sleep_t
        s_items += [(1, 15.0)] * frightened_old
        # scientists that must first walk up to a baby (R8.1): steps + the action
        active = [q for q in BOARD_SQUARES if b[q] in _ACTIVE_SCI]
        if active:
            for q in BOARD_SQUARES:
                c = b[q]
                if c == BABY or c in _ASLEEP:
                    steps = min(map(_MANHATTAN[q].__getitem__, active)) - 1
                    if steps >= 1:
                        gain = w["captured"] - 20.0 if c != BABY else 40.0
                        s_items.append((steps + 1, gain))
        self.s_items = s_items
        threat = shooters + sleep_t + capture_t
        sleepy = p.sleep + asleep
        can_call = bool(active_babies) and m is not None
        self.effect = {
            RAPTOR: {1: 15.0 if can_call else 0.0,
                     2: 30.0 + 40.0 * shooters + 10.0 * p.sleep,
                     3: (20.0 + 30.0 * min(1, threat)) if active_sci else 0.0,
                     4: 25.0 if can_call else 0.0,
                     5: 45.0 * min(2, sleepy),
                     7: 45.0 * min(3, sleepy),
                     8: (30.0 + 30.0 * min(2, threat)) if active_sci else 0.0,
                     9: 0.0},
            SCIENTIST: {1: 50.0 * min(1, gas),
                        2: 50.0 * min(2, p.reserve),
                        3: 20.0 if active_sci else 0.0,
                        4: 50.0 * min(2, gas),
                        5: 15.0 if p.board.count(FIRE) < FIRE_TOKENS else 0.0,
                        7: 25.0 if p.board.count(FIRE) < FIRE_TOKENS else 0.0,
                        8: 35.0 if active_sci else 0.0,
                        9: 0.0},
        }
        self.effect[RAPTOR][6] = self.effect[RAPTOR][2]
        self.effect[SCIENTIST][6] = self.effect[SCIENTIST][2]
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


def _opponent_pool(v: View, me: Side) -> tuple[list[int], int | None]:
    """Cards the opponent may hold or have picked (all but its discard pile), and its pick
    when it is known (revealed, or shown under observation R5.2)."""
    opp = me.other
    known = None
    if v.picked[opp]:
        if v.revealed is not None:
            known = v.revealed[0 if opp is RAPTOR else 1]
        elif opp is SCIENTIST and v.shown_pick is not None:
            known = v.shown_pick
    pool = [c for c in CARDS if c not in v.discards[opp]]
    return pool, known


def _easy_pick(v: View, me: Side, hand: Sequence[int], w: dict[str, float] = W) -> int:
    """Easy card pick: expected value of each card of the hand against the opponent's
    possible picks (uniform), or against its shown pick (R5.2)."""
    model = _CardModel(_Pos.of(v), w)
    pool, known = _opponent_pool(v, me)
    if known is not None:
        return max(hand, key=lambda c: (model.outcome(me, c, known), -c))
    if v.observation and me is SCIENTIST:
        # the raptor sees our card before picking (R5.2): assume its best reply from a
        # random hand of its size
        size = max(1, min(v.hand_sizes[me.other], len(pool)))
        hands = list(itertools.combinations(pool, size))

        def worst(c: int) -> float:
            return sum(min(model.outcome(me, c, o) for o in h) for h in hands) / len(hands)

        return max(hand, key=lambda c: (worst(c), -c))
    return max(hand, key=lambda c: (sum(model.outcome(me, c, o) for o in pool), -c))


# ----------------------------------------------------------------------------- easy level
def _decide_easy(v: View, state, me: Side, legal: Sequence[Action]) -> Action:
    if state.phase is Phase.PICK:
        card = _easy_pick(v, me, [a.card for a in legal])
        return Pick(card)
    return _greedy(state, me, legal)


def _policy(state, side: Side, w: dict[str, float] = W) -> Action:
    """The easy policy (with weights ``w``) on a (determinized) state, used inside hard
    playouts: it reads only the public position and ``side``'s own cards, as the easy
    level does from a view."""
    legal = engine.legal_actions(state, side)
    if len(legal) == 1:
        return legal[0]
    if state.phase is Phase.PICK:
        return Pick(_easy_pick(engine.view(state, side), side, [a.card for a in legal], w))
    return _greedy(state, side, legal, w)


def _rollout(state, last_round: int, styles: dict[Side, dict[str, float]] | None = None):
    """Play the easy policy for both sides (weights ``styles[side]``, :data:`W` by
    default) until round ``last_round`` is over (or the game); in a simultaneous pick the
    raptor picks first, which changes nothing since neither sees the other's card (R5.1)."""
    s = state
    while s.phase is not Phase.OVER and s.round <= last_round:
        movers = engine.to_act(s)
        side = RAPTOR if RAPTOR in movers else SCIENTIST
        s = engine.apply(s, side, _policy(s, side, styles[side] if styles else W))
    return s


# ----------------------------------------------------------------------------- hard level
class _Clock:
    """Work cap (playouts) plus an optional wall-clock deadline."""

    def __init__(self, cap: int, deadline: float | None):
        self.cap = cap
        self.used = 0
        self.deadline = deadline

    def spend(self, k: int) -> bool:
        """True if a batch of ``k`` more playouts may run (and counts them). The first
        batch always runs."""
        if self.used:
            if self.used + k > self.cap:
                return False
            if self.deadline is not None and time.perf_counter() > self.deadline:
                return False
        self.used += k
        return True


def _value(state, me: Side, w: dict[str, float] = W) -> float:
    """Value of a (determinized) state for ``me``: :func:`_score` in points of ``w``, or
    for a side of ``WIN_CHANCE`` the chance of winning that the points predict (0.0 to
    1.0: a lost game about 0, a won one about 1)."""
    points = (1.0 if me is RAPTOR else -1.0) * _score(_Pos.of(state), w)
    chance = WIN_CHANCE.get(me)
    if chance is None:
        return points
    slope, offset = chance
    return 1.0 / (1.0 + math.exp(-(slope * points + offset)))


def _mine(state, me: Side, r0: int) -> bool:
    return (state.phase in _OWN_SEQUENCE and state.round == r0
            and engine.to_act(state) == frozenset((me,)))


def _beam(state, me: Side, width: int,
          w: dict[str, float] = W) -> list[tuple[float, Action, object]]:
    """Beam search over ``me``'s own decisions until control passes (or the phase
    sequence ends); returns end positions ``(score, first action, state)`` best first,
    the best one per first action."""
    r0 = state.round
    frontier: list[tuple[object, Action | None]] = [(state, None)]
    finals: dict[Action, tuple[float, Action, object]] = {}
    while frontier:
        cands: list[tuple[float, int, object, Action, Action]] = []
        order = 0
        for node, first in frontier:
            if not _mine(node, me, r0):
                val = _value(node, me, w)
                if first not in finals or finals[first][0] < val:
                    finals[first] = (val, first, node)
                continue
            for val, _neg, a in _ranked(node, me, engine.legal_actions(node, me), w):
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


def _escape_plans(state, w: dict[str, float]) -> list[tuple[float, Action, object]]:
    """Raptor AP phase: for each active baby that can reach an exit with the action points
    left (R7.1), the position after it walks there (then the beam's best use of any AP
    left), as ``(score, first action, state)`` proposals for the hard search. A beam over
    single steps misses these plans, since each step alone gains little."""
    out = []
    ap = state.ap.remaining
    for q in BOARD_SQUARES:
        if state.board[q] != BABY:
            continue
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
                rest = _beam(s, RAPTOR, BEAM_WIDTH, w)
                if rest:
                    s = rest[0][2]
            out.append((_value(s, RAPTOR, w), first, s))
    return out


def _decide_hard_sequence(state, me: Side, legal: Sequence[Action], rng: random.Random,
                          clock: _Clock, styles: dict[Side, dict[str, float]]) -> Action:
    """Hard level outside the pick: a beam search proposes the best sequences of own
    decisions; each proposal's end position is re-determinized from ``me``'s view of it
    and valued by the lookahead (``LOOKAHEAD``, :func:`_best_by_lookahead`) or played on
    by rollouts to the end of the next round; the first action of the best wins."""
    w = styles[me]
    finals = _beam(state, me, BEAM_WIDTH, w)[:max(1, min(TOP_K, clock.cap))]
    if ESCAPE_PLANS and me is RAPTOR and state.phase is Phase.AP:
        finals += _escape_plans(state, w)
    if not finals:
        return _greedy(state, me, legal, w)
    if len(finals) == 1:
        return finals[0][1]
    if LOOKAHEAD.get(me):
        finals.sort(key=lambda x: x[0], reverse=True)
        return _best_by_lookahead(finals, state.round, me, rng, clock, styles)
    last_round = max(state.round, 1) + ROLLOUT_ROUNDS
    views = [None if node.phase is Phase.OVER else engine.view(node, me)
             for _v, _f, node in finals]
    totals = [0.0] * len(finals)
    n = 0
    while clock.spend(len(finals)):
        sample_seed = rng.getrandbits(64)
        for i, (static, _first, _node) in enumerate(finals):
            if views[i] is None:
                totals[i] += static
                continue
            s = engine.sample_state(views[i], random.Random(sample_seed))
            totals[i] += _value(_rollout(s, last_round, styles), me, w)
        n += 1
    best = max(range(len(finals)), key=lambda i: (totals[i], finals[i][0], -i))
    return finals[best][1]


def _best_by_lookahead(finals: list[tuple[float, Action, object]], r0: int, me: Side,
                       rng: random.Random, clock: _Clock,
                       styles: dict[Side, dict[str, float]]) -> Action:
    """The first action of the proposal (``(static score, first action, end state)``
    from :func:`_beam`, best first, round ``r0``) whose end is worth most by
    :func:`_next_pick_value`, averaged over ``LOOKAHEAD_SAMPLES`` determinizations of
    ``me``'s view of it (the same ones for every proposal); a finished game keeps its
    static score. Proposals are valued in order; once the clock's deadline has passed
    (never with fixed ``iterations``), those left after the first two are not."""
    seeds = [rng.getrandbits(64) for _ in range(LOOKAHEAD_SAMPLES)]
    values: list[float] = []
    for static, _first, node in finals:
        if (len(values) >= 2 and clock.deadline is not None
                and time.perf_counter() > clock.deadline):
            break
        if node.phase is Phase.OVER:
            values.append(static)
            continue
        nv = engine.view(node, me)
        total = 0.0
        for seed in seeds:
            s = engine.sample_state(nv, random.Random(seed))
            total += _next_pick_value(s, me, r0, random.Random(seed + 1), styles)
        values.append(total / len(seeds))
    best = max(range(len(values)), key=lambda i: (values[i], finals[i][0], -i))
    return finals[best][1]


def _opponent_pick_model(v: View, me: Side) -> dict[int, float] | None:
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
    pool, known = _opponent_pool(v, me)
    if known is not None:
        return {known: 1.0}
    if v.observation and me is SCIENTIST:
        return None
    # the hand it picks (or picked) from: its hand now, plus a face-down pick
    size = max(1, min(v.hand_sizes[opp] + (1 if v.picked[opp] else 0), len(pool)))
    model = _CardModel(_Pos.of(v))
    mine = [c for c in CARDS if c not in v.discards[me]]
    merit = {c: (sum(model.outcome(opp, c, o) for o in mine), -c) for c in pool}
    hands = list(itertools.combinations(pool, size))
    # a hand's weight: the product of its cards' weights, exp(kappa * rank / (n - 1)) with
    # rank 0 for the card the opponent likes most and n - 1 for the one it likes least
    kappa = HAND_STICKINESS.get(me, 0.0)
    liked = sorted(pool, key=merit.__getitem__, reverse=True)
    card_weight = {c: math.exp(kappa * i / max(1, len(pool) - 1)) for i, c in enumerate(liked)}
    weights = [math.prod(card_weight[c] for c in h) for h in hands]
    total = sum(weights)
    probs = dict.fromkeys(pool, UNIFORM_MIX / len(pool))
    for h, weight in zip(hands, weights, strict=True):
        probs[max(h, key=merit.__getitem__)] += (1.0 - UNIFORM_MIX) * weight / total
    return probs


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
                 judge: Callable[[object, int], float]) -> dict[int, float]:
    """``{own card: judge(state after both picks, round)}`` on the determinization
    ``base`` (from :func:`_pair_base`) where the opponent picks ``theirs``; the picks are
    made in the order the rules ask (R5.1, R5.2)."""
    opp = me.other
    out = {}
    for mine in hand:
        s = engine.apply(base, me, Pick(mine))
        if s.phase is Phase.PICK and s.round == base.round and s.picks[opp] is None:
            s = engine.apply(s, opp, Pick(theirs))
        out[mine] = judge(s, base.round)
    return out


def _pair_bases(v: View, me: Side, support: Sequence[int], rng: random.Random) -> dict:
    """``{opponent card: determinization}`` for each card of ``support`` (in order, one
    draw of ``rng`` each) that a determinization where the opponent holds it was found
    for (:func:`_pair_base`)."""
    bases = {}
    for theirs in support:
        base = _pair_base(v, me, theirs, random.Random(rng.getrandbits(64)))
        if base is not None:
            bases[theirs] = base
    return bases


def _round_end_values(bases: dict, me: Side, hand: Sequence[int],
                      styles: dict[Side, dict[str, float]]) -> dict[tuple[int, int], float]:
    """``{(own card, opponent card): value}`` on the determinizations ``bases`` (from
    :func:`_pair_bases`): the round (and ``PICK_ROUNDS`` more) played out by the policies
    of ``styles`` and valued for ``me`` by :func:`_value` at its end."""
    w = styles[me]

    def judge(s, r0: int) -> float:
        return _value(_rollout(s, r0 + PICK_ROUNDS, styles), me, w)

    return {(mine, theirs): value for theirs, base in bases.items()
            for mine, value in _pair_column(base, me, hand, theirs, judge).items()}


def _pair_values(v: View, me: Side, hand: Sequence[int], support: Sequence[int],
                 rng: random.Random, styles: dict[Side, dict[str, float]]
                 ) -> dict[tuple[int, int], float]:
    """``{(own card, opponent card): value}`` for ``me`` (:func:`_value` with
    ``styles[me]``) of the pick of ``v``: for each opponent card of ``support``, a
    determinization where the opponent holds it; for each own card of ``hand`` the picks
    are made in the order the rules ask (the scientist first under observation, R5.2) and
    the round is played out by the policies of ``styles`` (R5.3-R5.5) and scored at its
    end. A card no determinization was found for has no entries."""
    return _round_end_values(_pair_bases(v, me, support, rng), me, hand, styles)


def _pick_table(v: View, me: Side, hand: Sequence[int], rng: random.Random,
                styles: dict[Side, dict[str, float]], min_prob: float = 0.0,
                clock: _Clock | None = None) -> dict[int, float]:
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
    all of one kind, so the comparison of our cards stays fair.

    Returns:
        ``{card: expected value}`` for every card of ``hand``, as :func:`_value` gives them
        (0.0 for a card no determinization could be found for)."""
    opp = me.other
    probs = _opponent_pick_model(v, me)
    pool, _known = _opponent_pool(v, me)
    support = sorted(probs) if probs is not None else pool
    if min_prob and probs is not None:
        support = [o for o in support if probs[o] >= min_prob]
    bases = _pair_bases(v, me, support, rng)
    values = _round_end_values(bases, me, hand, styles)
    if clock is not None and PICK_LOOKAHEAD.get(me):
        likeliest = sorted(bases, key=lambda o: (-probs[o], o)) if probs is not None else bases
        for theirs in likeliest:
            if not clock.spend(len(hand)):
                break
            seed = rng.getrandbits(64)

            def ahead(s, r0: int, seed: int = seed) -> float:
                return _next_pick_value(s, me, r0, random.Random(seed), styles)

            for mine, value in _pair_column(bases[theirs], me, hand, theirs, ahead).items():
                values[mine, theirs] = value
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


def _decide_hard_pick_matrix(v: View, me: Side, hand: Sequence[int], rng: random.Random,
                             styles: dict[Side, dict[str, float]],
                             clock: _Clock | None = None) -> int:
    """Hard card pick: the card of ``hand`` with the best value in :func:`_pick_table`
    (the lower card on a tie); ``clock`` bounds its lookahead (``PICK_LOOKAHEAD``)."""
    table = _pick_table(v, me, hand, rng, styles, clock=clock)
    return max(hand, key=lambda c: (table[c], -c))


def _next_pick_value(state, me: Side, r0: int, rng: random.Random,
                     styles: dict[Side, dict[str, float]]) -> float:
    """Value for ``me`` (:func:`_value`: points of ``styles[me]``, ``+-WIN`` for a finished
    game, or a chance of winning for a side of ``WIN_CHANCE``) of a determinized ``state``
    of round ``r0``: the round is played out by the policies of
    ``styles``, then the next round's pick is valued as the hard card pick values it
    (:func:`_pick_table`: our best card against the opponent's pick model, each pair
    played out to that round's end; opponent cards under ``LOOKAHEAD_MIN_PROB`` left
    out). Under observation (R5.2) the raptor answers each card the scientist may show
    with its best card."""
    w = styles[me]
    s = _rollout(state, r0, styles)
    if s.phase is not Phase.PICK:
        return _value(s, me, w)
    hand = sorted(s.hands[me])
    v = engine.view(s, me)
    opp = me.other
    if me is RAPTOR and s.observation and s.picks[opp] is None:
        probs = _opponent_pick_model(v, me)
        support = [o for o in sorted(probs) if probs[o] >= LOOKAHEAD_MIN_PROB]
        values = _pair_values(v, me, hand, support, rng, styles)
        shown = [o for o in support if (hand[0], o) in values]
        den = sum(probs[o] for o in shown)
        if not den:
            return _value(s, me, w)
        return sum(probs[o] * max(values[c, o] for c in hand) for o in shown) / den
    return max(_pick_table(v, me, hand, rng, styles, LOOKAHEAD_MIN_PROB).values())


# ----------------------------------------------------------------------------- entry point
def choose_action(view: View, *, level: str = "easy", seed: int = 0,
                  time_budget: float = 2.0, iterations: int | None = None) -> Action:
    """Choose the decision of ``view.viewer`` in the position shown by ``view``.

    Args:
        view: the view of the side to move (:func:`engine.view` with a side), never the
            state itself. Any decision: setup placements (R4), the card pick (R5.1, R5.2),
            effect units (R9, R10), AP actions including End (R7, R8) and the mother's
            return (R9.2).
        level: ``"easy"`` (a greedy heuristic, a few ms) or ``"hard"`` (a search).
        seed: fixes every random choice: the same view, seed, level and iterations give
            the same action.
        time_budget: hard level, seconds per decision: no new batch of playouts (nor,
            after the first two, a new proposal's lookahead) starts after
            ``DEADLINE_SHARE`` of it (soft: a slow batch may still overrun it).
            Ignored when ``iterations`` is given, and by the easy level.
        iterations: hard level, the exact work: the number of round playouts it may run
            (in the raptor's card pick, the lookahead of one pair of cards counts as one).
            None: ``max(1, round(time_budget * PLAYOUTS_PER_SECOND))`` playouts, stopping
            early if the budget runs out.

    Returns:
        One of ``engine.legal_actions`` for the viewer in every state consistent with the
        view (legality depends only on public information and the viewer's own cards).

    Raises:
        ValueError: ``view`` is public (no viewer), the viewer has nothing to decide, the
            level is unknown, or ``time_budget``/``iterations`` are not positive.
        TypeError: ``view`` is not an :class:`engine.View`.
    """
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
    started = time.perf_counter()
    rng = random.Random(f"raptor-ai:{level}:{int(seed)}")
    state = engine.sample_state(view, rng)
    legal = engine.legal_actions(state, me)
    if not legal:  # pragma: no cover - the engine offers a decision to every side to act
        raise ValueError(f"the {me.value} has no legal action in this view")
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        return _decide_easy(view, state, me, legal)
    if iterations is not None:
        clock = _Clock(iterations, None)
    else:
        cap = max(1, round(time_budget * PLAYOUTS_PER_SECOND))
        clock = _Clock(cap, started + DEADLINE_SHARE * time_budget)
    # own decisions with the hard style of our side; the opponent modelled as the easy level
    styles = {me: HARD_STYLE[me], me.other: W}
    if state.phase is Phase.PICK:
        hand = [a.card for a in legal]
        return Pick(_decide_hard_pick_matrix(view, me, hand, rng, styles, clock))
    return _decide_hard_sequence(state, me, legal, rng, clock, styles)
