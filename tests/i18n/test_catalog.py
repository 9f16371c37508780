"""The message catalog: every message has both languages with the same
placeholders, the catalogs match the source, and locale names resolve without errors."""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.i18n import ENGLISH, TRADITIONAL_CHINESE, Translator, resolve, tr
from bot.i18n.catalogs import extract, po_path
from engine.messages import Text

PLACEHOLDER = re.compile(r"{([^{}]*)}")


def _placeholders(s: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(s) if name is not None}


def _entries(lang: str):
    with po_path(lang).open("rb") as f:
        return [m for m in read_po(f) if m.id]


ZH = _entries(TRADITIONAL_CHINESE)


def test_the_catalogs_hold_every_message_of_the_source():
    source = {m.id for m in extract() if m.id}
    for lang in i18n.LANGUAGES:
        ids = {m.id for m in _entries(lang)}
        assert source - ids == set(), f"{lang}: run python -m bot.i18n.catalogs"
        assert ids - source == set(), f"{lang}: obsolete entries, run python -m bot.i18n.catalogs"
    assert len(source) > 150


@pytest.mark.parametrize("message", ZH, ids=lambda m: (m.id if isinstance(m.id, str)
                                                          else m.id[0])[:40])
def test_every_message_has_its_chinese_with_the_same_placeholders(message):
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    assert not message.fuzzy
    assert all(strings), f"untranslated: {ids[0]!r}"
    for s in strings:
        assert _placeholders(s) == _placeholders(ids[0]), (ids[0], s)
        if _placeholders(ids[0]) or len(ids) > 1:
            s.format(**{k: 1 for k in _placeholders(s)})  # well-formed braces and specs


def test_the_english_catalog_is_the_message_ids():
    for m in _entries(ENGLISH):
        assert m.string in ("", m.id) or m.string == ("", "") or m.string == m.id


def test_chinese_is_traditional_and_uses_the_game_s_terms():
    text = "".join(m.string if isinstance(m.string, str) else "".join(m.string) for m in ZH)
    for term in ("迅猛龍", "母龍", "幼龍", "科學家", "麻醉", "火焰", "行動點數"):
        assert term in text
    simplified = set("个这说时为们对发现体无过还实动会点长开关进")  # their Traditional forms
    assert simplified & set(text) == set()  # 個這說時為們對發現體無過還實動會點長開關進


#: A bold Chinese word with a space between it and Chinese text: ``數字 **小** 的一方``
#: reads ``數字 小 的一方`` where the markers are stripped (the terminal, plain text).
HAN = "\u4e00-\u9fff"
CJK_TEXT = f"[{HAN}\u3000-\u303f\uff01-\uff5e]"
SPACED_BOLD = re.compile(rf"{CJK_TEXT} \*\*[{HAN}][^*]*\*\*|\*\*[^*]*[{HAN}]\*\* {CJK_TEXT}")


def test_a_bold_chinese_word_sits_in_its_sentence_without_spaces():
    spaced = [s for m in ZH for s in ([m.string] if isinstance(m.string, str) else m.string)
              if SPACED_BOLD.search(s)]
    assert spaced == []
    # the rule still lets a space stand between Chinese and a Latin word or a number
    assert not SPACED_BOLD.search("你選了 **{card}**（面朝下）") and not SPACED_BOLD.search(
        "還剩 **{n} 點**。")
    assert SPACED_BOLD.search("數字 **小** 的一方") and SPACED_BOLD.search("按 **認輸** 確認")


@pytest.mark.parametrize(("name", "lang"), [
    ("zh-TW", TRADITIONAL_CHINESE), ("zh_TW.UTF-8", TRADITIONAL_CHINESE),
    ("zh-HK", TRADITIONAL_CHINESE), ("zh-CN", TRADITIONAL_CHINESE), ("ZH", TRADITIONAL_CHINESE),
    ("en-US", ENGLISH), ("en-GB", ENGLISH), ("fr", ENGLISH), ("ja", ENGLISH), ("C", ENGLISH),
    ("POSIX", ENGLISH), ("", ENGLISH), (None, ENGLISH), ("xx-YY@euro", ENGLISH), (42, ENGLISH),
])
def test_locales_resolve_and_an_unknown_one_is_english(name, lang):
    assert resolve(name) == lang


def test_discord_locale_values_resolve():
    import discord
    assert resolve(discord.Locale.taiwan_chinese) == TRADITIONAL_CHINESE
    assert resolve(discord.Locale.chinese) == TRADITIONAL_CHINESE  # zh-CN (module note)
    assert resolve(discord.Locale.american_english) == ENGLISH
    assert resolve(discord.Locale.french) == ENGLISH


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "zh_TW.UTF-8"}, TRADITIONAL_CHINESE), ({"LC_ALL": "zh_TW"}, TRADITIONAL_CHINESE),
    ({"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, TRADITIONAL_CHINESE),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "zh_TW.UTF-8"}, ENGLISH),
    ({"LANGUAGE": "zh_TW:en", "LANG": "C"}, TRADITIONAL_CHINESE), ({}, ENGLISH),
    ({"LANG": "C.UTF-8"}, ENGLISH),
])
def test_the_environment_s_locale(env, lang):
    assert i18n.from_environment(env) == lang


def test_texts_render_in_both_languages_nested_and_joined():
    reason = Text("{who} stops before {what} on {sq}", who=Text("the mother"),
                  what=Text("a rock"), sq="E4")
    assert reason == "the mother stops before a rock on E4"
    assert tr(reason, "en") == "the mother stops before a rock on E4"
    assert tr(reason, "zh-TW") == "母龍會停在 E4 的石頭前面"
    joined = Text.joined("; ", [Text("raptors never enter fire"), Text("the game is over")])
    assert str(joined) == "raptors never enter fire; the game is over"
    assert tr(joined, "zh-TW") == "迅猛龍不能進入火焰；遊戲已經結束"
    assert Text.from_dict(reason.to_dict()) == reason
    assert tr(Text.from_dict(reason.to_dict()), "zh-TW") == "母龍會停在 E4 的石頭前面"
    assert tr("plain", "zh-TW") == "plain"


def test_an_unknown_message_id_falls_back_to_english_never_an_error():
    t = Translator("zh-TW")
    assert t("no such message {x}", x=1) == "no such message 1"
    assert Translator("klingon").lang == ENGLISH
