"""R6 Victory and R5.7: the game ends the moment a condition holds, even with AP left."""

from __future__ import annotations

import pytest

import engine
from engine import Phase, Reason, WrongTurnError
from engine.state import SCIENTIST_CODES

from .conftest import RAPTOR, SCIENTIST, acts, board, cells, play


def assert_over(s, winner, reason):
    assert s.phase is Phase.OVER
    assert (s.winner, s.reason) == (winner, reason)
    assert s.ap is None and s.effect is None
    assert engine.to_act(s) == frozenset()
    assert engine.legal_actions(s, RAPTOR) == [] and engine.legal_actions(s, SCIENTIST) == []
    assert [(e.kind, e.side, e.text) for e in s.events][-1] == ("game_over", winner,
                                                                  reason.value)
    for side in (RAPTOR, SCIENTIST):
        with pytest.raises(WrongTurnError):
            engine.apply(s, side, engine.End())


#             BCDEFGHIJKL
ESCAPE = ["B..........",   # baby B1 beside the exit A1
          "...........",
          "......M....",
          "...........",
          "....S......",
          "..........B"]   # baby L6 beside the exit M6


def test_R6_1_three_escaped_babies_win_for_the_raptor_at_once():
    s = board(ESCAPE, phase="ap", revealed="9 4", ap="raptor 5", escaped=2, captured=1)
    after = play(s, RAPTOR, "B1-A1")
    assert after.escaped == 3
    assert_over(after, RAPTOR, Reason.BABIES_ESCAPED)
    assert cells(after, engine.state.BABY) == {"L6"}  # 4 AP were left: nothing more happens


def test_R6_1_two_escaped_babies_are_not_yet_a_win():
    s = board(ESCAPE, phase="ap", revealed="9 4", ap="raptor 5", escaped=1)
    after = play(s, RAPTOR, "B1-A1")
    assert after.escaped == 2 and after.phase is Phase.AP and after.winner is None
    assert after.ap.remaining == 4


#             BCDEFGHIJKL
LAST = ["...........",
        "...........",
        "......MS...",   # mother H3, the last scientist I3
        "...........",
        "...........",
        "..B........"]


def test_R6_1_no_scientist_left_on_the_board_wins_for_the_raptor():
    s = board(LAST, phase="ap", revealed="9 2", ap="raptor 7", killed=3)
    assert s.reserve == 6
    after = play(s, RAPTOR, "kill I3")
    assert after.killed == 4 and after.reserve == 6  # the reserve does not count
    assert_over(after, RAPTOR, Reason.NO_SCIENTISTS)


@pytest.mark.parametrize("lying", ["s", "f"])
def test_R6_1_a_frightened_scientist_on_the_board_still_counts(lying):
    rows = LAST[:5] + [".." + "B" + "......" + lying + "."]  # frightened scientist J6
    s = board(rows, phase="ap", revealed="9 2", ap="raptor 7")
    after = play(s, RAPTOR, "kill I3")
    assert after.phase is Phase.AP and after.winner is None
    assert len(after.squares_with(*SCIENTIST_CODES)) == 1


#              BCDEFGHIJKL
SHOT = ["...........",
        "...S....M..",   # scientist E2 in line with the mother J2
        "...........",
        "....b......",   # sleeping baby F4
        "...S.......",   # scientist E5
        "..........."]


def test_R6_2_the_fifth_sleep_token_wins_for_the_scientist():
    s = board(SHOT, phase="ap", revealed="1 8", ap="scientist 7", sleep=4)
    after = play(s, SCIENTIST, "E2 shoot J2")
    assert after.sleep_tokens == 5
    assert_over(after, SCIENTIST, Reason.MOTHER_ASLEEP)


def test_R6_2_four_sleep_tokens_are_not_yet_a_win():
    s = board(SHOT, phase="ap", revealed="1 8", ap="scientist 7", sleep=3)
    after = play(s, SCIENTIST, "E2 shoot J2")
    assert after.sleep_tokens == 4 and after.phase is Phase.AP and after.ap.remaining == 6


def test_R6_2_the_third_capture_wins_at_once_with_AP_left():
    #          BCDEFGHIJKL
    rows = ["...........",
            "...........",
            "......M....",
            "....b......",   # sleeping baby F4
            "....S......",   # scientist F5
            "........B.."]
    s = board(rows, phase="ap", revealed="1 8", ap="scientist 7", captured=2)
    assert "F5 capture F4" in acts(s, SCIENTIST)
    after = play(s, SCIENTIST, "F5 capture F4")
    assert after.captured == 3
    assert_over(after, SCIENTIST, Reason.BABIES_CAPTURED)


def test_R6_2_two_captures_are_not_yet_a_win():
    rows = ["...........", "...........", "......M....", "....b......", "....S......",
            "........B.."]
    s = board(rows, phase="ap", revealed="1 8", ap="scientist 7", captured=1)
    after = play(s, SCIENTIST, "F5 capture F4")
    assert after.captured == 2 and after.phase is Phase.AP


def test_R6_3_no_round_limit_and_the_round_number_is_reported():
    rows = ["S..........", "..B........", "......M....", "...........", "...........",
            "..........S"]
    s = board(rows, round=750, raptor_hand="2 4 6", scientist_hand="4 5 9")
    after = play(play(s, RAPTOR, "play 4"), SCIENTIST, "play 4")
    assert after.round == 751 and after.phase is Phase.PICK and after.winner is None
    assert engine.view(after, None).round == 751
