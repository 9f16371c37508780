"""Ratjack through the platform's protocol (engine.game): the object, its options, the clock's
turns, undo, JSON of actions, the outcome."""

from __future__ import annotations

import pytest

from engine.game import Game, Outcome
from engine.ratjack import (
    ACTION_TYPES,
    RATJACK,
    Chip,
    Discard,
    Down,
    Draw,
    Flip,
    NoFlip,
    NotationError,
    Opponent,
    Source,
    Target,
    Up,
    action_from_dict,
    format_action,
    outcome,
)

from .conftest import play, pos


def test_ratjack_is_a_game():
    assert isinstance(RATJACK, Game)
    assert (RATJACK.name, RATJACK.min_seats, RATJACK.max_seats) == ("ratjack", 2, 4)


def test_actions_are_a_closed_union_with_notation_json_and_repr():
    actions = [Draw(Source.DECK), Draw(Source.DISCARD), Up("C7"), Down("R3"), Discard("W2"),
               Flip(2), NoFlip(), Target(1, 3), Opponent(1), Chip(-10), Chip(3)]
    assert {type(a).kind for a in actions} == set(ACTION_TYPES)
    assert [format_action(a) for a in actions] == [
        "draw deck", "draw discard", "up C7", "down R3", "discard W2", "flip @2", "no flip",
        "p2@3", "p2", "-10", "+3"]
    for a in actions:
        assert RATJACK.action_from_json(RATJACK.action_to_json(a)) == a
        names = {cls.__name__: cls for cls in ACTION_TYPES.values()}
        assert eval(repr(a), {**names, "Source": Source}) == a  # noqa: S307
    for bad in ({"kind": "up", "card": "Q1"}, {"kind": "fly"}, {"kind": "flip", "place": "2"},
                {"kind": "chip", "face": True}, {"kind": "no_flip", "extra": 1}, [], None):
        with pytest.raises(NotationError):
            action_from_dict(bad)
    with pytest.raises(ValueError):
        RATJACK.action_from_json("{not json")


def test_the_clock_keeps_a_turn_together_and_weasel_12s_choice_apart():
    s = pos("""
        decks: rw
        phase: action
        p1 hand: W12 R1
        p1 display: R3
        p2 hand: R4
        p2 display: R5
    """)
    before = RATJACK.turn(s, 0)
    s = play(s, "up W12", "+5")
    assert RATJACK.turn(s, 0) == before == ("turn", 1, 1)
    s = play(s, "p2")
    assert RATJACK.turn(s, 1) == ("choice", 1, 1, 1)
    s = play(s, "p2@1")
    assert RATJACK.turn(s, 1) == ("turn", 1, 2)


def test_no_action_may_be_undone():
    s = RATJACK.new_game(1, 2, {})
    (seat,) = RATJACK.to_act(s)
    t = RATJACK.apply(s, seat, RATJACK.legal_actions(s, seat)[0])
    assert RATJACK.may_undo(s, t, seat) is False


def test_the_outcome_ranks_by_vp_after_the_winners():
    s = pos("players: 4\nvp: 3 1 2 1\nphase: over\nwinners: p1\nreason: three_vp")
    assert outcome(s) == Outcome((1, 3, 2, 3), "three_vp", (3.0, 1.0, 2.0, 1.0))
    s = pos("players: 3\nvp: 3 3 0\nphase: over\nwinners: p1 p2\nreason: three_vp")
    assert outcome(s).places == (1, 1, 3) and outcome(s).winners == {0, 1}
    assert RATJACK.outcome(RATJACK.new_game(1, 3, {})) is None


def test_a_bad_seat_is_refused():
    s = RATJACK.new_game(1, 2, {})
    for bad in (2, -1, "p1", True):
        with pytest.raises(ValueError):
            RATJACK.view(s, bad)
        with pytest.raises(ValueError):
            RATJACK.forfeit(s, bad)
    (seat,) = RATJACK.to_act(s)
    with pytest.raises(ValueError, match="nothing to decide"):
        RATJACK.apply(s, 1 - seat, Draw(Source.DECK))
    with pytest.raises(ValueError, match="legal: draw deck, draw discard"):
        RATJACK.apply(s, seat, Up("R1"))
