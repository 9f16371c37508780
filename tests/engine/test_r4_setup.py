"""R4 Setup: the mother on T2/T5, one baby per other square tile, one scientist per L-tile,
6 in the reserve, shuffled decks of 9 with hands of 3, and the seeded quick setup."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalActionError, Phase, PlaceBaby, PlaceMother, WrongTurnError, square
from engine.geometry import CENTRAL_TILES, L_TILES, SQUARE_TILES, TILE_OF, TILE_SQUARES
from engine.state import BABY, MOTHER, ROCK, SCIENTIST_ACTIVE, SCIENTIST_CODES

from .conftest import RAPTOR, SCIENTIST, acts, cells, play


def tile_spaces(*tiles: str) -> set[str]:
    out = set()
    for t in tiles:
        i = ("T1", "T2", "T3", "T4", "T5", "T6", "X1", "X2", "X3", "X4").index(t)
        out |= {engine.square_name(q) for q in TILE_SQUARES[i]}
    return out


@pytest.fixture
def fresh():
    """A manual-setup game on the standard jungle layout (rocks D2 F1 K1 I3 C5 E5 G4 I4 J5)."""
    return engine.new_game(11, layout="standard")


def test_R4_1_the_raptor_places_the_mother_first_on_a_free_space_of_T2_or_T5(fresh):
    assert fresh.phase is Phase.SETUP_MOTHER and fresh.round == 0
    assert engine.to_act(fresh) == {RAPTOR}
    assert engine.legal_actions(fresh, SCIENTIST) == []
    expected = {f"M@{q}" for q in tile_spaces("T2", "T5") - {"F1", "G4"}}  # rocks F1, G4
    assert acts(fresh, RAPTOR) == expected
    assert len(expected) == 16


def test_R4_1_the_mother_is_refused_outside_the_central_tiles_and_on_a_rock(fresh):
    for q in ("E2", "I2", "F1", "B3"):
        with pytest.raises(IllegalActionError):
            engine.apply(fresh, RAPTOR, PlaceMother(square(q)))
    with pytest.raises(WrongTurnError):
        engine.apply(fresh, SCIENTIST, engine.PlaceScientist(square("B2")))


def test_R4_1_then_one_baby_on_a_free_space_of_each_other_square_tile(fresh):
    s = play(fresh, RAPTOR, "M@G2")
    assert s.phase is Phase.SETUP_BABIES and cells(s, MOTHER) == {"G2"}
    free = tile_spaces("T1", "T3", "T4", "T5", "T6") - {"D2", "K1", "I3", "C5", "E5", "G4",
                                                        "I4", "J5"}
    assert acts(s, RAPTOR) == {f"B@{q}" for q in free}
    assert len(free) == 37
    s = play(s, RAPTOR, "B@C1")
    assert acts(s, RAPTOR) == {f"B@{q}" for q in free - tile_spaces("T1")}
    with pytest.raises(IllegalActionError):  # a second baby on T1
        engine.apply(s, RAPTOR, PlaceBaby(square("E3")))
    with pytest.raises(IllegalActionError):  # the mother's tile takes no baby
        engine.apply(s, RAPTOR, PlaceBaby(square("H3")))
    with pytest.raises(IllegalActionError):  # an L-tile takes no baby
        engine.apply(s, RAPTOR, PlaceBaby(square("B2")))
    s = play(s, RAPTOR, "B@J2", "B@D6", "B@F6")
    assert acts(s, RAPTOR) == {f"B@{q}" for q in tile_spaces("T6") - {"I4", "J5"}}
    s = play(s, RAPTOR, "B@K6")
    assert cells(s, BABY) == {"C1", "J2", "D6", "F6", "K6"}
    assert s.phase is Phase.SETUP_SCIENTISTS
    assert engine.to_act(s) == {SCIENTIST}


def test_R4_1_babies_go_on_T2_when_the_mother_is_on_T5(fresh):
    s = play(fresh, RAPTOR, "M@H5")
    assert {TILE_OF[square(a[2:])] for a in acts(s, RAPTOR)} == {0, 1, 2, 3, 5}


def test_R4_2_one_scientist_on_each_L_tile_and_six_in_the_reserve(fresh):
    s = play(fresh, RAPTOR, "M@G2", "B@C1", "B@J2", "B@D6", "B@F6", "B@K6")
    l_spaces = tile_spaces("X1", "X2", "X3", "X4")
    assert acts(s, SCIENTIST) == {f"S@{q}" for q in l_spaces}
    assert len(l_spaces) == 12
    with pytest.raises(IllegalActionError):  # a square tile
        engine.apply(s, SCIENTIST, engine.PlaceScientist(square("C2")))
    with pytest.raises(IllegalActionError):  # an exit
        engine.apply(s, SCIENTIST, engine.PlaceScientist(square("A1")))
    s = play(s, SCIENTIST, "S@B2")
    assert acts(s, SCIENTIST) == {f"S@{q}" for q in l_spaces - tile_spaces("X1")}
    s = play(s, SCIENTIST, "S@B6", "S@L1")
    assert s.phase is Phase.SETUP_SCIENTISTS
    s = play(s, SCIENTIST, "S@L5")
    assert cells(s, SCIENTIST_ACTIVE) == {"B2", "B6", "L1", "L5"}
    assert s.reserve == 6 and s.killed == 0
    assert s.phase is Phase.PICK and s.round == 1
    assert engine.to_act(s) == {RAPTOR, SCIENTIST}


def test_R4_3_each_player_has_a_shuffled_deck_of_9_and_draws_3(fresh):
    for side in (RAPTOR, SCIENTIST):
        hand, deck = fresh.hands[side], fresh.decks[side]
        assert len(hand) == 3 and len(deck) == 6
        assert hand == tuple(sorted(hand))
        assert sorted(hand + deck) == list(range(1, 10))
        assert fresh.discards[side] == () and fresh.picks[side] is None
    orders = {engine.new_game(seed).decks[RAPTOR] + engine.new_game(seed).hands[RAPTOR]
              for seed in range(30)}
    assert len(orders) > 25
    assert engine.new_game(5).key() == engine.new_game(5).key()


def test_R4_3_the_two_decks_are_shuffled_independently():
    same = sum(engine.new_game(seed).decks[RAPTOR] == engine.new_game(seed).decks[SCIENTIST]
               for seed in range(50))
    assert same == 0


@pytest.mark.parametrize("seed", range(12))
def test_R4_4_quick_setup_places_everything_legally_from_the_seed(seed):
    s = engine.new_game(seed, setup="quick")
    assert s.phase is Phase.PICK and s.round == 1
    assert s.layout == engine.new_game(seed).layout
    m = s.mother
    assert TILE_OF[m] in CENTRAL_TILES
    babies = s.squares_with(BABY)
    assert sorted(TILE_OF[q] for q in babies) == sorted(set(SQUARE_TILES) - {TILE_OF[m]})
    sci = s.squares_with(*SCIENTIST_CODES)
    assert sorted(TILE_OF[q] for q in sci) == list(L_TILES)
    assert s.reserve == 6
    assert len(s.squares_with(ROCK)) == 9
    assert sorted(s.squares_with(ROCK)) == list(s.layout.rocks())
    assert engine.new_game(seed, setup="quick").key() == s.key()


def test_R4_4_quick_setups_differ_between_seeds():
    boards = {tuple(engine.new_game(seed, setup="quick", layout="standard").board)
              for seed in range(20)}
    assert len(boards) == 20


@pytest.mark.parametrize("bad", [{"layout": "odd"}, {"setup": "fast"}])
def test_R4_new_game_refuses_unknown_options(bad):
    with pytest.raises(ValueError):
        engine.new_game(0, **bad)
