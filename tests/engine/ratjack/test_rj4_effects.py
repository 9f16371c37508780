"""RJ4 Effects in general: totals, "fully resolvable", the resolving card among your cards,
triggered effects, who chooses, chips, effect draws and discards, what triggers."""

from __future__ import annotations

from engine.ratjack import Phase, fully_resolvable, total
from engine.ratjack.predicates import counts

from .conftest import acts, hand, kinds, line, play, pos, row, who


def test_RJ4_1_a_total_is_the_visible_cards_and_their_chips():
    s = pos("""
        chips: +1 -2 +3 +4 -5 -10
        p1 hand: R6
        p1 display: R12[+3 +4] ~B11[-10] R2[-2]
        p2 hand: B1
        p2 display: R1[-5]
    """)
    assert total(s, 0) == 12 + 3 + 4 + 2 - 2  # the hidden B11 and its -10 count 0
    assert total(s, 1) == -4  # a total may be negative
    s = play(pos("""
        phase: action
        chips: +1 -2 +3 +4 -5 -10
        p1 hand: B6 R2
        p1 display: ~B11[-10]
        p2 hand: B1
        p2 display: R3
    """), "up B6", "p1@1")  # Rat 6 flips B11: its -10 now counts (RJ4.1 Ruling)
    assert total(s, 0) == 11 - 10 + 6


def test_RJ4_2_fully_resolvable_is_judged_with_the_card_up_and_the_other_in_hand():
    s = pos("""
        phase: action
        decks: rc
        p1 hand: R7 C6
        p1 display: ~R1
        p2 hand: C1
        p2 display: C2
    """)
    # R7 needs another visible card of yours: its own place does not count (RJ4.3 'other');
    # C6 needs 2 cards in your display: C6 itself and the hidden R1 (RJ4.3)
    assert [a for a in acts(s) if a.startswith("up")] == ["up C6"]
    assert counts(s, 0, playing=True).own_cards == 2
    assert not fully_resolvable(s, 0, "R7", playing=True)
    assert fully_resolvable(s, 0, "C6", playing=True)


def test_RJ4_3_the_resolving_card_counts_among_your_cards():
    s = pos("""
        phase: action
        p1 hand: R1 B2
        p1 display: ~R3
        p2 hand: B4
        p2 display: R5
    """)
    s = play(s, "up R1", "+4")
    assert acts(s) == ["p1@2"]  # Rat 1 on itself: its only visible card
    s = play(s, "p1@2")
    assert row(s, 0) == "~R3 R1[+4]" and total(s, 0) == 5


def test_RJ4_4_a_triggered_effect_resolves_or_is_skipped_entirely():
    base = """
        phase: action
        p1 hand: R2 B2
        p1 display: ~R5
        p2 hand: B4
        p2 display: {p2}
    """
    s = play(pos(base.format(p2="~R4")), "discard B2", "flip @1")
    assert kinds(s)[-1] == "trigger" and acts(s) == ["p2@1"]  # Rat 5 looks
    skipped = play(pos(base.format(p2="R4")), "discard B2", "flip @1")
    assert [e.kind for e in skipped.events][-2:] == ["flip", "skipped"]
    assert row(skipped, 0) == "R5" and who(skipped) == 1  # face up either way; turn over


def test_RJ4_5_effects_are_compulsory_and_opponents_are_players_still_in():
    s = pos("""
        players: 3
        phase: action
        p1 hand: B10 B2
        p1 display: R3
        p2 hand: B4
        p2 display: R4
        out: p3
    """)
    s = play(s, "up B10")
    assert acts(s) == ["p2@1"]  # p3 is out: no target; no way to stop the effect
    assert s.phase is Phase.EFFECT


def test_RJ4_6_a_bonus_token_is_a_reserve_chip_of_your_choice():
    s = pos("""
        phase: action
        chips: +1 -2 +3 +4 -5 +10
        p1 hand: R8 B2
        p1 display: R3[+3]
        p2 hand: B4
        p2 display: R4[-5]
    """)
    s = play(s, "up R8")
    assert acts(s) == ["+1", "-2", "+4", "+10"]  # the reserve only
    s = play(s, "+10", "p1@2")
    assert row(s, 0) == "R3[+3] R8[+10]" and 5 not in s.reserve


def test_RJ4_7_chips_stay_on_their_card_and_return_when_it_leaves():
    s = pos("""
        decks: rc
        phase: action
        p1 hand: C4 C1
        p1 display: R3[+3]
        p2 hand: R10
        p2 display: ~R4[+4] C5[+5]
    """)
    took = play(s, "up C4", "p2@1")  # a hidden card taken face up keeps its chip
    assert row(took, 0) == "R3[+3] C4 R4[+4]" and row(took, 1) == "C5[+5]"
    gone = play(s, "up C1", "p2@2")  # a card leaving the displays frees its chip
    assert row(gone, 1) == "~R4[+4]" and sorted(gone.reserve) == [0, 1, 4, 5]


def test_RJ4_8_effects_draw_from_the_deck_and_discard_one_at_a_time_without_a_flip():
    s = pos("""
        phase: action
        deck: B3 R3 B9
        discard: R12
        p1 hand: R11 B2
        p1 display: ~R4
        p2 hand: B4
        p2 display: R5
    """)
    s = play(s, "up R11")
    assert line(s, "discard") == "R12 B3 R3"
    assert [e.card for e in s.events if e.kind == "deck_discard"] == ["B3", "R3"]
    assert who(s) == 1 and s.phase is Phase.DRAW  # no flip after an effect's discard


def test_RJ4_9_only_rat_6_and_the_discard_action_trigger():
    s = pos("""
        decks: rw
        phase: action
        p1 hand: R12 W5
        p1 display: ~R3
        p2 hand: W4
        p2 display: ~R1
    """)
    s = play(s, "up R12", "p2@1")  # p2's R1 comes face up and does nothing
    assert row(s, 1) == "R1" and "trigger" not in kinds(s) and who(s) == 1
    s = pos("""
        decks: rw
        phase: action
        p1 hand: W5 R2
        p1 display: ~R3
        p2 hand: W4
        p2 display: R1
    """)
    s = play(s, "up W5", "p1@1")  # Weasel 5 turns R3 up: no extra turn
    assert row(s, 0) == "R3 W5" and s.extra_turns == 0 and who(s) == 1
    assert hand(s, 0) == "R2"
