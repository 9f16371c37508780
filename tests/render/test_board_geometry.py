"""square_box / square_centre: the grid of R2.2 in pixels."""

import pytest

from engine import square
from engine.geometry import ALL_EXIT_SQUARES, BOARD_SQUARES, COLS
from render import BOARD_IMAGE_SIZE, GRID_BOX, HEADER_BOX, PANEL_BOX, square_box, square_centre
from render import theme as T


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_board_squares_are_full_cells_inside_the_grid():
    for q in BOARD_SQUARES:
        x0, y0, x1, y1 = square_box(q)
        assert (x1 - x0, y1 - y0) == (T.CELL, T.CELL)
        assert GRID_BOX[0] <= x0 and x1 <= GRID_BOX[2] and GRID_BOX[1] <= y0 and y1 <= GRID_BOX[3]


def test_columns_a_and_m_are_half_width_at_the_edges():
    a1, m6 = square_box(square("A1")), square_box(square("M6"))
    assert a1 == (GRID_BOX[0], GRID_BOX[1], GRID_BOX[0] + T.HALF, GRID_BOX[1] + T.CELL)
    assert m6 == (GRID_BOX[2] - T.HALF, GRID_BOX[3] - T.CELL, GRID_BOX[2], GRID_BOX[3])


def test_boxes_do_not_overlap_and_tile_the_grid_in_order():
    squares = list(BOARD_SQUARES) + sorted(ALL_EXIT_SQUARES)
    boxes = [square_box(q) for q in squares]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not _overlap(a, b)
    # neighbours touch: B1 ends where C1 starts, row 1 ends where row 2 starts
    assert square_box(square("B1"))[2] == square_box(square("C1"))[0]
    assert square_box(square("E1"))[3] == square_box(square("E2"))[1]
    assert square_box(square("A3"))[2] == square_box(square("B3"))[0]


def test_known_pixel_positions():
    x0, y0, x1, y1 = square_box(square("E4"))
    # E is column 4: A (half) + B, C, D before it
    assert x0 == T.BOARD_LEFT + T.HALF + 3 * T.CELL
    assert y0 == T.BOARD_TOP + 3 * T.CELL
    assert square_centre(square("E4")) == (x0 + T.CELL / 2, y0 + T.CELL / 2)


def test_regions_stack_without_overlap():
    w, h = BOARD_IMAGE_SIZE
    assert HEADER_BOX[2] == w and PANEL_BOX[3] == h
    assert HEADER_BOX[3] <= GRID_BOX[1] and GRID_BOX[3] <= PANEL_BOX[1]
    assert GRID_BOX[2] - GRID_BOX[0] == 11 * T.CELL + 2 * T.HALF
    assert COLS == 13


@pytest.mark.parametrize("bad", [-1, 78, 1000])
def test_square_box_rejects_indices_off_the_grid(bad):
    with pytest.raises(IndexError):
        square_box(bad)
