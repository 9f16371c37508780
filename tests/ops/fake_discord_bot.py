"""``python -m tests.ops.fake_discord_bot``: the real ``python -m bot`` against the fake Discord,
while two simulated members (alice, bob) play a match in it. For the graceful-stop test.

Why the fake runs inside the bot's process: the fake Discord of ``tests/fakediscord`` has no
gateway socket. Its harness hands each event (READY, GUILD_CREATE, INTERACTION_CREATE) straight
to the client's parsers, in the same process (``tests/fakediscord/README.md``). A bot in another
process could log in to the fake's HTTP server on 127.0.0.1 but would never receive an
interaction. So this launcher replaces exactly one thing, ``discord.Client.start`` (log in,
then connect to the gateway), by the harness's own start (log in against the fake server on
127.0.0.1, feed READY and GUILD_CREATE), and then plays; everything else is the real entry
point ``bot.__main__.entry()``: the settings from the environment, ``bot.discord.app.run`` with its
signal handlers, the database, the timer loop, the render workers, closing, the exit status.
When the bot closes (after a signal) the replaced ``start`` returns, as the real one does.

Environment: ``RAPTOR_DB_PATH``, ``DISCORD_TOKEN`` (any text), ``FAKE_DISCORD_HOLD_SAVE=N``:
the N-th decision the match service is asked to save is held — after its interaction was
acknowledged, before the save — until the bot is stopping, then for :data:`SLOW_SAVE` seconds
more (a slow write), so a signal sent after ``HOLDING`` always lands while that write is in
flight, however loaded the machine.

Standard output, one flushed line per event::

    MATCH <id>            the challenge was accepted
    SENT <n>              decision n is being sent
    HOLDING               the held save is waiting for the stop
    DONE <n>              decision n was stored and its messages posted
    PLAYERS stopped ...   the players stopped because the bot is stopping
    PLAYERS failed ...    a decision went wrong while the bot was running (traceback on stderr)
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import discord

import bot.match.starting
from bot.match import MatchService
from bot.storage.db import SqliteDatabase
from tests.e2e.players import World, seed_sequence
from tests.fakediscord import FakeDiscord

HOLD_VAR = "FAKE_DISCORD_HOLD_SAVE"  # not RAPTOR_…: the bot would warn of it
SLOW_SAVE = 1.0  # seconds the held save still takes once the stop began
HOLD_LIMIT = 60.0  # seconds: a held save gives up waiting for the stop


def say(line: str) -> None:
    print(line, flush=True)


async def play(world: World) -> None:
    """Decisions of the easy AI for both players, through the controls, until the bot stops."""
    rng = random.Random(25)
    client = world.bot
    assert client is not None
    table = await world.new_table(raptor="alice", scientist="bob")
    say(f"MATCH {table.match_id}")
    n = 0
    try:
        while not client.gate.stopping:  # type: ignore[attr-defined]
            n += 1
            say(f"SENT {n}")
            if await table.play_decision(rng, act_share=0.25) is None:
                say("PLAYERS the match is over")
                return
            say(f"DONE {n}")
        say("PLAYERS stopped: the bot is stopping")
    except Exception as exc:
        if client.gate.stopping:  # type: ignore[attr-defined]  # stopped under their hands
            say(f"PLAYERS stopped after decision {n}: {type(exc).__name__}")
        else:
            traceback.print_exc()
            say(f"PLAYERS failed at decision {n}: {exc!r}")


async def start_against_fake(self: discord.Client, token: str, *, reconnect: bool = True
                             ) -> None:
    """Stands in for ``discord.Client.start``: the fake Discord instead of discord.com."""
    fake = FakeDiscord(strict=False, timeout=30.0)
    await fake.start()
    observer_db: SqliteDatabase | None = None
    players: asyncio.Task[None] | None = None
    try:
        await fake.start_client(self, token=token)
        _running.append(self)
        settings: Any = self.settings  # type: ignore[attr-defined]
        observer_db = await SqliteDatabase.open(settings.db_path)
        world = World(fake, Path(settings.db_path), settings, MatchService(observer_db),
                      observer_db)
        world.bot = self  # type: ignore[assignment]
        world.db = self.db  # type: ignore[attr-defined]
        players = asyncio.create_task(play(world), name="players")
        while not self.is_closed():  # the real start() returns once the bot is closed
            await asyncio.sleep(0.02)
        await asyncio.wait({players}, timeout=2.0)
    finally:
        if players is not None and not players.done():
            players.cancel()
        await fake.stop()
        if observer_db is not None:
            await observer_db.close()


def hold_save(number: int) -> None:
    """The ``number``-th save of a decision waits for the stop, then :data:`SLOW_SAVE` s."""
    act = MatchService.act
    saves = 0

    async def held(self: MatchService, *args: Any, **kwargs: Any) -> Any:
        nonlocal saves
        saves += 1
        if saves == number:
            say("HOLDING")
            # in a thread, not asyncio.sleep: the harness waits for threads, but takes a
            # task that sleeps on the loop for one parked for good (tests/fakediscord)
            deadline = time.monotonic() + HOLD_LIMIT
            while not _stopping() and time.monotonic() < deadline:
                await asyncio.to_thread(time.sleep, 0.02)
            await asyncio.to_thread(time.sleep, SLOW_SAVE)
        return await act(self, *args, **kwargs)

    MatchService.act = held  # type: ignore[method-assign]


_running: list[discord.Client] = []


def _stopping() -> bool:
    return bool(_running) and _running[0].gate.stopping  # type: ignore[attr-defined]


def main() -> int:
    discord.Client.start = start_against_fake  # type: ignore[method-assign]
    bot.match.starting.new_seed = seed_sequence(7_025_001)
    hold = int(os.environ.get(HOLD_VAR) or 0)
    if hold:
        hold_save(hold)
    from bot.__main__ import entry

    return entry([])


if __name__ == "__main__":  # the render workers' forkserver imports this module again
    sys.exit(main())
