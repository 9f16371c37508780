"""The rules' computations, one predicate each: where a step may end (RR5.2-RR5.5, RR5.7),
when arrows are compulsory (RR5.8), which selections of dice may be set aside (RR4.2,
RR4.3). Legality, ``apply``, refusal reasons and the AI all call these; none is written
twice.

Positions are the raptors' spaces in colour order (``state.raptors``); spaces are ``int``
(:mod:`.track`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from .components import Face, sorted_faces
from .track import LANE_COUNT, Track, at, lane_of, row_of


def is_free(track: Track, raptors: Sequence[int], sp: int) -> bool:
    """Whether a step may end on ``sp``: on the track or beyond its finish line, without a
    raptor or an obstacle (RR5.2, RR2.2)."""
    return track.on_track(sp) and sp not in track.obstacles and sp not in raptors


def arrows_compulsory(arrows_left: int, dice_after: int) -> bool:
    """RR5.8: a step that can be taken diagonally must be when the arrows left outnumber
    ``dice_after``, the dice not yet used other than the step's own die (a booster's step:
    every die not yet used)."""
    return arrows_left > dice_after


def _diagonals(track: Track, raptors: Sequence[int], lane: int, row: int) -> list[int]:
    """The free spaces one lane to the side on ``row`` (RR5.7's diagonal ends)."""
    out = []
    for other in (lane - 1, lane + 1):
        if 0 <= other < LANE_COUNT and 0 <= row:
            sp = at(other, row)
            if is_free(track, raptors, sp):
                out.append(sp)
    return out


def forward_steps(track: Track, raptors: Sequence[int], sp: int, arrows_left: int,
                  dice_after: int) -> tuple[int, ...]:
    """Where a forward step of the raptor on ``sp`` may end, ascending (empty: it stays).

    The step goes straight ahead when that space is free (RR5.3); when it is not, it
    becomes a sideways step to a free neighbour of the same row (RR5.4); with an arrow left
    it may go diagonally forward instead (RR5.7), and must when arrows are compulsory
    (RR5.8, :func:`arrows_compulsory`). On the Desert every raptor keeps its own lane and
    nothing blocks it, so this is the space straight ahead (RR5.4).
    """
    lane, row = lane_of(sp), row_of(sp)
    diagonals = _diagonals(track, raptors, lane, row + 1) if arrows_left > 0 else []
    if diagonals and arrows_compulsory(arrows_left, dice_after):
        return tuple(diagonals)
    ahead = at(lane, row + 1)
    if is_free(track, raptors, ahead):
        ends = [ahead]
    else:
        ends = _diagonals(track, raptors, lane, row)  # RR5.4 sideways: same row
    return tuple(sorted(ends + diagonals))


def back_steps(track: Track, raptors: Sequence[int], sp: int, arrows_left: int,
               dice_after: int) -> tuple[int, ...]:
    """Where a back step (a T-Rex die, RR5.5) of the raptor on ``sp`` may end, ascending:
    straight back to a free space, or diagonally back with an arrow (RR5.7; compulsory
    under RR5.8). Back steps never turn sideways, and nothing steps back out of row 0
    (RR2.3)."""
    lane, row = lane_of(sp), row_of(sp)
    if row == 0:
        return ()
    diagonals = _diagonals(track, raptors, lane, row - 1) if arrows_left > 0 else []
    if diagonals and arrows_compulsory(arrows_left, dice_after):
        return tuple(diagonals)
    behind = at(lane, row - 1)
    straight = [behind] if is_free(track, raptors, behind) else []
    return tuple(sorted(straight + diagonals))


def is_diagonal(frm: int, to: int) -> bool:
    """Whether the step ``frm`` -> ``to`` changes lane and row: it spends an arrow (RR5.7;
    a sideways step spends none)."""
    return lane_of(frm) != lane_of(to) and row_of(frm) != row_of(to)


@lru_cache(maxsize=256)
def keep_choices(rolled: tuple[Face, ...]) -> tuple[tuple[Face, ...], ...]:
    """Every selection of the footprint dice ``rolled`` that may be set aside (RR4.2,
    RR9.3): non-empty, by face (equal faces are interchangeable), each in canonical order;
    the selections ordered by size, then face by face."""
    counts = Counter(rolled)
    faces = sorted_faces(counts)
    out = []
    for picks in product(*(range(counts[f] + 1) for f in faces)):
        chosen = tuple(f for f, n in zip(faces, picks, strict=True) for _ in range(n))
        if chosen:
            out.append(chosen)
    out.sort(key=lambda c: (len(c), [f.order for f in c]))
    return tuple(out)
