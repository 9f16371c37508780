"""Bad input: the wrong side, the wrong phase, an illegal action, garbage notation. Each
raises its own error class (all RaptorError, all ValueError) and leaves the state as it was."""

from __future__ import annotations

import pytest

import engine
from engine import (
    AmbiguousActionError,
    DiagramError,
    End,
    IllegalActionError,
    Kill,
    MoveMother,
    NotationError,
    Pick,
    PlaceMother,
    RaptorError,
    Shoot,
    WrongTurnError,
    apply,
    parse_action,
    square,
)

from .conftest import RAPTOR, SCIENTIST, board, play

#       BCDEFGHIJKL
ROWS = ["S..........",
        "..B........",
        "......M....",
        "...........",
        "........B..",
        "..........S"]


def positions():
    """One position per phase, with the side that must not act there."""
    setup = engine.new_game(3, layout="standard")
    pick = board(ROWS, raptor_hand="2 5 8", scientist_hand="1 4 9")
    observed = board(ROWS, observation="yes", raptor_hand="2 5 8", scientist_hand="1 4 9")
    effect = board(ROWS, phase="effect", revealed="3 7", effect="raptor 3", raptor_pick=3,
                   scientist_pick=7)
    ap = board(ROWS, phase="ap", revealed="2 9", ap="raptor 7")
    ret = board([r.replace("M", ".") for r in ROWS], phase="mother_return", mother="off")
    over = board(ROWS, phase="over", winner="scientist babies_captured", captured=3)
    return {"setup": (setup, SCIENTIST), "pick (picked already)": (
        play(pick, RAPTOR, "play 5"), RAPTOR), "observation": (observed, RAPTOR),
        "effect": (effect, SCIENTIST), "ap": (ap, SCIENTIST), "mother_return": (ret, SCIENTIST),
        "over": (over, RAPTOR)}


POSITIONS = positions()


def test_errors_form_one_tree_under_ValueError():
    for cls in (NotationError, IllegalActionError, AmbiguousActionError, WrongTurnError,
                DiagramError):
        assert issubclass(cls, RaptorError)
    assert issubclass(RaptorError, ValueError)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_wrong_side_gets_WrongTurnError_and_the_state_is_unchanged(name):
    s, wrong = POSITIONS[name]
    before = s.to_json()
    assert wrong not in engine.to_act(s)
    assert engine.legal_actions(s, wrong) == []
    for action in (End(), Pick(2), PlaceMother(square("G4"))):
        with pytest.raises(WrongTurnError):
            apply(s, wrong, action)
    with pytest.raises(WrongTurnError):
        parse_action("end", s, wrong)
    assert s.to_json() == before


def test_after_the_game_is_over_nobody_acts():
    s, _ = POSITIONS["over"]
    for side in (RAPTOR, SCIENTIST):
        with pytest.raises(WrongTurnError, match="over"):
            apply(s, side, End())
        with pytest.raises(WrongTurnError, match="over"):
            parse_action("end", s, side)


@pytest.mark.parametrize("name, side, action", [
    ("setup", RAPTOR, Pick(1)),                                   # an action of another phase
    ("setup", RAPTOR, PlaceMother(square("C3"))),                 # not on T2/T5
    ("pick (picked already)", SCIENTIST, Pick(5)),                # not in the hand
    ("observation", SCIENTIST, Pick(2)),
    ("effect", RAPTOR, End()),                                    # first unit is mandatory
    ("effect", RAPTOR, MoveMother(square("H3"), square("H1"))),   # an AP action in an effect
    ("ap", RAPTOR, Kill(square("B1"))),                           # not adjacent
    ("ap", RAPTOR, MoveMother(square("H3"), square("H3"))),
    ("ap", RAPTOR, Shoot(square("B1"), square("H3"))),            # a scientist's action
    ("mother_return", RAPTOR, PlaceMother(square("B1"))),         # occupied
    ("mother_return", RAPTOR, End()),
])
def test_an_illegal_action_gets_IllegalActionError_and_the_state_is_unchanged(name, side,
                                                                            action):
    s, _ = POSITIONS[name]
    before = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        apply(s, side, action)
    assert "legal" in str(err.value)
    assert s.to_json() == before


def test_the_illegal_action_message_quotes_the_input_and_lists_legal_actions():
    s, _ = POSITIONS["effect"]
    with pytest.raises(IllegalActionError) as err:
        apply(s, RAPTOR, End())
    assert "'end'" in str(err.value)
    assert "fear B1, fear L6" in str(err.value)


@pytest.mark.parametrize("thing", ["E4-E5", None, 42, ("kill", "B1")])
def test_something_that_is_not_an_action_is_illegal(thing):
    s, _ = POSITIONS["ap"]
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        apply(s, RAPTOR, thing)  # type: ignore[arg-type]
    assert s.to_json() == before


def test_an_unknown_side_is_a_ValueError():
    s, _ = POSITIONS["ap"]
    with pytest.raises(ValueError):
        apply(s, "dinosaur", End())  # type: ignore[arg-type]
    assert apply(s, "raptor", End()).round == 2  # a side may be given by its value


@pytest.mark.parametrize("text, error", [
    ("", NotationError),
    ("?!", NotationError),
    ("H3-H1; rm -rf", NotationError),
    ("H3-H9", NotationError),
    ("H3-H2-H1", NotationError),  # a path of three squares is no notation form
    ("fly H1", NotationError),
    ("play 5 5 5", NotationError),
    ("kill B1", IllegalActionError),  # well-formed, not legal here
    ("G2-G5", IllegalActionError),
])
def test_garbage_notation_gets_its_error_class_and_the_state_is_unchanged(text, error):
    s, _ = POSITIONS["ap"]
    before = s.to_json()
    with pytest.raises(error):
        parse_action(text, s, RAPTOR)
    assert s.to_json() == before


def test_refusals_quote_long_entries_shortened_and_list_actions_as_written():
    s, _ = POSITIONS["ap"]
    with pytest.raises(NotationError) as err:
        parse_action("x" * 100_000, s, RAPTOR)
    assert len(str(err.value)) < 200
    assert repr("x" * 40 + "…") in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        parse_action("kill B1", s, RAPTOR)
    assert str(err.value) == ("'kill B1' is not legal now; closest legal actions: H3-H2, H3-H1, "
                              "H3-I3, H3-J3, H3-K3 (24 legal in all)")


def test_apply_never_changes_the_state_it_was_given():
    s, _ = POSITIONS["ap"]
    before = s.to_json()
    after = play(s, RAPTOR, "H3-H1", "D2-D1")
    assert s.to_json() == before
    assert after.to_json() != before


def test_a_side_given_as_text_is_the_same_side():
    """``legal_actions(s, "raptor")`` once listed the scientist's AP actions in the raptor's
    AP phase and cached them under the key ``Side.RAPTOR``, so ``apply`` then let the raptor
    shoot its own mother (found by an independent audit)."""
    rows = ["..S........",
            "..M........",
            "...........",
            "...........",
            "........B..",
            "..........S"]
    ap = board(rows, phase="ap", revealed="2 9", ap="raptor 3")
    listed = engine.legal_actions(ap, "raptor")
    assert not any(isinstance(a, Shoot) for a in listed)
    assert Kill(square("D1")) in listed
    assert listed == engine.legal_actions(ap, RAPTOR)
    assert engine.legal_actions(ap, "scientist") == []
    theirs = board(rows, phase="ap", revealed="2 9", ap="scientist 3")
    shot = next(a for a in engine.legal_actions(theirs, SCIENTIST) if isinstance(a, Shoot))
    with pytest.raises(IllegalActionError):
        apply(ap, RAPTOR, shot)
    with pytest.raises(ValueError):
        engine.legal_actions(ap, "mother")
