"""The private hand image (R11.2)."""

import pytest

import engine
from engine import Side
from render import render_hand
from render import theme as T
from render.hand import PAD, PICK_COLOUR, VALUE_W

from .helpers import EMPTY_GRID, count, decode

GRID = EMPTY_GRID.replace("4     . . . . . .", "4     . . . . M .").replace(
    "2     . . .", "2     S . .")


def state(extra: str) -> engine.GameState:
    return engine.from_diagram(GRID + "phase: pick\nround: 3\n" + extra)


def value_boxes(im, colour) -> int:
    """How many card value boxes of ``colour`` the column through the value boxes crosses."""
    x = PAD + 4 + VALUE_W // 2 - 30  # left of the big number, inside the box
    runs, inside = 0, False
    for y in range(im.height):
        hit = all(abs(a - b) <= 12 for a, b in zip(im.getpixel((x, y)), colour, strict=True))
        if hit and not inside:
            runs += 1
        inside = hit
    return runs


def test_the_public_view_has_no_hand():
    with pytest.raises(ValueError, match="player's view"):
        render_hand(engine.view(state(""), None))


def test_one_card_row_per_card_in_hand():
    s = state("raptor hand: 2 5 7\nscientist hand: 1 4 8\n")
    r = decode(render_hand(engine.view(s, Side.RAPTOR)))
    sc = decode(render_hand(engine.view(s, Side.SCIENTIST)))
    assert r.width == sc.width == T.WIDTH
    assert value_boxes(r, T.RAPTOR) == 3 and value_boxes(r, T.SCIENTIST_DARK) == 0
    assert value_boxes(sc, T.SCIENTIST_DARK) == 3 and value_boxes(sc, T.RAPTOR) == 0
    assert count(r, PICK_COLOUR) == 0


def test_the_cards_drawn_are_the_cards_in_hand():
    a = render_hand(engine.view(state("raptor hand: 2 5 7\n"), Side.RAPTOR))
    b = render_hand(engine.view(state("raptor hand: 1 5 7\n"), Side.RAPTOR))
    assert a != b


def test_the_picked_card_is_framed():
    s = state("raptor hand: 2 7\nraptor pick: 5\n")
    im = decode(render_hand(engine.view(s, Side.RAPTOR)))
    assert count(im, PICK_COLOUR) > 2000
    assert value_boxes(im, T.RAPTOR) == 3          # two in hand and the picked one
    unpicked = decode(render_hand(engine.view(state("raptor hand: 2 5 7\n"), Side.RAPTOR)))
    assert im.height > unpicked.height             # the pick has its own section


def test_observation_shows_the_scientist_card_to_the_raptor_only():
    s = state("observation: yes\nraptor hand: 2 5 7\nscientist hand: 1 3\nscientist pick: 4\n")
    raptor = decode(render_hand(engine.view(s, Side.RAPTOR)))
    assert value_boxes(raptor, T.RAPTOR) == 3
    assert value_boxes(raptor, T.SCIENTIST_DARK) == 1     # the shown card
    scientist = decode(render_hand(engine.view(s, Side.SCIENTIST)))
    assert value_boxes(scientist, T.SCIENTIST_DARK) == 3   # two in hand + own pick
    assert value_boxes(scientist, T.RAPTOR) == 0
    assert count(scientist, PICK_COLOUR) > 2000


def test_the_raptor_hand_image_ignores_the_scientist_hidden_cards():
    public = "raptor hand: 2 5 7\nraptor deck: 1 3 9\nraptor discard: 4 6 8\n"
    variants = ["scientist hand: 1 2\nscientist pick: 3\nscientist deck: 4 5 6 7 8 9\n",
                "scientist hand: 8 9\nscientist pick: 7\nscientist deck: 6 5 4 3 2 1\n"]
    images = {render_hand(engine.view(state(public + v), Side.RAPTOR)) for v in variants}
    assert len(images) == 1
    # ... but under observation the shown card is the scientist's real pick (R5.2)
    shown = {render_hand(engine.view(state("observation: yes\n" + public + v), Side.RAPTOR))
             for v in variants}
    assert len(shown) == 2


def test_an_empty_hand_renders():
    s = state("raptor hand: -\nraptor pick: 5\nraptor deck: 1 2 3 4 6 7 8 9\n")
    im = decode(render_hand(engine.view(s, Side.RAPTOR)))
    assert value_boxes(im, T.RAPTOR) == 1


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_no_line_of_a_card_ends_with_an_opening_bracket_or_leaves_the_card(lang):
    """Every card's effect text as the hand image draws it: no line ends with an opening
    bracket or starts with closing punctuation, each fits the card's text area, and nothing
    is lost (at the card's width and narrower ones, for other break points)."""
    from bot.i18n import translator
    from render.hand import BODY_SIZE, BODY_WIDTH, body_lines
    from render.text import NO_BREAK_BEFORE, text_width, wrap

    tr = translator(lang).text
    for side in Side:
        for value in range(1, 10):
            text = tr(engine.effect_text(side, value))
            assert body_lines(side, value, tr) == wrap(text, BODY_SIZE, BODY_WIDTH)
            for width in (BODY_WIDTH, *range(200, BODY_WIDTH, 23)):  # other break points
                lines = wrap(text, BODY_SIZE, width)
                assert "".join(lines).replace(" ", "") == text.replace(" ", "")
                for line in lines:
                    assert line[-1:] not in "（「『《〈(", (side, value, width, line)
                    assert line[:1] not in NO_BREAK_BEFORE, (side, value, width, line)
                    assert text_width(line, BODY_SIZE) <= width, (side, value, width, line)
