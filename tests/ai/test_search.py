"""The hard level's search (bot/ai/search.py): escape plans, the raptor's lookahead and
the card pick's payoff table."""

from __future__ import annotations

import math
import random

import pytest

import engine
from bot.ai import choose_action, easy, evaluation, params, pick_model, search
from engine import Phase, Side, legal_actions, view
from engine.state import EMPTY
from tests.ai.helpers import diagram, pick_position

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST

#: A baby on D1, the mother on H3 and a scientist on J5; exits in the four corners.
BOARD = ["..B........",
         "...........",
         "......M....",
         "...........",
         "........S..",
         "..........."]


# ----------------------------------------------------------------------------- hard search
def test_escape_path_goes_round_figurines_to_the_nearest_exit():
    s = diagram(BOARD)
    path = search._escape_path(s.board, engine.square("D1"), s.layout.exits)
    assert path == [engine.square(q) for q in ("C1", "B1", "A1")]
    blocked = diagram([".SB........",
                       "S..........",
                       "......M....",
                       "...........",
                       "........S..",
                       "..........."])
    path = search._escape_path(blocked.board, engine.square("D1"), blocked.layout.exits)
    # B1 and B2 hold scientists: round them down column C to A6 (8 steps; M1 needs 9)
    assert path[-1] == engine.square("A6") and len(path) == 8
    steps = [engine.square("D1"), *path]
    assert all(b in engine.geometry.NEIGHBOURS[a] for a, b in zip(steps, steps[1:], strict=False))
    assert all(blocked.board[q] == EMPTY for q in path[:-1])


def test_hard_walks_a_baby_out_over_several_steps_rather_than_kill():
    # three AP: the baby on D1 reaches A1 in three steps and wins (R6.1: third escape);
    # a kill of the scientist next to the mother scores more after one step
    s = diagram(["..B........",
                 "...........",
                 "......MS...",
                 "...........",
                 "........S..",
                 "..........."], phase="ap", ap="raptor 3", revealed="9 6",
                escaped="2")
    assert easy.greedy(s, RAPTOR, legal_actions(s, RAPTOR)) == engine.Kill(engine.square("I3"))
    action = choose_action(view(s, RAPTOR), level="hard", seed=0, iterations=6)
    assert action == engine.MoveBaby(engine.square("D1"), engine.square("C1"))



# ----------------------------------------------------------------------------- lookahead
def test_lookahead_values_a_round_the_scientist_wins_as_lost():
    # the scientist has 2 AP left and two babies already captured: the easy scientist
    # captures the sleeping baby on E2 (R8.4) and wins (R6.2) before the next pick
    s = diagram(["...........",
                 "..bS.......",
                 "...........",
                 "......M....",
                 "..B........",
                 "..........."], phase="ap", ap="scientist 2", revealed="3 9",
                captured="2")
    styles = {RAPTOR: params.W, SCIENTIST: params.W}
    value = search._next_pick_value(s, RAPTOR, s.round, random.Random(0), styles)
    slope, offset = params.WIN_CHANCE[RAPTOR]
    assert value == pytest.approx(1.0 / (1.0 + math.exp(slope * params.WIN - offset)))
    assert value < 1e-20   # a lost game: no chance at all


def test_raptor_values_positions_as_a_chance_of_winning():
    # the raptor's values are the logistic of its score (R6: a won game about 1, a lost
    # one about 0); the scientist's stay in points
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...S.......",
                 "........S..",
                 "..B........"], round="4")
    slope, offset = params.WIN_CHANCE[RAPTOR]
    points = evaluation.score(evaluation.Position.of(s))
    chance = search._value(s, RAPTOR)
    assert chance == pytest.approx(1.0 / (1.0 + math.exp(-(slope * points + offset))))
    assert 0.05 < chance < 0.999
    assert search._value(s, SCIENTIST) == -points
    won = diagram(["..B........",
                   "...........",
                   "......M....",
                   "...........",
                   "...........",
                   "..B........"], escaped="3")
    assert search._value(won, RAPTOR) == pytest.approx(1.0)


def test_lookahead_at_the_next_pick_is_our_best_card_in_the_pick_table():
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...S.......",
                 "........S..",
                 "..B........"], round="4", raptor_hand="2 5 8", scientist_discard="9 2")
    assert s.phase is Phase.PICK
    styles = {RAPTOR: params.W, SCIENTIST: params.W}
    value = search._next_pick_value(s, RAPTOR, s.round - 1, random.Random(7), styles)
    table = search._pick_table(view(s, RAPTOR), RAPTOR, [2, 5, 8], random.Random(7), styles,
                           params.LOOKAHEAD_MIN_PROB)
    assert set(table) == {2, 5, 8}
    assert value == max(table.values())


def test_hard_raptor_plays_the_proposal_the_lookahead_values_most(monkeypatch):
    # one AP: the beam proposes each single action; the lookahead, not the static score,
    # chooses among them. Make it prefer the baby on D1 stepping to C1, which the static
    # score ranks below the mother's moves.
    s = diagram(BOARD, phase="ap", ap="raptor 1", revealed="9 8")
    assert params.LOOKAHEAD[RAPTOR]
    target = engine.square("C1")
    proposals = [first for _v, first, _n
                 in search._beam(s, RAPTOR, params.BEAM_WIDTH[RAPTOR], params.W)]
    wanted = engine.MoveBaby(engine.square("D1"), target)
    assert wanted in proposals[:params.TOP_K[RAPTOR]] and proposals[0] != wanted

    def fake(state, me, r0, rng, styles, clock=None):
        return 100.0 if state.board[target] == engine.state.BABY else 0.0

    monkeypatch.setattr(search, "_next_pick_value", fake)
    assert choose_action(view(s, RAPTOR), level="hard", seed=0, iterations=6) == wanted


def test_lookahead_stops_valuing_proposals_once_the_deadline_has_passed(monkeypatch):
    s = diagram(BOARD, phase="ap", ap="raptor 2", revealed="9 7")
    finals = search._beam(s, RAPTOR, params.BEAM_WIDTH[RAPTOR], params.W)
    assert len(finals) >= 4
    calls = []

    def counted(state, me, r0, rng, styles, clock=None):
        calls.append(state.board)
        return float(len(calls))  # the later a proposal is valued, the more it is worth

    monkeypatch.setattr(search, "_next_pick_value", counted)
    styles = {RAPTOR: params.W, SCIENTIST: params.W}
    # a deadline already passed: only the two best proposals (by static score) are valued
    late = search._best_by_lookahead(finals, s.round, RAPTOR, random.Random(0),
                                 search.Clock(20, 0.0), styles)
    assert len(calls) == 2 and late == finals[1][1]
    calls.clear()
    # no deadline (fixed iterations): every proposal is valued, and the last one wins here
    every = search._best_by_lookahead(finals, s.round, RAPTOR, random.Random(0),
                                  search.Clock(20, None), styles)
    assert len(calls) == len(finals) and every == finals[-1][1]



def test_each_side_searches_with_its_own_beam_and_proposals(monkeypatch):
    # the raptor's AP phase with 1 AP: each action its own proposal, more than TOP_K
    s = diagram(BOARD, phase="ap", ap="raptor 1", revealed="9 8")
    assert params.TOP_K[RAPTOR] == 12 and params.TOP_K[SCIENTIST] == 6
    widths, valued = [], []
    real_beam = search._beam

    def beam(state, me, width, w=params.W, clock=None):
        widths.append(width)
        return real_beam(state, me, width, w, clock)

    def lookahead(finals, r0, me, rng, clock, styles):
        valued.append(len(finals))
        return finals[0][1]

    monkeypatch.setattr(search, "_beam", beam)
    monkeypatch.setattr(search, "_best_by_lookahead", lookahead)
    monkeypatch.setattr(params, "ESCAPE_PLANS", False)
    choose_action(view(s, RAPTOR), level="hard", seed=0, iterations=40)
    assert widths == [params.BEAM_WIDTH[RAPTOR]] and valued == [params.TOP_K[RAPTOR]]
    widths.clear()
    valued.clear()
    monkeypatch.setitem(params.TOP_K, RAPTOR, 3)
    monkeypatch.setitem(params.BEAM_WIDTH, RAPTOR, 4)
    choose_action(view(s, RAPTOR), level="hard", seed=0, iterations=40)
    assert widths == [4] and valued == [3]
    widths.clear()
    # the scientist's AP phase: its own beam width (its proposals go to rollouts)
    t = diagram(BOARD, phase="ap", ap="scientist 2", revealed="1 3")
    choose_action(view(t, SCIENTIST), level="hard", seed=0, iterations=40)
    assert widths == [params.BEAM_WIDTH[SCIENTIST]] == [6]


def test_hard_raptor_picks_the_card_the_lookahead_values_most(monkeypatch):
    # the pick values each pair of cards by the lookahead (the round played out, then the
    # next pick): make it prefer card 5 whatever the scientist plays
    s = pick_position()
    assert params.PICK_LOOKAHEAD[RAPTOR]
    seen = []

    def fake(state, me, r0, rng, styles, clock=None):
        assert me is RAPTOR and r0 == s.round
        seen.append(state.revealed)
        return 1.0 if state.revealed is not None and state.revealed[0] == 5 else 0.0

    monkeypatch.setattr(search, "_next_pick_value", fake)
    assert choose_action(view(s, RAPTOR), level="hard", seed=3, iterations=100) == engine.Pick(5)
    # every raptor card against every card outside the scientist's discard pile (a tie
    # ends the round at once, R5.3, so that pair has no revealed cards left to see)
    pairs = {r for r in seen if r is not None}
    assert pairs == {(mine, theirs) for mine in (2, 5, 8) for theirs in (1, 3, 4, 5, 6, 7, 8)
                     if mine != theirs}
    # without the lookahead the same pick, valued at the round's end, is another card
    monkeypatch.setitem(params.PICK_LOOKAHEAD, RAPTOR, False)
    assert choose_action(view(s, RAPTOR), level="hard", seed=3, iterations=100) != engine.Pick(5)


def test_pick_lookahead_goes_from_the_likeliest_card_while_the_clock_allows(monkeypatch):
    s = pick_position()
    v = view(s, RAPTOR)
    probs = pick_model.opponent_pick_model(v, RAPTOR)
    likeliest = max(sorted(probs), key=probs.__getitem__)
    calls = []

    def counted(state, me, r0, rng, styles, clock=None):
        calls.append(state)
        return 0.5

    monkeypatch.setattr(search, "_next_pick_value", counted)
    styles = {RAPTOR: params.W, SCIENTIST: params.W}
    # a deadline already passed: only the likeliest card's column is valued again
    late = search._pick_table(v, RAPTOR, [2, 5, 8], random.Random(0), styles,
                          clock=search.Clock(100, 0.0))
    assert len(calls) == 3
    assert {c.revealed[1] for c in calls if c.revealed is not None} == {likeliest}
    plain = search._pick_table(v, RAPTOR, [2, 5, 8], random.Random(0), styles)
    assert late != plain
    # a cap of 7 units: the first card (3 units) and one more (6); a third would pass it
    calls.clear()
    search._pick_table(v, RAPTOR, [2, 5, 8], random.Random(0), styles, clock=search.Clock(7, None))
    assert len(calls) == 6
    # no clock (the lookahead's own next pick): values at the round's end only
    calls.clear()
    assert search._pick_table(v, RAPTOR, [2, 5, 8], random.Random(0), styles) == plain
    assert calls == []
