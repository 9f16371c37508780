"""R7 Raptor actions: baby moves, the mother's straight moves and her wound, kills, waking a
baby, putting out a connected group of fires. 1 AP each (plus the wound)."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalActionError, MoveMother, Phase, Wake, square
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    EMPTY,
    FIRE,
    MOTHER,
    SCIENTIST_CODES,
)

from .conftest import RAPTOR, SCIENTIST, acts, actset, board, cell, cells, play


def ap_board(rows, ap=7, **keys):
    """A raptor AP phase with ``ap`` action points."""
    return board(rows, phase="ap", revealed="2 9", ap=f"raptor {ap}", **keys)


# --- R7: only the mother and active babies act ---
def test_R7_sleeping_babies_do_not_act():
    #          BCDEFGHIJKL
    s = ap_board(["...........",
                  ".b.........",   # sleeping baby C2
                  "...........",
                  ".....z.....",   # baby put to sleep this round G4
                  "...........",
                  "S.........M"])  # mother L6
    moves = acts(s, RAPTOR)
    assert not any(a.startswith(("C2", "G4")) for a in moves)
    assert moves == {f"L6-{c}6" for c in "CDEFGHIJK"} | {f"L6-L{r}" for r in range(1, 6)} | {
        "end"}
    assert len(engine.legal_actions(s, RAPTOR)) == 15


# --- R7.1 move a baby ---
def test_R7_1_a_baby_moves_one_space_to_a_free_adjacent_space_for_1_AP():
    #          BCDEFGHIJKL
    s = ap_board(["...........",
                  "...........",
                  "...B.......",   # baby E3
                  "...........",
                  "...........",
                  "S.........M"], ap=3)
    assert {a for a in acts(s, RAPTOR) if a.startswith("E3")} == actset(
        "E3-E2, E3-F3, E3-E4, E3-D3")
    after = play(s, RAPTOR, "E3-E4")
    assert cell(after, "E3") == EMPTY and cell(after, "E4") == BABY
    assert after.ap.remaining == 2
    assert [(e.kind, e.piece) for e in after.events] == [("moved", "baby")]


# --- R7.2 the mother and her wound ---
#              BCDEFGHIJKL
MOTHER_ROW = ["..........S",   # scientist L1
              "..#........",   # rock D2
              "...........",
              "..M.......*",   # mother D4, fire L4
              "..S........",   # scientist D5
              "..........."]


def test_R7_2_the_mother_moves_any_distance_in_a_straight_line():
    s = ap_board(MOTHER_ROW)
    moves = {a for a in acts(s, RAPTOR) if a.startswith("D4-")}
    assert moves == actset("D4-D3",                                        # D2 is a rock
                           "D4-E4, D4-F4, D4-G4, D4-H4, D4-I4, D4-J4, D4-K4",  # L4 burns
                           "D4-C4, D4-B4")                                 # then the edge
    after = play(s, RAPTOR, "D4-K4")
    assert cells(after, MOTHER) == {"K4"} and cell(after, "D4") == EMPTY
    assert after.ap.remaining == 6 and after.ap.mother_moved


def test_R7_2_worked_example_two_sleep_tokens_first_move_costs_3_second_1():
    s = ap_board(MOTHER_ROW, ap=4, sleep=2)
    assert "D4-G4" in acts(s, RAPTOR)
    s1 = play(s, RAPTOR, "D4-G4")
    assert s1.ap.remaining == 1 and s1.ap.mother_moved
    assert "G4-G1" in acts(s1, RAPTOR)
    s2 = play(s1, RAPTOR, "G4-G1")
    assert cells(s2, MOTHER) == {"G1"}
    assert s2.phase is Phase.PICK and s2.round == 2  # 4 AP spent: 3 + 1


def test_R7_2_without_enough_AP_for_the_wound_she_cannot_move():
    s = ap_board(MOTHER_ROW, ap=2, sleep=2)
    assert acts(s, RAPTOR) == actset("kill D5, end")
    with pytest.raises(IllegalActionError):
        engine.apply(s, RAPTOR, MoveMother(square("D4"), square("E4")))
    exact = ap_board(MOTHER_ROW, ap=3, sleep=2)
    assert len([a for a in acts(exact, RAPTOR) if a.startswith("D4-")]) == 10
    after = play(exact, RAPTOR, "D4-E4")
    assert after.phase is Phase.PICK  # 3 AP, all spent by the wounded first move


def test_R7_2_nothing_is_lost_if_she_does_not_move():
    s = ap_board(MOTHER_ROW, ap=4, sleep=2)
    after = play(s, RAPTOR, "kill D5")
    assert after.ap.remaining == 3 and not after.ap.mother_moved
    after = play(after, RAPTOR, "D4-D3")  # the wound is paid before her first move
    assert after.phase is Phase.PICK


def test_R7_2_after_her_first_move_each_move_costs_1():
    s = ap_board(MOTHER_ROW, ap=2, sleep=4)
    assert not any(a.startswith("D4-") for a in acts(s, RAPTOR))
    moved = board(MOTHER_ROW, phase="ap", revealed="2 9", ap="raptor 2 mother-moved", sleep=4)
    assert len([a for a in acts(moved, RAPTOR) if a.startswith("D4-")]) == 10
    assert play(moved, RAPTOR, "D4-B4").ap.remaining == 1


def test_R7_2_the_mother_stops_before_an_exit_and_the_board_edge():
    #          BCDEFGHIJKL
    s = ap_board(["M..........",
                  "...........",
                  "...........",
                  "..S........",
                  "...........",
                  "..........."], ap=2)
    assert acts(s, RAPTOR) == {f"B1-{c}1" for c in "CDEFGHIJKL"} | {
        f"B1-B{r}" for r in range(2, 7)} | {"end"}


# --- R7.3 kill ---
def test_R7_3_kill_active_or_frightened_scientists_adjacent_to_the_mother_any_number():
    #          BCDEFGHIJKL
    s = ap_board(["...........",
                  "....S......",   # active F2
                  "...sMA.....",   # frightened E3, mother F3, used G3
                  "....f......",   # frightened this round F4
                  "...........",
                  "S.........."], ap=4)   # B6: not adjacent
    assert acts(s, RAPTOR) == actset("kill F2, kill E3, kill G3, kill F4, end")
    after = play(s, RAPTOR, "kill F2", "kill E3", "kill G3")
    assert after.killed == 3 and after.reserve == s.reserve == 5
    assert len(after.squares_with(*SCIENTIST_CODES)) == 2
    assert after.ap.remaining == 1
    assert acts(after, RAPTOR) >= actset("kill F4")


def test_R7_3_a_killed_scientist_never_returns_to_the_reserve():
    #          BCDEFGHIJKL
    s = ap_board(["...........", "...........", "....MS.....", "...........", "...........",
                  "S.........."], ap=2, killed=2, reserve=2)
    after = play(s, RAPTOR, "kill G3", "end")
    assert (after.killed, after.reserve) == (3, 2)
    assert after.squares_with(*SCIENTIST_CODES) == [square("B6")]


# --- R7.4 wake ---
def test_R7_4_wake_a_sleeping_baby_adjacent_to_the_mother():
    #          BCDEFGHIJKL
    s = ap_board(["...........",
                  "....b......",   # asleep F2
                  "...zM......",   # asleep this round E3, mother F3
                  "...........",
                  ".....b.....",   # asleep G5, not adjacent
                  "S.........."], ap=3)
    assert {a for a in acts(s, RAPTOR) if a.startswith("wake")} == {"wake F2"}
    with pytest.raises(IllegalActionError):
        engine.apply(s, RAPTOR, Wake(square("E3")))
    after = play(s, RAPTOR, "wake F2")
    assert cell(after, "F2") == BABY and after.ap.remaining == 2
    assert {a for a in acts(after, RAPTOR) if a.startswith("F2-")} == actset(
        "F2-F1, F2-G2, F2-E2")


def test_R7_4_worked_example_a_baby_gassed_this_round_cannot_be_woken_this_round():
    #          BCDEFGHIJKL
    rows = ["...........",
            "...........",
            "...BM......",   # baby E3 (tile T1) next to the mother F3
            "...........",
            "...........",
            ".S........."]   # scientist C6 on T4, a tile adjacent to T1
    s = board(rows, raptor_hand="3 5 8", scientist_hand="1 4 9")
    s = play(play(s, RAPTOR, "play 5"), SCIENTIST, "play 1")   # Sleeping Gas, then 4 AP
    assert acts(s, SCIENTIST) == actset("gas E3")
    s = play(s, SCIENTIST, "gas E3")
    assert s.phase is Phase.AP and s.ap.side is RAPTOR and s.ap.remaining == 4
    assert cell(s, "E3") == BABY_ASLEEP_NEW
    assert not any(a.startswith("wake") for a in acts(s, RAPTOR))
    s = play(s, RAPTOR, "end")
    assert cell(s, "E3") == BABY_ASLEEP  # next round it is an ordinary sleeping baby
    assert s.hands[RAPTOR] == (1, 3, 8) and 4 in s.hands[SCIENTIST]
    # Next round: Sleeping Gas x2 finds no active baby (skipped), then the raptor's 4 AP.
    s = play(play(s, RAPTOR, "play 8"), SCIENTIST, "play 4")
    assert s.phase is Phase.AP and s.ap.side is RAPTOR and s.ap.remaining == 4
    assert "wake E3" in acts(s, RAPTOR)
    s = play(s, RAPTOR, "wake E3")
    assert cell(s, "E3") == BABY


# --- R7.5 put out fire ---
def test_R7_5_putting_out_removes_the_connected_group_back_to_the_supply():
    #          BCDEFGHIJKL
    s = ap_board(["...........",
                  "..***......",   # D2 E2 F2
                  "....*.*....",   # F3 joins the row above; H3 touches no other fire
                  "....M*.....",   # mother F4; fire G4 only touches F3 diagonally
                  "......*....",   # H5, diagonal to G4: a separate group
                  "S.........."], ap=3)
    assert s.fire_supply == 3
    assert {a for a in acts(s, RAPTOR) if a.startswith("out")} == actset("out F3, out G4")
    after = play(s, RAPTOR, "out F3")
    assert cells(after, FIRE) == {"H3", "G4", "H5"}
    assert after.fire_supply == 7 and after.ap.remaining == 2
    ev = after.events[0]
    assert ev.kind == "fire_out" and {engine.square_name(q) for q in ev.cells} == {
        "D2", "E2", "F2", "F3"}
    after2 = play(after, RAPTOR, "out G4")
    assert cells(after2, FIRE) == {"H3", "H5"} and after2.fire_supply == 8
