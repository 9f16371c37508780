"""R2 Geometry and coordinates: squares, tiles, adjacency, long edges, layouts, tile faces."""

from __future__ import annotations

import pytest

import engine
from engine import NotationError, Side, square, square_name
from engine.geometry import (
    BOARD_SQUARES,
    EXIT_CHOICES,
    FACES,
    LONG_EDGE,
    NEIGHBOURS,
    RAYS,
    SQUARE_NAMES,
    TILE_NAMES,
    TILE_NEIGHBOURS,
    TILE_OF,
    TILE_SQUARES,
    random_layout,
    standard_layout,
    turn,
)
from engine.state import EXIT, ROCK, VOID

from .conftest import cells, names


def sqs(*text: str) -> set[int]:
    return {square(n) for n in names(*text)}


def tile(name: str) -> int:
    return TILE_NAMES.index(name)


# --- R2.1 the shape of the board ---
def test_R2_1_square_tiles_form_six_rows_of_nine_columns_with_an_L_tile_column_each_side():
    square_tile_spaces = {q for t in range(6) for q in TILE_SQUARES[t]}
    assert len(square_tile_spaces) == 54
    assert {q // 13 for q in square_tile_spaces} == set(range(6))
    assert {q % 13 for q in square_tile_spaces} == set(range(2, 11))  # columns C-K
    # one L-tile against each half of each short side: a column of 3 spaces beside the
    # rectangle, its exit jutting out from the top or bottom space of that column
    for t, (top, bottom) in EXIT_CHOICES.items():
        column = sorted(TILE_SQUARES[t])
        assert len(column) == 3 and len({q % 13 for q in column}) == 1
        assert column[0] % 13 in (1, 11) and column[2] - column[0] == 26
        assert (top, bottom) == (column[0] + (-1 if column[0] % 13 == 1 else 1),
                                 column[2] + (-1 if column[0] % 13 == 1 else 1))
    assert {TILE_NAMES[t] for t in EXIT_CHOICES} == {"X1", "X2", "X3", "X4"}


# --- R2.2 coordinates ---
def test_R2_2_square_parses_column_letter_and_row_number():
    assert square("A1") == 0
    assert square("E4") == 3 * 13 + 4
    assert square("M6") == 77
    assert square("e4") == square(" E4 ") == 43


@pytest.mark.parametrize("bad", ["", "N1", "A0", "A7", "E44", "4E", "EE", "E"])
def test_R2_2_square_refuses_names_outside_the_grid(bad):
    with pytest.raises(NotationError):
        square(bad)


def test_R2_2_square_name_is_the_inverse_of_square():
    assert [square_name(i) for i in (0, 43, 77)] == ["A1", "E4", "M6"]
    assert all(square(square_name(i)) == i for i in range(78))
    assert len(set(SQUARE_NAMES)) == 78


def test_R2_2_board_spaces_are_columns_B_to_L():
    assert len(BOARD_SQUARES) == 66
    assert {square_name(q)[0] for q in BOARD_SQUARES} == set("BCDEFGHIJKL")


def test_R2_2_columns_A_and_M_hold_only_the_four_exits():
    s = engine.new_game(0, layout="standard")
    a_m = [q for q in range(78) if square_name(q)[0] in "AM"]
    assert {square_name(q) for q in a_m if s.board[q] == EXIT} == names("A1 A6 M1 M6")
    assert all(s.board[q] == VOID for q in a_m if square_name(q) not in names("A1 A6 M1 M6"))


# --- R2.3 tiles ---
@pytest.mark.parametrize("name, spaces", [
    ("T1", "C1 D1 E1 C2 D2 E2 C3 D3 E3"),
    ("T2", "F1 G1 H1 F2 G2 H2 F3 G3 H3"),
    ("T3", "I1 J1 K1 I2 J2 K2 I3 J3 K3"),
    ("T4", "C4 D4 E4 C5 D5 E5 C6 D6 E6"),
    ("T5", "F4 G4 H4 F5 G5 H5 F6 G6 H6"),
    ("T6", "I4 J4 K4 I5 J5 K5 I6 J6 K6"),
    ("X1", "B1 B2 B3"),
    ("X2", "B4 B5 B6"),
    ("X3", "L1 L2 L3"),
    ("X4", "L4 L5 L6"),
])
def test_R2_3_tile_spaces(name, spaces):
    t = tile(name)
    assert set(TILE_SQUARES[t]) == sqs(spaces)
    assert all(TILE_OF[q] == t for q in sqs(spaces))


def test_R2_3_every_board_space_is_on_exactly_one_tile():
    assert sorted(q for t in range(10) for q in TILE_SQUARES[t]) == sorted(BOARD_SQUARES)


def test_R2_3_exits_are_not_board_spaces_of_any_tile():
    assert all(TILE_OF[q] == -1 for q in sqs("A1 A3 A4 A6 M1 M3 M4 M6"))


def test_R2_3_exit_choices_are_the_top_or_bottom_of_each_L_tile_column():
    assert {TILE_NAMES[t]: {square_name(q) for q in v} for t, v in EXIT_CHOICES.items()} == {
        "X1": names("A1 A3"), "X2": names("A4 A6"), "X3": names("M1 M3"), "X4": names("M4 M6")}


# --- R2.4 adjacency ---
def test_R2_4_adjacency_is_orthogonal_only():
    assert set(NEIGHBOURS[square("E4")]) == sqs("E3 F4 E5 D4")
    assert set(NEIGHBOURS[square("C1")]) == sqs("B1 D1 C2")
    assert set(NEIGHBOURS[square("K6")]) == sqs("K5 J6 L6")


def test_R2_4_an_exit_is_adjacent_only_to_the_L_tile_space_beside_it():
    assert set(NEIGHBOURS[square("A1")]) == sqs("B1")
    assert set(NEIGHBOURS[square("M4")]) == sqs("L4")
    assert set(NEIGHBOURS[square("B1")]) == sqs("A1 C1 B2")
    assert set(NEIGHBOURS[square("B2")]) == sqs("B1 C2 B3")  # A2 is never part of the board
    assert NEIGHBOURS[square("A2")] == ()


def test_R2_4_tile_adjacency_shares_an_edge():
    got = {TILE_NAMES[t]: {TILE_NAMES[n] for n in TILE_NEIGHBOURS[t]} for t in range(10)}
    assert got == {
        "T1": {"T2", "T4", "X1"}, "T2": {"T1", "T3", "T5"}, "T3": {"T2", "T6", "X3"},
        "T4": {"T1", "T5", "X2"}, "T5": {"T2", "T4", "T6"}, "T6": {"T3", "T5", "X4"},
        "X1": {"T1", "X2"}, "X2": {"T4", "X1"}, "X3": {"T3", "X4"}, "X4": {"T6", "X3"},
    }


def test_R2_4_straight_lines_run_to_the_grid_edge_in_order():
    n, e, s_, w = RAYS[square("D3")]
    assert [square_name(q) for q in n] == ["D2", "D1"]
    assert [square_name(q) for q in e] == ["E3", "F3", "G3", "H3", "I3", "J3", "K3", "L3", "M3"]
    assert [square_name(q) for q in s_] == ["D4", "D5", "D6"]
    assert [square_name(q) for q in w] == ["C3", "B3", "A3"]


# --- R2.5 long edges ---
def test_R2_5_long_edges_are_rows_1_and_6_of_columns_C_to_K():
    assert len(LONG_EDGE) == 18
    assert {square_name(q) for q in LONG_EDGE} == {f"{c}{r}" for c in "CDEFGHIJK" for r in (1, 6)}


# --- R2.6 layouts ---
def test_R2_6_quarter_turn_takes_row_col_to_col_two_minus_row():
    assert turn((0, 0), 1) == (0, 2)
    assert turn((0, 1), 1) == (1, 2)
    assert turn((1, 2), 1) == (2, 1)
    assert turn((0, 0), 2) == (2, 2)
    assert turn((0, 0), 3) == (2, 0)
    assert turn((1, 1), 3) == (1, 1)
    assert turn((2, 1), 4) == (2, 1)


def test_R2_6_standard_layout_is_faces_in_order_unturned_exits_in_corners():
    lay = standard_layout("jungle")
    assert lay.tiles == tuple((f"J{i}", 0) for i in range(1, 7))
    assert {square_name(q) for q in lay.exits} == names("A1 A6 M1 M6")
    assert standard_layout("savannah").tiles == tuple((f"S{i}", 0) for i in range(1, 7))


def test_R2_6_random_layout_follows_the_seed():
    assert random_layout(7) == random_layout(7)
    assert engine.new_game(7).layout == random_layout(7)
    assert len({random_layout(seed) for seed in range(40)}) == 40


def test_R2_6_random_layout_uses_each_face_once_and_one_exit_per_L_tile():
    turns_seen, exits_seen = set(), set()
    for seed in range(60):
        for env in ("jungle", "savannah"):
            lay = random_layout(seed, env)
            assert sorted(f for f, _ in lay.tiles) == sorted(FACES[env])
            assert all(0 <= t <= 3 for _, t in lay.tiles)
            turns_seen.update(t for _, t in lay.tiles)
            for i, e in enumerate(lay.exits):
                assert e in EXIT_CHOICES[6 + i]
            exits_seen.update(lay.exits)
    assert turns_seen == {0, 1, 2, 3}
    assert {square_name(q) for q in exits_seen} == names("A1 A3 A4 A6 M1 M3 M4 M6")


def test_R2_6_unknown_environment_is_refused():
    with pytest.raises(ValueError):
        standard_layout("desert")
    with pytest.raises(ValueError):
        engine.new_game(0, environment="desert")


# --- R2.7 tile faces ---
def test_R2_7_standard_jungle_rocks():
    s = engine.new_game(0, layout="standard", environment="jungle")
    assert cells(s, ROCK) == names("D2 F1 K1 I3 C5 E5 G4 I4 J5")


def test_R2_7_standard_savannah_rocks():
    s = engine.new_game(0, layout="standard", environment="savannah")
    assert cells(s, ROCK) == names("G2 J3 C4 D4 K4 H5 I5 H6 J6")


def test_R2_7_a_turned_face_turns_its_rocks():
    lay = engine.Layout("jungle", (("J3", 1),) + standard_layout().tiles[1:],
                        standard_layout().exits)
    # J3 has rocks at (0,2) and (2,0); a quarter turn puts them at (2,2) and (0,0) of T1.
    assert {square_name(q) for q in lay.rocks()} - names("F1 K1 I3 C5 E5 G4 I4 J5") == \
        names("E3 C1")


@pytest.mark.parametrize("env", ["jungle", "savannah"])
def test_R2_7_nine_rocks_all_on_square_tiles(env):
    for seed in range(30):
        s = engine.new_game(seed, environment=env)
        rocks = s.squares_with(ROCK)
        assert len(rocks) == 9
        assert all(TILE_OF[q] in range(6) for q in rocks)


def test_R2_7_a_new_game_board_has_only_rocks_and_exits():
    s = engine.new_game(3, environment="savannah")
    assert len(s.squares_with(EXIT)) == 4
    assert all(s.board[q] in (engine.state.EMPTY, ROCK) for q in BOARD_SQUARES)
    assert engine.to_act(s) == {Side.RAPTOR}


def test_column_span_names_the_columns_of_tiles():
    from engine.geometry import CENTRAL_COLUMNS, CENTRAL_TILES, SQUARE_TILES, column_span

    assert CENTRAL_COLUMNS == column_span(CENTRAL_TILES) == "F-H"  # T2 and T5 (R2.3)
    assert column_span(SQUARE_TILES) == "C-K"
    assert column_span((0,)) == "C-E"
