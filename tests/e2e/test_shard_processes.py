"""Two bot processes, one per Discord shard, on one PostgreSQL database, against the fake
Discord. What it proves:

* **Shards over the gateway.** Each process (``tests/e2e/shard_process.py``: the real bot as
  ``python -m bot`` builds it, ``RAPTOR_SHARD_COUNT=2``, ``RAPTOR_SHARD_IDS=0`` or ``1``)
  opens its own gateway websocket, identifies as its shard and is sent only its shard's
  guild. A human match in each guild is played by its two players' clicks and typed
  commands (challenge, Accept, card picks, action menus, End turn, ``/raptor act``), both at
  once: its first :data:`DECISIONS` decisions in the default run, to its end (its result
  posted once, some 80 decisions) in ``pytest -m soak`` (about 30 s more). Every
  interaction of a guild went over the connection of its shard and was answered (callback
  and follow-ups) by that shard's process only, every message of a match came from that
  process, and the audit of ``tests/e2e/audit.py`` finds no hidden card in the wrong eyes
  (public boards byte-identical to the public render).
* **A due timer fires once.** A third match gets a turn deadline in the past (written into
  the database, as a stale deadline would be): exactly one of the two processes forfeits
  it — the match version moves by one, one result row, one "is over" message.
* **A dead process's claim is taken over after its lease.** A fourth match is made due while
  the test holds ``LOCK TABLE results IN EXCLUSIVE MODE``. Firing a timer commits its claim
  first (``claimed_by`` / ``claim_until`` on the match row, :mod:`bot.match.claim_store`),
  then ends the match in one transaction that must insert its ``results`` row: the process
  that claimed it waits there, claim held and nothing posted. The test waits until the
  database shows the claim and a backend waiting for that lock, kills the claiming process
  (the bot alone, as the out-of-memory killer would) with SIGKILL, then releases the lock
  (the dead process's transaction rolls back). The other process ends the match and posts
  its result — not before ``claim_until``.
* **No leak.** The surviving process stops on SIGTERM with status 0, the killed one died of
  SIGKILL and its render workers leave by themselves; the fake server stops with the test.

PostgreSQL only (two processes cannot share an SQLite file for this); about 15 s, 50 s with
the matches played to their end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import pytest

from bot.match.claim_store import ClaimTarget
from bot.match.shards import shard_of
from bot.storage.pg import PgDatabase
from tests.databases import BACKENDS, postgres_schema
from tests.e2e.audit import audit
from tests.e2e.players import Table, World
from tests.fakediscord import FakeDiscord, FakeGuild

pytestmark = pytest.mark.parametrize("backend", BACKENDS[1:])  # PostgreSQL only

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
GUILDS = ((1000 << 22) | 7, (1001 << 22) | 7)  # on shards 0 and 1 of 2
#: Seconds: the claim lease of both processes. It is also how old an unannounced end must be
#: before the other process posts it (bot.match.announcements): longer than any post of a
#: result by its own flow on a loaded machine, so that an end is never posted twice here.
LEASE = 8.0
WAIT = 60.0  # seconds: the longest any one wait may take on a loaded machine
#: The decisions each human match is played for in the default run (``None``: to its end,
#: the ``soak`` variant).
DECISIONS = 24
PLAYED = pytest.mark.parametrize("decisions", [
    pytest.param(DECISIONS, id="24-decisions"),
    pytest.param(None, id="to-the-end", marks=pytest.mark.soak)])


@dataclass
class BotProcess:
    """A running ``tests.e2e.shard_process``: its shard, its claim owner once ready."""

    name: str
    shard: int
    proc: asyncio.subprocess.Process
    log_path: Path
    lines: list[dict] = field(default_factory=list)
    owner: str | None = None

    async def read_until(self, key: str) -> dict:
        """The next stdout line with ``key`` (raises if the process ends first)."""
        assert self.proc.stdout is not None
        while True:
            raw = await self.proc.stdout.readline()
            if not raw:
                raise AssertionError(f"{self.name} ended before saying {key!r}:\n"
                                     + self.log_tail())
            line = json.loads(raw)
            self.lines.append(line)
            if key in line:
                return line

    def kill(self) -> None:
        """SIGKILL the bot process alone, as the out-of-memory killer would: its render
        workers must then leave by themselves (render/pool.py), see :meth:`group_gone`."""
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGKILL)

    def kill_group(self) -> None:
        """SIGKILL the process and its render workers (its process group): the clean-up of
        a process that did not stop on SIGTERM."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def group_gone(self) -> bool:
        """Whether no process of the group (the bot and its render workers) is left
        running (a zombie waiting for init to reap it counts as gone)."""
        return not group_members(self.proc.pid)

    def log_tail(self, n: int = 40) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-n:])


def group_members(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid``, from ``/proc``."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(stat.parent.name))
    return members


def bot_environment(url: str, shard: int) -> dict[str, str]:
    """The process's environment: this one's without any setting of the bot, then the
    production settings of one shard of two on the PostgreSQL database ``url``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RAPTOR_") or k.startswith("RAPTOR_TEST_")}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": f"fake-token-{shard}",
                "RAPTOR_DATABASE_URL": url, "RAPTOR_SHARD_COUNT": str(SHARDS),
                "RAPTOR_SHARD_IDS": str(shard), "RAPTOR_AI_TIME_BUDGET": "0.05",
                "RAPTOR_LOG_LEVEL": "INFO"})
    return env


@contextlib.asynccontextmanager
async def bot_processes(fake: FakeDiscord, url: str, folder: Path
                        ) -> AsyncIterator[list[BotProcess]]:
    """Start one bot process per shard; at the end stop the live ones with SIGTERM and check
    that every one has exited."""
    procs: list[BotProcess] = []
    try:
        for shard in range(SHARDS):
            name = f"shard-{shard}"
            log_path = folder / f"{name}.log"
            with log_path.open("wb") as log:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "tests.e2e.shard_process", fake.server.base_url,
                    name, str(LEASE), cwd=ROOT, env=bot_environment(url, shard),
                    stdout=asyncio.subprocess.PIPE, stderr=log, start_new_session=True)
            procs.append(BotProcess(name, shard, proc, log_path))
        for p in procs:
            ready = await asyncio.wait_for(p.read_until("ready"), WAIT)
            p.owner = ready["owner"]
            assert ready["shards"] == [p.shard]
            assert ready["guilds"] == [GUILDS[p.shard]], ready
        yield procs
    finally:
        for p in procs:
            if p.proc.returncode is None:
                p.proc.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                await asyncio.wait_for(p.proc.wait(), WAIT)
                await wait_until(f"every process of {p.name} ended", p.group_gone)
            except (TimeoutError, AssertionError):
                p.kill_group()
                await p.proc.wait()
                raise AssertionError(f"{p.name} did not stop on SIGTERM:\n{p.log_tail()}") from None


async def wait_until(what: str, check, timeout: float = WAIT):
    """Poll ``check()`` (sync or async) until it returns something truthy; return that."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if loop.time() > end:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting until {what}")
        await asyncio.sleep(0.05)


def results_of(fake: FakeDiscord, table: Table) -> list:
    """The "… is over" messages created in the table's channel."""
    return [r for r in fake.records if r.channel_id == table.channel.id and not r.edit
            and "is over" in r.content]


@PLAYED
async def test_two_shard_processes_play_their_guilds_and_share_the_timers(backend, tmp_path,
                                                                           decisions):
    assert [shard_of(g, SHARDS) for g in GUILDS] == [0, 1]
    async with postgres_schema() as url:
        db = await PgDatabase.open(url)
        try:
            async with FakeDiscord(guild_id=GUILDS[0], guild_name="Shard zero", timeout=WAIT,
                                   remote_idle=0.15) as fake:
                guilds = [fake.guilds[GUILDS[0]], fake.add_guild("Shard one", id=GUILDS[1])]
                for guild, names in zip(guilds, (("alice", "bob", "erin", "frank"),
                                                 ("carol", "dave", "gina", "hank")),
                                        strict=True):
                    for name in names:
                        fake.add_user(name, guild=guild)
                await _scenario(fake, guilds, db, url, tmp_path, decisions)
        finally:
            await db.close()


async def _play(table: Table, rng: random.Random, decisions: int | None):
    """Play the table's match to its end (``decisions`` None), or its first ``decisions``
    decisions (fewer if it ends before); returns the match."""
    if decisions is None:
        return await table.play_until_over(rng)
    while table.decisions < decisions and await table.play_decision(rng) is not None:
        pass
    return await table.match()


async def _scenario(fake: FakeDiscord, guilds: list[FakeGuild], db: PgDatabase, url: str,
                    folder: Path, decisions: int | None) -> None:
    world = World.observing(fake, db)
    hub = fake.server.gateway_hub
    async with bot_processes(fake, url, folder) as procs:
        # one gateway connection per process, each identified as its own shard
        assert sorted((c.process, c.shard) for c in hub.connections) == [
            ("shard-0", (0, SHARDS)), ("shard-1", (1, SHARDS))]
        for conn in hub.connections:  # READY, then the GUILD_CREATE of its one guild
            assert conn.events[:2] == [(1, "READY"), (2, "GUILD_CREATE")]
            assert conn.heartbeats >= 1

        # 1. a human match in each guild, played for ``decisions`` decisions (None: to its
        # end), both at once
        tables = [await world.new_table(raptor=r, scientist=s, channel=g.channel)
                  for g, (r, s) in zip(guilds, (("alice", "bob"), ("carol", "dave")),
                                       strict=True)]
        finals = await asyncio.gather(*(_play(t, random.Random(20 + i), decisions)
                                        for i, t in enumerate(tables)))
        for table, final in zip(tables, finals, strict=True):
            if decisions is None:
                assert not final.active and final.state.is_over, final.reason
            else:  # still being played after its decisions (or over within them)
                assert final.active is not final.state.is_over, final.reason
                assert table.decisions == decisions or not final.active
            assert final.guild_id == table.channel.info.guild_id
            assert table.decisions >= 10 and sum(table.used.values()) == table.decisions
            assert table.used["act"] < table.decisions  # clicks and menus, not only typing
            report = audit(table)  # who saw what (R11): nothing hidden reached the wrong eyes
            assert report.findings == [] and report.boards >= final.state.round
            assert len(results_of(fake, table)) == (0 if final.active else 1)
            assert {r.process for r in fake.records if r.channel_id == table.channel.id} == {
                f"shard-{shard_of(final.guild_id, SHARDS)}"}

        # 2. a due timer fires exactly once between the two processes
        due = await world.new_table(raptor="erin", scientist="frank", channel=guilds[0].channel)
        before = await due.match()
        await db.write("UPDATE matches SET deadline_at = ?, remind_at = NULL WHERE id = ?",
                       (time.time() - 1, due.match_id))
        ended = await wait_until("the due match ended",
                                 lambda: _ended(world, due.match_id))
        assert ended.version == before.version + 1 and ended.reason == "abandoned"
        (fired,) = await wait_until("its result was posted", lambda: results_of(fake, due))
        assert fired.process in ("shard-0", "shard-1")

        # 3. a claim held by a process killed before firing is taken over after its lease
        doomed = await world.new_table(raptor="gina", scientist="hank",
                                       channel=guilds[1].channel)
        doomed_before = await doomed.match()
        interactions = list(fake.server.interactions.values())  # all of the test's
        lock = await asyncpg.connect(url)
        try:
            tx = lock.transaction()
            await tx.start()
            await lock.execute("LOCK TABLE results IN EXCLUSIVE MODE")
            await db.write("UPDATE matches SET deadline_at = ?, remind_at = NULL WHERE id = ?",
                           (time.time() - 1, doomed.match_id))
            claims = world.observer.ctx.claims

            async def claimed_and_waiting():
                holder = await claims.holder(ClaimTarget.MATCH, doomed.match_id)
                waiting = await lock.fetchval(
                    "SELECT count(*) FROM pg_locks WHERE NOT granted AND "
                    "relation = 'results'::regclass")
                return holder if holder is not None and waiting else None

            owner, claim_until = await wait_until("a process claimed the match and waits",
                                                  claimed_and_waiting)
            victim = next(p for p in procs if p.owner == owner)
            survivor = next(p for p in procs if p is not victim)
            victim.kill()
            assert await asyncio.wait_for(victim.proc.wait(), WAIT) == -signal.SIGKILL
            killed_at = time.time()
            await tx.rollback()
        finally:
            await lock.close()
        assert killed_at < claim_until  # the kill came within the lease
        await wait_until("the killed process's gateway connection closed",
                         lambda: [c.process for c in hub.connections] == [survivor.name])
        ended = await wait_until("the other process ended the match",
                                 lambda: _ended(world, doomed.match_id))
        assert ended.reason == "abandoned" and ended.version == doomed_before.version + 1
        # the survivor's claim, taken over, is released just after the end's commit
        holder = await claims.holder(ClaimTarget.MATCH, doomed.match_id)
        assert holder is None or holder[0] == survivor.owner, holder
        await wait_until("the survivor released its claim", lambda: _released(claims, doomed))
        (result,) = await db.fetchall("SELECT finished_at FROM results WHERE match_id = ?",
                                      (doomed.match_id,))
        assert result["finished_at"] >= claim_until  # not before the lease ran out
        (posted,) = await wait_until("its result was posted",
                                     lambda: results_of(fake, doomed))
        assert posted.process == survivor.name and posted.created_time >= claim_until
        assert not [r for r in fake.records if r.process == victim.name
                    and r.created_time > killed_at]

        # the first due timer still fired once, though the processes looked again since
        assert len(results_of(fake, due)) == 1
        assert (await due.match()).version == before.version + 1

        # every interaction of a guild went over its shard's connection, and was answered
        # (callback, follow-ups) by its shard's process only
        assert len(interactions) >= 2 * 20
        for info in interactions:
            name = f"shard-{shard_of(info.guild_id, SHARDS)}"
            conn = next(c for c in hub.history if c.number == info.connection)
            assert (info.shard, conn.process) == (int(name[-1]), name), info.name
            assert info.responders and set(info.responders) == {name}, (
                info.name, info.responders)
        assert {info.shard for info in interactions} == {0, 1}
    assert victim.proc.returncode == -signal.SIGKILL and survivor.proc.returncode == 0
    await wait_until("the killed process's render workers left by themselves",
                     victim.group_gone)
    assert survivor.group_gone()
    for p in procs:
        assert "[ERROR" not in p.log_path.read_text(), p.log_tail()


async def _released(claims, table: Table) -> bool:
    return await claims.holder(ClaimTarget.MATCH, table.match_id) is None


async def _ended(world: World, match_id: int):
    m = await world.observer.get_match(match_id)
    return None if m.active else m
