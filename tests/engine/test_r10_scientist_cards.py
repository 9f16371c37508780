"""R10 Scientist cards, resolved when the scientist's card is the lower one: Sleeping Gas (and
its shuffle), Reinforcements, Jeep, Fire."""

from __future__ import annotations

import pytest

import engine
from engine import EFFECTS, Gas, IllegalActionError, Phase, square
from engine.state import (
    BABY_ASLEEP_NEW,
    EMPTY,
    FIRE,
    SCIENTIST_ACTIVE,
)

from .conftest import RAPTOR, SCIENTIST, acts, actset, board, cell, cells, play


def hand_with(card: int) -> str:
    return " ".join(str(c) for c in sorted([card] + [c for c in range(1, 10) if c != card][:2]))


def reveal(rows, raptor_card: int, scientist_card: int, **keys):
    """The position right after both picks; the scientist's card already lies on the table."""
    keys.setdefault("scientist_pick", scientist_card)
    keys.setdefault("raptor_hand", hand_with(raptor_card))
    return play(board(rows, **keys), RAPTOR, f"play {raptor_card}")


# --- R10.1 Sleeping Gas and Shuffle, R10.4 Sleeping Gas x2 ---
#          BCDEFGHIJKL
GAS = [".B........S",   # baby C1 (T1), scientist L1 (X3)
       "S....B...B.",   # scientist B2 (X1), baby G2 (T2), baby K2 (T3)
       ".B...M.....",   # baby C3 (T1), mother G3
       "...........",
       "B.B.....s..",   # baby B5 (X2), baby D5 (T4), frightened scientist J5 (T6)
       ".........B."]   # baby K6 (T6)


def test_R10_1_worked_example_gas_range_is_an_active_scientists_tile_and_its_neighbours():
    s = reveal(GAS, 9, 1)
    assert s.phase is Phase.EFFECT and (s.effect.side, s.effect.card) == (SCIENTIST, 1)
    # B2 (X1) covers X1, T1, X2; L1 (X3) covers X3, T3, X4. The frightened J5 covers nothing.
    assert acts(s, SCIENTIST) == actset("gas C1, gas C3, gas B5, gas K2")
    for out_of_range in ("G2", "D5", "K6"):
        with pytest.raises(IllegalActionError):
            engine.apply(s, SCIENTIST, Gas(square(out_of_range)))


def test_R10_1_gas_then_shuffle_deck_discard_and_card_1_the_hand_stays():
    s = reveal(GAS, 9, 1, scientist_hand="3 8", scientist_deck="2 7", scientist_discard="4 5 6")
    after = play(s, SCIENTIST, "gas C3")
    assert cell(after, "C3") == BABY_ASLEEP_NEW
    assert cells(after, SCIENTIST_ACTIVE) == {"B2", "L1"}   # an effect is not aggressive
    assert after.hands[SCIENTIST] == (3, 8)
    assert sorted(after.decks[SCIENTIST]) == [1, 2, 4, 5, 6, 7]
    assert after.discards[SCIENTIST] == () and after.picks[SCIENTIST] is None
    assert after.phase is Phase.AP and after.ap.side is RAPTOR and after.ap.remaining == 8
    end = play(after, RAPTOR, "end")
    assert end.discards == {RAPTOR: (9,), SCIENTIST: ()}    # card 1 is not discarded
    assert end.hands[SCIENTIST] == tuple(sorted((3, 8, after.decks[SCIENTIST][0])))
    assert len(end.decks[SCIENTIST]) == 5


def test_R10_1_no_active_scientist_no_gas_but_still_the_shuffle():
    rows = [r.replace("S", "s") for r in GAS]
    s = reveal(rows, 9, 1, scientist_hand="3 8", scientist_deck="2 7", scientist_discard="4 5 6")
    assert s.phase is Phase.AP and s.ap.side is RAPTOR
    assert sorted(s.decks[SCIENTIST]) == [1, 2, 4, 5, 6, 7]


def test_R10_4_gas_x2_puts_one_or_two_babies_to_sleep():
    s = reveal(GAS, 9, 4)
    assert acts(s, SCIENTIST) == actset("gas C1, gas C3, gas B5, gas K2")
    s1 = play(s, SCIENTIST, "gas K2")
    assert acts(s1, SCIENTIST) == actset("gas C1, gas C3, gas B5, end")
    s2 = play(s1, SCIENTIST, "gas B5")
    assert cells(s2, BABY_ASLEEP_NEW) == {"K2", "B5"}
    assert s2.phase is Phase.AP and s2.ap.side is RAPTOR and s2.ap.remaining == 5
    assert s2.picks[SCIENTIST] == 4   # no shuffle: the card waits for the discard
    stopped = play(s1, SCIENTIST, "end")
    assert cells(stopped, BABY_ASLEEP_NEW) == {"K2"}


# --- R10.2 Reinforcements ---
#             BCDEFGHIJKL
EDGES = ["S#B..M.*...",   # rock C1, baby D1, mother G1, fire I1
         "...........",
         "...........",
         "...........",
         "...........",
         ".S.s.....#S"]   # scientist C6, frightened E6, rock K6, scientist L6


def test_R10_2_worked_example_counting_the_free_long_edge_spaces():
    s = reveal(EDGES, 9, 2)
    free = {f"{c}1" for c in "EFHJK"} | {f"{c}6" for c in "DFGHIJ"}
    assert acts(s, SCIENTIST) == {f"R@{q}" for q in free}
    assert len(free) == 11   # 18 long-edge spaces minus C1 D1 G1 I1 C6 E6 K6


def test_R10_2_one_or_two_scientists_from_the_reserve():
    s = reveal(EDGES, 9, 6)
    assert s.reserve == 6
    s1 = play(s, SCIENTIST, "R@F6")
    assert cell(s1, "F6") == SCIENTIST_ACTIVE and s1.reserve == 5
    assert "end" in acts(s1, SCIENTIST) and "R@F6" not in acts(s1, SCIENTIST)
    assert len(acts(s1, SCIENTIST)) == 11   # 10 spaces left and 'end'
    s2 = play(s1, SCIENTIST, "R@E1")
    assert s2.reserve == 4 and s2.phase is Phase.AP and s2.ap.remaining == 3
    assert cells(s2, SCIENTIST_ACTIVE) == {"B1", "C6", "L6", "F6", "E1"}


def test_R10_2_a_reserve_of_one_places_one():
    s = reveal(EDGES, 9, 2, reserve=1, killed=5)
    after = play(s, SCIENTIST, "R@K1")
    assert after.reserve == 0 and after.phase is Phase.AP and after.ap.side is RAPTOR


def test_R10_2_an_empty_reserve_does_nothing():
    s = reveal(EDGES, 9, 2, reserve=0, killed=6)
    assert s.phase is Phase.AP and s.ap.side is RAPTOR and s.ap.remaining == 7


# --- R10.3 Jeep ---
#           BCDEFGHIJKL
JEEP = ["..S........",   # scientist D1
        "...........",
        "...........",
        "..S**.*#...",   # scientist D4, fires E4 F4, fire H4, rock I4
        "..B........",   # baby D5
        "......M...."]   # mother H6


def jeeps(s, frm: str) -> set[str]:
    return {a for a in acts(s, SCIENTIST) if a.startswith(frm + "-")}


def test_R10_3_a_jeep_drives_straight_and_stops_before_rocks_figurines_exits_edges():
    s = reveal(JEEP, 9, 3)
    assert jeeps(s, "D4") == actset("D4-D3, D4-D2",                 # D1: another scientist
                                    "D4-E4, D4-F4, D4-G4, D4-H4",   # I4: a rock
                                    "D4-C4, D4-B4")                 # D5: a baby; then the edge
    assert jeeps(s, "D1") == actset("D1-C1, D1-B1",                 # A1: an exit
                                    "D1-E1, D1-F1, D1-G1, D1-H1, D1-I1, D1-J1, D1-K1, D1-L1",
                                    "D1-D2, D1-D3")                 # D4: another scientist
    assert "end" not in acts(s, SCIENTIST)


def test_R10_3_fire_on_every_entered_space_goes_back_to_the_supply_final_space_included():
    s = reveal(JEEP, 9, 3)
    assert s.fire_supply == 7
    after = play(s, SCIENTIST, "D4-H4")
    assert cell(after, "H4") == SCIENTIST_ACTIVE and cell(after, "D4") == EMPTY
    assert cells(after, FIRE) == set() and after.fire_supply == 10
    assert {engine.square_name(q) for q in after.events[0].cells} == {"E4", "F4", "H4"}
    short = play(s, SCIENTIST, "D4-E4")
    assert cells(short, FIRE) == {"F4", "H4"} and short.fire_supply == 8


def test_R10_3_jeep_x2_one_or_two_moves_the_same_scientist_may_drive_twice():
    s = reveal(JEEP, 9, 3)
    s1 = play(s, SCIENTIST, "D4-G4")
    assert "end" in acts(s1, SCIENTIST)
    assert jeeps(s1, "G4") == actset("G4-G3, G4-G2, G4-G1", "G4-H4", "G4-G5, G4-G6",
                                     "G4-F4, G4-E4, G4-D4, G4-C4, G4-B4")
    s2 = play(s1, SCIENTIST, "G4-G1")
    assert cell(s2, "G1") == SCIENTIST_ACTIVE and cells(s2, FIRE) == {"H4"}
    assert s2.phase is Phase.AP and s2.ap.side is RAPTOR and s2.ap.remaining == 6


def test_R10_3_jeep_x4_up_to_four_moves():
    s = reveal(JEEP, 9, 8)
    for move in ("D4-D2", "D2-K2", "K2-K5"):
        s = play(s, SCIENTIST, move)
        assert s.phase is Phase.EFFECT and "end" in acts(s, SCIENTIST)
    s = play(s, SCIENTIST, "K5-E5")   # the fourth and last move
    assert s.phase is Phase.AP and s.ap.remaining == 1
    assert cells(s, SCIENTIST_ACTIVE) == {"D1", "E5"}


def test_R10_3_a_jeep_move_is_not_an_aggressive_action():
    rows = ["...........", "...........", "...........", "..S........", "...........",
            "..B...M...."]
    s = reveal(rows, 9, 3)
    s = play(s, SCIENTIST, "D4-D5", "D5-F5")
    assert cell(s, "F5") == SCIENTIST_ACTIVE


# --- R10.5 Fire x2 / Fire x3 ---
#           BCDEFGHIJKL
FIRES = ["...........",
         "..S........",   # scientist D2
         "...........",
         "......*....",   # fire H4
         "........s..",   # frightened scientist J5: no fire beside it
         "M.........."]   # mother B6


def test_R10_5_fire_goes_beside_an_active_scientist_or_a_fire_both_tokens_mandatory():
    s = reveal(FIRES, 9, 5)
    first = actset("fire D1, fire E2, fire D3, fire C2", "fire H3, fire I4, fire H5, fire G4")
    assert acts(s, SCIENTIST) == first
    s1 = play(s, SCIENTIST, "fire G4")
    # A token placed this round counts; no 'end': the second token is mandatory.
    assert acts(s1, SCIENTIST) == (first - {"fire G4"}) | actset("fire G3, fire F4, fire G5")
    s2 = play(s1, SCIENTIST, "fire F4")
    assert cells(s2, FIRE) == {"H4", "G4", "F4"} and s2.fire_supply == 7
    assert s2.phase is Phase.AP and s2.ap.side is RAPTOR and s2.ap.remaining == 4


def test_R10_5_fire_x3_places_three():
    s = reveal(FIRES, 9, 7)
    s = play(s, SCIENTIST, "fire E2", "fire F2")
    assert s.phase is Phase.EFFECT and "end" not in acts(s, SCIENTIST)
    s = play(s, SCIENTIST, "fire G2")
    assert cells(s, FIRE) == {"H4", "E2", "F2", "G2"} and s.phase is Phase.AP


def test_R10_5_only_tokens_in_the_supply_can_be_placed():
    rows = ["..******...", "..S........", "...........", "......**...", "........s..",
            "M.........."]   # 8 fire tokens on the board: 2 in the supply
    s = reveal(rows, 9, 7)
    assert s.fire_supply == 2
    s = play(s, SCIENTIST, "fire D3", "fire C2")
    assert s.fire_supply == 0 and s.phase is Phase.AP   # Fire x3 stops at the empty supply
    rows[0] = "..********."
    s = reveal(rows, 9, 5)
    assert s.fire_supply == 0 and s.phase is Phase.AP   # nothing to place: skipped


def test_R10_5_fire_x2_with_room_for_one_token_places_one():
    rows = ["S.#........",   # scientist B1; C1 is its only free neighbour (A1 is an exit)
            "##.........",   # rocks B2 C2
            "...........",
            "......M....",
            "...........",
            "..........."]
    s = reveal(rows, 9, 5)
    assert acts(s, SCIENTIST) == actset("fire C1")
    after = play(s, SCIENTIST, "fire C1")
    assert after.phase is Phase.AP and cells(after, FIRE) == {"C1"}


def test_R10_6_the_scientists_9_has_no_effect():
    rows = ["S..........", "...........", "...........", "...........", "...........",
            ".....M....."]
    tie = reveal(rows, 9, 9)
    assert tie.phase is Phase.PICK and tie.round == 2  # equal 9s: nothing happens (R5.3)
    assert [e.kind for e in tie.events if e.kind in ("effect", "ap")] == []
    # a 9 is never the lower card: against a raptor 5 with nothing to recover the raptor's
    # card resolves (no unit possible) and the 9 only gives 4 AP; the board is unchanged
    s = reveal(rows, 5, 9)
    assert [(e.kind, e.side, e.value) for e in s.events if e.kind in ("effect", "ap")] == [
        ("effect", RAPTOR, 5), ("ap", SCIENTIST, 4)]
    assert s.phase is Phase.AP and s.ap.remaining == 4 and s.board == tie.board
    assert EFFECTS[(SCIENTIST, 9)] == ("none", 0, 0)


def test_R10_scientist_effect_table():
    assert {c: EFFECTS[(SCIENTIST, c)] for c in range(1, 10)} == {
        1: ("gas", 1, 1), 2: ("reinforce", 2, 1), 3: ("jeep", 2, 1), 4: ("gas", 2, 1),
        5: ("fire", 2, 2), 6: ("reinforce", 2, 1), 7: ("fire", 3, 3), 8: ("jeep", 4, 1),
        9: ("none", 0, 0)}
    assert engine.card_name(SCIENTIST, 8) == "Jeep ×4"
    assert engine.card_name(RAPTOR, 4) == "Mother's Call ×2"


def test_R10_1_R10_2_the_card_table_flags_the_shuffle_and_repeats():
    table = {c.value: c for c in engine.CARD_TABLE if c.side is SCIENTIST}
    assert [v for v, c in table.items() if c.shuffles] == [1]
    assert [v for v, c in table.items() if c.disappears] == []
    assert table[6].same_as == 2 and engine.effect_text(SCIENTIST, 6) == table[2].text
    assert [c.rule for c in table.values()] == [
        "R10.1", "R10.2", "R10.3", "R10.4", "R10.5", "R10.2", "R10.5", "R10.3", "R10.6"]
    assert len(engine.CARD_TABLE) == 18 and engine.CARD_VALUES == tuple(range(1, 10))


def test_R10_4_R5_4_gas_x2_with_one_baby_in_range_gasses_it_and_stops():
    rows = ["S..........", ".B.........", "...........", "...........", "........B..",
            ".....M....."]   # scientist B1 (X1): only the baby C2 (T1) is in range
    s = reveal(rows, 9, 4)
    assert acts(s, SCIENTIST) == actset("gas C2")
    after = play(s, SCIENTIST, "gas C2")
    assert after.phase is Phase.AP and after.ap.side is RAPTOR and after.ap.remaining == 5
    assert cells(after, BABY_ASLEEP_NEW) == {"C2"}
