"""The AI's memos give what the computation gives: the board part of the evaluation
(bot/ai/evaluation.py ``score``), the babies' distances to the exits (``exit_distances``)
and the easy policy's decisions in playouts (bot/ai/easy.py ``policy``)."""

from __future__ import annotations

import random

import pytest

import engine
from bot.ai import easy, evaluation, params
from bot.ai.evaluation import Position, exit_distances, score
from engine import GameState, Phase, Side, legal_actions, view
from tests.ai.helpers import diagram, random_positions, swap_hidden

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST


@pytest.fixture(scope="module")
def positions() -> list[tuple[GameState, Side]]:
    pos = random_positions(range(3), stride=5)
    assert len(pos) >= 150
    return pos


def _cold_score(p: Position) -> float:
    evaluation._SCORE_MEMO.clear()
    evaluation._DIST_CACHE.clear()
    return score(p)


def test_score_is_the_same_from_its_memo_and_for_every_number_of_action_points(positions):
    checked = 0
    for s, _side in positions:
        p = Position.of(s)
        cold = _cold_score(p)
        assert score(p) == cold  # from the memo
        # the board part is shared with the same position at other action points left
        for left in (0, 1, 3):
            q = p.copy()
            q.ap_left = left
            q.ap_side = p.ap_side or SCIENTIST
            warm = score(q)
            assert warm == _cold_score(q)
            checked += 1
    assert checked >= 450


def test_exit_distances_count_the_cost_of_each_square_on_the_way():
    free = diagram([".B.........", "...........", "......M....", "...........",
                    "........S..", "..........."])
    blocked = diagram(["SB.........", "...........", "......M....", "...........",
                       "........S..", "..........."])
    evaluation._DIST_CACHE.clear()
    c1, b1, c6 = engine.square("C1"), engine.square("B1"), engine.square("C6")
    dist = exit_distances(free.board, free.layout.exits)
    assert (dist[b1], dist[c1], dist[c6]) == (1, 2, 2)  # B1 then the exit A1 / A6
    # a scientist on B1 costs 5 (PATH_COST): 6 that way, 7 down column C to A6
    dist = exit_distances(blocked.board, blocked.layout.exits)
    assert (dist[b1], dist[c1]) == (1, 6)
    assert exit_distances(blocked.board, blocked.layout.exits) == dist  # memoized
    assert params.PATH_COST[engine.state.SCIENTIST_ACTIVE] == 5


def test_the_policy_memo_decides_as_the_greedy_policy_whatever_the_hidden_cards(positions):
    checked = 0
    for s, side in positions:
        if s.phase is Phase.PICK:
            continue
        easy._POLICY_MEMO.clear()
        expected = easy.greedy(s, side, legal_actions(s, side))
        assert easy.policy(s, side) == expected
        # another determinization of the same view: a memo hit, the same decision
        other = engine.sample_state(view(s, side), random.Random(checked))
        assert easy.policy(other, side) == expected
        assert easy.greedy(other, side, legal_actions(other, side)) == expected
        other = swap_hidden(s, side.other)
        assert easy.policy(other, side) == expected
        checked += 1
    assert checked >= 60
