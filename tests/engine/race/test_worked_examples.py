"""The rulebook's worked examples (the seed text, ../shared/seeds/raptor-race-rules.txt) as
scenarios on our tracks: the Desert turn (Figures D1 to D2), the Jungle turn (J1 to J3)
and the scoring example (15, 13 and 16 points).

The printed figures are not in the text, so each starting position is ours: one where the
example's moves are what the rules give. The rolls are the engine's own seeded dice (the
first seed whose rolls show the example's, :func:`helpers.with_rolls`)."""

from __future__ import annotations

import engine.race as R
from engine.game import Outcome
from engine.race import Face, Phase, Raptor
from engine.race.scoring import best_score, placing

from .helpers import acts, play, position, where, with_rolls

B, G, O, P, Y = R.RAPTORS  # noqa: E741 - the letter of orange

D1 = """
    race: desert, 3 seats
      4  . . . B .
      2  . . O . .
      1  G P . . .
      0  s s s s Y
    rolled: BBOP
    """


def test_RR4_2_RR5_6_the_desert_example_from_D1_to_D2():
    s = with_rolls(position(D1), "OTG", "Y")
    # Roll 1 is orange, blue, blue, purple: the player sets the orange die aside
    s = play(s, "keep O")
    assert sorted(f.value for f in s.rolled) == ["G", "O", "T"]  # roll 2: orange, T-Rex, green
    s = play(s, "keep OT")
    assert s.rolled == (Face.Y,)  # roll 3: yellow
    s = play(s, "keep Y")
    assert s.phase is Phase.MOVE and s.kept == (Face.O, Face.O, Face.Y, Face.T)
    # the two orange dice advance orange two steps; it reaches the C4 booster
    s = play(s, "O>C3", "O>C4")
    assert s.pending is Raptor.ORANGE
    s = play(s, "+Y>E1")  # the booster advances yellow one step
    s = play(s, "TB>D3")  # the T-Rex sends blue back, onto the D3 booster
    assert s.pending is Raptor.BLUE
    s = play(s, "+Y>E2")  # which advances yellow again, onto the E2 booster
    assert s.pending is Raptor.YELLOW
    s = play(s, "+O>C5")  # which advances orange again
    s = play(s, "Y>E3")  # finally the yellow die advances yellow
    assert where(s) == {"B": "D3", "G": "A1", "O": "C5", "P": "B1", "Y": "E3"}  # D2
    assert s.turn == 2 and [x.by for x in s.last_steps] == ["O", "O", "+", "T", "+", "+",
                                                           "Y"]


# Our Jungle cannot hold the printed figure as it is: RR2.6 puts no booster diagonally
# behind a space with an obstacle behind it, nor boosters in neighbouring rows. So orange
# is blocked from behind by the purple raptor (not a palm tree) and is not blue's neighbour;
# and under RR5.8 the green die's step, with no die after it, must take the second arrow,
# so the last booster step goes straight. Every other step is the rulebook's.
J1 = """
    race: jungle, 3 seats
      9  . . ^ G O
      8  . . . . P
      7  # Y . . ^
      5  B ^ . # .
      0  s s s s s
    phase: move
    kept: BBGT
    arrows: 2
    """


def test_RR5_4_RR5_6_RR5_7_RR5_8_the_jungle_example_from_J1_to_J3():
    s = position(J1)
    s = play(s, "B>A6")  # blue advances to (A); the rock A7 in front of it
    assert where(s)["B"] == "A6" and "TO>E8" not in acts(s)  # purple behind orange
    s = play(s, "TO>D8")  # T-Rex and one diagonal: orange back to the D8 booster (C)
    assert s.pending is Raptor.ORANGE and s.arrows_left == 1
    s = play(s, "+B>B6")  # the booster advances blue: the rock ahead, so sideways (B)
    assert s.pending is None and s.arrows_left == 1
    assert "B>B7" not in acts(s)  # the second blue die: yellow is in front of blue
    s = play(s, "B>C6")  # so blue moves sideways again, onto the C6 booster (D)
    assert s.pending is Raptor.BLUE
    s = play(s, "+Y>B8")  # which advances yellow to the B8 booster (E)
    assert s.pending is Raptor.YELLOW
    s = play(s, "+B>C7")  # which advances blue again (F)
    assert acts(s) == ["G>C10", "G>E10"]  # one arrow, no die after: diagonal (RR5.8)
    s = play(s, "G>E10")  # the green die: green to the E10 booster (G)
    assert s.pending is Raptor.GREEN and s.arrows_left == 0
    s = play(s, "+B>C8")  # and that booster advances blue (H)
    assert where(s) == {"B": "C8", "G": "E10", "O": "D8", "P": "E8", "Y": "B8"}  # J3
    assert s.turn == 2


def test_RR7_1_RR7_2_the_scoring_example_15_13_and_16_points():
    # Blue crossed; yellow second; orange and green tied third; purple last
    groups = placing(tuple(R.space(sp) for sp in ("A13", "B8", "C8", "D2", "E9")), B)
    assert groups == ((B,), (Y,), (G, O), (P,))
    a, b, c = (best_score(card, groups) for card in ((B, P, G), (P, Y, O), (O, Y, B)))
    assert (a.slots, a.bonus, a.total) == ((10, 0, 5), 0, 15)  # green third, for A
    assert (b.slots, b.bonus, b.total) == ((0, 8, 5), 0, 13)  # orange third, for B
    assert (c.slots, c.bonus, c.total) == ((0, 8, 5), 3, 16)  # orange third: the bonus
    assert Outcome.by_scores([a.total, b.total, c.total], "finished").places == (2, 3, 1)


def test_RR7_2_the_scoring_example_through_a_finished_race():
    # player A's card is our card 11 (BPG); the other two cards are not in our deck, so
    # card 4 (PYB) sits at the second seat: yellow second, blue first counts as top three
    s = R.from_diagram("race: desert, 2 seats\n 13  B\n  9  . . . . Y\n  8  . G O . .\n"
                       "  2  . . . P .\ncards: 11 4\nphase: over\nkept: BBBB\n")
    assert [c.total for c in R.card_scores(s)] == [15, 13]
