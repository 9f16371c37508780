"""RJ3 A turn: draw, then up, down or discard (and flip); one card in hand between turns; your
hidden cards are yours to see; a display is a numbered row."""

from __future__ import annotations

from engine.ratjack import Phase, view

from .conftest import acts, hand, kinds, line, play, pos, row, who

BASE = """
    players: 3
    decks: rb
    current: p1
    phase: draw
    discard: B7 R9
    deck: B1 B2
    p1 hand: R5
    p1 display: R3 ~B10
    p2 hand: B4
    p2 display: ~R2 B8
    p3 hand: R1
    p3 display: B12
"""


def test_RJ3_1_draw_from_the_deck_or_the_discard_pile():
    s = pos(BASE)
    assert acts(s) == ["draw deck", "draw discard"]
    deck = play(s, "draw deck")
    assert hand(deck, 0) == "R5 B1" and deck.phase is Phase.ACTION
    pile = play(s, "draw discard")
    assert hand(pile, 0) == "R5 R9{*}" and line(pile, "discard") == "B7"
    assert kinds(pile)[-1] == "draw_discard" and pile.events[-1].card == "R9"
    assert kinds(deck)[-1] == "draw_deck" and deck.events[-1].card is None  # not public


def test_RJ3_1_no_discard_pile_only_the_deck():
    s = pos(BASE.replace("discard: B7 R9", "discard:"))
    assert acts(s) == ["draw deck"]


def test_RJ3_2_one_action_with_one_of_the_two_cards_ends_the_turn():
    s = play(pos(BASE), "draw deck")  # hand R5 B1
    # R5 needs an opponent's hidden card (p2 has one); B1 a chip: both up
    assert acts(s) == ["up R5", "up B1", "down R5", "down B1", "discard R5", "discard B1"]
    down = play(s, "down B1")
    assert row(down, 0) == "R3 ~B10 ~B1" and hand(down, 0) == "R5"
    assert who(down) == 1 and down.phase is Phase.DRAW
    up = play(s, "up B1", "+2", "p1@1")
    assert row(up, 0) == "R3[+2] ~B10 B1" and who(up) == 1


def test_RJ3_2_discard_then_flip_one_of_your_hidden_cards_or_not():
    s = play(pos(BASE), "draw deck", "discard R5")
    assert line(s, "discard") == "B7 R9 R5" and s.phase is Phase.FLIP
    assert acts(s) == ["flip @2", "no flip"]
    flipped = play(s, "flip @2")  # B10: Rat 10 triggers (p2@2 is visible)
    assert acts(flipped) == ["p2@2", "p3@1"]
    flipped = play(flipped, "p3@1")
    assert row(flipped, 0) == "R3 B10" and row(flipped, 2) == "~B12{*}"
    assert who(flipped) == 1
    kept = play(s, "no flip")
    assert row(kept, 0) == "R3 ~B10" and who(kept) == 1


def test_RJ3_2_discard_with_no_hidden_card_ends_the_turn_at_once():
    s = play(pos(BASE.replace("p1 display: R3 ~B10", "p1 display: R3")), "draw deck",
             "discard R5")
    assert who(s) == 1 and s.phase is Phase.DRAW


def test_RJ3_3_one_card_in_hand_between_turns_two_before_the_action():
    s = pos(BASE)
    for _ in range(6):
        assert all(len(s.hands[q]) == 1 for q in range(3)) and s.phase is Phase.DRAW
        s = play(s, "draw discard" if s.discard else "draw deck")
        assert len(s.hands[s.current]) == 2
        s = play(s, f"down {s.hands[s.current][0].card}")


def test_RJ3_4_you_may_look_at_your_own_hidden_cards_at_any_time():
    s = pos(BASE)
    assert [x.card for x in view(s, 1).displays[1]] == ["R2", "B8"]  # not p2's turn
    assert [x.card for x in view(s, 0).displays[1]] == [None, "B8"]
    assert [h.card for h in view(s, 1).hands[1]] == ["B4"]


def test_RJ3_5_a_display_is_a_row_numbered_from_1():
    s = play(pos(BASE), "draw deck", "down B1")
    assert row(s, 0) == "R3 ~B10 ~B1"  # new cards at the right end
    assert s.displays[0][2].card == "B1"
    # a removed card closes the gap: Raccoon 1 on p1@1 (rc decks below)
    s = pos("""
        decks: rc
        phase: action
        p1 hand: C1 R2
        p1 display: R3
        p2 hand: C4
        p2 display: C5 C6 C7
    """)
    s = play(s, "up C1", "p2@2")
    assert row(s, 1) == "C5 C7" and line(s, "discard").endswith("C6")
    # a card swapped in takes the place of the one it replaced (Rat 7)
    s = pos("""
        decks: rc
        phase: action
        p1 hand: R7 R2
        p1 display: R3 C2 ~R4
        p2 hand: C4
        p2 display: C5 C6 C7
    """)
    s = play(s, "up R7", "p1@2", "p2@3")
    assert row(s, 0) == "R3 C7 ~R4 R7" and row(s, 1) == "C5 C6 C2"
