"""The bot object: command sync (development guild or global), intents, logging without
hidden information."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.discord.app import build_service, configure_logging, create_bot
from bot.games.raptor import texts
from bot.storage.db import SqliteDatabase
from engine import Side
from tests.discord.conftest import World, make_settings
from tests.discord.helpers import pick, start_match
from tests.fakediscord import FakeDiscord


async def test_dev_guild_sync_and_default_intents(tmp_path) -> None:
    db = await SqliteDatabase.open(tmp_path / "raptor.sqlite3")
    try:
        async with FakeDiscord() as fake:
            settings = make_settings(dev_guild_id=fake.guild_id)
            bot = await create_bot(settings, db, service=build_service(settings, db))
            assert bot.intents == discord.Intents.default()
            assert not (bot.intents.members or bot.intents.presences
                        or bot.intents.message_content)
            await fake.start_client(bot)
            assert sorted(c["name"] for c in fake.synced_commands(guild=True)) == [
                "race", "raptor", "raptor-admin", "ratjack"]
            assert fake.synced_commands() == []
            alice = fake.add_user("alice")
            out = await alice.slash("raptor rules")
            assert out.reply.ephemeral
    finally:
        await db.close()


async def test_no_hidden_information_in_log_lines(world: World,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    configure_logging("DEBUG", handler=False)
    caplog.set_level(logging.DEBUG)
    alice, bob = world.alice, world.bob
    await start_match(world)
    await alice.slash("raptor hand")
    await pick(alice, Side.RAPTOR, 7)
    await bob.slash("raptor act", action="play 1")
    match = await world.match()
    lines = [r.getMessage() for r in caplog.records]
    assert any("match 1: the raptor picked a card" in line for line in lines)
    secrets = [texts.card_label(Side.RAPTOR, c) for c in (2, 6, 7)]
    secrets += [texts.card_label(Side.SCIENTIST, c) for c in (1, 8, 9)]
    secrets += ["play 7", "play 1", ":pick:", str(match.seed), "Recovery", "Sleeping Gas"]
    for line in lines:
        for secret in secrets:
            assert secret not in line, line


def test_a_log_redirected_to_a_file_has_no_colour_codes(tmp_path, monkeypatch):
    # discord.py colours its log in Docker even without a terminal; a file must stay plain
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, logging.getLogger("discord").level)
    with open(tmp_path / "stderr.log", "w") as log_file:
        monkeypatch.setattr("sys.stderr", log_file)
        try:
            configure_logging("INFO")
            logging.getLogger("bot.test").warning("a plain line")
        finally:
            for h in root.handlers[:]:
                if h not in saved[0]:
                    root.removeHandler(h)
            root.setLevel(saved[1])
            logging.getLogger("discord").setLevel(saved[2])
    text = (tmp_path / "stderr.log").read_text()
    assert "\x1b[" not in text
    line = text.splitlines()[-1]
    assert line.endswith("] [WARNING ] bot.test: a plain line")


async def test_shard_settings_make_a_sharded_bot_serving_its_shards(tmp_path) -> None:
    from discord.ext import commands

    from bot.discord.app import RaptorBot, ShardedRaptorBot
    from bot.match.shards import Shards

    db = await SqliteDatabase.open(tmp_path / "raptor.sqlite3")
    try:
        plain = await create_bot(make_settings(), db)
        assert type(plain) is RaptorBot and not isinstance(plain, commands.AutoShardedBot)
        assert plain.service.ctx.shards == Shards()
        # only some shards here: the others run elsewhere, on a shared PostgreSQL database
        # (the settings require its URL; the bot is handed its database directly here)
        some = make_settings(shard_count=4, shard_ids=(1, 3),
                             RAPTOR_DATABASE_URL="postgresql://raptor@127.0.0.1:5432/raptor")
        sharded = await create_bot(some, db)
        assert isinstance(sharded, ShardedRaptorBot)
        assert isinstance(sharded, commands.AutoShardedBot)
        assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])
        assert sharded.service.ctx.shards == Shards(4, (1, 3))
        every = await create_bot(make_settings(shard_count=2), db)
        assert (every.shard_count, every.shard_ids) == (2, [0, 1])
        await plain.close()  # (never logged in: the sharded ones have nothing to close)
    finally:
        await db.close()
