"""The rules' computations, each written once with its rule ID, for every module that needs
one: legality and :func:`engine.apply` (:mod:`engine.rules`), refusal reasons
(:mod:`engine.explain`), action labels (:mod:`engine.notation`), the AI, the bot's texts and
components, the renderer.

Boards are the engine's lists of 78 cell codes (:mod:`engine.state`), or any sequence of
them (a :class:`engine.View`'s tuple); squares are ``int`` indices (:mod:`engine.geometry`).
Nothing here changes a board.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import bits
from .geometry import (
    BOARD_SQUARES,
    L_TILES,
    NEIGHBOURS,
    RAYS,
    SQUARE_TILES,
    TILE_NEIGHBOURS,
    TILE_OF,
)
from .state import (
    BABY,
    BABY_CODES,
    EMPTY,
    FIRE,
    FIRE_TOKENS,
    MOTHER,
    ROCK,
    SCIENTIST_ACTIVE,
    SCIENTIST_CODES,
    SCIENTIST_USED,
    SLEEP_TOKENS,
    Reason,
    Side,
)

Board = Sequence[int]

#: R7.2: the only cells the mother runs through and stops on (she stops before any rock,
#: fire, figurine, exit or the board's edge).
MOTHER_PASSES = frozenset({EMPTY})
#: R10.3: the cells a jeep drives through and stops on (it removes the fire it enters and
#: stops before a rock, a figurine, an exit or the edge).
JEEP_PASSES = frozenset({EMPTY, FIRE})
#: R8.5: the only things that block a shot (frightened scientists, fire and babies do not).
SHOT_BLOCKERS = frozenset({ROCK, SCIENTIST_ACTIVE, SCIENTIST_USED})
#: R8.1 ruling: the cells a scientist walks through (it may not stop on fire).
WALK_PASSES = frozenset({EMPTY, FIRE})
#: R6.1 / R6.2: babies escaped (raptor) or captured (scientist) that win the game.
BABIES_TO_WIN = 3

_FREE = bits.byte_table(EMPTY)
_PASSABLE = bits.byte_table(*WALK_PASSES)
_ACTIVE_SCIENTIST = bits.byte_table(SCIENTIST_ACTIVE, SCIENTIST_USED)
_STANDING_BABY = bits.byte_table(BABY)
_FIRE_SOURCE = bits.byte_table(FIRE, SCIENTIST_ACTIVE, SCIENTIST_USED)
_ANY_SCIENTIST = bits.byte_table(*SCIENTIST_CODES)


# ----------------------------------------------------------------------------- setup
def baby_setup_tiles(board: Board) -> tuple[int, ...]:
    """The square tiles still to receive a baby at setup, in tile order: neither the
    mother's nor one with its baby already (R4.1)."""
    taken = {TILE_OF[q] for q in BOARD_SQUARES if board[q] in BABY_CODES or board[q] == MOTHER}
    return tuple(t for t in SQUARE_TILES if t not in taken)


def scientist_setup_tiles(board: Board) -> tuple[int, ...]:
    """The L-tiles still to receive a scientist at setup, in tile order (R4.2)."""
    taken = {TILE_OF[q] for q in BOARD_SQUARES if board[q] in SCIENTIST_CODES}
    return tuple(t for t in L_TILES if t not in taken)


# ----------------------------------------------------------------------------- lines
def line(frm: int, to: int) -> tuple[int, ...] | None:
    """The squares after ``frm`` up to and including ``to`` along a row or column (R2.4), or
    None when the two are not in one straight orthogonal line (or are the same square)."""
    for ray in RAYS[frm]:
        if to in ray:
            return ray[: ray.index(to) + 1]
    return None


def run_stop(board: Board, frm: int, to: int, passes: frozenset[int]) -> int | None:
    """The first square on the straight line from ``frm`` to ``to`` whose cell is not in
    ``passes`` (what stops a run of the mother, R7.2, or a jeep, R10.3, before ``to``), or
    None when the run reaches ``to``. ``frm`` and ``to`` must be in line (see :func:`line`).
    """
    for q in line(frm, to) or ():
        if board[q] not in passes:
            return q
    return None


def mother_runs(board: Board, m: int) -> list[int]:
    """The squares the mother on ``m`` reaches with one move: any number of free spaces in
    one straight orthogonal line, rays in N, E, S, W order, nearest first (R7.2)."""
    out = []
    for ray in RAYS[m]:
        for t in ray:
            if board[t] != EMPTY:  # MOTHER_PASSES, compared directly on this fast path
                break
            out.append(t)
    return out


def mother_move_cost(sleep_tokens: int, mother_moved: bool) -> int:
    """AP of one move of the mother (R7.2 wound): her first move of a round costs 1 + her
    sleep tokens, later moves 1."""
    return 1 if mother_moved else 1 + sleep_tokens


def jeep_stops(board: Board, frm: int) -> list[int]:
    """Where one jeep move of the scientist on ``frm`` may end: any square of a straight
    orthogonal line through free or burning spaces, stopping before a rock, a figurine, an
    exit or the edge; rays in N, E, S, W order, nearest first (R10.3)."""
    out = []
    for ray in RAYS[frm]:
        for t in ray:
            c = board[t]
            if c != EMPTY and c != FIRE:  # JEEP_PASSES, compared directly on this fast path
                break
            out.append(t)
    return out


def jeep_clears(board: Board, frm: int, to: int) -> tuple[int, ...]:
    """The fire tokens a jeep move from ``frm`` to ``to`` removes: every fire on a space it
    enters, its final space included (R10.3 ruling), in driving order."""
    return tuple(q for q in line(frm, to) or () if board[q] == FIRE)


# ----------------------------------------------------------------------------- shots
def shot_blocker(board: Board, by: int, m: int) -> int | None:
    """The first square between ``by`` and ``m`` (in line) holding what blocks a shot (a rock
    or an active scientist, R8.5), or None when the line is clear."""
    for q in (line(by, m) or ())[:-1]:
        if board[q] in SHOT_BLOCKERS:
            return q
    return None


def clear_shot(board: Board, by: int, m: int) -> bool:
    """R8.5: the mother on ``m`` is in a straight line from ``by`` with no rock or active
    scientist between (frightened scientists, babies and fire do not block)."""
    if m // 13 != by // 13 and m % 13 != by % 13:
        return False
    for ray in RAYS[by]:
        if m in ray:
            for t in ray:
                if t == m:
                    return True
                if board[t] in SHOT_BLOCKERS:
                    return False
    return False


# ----------------------------------------------------------------------------- fire
def fire_group(board: Board, start: int) -> tuple[int, ...]:
    """The fire token on ``start`` and every fire orthogonally connected to it, sorted: what
    the mother puts out at once (R7.5)."""
    seen = {start}
    stack = [start]
    while stack:
        q = stack.pop()
        for n in NEIGHBOURS[q]:
            if board[n] == FIRE and n not in seen:
                seen.add(n)
                stack.append(n)
    return tuple(sorted(seen))


def fire_spots(board: Board) -> list[int]:
    """The free spaces where a fire token may go, in index order: next to an active scientist
    or to a fire token (R10.5). Whether a token is left in the supply is
    :func:`fire_supply`'s."""
    cells = bytes(board)
    near = bits.lanes(cells, _FIRE_SOURCE)
    return bits.squares_of(bits.step(near, bits.lanes(cells, _FREE)))


def fire_supply(board: Board) -> int:
    """Fire tokens left in the scientist's supply: 10 minus those on the board (R10.5
    ruling, R1.2)."""
    return FIRE_TOKENS - list(board).count(FIRE)


# ----------------------------------------------------------------------------- gas
def gas_tiles(board: Board) -> frozenset[int]:
    """The tiles a Sleeping Gas reaches: each tile with an active scientist and each tile next
    to one (R10.1)."""
    tiles: set[int] = set()
    for q in bits.squares_with(board, _ACTIVE_SCIENTIST):
        t = TILE_OF[q]
        tiles.add(t)
        tiles.update(TILE_NEIGHBOURS[t])
    return frozenset(tiles)


def gas_targets(board: Board) -> list[int]:
    """The active babies a Sleeping Gas may put to sleep, in index order (R10.1, R10.4)."""
    tiles = gas_tiles(board)
    return [q for q in bits.squares_with(board, _STANDING_BABY) if TILE_OF[q] in tiles]


# ----------------------------------------------------------------------------- walks
def walk_distance(board: Board, frm: int, to: int) -> int | None:
    """AP of the shortest walk of a scientist from ``frm`` to ``to`` through spaces without
    figurines or rocks (fire allowed, never an exit), ``to`` being a free space (R8.1
    ruling), or None when no walk reaches it (whatever the AP)."""
    if board[to] != EMPTY:
        return None
    passable = bits.lanes(board, _PASSABLE)
    seen = frontier = bits.bit(frm)
    target = bits.bit(to)
    steps = 0
    while frontier:
        steps += 1
        frontier = bits.step(frontier, passable) & ~seen
        if frontier & target:
            return steps
        seen |= frontier
    return None


def call_reaches(board: Board, frm: int, to: int) -> bool:
    """Whether the baby on ``frm`` reaches the free space ``to`` along an orthogonal path of
    free, fire-free spaces, exits never on the path (R9.1). The mother's tile and the
    baby's state are the caller's."""
    if board[to] != EMPTY:
        return False
    region = bits.flood(bits.bit(to), bits.lanes(board, _FREE))
    return bool(bits.NEIGHBOUR_MASK[frm] & region)


def call_path(board: Board, frm: int, to: int) -> tuple[int, ...] | None:
    """The way the baby on ``frm`` goes to the free space ``to`` when called (R9.1): one
    shortest orthogonal path over free, fire-free spaces (exits never on it), both ends
    included, or None when :func:`call_reaches` is false. Of several shortest paths, the
    one that steps back from ``to`` through the lowest-numbered square each time. For the
    call's event, so a picture draws the way the baby went rather than a straight line."""
    if board[to] != EMPTY:
        return None
    free = bits.lanes(board, _FREE)
    layers = [bits.bit(frm)]
    seen = layers[0]
    while not seen & bits.bit(to):
        grow = bits.step(layers[-1], free) & ~seen
        if not grow:
            return None
        seen |= grow
        layers.append(grow)
    path = [to]
    q = to
    for layer in reversed(layers[1:-1]):
        q = next(n for n in bits.SORTED_NEIGHBOURS[q] if bits.has(layer, n))
        path.append(q)
    path.append(frm)
    return tuple(reversed(path))


# ----------------------------------------------------------------------------- AP
def ap_total(revealed: tuple[int, int]) -> int:
    """The AP of the higher card: the difference of the two revealed values (R5.5)."""
    return abs(revealed[0] - revealed[1])


def ap_spent(state) -> int:
    """AP already spent in the AP phase under way (R5.5): the phase's total minus what is
    left; 0 outside an AP phase. ``state`` is a :class:`engine.GameState` or a
    :class:`engine.View`."""
    if state.ap is None or state.revealed is None:
        return 0
    return ap_total(state.revealed) - state.ap.remaining


# ----------------------------------------------------------------------------- victory
def scientists_on_board(board: Board) -> int:
    """Scientists on the board, frightened ones included (they count for R6.1)."""
    return bytes(board).translate(_ANY_SCIENTIST).count(1)


def victory(state) -> tuple[Side, Reason] | None:
    """The winner and the reason if a victory condition holds, else None (R6): 3 babies
    escaped or no scientist left on the board (R6.1, raptor); 3 babies captured or 5 sleep
    tokens on the mother (R6.2, scientist). When several hold at once, the first in that
    order of checks wins: escaped, captured, sleep tokens, no scientist. ``state`` is a
    :class:`engine.GameState` or a :class:`engine.View`."""
    if state.escaped >= BABIES_TO_WIN:
        return Side.RAPTOR, Reason.BABIES_ESCAPED
    if state.captured >= BABIES_TO_WIN:
        return Side.SCIENTIST, Reason.BABIES_CAPTURED
    if state.sleep_tokens >= SLEEP_TOKENS:
        return Side.SCIENTIST, Reason.MOTHER_ASLEEP
    if not any(c in SCIENTIST_CODES for c in state.board):  # stops at the first one
        return Side.RAPTOR, Reason.NO_SCIENTISTS
    return None


__all__ = [
    "BABIES_TO_WIN", "JEEP_PASSES", "MOTHER_PASSES", "SHOT_BLOCKERS", "WALK_PASSES",
    "ap_spent", "ap_total", "baby_setup_tiles", "call_path", "call_reaches", "clear_shot",
    "fire_group", "fire_spots", "fire_supply", "gas_targets", "gas_tiles", "jeep_clears",
    "jeep_stops", "line", "mother_move_cost", "mother_runs", "run_stop", "scientist_setup_tiles",
    "scientists_on_board", "shot_blocker",
    "victory", "walk_distance",
]
