"""The images in Traditional Chinese: the shipped CJK font holds every character
of every zh-TW message, and the longest translated labels fit their boxes on the board's
panel and the hand's cards (measured with Pillow's ``textbbox``, in both languages)."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw

import engine
from bot.i18n import LANGUAGES, translator
from bot.i18n.fontsubset import EXTRA, catalog_characters
from engine import Side, card_name, effect_text
from engine.messages import Text
from render import board, hand
from render import theme as T
from render.text import CJK_BOLD_FONT, CJK_FONT, cjk_font, font, is_cjk, wrap

_D = ImageDraw.Draw(Image.new("L", (1, 1)))


def width(text: str, size: int, bold: bool = False) -> float:
    """The ink width of ``text`` as the images draw it (``textbbox`` of the font used)."""
    f = cjk_font(size, bold) if is_cjk(text) else font(size)
    left, _, right, _ = _D.textbbox((0, 0), text, font=f, anchor="la",
                                    stroke_width=1 if bold and not is_cjk(text) else 0)
    return right - left


@pytest.mark.parametrize("path", [CJK_FONT, CJK_BOLD_FONT], ids=lambda p: p.name)
def test_every_character_of_every_chinese_message_is_in_the_font(path):
    cmap = TTFont(str(path)).getBestCmap()
    needed = catalog_characters() | set(EXTRA)
    assert len(needed) > 300
    missing = sorted(ch for ch in needed if not ch.isspace() and ord(ch) not in cmap)
    assert missing == [], "run python -m bot.i18n.fontsubset"


def test_the_font_is_small_and_its_licence_ships_beside_it():
    assert CJK_FONT.stat().st_size + CJK_BOLD_FONT.stat().st_size <= 2_000_000
    licence = (CJK_FONT.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert TTFont(str(CJK_FONT))["name"].getDebugName(1) == "Raptor CJK"  # renamed subset


def _labels(lang: str):
    t = translator(lang).text
    return t, {key: t(Text(key)) for key in (
        "Sleep tokens", "Escaped", "Mother", "Captured", "Reserve", "Killed", "Fire supply",
        "Hand", "Deck", "Discard", "Card", "face down", "choosing...", "last round", "to act",
        "WINNER", "hidden (Disappearance)", "on the board", "not placed yet",
        "disappeared from here")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_panel_rows_fit_their_column(lang):
    t, L = _labels(lang)
    column = T.WIDTH / 2 - 40
    pips5, pips3 = 5 * 22, 3 * 22
    s = T.PANEL_SIZE
    rows = [
        width(L["Sleep tokens"], s) + 12 + pips5 + 6 + width("5/5", s, True),
        width(L["Escaped"], s) + 12 + pips3 + 6 + width("3/3", s, True),
        width(L["Mother"], s) + 12 + max(width(L[k], s, True) for k in (
            "hidden (Disappearance)", "on the board", "not placed yet")),
        # the legend of the dashed frame where the mother disappeared: its mark, its words
        width(L["Mother"], s) + 12 + board.LEGEND_MARK + 12
        + width(L["disappeared from here"], s, True),
        width(L["Captured"], s) + 12 + pips3 + 6 + width("3/3", s, True),
        width(L["Reserve"], s) + 8 + width("6", s, True) + 26 + width(L["Killed"], s) + 8
        + width("10", s, True),
        width(L["Fire supply"], s) + 8 + width("10/10", s, True),
        width(L["Hand"], s) + 8 + width("3", s, True) + 26 + width(L["Deck"], s) + 8
        + width("9", s, True),
        width(L["Discard"], s) + 12 + 9 * 30,  # all nine cards
        width(L["Card"], s) + 12 + max(width(L["choosing..."], s),
                                       26 + 8 + width(L["face down"], s))
        + 20 + width(L["last round"], s) + 8 + 26,
    ]
    assert max(rows) <= column, (lang, rows)
    for side in Side:  # the card revealed: the name shrinks to 18 px at most, then must fit
        for n in range(1, 10):
            room = column - width(L["Card"], s) - 12 - 26 - 8
            assert width(t(card_name(side, n)), 18) <= room, (lang, side, n)
    title = 48 + max(width(t(board.SIDE_NAMES[x]).upper(), T.PANEL_TITLE_SIZE, True)
                     for x in Side)
    assert title + 12 + 14 + 22 + max(width(L["to act"], s), width(L["WINNER"], s, True)) \
        <= column


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_longest_status_line_fits_the_header(lang):
    t = translator(lang).text
    names = board.SIDE_NAMES
    both = Text.joined(" & ", [names[Side.RAPTOR], names[Side.SCIENTIST]])
    late = Text("Round {n}", n=188)
    lines = [  # (status, the box of who is to act) as each phase writes them
        (Text("{head} · {side} resolves {card} {name}", head=late, side=names[side], card=n,
              name=card_name(side, n)), Text("To act: {who}", who=names[side]))
        for side in Side for n in range(1, 10)]
    for side in Side:
        lines.append((Text("{head} · {side} spends action points", head=late,
                           side=names[side]),
                      Text("To act: {who} ({n} AP)", who=names[side], n=12)))
    lines.append((Text("{head} · Observation: the scientist picks first",
                       head=Text("After round {n}", n=188)), Text("To act: {who}", who=both)))
    for head, right in lines:
        avail = T.WIDTH - 2 * 16 - width(t(right), T.PANEL_SIZE, True) - 24
        assert width(t(head), 18, True) <= avail, t(head)
    verdict = t(Text("{winner} wins: {reason}", winner=board.SIDE_NAMES[Side.SCIENTIST],
                     reason=board.REASON_TEXT[engine.Reason.MOTHER_ASLEEP]))
    assert width(verdict, 22, True) <= T.WIDTH - 2 * T.MARGIN


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hand_s_title_tags_and_card_texts_fit(lang):
    t = translator(lang).text
    status = max((t(x) for x in (
        Text("Round {n} · Raptor {raptor} vs Scientist {scientist}", n=188, raptor=9,
             scientist=9),
        Text("Round {n} · the scientist picks first", n=188))),
        key=lambda x: width(x, T.PANEL_SIZE, True))
    for side in Side:
        title = t(Text("{side}'s hand", side=board.SIDE_NAMES[side]))
        left = hand.PAD + width(title, T.HEADER_SIZE, True) + 16 + width(t(Text("private")),
                                                                          T.PANEL_SIZE)
        assert left + 16 <= T.WIDTH - hand.PAD - width(status, T.PANEL_SIZE, True), lang
    x0, x1 = hand.PAD, T.WIDTH - hand.PAD
    tx = x0 + hand.VALUE_W + 18
    tag = max(width(t(Text(k)), 18, True) for k in ("PICKED", "SHOWN"))
    for side in Side:
        for n in range(1, 10):
            name = width(t(card_name(side, n)), hand.NAME_SIZE, True)
            assert tx + name + 14 + tag + 16 <= x1 - 8, (lang, side, n)
            for line in wrap(t(effect_text(side, n)), hand.BODY_SIZE, x1 - tx - 18):
                assert width(line, hand.BODY_SIZE) <= x1 - tx - 18, line
    foot = t(Text("Deck ({n}, order unknown): {deck}   ·   Discard: {pile}", n=9,
                  deck="1 2 3 4 5 6 7 8 9", pile="1 2 3 4 5 6 7 8 9"))
    assert hand.PAD + width(foot, T.PANEL_SIZE) <= T.WIDTH - hand.PAD
    lower = t(Text("Lower card: its effect.  Higher card: the difference in AP."))
    assert hand.PAD + width(lower, 20) <= T.WIDTH - hand.PAD


def test_chinese_wraps_between_characters_never_before_closing_punctuation():
    text = translator("zh-TW").text(effect_text(Side.RAPTOR, 1))
    lines = wrap(text, 22, 300)
    assert len(lines) >= 3
    assert "".join(lines) == text
    assert not any(line[0] in "，。、；：）" for line in lines)
    assert all(width(line, 22) <= 300 + 22 for line in lines)  # + one punctuation mark


def test_an_opening_bracket_never_ends_a_line_of_a_hand_card():
    """The cards' real texts at the hand's width: "不能行動（" once ended a line (card 8 of
    the raptor); the bracket now starts the next one, and nothing is lost or too wide."""
    t = translator("zh-TW").text
    x1, tx = T.WIDTH - hand.PAD, hand.PAD + hand.VALUE_W + 18
    lines = wrap(t(effect_text(Side.RAPTOR, 8)), hand.BODY_SIZE, x1 - tx - 18)
    assert lines[0].endswith("不能行動") and lines[1].startswith("（站起要")
    for side in Side:
        for n in range(1, 10):
            text = t(effect_text(side, n))
            for w in (x1 - tx - 18, 300):
                lines = wrap(text, hand.BODY_SIZE, w)
                # nothing lost (but the spaces where a line breaks)
                assert "".join(lines).replace(" ", "") == text.replace(" ", ""), (side, n, w)
                assert not any(line[-1] in "（「『《〈" for line in lines), (side, n, w, lines)
                assert not any(line[0] in "，。、；：）" for line in lines), (side, n, w)
                # + one punctuation mark kept on its line
                assert all(width(line, hand.BODY_SIZE) <= w + hand.BODY_SIZE for line in lines)


def test_a_chinese_board_and_hand_differ_from_the_english_and_english_is_unchanged():
    s = engine.new_game(3, setup="quick")
    en = board.render_board(engine.view(s, None))
    assert board.render_board(engine.view(s, None), tr=str) == en
    zh = board.render_board(engine.view(s, None), tr=translator("zh-TW").text)
    assert zh != en
    assert hand.render_hand(engine.view(s, Side.RAPTOR), tr=translator("en").text) == \
        hand.render_hand(engine.view(s, Side.RAPTOR))
