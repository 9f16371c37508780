"""The bundled font draws every character the images use."""

import pytest

from engine import Side, card_name, card_text
from render.text import TIMES, font, safe_text, text_mask, text_width, wrap

NOTDEF = font(24).getmask("\U000f0000")   # a private-use character: surely not in the font


def missing(text: str) -> set[str]:
    f = font(24)
    bad = set()
    for ch in set(text) - {" "}:
        m = f.getmask(ch)
        if m.size == NOTDEF.size and bytes(m) == bytes(NOTDEF):
            bad.add(ch)
    return bad


def test_the_notdef_probe_works():
    assert missing("×") == {"×"}       # the bundled font has no multiplication sign
    assert missing("AbZ19·") == set()


@pytest.mark.parametrize("side", list(Side))
@pytest.mark.parametrize("n", range(1, 10))
def test_card_names_and_texts_have_glyphs(side, n):
    # all but the multiplication sign, which text_mask draws itself
    assert missing(safe_text(card_name(side, n) + card_text(side, n))) <= {TIMES}


def test_the_multiplication_sign_is_drawn_as_in_the_texts_not_as_an_x():
    """"Fear ×2" in the images as in the messages: two strokes crossing in the
    middle of an x's box, an x's advance wide."""
    assert safe_text("Fear ×2") == "Fear ×2"
    sign, x = text_mask(TIMES, 40), text_mask("x", 40)
    assert sign.size == x.size
    left, top, right, bottom = sign.getbbox()
    x_left, x_top, x_right, x_bottom = x.getbbox()
    assert x_top <= top and bottom <= x_bottom + 1  # within the x-height
    assert (bottom - top) < (x_bottom - x_top)  # a little smaller than the letter
    centre = ((left + right) // 2, (top + bottom) // 2)
    assert sign.getpixel(centre) > 200  # the strokes cross there
    assert sign.getpixel((left + 1, (top + bottom) // 2)) < 60  # and not at the side
    assert text_mask("Fear ×2", 24).tobytes() != text_mask("Fear x2", 24).tobytes()


def test_board_and_hand_labels_have_glyphs():
    from render.board import REASON_TEXT, SIDE_NAMES
    words = " ".join(REASON_TEXT.values()) + " ".join(SIDE_NAMES.values())
    words += "Round · Setup: To act ABCDEFGHIJKLM 0123456789/ ... & ( ) -"
    assert missing(safe_text(words)) == set()


def test_wrap_keeps_every_word_within_the_width():
    text = card_text(Side.RAPTOR, 1)
    lines = wrap(text, 22, 300)
    assert len(lines) > 1
    assert all(text_width(line, 22) <= 300 for line in lines)
    assert " ".join(lines).split() == safe_text(text).split()


def test_an_opening_quote_never_ends_a_chinese_line():
    """An opening ' moves to the next line with what it quotes; a closing one stays."""
    text = "也可以輸入中文：'咬 F3'、'結束'"
    lines = wrap(text, 22, text_width("也可以輸入中文：'", 22))
    assert lines[0] == "也可以輸入中文：" and lines[1].startswith("'咬 F3'")
    lines = wrap(text, 22, text_width("也可以輸入中文：'咬 F3'", 22))
    # '、' never starts a line nor passes the width: the word before it goes down with it
    assert lines == ["也可以輸入中文：'咬", "F3'、'結束'"]
    assert all(text_width(line, 22) <= text_width("也可以輸入中文：'咬 F3'", 22) for line in lines)
