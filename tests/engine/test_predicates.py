"""The rule predicates of :mod:`engine.predicates` on fixed positions: each returns what the
rule it names says (R5.5, R6, R7.2, R7.5, R8.1, R8.5, R9.1, R10.1, R10.3, R10.5)."""

from __future__ import annotations

from engine import predicates as P
from engine import square
from engine.geometry import square_name
from engine.state import Reason

from .conftest import RAPTOR, SCIENTIST, board, names


def sqs(*text: str) -> list[int]:
    return sorted(square(n) for n in names(*text))


#          BCDEFGHIJKL
ROWS = ["...........",
        "..**.......",   # fires D2 E2
        "...*..#....",   # fire E3, rock H3
        "S...M..S...",   # scientist B4, mother F4, scientist I4
        "..B...s....",   # baby D5, frightened scientist H5
        "..........."]


def test_R7_2_the_wound_costs_one_AP_per_sleep_token_on_the_first_move_only():
    assert [P.mother_move_cost(t, False) for t in range(5)] == [1, 2, 3, 4, 5]
    assert [P.mother_move_cost(t, True) for t in range(5)] == [1, 1, 1, 1, 1]


def test_R7_2_the_mother_runs_until_anything_stops_her():
    s = board(ROWS)
    assert sorted(P.mother_runs(s.board, square("F4"))) == sqs(
        "F3 F2 F1", "G4 H4", "F5 F6", "E4 D4 C4")
    assert P.run_stop(s.board, square("F4"), square("K4"), P.MOTHER_PASSES) == square("I4")
    assert P.run_stop(s.board, square("F4"), square("H4"), P.MOTHER_PASSES) is None


def test_R7_5_a_fire_group_is_every_fire_connected_to_it():
    s = board(ROWS)
    assert list(P.fire_group(s.board, square("E3"))) == sqs("D2 E2 E3")


def test_R8_5_only_rocks_and_active_scientists_block_a_shot():
    rows = ["...........", "...........", "...........",
            "S.*B.M.s.#S",   # B4 -> G4 through fire and a baby; L4 -> G4: rock K4
            "...........", ".....S....."]
    s = board(rows)
    m = square("G4")
    assert P.clear_shot(s.board, square("B4"), m) is True
    assert P.clear_shot(s.board, square("L4"), m) is False
    assert P.shot_blocker(s.board, square("L4"), m) == square("K4")  # rock K4 first
    assert P.clear_shot(s.board, square("G6"), m) is True  # up the column, G5 free
    assert P.clear_shot(s.board, square("F6"), m) is False  # not in line
    assert P.clear_shot(s.board, square("G1"), m) is True  # the line only: who shoots is R8.6
    assert P.SHOT_BLOCKERS == frozenset({2, 9, 10})


def test_R10_3_a_jeep_stops_before_obstacles_and_clears_the_fire_it_enters():
    s = board(ROWS)
    frm = square("B4")
    assert square("E4") in P.jeep_stops(s.board, frm)
    assert square("F4") not in P.jeep_stops(s.board, frm)  # the mother
    assert square("A4") not in P.jeep_stops(s.board, frm)  # an exit or the edge
    s2 = board(["...........", "...........", "...........", "S.**.......",
                "...........", "...M......."])
    assert P.jeep_clears(s2.board, frm, square("E4")) == tuple(sqs("D4 E4"))
    assert P.jeep_clears(s2.board, frm, square("D4")) == (square("D4"),)  # its final space


def test_R10_1_gas_reaches_tiles_with_an_active_scientist_and_their_neighbours():
    s = board(ROWS)
    # B4 is on X2 (neighbours T4, X1); I4 on T6 (neighbours T3, T5, X4); H5 frightened
    assert {P.gas_tiles(s.board)} == {frozenset({7, 3, 6, 5, 2, 4, 9})}
    assert P.gas_targets(s.board) == [square("D5")]


def test_R10_5_fire_goes_next_to_an_active_scientist_or_a_fire():
    s = board(ROWS)
    spots = P.fire_spots(s.board)
    assert square("C4") in spots and square("D3") in spots and square("J4") in spots
    assert square("G5") not in spots  # next to the frightened scientist only
    assert square("E3") not in spots  # a fire already
    assert P.fire_supply(s.board) == 7


def test_R8_1_a_walk_goes_through_fire_around_figurines_and_rocks():
    s = board(ROWS)
    assert P.walk_distance(s.board, square("I4"), square("I3")) == 1
    assert P.walk_distance(s.board, square("I4"), square("G3")) == 3  # around the rock H3
    assert P.walk_distance(s.board, square("I4"), square("E3")) is None  # fire: never stop
    assert P.walk_distance(s.board, square("B4"), square("E4")) == 3


def test_R9_1_a_call_needs_a_free_fire_free_path():
    s = board(ROWS)
    assert P.call_reaches(s.board, square("D5"), square("G4")) is True
    walled = board(["...........", "...........", "...........", "...........",
                    "*B*........", ".*...M....."])
    assert P.call_reaches(walled.board, square("C5"), square("F6")) is True  # via C4
    assert P.call_reaches(walled.board, square("C5"), square("C6")) is False  # C6 is fire


def test_R9_1_a_call_path_is_a_shortest_free_way_around_rocks_and_fire():
    walled = board(["...........", "...........", "...........", "...........",
                    "*B*........", ".*...M....."])
    path = P.call_path(walled.board, square("C5"), square("F6"))
    assert path[0] == square("C5") and path[-1] == square("F6") and len(path) == 7
    for a, b in zip(path, path[1:], strict=False):                # orthogonal steps
        assert abs(a - b) in (1, 13)
    assert all(walled.board[q] == 1 for q in path[1:])            # free, fire-free
    assert P.call_path(walled.board, square("C5"), square("C6")) is None
    rocks = board(["......M....", "...........", "....#......", ".#..#......",
                   ".B..#......", "..........."])  # a wall F3-F5 between C5 and G3
    path = P.call_path(rocks.board, square("C5"), square("G3"))
    # two shortest ways (round F2 or F6): the one back from G3 through lower squares
    assert [square_name(q) for q in path] == ["C5", "D5", "D4", "D3", "D2", "E2", "F2",
                                               "G2", "G3"]


def test_R5_5_ap_total_and_spent():
    s = board(ROWS, phase="ap", revealed="2 7", ap="raptor 3", raptor_pick=7,
              scientist_pick=2, raptor_hand="1 3 4")
    assert P.ap_total(s.revealed) == 5
    assert P.ap_spent(s) == 2
    assert P.ap_spent(board(ROWS)) == 0  # no AP phase


def test_R6_victory_conditions_in_order():
    assert P.victory(board(ROWS)) is None
    assert P.victory(board(ROWS, escaped=3)) == (RAPTOR, Reason.BABIES_ESCAPED)
    assert P.victory(board(ROWS, captured=3)) == (SCIENTIST, Reason.BABIES_CAPTURED)
    assert P.victory(board(ROWS, sleep=5)) == (SCIENTIST, Reason.MOTHER_ASLEEP)
    lone = board(["...........", "...........", "...........", "....M......",
                  "..B...s....", "..........."])
    assert P.victory(lone) is None  # a frightened scientist still counts (R6.1)
    gone = board(["...........", "...........", "...........", "....M......",
                  "..B........", "..........."])
    assert P.victory(gone) == (RAPTOR, Reason.NO_SCIENTISTS)
    assert P.scientists_on_board(board(ROWS).board) == 3
