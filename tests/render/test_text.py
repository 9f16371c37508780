"""The bundled font draws every character the images use."""

import pytest

from engine import Side, card_name, card_text
from render.text import font, safe_text, text_width, wrap

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
    assert missing(safe_text(card_name(side, n) + card_text(side, n))) == set()


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
