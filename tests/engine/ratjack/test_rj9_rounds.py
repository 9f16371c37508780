"""RJ9 End of round and of game: the three round ends, their timing, ties, the empty deck,
3 VP, the next round's first player, what a round's end shows."""

from __future__ import annotations

from engine.ratjack import RATJACK, Phase, RoundEnd, view

from .conftest import play, played, pos


def ended(s) -> RoundEnd:
    return s.last_round.end


def test_RJ9_1_a_exactly_25_ends_the_round():
    s = pos("""
        players: 3
        phase: action
        p1 hand: R1 B2
        p1 display: R12 B10
        p2 hand: B4
        p2 display: B5
        p3 hand: B3
        p3 display: R3
    """)
    s = play(s, "up R1", "+2", "p1@2")  # 12 + 12 + 1 = 25
    assert ended(s) is RoundEnd.EXACTLY_25 and s.vp == [1, 0, 0] and s.round == 2


def test_RJ9_1_b_the_last_player_standing_gains_1_vp_and_none_left_just_ends():
    s = pos("""
        players: 3
        phase: action
        p1 hand: B11 R1
        p1 display: B12 R3
        p2 hand: B4
        p2 display: B5
        out: p3
    """)
    s = play(s, "up B11")  # p1 is out at 26: p2 is the last player
    assert ended(s) is RoundEnd.LAST_STANDING and s.vp == [0, 1, 0]
    s = pos("""
        phase: action
        p1 hand: R7 B1
        p1 display: R12 R11 R5
        p2 hand: B4
        p2 display: R10 R9 B2
    """)
    s = play(s, "up R7", "p1@2", "p2@3")  # p2 to 30 (p1 +1), p1 at 26 is out
    assert ended(s) is RoundEnd.NONE_LEFT and s.vp == [1, 0]


def test_RJ9_1_c_an_empty_deck_gives_the_highest_total_1_vp():
    s = pos("""
        players: 3
        phase: action
        deck: .
        p1 hand: R3 B1
        p1 display: R12
        p2 hand: B4
        p2 display: B10 B9
        p3 hand: B3
        p3 display: R8
    """)
    s = play(s, "down B1")
    assert ended(s) is RoundEnd.DECK_EMPTY and s.vp == [0, 1, 0]


def test_RJ9_2_checked_at_the_end_of_the_turn_in_order_one_only_rj8_1_on_top():
    s = pos("""
        phase: action
        deck: .
        p1 hand: R4 B1
        p1 display: R12 B8
        p2 hand: B4
        p2 display: ~B10 R11
    """)
    s = play(s, "up R4", "+4", "p2@1")  # p1 at 24, p2 at 11; (c) p1: one VP, not two
    assert s.vp == [1, 0] and ended(s) is RoundEnd.DECK_EMPTY
    s = pos("""
        phase: action
        p1 hand: R8 B1
        p1 display: R12 B3
        p2 hand: B4
        p2 display: B10 R11
    """)
    s = play(s, "up R8", "+2", "p1@1")  # (a) at 25, though the deck is not empty
    assert s.vp == [1, 0] and ended(s) is RoundEnd.EXACTLY_25
    s = pos("""
        decks: rc
        phase: action
        p1 hand: C11 R1
        p1 display: R3
        p2 hand: R4
        p2 display: R12 C9 C2
    """)
    s = play(s, "up C11", "+2", "p2@3")  # p2 at 25 mid-turn: checked when the turn ends
    assert s.vp == [0, 1] and ended(s) is RoundEnd.EXACTLY_25


def test_RJ9_2_with_two_players_pushing_the_other_over_is_worth_2_vp():
    s = pos("""
        phase: action
        p1 hand: R7 B1
        p1 display: R12 R4
        p2 hand: B4
        p2 display: R11 R10 B2
    """)
    s = play(s, "up R7", "p1@1", "p2@3")
    assert s.vp == [2, 0] and ended(s) is RoundEnd.LAST_STANDING
    assert s.last_round.gains == (2, 0)


def test_RJ9_3_ties_share_the_vp():
    s = pos("""
        players: 3
        phase: action
        deck: .
        p1 hand: R3 B1
        p1 display: R12
        p2 hand: B4
        p2 display: B12
        p3 hand: B3
        p3 display: R8
    """)
    s = play(s, "down B1")
    assert s.vp == [1, 1, 0] and s.last_gain == (0, 1)


def test_RJ9_3_two_players_at_exactly_25_both_gain():
    s = pos("""
        decks: rc
        phase: action
        p1 hand: C11 R1
        p1 display: R12 R2
        p2 hand: R4
        p2 display: R11 C9 C3
    """)
    s = play(s, "up C11", "+2", "p2@3")  # p1: 12 + 2 + 11 = 25; p2: 11 + 9 + 3 + 2 = 25
    assert s.vp == [1, 1] and ended(s) is RoundEnd.EXACTLY_25


def test_RJ9_4_the_round_ends_in_the_turn_the_deck_runs_out_unless_refilled():
    s = pos("""
        phase: draw
        deck: B9 .
        p1 hand: R3
        p1 display: R12
        p2 hand: B4
        p2 display: B10
    """)
    s = play(s, "draw deck", "down B9")
    assert ended(s) is RoundEnd.DECK_EMPTY and s.vp == [1, 0]
    s = pos("""
        decks: rc
        phase: draw
        deck: R9 .
        p1 hand: C12
        p1 display: R12
        p2 hand: R4
        p2 display: C10
    """)
    s = play(s, "draw deck", "up C12")  # the deck is refilled: the round goes on
    assert s.round == 1 and len(s.deck) == 3 and s.current == 1 and s.shuffles == 1


def test_RJ9_5_three_vp_win_at_once_and_players_reaching_3_together_share():
    s = pos("""
        vp: 2 2
        phase: action
        p1 hand: R7 B1
        p1 display: R12 R4
        p2 hand: B4
        p2 display: R11 R10 B2 R3
    """)
    s = play(s, "up R7", "p1@1", "p2@3")  # the push's VP is the third: over at once
    assert s.phase is Phase.OVER and s.winners == (0,) and s.vp == [3, 2]
    assert ended(s) is RoundEnd.GAME_OVER
    s = pos("""
        decks: rc
        vp: 2 2
        phase: action
        p1 hand: C11 R1
        p1 display: R12 R2
        p2 hand: R4
        p2 display: R11 C9 C3
    """)
    s = play(s, "up C11", "+2", "p2@3")
    assert s.phase is Phase.OVER and s.winners == (0, 1)
    out = RATJACK.outcome(s)
    assert out.places == (1, 1) and out.scores == (3.0, 3.0) and out.reason == "three_vp"


def test_RJ9_6_a_new_round_afresh_begun_by_the_last_to_gain_a_vp():
    s = pos("""
        players: 4
        phase: action
        current: p2
        deck: .
        p1 hand: R5
        p1 display: R8
        p2 hand: R3 B1
        p2 display: R2
        p3 hand: B4
        p3 display: B12
        p4 hand: B3
        p4 display: R12
        out: p1
    """)
    s = play(s, "down B1")  # p3 and p4 tie on 12: p3 is first in turn order from p2
    assert s.vp == [0, 0, 1, 1] and s.round == 2 and s.current == 2
    assert s.out == [False] * 4 and all(len(h) == 1 for h in s.hands)  # everyone back in
    assert len(s.deck) == 24 - 9 and s.turn == 1


def test_RJ9_6_ruling_no_one_has_gained_the_next_player_begins():
    s = pos("""
        players: 3
        phase: action
        current: p2
        p1 hand: R1
        p1 display: R8
        p2 hand: B11 B1
        p2 display: B12 R3
        p3 hand: B4
        p3 display: B5
        forfeited: p3
        last gain: p3
    """)
    s = play(s, "up B11")  # p2 out at 26: p1 last standing, gains and begins
    assert s.current == 0 and s.vp == [1, 0, 0]
    from engine.ratjack.rules import _starter
    t = s.copy()
    t.last_gain = (2,)  # the last to gain left the match
    assert _starter(t, 1) == 0
    t.last_gain = ()
    assert _starter(t, 0) == 1


def test_RJ9_7_a_rounds_end_shows_every_hand_and_hidden_card():
    s = pos("""
        players: 3
        phase: action
        deck: .
        p1 hand: R3 B1
        p1 display: R12 ~B7
        p2 hand: B4
        p2 display: ~B10 B9
        p3 hand: B3
        p3 display: R8
    """)
    s = play(s, "down B1")
    r = view(s, None).last_round  # the spectator's view
    assert r.hands == (("R3",), ("B4",), ("B3",))
    assert [x.card for x in r.displays[1]] == ["B10", "B9"]
    assert [x.card for x in r.displays[0]] == ["R12", "B7", "B1"]
    assert [e.kind for e in played(s)][-2:] == ["vp", "round_end"]
    # at the game's end everything in the displays is shown
    s = pos("""
        vp: 2 0
        phase: action
        deck: .
        p1 hand: R3 B1
        p1 display: R12 ~B7
        p2 hand: B4
        p2 display: ~B10 B9
    """)
    s = play(s, "down B1")
    assert s.phase is Phase.OVER
    v = view(s, None)
    assert [x.card for x in v.displays[1]] == ["B10", "B9"] and v.hands[1][0].card == "B4"
