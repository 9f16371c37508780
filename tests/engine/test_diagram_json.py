"""Text diagrams and JSON: both round-trip a position exactly; bad input is refused with a
DiagramError (diagrams) or a validation error (JSON)."""

from __future__ import annotations

import json
import random

import pydantic
import pytest

import engine
from engine import DiagramError, GameState, Phase, Reason, from_diagram, to_diagram
from engine.state import BABY, BABY_ASLEEP_NEW, EXIT, FIRE, MOTHER, ROCK, SCIENTIST_USED, VOID

from .conftest import RAPTOR, SCIENTIST, board, diagram, grid_text, play

NEW_GAME_0 = """\
    A B C D E F G H I J K L M
1   o . . . . # . . . . # . o
2     . . # . . . . . . . .
3     . . . . . . . # . . .
4     . . . . . # . # . . .
5     . # . # . . . . # . .
6   o . . . . . . . . . . . o
options: jungle standard manual
tiles: J1/0 J2/0 J3/0 J4/0 J5/0 J6/0
seed: 0
shuffles: 2
round: 0
phase: setup_mother
sleep: 0
escaped: 0
captured: 0
killed: 0
reserve: 6
observation: no
observe-next: no
raptor hand: 1 4 6
raptor deck: 9 2 7 3 5 8
raptor discard: -
raptor pick: -
scientist hand: 1 4 7
scientist deck: 2 5 6 8 3 9
scientist discard: -
scientist pick: -
"""


def test_diagram_of_a_new_standard_game():
    assert to_diagram(engine.new_game(0, layout="standard")) == NEW_GAME_0


def test_diagram_text_round_trips_exactly():
    assert to_diagram(from_diagram(NEW_GAME_0)) == NEW_GAME_0
    assert from_diagram(NEW_GAME_0).key() == engine.new_game(0, layout="standard").key()


def test_diagram_defaults_let_a_test_give_only_what_matters():
    s = from_diagram(grid_text(["S..........", "...........", "......M....", "...........",
                                "...B.......", "..........."]))
    assert (s.seed, s.round, s.phase, s.shuffles) == (0, 1, Phase.PICK, 0)
    assert s.options == engine.Options("jungle", "standard", "manual")
    assert s.layout == engine.geometry.standard_layout("jungle")
    assert (s.sleep_tokens, s.escaped, s.captured, s.killed, s.reserve) == (0, 0, 0, 0, 9)
    assert s.hands == {RAPTOR: (1, 2, 3), SCIENTIST: (1, 2, 3)}
    assert s.decks == {RAPTOR: (4, 5, 6, 7, 8, 9), SCIENTIST: (4, 5, 6, 7, 8, 9)}
    assert s.picks == {RAPTOR: None, SCIENTIST: None}
    assert s.effect is None and s.ap is None and s.revealed is None and s.winner is None
    assert s.squares_with(ROCK) == []   # the grid, not the tiles line, says where rocks are


def test_diagram_keys_are_all_read():
    text = diagram(["S..........", "..z........", "......M....", "...A.......", "...*.....f.",
                    "..........."],
                   options="savannah random quick", tiles="S2/1 S1/0 S3/2 S4/3 S5/0 S6/1",
                   seed=42, shuffles=5, round=9, phase="effect", effect="raptor 4 done=1 "
                   "called=G2", sleep=3, escaped=1, captured=2, killed=1, reserve=4,
                   observation="yes", observe_next="no", revealed="4 8", raptor_hand="2 6",
                   raptor_deck="9 1", raptor_discard="3 5 7", raptor_pick=4,
                   scientist_hand="1 5", scientist_deck="2 9 6 3", scientist_discard="4",
                   scientist_pick=8)
    s = from_diagram(text)
    assert s.options == engine.Options("savannah", "random", "quick")
    assert s.layout.tiles == (("S2", 1), ("S1", 0), ("S3", 2), ("S4", 3), ("S5", 0), ("S6", 1))
    assert (s.seed, s.shuffles, s.round, s.phase) == (42, 5, 9, Phase.EFFECT)
    assert (s.effect.side, s.effect.card, s.effect.done, s.effect.called) == (
        RAPTOR, 4, 1, (engine.square("G2"),))
    assert (s.sleep_tokens, s.escaped, s.captured, s.killed, s.reserve) == (3, 1, 2, 1, 4)
    assert s.observation and not s.observe_next and s.revealed == (4, 8)
    assert s.hands == {RAPTOR: (2, 6), SCIENTIST: (1, 5)}
    assert s.decks == {RAPTOR: (9, 1), SCIENTIST: (2, 9, 6, 3)}
    assert s.discards == {RAPTOR: (3, 5, 7), SCIENTIST: (4,)}
    assert s.picks == {RAPTOR: 4, SCIENTIST: 8}
    b = s.board
    assert (b[engine.square("D2")], b[engine.square("E4")], b[engine.square("E5")]) == (
        BABY_ASLEEP_NEW, SCIENTIST_USED, FIRE)
    assert b[engine.square("K5")] == engine.state.SCIENTIST_FRIGHTENED_NEW
    assert from_diagram(to_diagram(s)).key() == s.key()


def test_diagram_of_an_ap_phase_and_a_finished_game():
    s = board(["M..........", "...........", "...........", "...........", "...........",
               "S.........."], phase="ap", revealed="2 9", ap="raptor 6 mother-moved")
    assert s.ap == engine.state.APState(RAPTOR, 6, True)
    assert "ap: raptor 6 mother-moved" in to_diagram(s)
    over = board(["M..........", *["..........."] * 5], phase="over",
                 winner="raptor no_scientists", killed=4)
    assert (over.winner, over.reason) == (RAPTOR, Reason.NO_SCIENTISTS)
    assert from_diagram(to_diagram(over)).key() == over.key()
    off = board(["S..........", *["..........."] * 5], phase="mother_return", mother="off")
    assert off.mother_off and off.mother is None
    assert "mother: off" in to_diagram(off)


def test_diagram_cells_map_to_codes():
    s = board(["..........."] * 2 + ["......M...."] + ["..........."] * 3)
    assert s.board[engine.square("H3")] == MOTHER
    assert [s.board[engine.square(q)] for q in ("A1", "A6", "M1", "M6")] == [EXIT] * 4
    assert s.board[engine.square("A2")] == VOID
    assert s.board.count(BABY) == 0


GOOD = ["S..........", "...........", "......M....", "...........", "...........",
        "..........."]


@pytest.mark.parametrize("text, fragment", [
    ("", "column header"),
    ("1   o . . .", "column header"),
    (grid_text(GOOD).replace("3   ", "x   "), "row 3"),
    (grid_text(GOOD).replace("S", "Q"), "unknown cell"),
    (grid_text(GOOD[:1] + ["o.........."] + GOOD[2:]), "B2 is a board space"),
    (grid_text(GOOD).replace("3    ", "3   o"), "X1 needs exactly one exit"),
    (grid_text(GOOD).replace("1   o", "1    "), "X1 needs exactly one exit"),
    (grid_text(GOOD).replace("2    ", "2   o"), "A2 cannot be an exit"),
    (grid_text(GOOD).replace("1   o", "1   ."), "columns A and M"),
    (grid_text(GOOD) + "\ncolour: red", "unknown key"),
    (grid_text(GOOD) + "\nnonsense", "key: value"),
    (grid_text(GOOD) + "\nphase: lunch", "bad number or phase"),
    (grid_text(GOOD) + "\nround: x", "bad number or phase"),
    (grid_text(GOOD) + "\nphase: ap\nrevealed: 2 9", "needs an 'ap:' line"),
    (grid_text(GOOD) + "\nphase: effect\nrevealed: 2 9", "needs an 'effect:' line"),
    (grid_text(GOOD) + "\nphase: ap\nap: raptor 3", "needs a 'revealed:' line"),
    (grid_text(GOOD) + "\nap: dino 3", "ap: expected"),
    (grid_text(GOOD) + "\nap: scientist 9", "AP left must be 0 to 8, got 9"),
    (grid_text(GOOD) + "\neffect: raptor four", "effect: expected"),
    (grid_text(GOOD) + "\nraptor hand: 1 2 2", "appears twice"),
    (grid_text(GOOD) + "\nraptor hand: 1 2\nraptor discard: 2", "appears twice"),
    (grid_text(GOOD) + "\nscientist hand: 0 1", "outside 1-9"),
    (grid_text(GOOD) + "\nscientist deck: a b", "not a list"),
    (grid_text(GOOD) + "\nrevealed: 3", "two values"),
    (grid_text(GOOD) + "\nobservation: maybe", "yes or no"),
    (grid_text(GOOD) + "\nwinner: raptor", "winner: expected"),
    (grid_text(GOOD) + "\noptions: jungle odd manual", "options: expected"),
    (grid_text(GOOD) + "\ntiles: J1/0 J2/0", "six square-tile faces"),
    (grid_text(GOOD) + "\ntiles: S1/0 J2/0 J3/0 J4/0 J5/0 J6/0", "is not '<face>/<turns>'"),
    (grid_text([r.replace("M", ".") for r in GOOD]), "exactly one mother"),
    (grid_text([r.replace("S", "M") for r in GOOD]), "exactly one mother"),
])
def test_diagram_errors(text, fragment):
    with pytest.raises(DiagramError) as err:
        from_diagram(text)
    assert fragment in str(err.value)


# --- JSON ---
def sample_states():
    """States along a few random games, with events of every kind they produce."""
    out = []
    for seed in range(4):
        rng = random.Random(seed)
        s = engine.new_game(seed, setup="manual" if seed == 0 else "quick")
        step = 0
        while not s.is_over:
            if step % 37 == 0:
                out.append(s)
            side = min(engine.to_act(s))
            s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
            step += 1
        out.append(s)
    return out


STATES = sample_states()


def test_json_round_trip_keeps_everything_including_events():
    assert any(s.events for s in STATES) and any(s.is_over for s in STATES)
    for s in STATES:
        text = s.to_json()
        back = GameState.from_json(text)
        assert back == s
        assert back.to_json() == text
        assert from_diagram(to_diagram(s)).key() == s.key()


def test_json_has_the_schema_version_and_square_names():
    s = play(board(GOOD, raptor_hand="2 5 8", scientist_hand="1 4 9"), RAPTOR, "play 5")
    data = json.loads(s.to_json())
    assert data["schema_version"] == engine.SCHEMA_VERSION == 1
    assert data["board"] == {"B1": "scientist", "H3": "mother"}
    assert data["picks"] == {"raptor": 5, "scientist": None}
    assert data["events"] == [{"kind": "picked", "side": "raptor"}]


def test_json_of_another_schema_version_is_refused():
    data = json.loads(STATES[3].to_json())
    data["schema_version"] = 2
    with pytest.raises(ValueError, match="schema version 2"):
        GameState.from_json(json.dumps(data))


@pytest.mark.parametrize("mutate", [
    lambda d: d.pop("board"),
    lambda d: d.update(extra=1),
    lambda d: d.update(round="many"),
])
def test_json_with_bad_fields_is_refused(mutate):
    data = json.loads(STATES[3].to_json())
    mutate(data)
    with pytest.raises(pydantic.ValidationError):
        GameState.from_json(json.dumps(data))


def test_json_that_is_not_json_is_refused():
    with pytest.raises(pydantic.ValidationError):
        GameState.from_json("{not json")


def test_event_dict_round_trip():
    events = {e for s in STATES for e in (*s.events, *s.round_events, *s.last_round_events)}
    kinds = {e.kind for e in events}
    assert {"picked", "revealed", "effect", "ap", "moved", "round_end", "drew",
            "game_over"} <= kinds
    for e in events:
        assert engine.Event.from_dict(e.to_dict()) == e
