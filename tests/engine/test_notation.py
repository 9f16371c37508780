"""Action notation: every action formats to its documented text and parses back; parsing is
forgiving about case, spaces and aliases but only ever picks among the legal actions."""

from __future__ import annotations

import pytest

import engine
from engine import (
    AmbiguousActionError,
    CallBaby,
    Capture,
    End,
    Frighten,
    Gas,
    Heal,
    IllegalActionError,
    Jeep,
    Kill,
    MoveBaby,
    MoveMother,
    MoveScientist,
    NotationError,
    Pick,
    PlaceBaby,
    PlaceFire,
    PlaceMother,
    PlaceScientist,
    PutOut,
    Reinforce,
    Shoot,
    SleepBaby,
    Stand,
    Wake,
    WrongTurnError,
    action_from_dict,
    describe_action,
    format_action,
    parse_action,
    square,
)

from .conftest import RAPTOR, SCIENTIST, board

Q = square

EXAMPLES = [
    (PlaceMother(Q("G2")), "M@G2"),
    (PlaceBaby(Q("D2")), "B@D2"),
    (PlaceScientist(Q("B2")), "S@B2"),
    (Pick(5), "play 5"),
    (CallBaby(Q("K4"), Q("G3")), "K4-G3"),
    (Frighten(Q("B2")), "fear B2"),
    (Heal(), "heal"),
    (Wake(Q("E2")), "wake E2"),
    (Gas(Q("D2")), "gas D2"),
    (Reinforce(Q("E1")), "R@E1"),
    (Jeep(Q("D4"), Q("H4")), "D4-H4"),
    (PlaceFire(Q("E4")), "fire E4"),
    (End(), "end"),
    (MoveBaby(Q("D3"), Q("D4")), "D3-D4"),
    (MoveMother(Q("G2"), Q("G5")), "G2-G5"),
    (Kill(Q("F3")), "kill F3"),
    (PutOut(Q("E4")), "out E4"),
    (MoveScientist(Q("B2"), Q("C3"), 2), "B2-C3"),
    (Stand(Q("B2")), "stand B2"),
    (SleepBaby(Q("C2"), Q("D2")), "C2 sleep D2"),
    (Capture(Q("C2"), Q("D2")), "C2 capture D2"),
    (Shoot(Q("B5"), Q("G5")), "B5 shoot G5"),
]


def test_every_action_type_has_an_example():
    assert {type(a) for a, _ in EXAMPLES} == set(engine.ACTION_TYPES.values())


@pytest.mark.parametrize("action, text", EXAMPLES)
def test_format_action(action, text):
    assert format_action(action) == text


@pytest.mark.parametrize("action, text", EXAMPLES)
def test_to_dict_round_trip(action, text):
    d = action.to_dict()
    assert d["kind"] == action.kind
    assert action_from_dict(d) == action


@pytest.mark.parametrize("action, text", EXAMPLES)
def test_repr_pastes_back(action, text):
    namespace = {name: getattr(engine, name) for name in engine.__all__}
    assert eval(repr(action), namespace) == action  # noqa: S307 - our own repr


def test_to_dict_uses_square_names():
    assert Shoot(Q("B5"), Q("G5")).to_dict() == {"kind": "shoot", "by": "B5", "at": "G5"}
    assert MoveScientist(Q("B2"), Q("C3"), 2).to_dict() == {
        "kind": "move_scientist", "frm": "B2", "to": "C3", "cost": 2}


@pytest.mark.parametrize("bad", [{}, {"kind": "fly"}, {"kind": "kill"},
                                 {"kind": "kill", "at": "Z9"}, {"kind": "pick", "card": "x"}])
def test_action_from_dict_refuses_bad_records(bad):
    with pytest.raises(NotationError):
        action_from_dict(bad)


def test_format_action_refuses_a_non_action():
    with pytest.raises(NotationError):
        format_action("E4-E5")  # type: ignore[arg-type]


# --- parsing against a position ---
#        BCDEFGHIJKL
RAPT = ["...........",
        "...B.......",   # baby E2
        "..M........",   # mother D3
        "..S.b......",   # scientist D4, sleeping baby F4? (not adjacent to the mother)
        "...........",
        "S.........."]


@pytest.fixture
def raptor_ap():
    return board(RAPT, phase="ap", revealed="2 9", ap="raptor 7")


@pytest.mark.parametrize("text, expected", [
    ("D3-D1", MoveMother(Q("D3"), Q("D1"))),
    ("d3-d1", MoveMother(Q("D3"), Q("D1"))),
    ("  D3 - D1 ", MoveMother(Q("D3"), Q("D1"))),
    ("D3xD1", MoveMother(Q("D3"), Q("D1"))),
    ("d3 to d1", MoveMother(Q("D3"), Q("D1"))),
    ("D3->D1", MoveMother(Q("D3"), Q("D1"))),
    ("D3–D1", MoveMother(Q("D3"), Q("D1"))),  # an en dash, as phone keyboards type it
    ("d3 — d1", MoveMother(Q("D3"), Q("D1"))),
    ("kill D4", Kill(Q("D4"))),
    ("KILL d4", Kill(Q("D4"))),
    ("k d4", Kill(Q("D4"))),
    ("killD4", Kill(Q("D4"))),  # a word run into its square
    ("kill\tD4", Kill(Q("D4"))),  # a Tab, or any other white space, between words
    ("\tD3 \t-\u00a0D1\r", MoveMother(Q("D3"), Q("D1"))),
    ("E2-F2", MoveBaby(Q("E2"), Q("F2"))),
    ("end", End()),
    ("pass", End()),
    ("done", End()),
    ("D1", MoveMother(Q("D3"), Q("D1"))),   # a bare square naming one legal action
])
def test_parse_action_forgiving_forms(raptor_ap, text, expected):
    assert parse_action(text, raptor_ap, RAPTOR) == expected


def test_parse_action_a_bare_square_for_two_actions_is_ambiguous(raptor_ap):
    # E3 is reached by the baby E2 (E2-E3) and by the mother (D3-E3).
    with pytest.raises(AmbiguousActionError) as err:
        parse_action("E3", raptor_ap, RAPTOR)
    assert "E2-E3" in str(err.value) and "D3-E3" in str(err.value)


@pytest.mark.parametrize("text", ["D3-D6", "kill E2", "wake F4", "E2-E4", "play 5", "heal"])
def test_parse_action_well_formed_but_illegal(raptor_ap, text):
    with pytest.raises(IllegalActionError) as err:
        parse_action(text, raptor_ap, RAPTOR)
    assert repr(text) in str(err.value)


@pytest.mark.parametrize("text", ["", "   ", "D3;D1", "kill #4", "%%", "D3-D1!"])
def test_parse_action_garbage_is_a_notation_error(raptor_ap, text):
    with pytest.raises(NotationError):
        parse_action(text, raptor_ap, RAPTOR)


@pytest.mark.parametrize("text, said", [
    ("fear", "'fear' needs a square: for example 'fear B2'"),
    ("  Kill ", "'  Kill ' needs a square: for example 'kill F3'"),
    ("F", "'F' needs a square: for example 'fear B2'"),
    ("play", "'play' needs a card value: for example 'play 5'"),
    ("sleep", "'sleep' needs the scientist's square before it and the baby's after it: "
              "for example 'C2 sleep D2'"),
])
def test_parse_action_a_word_alone_says_how_it_is_written(raptor_ap, text, said):
    with pytest.raises(NotationError) as err:
        parse_action(text, raptor_ap, RAPTOR)
    assert str(err.value) == said


@pytest.mark.parametrize("text, square", [
    ("kill Z9", "Z9"), ("N2-D3", "N2"), ("D3-H9", "H9"), ("wake e44", "E44"),
])
def test_parse_action_names_a_square_off_the_grid(raptor_ap, text, square):
    with pytest.raises(NotationError) as err:
        parse_action(text, raptor_ap, RAPTOR)
    assert str(err.value) == f"{text!r}: {square!r} is not a square (columns A-M, rows 1-6)"


def test_parse_action_for_the_side_not_to_act_is_a_wrong_turn(raptor_ap):
    with pytest.raises(WrongTurnError):
        parse_action("B1-C1", raptor_ap, SCIENTIST)


def test_parse_pick_and_placements():
    s = board(RAPT, raptor_hand="2 5 8")
    assert parse_action("play 5", s, RAPTOR) == Pick(5)
    assert parse_action("5", s, RAPTOR) == Pick(5)
    assert parse_action("pick 8", s, RAPTOR) == Pick(8)
    assert parse_action("play 08", s, RAPTOR) == Pick(8)  # a leading zero
    assert parse_action("05", s, RAPTOR) == Pick(5)
    for other_digits in ("play ٨", "٥"):  # digits of other scripts are not notation
        with pytest.raises(NotationError):
            parse_action(other_digits, s, RAPTOR)
    # full-width forms (what Chinese input methods type) are their ASCII letters and digits
    assert parse_action("８", s, RAPTOR) == Pick(8)
    assert parse_action("ｐｌａｙ\u3000５", s, RAPTOR) == Pick(5)  # an ideographic space
    assert parse_action("出２", s, RAPTOR) == Pick(2)
    assert parse_action("ＰＬＡＹ　８", s, RAPTOR) == Pick(8)
    with pytest.raises(IllegalActionError):
        parse_action("9", s, RAPTOR)
    setup = engine.new_game(0, layout="standard")
    assert parse_action("m@g2", setup, RAPTOR) == PlaceMother(Q("G2"))
    setup = board(["...........", "...........", "...........", "...........",
                   "...........", "......M...."], phase="setup_scientists")
    assert parse_action("S@B2", setup, SCIENTIST) == PlaceScientist(Q("B2"))
    assert parse_action("s@l6", setup, SCIENTIST) == PlaceScientist(Q("L6"))


def test_parse_scientist_actions():
    #          BCDEFGHIJKL
    s = board(["...........",
               "..SB.......",   # scientist D2, baby E2
               "..s........",   # frightened D3
               "...........",
               "..S.....M..",   # scientist D5, mother J5
               "..........."], phase="ap", revealed="1 9", ap="scientist 3")
    assert parse_action("D2 sleep E2", s, SCIENTIST) == SleepBaby(Q("D2"), Q("E2"))
    assert parse_action("d2 s e2", s, SCIENTIST) == SleepBaby(Q("D2"), Q("E2"))
    assert parse_action("D5 shoot J5", s, SCIENTIST) == Shoot(Q("D5"), Q("J5"))
    assert parse_action("stand d3", s, SCIENTIST) == Stand(Q("D3"))
    assert parse_action("D5-F6", s, SCIENTIST) == MoveScientist(Q("D5"), Q("F6"), 3)


def test_describe_action_labels():
    s = board(RAPT, phase="ap", revealed="2 9", ap="raptor 7", sleep=2)
    assert describe_action(MoveMother(Q("D3"), Q("D1")), s, RAPTOR) == "Mother D3→D1 (3 AP)"
    moved = board(RAPT, phase="ap", revealed="2 9", ap="raptor 3 mother-moved", sleep=2)
    assert describe_action(MoveMother(Q("D3"), Q("D1")), moved, RAPTOR) == "Mother D3→D1 (1 AP)"
    assert describe_action(MoveBaby(Q("B1"), Q("A1")), s, RAPTOR) == "Baby B1→A1 (escapes!)"
    assert describe_action(Kill(Q("D4")), s, RAPTOR) == "Kill the scientist on D4"
    assert describe_action(End(), s, RAPTOR) == "End the turn"
    assert describe_action(Pick(4), s, RAPTOR) == "Play 4: Mother's Call ×2"
    assert describe_action(MoveScientist(Q("B2"), Q("C3"), 2), s, SCIENTIST) == \
        "Scientist B2→C3 (2 AP)"
    assert describe_action(Shoot(Q("B5"), Q("G5")), s, SCIENTIST) == \
        "B5: shoot the mother on G5"


def test_a_scientists_aggressive_action_with_or_without_its_scientist():
    s = board(["...........",
               "...........",
               "..SBz......",   # scientist D3, baby E3, a baby put to sleep this round on F3
               "..S........",   # scientist D4
               ".....M.....",   # the mother on G5
               "S.........."], phase="ap", revealed="9 2", ap="scientist 7")
    assert parse_action("D3 sleep E3", s, SCIENTIST) == SleepBaby(Q("D3"), Q("E3"))
    assert parse_action("sleep E3", s, SCIENTIST) == SleepBaby(Q("D3"), Q("E3"))  # the one
    assert parse_action("d3sleepe3", s, SCIENTIST) == SleepBaby(Q("D3"), Q("E3"))
    with pytest.raises(IllegalActionError) as err:
        parse_action("capture E3", s, SCIENTIST)
    assert "there is no sleeping baby on E3" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        parse_action("capture F3", s, SCIENTIST)
    assert "no standing scientist next to F3 still has its aggressive action" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        parse_action("shoot G5", s, SCIENTIST)
    assert "no standing scientist with its aggressive action left has a clear line" in str(
        err.value)
