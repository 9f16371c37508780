"""Every line the terminal shows fits 80 columns, in English and in Chinese (a wide character
takes two columns): the start-up lines, the board, the legal actions, the pages of 'rules'
and 'cards', the refusals, the prompts and the end of the match, as an 80-column terminal
shows them (:func:`bot.offline.console.wrapped`, what ``terminal_echo`` prints)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from bot.games.raptor import terminal
from bot.games.raptor.terminal import play
from bot.i18n import translator
from bot.offline.console import display_len, pages, wrapped

WIDTH = 80


class Visitor:
    """Opens every screen first (the rules and card pages, the board, the legal actions, a
    malformed and an illegal entry), then plays the first legal action listed ``moves``
    times, then resigns; keeps everything shown and every prompt."""

    def __init__(self, lang: str, moves: int) -> None:
        self.confirm = translator(lang).text(terminal.CONFIRM_RESIGN)
        self.script = ["rules", "rules 2", "rules 3", "cards", "cards 2", "b", "?", "E9-Z1",
                       "kill A1", "undo", "help"]
        self.moves = moves
        self.out: list[str] = []
        self.prompts: list[str] = []

    def echo(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt == self.confirm:
            return "y"
        if self.script:
            return self.script.pop(0)
        if self.moves <= 0:
            return "quit"
        if self.out and self.out[-1].startswith("  "):  # the legal list was just shown
            self.moves -= 1
            return self.out[-1].split("\n")[0].split("  ")[1]
        return "?"


def too_wide(texts: list[str]) -> list[tuple[int, str]]:
    return [(display_len(line), line) for text in texts
            for line in wrapped(text, WIDTH).split("\n") if display_len(line) > WIDTH]


@pytest.fixture
def short_folder() -> Iterator[Path]:
    """A folder with a short path: the terminal prints the board image's path as given (a
    path cannot be wrapped), and pytest's own folders run past 80 columns under xdist."""
    folder = Path(tempfile.mkdtemp(prefix="w", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("side", ["raptor", "scientist"])
async def test_every_screen_of_a_match_fits_80_columns(short_folder: Path, monkeypatch, lang,
                                                       side):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("LINES", "24")
    v = Visitor(lang, moves=60)
    result = await play(short_folder, side=side, level="easy", seed=9, read=v.read, echo=v.echo,
                        lang=lang)
    assert not v.script and (v.moves == 0 or result["rounds"] >= 5)  # every screen, and play
    assert too_wide(v.out) == []
    assert max(map(display_len, v.prompts)) <= WIDTH


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_pages_and_the_start_up_lines_fit_80_columns_at_any_page(lang):
    _ = translator(lang)
    texts = [_.text(terminal.HELP), _.text(terminal.LEGEND)]
    for word, text in (("rules", terminal.rules_text(_)), ("cards", terminal.cards_text(_))):
        texts += pages(text, word, WIDTH, _)
    assert too_wide(texts) == []


def test_chinese_closing_punctuation_takes_the_character_before_it_to_the_next_line():
    """A '，' or '、' that would pass the width does not hang there (a terminal would wrap it
    alone onto the next line): the character before it goes down with it."""
    line = "一" * 39 + "二，三"  # 78 columns, then '二，' would end at 82
    assert wrapped(line, WIDTH).split("\n") == ["一" * 39, "  二，三"]
    line = "一" * 40 + "、二"  # 80 columns, then '、'
    assert wrapped(line, WIDTH).split("\n") == ["一" * 39, "  一、二"]
    line = "一" * 39 + "（二）。"  # no opening bracket ends a line, no closing one starts one
    assert wrapped(line, WIDTH).split("\n") == ["一" * 39, "  （二）。"]
    for width in range(20, 101):
        for text in (translator("zh-TW").text(terminal.HELP),
                     terminal.cards_text(translator("zh-TW"))):
            lines = wrapped(text, width).split("\n")
            assert all(display_len(x) <= width for x in lines), width
            assert "".join(lines).replace(" ", "") == text.replace(" ", "").replace("\n", "")
            assert not any(x.lstrip()[:1] in "，。、；：！？）」』》" for x in lines if x.strip())


def test_a_view_in_chinese_fits_80_columns():
    s = engine.new_game(9, setup="quick")
    _ = translator("zh-TW")
    for side in engine.Side:
        assert too_wide([terminal.view_text(engine.view(s, side), width=WIDTH, _=_)]) == []
