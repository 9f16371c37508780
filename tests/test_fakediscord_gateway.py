"""Self-test of the fake Discord's gateway websocket (``tests/fakediscord/gateway.py``) and
its several guilds, with a toy discord.py ``AutoShardedClient`` running two shards over real
websockets (in this process, but without the in-process harness: as a bot in another
process would). No database: this runs without PostgreSQL too.
"""

from __future__ import annotations

import asyncio
import contextlib

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from tests.fakediscord import DM, FakeDiscord

GUILDS = ((1000 << 22) | 7, (1001 << 22) | 7)  # on shards 0 and 1 of 2


class ShardToy(discord.AutoShardedClient):
    """Answers ``/where`` with the shard and guild that carried the interaction."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), shard_count=2, shard_ids=[0, 1],
                         guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Which shard am I on?")
        @app_commands.allowed_contexts(guilds=True, dms=True)
        async def where(interaction: discord.Interaction) -> None:
            guild = interaction.guild
            shard = guild.shard_id if guild is not None else None
            await interaction.response.send_message(
                f"shard={shard} guild={guild.name if guild else None}", ephemeral=True)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # discord.py waits 5 s between two IDENTIFYs (Discord's rate limit): no need here


@contextlib.asynccontextmanager
async def gateway_at(fake: FakeDiscord):
    saved = DiscordWebSocket.DEFAULT_GATEWAY
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.server.gateway_url)
    try:
        yield
    finally:
        DiscordWebSocket.DEFAULT_GATEWAY = saved


async def test_each_shard_gets_its_guilds_and_their_interactions() -> None:
    async with FakeDiscord(guild_id=GUILDS[0], guild_name="zero", timeout=20) as fake:
        one = fake.add_guild("one", id=GUILDS[1])
        alice = fake.add_user("alice")
        bob = fake.add_user("bob", guild=one)
        assert [g.shard(2) for g in fake.guilds.values()] == [0, 1]
        async with gateway_at(fake):
            client = ShardToy()
            runner = asyncio.create_task(client.start("toy-token"))
            try:
                hub = fake.server.gateway_hub
                await hub.wait_for_shards([0, 1], timeout=20)
                await asyncio.wait_for(client.wait_until_ready(), 20)
                assert fake.remote
                assert sorted(c.shard for c in hub.connections) == [(0, 2), (1, 2)]
                for conn in hub.connections:
                    assert [e for _, e in conn.events[:2]] == ["READY", "GUILD_CREATE"]
                    assert [s for s, _ in conn.events] == list(range(1, len(conn.events) + 1))
                    assert conn.heartbeats >= 1  # discord.py beats at once after HELLO
                # each shard's cache holds its own guild only
                assert {g.id: g.shard_id for g in client.guilds} == {GUILDS[0]: 0,
                                                                    GUILDS[1]: 1}

                out = await alice.slash("where")  # in her guild's channel
                assert out.content == "shard=0 guild=zero" and out.reply.ephemeral
                out = await bob.slash("where")
                assert out.content == "shard=1 guild=one"
                out = await bob.slash("where", in_channel=DM)  # DMs: shard 0
                assert out.content == "shard=None guild=None"
                infos = list(fake.server.interactions.values())
                assert [(i.guild_id, i.shard) for i in infos] == [
                    (GUILDS[0], 0), (GUILDS[1], 1), (None, 0)]
                assert bob.id not in [m.id for m in client.get_guild(GUILDS[0]).members]
            finally:
                await client.close()
                await asyncio.wait_for(runner, 10)
        await asyncio.sleep(0.05)
        assert fake.server.gateway_hub.connections == []
