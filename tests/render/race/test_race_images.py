"""The Raptor Race images (render.race): sizes and byte limits, specific pixels (a raptor
drawn on its space, the booster marks, the obstacles, the dice states), the same picture
for every view of a position, both languages, and what the card shows to its holder."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

import engine.race as race
from bot.i18n import translator
from engine.race import Board, Raptor, space
from render.race import (
    CARD_IMAGE_SIZE,
    DICE_IMAGE_SIZE,
    image_size,
    render_card,
    render_dice,
    render_track,
    space_box,
    space_centre,
    static_layer,
)
from render.race import theme as T
from render.text import drawable
from tests.engine.race.helpers import position, random_race

MAX_BYTES = 400_000
ZH = translator("zh_TW").text


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def near(pixel, colour, tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(pixel, colour, strict=True))


def share(im: Image.Image, box, colour, tol: int = 40) -> float:
    """The share of the pixels of ``box`` near ``colour``."""
    data = im.crop(box).tobytes()
    pixels = [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]
    return sum(near(p, colour, tol) for p in pixels) / len(pixels)


C7 = position("""
    race: desert, 3 seats
      7  . . O . .
      0  B G s P Y
    phase: move
    kept: OGTT
    used: G
    """)


@pytest.mark.parametrize("board", list(Board))
def test_the_sizes_are_fixed_by_the_board(board):
    s = race.new_game(1, 3, board)
    im = decode(render_track(race.view(s, None)))
    assert im.size == image_size(board) == (668, 56 + 34 + 50 + 16 + 60 * s.track.rows + 34)
    assert decode(render_dice(race.view(s, 0))).size == DICE_IMAGE_SIZE
    assert decode(render_card(race.view(s, 0))).size == CARD_IMAGE_SIZE


def test_a_raptor_is_drawn_on_its_space_in_its_colour():
    im = decode(render_track(race.view(C7, None)))
    box = space_box(Board.DESERT, space("C7"))
    assert share(im, box, T.RAPTOR_FILL[Raptor.ORANGE]) > 0.15  # the orange square
    assert share(im, space_box(Board.DESERT, space("C6")), T.RAPTOR_FILL[Raptor.ORANGE]) < 0.01
    for r, name in ((Raptor.BLUE, "A0"), (Raptor.GREEN, "B0"), (Raptor.PURPLE, "D0"),
                    (Raptor.YELLOW, "E0")):
        assert share(im, space_box(Board.DESERT, space(name)), T.RAPTOR_FILL[r]) > 0.08, r


def test_the_raptors_differ_by_shape_not_only_by_colour():
    im = decode(render_track(race.view(position("""
        race: desert, 2 seats
          5  B . O . .
          0  s G s P Y
        rolled: BGOP
        """), None)))
    # the silhouettes on two spaces of one lane colour (A and C) differ: disc and square
    lane = T.BOARDS["desert"]["lane_a"]
    def silhouette(name):
        data = im.crop(space_box(Board.DESERT, space(name))).tobytes()
        return [not near(tuple(data[i:i + 3]), lane, 12) for i in range(0, len(data), 3)]
    disc, square = silhouette("A5"), silhouette("C5")
    assert sum(a != b for a, b in zip(disc, square, strict=True)) > 0.08 * len(disc)
    assert 0.3 < sum(disc) / len(disc) < 0.6 and 0.3 < sum(square) / len(square) < 0.6
    x, y = space_centre(Board.DESERT, space("A5"))  # the letter's ink in the middle
    assert share(im, (int(x) - 6, int(y) - 8, int(x) + 6, int(y) + 8),
                 T.RAPTOR_INK[Raptor.BLUE], 30) > 0.1


@pytest.mark.parametrize("board", list(Board))
def test_every_booster_and_obstacle_is_marked_on_its_space(board):
    t = race.TRACKS[board]
    im = static_layer(board)
    for sp in t.boosters:
        assert share(im, space_box(board, sp), T.BOOSTER, 30) > 0.05, sp
    plain = next(sp for sp in range(5, 5 * t.rows) if sp not in t.boosters
                 and sp not in t.obstacles)
    assert share(im, space_box(board, plain), T.BOOSTER, 30) == 0
    for sp, kind in t.obstacles.items():
        colour = T.TREE_LEAF if kind.value == "tree" else T.ROCK
        assert share(im, space_box(board, sp), colour, 20) > 0.1, sp


def test_a_crossed_raptor_stands_beyond_the_finish_line():
    s = position("""
        race: jungle, 2 seats
         12      O
          0  B G s P Y
        phase: over
        kept: OOOO
        """)
    box = space_box(Board.JUNGLE, space("C12"))
    assert box[3] <= space_box(Board.JUNGLE, space("C11"))[1]  # above the top row
    assert share(decode(render_track(race.view(s, None))), box,
                 T.RAPTOR_FILL[Raptor.ORANGE]) > 0.15
    with pytest.raises(ValueError):
        space_box(Board.JUNGLE, space("C13"))


def _panel(im: Image.Image) -> Image.Image:
    return im.crop((image_size(Board.DESERT)[0] - T.PANEL_W, 0, im.width, 400))


def test_the_dice_show_rolled_set_aside_and_used():
    rolled = position("race: desert, 2 seats\n  0  B G O P Y\nrolled: TT\nkept: OO\n")
    dice = decode(render_dice(race.view(rolled, None)))
    assert share(dice, (0, 0, DICE_IMAGE_SIZE[0], 110), T.TREX, 20) > 0.02  # two T-Rex
    assert share(dice, (0, 110, DICE_IMAGE_SIZE[0], 240), T.KEPT_RING, 20) > 0.005
    used = decode(render_dice(race.view(C7, None)))
    fresh = decode(render_dice(race.view(position(C7_TEXT.replace("used: G", "")), None)))
    assert used != fresh  # the used green die is veiled
    assert share(used, (0, 0, 80, 110), T.RAPTOR_FILL[Raptor.GREEN], 30) < share(
        fresh, (0, 0, 300, 110), T.RAPTOR_FILL[Raptor.GREEN], 30)


C7_TEXT = """
    race: desert, 3 seats
      7  . . O . .
      0  B G s P Y
    phase: move
    kept: OGTT
    used: G
    """


def test_the_arrows_die_is_drawn_on_the_jungle_only():
    jungle = position("race: jungle, 2 seats\n  0  B G O P Y\nrolled: BGOP\narrows: 2\n")
    desert = position("race: desert, 2 seats\n  0  B G O P Y\nrolled: BGOP\n")
    assert decode(render_dice(race.view(jungle, None))) != decode(
        render_dice(race.view(desert, None)))


def test_every_view_of_a_position_gives_the_same_picture():
    for state in list(random_race(4, 3, "jungle"))[::9]:
        public = render_track(race.view(state, None))
        assert all(render_track(race.view(state, seat)) == public for seat in range(3))


def test_the_picture_reads_no_card():
    s = race.new_game(6, 3, "desert")
    other = replace(s, cards=(19, 20, 18))
    assert render_track(race.view(other, None)) == render_track(race.view(s, None))


def test_both_languages_fit_and_differ():
    s = position(C7_TEXT)
    en, zh = render_track(race.view(s, None)), render_track(race.view(s, None), tr=ZH)
    assert en != zh and decode(en).size == decode(zh).size
    over = list(random_race(2, 4, "desert"))[-1]
    for tr in (str, ZH):
        for png in (render_track(race.view(over, None), tr=tr, names=("Ann", "Bo", "Cy", "Di")),
                    render_card(race.view(over, 1), tr=tr), render_dice(race.view(s, 0), tr=tr)):
            assert len(png) <= MAX_BYTES


def test_images_stay_under_the_byte_limit_in_random_races():
    rng = random.Random(3)
    for seed in range(4):
        states = list(random_race(seed, 2 + seed, ("desert", "jungle")[seed % 2]))
        for s in rng.sample(states, 4):
            assert len(render_track(race.view(s, None), tr=ZH)) <= MAX_BYTES


def test_the_card_shows_its_raptors_and_once_over_its_points():
    s = race.new_game(6, 3, "desert")
    png = render_card(race.view(s, 1))
    im = decode(png)
    for r in race.CARDS[s.cards[1]]:  # each slot's raptor in its colour
        assert share(im, (60, 50, 130, 280), T.RAPTOR_FILL[r], 30) > 0.01
    with pytest.raises(ValueError):
        render_card(race.view(s, None))
    race_states = list(random_race(6, 3, "desert"))
    over = race_states[-1]
    assert race.view(over, 1).my_card == s.cards[1]  # the same card, now with its points
    assert render_card(race.view(over, 1)) != png
    assert render_card(race.view(over, 1)) != render_card(race.view(over, 2))


def test_names_are_drawn_with_what_the_fonts_hold():
    assert drawable("José") == "Jose" and drawable("🦖 Rex") == "? Rex"
    assert drawable("迅猛龍") == "迅猛龍"
    s = race.new_game(2, 2, "desert")
    assert render_track(race.view(s, None), names=("José", "Bo")) == render_track(
        race.view(s, None), names=("Jose", "Bo"))
