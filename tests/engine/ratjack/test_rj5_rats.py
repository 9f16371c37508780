"""RJ5 Rats (Red and Blue decks): each effect, the case where it cannot be played face up
(RJ4.2) and the case where a flip triggers it and it is skipped (RJ4.4)."""

from __future__ import annotations

import pytest

from engine.ratjack import IllegalActionError, Phase, parse_action, total, view

from .conftest import (
    acts,
    assert_skipped,
    blocked,
    kinds,
    line,
    play,
    pos,
    row,
    triggered,
    who,
)

#: The lines of the base position (p1 to play ``card`` with B11 in hand, three players).
BASE = {
    "phase": "action", "players": "3", "deck": "B9 B8 B6", "discard": "B7",
    "p1 hand": "{card} B11", "p1 display": "B3 ~B10", "p2 hand": "B4",
    "p2 display": "~B2 B5", "p3 hand": "R1", "p3 display": "R12",
}


def base(card: str, **lines: str):
    """The base position with ``card`` in p1's hand; keyword lines replace lines
    (``p2_display="..."``)."""
    table = dict(BASE, **{k.replace("_", " "): v for k, v in lines.items()})
    return pos("\n".join(f"{k}: {v.replace('{card}', card)}" for k, v in table.items()))


def test_RJ5_1_rat_1_a_token_on_one_of_your_visible_cards():
    s = play(base("B1"), "up B1")
    assert acts(s) == ["+1", "+2", "+3", "+4", "+5", "+10"]
    s = play(s, "+5")
    assert acts(s) == ["p1@1", "p1@3"]  # B3 and Rat 1 itself, not the hidden R10
    s = play(s, "p1@1")
    assert row(s, 0) == "B3[+5] ~B10 B1" and total(s, 0) == 9 and who(s) == 1


def test_RJ5_2_rat_2_the_discard_top_face_down_in_your_display():
    s = play(base("R2"), "up R2")
    assert row(s, 0) == "B3 ~B10 R2 ~B7{*}" and line(s, "discard") == ""
    assert [x.card for x in view(s, 2).displays[0]] == ["B3", None, "R2", "B7"]  # all saw it
    assert who(s) == 1


def test_RJ5_2_after_a_discard_action_rat_2_takes_the_card_just_discarded():
    s = pos("""
        phase: action
        discard:
        p1 hand: B8 R4
        p1 display: ~R2
        p2 hand: B4
        p2 display: B5
    """)
    s = play(s, "discard B8", "flip @1")
    assert row(s, 0) == "R2 ~B8{*}" and line(s, "discard") == ""


def test_RJ5_3_rat_3_another_full_turn_one_per_rat_3():
    s = play(base("R3"), "up R3")
    assert s.extra_turns == 0 and who(s) == 0 and s.phase is Phase.DRAW and s.turn == 2
    s = play(s, "draw deck", "down B9")  # the extra turn is a full turn
    assert who(s) == 1 and s.turn == 3


def test_RJ5_3_extra_turns_add_up_and_are_lost_when_eliminated():
    s = pos("""
        phase: action
        p1 hand: R3 B6
        p1 display: ~B3
        p2 hand: B4
        p2 display: B5
    """)
    s = play(s, "up R3")  # +1
    s = play(s, "draw deck")
    s = play(s, "up B6", "p1@1")  # B6 flips B3: Rat 3 triggers, +1 again
    assert s.current == 0 and s.extra_turns == 0 and s.turn == 3
    s = pos("""
        phase: action
        p1 hand: R3 B10
        p1 display: R12 B12
        p2 hand: B4
        p2 display: B5
    """)
    s = play(s, "up R3")  # 27 at the end of the turn: out, the extra turn lost (RJ8.2)
    assert s.round == 2 and s.vp == [0, 1]


def test_RJ5_3_rat_3_needs_nothing():
    s = pos("""
        phase: action
        deck: .
        chips: +1 +2 +3 +4 +5 +10
        p1 hand: R3 B1
        p1 display:
        p2 hand: B4
        p2 display: B5[+1 +2 +3 +4 +5 +10]
    """)
    assert acts(s)[0] == "up R3" and "up B1" not in acts(s)


def test_RJ5_4_rat_4_a_token_on_an_opponents_hidden_card():
    s = play(base("R4"), "up R4", "+10")
    assert acts(s) == ["p2@1"]
    s = play(s, "p2@1")
    assert row(s, 1) == "~B2[+10] B5" and total(s, 1) == 5


def test_RJ5_5_rat_5_look_at_an_opponents_hidden_card_only_you_learn_it():
    s = play(base("R5"), "up R5")
    assert acts(s) == ["p2@1"]
    s = play(s, "p2@1")
    assert row(s, 1) == "~B2{p1} B5"
    assert view(s, 0).displays[1][0].card == "B2"
    assert view(s, 2).displays[1][0].card is None and view(s, None).displays[1][0].card is None
    assert view(s, 2).displays[1][0].seen == {0}  # that p1 looked is public (RJ11.1)
    assert s.events[-1].target == "p2@1" and s.events[-1].card is None


def test_RJ5_6_rat_6_flip_one_of_your_hidden_cards_its_effect_triggers():
    s = play(base("R6"), "up R6")
    assert acts(s) == ["p1@2"]
    s = play(s, "p1@2")  # B10 triggers: turn an opponent's visible card face down
    assert kinds(s)[-2:] == ["revealed", "trigger"] and acts(s) == ["p2@2", "p3@1"]
    s = play(s, "p3@1")
    assert row(s, 0) == "B3 B10 R6" and row(s, 2) == "~R12{*}" and who(s) == 1


def test_RJ5_7_rat_7_swap_another_visible_card_of_yours_with_an_opponents():
    s = play(base("R7", p1_display="B3 ~B10 R11"), "up R7")
    assert acts(s) == ["p1@1", "p1@3"]  # not R7 itself, not the hidden R10
    s = play(s, "p1@3")
    assert acts(s) == ["p2@2", "p3@1"]
    s = play(s, "p3@1")
    assert row(s, 0) == "B3 ~B10 R12 R7" and row(s, 2) == "R11"
    assert "trigger" not in kinds(s) and who(s) == 1


def test_RJ5_8_rat_8_a_token_on_any_one_of_your_cards():
    s = play(base("R8"), "up R8", "+2")
    assert acts(s) == ["p1@1", "p1@2", "p1@3"]  # the hidden one too
    s = play(s, "p1@2")
    assert row(s, 0) == "B3 ~B10[+2] R8" and total(s, 0) == 11


def test_RJ5_9_rat_9_move_a_chip_from_an_opponents_card_onto_yours():
    s = play(base("R9", p2_display="~B2[+1] B5[+3]", p1_display="B3[+4] ~B10"), "up R9")
    assert acts(s) == ["+1", "+3"]  # not p1's own +4
    s = play(s, "+3", "p1@3")
    assert row(s, 0) == "B3[+4] ~B10 R9[+3]" and row(s, 1) == "~B2[+1] B5"


def test_RJ5_10_rat_10_turn_an_opponents_visible_card_face_down():
    s = play(base("R10"), "up R10")
    assert acts(s) == ["p2@2", "p3@1"]
    s = play(s, "p2@2")
    assert row(s, 1) == "~B2 ~B5{*}" and view(s, 2).displays[1][1].card == "B5"
    assert total(s, 1) == 0


def test_RJ5_11_rat_11_discard_the_top_two_cards_of_the_deck():
    s = play(base("R11"), "up R11")
    assert line(s, "discard") == "B7 B9 B8" and line(s, "deck").startswith("B6 ")
    assert who(s) == 1


def test_RJ5_12_rat_12_turn_an_opponents_hidden_card_face_up_without_trigger():
    s = play(base("B12"), "up B12")
    assert acts(s) == ["p2@1"]
    s = play(s, "p2@1")  # B2 comes up: no trigger (RJ4.9)
    assert row(s, 1) == "B2 B5" and line(s, "discard") == "B7" and who(s) == 1


# --------------------------------------------------------------------------- RJ4.2, RJ4.4
ALL_CHIPS_OUT = """
    p1 display: B3[+1 +2 +3]
    p2 hand: B11
    p2 display: ~B5[+4 +5 +10]
"""
NO_OPP_HIDDEN = """
    p1 display: B3 ~B10
    p2 hand: B11
    p2 display: B5
"""
NO_OPP_VISIBLE = """
    p1 display: B3 ~B10
    p2 hand: B11
    p2 display: ~B5
"""
#: (card, position without p1's hand, what the refusal says is missing, flip by Rat 6)
CANNOT_PLAY_UP = [
    ("R1", ALL_CHIPS_OUT, "a bonus token in the reserve", False),
    ("B2", NO_OPP_VISIBLE, "a card in the discard pile", True),
    ("R4", ALL_CHIPS_OUT, "a bonus token in the reserve", False),
    ("B4", NO_OPP_HIDDEN, "an opponent's hidden card", False),
    ("R5", NO_OPP_HIDDEN, "an opponent's hidden card", False),
    ("R6", "p1 display: B3\np2 hand: B11\np2 display: ~B5", "a hidden card of yours", False),
    ("R7", "p1 display: ~B3\np2 hand: B11\np2 display: B5", "another visible card of yours",
     False),
    ("B7", NO_OPP_VISIBLE, "an opponent's visible card", False),
    ("R8", ALL_CHIPS_OUT, "a bonus token in the reserve", False),
    ("R9", "p1 display: B3[+1]\np2 hand: B11\np2 display: B5", "a bonus token on an opponent's "
     "card", False),
    ("R10", NO_OPP_VISIBLE, "an opponent's visible card", False),
    ("R11", "deck: B9 .\np1 display: B3\np2 hand: B11\np2 display: B5", "2 cards in the deck",
     False),
    ("R12", NO_OPP_HIDDEN, "an opponent's hidden card", False),
]


@pytest.mark.parametrize(("card", "text", "need", "by_rat6"), CANNOT_PLAY_UP,
                         ids=[c[0] for c in CANNOT_PLAY_UP])
def test_RJ4_2_a_rat_that_cannot_be_fully_resolved_cannot_be_played_up(card, text, need,
                                                                        by_rat6):
    s = blocked(card, text, "rb")
    assert f"up {card}" not in acts(s) and f"down {card}" in acts(s)
    with pytest.raises(IllegalActionError, match=f"{card} cannot be played face up: its "
                                                 f"effect needs {need}"):
        parse_action(f"up {card}", s, 0)


@pytest.mark.parametrize(("card", "text", "need", "by_rat6"), CANNOT_PLAY_UP,
                         ids=[c[0] for c in CANNOT_PLAY_UP])
def test_RJ4_4_a_rat_triggered_when_not_fully_resolvable_is_skipped(card, text, need,
                                                                   by_rat6):
    assert_skipped(triggered(card, text, "rb", by_rat6=by_rat6), card)
