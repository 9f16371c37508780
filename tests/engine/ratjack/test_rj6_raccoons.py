"""RJ6 Raccoons: each effect, the case where it cannot be played face up (RJ4.2) and the case
where a flip triggers it and it is skipped (RJ4.4)."""

from __future__ import annotations

import pytest

from engine.ratjack import IllegalActionError, Phase, parse_action, round_cards, total, view
from engine.ratjack.effects import chance

from .conftest import (
    acts,
    assert_skipped,
    blocked,
    hand,
    kinds,
    line,
    play,
    pos,
    row,
    triggered,
    who,
)

#: The lines of the base position (p1 to play ``card`` with R11 in hand, three players).
BASE = {
    "decks": "rc", "phase": "action", "players": "3", "deck": "R9 R8 R7", "discard": "R6",
    "p1 hand": "{card} R11", "p1 display": "R3 ~R10", "p2 hand": "R4",
    "p2 display": "~R2 R5", "p3 hand": "R1", "p3 display": "R12",
}


def base(card: str, **lines: str):
    table = dict(BASE, **{k.replace("_", " "): v for k, v in lines.items()})
    return pos("\n".join(f"{k}: {v.replace('{card}', card)}" for k, v in table.items()))


def test_RJ6_1_raccoon_1_an_opponents_visible_card_to_the_discard_pile():
    s = play(base("C1", p2_display="~R2 R5[+3]"), "up C1")
    assert acts(s) == ["p2@2", "p3@1"]
    s = play(s, "p2@2")
    assert row(s, 1) == "~R2" and line(s, "discard") == "R6 R5" and 2 in s.reserve


def test_RJ6_2_raccoon_2_trade_your_hidden_card_for_an_opponents_visible_card():
    s = play(base("C2"), "up C2")
    assert acts(s) == ["p1@2"]
    s = play(s, "p1@2")
    assert acts(s) == ["p2@2", "p3@1"]
    s = play(s, "p3@1")
    assert row(s, 0) == "R3 R12 C2" and row(s, 2) == "~R10{p1}" and total(s, 0) == 17
    assert view(s, 0).displays[2][0].card == "R10"  # the former owner knows it (RJ11.2)
    assert view(s, 2).displays[2][0].card == "R10"  # and so does its new owner
    assert view(s, 1).displays[2][0].card is None
    assert "trigger" not in kinds(s)


def test_RJ6_3_raccoon_3_your_hand_card_face_down_then_draw():
    s = play(base("C3"), "up C3")
    assert row(s, 0) == "R3 ~R10 C3 ~R11" and hand(s, 0) == "R9" and who(s) == 1
    # a hand card everyone knows (taken from the discard pile) stays known face down
    s = play(base("C3", p1_hand="{card} R11{*}"), "up C3")
    assert row(s, 0) == "R3 ~R10 C3 ~R11{*}"


def test_RJ6_4_raccoon_4_an_opponents_hidden_card_into_your_display_face_up():
    s = play(base("C4", p2_display="~R2[+1] R5"), "up C4")
    assert acts(s) == ["p2@1"]
    s = play(s, "p2@1")  # R2 comes face up with its chip and does not trigger
    assert row(s, 0) == "R3 ~R10 C4 R2[+1]" and row(s, 1) == "R5"
    assert line(s, "discard") == "R6" and who(s) == 1


def test_RJ6_5_raccoon_5_the_deck_top_face_down_in_your_display():
    s = play(base("C5"), "up C5")
    assert row(s, 0) == "R3 ~R10 C5 ~R9" and line(s, "deck").startswith("R8 R7")
    assert view(s, 1).displays[0][3].card is None and view(s, 0).displays[0][3].card == "R9"


def test_RJ6_6_raccoon_6_a_token_on_each_of_two_different_cards_of_yours():
    s = play(base("C6"), "up C6", "+1")
    assert acts(s) == ["p1@1", "p1@2", "p1@3"]
    s = play(s, "p1@1")
    assert acts(s) == ["+2", "+3", "+4", "+5", "+10"]
    s = play(s, "+10")
    assert acts(s) == ["p1@2", "p1@3"]  # not the first card again
    s = play(s, "p1@2")
    assert row(s, 0) == "R3[+1] ~R10[+10] C6" and total(s, 0) == 10


def test_RJ6_7_raccoon_7_your_hidden_card_and_an_opponents_face_up():
    s = play(base("C7"), "up C7")
    assert acts(s) == ["p1@2"]
    s = play(s, "p1@2")
    assert acts(s) == ["p2@1"]
    s = play(s, "p2@1")  # R10 and R2 come up: neither triggers
    assert row(s, 0) == "R3 R10 C7" and row(s, 1) == "R2 R5" and "trigger" not in kinds(s)
    assert who(s) == 1


def test_RJ6_8_raccoon_8_a_token_on_your_card_and_one_on_an_opponents():
    s = play(base("C8"), "up C8", "+4", "p1@1", "+5")
    assert acts(s) == ["p2@1", "p2@2", "p3@1"]
    s = play(s, "p2@1")
    assert row(s, 0) == "R3[+4] ~R10 C8" and row(s, 1) == "~R2[+5] R5"


def test_RJ6_9_raccoon_9_the_discard_top_face_up_in_your_display():
    s = play(base("C9"), "up C9")  # the R6 does not trigger
    assert row(s, 0) == "R3 ~R10 C9 R6" and line(s, "discard") == "" and who(s) == 1
    assert "trigger" not in kinds(s)


def test_RJ6_10_raccoon_10_draw_then_discard_one_of_your_two_hand_cards():
    s = play(base("C10"), "up C10")
    assert hand(s, 0) == "R11 R9" and acts(s) == ["discard R11", "discard R9"]
    s = play(s, "discard R11")
    assert hand(s, 0) == "R9" and line(s, "discard") == "R6 R11"
    assert who(s) == 1 and s.phase is Phase.DRAW  # no flip after an effect's discard (RJ4.8)


def test_RJ6_11_raccoon_11_a_token_on_any_card_of_an_opponent():
    s = play(base("C11"), "up C11", "+3")
    assert acts(s) == ["p2@1", "p2@2", "p3@1"]
    s = play(s, "p3@1")
    assert row(s, 2) == "R12[+3]" and total(s, 2) == 15


def test_RJ6_12_raccoon_12_shuffle_the_top_three_discards_into_the_deck():
    s = base("C12", discard="R6 R7 R8 R9", deck="C11 .")  # the other cards under the R6
    before = list(s.deck)
    s = play(s, "up C12")
    assert line(s, "discard").endswith(" R6")
    expected = before + ["R9", "R8", "R7"]
    chance(s.seed, "shuffle", 1, 0).shuffle(expected)
    assert s.deck == expected and s.shuffles == 1
    assert sorted(s.deck) == ["C11", "R7", "R8", "R9"]
    assert s.events[-1].kind == "shuffled" and s.events[-1].value == 3


# --------------------------------------------------------------------------- RJ4.2, RJ4.4
NO_OPP_VISIBLE = "p1 display: R3 ~R10\np2 hand: R4\np2 display: ~R5"
NO_OPP_HIDDEN = "p1 display: R3 ~R10\np2 hand: R4\np2 display: R5"
NO_DECK = "deck: .\np1 display: R3 ~R10\np2 hand: R4\np2 display: R5"
CANNOT_PLAY_UP = [
    ("C1", NO_OPP_VISIBLE, "an opponent's visible card", False),
    ("C2", "p1 display: R3\np2 hand: R4\np2 display: R5", "a hidden card of yours", False),
    ("C3", NO_DECK, "a card in the deck", False),
    ("C4", NO_OPP_HIDDEN, "an opponent's hidden card", False),
    ("C5", NO_DECK, "a card in the deck", False),
    ("C6", "p1 display:\np2 hand: R4\np2 display: R5", "2 cards in your display", False),
    ("C7", NO_OPP_HIDDEN, "an opponent's hidden card", False),
    ("C8", "p1 display: R3[+1 +2 +3]\np2 hand: R4\np2 display: R5[+4 +5]",
     "2 bonus tokens in the reserve", False),
    ("C9", NO_OPP_HIDDEN, "a card in the discard pile", True),
    ("C10", NO_DECK, "a card in the deck", False),
    ("C11", "p1 display: R3\np2 hand: R4\np2 display:", "an opponent's card", False),
    ("C12", "discard: R1 R2\n" + NO_OPP_HIDDEN, "3 cards in the discard pile", True),
]


@pytest.mark.parametrize(("card", "text", "need", "by_rat6"), CANNOT_PLAY_UP,
                         ids=[c[0] for c in CANNOT_PLAY_UP])
def test_RJ4_2_a_raccoon_that_cannot_be_fully_resolved_cannot_be_played_up(card, text, need,
                                                                            by_rat6):
    s = blocked(card, text, "rc")
    assert f"up {card}" not in acts(s) and f"discard {card}" in acts(s)
    with pytest.raises(IllegalActionError, match=f"{card} cannot be played face up: its "
                                                 f"effect needs {need}"):
        parse_action(f"up {card}", s, 0)


@pytest.mark.parametrize(("card", "text", "need", "by_rat6"), CANNOT_PLAY_UP,
                         ids=[c[0] for c in CANNOT_PLAY_UP])
def test_RJ4_4_a_raccoon_triggered_when_not_fully_resolvable_is_skipped(card, text, need,
                                                                       by_rat6):
    assert_skipped(triggered(card, text, "rc", by_rat6=by_rat6), card)


def test_RJ6_6_two_tokens_need_two_chips_in_the_reserve():
    s = blocked("C6", "p1 display: R3[+1 +2 +3]\np2 hand: R4\np2 display: R5[+4 +5]", "rc")
    assert "up C6" not in acts(s)
    assert set(round_cards("rc")) >= {"C6"}
