"""Bad input: the wrong side, the wrong phase, an illegal action, garbage notation. Each
raises its own error class (all RaptorError, all ValueError) and leaves the state as it was."""

from __future__ import annotations

import random

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
    assert str(err.value) == ("'kill B1' is not legal now: the mother (on H3) is not next to "
                              "B1; closest legal actions: H3-H2, H3-H1, H3-I3, H3-J3, H3-K3 (24 "
                              "legal in all)")
    setup, _ = POSITIONS["setup"]
    with pytest.raises(IllegalActionError) as err:
        parse_action("M@B1", setup, RAPTOR)
    assert str(err.value).startswith("'M@B1' is not legal now: the mother starts on T2 or T5, "
                                     "the middle square tiles (columns F-H); closest legal "
                                     "actions: M@")


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


#       BCDEFGHIJKL
RAPTOR_AP = ["S.z..#.....",
             "..M*.......",
             "..b...S....",
             "...........",
             "B.......B..",
             "..........S"]
RAPTOR_AP_WALL = [RAPTOR_AP[0], ".....M.....", *RAPTOR_AP[2:]]
SCIENTIST_AP = ["A.z..#..#.S",
                "...*f....B.",
                "..B...S#.Mb",
                "...........",
                "........B..",
                "....s.....S"]


@pytest.mark.parametrize("rows, keys, entry, reason", [
    (ROWS, {"raptor_hand": "2 5 8"}, "play 4", "you don't hold card 4; your hand: 2 5 8"),
    (ROWS, {"raptor_hand": "2 5 8"}, "play 0", "cards are numbered 1 to 9; your hand: 2 5 8"),
    (ROWS, {"raptor_hand": "2 5 8"}, "play 12", "cards are numbered 1 to 9; your hand: 2 5 8"),
    (RAPTOR_AP, {}, "B5-B5", "B5 to B5 is no move: name the square it goes to"),
    (ROWS, {"raptor_hand": "2 5 8"}, "kill B1",
     "this is the card pick: play a card from your hand (2 5 8) with 'play N'"),
    (RAPTOR_AP, {}, "wake D1",
     "the baby on D1 was put to sleep this round: it can be woken from the next round on"),
    (RAPTOR_AP, {}, "wake E3", "there is no sleeping baby on E3"),
    (RAPTOR_AP, {}, "kill H3", "the mother (on D2) is not next to H3"),
    (RAPTOR_AP, {}, "kill C2", "there is no scientist on C2"),
    (RAPTOR_AP, {}, "out F2", "there is no fire on F2"),
    (RAPTOR_AP, {}, "D2-F4", "the mother runs along a row or a column"),
    (RAPTOR_AP, {}, "D2-H2", "the mother stops before a fire on E2"),
    (RAPTOR_AP, {}, "D2-D6", "the mother stops before a sleeping baby on D3"),
    (RAPTOR_AP, {"sleep": 3}, "D2-C2",
     "her first move this round costs 4 AP (1 + her 3 sleep tokens); you have 3"),
    (RAPTOR_AP, {}, "D3-D4",
     "the baby on D3 is asleep: the mother, from a space next to it, or a Recovery card must "
     "wake it first"),
    (RAPTOR_AP, {}, "J5-J3", "a baby moves one space at a time"),
    (RAPTOR_AP, {}, "B5-B6", None),  # legal
    (RAPTOR_AP, {}, "H5-H4", "there is no raptor figurine on H5"),
    (RAPTOR_AP, {}, "B1 shoot D2", "that is a scientist's action"),
    (RAPTOR_AP, {}, "heal", "'heal' belongs to the Recovery cards' effect"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "stand F2",
     "the scientist on F2 was frightened this round: it can stand up from the next round on"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "B1 shoot D1",
     "the scientist on B1 already made its aggressive action this round (one per scientist "
     "per round)"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "H3 shoot K3", "a rock on I3 blocks the shot"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "H3 shoot D3", "the mother is not on D3"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "H3 capture D3",
     "the baby on D3 is awake: only a sleeping baby can be captured"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "H3 sleep J5", "J5 is not next to the scientist on H3"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "H3-E2",
     "a scientist may walk through fire but not stop on it"),
    (SCIENTIST_AP, {"ap": "scientist 2"}, "H3-H6",
     "H6 is out of reach with 2 AP (one per step, around rocks and figurines)"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "H3-H6", None),  # legal
    (SCIENTIST_AP, {"ap": "scientist 3"}, "F2-F3",
     "the scientist on F2 was frightened this round: it can stand up and act from the next "
     "round on"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "F6 sleep G6",
     "the scientist on F6 is frightened: stand it up first (1 AP)"),
    (SCIENTIST_AP, {"ap": "scientist 1"}, "F6 sleep G6",
     "the scientist on F6 is frightened: standing it up takes 1 AP, and you have 1"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "L6-M5",
     "M5 is not a space of the board (columns A and M hold only the exits)"),
    (SCIENTIST_AP, {"ap": "scientist 6"}, "L6-K1",
     "no walk reaches K1: rocks, figurines or exits wall it off"),
    (RAPTOR_AP, {}, "D2-D2", "D2 to D2 is no move: name the square it goes to"),
    (RAPTOR_AP, {}, "B5-A5",
     "A5 is not a space of the board (columns A and M hold only the exits)"),
    (RAPTOR_AP_WALL, {}, "G2-M2", "the mother stops at the board's edge, before M2"),
    (RAPTOR_AP, {}, "D1-E1",
     "the baby on D1 was put to sleep this round: it cannot move, and the mother can wake it "
     "from the next round on"),
    (SCIENTIST_AP, {"ap": "scientist 3"}, "kill H3", "that is a raptor's action"),
])
def test_refusals_say_why(rows, keys, entry, reason):
    keys = {"phase": "ap", "revealed": "9 2", "ap": "raptor 3", **keys} if rows is not ROWS \
        else keys
    s = board(rows, **keys)
    side = engine.to_act(s)
    (side,) = side if len(side) == 1 else (RAPTOR,)
    if reason is None:
        parse_action(entry, s, side)
        return
    with pytest.raises(IllegalActionError) as err:
        parse_action(entry, s, side)
    assert str(err.value).startswith(f"{entry!r} is not legal now: {reason}; closest legal "
                                     "actions: "), str(err.value)


GAS_ROWS = ["S..........",
            "..B........",
            "......M....",
            "...........",
            ".....B..B..",
            "..........S"]


@pytest.mark.parametrize("rows, keys, side, entry, reason", [
    (ROWS, {"effect": "raptor 3", "revealed": "3 7"}, RAPTOR, "fear C1",
     "there is no standing scientist on C1 to frighten"),
    (ROWS, {"effect": "raptor 3", "revealed": "3 7"}, RAPTOR, "end",
     "the card's first unit must be used when the position allows it; 'end' can stop the "
     "optional ones after it"),
    (GAS_ROWS[:1] + ["..b........"] + GAS_ROWS[2:], {"effect": "raptor 5", "revealed": "5 7"},
     RAPTOR, "heal", "the mother has no sleep token to remove"),
    (GAS_ROWS[:1] + ["..b........"] + GAS_ROWS[2:], {"effect": "raptor 5", "revealed": "5 7"},
     RAPTOR, "fear B1", "first resolve the effect of your card 5"),
    (GAS_ROWS, {"effect": "scientist 4", "revealed": "9 4"}, SCIENTIST, "gas G5",
     "G5 is out of the gas's range: the baby must be on a tile with an active scientist or on "
     "a tile next to one"),
    (GAS_ROWS, {"effect": "scientist 4", "revealed": "9 4"}, SCIENTIST, "gas G4",
     "there is no standing baby on G4"),
    (GAS_ROWS, {"effect": "scientist 5", "revealed": "9 5"}, SCIENTIST, "fire H3",
     "H3 holds the mother"),
    (GAS_ROWS, {"effect": "scientist 5", "revealed": "9 5"}, SCIENTIST, "fire G4",
     "G4 is not next to a standing scientist or a fire"),
    (ROWS, {"raptor_hand": "2 5 8"}, RAPTOR, "end",
     "this is the card pick: play a card from your hand (2 5 8) with 'play N'"),
    (GAS_ROWS, {"effect": "scientist 7 done=1", "revealed": "9 7"}, SCIENTIST, "end",
     "all 3 units of this card must be used as far as the position allows (1 done so far)"),
    (GAS_ROWS, {"effect": "raptor 7", "revealed": "7 8", "sleep": 1}, RAPTOR, "wake D2",
     "there is no sleeping baby on D2"),
    (GAS_ROWS, {"effect": "scientist 5", "revealed": "9 5"}, SCIENTIST, "fire A2",
     "A2 is not a space of the board (columns A and M hold only the exits)"),
])
def test_refusals_in_effects_say_why(rows, keys, side, entry, reason):
    s = board(rows, phase="effect", **keys) if "effect" in keys else board(rows, **keys)
    with pytest.raises(IllegalActionError) as err:
        parse_action(entry, s, side)
    assert str(err.value).startswith(f"{entry!r} is not legal now: {reason}; closest legal "
                                     "actions: "), str(err.value)


@pytest.mark.parametrize("entry, reason", [
    ("M@A1", "A1 holds an exit"),
    ("M@A3", "A3 is not a space of the board (columns A and M hold only the exits)"),
])
def test_placements_say_why(entry, reason):
    s, _ = POSITIONS["setup"]
    with pytest.raises(IllegalActionError) as err:
        parse_action(entry, s, RAPTOR)
    assert str(err.value).startswith(f"{entry!r} is not legal now: {reason}; closest legal "
                                     "actions: M@"), str(err.value)


def test_refusal_reasons_never_fail_on_random_entries():
    """Any well-formed entry in any position gets an action or a RaptorError, never a crash
    of the reason finder (random games, random entries of every form)."""
    rng = random.Random(5)
    cols, forms = "ABCDEFGHIJKLM", ("{a}-{b}", "kill {a}", "wake {a}", "out {a}", "stand {a}",
                                     "fear {a}", "gas {a}", "fire {a}", "{a} sleep {b}",
                                     "{a} capture {b}", "{a} shoot {b}", "sleep {a}",
                                     "capture {a}", "shoot {a}", "kill{a}", "M@{a}", "B@{a}",
                                     "S@{a}", "R@{a}", "heal", "end", "play {n}", "{a}")
    refused = explained = 0
    for game in range(15):
        s = engine.new_game(game)
        while not s.is_over and s.round < 30:
            side = min(engine.to_act(s))
            for _ in range(3):
                entry = rng.choice(forms).format(
                    a=rng.choice(cols) + str(rng.randint(1, 6)),
                    b=rng.choice(cols) + str(rng.randint(1, 6)), n=rng.randint(1, 9))
                try:
                    parse_action(entry, s, side)
                except RaptorError as exc:
                    refused += 1
                    explained += ": " in str(exc).split(" is not legal now", 1)[-1][:3]
            legal = engine.legal_actions(s, side)
            s = apply(s, side, legal[rng.randrange(len(legal))])
    assert refused > 500 and explained > refused // 2, (refused, explained)


@pytest.mark.parametrize("phase, entry, reason", [
    ("setup_mother", "M@C1", "the mother starts on T2 or T5, the middle square tiles (columns "
     "F-H)"),
    ("setup_mother", "B@G2", "this is the setup: place the mother with 'M@SQ'"),
    ("setup_babies", "B@B2", "babies start on the square tiles (columns C-K)"),
    ("setup_babies", "B@F2", "T2 is the mother's tile: the babies go on the five others"),
    ("setup_babies", "B@C2", "T1 has its baby already: one per tile"),
    ("setup_scientists", "S@C3", "scientists start on the L-tiles (columns B and L)"),
    ("setup_scientists", "S@B3", "X1 has its scientist already: one per L-tile"),
])
def test_setup_placements_say_why(phase, entry, reason):
    s = engine.new_game(3, setup="manual", layout="standard")
    side = RAPTOR if phase != "setup_scientists" else SCIENTIST
    if phase != "setup_mother":
        s = apply(s, RAPTOR, parse_action("M@G2", s, RAPTOR))
        s = apply(s, RAPTOR, parse_action("B@D1", s, RAPTOR))
    if phase == "setup_scientists":
        for q in ("I1", "D4", "G5", "J4"):
            s = apply(s, RAPTOR, parse_action(f"B@{q}", s, RAPTOR))
        s = apply(s, SCIENTIST, parse_action("S@B1", s, SCIENTIST))
    assert s.phase.value == phase
    with pytest.raises(IllegalActionError) as err:
        parse_action(entry, s, side)
    assert str(err.value).startswith(f"{entry!r} is not legal now: {reason}; closest legal "
                                     "actions: "), str(err.value)


@pytest.mark.parametrize("rows, effect, side, entry, reason", [
    (GAS_ROWS, "scientist 2", SCIENTIST, "R@D3",
     "reinforcements go on free spaces of the long edges (rows 1 and 6, C-K)"),
    (GAS_ROWS, "scientist 2", SCIENTIST, "R@L6",
     "reinforcements go on free spaces of the long edges (rows 1 and 6, C-K)"),
    (GAS_ROWS[:5] + ["..B.......S"], "scientist 2", SCIENTIST, "R@D6", "D6 holds a baby"),
    (GAS_ROWS, "scientist 2", SCIENTIST, "S@C1", "reinforcements are written R@SQ, e.g. 'R@C1'"),
    (GAS_ROWS, "raptor 1", RAPTOR, "D2-C4", "C4 is not on the mother's tile (T2)"),
    (GAS_ROWS, "raptor 1", RAPTOR, "F5-G2", "there is no active baby on F5"),
    (GAS_ROWS, "raptor 1", RAPTOR, "D2-H3", "H3 holds the mother"),
    (GAS_ROWS, "scientist 3", SCIENTIST, "L6-J5", "a jeep drives in a straight line along a "
     "row or a column"),
    (GAS_ROWS[:5] + ["..B.......S"], "scientist 3", SCIENTIST, "L6-C6",
     "the jeep stops before a baby on D6"),
])
def test_calls_jeeps_and_reinforcements_say_why(rows, effect, side, entry, reason):
    revealed = "9 " + effect.split()[1] if side is SCIENTIST else effect.split()[1] + " 9"
    s = board(rows, phase="effect", effect=effect, revealed=revealed)
    with pytest.raises(IllegalActionError) as err:
        parse_action(entry, s, side)
    assert str(err.value).startswith(f"{entry!r} is not legal now: {reason}; closest legal "
                                     "actions: "), str(err.value)


def test_a_bare_square_nothing_targets_says_so():
    s = board(GAS_ROWS, phase="effect", effect="scientist 3", revealed="9 3")
    with pytest.raises(IllegalActionError) as err:
        parse_action("E4", s, SCIENTIST)
    assert str(err.value).startswith("'E4' is not legal now: no decision of yours now targets "
                                     "E4; type the action in full; closest legal actions: ")


def test_a_card_number_of_thousands_of_digits_is_refused_not_a_crash():
    s = board(ROWS, raptor_hand="2 5 8")
    with pytest.raises(IllegalActionError, match="cards are numbered 1 to 9"):
        parse_action("play " + "9" * 5000, s, RAPTOR)


@pytest.mark.parametrize("bad, quoted", [({"environment": "desert"}, "'desert'"),
                                         ({"layout": "odd"}, "'odd'"),
                                         ({"setup": "fast"}, "'fast'")])
def test_an_unknown_option_is_an_OptionError_quoting_it(bad, quoted):
    with pytest.raises(engine.OptionError, match=quoted) as err:
        engine.new_game(0, **bad)
    assert isinstance(err.value, engine.RaptorError) and isinstance(err.value, ValueError)


def test_an_unknown_side_is_an_OptionError_quoting_it():
    s, _ = POSITIONS["ap"]
    for call in (lambda: apply(s, "dinosaur", End()), lambda: engine.legal_actions(s, "mother"),
                 lambda: engine.view(s, "mother"), lambda: engine.parse_action("end", s, "x")):
        with pytest.raises(engine.OptionError, match="a side is 'raptor' or 'scientist', got"):
            call()


def test_a_record_of_another_schema_version_is_a_RecordError():
    rec = engine.new_game(3).to_record().model_copy(update={"schema_version": 7})
    with pytest.raises(engine.RecordError, match="schema version 7"):
        engine.GameState.from_record(rec)
    with pytest.raises(engine.OptionError, match="player's view"):
        engine.sample_state(engine.view(engine.new_game(3), None), random.Random(1))
