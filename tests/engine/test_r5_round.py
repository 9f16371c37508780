"""R5 A round: the secret pick, observation, ties, the lower card's effect, the higher card's
action points, the end of the round (discards, draws, reshuffles)."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalActionError, Phase, Pick, WrongTurnError
from engine.state import BABY, FIRE, SCIENTIST_ACTIVE, SCIENTIST_FRIGHTENED

from .conftest import RAPTOR, SCIENTIST, acts, actset, board, cells, play

#       BCDEFGHIJKL
BASE = ["S..........",   # 1  scientist B1
        "..B........",   # 2  baby D2
        "......M....",   # 3  mother H3
        "...........",   # 4
        "........B..",   # 5  baby J5
        "..........S"]   # 6  scientist L6


def kinds(state) -> list[str]:
    return [e.kind for e in state.events]


# --- R5.1 the secret pick ---
def test_R5_1_both_players_pick_a_card_of_their_hand_at_the_same_time():
    s = board(BASE, raptor_hand="2 5 8", scientist_hand="1 4 9")
    assert engine.to_act(s) == {RAPTOR, SCIENTIST}
    assert acts(s, RAPTOR) == actset("play 2, play 5, play 8")
    assert acts(s, SCIENTIST) == actset("play 1, play 4, play 9")


def test_R5_1_a_pick_is_hidden_until_both_have_picked():
    s = board(BASE, raptor_hand="2 5 8", scientist_hand="1 4 9")
    s1 = play(s, RAPTOR, "play 8")
    assert s1.phase is Phase.PICK and s1.revealed is None
    assert s1.picks[RAPTOR] == 8 and s1.hands[RAPTOR] == (2, 5)
    assert engine.to_act(s1) == {SCIENTIST}
    assert [e.to_dict() for e in s1.events] == [{"kind": "picked", "side": "raptor"}]
    with pytest.raises(WrongTurnError):
        engine.apply(s1, RAPTOR, Pick(5))
    s2 = play(s1, SCIENTIST, "play 9")
    assert s2.revealed == (8, 9)
    assert ("revealed", 8, 9) in [(e.kind, e.value, e.value2) for e in s2.events]


def test_R5_1_the_order_of_the_two_picks_does_not_matter():
    s = board(BASE, raptor_hand="2 5 8", scientist_hand="1 4 9")
    a = play(play(s, RAPTOR, "play 5"), SCIENTIST, "play 9")
    b = play(play(s, SCIENTIST, "play 9"), RAPTOR, "play 5")
    assert a.key() == b.key()


def test_R5_1_a_card_not_in_the_hand_is_refused():
    s = board(BASE, raptor_hand="2 5 8", scientist_hand="1 4 9")
    for card in (1, 3, 9):
        with pytest.raises(IllegalActionError):
            engine.apply(s, RAPTOR, Pick(card))


# --- R5.2 observation ---
def test_R5_2_under_observation_only_the_scientist_may_pick_first():
    s = board(BASE, observation="yes", raptor_hand="2 5 8", scientist_hand="1 4 9")
    assert engine.to_act(s) == {SCIENTIST}
    assert engine.legal_actions(s, RAPTOR) == []
    with pytest.raises(WrongTurnError):
        engine.apply(s, RAPTOR, Pick(5))
    s1 = play(s, SCIENTIST, "play 4")
    assert engine.to_act(s1) == {RAPTOR}
    assert kinds(s1) == ["picked", "shown"]
    assert engine.view(s1, RAPTOR).shown_pick == 4
    assert engine.view(s1, SCIENTIST).shown_pick == 4
    assert engine.view(s1, None).shown_pick is None
    assert engine.view(s1, None).my_pick is None
    assert all(e.value is None for e in s1.events)  # the shown value is not in public events


def test_R5_2_observation_follows_the_raptors_disappearance_for_one_round():
    s = board(BASE, raptor_hand="2 5 8", scientist_hand="1 5 9")
    s = play(s, RAPTOR, "play 2")
    s = play(s, SCIENTIST, "play 5")          # Disappearance, then 3 AP for the scientist
    assert s.observe_next and not s.observation
    s = play(s, SCIENTIST, "end")
    assert s.phase is Phase.MOTHER_RETURN
    s = play(s, RAPTOR, "M@G4")
    assert s.round == 2 and s.observation and not s.observe_next
    assert engine.to_act(s) == {SCIENTIST}
    s = play(s, SCIENTIST, "play 9")
    assert engine.view(s, RAPTOR).shown_pick == 9
    assert engine.view(s, None).shown_pick is None
    s = play(s, RAPTOR, "play 5")             # Recovery: nothing to recover, skipped
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST and s.ap.remaining == 4
    assert engine.view(s, RAPTOR).shown_pick is None  # revealed now: nothing hidden to show
    s = play(s, SCIENTIST, "end")
    assert s.round == 3 and not s.observation
    assert engine.to_act(s) == {RAPTOR, SCIENTIST}


# --- R5.3 equal values ---
def test_R5_3_equal_values_nothing_happens_and_the_round_ends():
    s = board(BASE, round=4, raptor_hand="3 5 7", scientist_hand="2 5 6")
    after = play(play(s, RAPTOR, "play 5"), SCIENTIST, "play 5")
    assert after.board == s.board
    assert after.round == 5 and after.phase is Phase.PICK
    assert after.discards == {RAPTOR: (5,), SCIENTIST: (5,)}
    assert after.hands == {RAPTOR: (1, 3, 7), SCIENTIST: (1, 2, 6)}  # drew the deck's top 1
    assert after.decks == {RAPTOR: (2, 4, 6, 8, 9), SCIENTIST: (3, 4, 7, 8, 9)}
    assert after.revealed is None and after.effect is None and after.ap is None
    assert kinds(after) == ["picked", "revealed", "tie", "drew", "drew", "round_end"]


# --- R5.4 the lower card's effect ---
def test_R5_4_the_lower_card_resolves_its_effect_first_unit_mandatory():
    s = board(BASE, raptor_hand="2 5 8", scientist_hand="1 4 9")
    s = play(play(s, RAPTOR, "play 8"), SCIENTIST, "play 9")
    assert s.phase is Phase.EFFECT
    assert (s.effect.side, s.effect.card, s.effect.done) == (RAPTOR, 8, 0)
    assert engine.to_act(s) == {RAPTOR}
    assert acts(s, RAPTOR) == actset("fear B1, fear L6")       # no 'end' before the first
    s = play(s, RAPTOR, "fear B1")
    assert acts(s, RAPTOR) == actset("fear L6, end")            # the second is optional
    s = play(s, RAPTOR, "end")
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST and s.ap.remaining == 1
    assert cells(s, SCIENTIST_ACTIVE) == {"L6"}


def test_R5_4_an_effect_with_nothing_possible_is_skipped():
    rows = ["s..........", "..B........", "......M....", "...........", "........B..",
            "..........s"]  # both scientists frightened: Fear has no target
    s = board(rows, raptor_hand="3 5 8", scientist_hand="1 4 9")
    s = play(play(s, RAPTOR, "play 3"), SCIENTIST, "play 9")
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST and s.ap.remaining == 6
    assert kinds(s)[-4:] == ["revealed", "effect", "effect_lost", "ap"]
    lost = s.events[-2]  # the unit the card allowed, unused, and why
    assert (lost.side, lost.value, lost.value2, lost.text) == (
        RAPTOR, 1, 3, "no standing scientist is left to frighten")
    assert acts(s, SCIENTIST) == actset("stand B1, stand L6, end")


def test_R5_4_an_effect_that_runs_out_of_choices_ends_and_says_why():
    """Recovery ×2 (R9.5) with one sleeping baby and no sleep token: one wake, then the
    effect ends by itself, its second unit unused, with the reason."""
    rows = ["S..........", "..b........", "......M....", "...........", "...........",
            "..........S"]
    s = board(rows, raptor_hand="3 5 8", scientist_hand="1 7 9")
    s = play(play(s, RAPTOR, "play 5"), SCIENTIST, "play 9")
    assert s.phase is Phase.EFFECT and not any(e.kind == "effect_lost" for e in s.events)
    s = play(s, RAPTOR, "wake D2")
    assert kinds(s) == ["woken", "effect_lost", "ap"]
    lost = s.events[1]
    assert (lost.side, lost.value, lost.value2) == (RAPTOR, 1, 5)
    assert lost.text == "the mother holds no sleep token and no baby is asleep"
    assert engine.Event.from_dict(lost.to_dict()) == lost
    assert lost.to_dict()["message"]["id"] == ("the mother holds no sleep token and no baby "
                                               "is asleep")
    # ended by the player ('end' after the first unit): no event, nothing to explain
    s = board(["S..........", "..b........", "......M....", "...........", "........b..",
               "..........S"], raptor_hand="3 5 8", scientist_hand="1 7 9")
    s = play(play(s, RAPTOR, "play 5"), SCIENTIST, "play 9")
    s = play(s, RAPTOR, "wake D2", "end")
    assert "effect_lost" not in kinds(s) and s.phase is Phase.AP


# --- R5.5 action points ---
def test_R5_5_the_higher_card_gives_the_difference_in_AP_and_has_no_effect():
    s = board(BASE, raptor_hand="3 5 8", scientist_hand="1 7 9")
    s = play(play(s, RAPTOR, "play 3"), SCIENTIST, "play 7")
    s = play(s, RAPTOR, "fear B1")
    assert s.phase is Phase.AP and s.ap.side is SCIENTIST and s.ap.remaining == 4
    assert cells(s, FIRE) == set()  # the scientist's Fire x3 is the higher card: no effect


def test_R5_5_unspent_AP_are_lost_when_the_player_ends():
    s = board(BASE, phase="ap", revealed="2 9", ap="scientist 7", raptor_pick=2,
              scientist_pick=9)
    after = play(s, SCIENTIST, "B1-C1", "end")
    assert after.phase is Phase.PICK and after.round == 2 and after.ap is None
    assert cells(after, SCIENTIST_ACTIVE) == {"C1", "L6"}


def test_R5_5_the_AP_phase_ends_when_the_AP_are_spent():
    s = board(BASE, phase="ap", revealed="5 6", ap="scientist 1", raptor_pick=5,
              scientist_pick=6)
    after = play(s, SCIENTIST, "L6-K6")
    assert after.phase is Phase.PICK and after.round == 2
    assert after.discards == {RAPTOR: (5,), SCIENTIST: (6,)}


def test_R5_5_an_AP_phase_with_nothing_possible_ends_by_itself():
    rows = ["M#.........",   # mother B1 boxed in by the rock C1, the rock B2 and the exit A1
            "#..........",
            "...........",
            "...........",
            "...........",
            "....b.....S"]
    s = board(rows, escaped=2, captured=2, reserve=0, raptor_hand="3 5 9",
              scientist_hand="2 4 6")
    s = play(play(s, RAPTOR, "play 9"), SCIENTIST, "play 2")
    # Reinforcements with an empty reserve: nothing; then 7 AP with nothing to do.
    assert s.phase is Phase.PICK and s.round == 2
    assert [(e.kind, e.side, e.value) for e in s.events] == [
        ("picked", SCIENTIST, None), ("revealed", None, 9), ("effect", SCIENTIST, 2),
        ("effect_lost", SCIENTIST, 2), ("ap", RAPTOR, 7), ("ap_lost", RAPTOR, 7),
        ("drew", RAPTOR, 1), ("drew", SCIENTIST, 1), ("round_end", None, 1)]
    assert s.board == board(rows).board  # nothing moved
    assert next(e for e in s.events if e.kind == "effect_lost").text == "the reserve is empty"
    # the event that ends it says why, from the position
    lost = next(e for e in s.events if e.kind == "ap_lost")
    assert lost.text == ("the mother has no free space next to her to run to; every baby on "
                         "the board is asleep")


def test_R5_5_an_AP_phase_ended_by_itself_says_the_mother_costs_too_much():
    rows = ["B..........",   # the baby on B1 escapes through A1; the one on D3 sleeps
            "...........",
            "..b..M.....",
            "...........",
            "...........",
            "..........S"]
    s = board(rows, phase="ap", revealed="9 7", ap="raptor 2", raptor_pick=9,
              scientist_pick=7, sleep=4)
    s = play(s, RAPTOR, "B1-A1")  # 1 AP left; the mother's first move costs 5
    lost = [e for e in s.events if e.kind == "ap_lost"]
    assert [(e.side, e.value, e.text) for e in lost] == [
        (RAPTOR, 1, "the mother's first move this round costs 5 AP (1 + her 4 sleep tokens); "
                    "every baby on the board is asleep")]
    assert s.phase is Phase.PICK and s.round == 2


# --- R5.6 end of round ---
def test_R5_6_played_cards_go_to_the_discard_and_each_player_draws_back_to_3():
    s = board(BASE, phase="ap", revealed="4 7", ap="scientist 3", raptor_hand="1 8",
              raptor_pick=4, raptor_deck="9 2 3", raptor_discard="5 6 7", scientist_hand="2 5",
              scientist_pick=7, scientist_deck="6 8 9 4", scientist_discard="1 3")
    after = play(s, SCIENTIST, "end")
    assert after.discards == {RAPTOR: (5, 6, 7, 4), SCIENTIST: (1, 3, 7)}
    assert after.hands == {RAPTOR: (1, 8, 9), SCIENTIST: (2, 5, 6)}
    assert after.decks == {RAPTOR: (2, 3), SCIENTIST: (8, 9, 4)}
    assert after.picks == {RAPTOR: None, SCIENTIST: None}


def test_R5_6_an_empty_deck_reshuffles_the_discard_including_this_rounds_card():
    s = board(BASE, phase="ap", revealed="5 7", ap="scientist 2", raptor_hand="3 8",
              raptor_pick=5, raptor_deck="-", raptor_discard="1 2 4 6 7 9",
              scientist_hand="2 5", scientist_pick=7, scientist_deck="9",
              scientist_discard="1 3 4 6 8", shuffles=3)
    after = play(s, SCIENTIST, "end")
    # Raptor: discard 1 2 4 6 7 9 + 5 becomes the deck; one card drawn; the hand 3 8 stays.
    assert after.discards[RAPTOR] == ()
    assert len(after.hands[RAPTOR]) == 3 and {3, 8} <= set(after.hands[RAPTOR])
    assert len(after.decks[RAPTOR]) == 6
    assert sorted(after.hands[RAPTOR] + after.decks[RAPTOR]) == list(range(1, 10))
    # Scientist: the deck's last card is drawn; no reshuffle needed.
    assert after.hands[SCIENTIST] == (2, 5, 9) and after.decks[SCIENTIST] == ()
    assert after.discards[SCIENTIST] == (1, 3, 4, 6, 8, 7)
    assert after.shuffles == 4
    assert [(e.kind, e.side) for e in after.events if e.kind == "shuffled"] == [
        ("shuffled", RAPTOR)]
    again = play(s, SCIENTIST, "end")
    assert again.key() == after.key()  # the reshuffle follows the seed


def test_R5_6_the_draw_after_a_reshuffle_depends_on_the_seed():
    draws = set()
    for seed in range(12):
        s = board(BASE, seed=seed, phase="ap", revealed="5 7", ap="scientist 2",
                  raptor_hand="3 8", raptor_pick=5, raptor_deck="-",
                  raptor_discard="1 2 4 6 7 9", scientist_pick=7)
        draws.add(play(s, SCIENTIST, "end").decks[RAPTOR])
    assert len(draws) > 6


def test_R5_6_sleep_and_fear_of_this_round_become_ordinary_at_the_round_end():
    rows = ["f..........", "..z........", "......M....", "...........", "...A....B..",
            "..........S"]
    s = board(rows, phase="ap", revealed="3 8", ap="scientist 1", raptor_pick=3,
              scientist_pick=8)
    after = play(s, SCIENTIST, "end")
    assert after.board[engine.square("B1")] == SCIENTIST_FRIGHTENED
    assert after.board[engine.square("D2")] == engine.state.BABY_ASLEEP
    assert after.board[engine.square("E5")] == SCIENTIST_ACTIVE
    assert cells(after, BABY) == {"J5"}
