"""Raptor through the platform's protocol (engine.raptor_game): the same games as the engine's
own functions, seat 0 the raptor and seat 1 the scientist."""

from __future__ import annotations

import random

import pytest

import engine
from engine.game import Game, OptionSpec, Outcome, RecordHeader, resolve_options
from engine.raptor_game import RAPTOR, SEAT_SIDES, side_of
from tests.game_conformance import play_checked


def test_raptor_is_a_game():
    assert isinstance(RAPTOR, Game)
    assert (RAPTOR.name, RAPTOR.min_seats, RAPTOR.max_seats) == ("raptor", 2, 2)
    assert [o.name for o in RAPTOR.options] == ["environment", "setup", "layout"]
    assert SEAT_SIDES == (engine.Side.RAPTOR, engine.Side.SCIENTIST)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_the_protocol(seed):
    env = ("jungle", "savannah")[seed % 2]
    played = play_checked(RAPTOR, seed, 2, {"environment": env, "setup": "manual"},
                          check_every=7)
    state = played.final
    assert played.outcome.places[SEAT_SIDES.index(state.winner)] == 1
    assert played.outcome.reason == state.reason.value
    # the same game as the engine's own functions
    direct = engine.replay(seed, engine.Options(env, "random", "manual"),
                           [(SEAT_SIDES[seat], a) for seat, a in played.log])
    assert direct.to_json() == state.to_json()


def test_seats_map_to_sides():
    state = RAPTOR.new_game(5, 2, {})
    assert state.options == engine.Options("jungle", "random", "quick")
    assert RAPTOR.to_act(state) == {0, 1}  # the round-1 card pick (R5.1)
    assert RAPTOR.view(state, 0).viewer is engine.Side.RAPTOR
    assert RAPTOR.view(state, None).hand is None
    assert RAPTOR.legal_actions(state, 1) == engine.legal_actions(state, engine.Side.SCIENTIST)
    with pytest.raises(engine.OptionError):
        side_of(2)
    with pytest.raises(ValueError, match="2 players, not 3"):
        RAPTOR.new_game(5, 3, {})
    with pytest.raises(ValueError, match="cannot be 'desert'"):
        RAPTOR.new_game(5, 2, {"environment": "desert"})


def test_turn_keys_follow_the_clock_rules():
    rng = random.Random(3)
    state = RAPTOR.new_game(3, 2, {})
    assert RAPTOR.turn(state, 0) == RAPTOR.turn(state, 1) == (1, "pick")
    while state.phase is not engine.Phase.AP:
        seat = min(RAPTOR.to_act(state))
        state = RAPTOR.apply(state, seat, rng.choice(RAPTOR.legal_actions(state, seat)))
    seat = min(RAPTOR.to_act(state))
    key = RAPTOR.turn(state, seat)
    assert key == (state.round, "ap", SEAT_SIDES[seat].value)
    manual = RAPTOR.new_game(3, 2, {"setup": "manual"})
    assert RAPTOR.turn(manual, 0) is None  # each placement is a turn of its own (R4)


def test_only_ap_actions_of_the_running_phase_may_be_undone():
    rng = random.Random(11)
    state = RAPTOR.new_game(11, 2, {})
    seen = {True: 0, False: 0}
    for _ in range(400):
        acting = RAPTOR.to_act(state)
        if not acting:
            break
        seat = min(acting)
        after = RAPTOR.apply(state, seat, rng.choice(RAPTOR.legal_actions(state, seat)))
        ok = RAPTOR.may_undo(state, after, seat)
        seen[ok] += 1
        if ok:
            assert state.phase is after.phase is engine.Phase.AP
            assert state.ap.side is after.ap.side is SEAT_SIDES[seat]
        state = after
    assert seen[True] > 0 and seen[False] > 0


def test_the_record_of_a_resignation_names_the_winner():
    state = RAPTOR.new_game(8, 2, {})
    text = RAPTOR.write_record(8, 2, {}, [], RecordHeader(
        event="Raptor match 1", players=("alice", "bob"), ending="resigned",
        winners=frozenset({1})))
    rec = RAPTOR.read_record(text)
    assert (rec.result, rec.reason, rec.header["Raptor"]) == ("scientist", "resigned", "alice")
    assert state.round == 1
    with pytest.raises(ValueError):
        RAPTOR.write_record(8, 2, {}, [], RecordHeader())  # unfinished: no record


def test_options_resolve_to_their_defaults():
    specs = (OptionSpec("board", ("desert", "jungle"), "desert"),)
    assert resolve_options(specs, {}) == {"board": "desert"}
    assert resolve_options(specs, {"board": "jungle"}) == {"board": "jungle"}
    with pytest.raises(ValueError, match="unknown option 'size'"):
        resolve_options(specs, {"size": "3"})
    with pytest.raises(ValueError, match="choose desert, jungle"):
        resolve_options(specs, {"board": "moon"})
    with pytest.raises(ValueError):
        OptionSpec("board", ("desert",), "jungle")


def test_outcomes_rank_every_seat():
    assert Outcome.by_scores([15, 13, 16, 13], "finished").places == (2, 3, 1, 3)
    assert Outcome.by_scores([3, 3], "x").winners == {0, 1}
    assert Outcome.winner_takes_all(4, {2}, "x").places == (2, 2, 1, 2)
    assert Outcome.winner_takes_all(3, {0, 1}, "x").places == (1, 1, 3)
    with pytest.raises(ValueError):
        Outcome((1, 2, 2, 3), "x")  # after a tie for second comes fourth
    with pytest.raises(ValueError):
        Outcome((1, 2), "x", scores=(1.0,))
