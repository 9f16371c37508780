"""Load benchmark: many concurrent matches played through the real discord.py client.

Run by hand (not part of the test suite)::

    .venv/bin/python -m benchmarks.bench_e2e_load                       # 100 matches, 5 rounds
    .venv/bin/python -m benchmarks.bench_e2e_load --matches 100 1000 --rounds 5
    .venv/bin/python -m benchmarks.bench_e2e_load --matches 1000 --think 2 --time-box 900

What runs, all in ONE process and one event loop: the fake Discord HTTP API of
``tests/fakediscord`` (its server, recording and task tracking), the real Raptor bot
(``bot.app.create_bot``: discord.py, the match service, SQLite in WAL mode, board and hand
renders in worker threads) and the simulated people. Each match has its own channel and two
members; it starts with ``/raptor challenge`` + Accept and goes on with the controls (card
buttons, select menus, End turn) or ``/raptor act`` (one decision in four), exactly like
``tests/e2e``. Each simulated player decides with the easy AI on its own view of the stored
match (``engine.view(state, side)``), computed in a separate thread pool so it does not take
the bot's render threads. Matches stop after ``--rounds`` rounds (or at their end).

``--think S`` makes every simulated player wait a random 0.5*S..1.5*S seconds before each
decision (people think); ``--think 0`` (default) is a stress test: every player acts as soon
as the previous decision was answered. Matches start ``--ramp`` per second (default 50): a
burst of hundreds of simultaneous interactions costs this single process (bot + fake server
+ harness) ~7 ms each of event-loop time, so 300 at the same instant already take ~2 s to
acknowledge and 1,000 miss Discord's 3 s.

Figures printed per run (latencies in milliseconds, over every interaction):

* ``ack``: the fake's measurement, from dispatching INTERACTION_CREATE to the bot's first
  callback arriving (Discord's 3 s deadline applies to this one);
* ``last reply``: from dispatch to the last message the bot created or edited for that
  interaction (its own replies and the channel posts it made while handling it: the pick
  notice, the reveal, the next turn message with its board PNG, the round summary ...);
* decisions per second, interactions, late acks (> 3 s), peak memory (``ru_maxrss``; it
  includes the fake Discord's recordings: attachment bytes are dropped after they are
  checked to be PNGs, unless ``--keep-files``).

The in-process fake is not free: its HTTP server, multipart parsing and the harness's
polling (every in-flight action polls every 5 ms) share the event loop with the bot, so the
figures are an upper bound of the bot's own latency on this machine. One cost of the fake is
taken out: it normally decodes every PNG it describes in a message payload (to report the
width and height), ~13 ms per board on the event loop; here the size is read from the PNG
header instead (``--fake-decodes`` restores the decoding).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import faulthandler
import functools
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bot.ai import choose_action
from tests.e2e.players import Table, World
from tests.fakediscord import Attachment, FakeDiscord, HarnessError, Outcome
from tests.fakediscord.harness import _await_chain
from tests.fakediscord.models import PNG_MAGIC

ACK_DEADLINE = 3.0
MAX_FAILURES = 5  # failed actions after which a simulated player gives up its match
TEARDOWN_LIMIT = 120.0  # seconds after the measurements before a hung teardown is dumped
PARKED_FOR = 10.0  # seconds: an action whose tasks only wait for time this long is done


@dataclass
class Sample:
    kind: str  # slash / click / select
    ack: float  # seconds
    last: float | None  # seconds, None when the interaction produced no message


@dataclass
class Run:
    matches: int
    rounds: int
    think: float
    ramp: float  # matches started per second
    samples: list[Sample] = field(default_factory=list)
    decisions: int = 0
    failed: int = 0  # actions that failed for the simulated person (then retried)
    refused: int = 0  # decisions answered by the bot but not applied (then retried)
    late: int = 0  # interactions acknowledged after Discord's 3 s (they failed)
    never: int = 0  # interactions never acknowledged
    acks: list[float] = field(default_factory=list)  # seconds, every acknowledged interaction
    finished: int = 0  # matches that reached the round cap or their end
    won: int = 0  # matches that ended with a winner within the cap
    errors: list[str] = field(default_factory=list)
    wall: float = 0.0
    png_bytes: int = 0
    timed_out: bool = False
    cpu: float = 0.0  # seconds of CPU (user + system) the process used during the run
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average before / after


class LoadFake(FakeDiscord):
    """The fake Discord, noting per interaction the ack latency and the time of the last
    message made for it, with three changes that keep the *fake's* own cost out of the way
    under load (the bot is untouched):

    * settling: the harness waits until its action's tasks are done AND no HTTP request is in
      flight anywhere, polling every 5 ms — right for tests, but with hundreds of concurrent
      actions there is never a quiet moment and the pollers saturate the event loop. Here an
      action is done when it was acknowledged and its own tasks are done (or waited for time
      or an event, e.g. a timer, for ``PARKED_FOR`` seconds), found by waiting on those tasks
      rather than polling; that only decides when the simulated person sees the answer, not
      the latencies measured;
    * the event log (``server.records``), which every action scans from the start, is trimmed
      below the oldest action still running;
    * attachment bytes are dropped once checked to be PNGs (memory), unless ``keep_files``.
    """

    def __init__(self, run: Run, *, keep_files: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.run = run
        self.keep_files = keep_files
        self._running: dict[int, int] = {}  # id(coroutine frame) -> seq when it started
        self._dispatches = 0

    async def _settle(self, tracker: Any, info: Any, *, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        while True:
            await asyncio.sleep(0)  # let tasks created just now register
            pending = tracker.pending()
            acked = info is None or info.ack is not None
            if not pending:
                if acked:
                    break
                left = info.dispatched_at + self.server.ack_deadline + 0.25 - loop.time()
                try:
                    await asyncio.wait_for(info.acked.wait(), max(0.0, left))
                except TimeoutError:
                    break
                continue
            remaining = timeout - (loop.time() - start)
            if remaining <= 0:
                raise HarnessError(f"{tracker.label}: still busy after {timeout} s")
            done, still = await asyncio.wait(pending, timeout=min(PARKED_FOR, remaining))
            # a task waiting on a lock (e.g. the database's, held by another match) is not
            # done; only tasks that wait for time or an event for long (timers) are left
            if not done and acked and all(_waits_for_time(t) for t in still):
                break
        await asyncio.sleep(0)

    def _trim(self) -> None:
        records = self.server.records
        oldest = min(self._running.values(), default=self.server.seq)
        cut = bisect.bisect_right(records, oldest, key=lambda r: r.seq)
        del records[:cut]

    async def _dispatch(self, user: Any, **kw: Any) -> Outcome:  # type: ignore[override]
        key = object()
        self._running[id(key)] = self.server.seq
        try:
            out = await super()._dispatch(user, **kw)
        finally:
            del self._running[id(key)]
        self._dispatches += 1
        if self._dispatches % 200 == 0:
            self._trim()
        info = self.server.interactions[f"itoken-{out.interaction_id}"]
        channel_id = kw["channel"].id
        times = []
        for r in out.records:
            if r.interaction_id == out.interaction_id or (
                    r.interaction_id is None and r.channel_id == channel_id):
                times.append(r.time)
                for a in r.attachments:
                    if len(a.data) > 33:
                        if not a.is_png:
                            self.run.errors.append(f"non-PNG attachment {a.filename}")
                        self.run.png_bytes += len(a.data)
                        if not self.keep_files:
                            a.data = a.data[:33]  # keep the signature and IHDR, drop the rest
        last = max(times) - info.dispatched_at if times else None
        self.run.samples.append(Sample(kw["kind"], out.ack.latency if out.ack else 99.0, last))
        return out


_ASYNCIO_DIR = os.path.dirname(asyncio.__file__)
_TIME_WAITS = {"sleep", "wait_for", "Event.wait", "Condition.wait", "Queue.get"}


def _waits_for_time(task: asyncio.Task[Any]) -> bool:
    """The task waits for time or an event (a timer), not for a lock held by another match
    (the database's write lock under load) — that is still work in progress."""
    chain = [(name, filename) for name, filename in _await_chain(task)
             if filename.startswith(_ASYNCIO_DIR)]
    names = {name for name, _ in chain}
    if "__sleep0" in names or any(n.endswith(".acquire") for n in names):
        return False  # sleep(0) is a mere yield (e.g. discord.py's rate limiter), not a timer
    return bool(names & _TIME_WAITS)


def _png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk (no decoding)."""
    if len(data) >= 24 and data.startswith(PNG_MAGIC) and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


def _payload_without_decoding(self: Attachment) -> dict[str, Any]:
    """``Attachment.to_payload`` without decoding the whole image with Pillow (the fake does
    that on every message payload; ~13 ms per board on the shared event loop)."""
    payload: dict[str, Any] = {
        "id": str(self.id), "filename": self.filename, "size": self.size, "url": self.url,
        "proxy_url": self.url, "content_type": self.content_type,
    }
    if self.description is not None:
        payload["description"] = self.description
    size = _png_size(self.data)
    if size is not None:
        payload["width"], payload["height"] = size
    return payload


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


async def play_table(world: World, table_no: int, run: Run, pool: ThreadPoolExecutor,
                     channel: Any, seed: int) -> None:
    rng = random.Random(seed * 7919 + table_no)
    loop = asyncio.get_running_loop()
    await asyncio.sleep(table_no / run.ramp)  # people don't all start at the same instant
    table: Table = await world.new_table(raptor=f"raptor{table_no}",
                                         scientist=f"scientist{table_no}", channel=channel)
    failures = 0
    expected: int | None = None  # the version a successful decision leads to
    last: Outcome | None = None
    while True:
        match = await table.match()
        if expected is not None and match.version < expected:
            run.refused += 1  # the decision was answered but not applied
            if len(run.errors) < 20 and last is not None:
                said = [r.content[:120] for r in last.replies]
                run.errors.append(f"table {table_no}: not applied: {said}")
        if not match.active or match.state.round > run.rounds:
            run.finished += 1
            run.won += not match.active
            return
        side = rng.choice(sorted(engine.to_act(match.state)))
        who = table.player(side)
        think = functools.partial(choose_action, engine.view(match.state, side), level="easy",
                                  seed=rng.randrange(1 << 30))
        action = await loop.run_in_executor(pool, think)
        if run.think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * run.think)
        via = "act" if rng.random() < 0.25 else "controls"
        expected = match.version + 1
        try:
            last = await who.play(action, via=via, match=match)
        except HarnessError as exc:
            expected = None
            # e.g. "This interaction failed" (a late ack): a person would try again
            run.failed += 1
            failures += 1
            if len(run.errors) < 20:
                run.errors.append(f"table {table_no}: {str(exc)[:200]}")
            if failures > MAX_FAILURES:
                raise
            continue
        run.decisions += 1


async def one_run(matches: int, rounds: int, think: float, seed: int, time_box: float,
                  keep_files: bool, decode: bool = False, ramp: float = 50.0) -> Run:
    run = Run(matches, rounds, think, ramp)
    if not decode:
        Attachment.to_payload = _payload_without_decoding  # type: ignore[method-assign]
    fake = LoadFake(run, keep_files=keep_files, strict=False, timeout=600.0)
    channels = [fake.add_channel(f"table-{i}") for i in range(matches)]
    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="players")
    with tempfile.TemporaryDirectory(prefix="raptor-load-") as folder:
        async with World.open(Path(folder), seed=seed, fake=fake) as world:
            world.keep_timeline = False
            started = time.perf_counter()
            cpu0 = _cpu()
            load0 = os.getloadavg()[0]
            tasks = [asyncio.create_task(play_table(world, i, run, pool, channels[i], seed))
                     for i in range(matches)]
            done, pending = await asyncio.wait(tasks, timeout=time_box)
            run.wall = time.perf_counter() - started
            run.cpu = _cpu() - cpu0
            run.load = (load0, os.getloadavg()[0])
            run.timed_out = bool(pending)
            run.acks = [a.latency for a in fake.acks]
            run.late = sum(1 for a in fake.acks if a.late or a.latency >= ACK_DEADLINE)
            run.never = sum(1 for i in fake.server.interactions.values() if i.ack is None)
            for task in done:
                if task.exception() is not None:
                    exc = task.exception()
                    run.errors.append(f"{type(exc).__name__}: {str(exc)[:300]}")
            problems = [p for p in fake.problems() if "late ack" not in p]
            run.errors += problems[:5]
            print(report(run), flush=True)  # now: the teardown of a backlog can take long
            # if the teardown hangs, say where (all threads' stacks on stderr) and stop
            faulthandler.dump_traceback_later(TEARDOWN_LIMIT, exit=True)
            watchdog = asyncio.get_running_loop().call_later(TEARDOWN_LIMIT - 10, _dump_tasks)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=30)
    watchdog.cancel()
    pool.shutdown(wait=False, cancel_futures=True)
    faulthandler.cancel_dump_traceback_later()
    return run


def _dump_tasks() -> None:
    """Print the stack of every asyncio task still alive (a hung teardown)."""
    for task in asyncio.all_tasks():
        print(f"--- task {task.get_name()}", file=sys.stderr)
        task.print_stack(limit=12, file=sys.stderr)


def report(run: Run) -> str:
    acks = [a * 1000 for a in run.acks]
    lasts = [s.last * 1000 for s in run.samples if s.last is not None]
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    by_kind: dict[str, list[float]] = {}
    for s in run.samples:
        if s.last is not None:
            by_kind.setdefault(s.kind, []).append(s.last * 1000)
    lines = [
        f"== {run.matches} concurrent matches, rounds capped at {run.rounds}, think "
        f"{run.think:g} s, started {run.ramp:g}/s"
        f"{' (TIME-BOXED: stopped early)' if run.timed_out else ''}",
        f"   wall {run.wall:.1f} s · {run.decisions} decisions "
        f"({run.decisions / run.wall:.1f}/s) · {len(run.samples)} interactions "
        f"({len(run.samples) / run.wall:.1f}/s) · matches done {run.finished}/{run.matches} "
        f"(ended with a winner: {run.won}) · failed actions {run.failed} · refused "
        f"{run.refused} · PNG traffic "
        f"{run.png_bytes / 2**20:.0f} MiB",
        f"   acks later than 3 s: {run.late} · never acknowledged: {run.never}",
        f"   ack latency     p50 {percentile(acks, 50):8.1f} ms  p95 "
        f"{percentile(acks, 95):8.1f} ms  p99 {percentile(acks, 99):8.1f} ms  max "
        f"{max(acks, default=float('nan')):8.1f} ms",
        f"   last reply      p50 {percentile(lasts, 50):8.1f} ms  p95 "
        f"{percentile(lasts, 95):8.1f} ms  p99 {percentile(lasts, 99):8.1f} ms  max "
        f"{max(lasts, default=float('nan')):8.1f} ms",
    ]
    for kind, values in sorted(by_kind.items()):
        lines.append(f"     {kind:7s} ({len(values):6d})  last reply p50 "
                     f"{percentile(values, 50):8.1f} ms  p95 {percentile(values, 95):8.1f} ms")
    lines.append(f"   peak memory (ru_maxrss, whole process so far) {rss_mib:.0f} MiB · CPU "
                 f"{run.cpu:.0f} s in {run.wall:.0f} s wall · load average "
                 f"{run.load[0]:.1f} -> {run.load[1]:.1f} on {os.cpu_count()} CPUs")
    if run.errors:
        lines.append(f"   problems ({len(run.errors)}): " + " | ".join(run.errors[:5]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[100],
                        help="numbers of concurrent matches, one run each (default 100)")
    parser.add_argument("--rounds", type=int, default=5, help="round cap per match (5)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player thinks before a decision (0: flat out)")
    parser.add_argument("--ramp", type=float, default=50.0,
                        help="matches started per second (default 50)")
    parser.add_argument("--seed", type=int, default=9_100_001)
    parser.add_argument("--time-box", type=float, default=1800.0,
                        help="stop a run after this many seconds (default 1800)")
    parser.add_argument("--keep-files", action="store_true",
                        help="keep the PNG bytes in the fake's recordings")
    parser.add_argument("--fake-decodes", action="store_true",
                        help="let the fake decode every PNG it describes (its default)")
    args = parser.parse_args(argv)
    print(f"machine: {os.cpu_count()} CPUs · Python {sys.version.split()[0]} · pid {os.getpid()}")
    for n in args.matches:
        run = asyncio.run(one_run(n, args.rounds, args.think, args.seed, args.time_box,
                                  args.keep_files, args.fake_decodes, args.ramp))
        mean = statistics.fmean(run.acks) * 1000 if run.acks else 0
        print(f"   (mean ack {mean:.1f} ms)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
