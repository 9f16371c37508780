"""RR2 Tracks: lanes, rows and spaces, the finish line, both layouts as data (checked
against the diagram of docs/RACE_RULES.md) and the properties RR2.6 promises."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

import pytest

import engine.race as R
from engine.race import TRACKS, Board, space, space_name
from engine.race.errors import OptionError
from engine.race.track import LANES, Obstacle, at, lane_of, row_of

from .helpers import random_race

RULES = Path(__file__).resolve().parents[3] / "docs" / "RACE_RULES.md"
DESERT, JUNGLE = TRACKS[Board.DESERT], TRACKS[Board.JUNGLE]


def _documented_grids() -> dict[Board, dict[str, str]]:
    """The two grids of the rules' diagram: board -> space name -> symbol."""
    block = RULES.read_text(encoding="utf-8").split("```")[1]
    grids: dict[Board, dict[str, str]] = {Board.DESERT: {}, Board.JUNGLE: {}}
    for line in block.splitlines():
        for board, part in zip(Board, (line[:20], line[20:]), strict=True):
            m = re.fullmatch(r"\s*(\d+) ([.+^#s](?: [.+^#s]){4})\s*", part)
            if m:
                row = int(m.group(1))
                for lane, symbol in zip(LANES, m.group(2).split(), strict=True):
                    grids[board][f"{lane}{row}"] = symbol
    return grids


def _symbol(board: Board, sp: int) -> str:
    t = TRACKS[board]
    if sp in t.obstacles:
        return "^" if t.obstacles[sp] is Obstacle.TREE else "#"
    return "+" if sp in t.boosters else ("s" if row_of(sp) == 0 else ".")


def test_RR2_1_spaces_are_lane_then_row():
    assert space("C7") == at(2, 7) and space_name[space("C7")] == "C7"
    assert space("a0") == 0 and space_name[space("E12")] == "E12"
    assert (lane_of(space("D5")), row_of(space("D5"))) == (3, 5)
    for bad in ("F1", "C", "7C", "C-1", "C99"):
        with pytest.raises(OptionError):
            space(bad)
    assert (DESERT.rows, JUNGLE.rows) == (13, 12)  # rows 0-12 and 0-11


@pytest.mark.parametrize("board", list(Board))
def test_RR2_1_RR2_4_RR2_5_the_layouts_are_the_documented_diagram(board):
    grid = _documented_grids()[board]
    t = TRACKS[board]
    assert len(grid) == 5 * t.rows
    assert grid == {space_name[at(lane, row)]: _symbol(board, at(lane, row))
                    for lane in range(5) for row in range(t.rows)}


def test_RR2_2_the_finish_line_is_crossed_out_of_the_top_row():
    for t in (DESERT, JUNGLE):
        top, beyond = at(2, t.rows - 1), at(2, t.rows)
        assert not t.crossed(top) and t.crossed(beyond)
        assert t.on_track(beyond) and not t.on_track(at(2, t.rows + 1))
        assert beyond not in t.obstacles and beyond not in t.boosters


def test_RR2_3_the_start_row_has_no_booster_and_no_obstacle():
    for t in (DESERT, JUNGLE):
        assert all(row_of(sp) > 0 for sp in t.boosters | set(t.obstacles))


def test_RR2_3_nothing_steps_back_out_of_row_0():
    s = R.from_diagram("race: desert, 2 seats\n  0  B G O P Y\nphase: move\nkept: TTTT\n")
    assert [R.format_action(a) for a in R.legal_actions(s, 0)] == ["T-"]


def test_RR2_4_the_desert_has_fifteen_boosters_three_per_lane_no_obstacle():
    assert DESERT.obstacles == {} and not DESERT.arrows
    assert sorted(space_name[sp] for sp in DESERT.boosters) == sorted(
        "A2 A6 A10 B3 B7 B11 C4 C8 C12 D3 D7 D11 E2 E6 E10".split())
    assert all(sum(lane_of(sp) == lane for sp in DESERT.boosters) == 3 for lane in range(5))


def test_RR2_5_the_jungle_has_ten_obstacles_two_per_lane_and_nine_boosters():
    trees = {space_name[sp] for sp, o in JUNGLE.obstacles.items() if o is Obstacle.TREE}
    rocks = {space_name[sp] for sp, o in JUNGLE.obstacles.items() if o is Obstacle.ROCK}
    assert trees == set("A2 B5 E7 C9 D11".split()) and rocks == set("E2 C3 D5 A7 B11".split())
    assert all(sum(lane_of(sp) == lane for sp in JUNGLE.obstacles) == 2 for lane in range(5))
    assert {space_name[sp] for sp in JUNGLE.boosters} == set(
        "B1 D1 A4 E4 C6 B8 D8 A10 E10".split())
    assert JUNGLE.arrows


def _mirror(sp: int) -> int:
    return at(4 - lane_of(sp), row_of(sp))


@pytest.mark.parametrize("t", [DESERT, JUNGLE], ids=["desert", "jungle"])
def test_RR2_6_each_layout_is_its_own_mirror(t):
    assert {_mirror(sp) for sp in t.boosters} == t.boosters
    assert {_mirror(sp) for sp in t.obstacles} == set(t.obstacles)


@pytest.mark.parametrize("t", [DESERT, JUNGLE], ids=["desert", "jungle"])
def test_RR2_6_no_row_blocked_no_booster_behind_an_obstacle_none_side_by_side(t):
    for row in range(t.rows):
        assert sum(row_of(sp) == row for sp in t.obstacles) <= 2
    assert all(sp + 5 not in t.obstacles for sp in t.boosters)  # right behind: the row below
    assert all(not (lane_of(sp) < 4 and sp + 1 in t.boosters) for sp in t.boosters)


def test_RR2_6_random_races_last_about_as_long_as_the_ruling_says():
    # A random player is no tuned player, but the median must be in the ruling's range.
    turns = {b: [] for b in ("desert", "jungle")}
    for seed in range(120):
        board = ("desert", "jungle")[seed % 2]
        *_, last = random_race(seed, 2 + seed % 4, board)
        turns[board].append(last.turn)
    assert 9 <= statistics.median(turns["desert"]) <= 12
    assert 11 <= statistics.median(turns["jungle"]) <= 14


def test_RR2_7_the_spaces_beyond_the_line_are_named_with_the_next_row():
    assert DESERT.crossed(space("C13")) and JUNGLE.crossed(space("C12"))
    s = R.from_diagram("race: desert, 2 seats\n 12  B . + . .\n  0  s G O P Y\n"
                       "phase: move\nkept: BGOP\n")
    assert "B>A13" in [R.format_action(a) for a in R.legal_actions(s, 0)]
