"""Positions as text (the diagram) and states as JSON: both round-trip, and bad input is
refused with a StateError (a ValueError)."""

from __future__ import annotations

import json

import pytest

from engine.ratjack import RATJACK, State, StateError, from_diagram, to_diagram

from .conftest import pos, random_states


def test_a_diagram_round_trips_every_position():
    for s, _ in random_states(80, 2):
        text = to_diagram(s)
        assert to_diagram(from_diagram(text)) == text


def test_the_diagram_fills_what_a_test_leaves_out():
    s = pos("""
        p1 hand: R1
        p1 display: R12[+3] ~B7{p2}[-5]
        p2 hand: B4{*}
        p2 display: B5
        chips: +1 +2 +3 +4 -5 +10
        deck: B9
    """)
    assert s.seats == 2 and s.decks == "rb" and s.round == 1 and s.current == 0
    assert s.deck[-1] == "B9" and len(s.deck) == 24 - 5
    assert s.reserve == [0, 1, 3, 5] and s.displays[0][1].seen == {1}
    assert s.hands[1][0].seen == {-1}


@pytest.mark.parametrize(("text", "message"), [
    ("p1 hand: R1 R1", "named twice"),
    ("p1 hand: C1", "not a card of decks rb"),
    ("p1 display: R3[+7]", "not a chip of this round"),
    ("p1 display: R3[+3] B3[+3]", "placed twice"),
    ("players: 5", "2 to 4 players"),
    ("players: 2\ncurrent: p3", "not a seat"),
    ("chips: +1 +2", "six faces"),
    ("colour: blue", "unknown diagram lines"),
    ("this is not a line", "not a diagram line"),
])
def test_bad_diagrams_are_refused(text, message):
    with pytest.raises(StateError, match=message):
        from_diagram(text)


def test_json_round_trips_and_equality_is_by_value():
    for s, _ in random_states(60, 8):
        text = s.to_json()
        back = State.from_json(text)
        assert back == s and back.to_json() == text
        assert RATJACK.state_from_json(RATJACK.state_to_json(s)) == s


@pytest.mark.parametrize("text", [
    "not json", "[]", '{"schema": 1}', json.dumps({"schema": 2}),
])
def test_bad_json_is_refused(text):
    with pytest.raises(StateError):
        State.from_json(text)


def test_a_tampered_state_is_refused():
    s = pos("p1 hand: R1\np2 hand: B1")
    data = s.to_dict()
    data["deck"][0] = "Q9"
    with pytest.raises(StateError, match="not a card"):
        State.from_dict(data)
    data = s.to_dict()
    data["vp"] = [0]
    with pytest.raises(StateError, match="seat count"):
        State.from_dict(data)
