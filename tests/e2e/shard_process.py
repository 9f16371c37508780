"""One bot process of the multi-process test (``tests/e2e/test_shard_processes.py``): the real
bot, built as ``python -m bot`` builds it, pointed at the fake Discord of the test process.

    python -m tests.e2e.shard_process BASE_URL NAME LEASE

The settings come from the environment as in production (``DISCORD_TOKEN``,
``RAPTOR_DATABASE_URL``, ``RAPTOR_SHARD_COUNT``, ``RAPTOR_SHARD_IDS``, ...; no ``.env``):
:func:`bot.discord.app.create_bot` builds the :class:`~bot.discord.app.ShardedRaptorBot` on
the database :func:`bot.storage.open_database` opens, with the match service of
:func:`~bot.discord.app.build_service` given a claim lease of ``LEASE`` seconds, and
:func:`bot.discord.shutdown.serve` runs it until SIGTERM, as :func:`bot.discord.app.run`
does. What differs from production, all of it here:

* discord.py talks to ``BASE_URL`` (``Route.BASE``) and its gateway websocket
  (``DiscordWebSocket.DEFAULT_GATEWAY``, used when the shard count is given);
* every HTTP request and the websocket carry the header ``X-Test-Process: NAME`` (an aiohttp
  trace on the bot's session), so the fake knows which process answered what;
* each time an interaction is admitted (``bot.gate``, :mod:`bot.discord.shutdown`) or its
  handling ends, the process tells the fake how many it is handling
  (:class:`BusyReporter`): a person's action there is done once the bot acknowledged it and
  is handling nothing more, even while it renders a board without a request;
* the timer loop looks at the database every :data:`TIMER_POLL` seconds instead of
  :data:`bot.discord.timer_task.MAX_TIMER_SLEEP` (a deadline the test writes into the
  database is then seen at once), and discord.py waits :data:`GUILD_READY_WAIT` seconds, not
  2, for more guilds before ``on_ready``.

It prints one JSON line to stdout when ready (``{"ready": NAME, "owner": <claim owner>,
"shards": [...], "pid": ...}``) and one when stopped; the log goes to stderr.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

import aiohttp
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord import app, timer_task
from bot.discord.shutdown import Gate, serve, stop_signals
from bot.ops.check import open_database
from bot.settings import load_settings
from tests.fakediscord.gateway import BUSY_PATH, GATEWAY_PATH, PROCESS_HEADER
from tests.fakediscord.server import API_PREFIX

TIMER_POLL = 0.5  # seconds
GUILD_READY_WAIT = 0.1  # seconds


def say(**what: object) -> None:
    """One JSON line on stdout, with the wall-clock time."""
    print(json.dumps({**what, "at": time.time()}), flush=True)


def tagged(name: str) -> aiohttp.TraceConfig:
    """An aiohttp trace adding ``X-Test-Process: name`` to every request of a session."""
    trace = aiohttp.TraceConfig()

    async def on_request_start(session: object, context: object,
                               params: aiohttp.TraceRequestStartParams) -> None:
        params.headers[PROCESS_HEADER] = name

    trace.on_request_start.append(on_request_start)
    return trace


class BusyReporter:
    """Tells the fake (``PUT`` :data:`~tests.fakediscord.gateway.BUSY_PATH`) how many
    interactions the bot's gate holds, whenever one is admitted or ends; numbered, so that a
    late report never overrides a newer one."""

    def __init__(self, base_url: str, name: str, gate: Gate) -> None:
        self.url = base_url + BUSY_PATH.format(name=name)
        self.name = name
        self.gate = gate
        self.seq = 0
        self.session: aiohttp.ClientSession | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._admit = gate.admit
        gate.admit = self.admit  # type: ignore[method-assign]

    def admit(self) -> bool:
        task = asyncio.current_task()
        known = task is None or task in self.gate._tasks
        admitted = self._admit()
        if not known:
            assert task is not None
            task.add_done_callback(lambda _t: self.report())
            self.report()
        return admitted

    def report(self) -> None:
        self.seq += 1
        sending = asyncio.get_running_loop().create_task(
            self._send({"seq": self.seq, "in_flight": self.gate.in_flight}))
        self._sending.add(sending)
        sending.add_done_callback(self._sending.discard)

    async def _send(self, body: dict[str, int]) -> None:
        if self.session is None:
            self.session = aiohttp.ClientSession(headers={PROCESS_HEADER: self.name})
        async with self.session.put(self.url, json=body) as response:
            await response.read()

    async def close(self) -> None:
        if self._sending:
            await asyncio.wait(self._sending, timeout=2)
        if self.session is not None:
            await self.session.close()


async def main(base_url: str, name: str, lease: float) -> None:
    settings = load_settings(env_file=None)
    app.configure_logging(settings.log_level)
    Route.BASE = base_url + API_PREFIX
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base_url.replace("http", "ws", 1)
                                                + GATEWAY_PATH)
    timer_task.MAX_TIMER_SLEEP = TIMER_POLL
    assert settings.discord_token is not None, "DISCORD_TOKEN is not set"
    async with stop_signals() as stop:
        db = await open_database(settings)
        try:
            service = app.build_service(settings, db, claim_lease=lease)
            bot = await app.create_bot(settings, db, service=service)
            bot.http.http_trace = tagged(name)  # read when login() opens the session
            bot._connection.guild_ready_timeout = GUILD_READY_WAIT
            busy = BusyReporter(base_url, name, bot.gate)

            async def on_ready() -> None:
                say(ready=name, owner=service.ctx.owner, pid=os.getpid(),
                    shards=sorted(bot.shards) if hasattr(bot, "shards") else [],
                    guilds=sorted(g.id for g in bot.guilds))

            bot.add_listener(on_ready, "on_ready")
            try:
                async with bot:
                    await serve(bot, settings.discord_token.get_secret_value(), stop)
            finally:
                await busy.close()
        finally:
            await db.close()
    say(stopped=name)


if __name__ == "__main__":  # the render pool's forkserver imports this module again
    base, who, lease_s = sys.argv[1:4]
    asyncio.run(main(base, who, float(lease_s)))
