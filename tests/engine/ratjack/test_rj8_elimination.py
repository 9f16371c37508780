"""RJ8 Elimination: opponents at once (and scored), yourself at the end of your turn, what
leaves the round, forfeits."""

from __future__ import annotations

from engine.ratjack import RATJACK, Phase, forfeit, new_game, to_act, total, view

from .conftest import acts, kinds, play, played, pos, row, who


def test_RJ8_1_an_opponent_over_25_is_eliminated_at_once_and_scores_for_you():
    s = pos("""
        players: 3
        phase: action
        p1 hand: R7 B1
        p1 display: R12 R4
        p2 hand: B4
        p2 display: R11 R10 B2 ~B8
        p3 hand: B5
        p3 display: R3
    """)
    s = play(s, "up R7", "p1@1", "p2@3")  # p2: 11 + 10 + 12 = 33
    assert s.out == [False, True, False] and s.vp == [1, 0, 0]
    assert [e.kind for e in s.events][-3:] == ["choice", "eliminated", "vp"]
    assert s.events[-2].seat == 1 and s.events[-2].value == 0  # eliminated by p1
    assert who(s) == 2  # p2 is skipped: out of the round
    s = play(s, "draw deck")  # Rat 5 needs an opponent's hidden card: p2's is gone
    assert "up B5" not in acts(s) and "down B5" in acts(s)


def test_RJ8_1_a_triggered_effect_eliminates_before_the_effect_that_triggered_it_ends():
    s = pos("""
        phase: action
        p1 hand: R6 B1
        p1 display: ~B7 R12
        p2 hand: B4
        p2 display: R11 R10 B2
    """)
    s = play(s, "up R6", "p1@1", "p1@2", "p2@3")  # R6 flips B7, which swaps R12 in
    order = [e.kind for e in played(s)]
    assert order.index("eliminated") < len(order) - 1 and s.vp[0] == 2  # +1, then RJ9.1 b
    assert s.round == 2


def test_RJ8_2_you_are_eliminated_at_the_end_of_your_turn_if_over_25():
    s = pos("""
        players: 3
        phase: action
        p1 hand: R12 B1
        p1 display: B12 R2
        p2 hand: B4
        p2 display: B5
        p3 hand: B3
        p3 display: R3
    """)
    s = play(s, "down B1")  # 24
    assert not s.out[0]
    s = pos("""
        players: 3
        phase: action
        decks: rb
        p1 hand: B11 R1
        p1 display: B12 R3
        p2 hand: B4
        p2 display: ~B5
        p3 hand: B3
        p3 display: ~R4
    """)
    s = play(s, "up B11")  # 26: out at the end of the turn, no one scores
    assert s.out == [True, False, False] and s.vp == [0, 0, 0] and who(s) == 1


def test_RJ8_2_over_25_earlier_in_your_turn_does_not_matter():
    s = pos("""
        decks: rw
        phase: action
        p1 hand: R6 R1
        p1 display: R12[+10] ~W2
        p2 hand: R4
        p2 display: R5
    """)
    s = play(s, "up R6", "p1@2")  # 28, then W2 comes up: 30; it removes the +10
    assert total(s, 0) == 30 and s.phase is Phase.EFFECT
    s = play(s, "+10")
    assert total(s, 0) == 20 and not s.out[0] and who(s) == 1


def test_RJ8_3_an_eliminated_players_cards_leave_unrevealed_and_chips_return():
    s = pos("""
        players: 3
        phase: action
        p1 hand: R7 B1
        p1 display: R12 R4
        p2 hand: B4
        p2 display: R11[+3] ~R10[+5] B2
        p3 hand: B5
        p3 display: R3
    """)
    s = play(s, "up R7", "p1@1", "p2@3")
    assert sorted(s.gone[1]) == ["B4", "R10", "R11", "R12"] and not s.displays[1]
    assert not s.hands[1] and sorted(s.reserve) == [0, 1, 2, 3, 4, 5]
    v = view(s, 2)
    assert v.gone_sizes == (0, 4, 0) and v.displays[1] == () and v.hands[1] == ()
    assert "R10" not in v.known() and "B4" not in v.known()
    assert s.vp == [1, 0, 0]  # p2 keeps its VP (none here) and sits out


def test_RJ8_4_a_forfeit_eliminates_for_good_and_no_one_scores():
    s = new_game(3, 3)
    p = s.current
    leaver = (p + 1) % 3
    s = forfeit(s, leaver)
    assert s.out[leaver] and s.forfeited[leaver] and s.vp == [0, 0, 0]
    assert kinds(s)[-2:] == ["forfeit", "eliminated"] and s.events[-1].value is None
    assert who(s) == p  # it was not their turn: the turn goes on
    assert forfeit(s, leaver) is s  # already gone
    # later rounds are dealt without them
    while s.round == 1:
        s = play(s, "draw deck", f"down {s.hands[s.current][-1].card}")
    assert s.out[leaver] and not s.hands[leaver] and not s.displays[leaver]


def test_RJ8_4_the_last_player_in_the_match_wins():
    s = RATJACK.new_game(3, 2, {})
    s = RATJACK.forfeit(s, s.current)
    assert s.phase is Phase.OVER and RATJACK.is_over(s)
    out = RATJACK.outcome(s)
    (winner,) = s.winners
    assert out.reason == "last_in_match" and out.winners == {winner}
    assert out.places[winner] == 1 and out.places[1 - winner] == 2


def test_RJ8_4_forfeiting_on_your_turn_ends_it():
    s = pos("""
        players: 3
        phase: action
        p1 hand: R3 B1
        p1 display: R4
        p2 hand: B4
        p2 display: B5
        p3 hand: B3
        p3 display: R5
    """)
    s = forfeit(play(s, "up R3"), 0)  # the extra turn is lost with the turn
    assert who(s) == 1 and s.extra_turns == 0 and s.phase is Phase.DRAW


def test_RJ8_4_weasel_12s_chooser_forfeits_and_the_chip_stays():
    s = pos("""
        players: 3
        decks: rw
        phase: action
        p1 hand: W12 R1
        p1 display: R3
        p2 hand: R4
        p2 display: R5
        p3 hand: R6
        p3 display: R7
    """)
    s = play(s, "up W12", "+10", "p2")
    assert to_act(s) == {1}
    s = forfeit(s, 1)
    assert 5 in s.reserve and who(s) == 2 and s.phase is Phase.DRAW
    assert row(s, 0) == "R3 W12"


def test_RJ8_4_an_effect_whose_only_choice_left_with_the_player_ends_there():
    s = pos("""
        players: 3
        phase: action
        p1 hand: R7 B1
        p1 display: R12 R4
        p2 hand: B4
        p2 display: R11
        p3 hand: B5
        p3 display: ~R3
    """)
    s = play(s, "up R7", "p1@1")
    assert acts(s) == ["p2@1"]
    s = forfeit(s, 1)
    assert "cut_short" in kinds(s) and who(s) == 2 and row(s, 0) == "R12 R4 R7"


def test_RJ8_4_a_player_who_left_ranks_after_everyone_who_stayed():
    s = pos("players: 4\nvp: 3 0 2 1\nphase: over\nwinners: p1\nreason: three_vp\n"
            "forfeited: p3")
    # p3 left with 2 VP: behind p4 (1 VP) and p2 (0 VP), who stayed
    assert RATJACK.outcome(s).places == (1, 3, 4, 2)
    s = pos("players: 4\nvp: 0 1 2 0\nphase: over\nwinners: p4\nreason: last_in_match\n"
            "forfeited: p1 p2 p3")
    assert RATJACK.outcome(s).places == (4, 3, 2, 1)  # those who left, by VP
