"""RR6 End of the race: the crossing ends it at once, the others are placed by row with
ties, and there is no turn limit."""

from __future__ import annotations

import engine.race as R
from engine.race import Face, Phase, Raptor

from .helpers import acts, play, position, random_race


def _near_the_line() -> R.RaceState:
    return position("""
        race: desert, 3 seats
         12  . G . . .
         10  . . . . Y
          6  . . . P .
          4  B . . . .
          0  s s O s s
        phase: move
        kept: GBTY
        """)


def test_RR6_1_the_race_ends_the_moment_a_raptor_crosses_the_line():
    s = _near_the_line()
    assert "G>B13" in acts(s)
    over = play(s, "G>B13")
    assert over.phase is Phase.OVER and over.winner is Raptor.GREEN
    assert R.to_act(over) == frozenset() and R.legal_actions(over, over.seat) == []
    assert over.left == (Face.B, Face.Y, Face.T)  # lost, never used


def test_RR6_1_choosing_the_order_lets_the_others_be_used_first():
    over = play(_near_the_line(), "B>A5", "TP>D5", "Y>E11", "G>B13")
    assert over.winner is Raptor.GREEN and over.left == ()
    assert R.placing(over.raptors, over.winner) == (
        (Raptor.GREEN,), (Raptor.YELLOW,), (Raptor.BLUE, Raptor.PURPLE), (Raptor.ORANGE,))


def test_RR6_1_a_booster_step_may_cross_too():
    s = position("""
        race: desert, 2 seats
         12  . G . . .
          3  . . O . .
          0  B s s P Y
        phase: move
        kept: OGGG
        """)
    on = play(s, "O>C4")  # the C4 booster
    assert "+G>B13" in acts(on)
    over = play(on, "+G>B13")
    assert over.winner is Raptor.GREEN and over.pending is None


def test_RR6_2_the_others_are_placed_by_row_same_row_tied_whatever_the_lanes():
    rows = {Raptor.BLUE: 5, Raptor.GREEN: 13, Raptor.ORANGE: 5, Raptor.PURPLE: 9,
            Raptor.YELLOW: 0}
    raptors = tuple(R.space(f"{'ABCDE'[r.index]}{rows[r]}") for r in R.RAPTORS)
    assert R.placing(raptors, Raptor.GREEN) == (
        (Raptor.GREEN,), (Raptor.PURPLE,), (Raptor.BLUE, Raptor.ORANGE), (Raptor.YELLOW,))


def test_RR6_3_there_is_no_turn_limit_and_races_end():
    longest = 0
    for seed in range(60):
        *_, last = random_race(seed, 2 + seed % 4, ("desert", "jungle")[seed % 2])
        assert last.is_over and last.winner is not None
        longest = max(longest, last.turn)
    assert longest > 15  # turns go on as long as it takes
