"""The toy game of the platform's tests (tests/toy_game.py) keeps the Game protocol."""

from __future__ import annotations

import pytest

from engine.game import Game, RecordHeader
from tests.game_conformance import play_checked
from tests.toy_game import NIM, NimError, Take


def test_secret_nim_is_a_game():
    assert isinstance(NIM, Game)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(20))
def test_random_games_keep_the_protocol(seats, seed):
    played = play_checked(NIM, seed, seats, {"pile": ("10", "15", "21")[seed % 3]})
    assert sum(played.final.taken) == int(played.options["pile"])
    assert played.outcome.scores == NIM.scores(played.final)


def test_a_seat_sees_its_own_card_only_until_the_end():
    state = NIM.new_game(4, 3, {"pile": "10"})
    assert NIM.view(state, 1).cards == (None, state.cards[1], None)
    assert NIM.view(state, None).cards == (None, None, None)
    for _ in range(3):
        state = NIM.apply(state, state.turn, Take(3))
    state = NIM.apply(state, state.turn, Take(1))
    assert NIM.view(state, None).cards == state.cards


def test_a_forfeited_seat_is_skipped_and_keeps_its_score():
    state = NIM.apply(NIM.new_game(1, 3, {"pile": "10"}), 0, Take(2))
    state = NIM.forfeit(state, 1)
    assert NIM.to_act(state) == {2} and state.out == {1}
    state = NIM.forfeit(state, 2)
    assert NIM.legal_actions(state, 0) == [Take(8)]  # the last seat left takes the rest
    state = NIM.apply(state, 0, Take(8))
    assert NIM.outcome(state).places == (1, 2, 2)


def test_bad_takes_say_what_is_legal():
    state = NIM.new_game(1, 2, {"pile": "10"})
    with pytest.raises(NimError, match="take 1 or 2 or 3"):
        NIM.parse_action("take 5", state, 0)
    with pytest.raises(NimError, match="not your turn"):
        NIM.parse_action("take 1", state, 1)
    with pytest.raises(NimError, match="write it as 'take 2'"):
        NIM.parse_action("grab", state, 0)


def test_a_record_reads_back_to_the_same_game():
    played = play_checked(NIM, 9, 3, {"pile": "21"})
    text = NIM.write_record(9, 3, {"pile": "21"}, played.log,
                            RecordHeader(players=("a", "b", "c")))
    assert NIM.state_to_json(NIM.read_record(text)) == NIM.state_to_json(played.final)
    with pytest.raises(NimError, match="still in progress"):
        NIM.write_record(9, 3, {"pile": "21"}, played.log[:2], RecordHeader())
