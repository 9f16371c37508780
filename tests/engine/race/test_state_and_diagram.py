"""The state as a value: its JSON round-trips and is checked when read; apply never
changes its argument; the text diagram round-trips and reads what tests write."""

from __future__ import annotations

import json

import pytest

import engine.race as R
from engine.race import Phase
from engine.race.errors import StateError

from .helpers import position, sampled_states

SAMPLED = sampled_states(16, 4)


def test_the_json_of_every_sampled_state_round_trips():
    for s in SAMPLED:
        text = s.to_json()
        assert R.RaceState.from_json(text) == s and R.RaceState.from_json(text).to_json() == text
        assert json.loads(text)["schema_version"] == 1


def test_apply_returns_a_new_state_and_leaves_its_argument_alone():
    s = R.new_game(2, 3, "jungle")
    before = s.to_json()
    after = R.apply(s, s.seat, R.legal_actions(s, s.seat)[0])
    assert s.to_json() == before and after is not s and after != s
    with pytest.raises(AttributeError):
        s.turn = 5  # frozen


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(schema_version=2), "schema version 2"),
    (lambda d: d.update(seats=7), "7 seats"),
    (lambda d: d.update(cards=[1, 1, 2]), "cards"),
    (lambda d: d["raptors"].update(B=d["raptors"]["G"]), "five distinct free spaces"),
    (lambda d: d.update(board="moon"), "not a race state"),
    (lambda d: d.update(rolled="TB"), "canonical order"),
    (lambda d: d.update(extra=1), "not a race state"),
    (lambda d: d.update(turn="3"), "not a race state"),
    (lambda d: d.update(arrows_used=3), "more arrows spent"),
])
def test_a_stored_state_that_is_not_a_race_position_is_refused(change, message):
    data = json.loads(R.new_game(2, 3, "jungle").to_json())
    change(data)
    with pytest.raises(StateError, match=message):
        R.RaceState.from_json(json.dumps(data))
    with pytest.raises(StateError, match="not JSON"):
        R.RaceState.from_json("{")


def test_the_diagram_of_every_sampled_state_round_trips():
    for s in SAMPLED:
        text = R.to_diagram(s)
        back = R.from_diagram(text)
        assert R.to_diagram(back) == text
        assert back.raptors == s.raptors and back.phase is s.phase and back.cards == s.cards


def test_a_views_diagram_hides_the_other_cards():
    s = R.new_game(4, 3, "desert")
    mine = R.to_diagram(R.view(s, 1))
    assert f"cards: ? {s.cards[1]} ?" in mine and "seed" not in mine
    assert "cards: ? ? ?" in R.to_diagram(R.view(s, None))


def test_the_diagram_of_a_jungle_position():
    s = position("""
        race: jungle, 3 seats
          4  . . B . .
          3  . . # O .
          0  s G s P Y
        phase: move
        kept: BBGT
        arrows: 2
        arrows used: 1
        used: T
        """)
    assert R.to_diagram(s).splitlines()[:8] == [
        "race: jungle, 3 seats", "     A B C D E", "     =finish==", " 11  . # . ^ .",
        " 10  + . . . +", "  9  . . ^ . .", "  8  . + . + .", "  7  # . . . ^"]
    assert R.to_diagram(s).splitlines()[9:14] == [
        "  5  . ^ . # .", "  4  + . B . +", "  3  . . # O .", "  2  ^ . . . #",
        "  1  . + . + ."]
    assert (s.phase, s.left, s.arrows_left) == (Phase.MOVE, (R.Face.B, R.Face.B, R.Face.G), 1)


@pytest.mark.parametrize(("text", "message"), [
    ("race: moon, 2 seats\n  0  B G O P Y\n", "starts with"),
    ("race: desert, 2 seats\n  0  B G O P s\n", "all five raptors"),
    ("race: desert, 2 seats\n  0  B G O P Y\n  1  B . . . .\n", "stands twice"),
    ("race: jungle, 2 seats\n  2  . . . . .\n  0  B G O P Y\n", "lane A"),
    ("race: desert, 2 seats\n  0  B G O P Y\ncolour: red\n", "unknown key"),
    ("race: desert, 2 seats\n  0  B G O P Y\nrolled: BB\n", "four footprint dice"),
    ("race: desert, 2 seats\n  0  B G O P Y\nrolled: BBBB\narrows: 1\n", "Desert"),
])
def test_a_bad_diagram_is_refused(text, message):
    with pytest.raises(StateError, match=message):
        R.from_diagram(text)
