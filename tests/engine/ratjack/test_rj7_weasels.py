"""RJ7 Weasels: each effect, the case where it cannot be played face up (RJ4.2) and the case
where a flip triggers it and it is skipped (RJ4.4)."""

from __future__ import annotations

import pytest

from engine.ratjack import IllegalActionError, parse_action, to_act, total, view

from .conftest import acts, assert_skipped, blocked, hand, line, play, pos, row, triggered, who

#: The lines of the base position (p1 to play ``card`` with R11 in hand, three players).
BASE = {
    "decks": "rw", "phase": "action", "players": "3", "deck": "R9 R8 R7", "discard": "R6",
    "p1 hand": "{card} R11", "p1 display": "R3 ~R10", "p2 hand": "R4",
    "p2 display": "~R2 R5", "p3 hand": "R1", "p3 display": "R12",
}


def base(card: str, **lines: str):
    table = dict(BASE, **{k.replace("_", " "): v for k, v in lines.items()})
    return pos("\n".join(f"{k}: {v.replace('{card}', card)}" for k, v in table.items()))


def test_RJ7_1_weasel_1_exchange_your_hand_card_with_an_opponents():
    s = play(base("W1"), "up W1")
    assert acts(s) == ["p2", "p3"]
    s = play(s, "p2")
    assert hand(s, 0) == "R4{p2}" and hand(s, 1) == "R11{p1}"  # each knows what they gave
    assert view(s, 0).hands[1][0].card == "R11" and view(s, 1).hands[0][0].card == "R4"
    assert view(s, 2).hands[0][0].card is None and view(s, 2).hands[1][0].card is None
    # p2 draws and plays a card face down: which one is not public (RJ11.2 Ruling)
    s = play(s, "draw deck", "down R9")
    assert hand(s, 1) == "R11" and view(s, 0).hands[1][0].card is None


def test_RJ7_2_weasel_2_return_a_chip_from_any_card_to_the_reserve():
    s = play(base("W2", p1_display="R3[+1] ~R10", p2_display="~R2[+2] R5"), "up W2")
    assert acts(s) == ["+1", "+2"]
    s = play(s, "+2")
    assert row(s, 1) == "~R2 R5" and s.reserve == [1, 2, 3, 4, 5]


def test_RJ7_3_weasel_3_draw_look_and_put_it_face_down_in_an_opponents_display():
    s = play(base("W3"), "up W3")
    assert acts(s) == ["p2", "p3"]  # chosen after seeing the card (RJ7.3 Ruling)
    assert view(s, 0).drawn == "R9" and view(s, 1).drawn is None and view(s, 1).drawing
    assert view(s, None).drawn is None
    s = play(s, "p3")
    assert row(s, 2) == "R12 ~R9{p1}" and s.drawn is None
    assert view(s, 0).displays[2][1].card == "R9" and view(s, 2).displays[2][1].card == "R9"
    assert view(s, 1).displays[2][1].card is None


def test_RJ7_4_weasel_4_a_token_on_any_hidden_card():
    s = play(base("W4"), "up W4", "+10")
    assert acts(s) == ["p1@2", "p2@1"]
    s = play(s, "p2@1")
    assert row(s, 1) == "~R2[+10] R5"


def test_RJ7_5_weasel_5_turn_one_of_your_cards_this_one_too_to_its_other_side():
    s = play(base("W5"), "up W5")
    assert acts(s) == ["p1@1", "p1@2", "p1@3"]
    itself = play(s, "p1@3")
    assert row(itself, 0) == "R3 ~R10 ~W5{*}" and total(itself, 0) == 3
    up = play(s, "p1@2")  # R10 comes up without triggering
    assert row(up, 0) == "R3 R10 W5" and who(up) == 1


def test_RJ7_5_weasel_5_needs_nothing():
    s = pos("""
        decks: rw
        phase: action
        deck: .
        p1 hand: W5 R1
        p1 display:
        p2 hand: R4
        p2 display:
    """)
    assert "up W5" in acts(s)
    s = play(s, "up W5")
    assert acts(s) == ["p1@1"]


def test_RJ7_6_weasel_6_an_opponents_visible_card_into_your_display_face_up():
    s = play(base("W6", p3_display="R12[+3]"), "up W6")
    assert acts(s) == ["p2@2", "p3@1"]
    s = play(s, "p3@1")
    assert row(s, 0) == "R3 ~R10 W6 R12[+3]" and row(s, 2) == "" and total(s, 0) == 24


def test_RJ7_7_weasel_7_exchange_a_chip_on_your_card_with_a_reserve_chip():
    s = play(base("W7", p1_display="R3[+1] ~R10[+2]"), "up W7")
    assert acts(s) == ["+1", "+2"]
    s = play(s, "+2")
    assert acts(s) == ["+3", "+4", "+5", "+10"]
    s = play(s, "+10")
    assert row(s, 0) == "R3[+1] ~R10[+10] W7" and s.reserve == [1, 2, 3, 4]


def test_RJ7_8_weasel_8_exchange_two_chips_on_two_different_cards():
    s = play(base("W8", p1_display="R3[+1] ~R10", p2_display="~R2[+2 +3] R5"), "up W8")
    assert acts(s) == ["+1", "+2", "+3"]
    s = play(s, "+2")
    assert acts(s) == ["+1"]  # not +3: it lies on the same card
    s = play(s, "+1")
    assert row(s, 0) == "R3[+2] ~R10 W8" and row(s, 1) == "~R2[+3 +1] R5"


def test_RJ7_9_weasel_9_discard_the_top_three_cards_of_the_deck():
    s = play(base("W9"), "up W9")
    assert line(s, "discard") == "R6 R9 R8 R7" and who(s) == 1


def test_RJ7_10_weasel_10_return_a_chip_on_your_card_to_the_reserve():
    s = play(base("W10", p1_display="R3[+1] ~R10[+4]", p2_display="~R2[+2] R5"), "up W10")
    assert acts(s) == ["+1", "+4"]
    s = play(s, "+4")
    assert row(s, 0) == "R3[+1] ~R10 W10" and 3 in s.reserve


def test_RJ7_11_weasel_11_one_of_your_hidden_cards_to_the_discard_pile():
    s = play(base("W11", p1_display="R3 ~R10[+5]"), "up W11")
    assert acts(s) == ["p1@2"]
    s = play(s, "p1@2")
    assert row(s, 0) == "R3 W11" and line(s, "discard") == "R6 R10" and 4 in s.reserve
    assert s.events[-1].card == "R10"  # now public


def test_RJ7_12_weasel_12_the_chosen_opponent_puts_the_chip_on_their_own_card():
    s = play(base("W12", p1_display="R3[+3] ~R10"), "up W12")
    assert acts(s) == ["+1", "+2", "+4", "+5", "+10", "+3"]  # reserve, then on cards
    s = play(s, "+3")
    assert acts(s) == ["p2", "p3"]
    s = play(s, "p2")
    assert to_act(s) == {1} and acts(s) == ["p2@1", "p2@2"]  # p2 chooses (RJ11.4)
    assert view(s, 1).pending.chooser == 1 and view(s, 1).pending.seat == 0
    s = play(s, "p2@1")
    assert row(s, 1) == "~R2[+3] R5" and row(s, 0) == "R3 ~R10 W12" and who(s) == 1


def test_RJ7_12_an_opponent_pushed_over_25_by_weasel_12_scores_for_its_player():
    s = pos("""
        decks: rw
        phase: action
        p1 hand: W12 R1
        p1 display: R3
        p2 hand: R4
        p2 display: R12 R8
    """)
    s = play(s, "up W12", "+10", "p2", "p2@2")  # p2 must put +10 on a visible card: 30
    # RJ8.1: +1 for p1; then the round ends with p1 the last player (RJ9.2: 2 VP in all)
    assert s.vp == [2, 0] and s.round == 2


# --------------------------------------------------------------------------- RJ4.2, RJ4.4
NO_OPP_VISIBLE = "p1 display: R3 ~R10\np2 hand: R4\np2 display: ~R5"
CANNOT_PLAY_UP = [
    ("W1", "players: 2\nout: p2\np1 display: R3", "an opponent", False),
    ("W2", "p1 display: R3\np2 hand: R4\np2 display: R5", "a bonus token on a card", False),
    ("W3", "deck: .\np1 display: R3\np2 hand: R4\np2 display: R5", "a card in the deck",
     False),
    ("W4", "p1 display: R3\np2 hand: R4\np2 display: R5", "a hidden card", False),
    ("W6", NO_OPP_VISIBLE, "an opponent's visible card", False),
    ("W7", "p1 display: R3\np2 hand: R4\np2 display: R5[+1]",
     "a bonus token on one of your cards", False),
    ("W8", "p1 display: R3\np2 hand: R4\np2 display: R5[+1 +2]",
     "bonus tokens on two different cards", False),
    ("W9", "deck: R9 R8 .\np1 display: R3\np2 hand: R4\np2 display: R5",
     "3 cards in the deck", False),
    ("W10", "p1 display: R3\np2 hand: R4\np2 display: R5[+1]",
     "a bonus token on one of your cards", False),
    ("W11", "p1 display: R3\np2 hand: R4\np2 display: ~R5", "a hidden card of yours", False),
    ("W12", "p1 display: R3\np2 hand: R4\np2 display:", "an opponent's card", False),
]


@pytest.mark.parametrize(("card", "text", "need", "by_rat6"), CANNOT_PLAY_UP,
                         ids=[c[0] for c in CANNOT_PLAY_UP])
def test_RJ4_2_a_weasel_that_cannot_be_fully_resolved_cannot_be_played_up(card, text, need,
                                                                           by_rat6):
    s = blocked(card, text, "rw")
    assert f"up {card}" not in acts(s) and f"down {card}" in acts(s)
    with pytest.raises(IllegalActionError, match=f"{card} cannot be played face up: its "
                                                 f"effect needs {need}"):
        parse_action(f"up {card}", s, 0)


@pytest.mark.parametrize(("card", "text", "need", "by_rat6"), CANNOT_PLAY_UP,
                         ids=[c[0] for c in CANNOT_PLAY_UP])
def test_RJ4_4_a_weasel_triggered_when_not_fully_resolvable_is_skipped(card, text, need,
                                                                      by_rat6):
    assert_skipped(triggered(card, text, "rw", by_rat6=by_rat6), card)
