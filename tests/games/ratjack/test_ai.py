"""The Ratjack AI seats: legal, deterministic, from their view only, within their clock, and
sensible where one move is plainly best."""

from __future__ import annotations

import pytest

from bot.games.ratjack import ai
from bot.games.ratjack.ai import choose_action, round_chances, value
from engine.ratjack import Phase, format_action, legal_actions, to_act, view
from tests.engine.ratjack.conftest import pos, random_states, redeal


def _decisions(count: int, seed: int):
    for s, rng in random_states(count, seed):
        if s.phase is not Phase.OVER:
            (seat,) = to_act(s)
            yield s, seat, rng


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_ai_chooses_a_legal_action_from_its_view(level):
    for s, seat, _ in _decisions(20, 21):
        action = choose_action(view(s, seat), level=level, seed=3, iterations=2)
        assert action in legal_actions(s, seat)


def test_the_same_view_seed_and_iterations_give_the_same_action():
    for s, seat, _ in _decisions(12, 4):
        v = view(s, seat)
        for level in ("easy", "hard"):
            first = choose_action(v, level=level, seed=9, iterations=3)
            assert choose_action(v, level=level, seed=9, iterations=3) == first


def test_the_ai_cannot_tell_states_apart_that_its_view_does_not():
    for s, seat, rng in _decisions(12, 6):
        other = redeal(s, seat, rng)
        assert view(other, seat) == view(s, seat)
        assert (choose_action(view(other, seat), level="hard", seed=1, iterations=3)
                == choose_action(view(s, seat), level="hard", seed=1, iterations=3))


def test_the_hard_level_stops_at_its_budget(monkeypatch):
    s = pos("""
        players: 3
        p1 hand: R5
        p1 display: R3 ~B10
        p2 hand: B4
        p2 display: ~R2 B5
        p3 hand: R1
        p3 display: R12
        discard: B7
    """)
    samples = []
    real = ai.sample_state
    monkeypatch.setattr(ai, "sample_state", lambda v, rng: samples.append(1) or real(v, rng))
    ticks = iter(range(1000))
    choose_action(view(s, 0), level="hard", time_budget=2.5, clock=lambda: next(ticks))
    assert len(samples) == 3  # determinizations begun at t = 0, 1 and 2
    samples.clear()
    choose_action(view(s, 0), level="hard", time_budget=0.0, clock=lambda: 5.0)
    assert len(samples) == 1  # one always runs
    samples.clear()
    choose_action(view(s, 0), level="hard", iterations=4, clock=lambda: 1 / 0)
    assert len(samples) == 4  # with fixed iterations the clock is never read


def test_the_hard_level_takes_an_exact_25_and_the_easy_one_too():
    s = pos("""
        phase: action
        p1 hand: B10 B2
        p1 display: R12 R3
        p2 hand: B5
        p2 display: R11
    """)
    for level in ("hard", "easy"):
        hits = sum(format_action(choose_action(view(s, 0), level=level, seed=k,
                                               iterations=3)) == "up B10" for k in range(10))
        assert hits >= (10 if level == "hard" else 6)


def test_the_hard_level_does_not_go_over_25_when_it_need_not():
    s = pos("""
        phase: action
        p1 hand: B11 B3
        p1 display: R12 B4
        p2 hand: B5
        p2 display: R10
    """)
    picks = {format_action(choose_action(view(s, 0), level="hard", seed=k, iterations=4))
             for k in range(5)}
    assert "up B11" not in picks


def test_value_rewards_vp_and_a_total_near_25():
    s = pos("""
        players: 3
        p1 hand: R1
        p1 display: R12 R11
        p2 hand: B4
        p2 display: R3
        p3 hand: B5
        p3 display: R4
    """)
    chances = round_chances(s)
    assert chances[0] > chances[1] > 0 and abs(sum(chances.values()) - 1) < 1e-9
    assert value(s, 0) > value(s, 1)
    richer = pos("""
        players: 3
        vp: 0 2 0
        p1 hand: R1
        p1 display: R12 R11
        p2 hand: B4
        p2 display: R3
        p3 hand: B5
        p3 display: R4
    """)
    assert value(richer, 1) > value(s, 1) and value(richer, 0) < value(s, 0)


def test_bad_requests_are_refused():
    s = pos("p1 hand: R1\np2 hand: B1")
    with pytest.raises(ValueError, match="level is one of easy, hard"):
        choose_action(view(s, 0), level="expert")
    with pytest.raises(ValueError, match="a seat that has a decision"):
        choose_action(view(s, None))
    with pytest.raises(ValueError, match="a seat that has a decision"):
        choose_action(view(s, 1))
