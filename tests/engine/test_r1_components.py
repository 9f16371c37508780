"""R1 Components: the raptor's mother, babies and cards; the scientist's scientists, cards,
fire and sleep tokens; the board's tiles, exits, rocks and two environments."""

from __future__ import annotations

import pytest

import engine
from engine.geometry import FACES, L_TILES, SQUARE_TILES, TILE_SQUARES
from engine.state import (
    BABY_CODES,
    EXIT,
    FIRE_TOKENS,
    MOTHER,
    ROCK,
    SCIENTIST_CODES,
    SCIENTISTS,
    SLEEP_TOKENS,
)

from .conftest import RAPTOR, SCIENTIST, board, play


def test_R1_1_the_raptor_has_a_mother_five_babies_and_nine_cards_1_to_9():
    s = engine.new_game(4, setup="quick")
    assert s.board.count(MOTHER) == 1
    assert sum(1 for c in s.board if c in BABY_CODES) == 5
    cards = s.hands[RAPTOR] + s.decks[RAPTOR] + s.discards[RAPTOR]
    assert sorted(cards) == list(range(1, 10))


def test_R1_2_the_scientist_has_ten_scientists_nine_cards_ten_fires_five_sleep_tokens():
    s = engine.new_game(4, setup="quick")
    on_board = sum(1 for c in s.board if c in SCIENTIST_CODES)
    assert (on_board, s.reserve, SCIENTISTS) == (4, 6, 10)
    assert sorted(s.hands[SCIENTIST] + s.decks[SCIENTIST]) == list(range(1, 10))
    assert (FIRE_TOKENS, s.fire_supply, SLEEP_TOKENS) == (10, 10, 5)


def test_R1_2_the_fire_supply_runs_out_at_ten_tokens():
    #          BCDEFGHIJKL
    rows = ["S.*********",   # nine fires on D1-L1
            "...........",
            "...........",
            "...........",
            "...........",
            ".....M....."]
    s = board(rows, raptor_hand="3 4 8", scientist_pick=7, raptor_pick=9, revealed="9 7",
              phase="effect", effect="scientist 7")
    assert s.fire_supply == 1
    after = play(s, SCIENTIST, "fire C1")
    assert after.fire_supply == 0 and after.phase is engine.Phase.AP  # no token left to place


def test_R1_3_six_square_tiles_of_nine_spaces_and_four_L_tiles_of_three_plus_an_exit():
    assert [len(TILE_SQUARES[t]) for t in SQUARE_TILES] == [9] * 6
    assert [len(TILE_SQUARES[t]) for t in L_TILES] == [3] * 4
    s = engine.new_game(9)
    assert s.board.count(EXIT) == 4 and len(s.layout.exits) == 4


@pytest.mark.parametrize("environment", ["jungle", "savannah"])
def test_R1_3_each_environment_has_six_faces_and_nine_rocks(environment):
    assert len(FACES[environment]) == 6
    assert sum(len(rocks) for rocks in FACES[environment].values()) == 9
    s = engine.new_game(9, environment=environment)
    assert s.board.count(ROCK) == 9
    assert {face for face, _ in s.layout.tiles} == set(FACES[environment])  # one environment
