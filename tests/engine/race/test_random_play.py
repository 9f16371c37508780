"""Seeded random races through the platform's protocol (tests.game_conformance.play_checked)
with the race's own invariants checked at every step: five raptors on distinct free
spaces, four footprint dice, arrows never negative, distinct cards (helpers.check_invariants),
the stored JSON round-trip, replay, and the race always ends.

The default run plays 200 races (the protocol's checks at every 11th step); ``-m soak``
plays 3,200 with every check at every step."""

from __future__ import annotations

import random

import pytest

import engine.race as R
from engine.race import RACE, Phase
from tests.game_conformance import play_checked

from .helpers import check_invariants


def _play(seed: int, seats: int, board: str, check_every: int) -> R.RaceState:
    played = play_checked(RACE, seed, seats, {"board": board}, check_every=check_every)
    # the game-specific invariants at every state of the race, rebuilt from its log
    state = RACE.new_game(seed, seats, {"board": board})
    check_invariants(state)
    for seat, action in played.log:
        state = RACE.apply(state, seat, action)
        check_invariants(state)
    assert state == played.final and state.is_over
    assert R.RaceState.from_json(state.to_json()) == state
    out = played.outcome
    assert out.reason == "finished" and len(out.places) == seats
    assert out.scores == tuple(float(c.total) for c in R.card_scores(state))
    return state


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("board", ["desert", "jungle"])
def test_RR3_RR6_random_races_keep_every_promise(board, seats):
    turns = []
    for seed in range(25):
        final = _play(1000 * seats + seed, seats, board, check_every=11)
        turns.append(final.turn)
    assert min(turns) >= 3 and max(turns) < 60


@pytest.mark.soak
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("board", ["desert", "jungle"])
def test_RR3_RR6_thousands_of_random_races_checked_at_every_step(board, seats):
    for seed in range(400):
        _play(100_000 + 1000 * seats + seed, seats, board, check_every=1)


def test_RR3_6_random_races_with_forfeits_replay_and_still_score():
    rng = random.Random(5)
    for seed in range(30):
        seats = 2 + seed % 4
        board = ("desert", "jungle")[seed % 2]
        state = RACE.new_game(seed, seats, {"board": board})
        log = []
        while not state.is_over:
            if rng.random() < 0.02 and len(state.forfeited) < seats - 1:
                seat = rng.randrange(seats)
                after = RACE.forfeit(state, seat)
                if after is not state:
                    log.append((seat, R.Forfeit()))
                    state = after
                    check_invariants(state)
                    continue
            action = rng.choice(RACE.legal_actions(state, state.seat))
            log.append((state.seat, action))
            state = RACE.apply(state, state.seat, action)
            check_invariants(state)
        assert RACE.replay(seed, seats, {"board": board}, log) == state
        assert len(RACE.outcome(state).places) == seats
        for seat in state.forfeited:
            assert RACE.legal_actions(state, seat) == []
        assert state.phase is Phase.OVER
