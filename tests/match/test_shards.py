"""Shards (``bot.match.shards``): which servers a process serves, and that a process resumes
the AI turns and withdraws the unposted challenges of its own shards' servers only."""

from __future__ import annotations

import pytest

from bot.match import MatchService
from bot.match.shards import Shards, shard_of
from bot.ops.check import shards_line
from bot.settings import Settings, SettingsError, load_settings
from tests.match.conftest import ALICE, BOB, BOT_USER, CHANNEL, random_chooser

# Two servers whose ids fall on shards 0 and 1 of 2 (the shard is (id >> 22) % count).
GUILD_0 = (1000 << 22) | 12345
GUILD_1 = (1001 << 22) | 12345


def test_the_shard_of_a_server_is_its_timestamp_bits_modulo_the_count():
    assert shard_of(GUILD_0, 2) == 0 and shard_of(GUILD_1, 2) == 1
    assert shard_of(175928847299117063, 16) == 4  # 41944705796 % 16
    assert Shards(2, (1,)).owns(GUILD_1) and not Shards(2, (1,)).owns(GUILD_0)
    assert Shards().owns(GUILD_0) and Shards(2, (0, 1)).everything


@pytest.mark.parametrize("count, ids", [(0, (0,)), (2, ()), (2, (2,)), (2, (-1,))])
def test_impossible_shards_are_refused(count, ids):
    with pytest.raises(ValueError, match="shard"):
        Shards(count, ids)


def test_shard_settings(monkeypatch):
    for name in ("RAPTOR_SHARD_COUNT", "RAPTOR_SHARD_IDS", "RAPTOR_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert Settings(_env_file=None).shard_count is None  # type: ignore[call-arg]
    monkeypatch.setenv("RAPTOR_SHARD_COUNT", "4")
    monkeypatch.setenv("RAPTOR_SHARD_IDS", "2, 3")
    # some of the shards here: the others run elsewhere, which SQLite cannot share
    with pytest.raises(SettingsError) as refused:
        load_settings(None)
    assert list(refused.value.problems) == [
        "RAPTOR_SHARD_IDS runs 2 of the 4 shards, so other processes run the rest: they must "
        "share a PostgreSQL database (RAPTOR_DATABASE_URL), not this process's SQLite file "
        "(leave RAPTOR_SHARD_IDS unset to run every shard here)"]
    monkeypatch.setenv("RAPTOR_SHARD_IDS", "0 1 2 3")   # all of them: SQLite is fine
    assert load_settings(None).shard_ids == (0, 1, 2, 3)
    monkeypatch.setenv("RAPTOR_DATABASE_URL", "postgresql://raptor@127.0.0.1:5432/raptor")
    monkeypatch.setenv("RAPTOR_SHARD_IDS", "2, 3")
    s = load_settings(None)
    assert (s.shard_count, s.shard_ids) == (4, (2, 3))
    assert shards_line(s) == "Shards: 2, 3 of 4 in this process"
    monkeypatch.delenv("RAPTOR_SHARD_IDS")
    assert shards_line(load_settings(None)) == "Shards: all 4 in this process"
    for bad in ("4", "1,1", "x", "-1", "1,,2", "0,", ",0"):
        monkeypatch.setenv("RAPTOR_SHARD_IDS", bad)
        with pytest.raises(SettingsError, match="RAPTOR_SHARD_IDS must be"):
            load_settings(None)
    monkeypatch.delenv("RAPTOR_SHARD_COUNT")
    monkeypatch.setenv("RAPTOR_SHARD_IDS", "0")
    with pytest.raises(SettingsError, match="RAPTOR_SHARD_COUNT must be set"):
        load_settings(None)


async def test_each_process_resumes_and_withdraws_for_its_own_shards(db, clock):
    procs = [MatchService(db, clock=clock, ai_chooser=random_chooser, owner=f"p{i}",
                          shards=Shards(2, (i,))) for i in (0, 1)]
    m0 = await procs[0].start_practice(GUILD_0, CHANNEL, ALICE, game="raptor", seat=1,
                                       ai_user_id=BOT_USER)
    m1 = await procs[1].start_practice(GUILD_1, CHANNEL + 1, ALICE, game="raptor", seat=1,
                                       ai_user_id=BOT_USER)
    assert await procs[0].matches_waiting_for_ai() == [m0.id]
    assert await procs[1].matches_waiting_for_ai() == [m1.id]
    c0 = await procs[0].create_challenge(GUILD_0, CHANNEL + 2, ALICE, BOB, game="raptor")
    c1 = await procs[1].create_challenge(GUILD_1, CHANNEL + 3, ALICE, BOB, game="raptor")
    clock.advance(120)
    assert [c.id for c in await procs[1].withdraw_unposted()] == [c1.id]
    assert (await procs[0].get_challenge(c0.id)).status == "pending"
    assert [c.id for c in await procs[0].withdraw_unposted()] == [c0.id]
