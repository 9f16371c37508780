"""R8 Scientist actions: moves costing their shortest path (through fire, never stopping on
it), standing up, sleep, capture, shooting along a line, one aggressive action each."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalActionError, MoveScientist, Phase, Stand, square
from engine.geometry import SQUARE_NAMES
from engine.state import (
    BABY,
    BABY_ASLEEP_NEW,
    EMPTY,
    FIRE,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
)

from .conftest import RAPTOR, SCIENTIST, acts, actset, board, cell, cells, play


def sci_board(rows, ap=1, **keys):
    """A scientist AP phase with ``ap`` action points."""
    return board(rows, phase="ap", revealed="1 9", ap=f"scientist {ap}", **keys)


def move_costs(s, frm: str) -> dict[str, int]:
    return {SQUARE_NAMES[a.to]: a.cost for a in engine.legal_actions(s, SCIENTIST)
            if isinstance(a, MoveScientist) and a.frm == square(frm)}


# --- R8: who acts ---
def test_R8_only_active_scientists_act_except_to_stand_up():
    #          BCDEFGHIJKL
    s = sci_board(["S..........",   # active B1
                   "...........",
                   "..s........",   # frightened D3
                   "..f........",   # frightened this round D4
                   "..........A",   # used (aggressive action done) L5
                   "......M...."])
    assert acts(s, SCIENTIST) == actset("B1-C1, B1-B2", "stand D3",
                                        "L5-L4, L5-K5, L5-L6", "end")


# --- R8.1 moves (ruling: paths through fire, cost = shortest path) ---
#            BCDEFGHIJKL
PATHS = ["...........",
         "..#*.......",   # rock D2, fire E2
         ".S**B......",   # scientist C3, fires D3 E3, baby F3
         "..#........",   # rock D4
         "...........",
         "......M...."]   # mother H6


def test_R8_1_each_destination_costs_its_shortest_path_within_the_AP():
    assert move_costs(sci_board(PATHS, ap=1), "C3") == {"C2": 1, "C4": 1, "B3": 1}
    assert move_costs(sci_board(PATHS, ap=3), "C3") == {
        "C2": 1, "C4": 1, "B3": 1,
        "C1": 2, "B2": 2, "C5": 2, "B4": 2,
        "D1": 3, "B1": 3, "E4": 3, "C6": 3, "D5": 3, "B5": 3}   # E4 through D3 and E3
    four = move_costs(sci_board(PATHS, ap=4), "C3")
    assert {q for q, c in four.items() if c == 4} == {"E1", "F2", "F4", "E5", "D6", "B6"}
    assert not set(four) & {"D3", "E3", "E2", "F3", "D2", "D4"}  # fire, baby, rocks


def test_R8_1_a_move_spends_its_cost_and_leaves_the_fire_in_place():
    s = sci_board(PATHS, ap=5)
    after = play(s, SCIENTIST, "C3-F2")
    assert cell(after, "F2") == SCIENTIST_ACTIVE and cell(after, "C3") == EMPTY
    assert cells(after, FIRE) == {"E2", "D3", "E3"}
    assert after.ap.remaining == 1
    assert after.events[0].value == 4


def test_R8_1_a_move_beyond_the_AP_is_refused():
    s = sci_board(PATHS, ap=3)
    with pytest.raises(IllegalActionError):
        engine.apply(s, SCIENTIST, MoveScientist(square("C3"), square("F2"), 4))
    with pytest.raises(IllegalActionError):  # the cost is part of the action: no discount
        engine.apply(s, SCIENTIST, MoveScientist(square("C3"), square("E4"), 2))


def test_R8_1_a_scientist_enclosed_by_fire_can_cross_it():
    #          BCDEFGHIJKL
    s = sci_board(["...........",
                   "....*......",
                   "...*S*.....",   # scientist F3 ringed by fire
                   "....*......",
                   "...........",
                   "......M...."], ap=2)
    assert move_costs(s, "F3") == {"F1": 2, "G2": 2, "H3": 2, "G4": 2, "F5": 2, "E4": 2,
                                   "D3": 2, "E2": 2}


def test_R8_1_a_used_scientist_still_moves_and_keeps_its_state():
    s = sci_board(["...........", "...........", "....A......", "...........", "...........",
                   "......M...."], ap=3)
    after = play(s, SCIENTIST, "F3-G4")
    assert cell(after, "G4") == SCIENTIST_USED and after.ap.remaining == 1


# --- R8.2 stand up ---
def test_R8_2_a_stood_scientist_may_act_at_once():
    #          BCDEFGHIJKL
    s = sci_board(["...........",
                   "...s.......",   # frightened E2
                   "...B.......",   # baby E3
                   "...........",
                   "...........",
                   "......M...S"], ap=3)
    assert "stand E2" in acts(s, SCIENTIST)
    after = play(s, SCIENTIST, "stand E2")
    assert cell(after, "E2") == SCIENTIST_ACTIVE and after.ap.remaining == 2
    assert "E2 sleep E3" in acts(after, SCIENTIST)
    after = play(after, SCIENTIST, "E2 sleep E3")
    assert cell(after, "E3") == BABY_ASLEEP_NEW


def test_R8_2_worked_example_a_scientist_frightened_this_round_cannot_stand():
    #          BCDEFGHIJKL
    rows = ["...........",
            "...S.......",   # scientist E2
            "...........",
            "......M....",
            "...........",
            "..........S"]
    s = board(rows, raptor_hand="3 5 8", scientist_hand="2 7 9")
    s = play(play(s, RAPTOR, "play 3"), SCIENTIST, "play 7")   # Fear, then 4 AP
    s = play(s, RAPTOR, "fear E2")
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST and s.ap.remaining == 4
    assert cell(s, "E2") == SCIENTIST_FRIGHTENED_NEW
    assert not any(a.startswith(("stand", "E2")) for a in acts(s, SCIENTIST))
    with pytest.raises(IllegalActionError):
        engine.apply(s, SCIENTIST, Stand(square("E2")))
    s = play(s, SCIENTIST, "end")
    assert s.round == 2 and s.hands == {RAPTOR: (1, 5, 8), SCIENTIST: (1, 2, 9)}
    # Next round: Mother's Call has no baby to call (skipped), then the scientist's 8 AP.
    s = play(play(s, RAPTOR, "play 1"), SCIENTIST, "play 9")
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST and s.ap.remaining == 8
    assert "stand E2" in acts(s, SCIENTIST)
    assert cell(play(s, SCIENTIST, "stand E2"), "E2") == SCIENTIST_ACTIVE


# --- R8.3 put to sleep, R8.4 capture ---
#            BCDEFGHIJKL
AGGRO = ["...........",
         "...........",
         "...BS......",   # baby E3, scientist F3
         "...S.......",   # scientist E4
         "...........",
         "...M......."]   # mother E6: E4 can shoot her


def test_R8_3_R8_4_R8_5_aggressive_actions_on_offer():
    s = sci_board(AGGRO, ap=3)
    assert {a for a in acts(s, SCIENTIST) if " " in a and a != "end"} == actset(
        "F3 sleep E3, E4 sleep E3, E4 shoot E6")


def test_R8_3_sleep_puts_an_adjacent_active_baby_to_sleep():
    s = sci_board(AGGRO, ap=3)
    after = play(s, SCIENTIST, "F3 sleep E3")
    assert cell(after, "E3") == BABY_ASLEEP_NEW
    assert cell(after, "F3") == SCIENTIST_USED
    assert after.ap.remaining == 2
    assert not any(a.startswith("E3-") for a in acts(after, SCIENTIST))


def test_R8_4_capture_takes_an_adjacent_sleeping_baby_off_the_board():
    s = sci_board(AGGRO, ap=3)
    after = play(s, SCIENTIST, "F3 sleep E3", "E4 capture E3")
    assert after.captured == 1
    assert cell(after, "E3") == EMPTY and cells(after, BABY, BABY_ASLEEP_NEW) == set()
    assert cell(after, "E4") == SCIENTIST_USED and after.ap.remaining == 1


@pytest.mark.parametrize("code", ["b", "z"])
def test_R8_4_a_baby_asleep_since_any_round_can_be_captured(code):
    rows = ["...........", "...........", "..." + code + "S......", "...........",
            "...........", "......M...."]
    s = sci_board(rows, ap=1)
    assert acts(s, SCIENTIST) >= actset("F3 capture E3")
    assert not acts(s, SCIENTIST) & actset("F3 sleep E3")


# --- R8.6 one aggressive action per scientist per round ---
@pytest.mark.parametrize("first, gone", [
    ("E4 shoot E6", "E4 sleep E3"),
    ("E4 sleep E3", "E4 shoot E6, E4 capture E3"),
])
def test_R8_6_worked_example_one_aggressive_action_per_scientist_per_round(first, gone):
    s = sci_board(AGGRO, ap=5)
    after = play(s, SCIENTIST, first)
    assert cell(after, "E4") == SCIENTIST_USED
    assert not acts(after, SCIENTIST) & actset(gone)
    assert not any(a.startswith("E4 ") for a in acts(after, SCIENTIST))
    assert any(a.startswith("F3 ") for a in acts(after, SCIENTIST))  # F3 still may


def test_R8_6_capture_then_nothing_more_from_that_scientist_but_others_may():
    s = sci_board(AGGRO, ap=5)
    after = play(s, SCIENTIST, "F3 sleep E3")
    assert acts(after, SCIENTIST) & actset("F3 capture E3, E4 capture E3") == {"E4 capture E3"}
    after = play(after, SCIENTIST, "E4 capture E3")
    assert not any(" " in a for a in acts(after, SCIENTIST) if a != "end")
    after = play(after, SCIENTIST, "end")
    assert cells(after, SCIENTIST_ACTIVE) == {"F3", "E4"}  # ready again next round


# --- R8.5 shoot ---
#           BCDEFGHIJKL
SHOTS = ["......S....",   # scientist H1
         "......#....",   # rock H2
         "...........",
         "SsB*b.M.A.S",   # B4 S, C4 frightened, D4 baby, E4 fire, F4 asleep, H4 mother,
         "......S....",   # J4 used, L4 S; H5 S
         "......S...."]   # H6 S, behind H5


def test_R8_5_worked_example_a_shot_passes_frightened_scientists_babies_and_fire():
    s = sci_board(SHOTS, ap=1)
    assert acts(s, SCIENTIST) == actset(
        "H1-G1, H1-I1", "B4-B3, B4-B5", "J4-J3, J4-J5, J4-I4, J4-K4", "L4-L3, L4-L5, L4-K4",
        "H5-G5, H5-I5", "H6-G6, H6-I6", "stand C4",
        "B4 shoot H4, H5 shoot H4",   # not H1 (rock), H6 (active H5), L4 (used J4), J4 (used)
        "end")
    assert len(engine.legal_actions(s, SCIENTIST)) == 19


def test_R8_5_a_shot_gives_the_mother_a_sleep_token():
    s = sci_board(SHOTS, ap=3, sleep=1)
    after = play(s, SCIENTIST, "B4 shoot H4")
    assert after.sleep_tokens == 2 and cell(after, "B4") == SCIENTIST_USED
    assert after.ap.remaining == 2
    assert [(e.kind, SQUARE_NAMES[e.at], SQUARE_NAMES[e.to], e.value) for e in after.events] \
        == [("shot", "B4", "H4", 2)]
    after = play(after, SCIENTIST, "H5 shoot H4")
    assert after.sleep_tokens == 3


def test_R8_5_a_standing_scientist_stops_blocking_once_it_leaves_the_line():
    s = sci_board(SHOTS, ap=3)
    assert "L4 shoot H4" not in acts(s, SCIENTIST)
    after = play(s, SCIENTIST, "J4-J3")  # the used scientist J4 leaves the line
    assert "L4 shoot H4" in acts(after, SCIENTIST)
    after = play(after, SCIENTIST, "H5-G5")  # H5 leaves the column: H6 now sees the mother
    assert acts(after, SCIENTIST) >= actset("H6 shoot H4, L4 shoot H4, B4 shoot H4")


def test_R8_5_no_shot_while_the_mother_is_off_the_board():
    rows = [r.replace("M", ".") for r in SHOTS]
    s = sci_board(rows, ap=3, mother="off")
    assert not any("shoot" in a for a in acts(s, SCIENTIST))


def test_a_walks_event_holds_its_path_through_fire():
    """R8.1 ruling: the move's event carries one shortest walk, square by square, fire
    included (a picture draws it), and nothing for a single step."""
    s = board(["...........",
               "S*.........",
               "...........",
               "......M....",
               "........B..",
               "..........S"], phase="ap", revealed="9 2", ap="scientist 4")
    s2 = play(s, SCIENTIST, "B2-D2")
    (moved,) = [e for e in s2.events if e.kind == "moved"]
    assert [engine.square_name(q) for q in moved.cells] == ["B2", "C2", "D2"]
    assert moved.value == 2 and cell(s2, "C2") == FIRE
    s3 = play(s2, SCIENTIST, "D2-D3")
    (step,) = [e for e in s3.events if e.kind == "moved"]
    assert step.cells == () and step.value == 1
