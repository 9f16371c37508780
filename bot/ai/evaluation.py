"""Static evaluation of a position from public information (R11.1), in points for the
raptor: :func:`evaluate` on a view, :func:`score` on the AI's light position
:class:`Position`."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence

from bot.ai.params import DECAY, PATH_COST, SHOT_SCALE, SLEEP_PENALTY, WIN, W
from engine import Phase, Side, View
from engine.geometry import NEIGHBOURS, RAYS, TILE_SQUARES
from engine.predicates import (
    BABIES_TO_WIN,
    ap_total,
    clear_shot,
    mother_runs,
    scientist_setup_tiles,
    victory,
)
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    EMPTY,
    EXIT,
    FIRE,
    MOTHER,
    ROCK,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
    SETUP_PHASES,
)

RAPTOR = Side.RAPTOR

# The evaluation scans the board by code ranges: free/rock/fire < mother < active baby <
# sleeping babies < active scientists < frightened ones.
if not (max(EMPTY, ROCK, FIRE) < MOTHER < BABY < BABY_ASLEEP < BABY_ASLEEP_NEW
        < SCIENTIST_ACTIVE < SCIENTIST_USED < SCIENTIST_FRIGHTENED
        < SCIENTIST_FRIGHTENED_NEW):  # pragma: no cover - guards an engine renumbering
    raise ImportError("bot.ai expects the engine's cell codes in their documented order")


_STEP_COST = tuple(PATH_COST.get(c, 0) for c in range(16))
ACTIVE_SCI = (SCIENTIST_ACTIVE, SCIENTIST_USED)
ANY_SCI = (SCIENTIST_ACTIVE, SCIENTIST_USED, SCIENTIST_FRIGHTENED, SCIENTIST_FRIGHTENED_NEW)
ASLEEP = (BABY_ASLEEP, BABY_ASLEEP_NEW)
FAR = 30


class Position:
    """The public part of a position that the evaluation needs, cheap to copy and change.

    Built from a :class:`engine.View` or a determinized state (same attribute names).
    ``ap_side``/``ap_left`` are the action points still to be spent this round: those of
    the AP phase in progress, or during an effect those the higher card will bring (R5.5).
    ``winner``: the side that has won (R6, :func:`engine.predicates.victory`), or None.
    """

    __slots__ = ("board", "sleep_tokens", "escaped", "captured", "reserve", "mother_off",
                 "observe_next", "exits", "setup", "winner", "ap_side", "ap_left",
                 "mother_moved")

    @classmethod
    def of(cls, src) -> Position:
        p = cls.__new__(cls)
        p.board = list(src.board)
        p.sleep_tokens = src.sleep_tokens
        p.escaped = src.escaped
        p.captured = src.captured
        p.reserve = src.reserve
        p.mother_off = src.mother_off
        # the coming round's observation (R5.2), from the round's start until its pick
        # ends: ``observe_next`` turns into ``observation`` when the round is over
        p.observe_next = src.observe_next or (src.observation and src.phase is Phase.PICK)
        p.exits = src.layout.exits
        p.setup = src.phase in SETUP_PHASES
        p.winner = src.winner
        if p.winner is None and not p.setup:  # a position set up by hand may be won (R6)
            won = victory(src)
            if won is not None:
                p.winner = won[0]
        p.ap_side, p.ap_left, p.mother_moved = None, 0, False
        if src.phase is Phase.AP and src.ap is not None:
            p.ap_side, p.ap_left, p.mother_moved = (src.ap.side, src.ap.remaining,
                                                    src.ap.mother_moved)
        elif src.phase is Phase.EFFECT and src.effect is not None and src.revealed:
            p.ap_side = src.effect.side.other
            p.ap_left = ap_total(src.revealed)
        return p

    def copy(self) -> Position:
        p = Position.__new__(Position)
        p.board = self.board[:]
        p.sleep_tokens, p.escaped, p.captured, p.reserve = (
            self.sleep_tokens, self.escaped, self.captured, self.reserve)
        p.mother_off, p.observe_next, p.exits, p.setup, p.winner = (
            self.mother_off, self.observe_next, self.exits, self.setup, self.winner)
        p.ap_side, p.ap_left, p.mother_moved = self.ap_side, self.ap_left, self.mother_moved
        return p


def exit_distances(board: Sequence[int], exits: Sequence[int]) -> bytes:
    """Cheapest path cost from every square to an exit for a baby (``PATH_COST``; ``FAR``
    when none), by Dial's algorithm, one byte per square (index ``row*13+col``).
    Memoized on the pattern of path costs, which moves of babies and of the mother, shots
    and sleeps leave unchanged (the last ``DIST_MEMO_SIZE`` patterns or more)."""
    costs = bytes(board).translate(_COST_CLASS)
    key = (costs, exits)
    hit = _DIST_CACHE.get(key)
    if hit is not None:
        return hit
    dist = [FAR] * len(costs)
    buckets: list[list[int]] = [[] for _ in range(FAR)]
    for e in exits:
        dist[e] = 0
        buckets[0].append(e)
    for d in range(FAR):
        for u in buckets[d]:
            if dist[u] != d:
                continue
            cu = costs[u]
            nd = d + (1 if cu == _EXIT_COST else cu)
            if nd >= FAR:
                continue
            for v in NEIGHBOURS[u]:
                if nd < dist[v] and costs[v] and costs[v] != _EXIT_COST:
                    dist[v] = nd
                    buckets[nd].append(v)
    return remember(_DIST_CACHE, key, bytes(dist), DIST_MEMO_SIZE)


#: Cost patterns whose distances :func:`exit_distances` keeps.
DIST_MEMO_SIZE = 32_768
_DIST_CACHE: dict[tuple, bytes] = {}
_EXIT_COST = 99
#: bytes.translate table: cell code -> its path cost (exits kept apart as _EXIT_COST).
_COST_CLASS = bytes((_EXIT_COST if c == EXIT else _STEP_COST[c]) if c < 16 else 0
                    for c in range(256))


def clear_shots(board: Sequence[int], m: int, scientists: Sequence[int]) -> list[int]:
    """The squares of ``scientists`` (active ones, used this round or not) with a clear
    shot at the mother on ``m`` (R8.5, :func:`engine.predicates.clear_shot`), in order."""
    in_line = _IN_LINE[m]  # only these can shoot: most scientists are skipped at once
    return [q for q in scientists if q in in_line and clear_shot(board, q, m)]


#: The squares in a straight orthogonal line from each square (R2.4).
_IN_LINE = tuple(frozenset(t for ray in RAYS[q] for t in ray) for q in range(len(RAYS)))


def score(p: Position, w: dict[str, float] = W) -> float:
    """Static evaluation of ``p`` in points for the raptor (see :func:`evaluate`), with
    the weights ``w`` (:data:`W` by default; a weights dict must not be changed in place
    once used: the part of the score that does not depend on the action points left is
    memoized on the rest of the position and the weights' identity: the last
    ``SCORE_MEMO_SIZE`` positions or more)."""
    if p.winner is not None:  # R6: see Position.of and model.after
        return WIN if p.winner is RAPTOR else -WIN
    cells = bytes(p.board)
    i = id(w)
    if _WEIGHTS.get(i) is not w:  # weights_id(w), inline: score() is the AI's hot path
        _WEIGHTS[i] = w
    key = (cells, p.escaped, p.captured, p.sleep_tokens, p.reserve, p.observe_next, p.setup,
           p.exits, i)
    part = _SCORE_MEMO.get(key)
    if part is None:
        part = remember(_SCORE_MEMO, key, _board_part(p, cells, w), SCORE_MEMO_SIZE)
    if p.ap_left > 0:
        s, mother, asleep, babies, shots = part
        return s + _potential(p, mother, asleep, babies, shots, w)
    return part[0]


#: Positions whose score without the action points left :func:`score` keeps (about
#: 0.6 kB each).
SCORE_MEMO_SIZE = 32_768
_SCORE_MEMO: dict[tuple, tuple] = {}
#: The weights dicts met by the memos of the AI, by id, kept alive so that an id is never
#: reused by another dict.
_WEIGHTS: dict[int, dict[str, float]] = {}


def remember(memo: dict, key, value, size: int):
    """Store ``value`` under ``key`` in ``memo`` and return it; a memo holding ``size``
    entries first forgets its older half (a dict keeps the order of insertion).

    Safe while other threads read and fill ``memo`` (the bot runs searches in parallel
    threads, and they share the memos): each dict operation is one step under the GIL; one
    thread at a time forgets (:data:`_FORGETTING`, taken only when the memo is full, so the
    hot path takes no lock); the list of the older keys is read again when another thread
    stored a key while it was read (a garbage collection during that read can let another
    thread run), and a key that is gone already is skipped, so forgetting never raises."""
    if len(memo) >= size:
        with _FORGETTING:
            if len(memo) >= size:  # not just forgotten by another thread
                for old in _oldest(memo, size // 2):
                    memo.pop(old, None)
    memo[key] = value
    return value


def _oldest(memo: dict, n: int) -> list:
    """The ``n`` keys stored first in ``memo``, read again until no other thread stored one
    meanwhile (which makes the read raise RuntimeError)."""
    while True:
        try:
            return list(itertools.islice(memo, n))
        except RuntimeError:  # "dictionary changed size during iteration"
            continue


#: Taken by :func:`remember` while it forgets the older half of a full memo.
_FORGETTING = threading.Lock()


def weights_id(w: dict[str, float]) -> int:
    """The identity of the weights ``w`` for a memo's key (the dict is kept alive)."""
    i = id(w)
    if _WEIGHTS.get(i) is not w:
        _WEIGHTS[i] = w
    return i


def _board_part(p: Position, cells: bytes, w: dict[str, float]) -> tuple:
    """``(points, mother, sleeping babies, active babies, shots)`` of :func:`score`: the
    points of everything but the action points left, then what :func:`_potential` needs
    (shared by the memo: never to be changed)."""
    b = p.board
    # the figurines by kind, each in square order (see _KIND)
    kinds = cells.translate(_KIND)
    find = kinds.find
    babies, asleep, active, frightened = [], [], [], []
    for kind, found in ((1, babies), (2, asleep), (3, active), (4, frightened)):
        q = find(kind)
        while q >= 0:
            found.append(q)
            q = find(kind, q + 1)
    mother = find(5)
    if mother < 0:
        mother = None
    n_sci = len(active) + len(frightened)
    s = (w["escaped"] * p.escaped - w["captured"] * p.captured
         - w["sleep_scale"] * SLEEP_PENALTY[p.sleep_tokens]
         - w["scientist"] * n_sci - w["reserve"] * p.reserve
         + w["frightened"] * len(frightened))
    if p.observe_next:
        s += w["observe_next"]
    if n_sci <= 3 and not p.setup:
        s += w["few"] * (4 - n_sci) ** 2
    # babies: distance to the nearest exit; only the (3 - escaped) best count fully;
    # threats from scientists that could reach them (during setup, from the free squares
    # of L-tiles still without a scientist, R4.2): the steps the nearest scientist needs
    # to stand next to a baby, its Manhattan distance - 1 (a frightened one needs one
    # more, to stand up, R8.2), 99 when there is none
    if babies or asleep:
        dist = exit_distances(cells, p.exits)
        hunters = active
        if p.setup:
            hunters = list(active)
            for t in scientist_setup_tiles(b):
                hunters.extend(q for q in TILE_SQUARES[t] if b[q] == EMPTY)
        decay = DECAY
        far = len(decay)
        near, step = w["baby_near"], w["baby_step"]
        values = []
        if babies:
            threat = w["sleep_threat"]
            for q in babies:
                v = near - step * (dist[q] - 1)
                values.append(v if v > 0.0 else 0.0)
                steps = _reach_steps(q, hunters, frightened)
                if steps < far:
                    s -= threat * decay[steps]
        if asleep:
            path, each, threat = w["asleep_path"], w["asleep"], w["capture_threat"]
            guarded = NEIGHBOURS[mother] if mother is not None else ()
            for q in asleep:
                v = near - step * (dist[q] - 1)
                values.append(path * (v if v > 0.0 else 0.0))
                s -= each
                steps = _reach_steps(q, hunters, frightened)
                if steps < far:
                    s -= threat * decay[steps]
                if q in guarded:
                    s += w["guard"]
        values.sort(reverse=True)
        need = BABIES_TO_WIN - p.escaped
        s += sum(values[:need]) + w["spare_baby"] * sum(values[need:])
    # the mother: lines of fire, kill threats (scientists next to her), reach (those next
    # to a square she reaches in one move, and not next to her), the nearest scientist
    shots = []
    if mother is not None:
        in_line = _IN_LINE[mother]  # clear_shots(b, mother, active), inline
        shots = [q for q in active if q in in_line and clear_shot(b, q, mother)]
        shooters = len(shots)
        if shooters:
            s -= w["shot_line"] * SHOT_SCALE[p.sleep_tokens] * (1.0 + 0.5 * (shooters - 1))
        adjacent = reach = 0
        if n_sci:
            around = NEIGHBOURS[mother]
            runs = frozenset(mother_runs(b, mother))
            for n in itertools.chain(active, frightened):
                if n in around:
                    adjacent += 1
                elif not runs.isdisjoint(NEIGHBOURS[n]):
                    reach += 1
        s += w["kill_threat"] * adjacent
        s += w["kill_reach"] * reach
        if n_sci:
            row = MANHATTAN[mother]
            s -= w["mother_scientist"] * min(min(map(row.__getitem__, active), default=99),
                                             min(map(row.__getitem__, frightened), default=99))
    return s, mother, asleep, babies, shots


#: bytes.translate table: cell code -> the kind of figurine score() gathers: 1 an active
#: baby, 2 a sleeping one, 3 an active scientist, 4 a frightened one, 5 the mother, else 0.
_KIND = bytes({BABY: 1, BABY_ASLEEP: 2, BABY_ASLEEP_NEW: 2, SCIENTIST_ACTIVE: 3,
               SCIENTIST_USED: 3, SCIENTIST_FRIGHTENED: 4, SCIENTIST_FRIGHTENED_NEW: 4,
               MOTHER: 5}.get(c, 0) for c in range(256))


def _reach_steps(q: int, active: list[int], frightened: list[int]) -> int:
    """Steps the nearest scientist needs to stand next to ``q`` (Manhattan distance; a
    frightened one needs one more, to stand up, R8.2); 99 when there is none."""
    row = MANHATTAN[q]
    best = min(map(row.__getitem__, active), default=100) - 1
    if frightened:
        best = min(best, min(map(row.__getitem__, frightened)))
    return best


#: Manhattan distance between any two squares.
MANHATTAN = tuple(tuple(abs(a // 13 - b // 13) + abs(a % 13 - b % 13) for b in range(78))
                   for a in range(78))


def _potential(p: Position, mother: int | None, asleep: list[int], babies: list[int],
               shots: list[int], w: dict[str, float]) -> float:
    """What the action points still to be spent this round can surely cash in, in points
    for the raptor: kills and wakes next to the mother (R7.3, R7.4), or captures, shots
    (``shots``: the scientists with a clear shot, :func:`clear_shots`) and sleeps by
    active scientists (R8.3-R8.5)."""
    b = p.board
    r = p.ap_left
    if p.ap_side is RAPTOR:
        if mother is None:
            return 0.0
        kills = sum(1 for n in NEIGHBOURS[mother] if b[n] in ANY_SCI)
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
    for t in shots:
        if b[t] == SCIENTIST_ACTIVE and t not in used:
            used.add(t)
            gains.append(w["shot_now"])
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
    return score(Position.of(v))

