"""The Ratjack images: sizes, byte limits, specific pixels (cards, backs, chips, the player to
act), the decks told apart by shape, and the public table the same whatever is hidden."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

from bot.i18n import TRADITIONAL_CHINESE, translator
from engine.ratjack import Phase, view
from render.ratjack import (
    card_box,
    render_card,
    render_private,
    render_table,
    row_top,
    table_content,
    table_size,
)
from render.ratjack import theme as T
from render.ratjack.cards import chip, shape_icon
from tests.engine.ratjack.conftest import play, pos, random_states, redeal
from tests.render.helpers import count, decode

LIMIT_BYTES = 400_000

FOUR = """
    players: 4
    phase: action
    chips: +1 -2 +3 +4 -5 +10
    deck: B9 R8 B8
    discard: B7 R9 B1 R3
    p1 hand: R5 B11
    p1 display: B3[+3] ~R10[-5] R12 ~B2{p3}
    p2 hand: B4{*}
    p2 display: ~R2 B5[+4 +10] R6
    p3 hand: R1
    p3 display: R11 ~B12{*}
    p4 hand: B6
    p4 display: R4 B10 ~R7
"""


def centre(box):
    x0, y0, x1, y1 = box
    return (x0 + x1) // 2, (y0 + y1) // 2


def test_the_table_has_its_size_for_2_3_and_4_players():
    assert table_size(2) == (960, 64 + 148 + 2 * 172 + 44)
    for s, _ in random_states(12, 1):
        im = decode(render_table(view(s, None)))
        assert im.size == table_size(s.seats)


def test_cards_backs_and_chips_are_drawn_where_they_lie():
    s = pos(FOUR)
    im = decode(render_table(view(s, None)))
    # p1@1 is B3 face up: its blue tint around the middle; p1@2 hidden: the back's colour
    x, y = centre(card_box(0, 1, 4))
    assert count(im.crop((x - 20, y + 16, x + 20, y + 30)), T.DECK_LOOKS["B"].tint) > 300
    x, y = centre(card_box(0, 2, 4))
    assert count(im.crop((x - 20, y - 20, x + 20, y + 20)), T.BACK, tol=20) > 300
    # the -5 under p1@2 is a dark chip, the +3 under p1@1 a light one
    for place, colour in ((1, T.CHIP_PLUS), (2, T.CHIP_MINUS)):
        x0, _, x1, y1 = card_box(0, place, 4)
        region = im.crop((x0, y1 - 8, x1, y1 + T.CHIP_D))
        assert count(region, colour, tol=6) > 200
    # p3@3 does not exist: the row is empty there
    x0, y0, x1, y1 = card_box(2, 3, 2)
    assert count(im.crop((x0, y0, x1, y1)), T.ROW_BG, tol=2) == (x1 - x0) * (y1 - y0)


def test_the_player_to_act_is_marked_and_an_eliminated_one_greyed():
    s = pos(FOUR.replace("p4 hand: B6\n    p4 display: R4 B10 ~R7\n", "") + "\nout: p4")
    im = decode(render_table(view(s, None)))
    assert im.getpixel((3, row_top(0) + 80)) == T.TURN_MARK
    assert im.getpixel((3, row_top(1) + 80)) != T.TURN_MARK
    assert im.getpixel((T.WIDTH - 5, row_top(0) + 80)) == T.TURN_BG
    assert im.getpixel((T.WIDTH - 5, row_top(3) + 80)) == T.OUT_BG
    # Weasel 12's opponent is marked as the one to act, on another's turn
    w = pos("""
        decks: rw
        phase: action
        p1 hand: W12 R1
        p1 display: R3
        p2 hand: R4
        p2 display: R5
    """)
    w = play(w, "up W12", "+5", "p2")
    im = decode(render_table(view(w, None)))
    assert im.getpixel((3, row_top(1) + 80)) == T.TURN_MARK
    assert im.getpixel((T.WIDTH - 5, row_top(0) + 80)) == T.TURN_BG  # p1's turn still


def test_the_public_table_is_the_same_whatever_is_hidden():
    checked = 0
    for s, rng in random_states(20, 7):
        public = render_table(view(s, None))
        for seat in range(s.seats):  # every seat's view draws the same table
            assert render_table(view(s, seat)) == public
        other = redeal(s, None, rng)
        assert render_table(view(other, None)) == public
        checked += other.to_json() != s.to_json()
    assert checked > 15


def test_a_hidden_card_known_to_a_player_is_not_on_the_table():
    s = pos(FOUR)
    mine = table_content(view(s, 0))
    assert [x.card for x in mine.players[0].display] == ["B3", None, "R12", None]
    assert [x.card for x in mine.players[2].display] == ["R11", "B12"]  # known to all
    assert mine.players[1].hand == ("B4",) and mine.players[0].hand == (None, None)


def test_images_stay_under_400_kb():
    sizes = []
    for s, _ in random_states(16, 3):
        sizes.append(len(render_table(view(s, None))))
        if s.phase is not Phase.OVER:
            sizes.append(len(render_private(view(s, s.current))))
    assert max(sizes) <= LIMIT_BYTES
    long = pos("""
        players: 4
        chips: +1 -2 +3 +4 -5 +10
        deck: B12 .
        p1 hand: R1
        p1 display: R2[+1] ~R3[-2] R4[+3] ~R5[+4] R6[-5] ~R7[+10] R8 ~R9 R10 ~R11 R12 B1 B2 B3
        p2 hand: B4
        p2 display: B5 ~B6
        p3 hand: B7
        p3 display: B8 ~B9
        p4 hand: B10
        p4 display: B11
    """)
    assert len(render_table(view(long, None))) <= LIMIT_BYTES
    x0, _, x1, _ = card_box(0, 14, 14)
    assert x1 <= T.WIDTH - T.PAD  # a long display shrinks its cards to fit


def test_the_four_decks_differ_by_shape_not_only_by_colour():
    masks = {letter: shape_icon(letter, 40).getchannel("A").point(lambda a: 255 * (a > 127))
             for letter in "RBCW"}
    for a in "RBCW":
        for b in "RBCW":
            if a < b:
                xor = ImageChops.difference(masks[a], masks[b]).histogram()[255]
                assert xor > 150, (a, b)
    assert chip(3).getpixel((4, 17))[:3] != chip(-3).getpixel((4, 17))[:3]


def test_the_private_view_shows_the_viewers_cards_only():
    s = pos(FOUR)
    mine = decode(render_private(view(s, 0)))
    theirs = decode(render_private(view(s, 1)))
    assert mine.size != theirs.size or mine.tobytes() != theirs.tobytes()
    # a redeal of what p1 does not know leaves p1's private image unchanged
    assert render_private(view(redeal(s, 0, random.Random(2)), 0)) == render_private(
        view(s, 0))
    with pytest.raises(ValueError, match="player's view"):
        render_private(view(s, None))


def test_the_images_in_traditional_chinese():
    tr = translator(TRADITIONAL_CHINESE).text
    s = pos(FOUR)
    en = decode(render_table(view(s, None)))
    zh = decode(render_table(view(s, None), tr=tr))
    assert en.size == zh.size and en.tobytes() != zh.tobytes()
    assert len(render_private(view(s, 0), tr=tr)) <= LIMIT_BYTES
    assert decode(render_card("W12", tr=tr)).size[0] == T.WIDTH // 2 + 2 * T.PAD


def test_names_replace_the_seat_names():
    s = pos(FOUR)
    plain = render_table(view(s, None))
    named = render_table(view(s, None), names=["Alice", "Bob", "雅婷", "Dan"])
    assert plain != named
    assert table_content(view(s, None), names=["Alice"]).players[1].name == "p2"
