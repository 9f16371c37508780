"""Seeded random play: the platform's protocol promises (tests.game_conformance) for 2, 3 and
4 players, and the game's invariants at every step: cards and chips conserved, totals, VP
never lost, eliminated players inert, one card in hand between turns (RJ3.3), no effect cut
short, JSON round trip, replay, and every game ends. A few hundred games by default; the
``soak`` marker plays thousands."""

from __future__ import annotations

import random

import pytest

from engine.ratjack import (
    DECK_PAIRS,
    RATJACK,
    Phase,
    State,
    apply,
    legal_actions,
    new_game,
    replay,
    to_act,
    total,
    view,
)
from engine.ratjack.cards import CHIP_SIZES, round_cards
from tests.game_conformance import play_checked

PAIRS = list(DECK_PAIRS)
MAX_STEPS = 20_000


def check_step(before: State, after: State, *, with_view: bool = True) -> None:
    """The invariants between two successive states (``with_view``: the public view's
    totals too)."""
    cards = (after.deck + after.discard + [h.card for hd in after.hands for h in hd]
             + [x.card for d in after.displays for x in d] + [c for g in after.gone for c in g]
             + ([after.drawn] if after.drawn is not None else []))
    assert sorted(cards) == sorted(round_cards(after.decks))  # the round's 24, once each
    chips = list(after.reserve) + [c for d in after.displays for x in d for c in x.chips]
    assert sorted(chips) == list(range(len(CHIP_SIZES)))  # six chips, each somewhere once
    assert all(v >= w for v, w in zip(after.vp, before.vp, strict=True))  # VP are never lost
    totals = view(after, None).totals if with_view else None
    for q in range(after.seats):
        if totals is not None:
            assert totals[q] == sum(x.up and int(x.card[1:]) + sum(
                after.signs[c] * CHIP_SIZES[c] for c in x.chips) for x in after.displays[q])
            assert totals[q] == total(after, q)
        if after.out[q]:  # eliminated: inert
            assert not after.hands[q] and not after.displays[q] and q not in to_act(after)
        if after.forfeited[q]:
            assert after.out[q]
        for x in after.displays[q]:
            assert not (x.up and x.seen)
    if after.phase is Phase.DRAW:
        assert all(len(after.hands[q]) == 1 for q in range(after.seats) if not after.out[q])
    if after.phase in (Phase.ACTION,):
        assert len(after.hands[after.current]) == 2
    if after.phase is not Phase.OVER:
        assert after.phase is Phase.EFFECT or not after.stack
        assert len(to_act(after)) == 1 and legal_actions(after, next(iter(to_act(after))))
    assert "cut_short" not in [e.kind for e in after.events]


def play_invariants(seed: int, seats: int, decks: str) -> tuple[State, int]:
    """One random game with :func:`check_step` at every step and JSON checks now and then;
    returns the final state and the number of decisions."""
    rng = random.Random(seed)
    s = new_game(seed, seats, decks)
    log = []
    for step in range(MAX_STEPS):
        if s.phase is Phase.OVER:
            break
        (seat,) = to_act(s)
        action = rng.choice(legal_actions(s, seat))
        t = apply(s, seat, action)
        log.append((seat, action))
        check_step(s, t, with_view=step % 4 == 0)
        if step % 13 == 0:
            assert State.from_json(t.to_json()).to_json() == t.to_json()
        s = t
    else:
        raise AssertionError(f"seed {seed}: not over after {MAX_STEPS} decisions")
    assert s.winners and all(s.vp[q] >= 3 for q in s.winners)
    assert replay(seed, seats, decks, log).to_json() == s.to_json()
    return s, len(log)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_the_invariants(seats):
    for seed in range(40):
        play_invariants(seed * 7 + seats, seats, PAIRS[seed % 4])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_keep_the_protocol(seats):
    for seed in range(12):
        played = play_checked(RATJACK, 1000 + seed, seats, {"decks": PAIRS[seed % 4]},
                              check_every=5)
        assert played.outcome.scores == tuple(float(v) for v in played.final.vp)
        assert played.outcome.winners == frozenset(played.final.winners)


@pytest.mark.soak
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_soak_thousands_of_games_keep_the_invariants(seats):
    decisions = 0
    for seed in range(1000):
        _, n = play_invariants(50_000 + seed * 3 + seats, seats, PAIRS[seed % 4])
        decisions += n
    assert decisions > 1000 * 100


@pytest.mark.soak
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_soak_thousands_of_games_keep_the_protocol(seats):
    for seed in range(500):
        play_checked(RATJACK, 90_000 + seed, seats, {"decks": PAIRS[seed % 4]}, check_every=5)


def test_forfeits_in_random_play_keep_the_invariants():
    rng = random.Random(4)
    for seed in range(40):
        seats = 2 + seed % 3
        s = new_game(seed, seats, PAIRS[seed % 4])
        log = []
        while s.phase is not Phase.OVER:
            if rng.random() < 0.004:
                leaver = rng.randrange(seats)
                t = RATJACK.forfeit(s, leaver)
                log.append((leaver, None))
            else:
                (seat,) = to_act(s)
                action = rng.choice(legal_actions(s, seat))
                t = apply(s, seat, action)
                log.append((seat, action))
            events = [e.kind for e in t.events]
            if "cut_short" in events:  # only a forfeit may cut an effect short (RJ8.4)
                assert "forfeit" in events
                t.events = [e for e in t.events if e.kind != "cut_short"]
                check_step(s, t)
            else:
                check_step(s, t)
            s = t
        assert replay(seed, seats, PAIRS[seed % 4], log).to_json() == s.to_json()
        if s.reason.value == "last_in_match":
            assert sum(not f for f in s.forfeited) == 1
