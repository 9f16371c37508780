"""Pieces and tokens are drawn on their square, recognisable by shape as well as colour."""

import pytest

from engine import square
from engine.state import EMPTY, ROCK
from render import GRID_BOX, PANEL_BOX, square_box
from render import theme as T

from .helpers import board, changed_pixels, count, crop_square, diff_box, position, shape

MOTHER_ELSEWHERE = {"K6": "M"}


@pytest.mark.parametrize("env", ["jungle", "savannah"])
@pytest.mark.parametrize("ch", ["B", "b", "z", "S", "A", "s", "f", "*"])
@pytest.mark.parametrize("at", ["H2", "B5", "L1", "C6"])
def test_a_piece_changes_only_its_own_square(env, ch, at):
    without = board(position(MOTHER_ELSEWHERE, env=env))
    with_piece = board(position({**MOTHER_ELSEWHERE, at: ch}, env=env))
    grid_only = (GRID_BOX[0], GRID_BOX[1], GRID_BOX[2], GRID_BOX[3])
    changed = diff_box(without, with_piece, grid_only)
    assert changed is not None, f"{ch} at {at} drew nothing"
    x0, y0, x1, y1 = square_box(square(at))
    assert x0 <= changed[0] and y0 <= changed[1] and changed[2] <= x1 and changed[3] <= y1
    assert changed_pixels(without.crop((x0, y0, x1, y1)),
                          with_piece.crop((x0, y0, x1, y1)), 32) > 300


def test_mother_is_a_large_raptor_token_with_a_white_m():
    im = board(position({"G3": "M"}))
    g3 = crop_square(im, "G3")
    assert count(g3, T.RAPTOR) > 900
    assert count(g3, (255, 255, 255)) > 150
    # nothing of the mother anywhere else on the grid
    assert count(crop_square(im, "G4"), T.RAPTOR) == 0


def test_standing_and_sleeping_babies_differ_by_shape():
    im = board(position({**MOTHER_ELSEWHERE, "D2": "B", "F2": "b", "H2": "z"}))
    standing, asleep, asleep_new = (crop_square(im, q) for q in ("D2", "F2", "H2"))
    # standing: a filled round token, as wide as tall
    assert 250 < count(standing, T.RAPTOR) < 900
    w, h = shape(standing, T.RAPTOR_DARK)
    assert abs(w - h) <= 2
    # asleep: lying flat (at least twice as wide as tall), hollow (pale), with a "z" mark
    for lying in (asleep, asleep_new):
        assert count(lying, T.RAPTOR) == 0
        assert count(lying, T.RAPTOR_PALE) > 250
        w, h = shape(lying, T.RAPTOR_DARK)
        assert w >= 2 * h
        assert count(lying, T.SNORE) > 50


def test_a_standing_baby_is_marked_b_as_in_the_diagram_where_b_sleeps():
    """The text diagram and the terminal write a baby "B" and a sleeping one "b": the image
    marks a standing baby's token with a capital B too (a "b" would read as asleep). A B's
    upper bowl reaches the top right of the letter, where a b has nothing."""
    im = crop_square(board(position({**MOTHER_ELSEWHERE, "D2": "B"})), "D2")
    white = [(x, y) for x in range(im.width) for y in range(im.height)
             if min(im.getpixel((x, y))) > 230]
    xs, ys = [p[0] for p in white], [p[1] for p in white]
    middle, top = (min(xs) + max(xs)) / 2, min(ys) + (max(ys) - min(ys)) / 4
    top_right = sum(1 for x, y in white if x > middle and y < top)
    top_left = sum(1 for x, y in white if x <= middle and y < top)
    assert len(white) > 100 and top_right > 10 and top_left > 10, (top_left, top_right)


@pytest.mark.parametrize("a, b", [("b", "z"), ("S", "A"), ("s", "f")])
def test_states_of_this_round_look_like_the_lasting_ones(a, b):
    """Asleep this round looks asleep (R7.4), a scientist that used its aggressive action looks
    active (R8.6), frightened this round looks frightened (R8.2)."""
    assert diff_box(board(position({**MOTHER_ELSEWHERE, "F2": a})),
                    board(position({**MOTHER_ELSEWHERE, "F2": b}))) is None


def test_active_and_frightened_scientists_differ_by_shape_and_mark():
    im = board(position({**MOTHER_ELSEWHERE, "D4": "S", "F4": "A", "H4": "s", "J4": "f"}))
    for q in ("D4", "F4"):
        sq = crop_square(im, q)
        assert count(sq, T.SCIENTIST) > 400          # the white coat
        w, h = shape(sq, T.SCIENTIST_DARK)
        assert h > 1.3 * w                           # standing
        assert count(sq, T.CROSS) == 0 and count(sq, T.FEAR_MARK) == 0
    for q in ("H4", "J4"):
        sq = crop_square(im, q)
        assert count(sq, T.SCIENTIST) < 100
        assert count(sq, T.SCIENTIST_PALE) > 400
        w, h = shape(sq, T.SCIENTIST_DARK)
        assert w > 1.3 * h                           # lying down
        assert count(sq, T.FEAR_MARK) > 25           # the "!" badge
        assert count(sq, T.CROSS) == 0               # not the cross of a kill


def test_fire_token_is_a_flame():
    im = board(position({**MOTHER_ELSEWHERE, "E4": "*"}))
    e4 = crop_square(im, "E4")
    assert count(e4, T.FIRE) > 300
    assert count(e4, T.FIRE_CORE) > 80
    w, h = shape(e4, T.FIRE)
    assert h > w                                     # taller than wide: a flame, not a disc
    assert count(crop_square(im, "E5"), T.FIRE) == 0


def test_a_fire_at_e4_appears_at_e4_and_nowhere_else():
    """Only E4's box and the panel (fire supply 10/10 -> 9/10) differ."""
    base = position({"G3": "M", "C2": "S", "J5": "B"})
    fire = position({"G3": "M", "C2": "S", "J5": "B", "E4": "*"})
    a, b = board(base), board(fire)
    above_panel = (0, 0, a.width, PANEL_BOX[1])
    changed = diff_box(a, b, above_panel)
    x0, y0, x1, y1 = square_box(square("E4"))
    assert changed is not None
    assert x0 <= changed[0] and y0 <= changed[1] and changed[2] <= x1 and changed[3] <= y1
    assert diff_box(a, b, PANEL_BOX) is not None       # the fire supply number changed


def test_sleep_tokens_show_as_a_number_on_the_mother_only():
    a = board(position({"G3": "M"}))
    b = board(position({"G3": "M"}, "sleep: 3\n"))
    changed = diff_box(a, b, (0, 0, a.width, PANEL_BOX[1]))
    x0, y0, x1, y1 = square_box(square("G3"))
    assert changed is not None
    assert x0 <= changed[0] and y0 <= changed[1] and changed[2] <= x1 and changed[3] <= y1
    assert count(crop_square(b, "G3"), T.SLEEP) > 150
    assert count(crop_square(a, "G3"), T.SLEEP) == 0


def test_rocks_are_drawn_from_the_board_cells():
    # the standard jungle layout has rocks; the board's ROCK cells decide what is drawn
    state = position({"G3": "M"}, rocks=True)
    rocks = [q for q, c in enumerate(state.board) if c == ROCK]
    assert rocks and sorted(rocks) == list(state.layout.rocks())
    im = board(state)
    for q in rocks:
        assert count(im.crop(square_box(q)), T.ROCK, 20) > 200
    no_rock = state.copy()
    no_rock.board[rocks[0]] = EMPTY
    im2 = board(no_rock)
    assert count(im2.crop(square_box(rocks[0])), T.ROCK, 20) == 0
    assert count(im2.crop(square_box(rocks[1])), T.ROCK, 20) > 200
