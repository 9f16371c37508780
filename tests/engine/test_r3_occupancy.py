"""R3 Occupancy: one thing per space, only babies enter exits, nothing moves through
figurines, raptors never touch fire, scientists cross fire but never stop on it."""

from __future__ import annotations

from engine import Phase
from engine.state import BABY, EMPTY, EXIT, FIRE, MOTHER, SCIENTIST_ACTIVE

from .conftest import RAPTOR, SCIENTIST, acts, actset, board, cell, cells, names, play

#               BCDEFGHIJKL
MOTHER_LINES = ["...........",   # 1
                "...#.......",   # 2  rock E2
                "...........",   # 3
                ".*.M.B.....",   # 4  fire C4, mother E4, baby G4
                "...S.......",   # 5  scientist E5
                "..........."]   # 6


def test_R3_1_mother_stops_before_rock_fire_figurine_and_never_shares_a_space():
    s = board(MOTHER_LINES, phase="ap", revealed="9 2", ap="raptor 7")
    assert acts(s, RAPTOR) == actset(
        "E4-E3, E4-D4, E4-F4",        # north stops before the rock E2, west before the fire C4,
        "kill E5",                    # east before the baby G4; south the scientist E5
        "G4-G3, G4-G5, G4-H4, G4-F4",
        "end")


def test_R3_1_baby_moves_only_to_a_free_space():
    #          BCDEFGHIJKL
    s = board(["...........",
               "...........",
               "....#......",   # rock F3
               "...*BS.....",   # fire E4, baby F4, scientist G4
               "...........",   # F5 free
               "......M...."], phase="ap", revealed="9 2", ap="raptor 7")
    assert {a for a in acts(s, RAPTOR) if a.startswith("F4")} == {"F4-F5"}


def test_R3_1_scientist_move_ends_only_on_a_free_space():
    #          BCDEFGHIJKL
    s = board(["...........",
               "...........",
               ".....#.....",   # rock G3
               "....bSB....",   # sleeping baby F4, scientist G4, baby H4
               ".....*.....",   # fire G5
               ".....M....."],  # mother G6
              phase="ap", revealed="2 3", ap="scientist 1")
    assert acts(s, SCIENTIST) == actset("G4 capture F4, G4 sleep H4, G4 shoot G6, end")


def test_R3_1_fire_goes_only_on_free_spaces():
    #          BCDEFGHIJKL
    s = board(["...........",
               "...........",
               "....#......",   # rock F3
               "...MSB.....",   # mother E4, scientist F4, baby G4
               "....*......",   # fire F5
               "..........."],
              phase="effect", revealed="9 5", effect="scientist 5")
    # Free spaces next to the scientist F4 or the fire F5: E5 G5 F6.
    assert acts(s, SCIENTIST) == actset("fire E5, fire G5, fire F6")


def test_R3_1_reinforcements_go_only_on_free_long_edge_spaces():
    rows = ["#M*BS......",   # rock B1, mother C1, fire D1, baby E1, scientist F1
            "...........",
            "...........",
            "...........",
            "...........",
            ".#.S......."]   # rock C6, scientist E6
    s = board(rows, phase="effect", revealed="9 2", effect="scientist 2")
    free_edge = {f"{c}{r}" for c in "CDEFGHIJK" for r in (1, 6)} - names("C1 D1 E1 F1 C6 E6")
    assert acts(s, SCIENTIST) == {f"R@{q}" for q in free_edge}


def test_R3_2_a_baby_enters_an_adjacent_exit_and_escapes():
    #          BCDEFGHIJKL
    s = board(["B..........",
               "...........",
               "...........",
               ".....M.....",
               "...........",
               "S.........."], phase="ap", revealed="9 2", ap="raptor 7")
    assert {a for a in acts(s, RAPTOR) if a.startswith("B1")} == names("B1-A1 B1-C1 B1-B2")
    after = play(s, RAPTOR, "B1-A1")
    assert after.escaped == 1
    assert cell(after, "B1") == EMPTY
    assert cell(after, "A1") == EXIT
    assert cells(after, BABY) == set()
    assert after.ap.remaining == 6


def test_R3_2_only_a_real_exit_beside_an_L_tile_space_can_be_entered():
    #          ABCDEFGHIJKLM      exits A3 (X1), A4 (X2), M1 (X3), M6 (X4)
    s = board([" B..........o",
               " B.......... ",
               "oB.......... ",
               "o........... ",
               " ........... ",
               " ......M....o"], phase="ap", revealed="9 2", ap="raptor 7")
    baby_moves = {a for a in acts(s, RAPTOR) if a[0] == "B"}
    assert baby_moves == names("B1-C1", "B2-C2", "B3-A3 B3-C3 B3-B4")
    after = play(s, RAPTOR, "B3-A3")
    assert (after.escaped, cell(after, "A3"), cell(after, "B3")) == (1, EXIT, EMPTY)


def test_R3_2_the_mother_never_enters_an_exit():
    #          BCDEFGHIJKL
    s = board(["..........M",
               "...........",
               "...........",
               "...........",
               "...........",
               "S.........."], phase="ap", revealed="9 2", ap="raptor 7")
    moves = {a for a in acts(s, RAPTOR) if a.startswith("L1-")}
    assert moves == {f"L1-{c}1" for c in "BCDEFGHIJK"} | {f"L1-L{r}" for r in range(2, 7)}


def test_R3_2_a_scientist_never_enters_an_exit_by_walking_or_by_jeep():
    #          BCDEFGHIJKL
    s = board(["S..........",
               "...........",
               "...........",
               ".....M.....",
               "...........",
               "..........."], phase="ap", revealed="2 3", ap="scientist 1")
    assert acts(s, SCIENTIST) == actset("B1-C1, B1-B2, end")
    jeep = board(["..S........",   # scientist D1
                  "...........",
                  "...........",
                  ".....M.....",
                  "...........",
                  "..........."], phase="effect", revealed="9 3", effect="scientist 3")
    assert {a for a in acts(jeep, SCIENTIST) if a.startswith("D1")} == (
        {f"D1-{c}1" for c in "BCEFGHIJKL"} | {f"D1-D{r}" for r in range(2, 7)})


def test_R3_2_no_fire_token_on_an_exit():
    #          BCDEFGHIJKL
    s = board(["S..........",
               "...........",
               "...........",
               ".....M.....",
               "...........",
               "..........."], phase="effect", revealed="9 5", effect="scientist 5")
    assert acts(s, SCIENTIST) == actset("fire C1, fire B2")


def test_R3_2_the_mother_never_returns_onto_an_exit():
    s = board(["S..........", *["..........."] * 5], phase="mother_return", mother="off",
              round=4)
    placements = acts(s, RAPTOR)
    assert len(placements) == 65
    assert not placements & names("M@A1 M@A6 M@M1 M@M6 M@B1")


def test_R3_3_a_scientist_walks_around_figurines_never_through_them():
    #          BCDEFGHIJKL
    rows = ["...........",
            "...........",
            "...........",
            "...SBM.....",   # scientist E4, baby F4, mother G4
            "....#......",   # rock F5
            "..........."]
    s = board(rows, phase="ap", revealed="2 5", ap="scientist 3")
    # H4 lies beyond the baby and the mother: around them, E4-E3-F3-G3-H3-H4 is 5 steps.
    assert not acts(s, SCIENTIST) & actset("E4-F4, E4-G4, E4-H4")
    assert "E4-H3" not in acts(s, SCIENTIST)  # 4 steps around the baby and the mother
    assert "E4-G3" in acts(s, SCIENTIST)      # 3 steps: E3 F3 G3
    ap5 = board(rows, phase="ap", revealed="2 7", ap="scientist 5")
    assert "E4-H4" in acts(ap5, SCIENTIST)
    after = play(ap5, SCIENTIST, "E4-H4")
    assert after.phase is Phase.PICK and after.round == 2  # 5 AP spent: the round ended
    assert cell(after, "H4") == SCIENTIST_ACTIVE and cell(after, "E4") == EMPTY


def test_R3_3_raptors_never_enter_or_cross_fire():
    #          BCDEFGHIJKL
    s = board(["...........",
               "...........",
               "....*......",   # fire F3
               "...*M*.B*..",   # fire E4, mother F4, fire G4, baby I4, fire J4
               "....*..*...",   # fire F5, I5
               "...........",], phase="ap", revealed="9 2", ap="raptor 7")
    assert acts(s, RAPTOR) == actset("out F3, out E4, out G4, out F5",
                                     "I4-I3, I4-H4, end")


def test_R3_3_a_scientist_crosses_fire_but_never_stops_on_it():
    #          BCDEFGHIJKL
    s = board(["...........",
               "...........",
               "...###.....",   # rocks E3 F3 G3
               "...S**.M...",   # scientist E4, fires F4 G4, mother I4
               "...###.....",   # rocks E5 F5 G5
               "..........."], phase="ap", revealed="2 5", ap="scientist 3")
    moves = {a for a in acts(s, SCIENTIST) if a.startswith("E4-")}
    assert "E4-F4" not in moves and "E4-G4" not in moves
    assert {"E4-H4", "E4-D4"} <= moves
    after = play(s, SCIENTIST, "E4-H4")
    assert cells(after, FIRE) == names("F4 G4")
    assert cell(after, "H4") == SCIENTIST_ACTIVE
    assert cells(after, MOTHER) == {"I4"}
