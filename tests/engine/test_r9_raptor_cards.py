"""R9 Raptor cards, resolved when the raptor's card is the lower one: Mother's Call (and its
shuffle), Disappearance and Observation, Fear, Recovery."""

from __future__ import annotations

import pytest

import engine
from engine import EFFECTS, CallBaby, IllegalActionError, Phase, square
from engine.geometry import BOARD_SQUARES
from engine.state import (
    BABY,
    BABY_ASLEEP,
    EMPTY,
    MOTHER,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
)

from .conftest import RAPTOR, SCIENTIST, acts, actset, board, cell, cells, play


def hand_with(card: int) -> str:
    """A hand of three holding ``card`` (with the lowest other values)."""
    return " ".join(str(c) for c in sorted([card] + [c for c in range(1, 10) if c != card][:2]))


def reveal(rows, raptor_card: int, scientist_card: int, **keys):
    """The position right after both picks; the raptor's card already lies on the table."""
    keys.setdefault("raptor_pick", raptor_card)
    keys.setdefault("scientist_hand", hand_with(scientist_card))
    s = board(rows, **keys)
    return play(s, SCIENTIST, f"play {scientist_card}")


def calls(s) -> set[str]:
    return {a for a in acts(s, RAPTOR) if a != "end"}


# --- R9.1 Mother's Call and Shuffle ---
#       BCDEFGHIJKL
CALL = ["...#.#....S",   # rock E1 (a wall down column E), rock G1 (on T2), scientist L1
        "...*.M...b.",   # fire E2, mother G2 (T2), sleeping baby K2
        "...#..B....",   # rock E3, baby H3 already on T2
        "...*......B",   # fire E4, baby L4 with a free path
        ".B.*....*..",   # baby C5 behind the wall, fire E5, fire J5
        "...#...*B*."]   # rock E6, baby J6 boxed in by the fires I6 K6 J5
T2_FREE = ["F1", "H1", "F2", "H2", "F3", "G3"]


def test_R9_1_worked_example_babies_without_a_free_path_cannot_be_called():
    s = reveal(CALL, 1, 5, raptor_hand="4 7", raptor_deck="2 3 9", raptor_discard="5 6 8")
    assert s.phase is Phase.EFFECT and (s.effect.side, s.effect.card) == (RAPTOR, 1)
    assert acts(s, RAPTOR) == {f"L4-{q}" for q in T2_FREE} | {f"H3-{q}" for q in T2_FREE}
    for frm, to in (("C5", "F3"), ("J6", "H2"), ("K2", "H2"), ("H3", "H3"), ("L4", "G1")):
        with pytest.raises(IllegalActionError):
            engine.apply(s, RAPTOR, CallBaby(square(frm), square(to)))


def test_R9_1_the_call_moves_the_baby_then_shuffles_deck_discard_and_card_1():
    s = reveal(CALL, 1, 5, raptor_hand="4 7", raptor_deck="2 3 9", raptor_discard="5 6 8")
    after = play(s, RAPTOR, "L4-F1")
    assert cell(after, "F1") == BABY and cell(after, "L4") == EMPTY
    assert after.hands[RAPTOR] == (4, 7)                    # the hand stays
    assert sorted(after.decks[RAPTOR]) == [1, 2, 3, 5, 6, 8, 9]
    assert after.discards[RAPTOR] == () and after.picks[RAPTOR] is None
    assert after.shuffles == s.shuffles + 1
    assert after.phase is Phase.AP and after.ap.side is SCIENTIST and after.ap.remaining == 4
    assert [e.kind for e in after.events] == ["called", "shuffled", "ap"]
    called = after.events[0]                                # the way the baby went
    assert called.cells[0] == square("L4") and called.cells[-1] == square("F1")
    assert called.cells == engine.predicates.call_path(s.board, square("L4"), square("F1"))
    end = play(after, SCIENTIST, "end")
    assert end.discards == {RAPTOR: (), SCIENTIST: (5,)}    # card 1 is not in the discard
    assert end.hands[RAPTOR] == tuple(sorted((4, 7, after.decks[RAPTOR][0])))
    assert end.decks[RAPTOR] == after.decks[RAPTOR][1:]


def test_R9_1_a_baby_already_on_the_mothers_tile_may_change_space():
    s = reveal(CALL, 1, 5)
    after = play(s, RAPTOR, "H3-F1")
    assert cell(after, "F1") == BABY and cell(after, "H3") == EMPTY


def test_R9_1_with_no_baby_to_call_the_card_still_shuffles():
    rows = [r.replace("B", ".") if i in (2, 3) else r for i, r in enumerate(CALL)]
    s = reveal(rows, 1, 5, raptor_hand="4 7", raptor_deck="2 3 9", raptor_discard="5 6 8")
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST
    assert sorted(s.decks[RAPTOR]) == [1, 2, 3, 5, 6, 8, 9] and s.discards[RAPTOR] == ()
    assert cells(s, BABY) == {"C5", "J6"}


def test_R9_1_the_path_never_crosses_fire_or_figurines():
    #          BCDEFGHIJKL
    rows = ["S..........",
            ".....M.....",   # mother G2
            "....S......",   # scientist F3 (on T2)
            "...*B*.....",   # baby F4 between the fires E4 and G4
            "....*......",   # fire F5
            "..........."]
    s = reveal(rows, 1, 5)
    assert calls(s) == set()
    rows[2] = "..........."  # without the scientist, F3 opens the way
    s = reveal(rows, 1, 5)
    assert calls(s) == {f"F4-{q}" for q in ("F1", "G1", "H1", "F2", "H2", "F3", "G3", "H3")}


# --- R9.2 Disappearance and Observation ---
#           BCDEFGHIJKL
HIDE = ["S.....S....",   # scientists B1 and H1, in line with the mother on row 1 / column H
        "...........",
        "..b........",   # sleeping baby D3
        "......M...S",   # mother H4, scientist L4 in line with her
        "...........",
        "....B......"]   # baby F6


@pytest.mark.parametrize("card", [2, 6])
def test_R9_2_the_mother_leaves_the_board_and_cannot_be_shot(card):
    s = reveal(HIDE, card, 9, sleep=2)
    assert s.mother_off and s.mother is None and cells(s, MOTHER) == set()
    assert s.sleep_tokens == 2
    assert s.observe_next and not s.observation
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST and s.ap.remaining == 9 - card
    assert not any("shoot" in a for a in acts(s, SCIENTIST))
    assert [e.kind for e in s.events][-3:] == ["effect", "disappeared", "ap"]


def test_R9_2_after_the_scientists_AP_the_mother_returns_to_any_free_space():
    s = reveal(HIDE, 6, 8)
    s = play(s, SCIENTIST, "L4-K4")   # 1 of the 2 AP
    assert s.phase is Phase.AP and s.ap.remaining == 1
    s = play(s, SCIENTIST, "end")
    assert s.phase is Phase.MOTHER_RETURN and engine.to_act(s) == {RAPTOR}
    assert engine.legal_actions(s, SCIENTIST) == []
    free = [q for q in BOARD_SQUARES if s.board[q] == EMPTY]
    assert len(free) == 66 - 3 - 2   # no rocks here; 3 scientists and 2 babies
    assert acts(s, RAPTOR) == {f"M@{engine.square_name(q)}" for q in free}
    for bad in ("H1", "D3", "A1"):
        with pytest.raises(IllegalActionError):
            engine.apply(s, RAPTOR, engine.PlaceMother(square(bad)))
    back = play(s, RAPTOR, "M@K5")
    assert back.mother == square("K5") and not back.mother_off
    assert back.phase is Phase.PICK and back.round == 2
    assert back.observation and not back.observe_next
    assert back.discards == {RAPTOR: (6,), SCIENTIST: (8,)}


def test_R9_2_the_mother_returns_even_when_the_scientist_has_nothing_to_do():
    # The only scientist was frightened this round: it may not even stand (R8.2).
    rows = ["f..........", "...........", "...........", "......M....", "...........",
            "..........."]
    s = reveal(rows, 2, 5)
    assert s.phase is Phase.MOTHER_RETURN   # 3 AP, nothing possible: straight to the return
    assert len(acts(s, RAPTOR)) == 65


# --- R9.3 Fear, R9.6 Fear x2 ---
#           BCDEFGHIJKL
FEAR = ["S.........s",   # active B1, frightened L1
        "...........",
        "......M....",
        "...........",
        "....B......",
        "S.........S"]   # active B6, L6


def test_R9_3_fear_frightens_one_active_scientist():
    s = reveal(FEAR, 3, 7)
    assert acts(s, RAPTOR) == actset("fear B1, fear B6, fear L6")
    after = play(s, RAPTOR, "fear B6")
    assert cell(after, "B6") == SCIENTIST_FRIGHTENED_NEW
    assert cell(after, "L1") == SCIENTIST_FRIGHTENED
    assert after.phase is Phase.AP and after.ap.side is SCIENTIST and after.ap.remaining == 4
    assert cells(after, SCIENTIST_ACTIVE) == {"B1", "L6"}


def test_R9_6_fear_x2_frightens_one_or_two_scientists():
    s = reveal(FEAR, 8, 9)
    assert acts(s, RAPTOR) == actset("fear B1, fear B6, fear L6")
    s1 = play(s, RAPTOR, "fear L6")
    assert acts(s1, RAPTOR) == actset("fear B1, fear B6, end")
    s2 = play(s1, RAPTOR, "fear B1")
    assert cells(s2, SCIENTIST_FRIGHTENED_NEW) == {"L6", "B1"}
    assert s2.phase is Phase.AP and s2.ap.remaining == 1
    stopped = play(s1, RAPTOR, "end")
    assert cells(stopped, SCIENTIST_FRIGHTENED_NEW) == {"L6"}
    assert stopped.phase is Phase.AP and stopped.ap.remaining == 1


def test_R9_6_fear_x2_with_a_single_active_scientist_frightens_it_and_stops():
    rows = ["s.........s", "...........", "......M....", "...........", "....B......",
            "S.........s"]
    s = reveal(rows, 8, 9)
    assert acts(s, RAPTOR) == actset("fear B6")
    after = play(s, RAPTOR, "fear B6")
    assert after.phase is Phase.AP and after.ap.side is SCIENTIST


# --- R9.4 Mother's Call x2 ---
def test_R9_4_calls_one_or_two_different_babies_without_a_shuffle():
    s = reveal(CALL, 4, 7, raptor_hand="2 9", raptor_deck="1 3", raptor_discard="5 6 8")
    both = {f"L4-{q}" for q in T2_FREE} | {f"H3-{q}" for q in T2_FREE}
    assert acts(s, RAPTOR) == both                       # the first call is mandatory
    s1 = play(s, RAPTOR, "H3-F1")
    # The baby now on F1 was called already: only L4 may follow, to any free T2 space.
    assert acts(s1, RAPTOR) == {f"L4-{q}" for q in ("H1", "F2", "H2", "F3", "G3", "H3")} | {
        "end"}
    s2 = play(s1, RAPTOR, "L4-H3")
    assert cells(s2, BABY) == {"F1", "H3", "C5", "J6"}
    assert s2.phase is Phase.AP and s2.ap.side is SCIENTIST and s2.ap.remaining == 3
    assert s2.decks[RAPTOR] == (1, 3) and s2.picks[RAPTOR] == 4   # no shuffle
    end = play(s2, SCIENTIST, "end")
    assert end.discards[RAPTOR] == (5, 6, 8, 4)


def test_R9_4_a_called_baby_cannot_be_called_again():
    s = reveal(CALL, 4, 7)
    s1 = play(s, RAPTOR, "L4-G3")
    assert not any(a.startswith("G3-") for a in acts(s1, RAPTOR))
    with pytest.raises(IllegalActionError):
        engine.apply(s1, RAPTOR, CallBaby(square("G3"), square("F3")))
    assert s1.effect.called == (square("G3"),)


def test_R9_4_the_second_call_is_optional():
    s = play(reveal(CALL, 4, 7), RAPTOR, "L4-G3")
    after = play(s, RAPTOR, "end")
    assert after.phase is Phase.AP and cells(after, BABY) == {"G3", "H3", "C5", "J6"}


# --- R9.5 Recovery x2 / x3 ---
#           BCDEFGHIJKL
SLEEPY = ["S..........",
          "..b........",   # sleeping baby D2
          "......M....",
          "...........",
          ".........b.",   # sleeping baby K5, far from the mother
          "....B.....S"]


def test_R9_5_recovery_x2_up_to_two_units_heal_or_wake_anywhere():
    s = reveal(SLEEPY, 5, 9, sleep=2)
    assert acts(s, RAPTOR) == actset("heal, wake D2, wake K5")
    s1 = play(s, RAPTOR, "heal")
    assert s1.sleep_tokens == 1
    assert acts(s1, RAPTOR) == actset("heal, wake D2, wake K5, end")
    s2 = play(s1, RAPTOR, "wake K5")
    assert cell(s2, "K5") == BABY and cell(s2, "D2") == BABY_ASLEEP
    assert s2.phase is Phase.AP and s2.ap.remaining == 4


def test_R9_5_recovery_x3_heals_until_no_token_is_left():
    s = reveal(SLEEPY, 7, 9, sleep=2)
    s = play(s, RAPTOR, "heal", "heal")
    assert s.sleep_tokens == 0
    assert acts(s, RAPTOR) == actset("wake D2, wake K5, end")
    s = play(s, RAPTOR, "wake D2")
    assert s.phase is Phase.AP and s.ap.remaining == 2
    assert cells(s, BABY) == {"D2", "F6"}


def test_R9_5_recovery_with_nothing_to_recover_is_skipped():
    rows = [r.replace("b", "B") for r in SLEEPY]
    s = reveal(rows, 5, 9)
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST and s.ap.remaining == 4


def test_R9_5_recovery_stops_when_nothing_more_can_be_recovered():
    s = reveal(SLEEPY, 7, 9, sleep=0)
    s = play(s, RAPTOR, "wake D2", "wake K5")
    assert s.phase is Phase.AP   # the third unit has nothing left: the effect ends
    lost = next(e for e in s.events if e.kind == "effect_lost")
    assert (lost.value, lost.value2, lost.text) == (
        1, 7, "the mother holds no sleep token and no baby is asleep")


# --- R9.7 and the effect table ---
def test_R9_raptor_effect_table():
    assert {c: EFFECTS[(RAPTOR, c)] for c in range(1, 10)} == {
        1: ("call", 1, 1), 2: ("disappear", 0, 0), 3: ("fear", 1, 1), 4: ("call", 2, 1),
        5: ("recover", 2, 1), 6: ("disappear", 0, 0), 7: ("recover", 3, 1),
        8: ("fear", 2, 1), 9: ("none", 0, 0)}


def test_R9_1_R9_2_the_card_table_flags_the_shuffle_disappearance_and_repeats():
    table = {c.value: c for c in engine.CARD_TABLE if c.side is RAPTOR}
    assert [v for v, c in table.items() if c.shuffles] == [1]
    assert [v for v, c in table.items() if c.disappears] == [2, 6]
    assert table[6].same_as == 2 and table[6].text == "As card 2."
    assert engine.effect_text(RAPTOR, 6) == table[2].text
    assert [c.rule for c in table.values()] == [
        "R9.1", "R9.2", "R9.3", "R9.4", "R9.5", "R9.2", "R9.5", "R9.6", "R9.7"]
    assert engine.card(RAPTOR, 7).unit is engine.Unit.RECOVER


def test_R9_2_R5_7_a_win_during_the_scientists_AP_ends_the_game_before_the_return():
    #          BCDEFGHIJKL
    rows = ["S..........",
            "..b........",   # sleeping baby D2
            "..S........",   # scientist D3 beside it
            "...........",
            "......M....",   # the mother H5, soon off the board
            "..........."]
    s = reveal(rows, 2, 9, captured=2)
    assert s.mother_off and s.phase is Phase.AP
    after = play(s, SCIENTIST, "D3 capture D2")
    assert after.phase is Phase.OVER and after.winner is SCIENTIST
    assert after.reason is engine.Reason.BABIES_CAPTURED
    assert engine.to_act(after) == frozenset() and after.mother_off
