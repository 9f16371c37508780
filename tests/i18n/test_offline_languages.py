"""The terminal and the demo in Traditional Chinese: ``--lang``, its default from
the environment, Chinese lines, log and images, and the Chinese action words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from bot.games.raptor import demo, terminal
from bot.i18n import translator
from bot.offline import common
from engine import Side
from engine.notation import CHINESE_ALIASES, parse_action

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize(("typed", "written"), [
    ("咬 F3", "kill F3"), ("咬F3", "kill F3"), ("C2 麻醉 D2", "C2 sleep D2"),
    ("C2麻醉D2", "C2 sleep D2"), ("G2到G5", "G2-G5"), ("出 5", "play 5"), ("出牌5", "play 5"),
    ("B5 射擊 G5", "B5 shoot G5"), ("麻醉氣體 D2", "gas D2"), ("喚醒 E2", "wake E2"),
    ("滅火 E4", "out E4"), ("結束", "end"), ("恢復", "heal"), ("放火 E4", "fire E4"),
    # full-width forms, as Chinese input methods type them
    ("出３", "play 3"), ("ｐｌａｙ　３", "play 3"), ("恐嚇Ｂ２", "fear B2"),
    ("Ｇ２－Ｇ５", "G2-G5"), ("Ｃ２　麻醉　Ｄ２", "C2 sleep D2"), ("ｍ＠ｇ２", "M@G2"),
])
def test_chinese_action_words_read_as_the_notation(typed, written):
    from engine.notation import _normalise
    assert _normalise(typed) == _normalise(written)


def test_a_chinese_word_picks_a_legal_action_and_english_output_is_the_notation():
    s = engine.new_game(4, setup="quick")
    hand = s.hands[Side.RAPTOR]
    assert parse_action(f"出 {hand[0]}", s, Side.RAPTOR) == engine.Pick(hand[0])
    assert set(CHINESE_ALIASES.values()) <= {"kill", "wake", "out", "stand", "sleep", "capture",
                                             "shoot", "fear", "heal", "gas", "fire", "end",
                                             "play", "-"}


def test_lang_option_and_its_default_from_the_environment(monkeypatch):
    assert common.lang_arg("zh-TW") == "zh-TW" and common.lang_arg("zh_tw") == "zh-TW"
    assert common.lang_arg("EN") == "en"
    import argparse
    with pytest.raises(argparse.ArgumentTypeError, match="the languages are en, zh-TW"):
        common.lang_arg("fr")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    from bot.i18n import from_environment
    assert from_environment() == "zh-TW"


class Typist:
    """Types Chinese words: '?', then the first legal action (its notation, or '出 N' for a
    card); a wrong entry first; resigns with 'quit' and '是' after ``moves`` actions."""

    def __init__(self, moves: int) -> None:
        self.out: list[str] = []
        self.moves = moves
        self.script = ["咬 A1"]
        self.prompts: list[str] = []

    def echo(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt == translator("zh-TW").text(terminal.CONFIRM_RESIGN):
            return "是"
        if self.script:
            return self.script.pop(0)
        if self.moves <= 0:
            return "quit"
        if self.out and self.out[-1].startswith("  "):
            first = self.out[-1].split("\n")[0].split()[0:2]
            self.moves -= 1
            if first[0] == "play":
                return f"出 {first[1]}"
            return self.out[-1].split("\n")[0].split("  ")[1]
        return "?"


async def test_a_terminal_match_in_chinese(tmp_path: Path):
    t = Typist(moves=3)
    result = await terminal.play(tmp_path, side="raptor", level="easy", seed=9, read=t.read,
                                 echo=t.echo, lang="zh-TW")
    text = "\n".join(t.out)
    assert "你扮演迅猛龍；AI（簡單）扮演科學家。" in text
    assert ("沒有執行：'咬 A1' 現在不合法：現在是選牌階段：用 'play N' 從手牌（3 5 6）出一張牌；"
            "最接近的合法行動：") in text
    assert "你選了 " in text and "地圖圖片：" in text and "你認輸了。再見。" in text
    assert "--lang zh-TW deals" not in text and "--lang zh-TW 可以重玩同一局" in text
    assert t.prompts[1].startswith("迅猛龍")  # the prompt names the side in Chinese
    english = [ln for ln in t.out if not CJK.search(ln)]  # only the grid and notation lines
    assert all(not re.search(r"\b(the|you|your|is|with)\b", ln) for ln in english), english
    assert result["reason"] == "resigned"


async def test_the_demo_writes_chinese_lines_log_and_images(tmp_path: Path, demo_seed_1):
    lines: list[str] = []
    result = await demo.play_demo(tmp_path, seed=1, echo=lines.append, lang="zh-TW")
    assert lines[0] == "迅猛龍示範對局：AI（困難）對 AI（簡單），叢林，種子 1"  # the default levels
    assert lines[1].startswith("第 1 回合：迅猛龍 ")
    log = result["log"].read_text(encoding="utf-8")
    assert "[第 1 回合] 迅猛龍：play " in log  # the notation stays as it is
    assert "科學家玩家在第" in log or "迅猛龍玩家在第" in log
    en = tmp_path / "demo"  # the same demo in English (demo_seed_1)
    assert (en / "final.png").read_bytes() != (tmp_path / "final.png").read_bytes()
    assert (en / "match.txt").read_text() == (tmp_path / "match.txt").read_text()


async def test_the_terminal_rules_cards_and_effect_prompt_in_chinese(tmp_path: Path):
    """'rules', 'cards' and the prompt of a card effect are the catalog's Chinese, not the
    English ids (seed 5: the raptor's 3, Fear, is the lower card)."""
    from bot.games.raptor import texts
    zh = translator("zh-TW")
    t = Typist(moves=0)
    t.script = ["rules", "rules 2", "cards", "cards 2", "出 3"]
    await terminal.play(tmp_path, side="raptor", seed=5, read=t.read, echo=t.echo,
                        lang="zh-TW")
    first = next(i for i, x in enumerate(t.out) if x.startswith("最後的迅猛龍是在 6×13"))
    rules, cards = t.out[first:first + 2], t.out[first + 2:first + 4]
    assert rules[0].endswith("（下一頁：'rules 2'）") and cards[0].endswith("（下一頁：'cards 2'）")

    def squeezed(pages: list[str]) -> str:  # unwrapped, the page footers left out
        return "".join("".join(pages).replace("（下一頁：'rules 2'）", "")
                       .replace("（下一頁：'cards 2'）", "").split())

    summary = zh.text(texts.RULES_SUMMARY).replace("**", "").replace("*", "").replace("`", "'")
    assert "在這裡玩" in summary  # Discord's how-to, replaced by the terminal's
    assert squeezed(rules) == "".join((summary.rsplit("\n\n", 1)[0] + zh.text(terminal.HELP))
                                      .split())
    assert "母龍可以咬死相鄰的科學家" in rules[1] and "在這裡玩" not in "".join(rules)
    assert squeezed(cards).startswith("迅猛龍的牌（只有數字小的一方執行效果）"
                                      "1·召喚幼龍並重洗牌庫——")
    for side in (Side.RAPTOR, Side.SCIENTIST):
        for card in range(1, 10):
            effect = zh("**{card}** — {effect}", card=texts.card_label(side, card),
                        effect=engine.card_text(side, card)).replace("**", "")
            assert "".join(effect.split()) in squeezed(cards)
    prompt = next(x for x in t.out if x.startswith("輪到你：執行"))
    assert prompt == ("輪到你：執行 3 · 恐嚇：嚇昏 1 名站立的科學家：他倒下，重新站起前不能行動"
                      "（站起要 1 點行動點數，下回合起才可以）。")
    for line in "\n".join([*rules, *cards, prompt]).split("\n"):  # 'notation' and the Tab key
        assert not re.search(r"[A-Za-z]{3,}", re.sub(r"'[^']*'|Tab", "", line)), line


async def test_the_terminal_reads_full_width_input(tmp_path: Path):
    """What a Chinese input method types: full-width '？', '出３', '恐嚇Ｂ２' (seed 5: the
    raptor holds 3, Fear, which is the lower card), and 'ｑｕｉｔ' then '是' to resign."""
    script = ["？", "出３", "恐嚇Ｂ２", "ｑｕｉｔ", "是"]
    lines: list[str] = []
    result = await terminal.play(tmp_path, side="raptor", seed=5, read=lambda _: script.pop(0),
                                 echo=lines.append, lang="zh-TW")
    assert "  play 3         出 3 號牌：恐嚇" in lines[lines.index("輪到你：用 'play N' 選一張牌。")
                                                       + 1].split("\n")
    assert "你選了 3 · 恐嚇。" in lines and "已執行：fear B2——嚇昏 B2 的科學家" in lines
    assert not [ln for ln in lines if ln.startswith("沒有執行")], lines
    assert result["reason"] == "resigned" and "你認輸了。再見。" in lines
