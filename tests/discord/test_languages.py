"""The commands in Traditional Chinese: the synced commands carry zh-TW
localisations that pass Discord's rules, and the language settings are kept."""

from __future__ import annotations

import unicodedata

import pytest

from bot.discord.command_strings import command_messages
from bot.i18n import LANGUAGES, catalog
from tests.discord.conftest import World

#: Discord's rule for CHAT_INPUT command and option names (its docs): the regex
#: ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`` (Unicode), and the lowercase form of
#: any letter that has one.
DEVANAGARI, THAI = range(0x0900, 0x0980), range(0x0E00, 0x0E80)


def discord_name_ok(name: str) -> bool:
    """Whether ``name`` is a valid CHAT_INPUT command or option name for Discord."""
    def allowed(ch: str) -> bool:
        return (ch in "-_'" or unicodedata.category(ch)[0] in "LN" or ord(ch) in DEVANAGARI
                or ord(ch) in THAI)
    return 1 <= len(name) <= 32 and all(map(allowed, name)) and name == name.lower()


def test_the_name_rule_itself():
    assert discord_name_ok("challenge") and discord_name_ok("dm_hand")
    assert discord_name_ok("挑戰") and discord_name_ok("私訊手牌") and discord_name_ok("ab-c'd")
    for bad in ("", "Challenge", "two words", "a" * 33, "挑戰!", "地圖。", "ÉTAT"):
        assert not discord_name_ok(bad), bad


def _walk(command: dict, path: str = ""):
    """(path, kind, payload) of a synced command's names and descriptions, options and
    choices, depth first."""
    here = f"{path} {command['name']}".strip()
    yield here, "command", command
    for option in command.get("options", []):
        if option["type"] in (1, 2):  # a subcommand (group)
            yield from _walk(option, here)
        else:
            yield f"{here} {option['name']}", "option", option
            for choice in option.get("choices", []):
                yield f"{here} {option['name']}={choice['value']}", "choice", choice


async def test_the_synced_commands_carry_zh_tw_localisations_that_discord_accepts(
        world: World):
    synced = world.fake.synced_commands()
    assert {c["name"] for c in synced} == {"raptor", "race", "raptor-admin", "ratjack"}
    seen = 0
    for root in synced:
        assert "zh-TW" not in (root.get("name_localizations") or {})  # /raptor stays /raptor
        assert root["description_localizations"]["zh-TW"]
        for path, kind, item in _walk(root):
            if item is root or (kind == "choice" and item["value"] in LANGUAGES):
                continue  # a language's name is written in itself, in every language
            names = item.get("name_localizations") or {}
            assert "zh-TW" in names, f"{path}: no zh-TW name"
            zh = names["zh-TW"]
            if kind == "choice":
                assert 1 <= len(zh) <= 100, path
            else:
                assert discord_name_ok(zh), f"{path}: {zh!r} breaks Discord's name rules"
                zh_desc = item["description_localizations"]["zh-TW"]
                assert 1 <= len(zh_desc) <= 100 and zh_desc != item["description"], path
            assert names.get("zh-CN") == zh  # zh-CN readers get the Traditional Chinese
            assert "fr" not in names and "en-US" not in names
            seen += 1
    assert seen >= 56  # 21 subcommands, their options and choices
    raptor = next(c for c in synced if c["name"] == "raptor")
    subs = {o["name"]: o for o in raptor["options"]}
    assert subs["challenge"]["name_localizations"]["zh-TW"] == "挑戰"
    side = next(o for o in subs["practice"]["options"] if o["name"] == "side")
    assert side["name_localizations"]["zh-TW"] == "陣營"
    race = {o["name"]: o for o in next(c for c in synced if c["name"] == "race")["options"]}
    players = next(o for o in race["practice"]["options"] if o["name"] == "players")
    assert players["name_localizations"]["zh-TW"] == "玩家數"
    assert (players["min_value"], players["max_value"]) == (2, 5)
    assert {c["value"]: c["name_localizations"]["zh-TW"] for c in side["choices"]} == {
        "raptor": "迅猛龍", "scientist": "科學家", "random": "隨機"}


def test_names_are_unique_among_siblings_in_chinese():
    from bot.discord.admin import RaptorAdminCog
    from bot.games.race.ui.cog import RaceCog
    from bot.games.raptor.ui.cog import RaptorCog
    zh = catalog("zh-TW")
    for cog in (RaptorCog, RaceCog, RaptorAdminCog):
        names = [zh.pgettext("application command", c.name) for c in cog.__cog_app_commands__]
        assert len(names) == len(set(names)), names
        for c in cog.__cog_app_commands__:
            options = [zh.pgettext("application command", p.name) for p in c.parameters]
            assert len(options) == len(set(options)), (c.name, options)


def test_every_command_string_is_in_the_catalog():
    zh = catalog("zh-TW")
    missing = [m for m, _ in command_messages()
               if zh.pgettext("application command", m) == m and m not in ("English", "繁體中文")]
    assert missing == []


@pytest.mark.parametrize("value", ["zh-TW", "en", "auto"])
async def test_settings_language_is_kept(world: World, value):
    alice = world.alice
    out = await alice.slash("raptor settings", language=value)
    assert out.reply.visibility == "ephemeral"
    stored = await world.service.get_user_setting(alice.id, "language", None)
    assert stored == value
    if value == "zh-TW":
        assert out.reply.content.startswith("語言：**繁體中文**")
    else:
        assert out.reply.content.startswith("Language: **")


async def test_admin_language_is_kept_per_server(world: World):
    mod = world.fake.add_user("mod", admin=True)
    out = await mod.slash("raptor-admin language")
    assert "**English**, the server's Discord language" in out.reply.content
    out = await mod.slash("raptor-admin language", language="zh-TW")
    assert "**繁體中文** (set for this server)" in out.reply.content
    assert await world.service.guild_language(world.fake.guild_id) == "zh-TW"
    await mod.slash("raptor-admin language", language="auto")
    assert await world.service.guild_language(world.fake.guild_id) is None
    world.fake.guild_locale = "zh-TW"
    out = await mod.slash("raptor-admin language")
    assert "**繁體中文**, the server's Discord language" in out.reply.content
