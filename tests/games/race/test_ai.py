"""The Raptor Race AI seats (bot.games.race.ai): legal, deterministic, honest (a seat's
view only), within their clock, and they refuse what is not theirs to decide."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engine.race as race
from bot.games.race import ai
from bot.games.race.ai import LEVELS, choose_action, expected_score
from engine.race import Board, Raptor
from tests.engine.race.helpers import position, sampled_states

SAMPLED = [s for s in sampled_states(6, 5) if not s.is_over]


@pytest.mark.parametrize("level", LEVELS)
def test_every_decision_is_legal(level):
    for n, s in enumerate(SAMPLED):
        a = choose_action(race.view(s, s.seat), level=level, seed=n, iterations=300)
        assert a in race.legal_actions(s, s.seat)


@pytest.mark.parametrize("level", LEVELS)
def test_a_race_of_ai_seats_plays_to_its_end(level):
    s = race.new_game(3, 3, "jungle")
    n = 0
    while not s.is_over:
        s = race.apply(s, s.seat, choose_action(race.view(s, s.seat), level=level, seed=n,
                                                iterations=500))
        n += 1
    assert race.outcome(s) is not None


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_seed_and_iterations_give_the_same_action(level):
    for n, s in enumerate(SAMPLED[::3]):
        v = race.view(s, s.seat)
        first = choose_action(v, level=level, seed=n, iterations=400)
        assert all(choose_action(v, level=level, seed=n, iterations=400) == first
                   for _ in range(2))


@pytest.mark.parametrize("level", LEVELS)
def test_the_decision_reads_no_other_seats_card(level):
    rng = random.Random(2)
    for n, s in enumerate(SAMPLED[::2]):
        pool = [c for c in race.CARDS if c != s.cards[s.seat]]
        others = rng.sample(pool, s.seats - 1)
        cards = tuple(s.cards[s.seat] if k == s.seat else others.pop() for k in range(s.seats))
        t = replace(s, cards=cards, seed=s.seed + 1)
        assert choose_action(race.view(t, t.seat), level=level, seed=n, iterations=400) == \
            choose_action(race.view(s, s.seat), level=level, seed=n, iterations=400)


def test_its_own_card_changes_its_decisions():
    # the converse: the AI does read its own card
    changed = 0
    for n, s in enumerate(SAMPLED):
        other = next(c for c in race.CARDS if c not in s.cards)
        t = replace(s, cards=tuple(other if k == s.seat else c for k, c in enumerate(s.cards)))
        changed += choose_action(race.view(t, t.seat), level="hard", seed=n,
                                 iterations=400) != choose_action(
            race.view(s, s.seat), level="hard", seed=n, iterations=400)
    assert changed >= len(SAMPLED) // 10


def test_the_hard_search_stops_at_its_deadline():
    s = position("""
        race: jungle, 3 seats
          9  . . ^ G O
          8  . . . . P
          7  # Y . . ^
          5  B ^ . # .
          0  s s s s s
        phase: move
        kept: BBGT
        arrows: 2
        """)
    ticks = iter(range(10**6))
    a = choose_action(race.view(s, 0), level="hard", seed=0, time_budget=0.05,
                      clock=lambda: next(ticks) * 0.001)
    assert a in race.legal_actions(s, 0)
    assert next(ticks) < 400  # read every 64 positions: stopped soon after 50 ticks


def test_the_hard_search_crosses_the_line_when_that_wins_its_card():
    s = position("""
        race: desert, 2 seats
         12  B . . . .
         11  . G O . .
          0  s s s P Y
        cards: 1 2
        phase: move
        kept: BTTT
        """)  # card 1 is BGO: blue first, green second, orange third is 26 points
    assert race.format_action(choose_action(race.view(s, 0), level="hard", seed=0)) == "B>A13"


def test_the_value_of_a_finished_race_is_its_score_and_of_a_race_under_way_a_mean():
    raptors = tuple(race.space(n) for n in ("A13", "B9", "C9", "D2", "E0"))
    assert expected_score(Board.DESERT, raptors, Raptor.BLUE, 1) == 26.0  # BGO, bonus
    start = tuple(race.space(n) for n in ("A0", "B0", "C0", "D0", "E0"))
    # all on row 0: every top three alike, so the mean of a card's points over them
    values = {expected_score(Board.DESERT, start, None, card) for card in race.CARDS}
    assert len({round(v, 9) for v in values}) == 1
    assert 0 < values.pop() < 26
    ahead = tuple(race.space(n) for n in ("A10", "B2", "C2", "D2", "E2"))
    assert expected_score(Board.DESERT, ahead, None, 1) > expected_score(
        Board.DESERT, ahead, None, 9)  # card 1 has blue first, card 9 (PBO) second


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"level": "expert"}, ValueError), ({"iterations": 0}, ValueError),
    ({"time_budget": 0}, ValueError),
])
def test_bad_arguments_are_refused(kwargs, error):
    s = race.new_game(1, 2, "desert")
    with pytest.raises(error):
        choose_action(race.view(s, s.seat), **kwargs)


def test_only_the_seat_to_decide_with_its_own_view():
    s = race.new_game(1, 2, "desert")
    with pytest.raises(ValueError, match="public"):
        choose_action(race.view(s, None))
    with pytest.raises(ValueError, match="nothing to decide"):
        choose_action(race.view(s, 1 - s.seat))
    with pytest.raises(TypeError):
        choose_action(s)
    assert ai.DEFAULT_NODES > 0 and ai.NODES_PER_SECOND > 0
