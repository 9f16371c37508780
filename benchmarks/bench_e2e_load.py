"""Load benchmark: many concurrent matches played through the real discord.py client.

Run by hand (not part of the test suite), each run time-boxed::

    .venv/bin/python -m benchmarks.bench_e2e_load --matches 100 --rounds 3          # stress
    .venv/bin/python -m benchmarks.bench_e2e_load --matches 1000 --think 90 --ramp 10 \
        --rounds 2 --time-box 420                                                    # paced

What runs, all in ONE process and one event loop: the fake Discord HTTP API of
``tests/fakediscord`` (its server, recording and task tracking), the real Raptor bot
(``bot.discord.app.create_bot``: discord.py, the match service, SQLite in WAL mode; board and hand
images rendered by ``bot.discord.images.Images`` in worker processes, each at most once) and the
simulated people. Each match has its own channel and two members; it starts with
``/raptor challenge`` + Accept and goes on with the controls (card buttons, select menus,
End turn) or ``/raptor act`` (one decision in four), exactly like ``tests/e2e``. Each
simulated player decides with the easy AI (under a millisecond) on its own view of the
stored match (``engine.view(state, side)``), in a small thread pool. Matches stop after
``--rounds`` rounds (or at their end).

Pacing:

* ``--think 0`` (default), the stress mode: every player acts as soon as the previous
  decision was answered. The process is then saturated by design: the last-reply times
  measure the queue (matches / decisions per second), the acks whether the bot stays
  responsive while saturated. Used for 100 matches.
* ``--think S``, people think: every player waits a random 0.5*S..1.5*S seconds before
  each decision (on top of the time the bot takes to answer). The offered load is then about
  ``matches / (S + reply time)`` decisions per second. For 1,000 matches we use
  ``--think 90`` (45-135 s per decision: people in a Discord channel read the board, pick
  among up to ~25 moves in menus, and chat) with starts ramped at 10 matches per second
  (``--ramp``): about 11 decisions per second offered, what one process carries on 2 shared
  CPUs. ``--think 30`` (33 per second offered) saturates this machine: see the figures.

Matches start ``--ramp`` per second (default 50): a burst of hundreds of simultaneous
interactions costs this single process (bot + fake server + harness) several ms each of
event-loop time. ``--time-box`` stops a run (figures over what was done by then; the header
says so).

Figures printed per run (latencies in milliseconds, over every interaction):

* ``handler latency``: the fake's measurement, from dispatching INTERACTION_CREATE to the
  bot's first callback arriving (its acknowledgement: every handler defers first; Discord's
  3 s deadline applies to this one). The target is p95 <= 150 ms;
* ``last reply``: from dispatch to the last message the bot created or edited for that
  interaction (its own replies and the channel posts it made while handling it: the pick
  notice, the reveal, the next turn message with its board PNG, the round summary ...);
* decisions per second, interactions, late acks (> 3 s), never-acknowledged interactions,
  images rendered / served from the bot's cache, peak memory (``ru_maxrss`` of this
  process, and this process + the render workers sampled every 5 s; it includes the fake
  Discord's recordings: attachment bytes are dropped after they are checked to be PNGs,
  unless ``--keep-files``), CPU (this process and the render workers) and the 1-minute load
  average before, after and at its highest (the machine may be shared: note it with the
  figures).

Figures on the 2-CPU machine shared with other jobs (29 Nov 2026; load average noted; each
run of 1,000 time-boxed at 420 s, so mostly the first two rounds):

=============================  ========  ==========  ============  ==========  ========
run                            decis./s  ack p50/95  last p50/95   peak RSS    load
=============================  ========  ==========  ============  ==========  ========
100 stress, before (threads)   9.8       61/154 ms   6.1/13.1 s    500 MiB     2.2-4.9
100 stress, after              16.2      14/112 ms   3.8/7.2 s     351+305 MiB 5.1-6.0
1,000 think 30, after          11.8      61/257 ms   23/46 s       948+377 MiB 4.7-6.9
1,000 think 90, after          8.7       2.3/16 ms   35/189 ms     751+363 MiB 2.2-3.9
=============================  ========  ==========  ============  ==========  ========

("after": own PNG writer, per-version board / per-content hand caches, render worker
processes with a match pinned to one worker, packed static layers, at most 8 matches
posting at once; RSS: this process + render workers. Before, 1,000 matches never
completed a time box.) CPU per decision: ~90 ms before (all in this process), ~55-75 ms
after (30-50 ms in this process, ~25 ms in the workers).

The in-process fake is not free: its HTTP server, multipart parsing and the harness share
the event loop with the bot, so the figures are an upper bound of the bot's own latency on
this machine. The harness's settling is replaced here (see :class:`LoadFake`).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import faulthandler
import functools
import logging
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
from tests.fakediscord import FakeDiscord, HarnessError, Outcome
from tests.fakediscord.harness import _await_chain

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
    time_box: float  # seconds
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
    load_max: float = 0.0  # highest 1-minute load average seen during the run (every 5 s)
    rss_max: int = 0  # bytes: highest RSS of this process + its descendants (render workers)
    workers_cpu: float = 0.0  # seconds of CPU of the descendants alive at the end
    renders: int = 0  # images the bot rendered (bot.discord.images.Images)
    image_hits: int = 0  # image requests served without a render (cache or shared render)


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
                  keep_files: bool, ramp: float = 50.0) -> Run:
    run = Run(matches, rounds, think, ramp, time_box)
    logging.disable(logging.NOTSET)  # a previous run's teardown silenced the errors
    fake = LoadFake(run, keep_files=keep_files, strict=False, timeout=600.0)
    channels = [fake.add_channel(f"table-{i}") for i in range(matches)]
    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="players")
    with tempfile.TemporaryDirectory(prefix="raptor-load-") as folder:
        async with World.open(Path(folder), seed=seed, fake=fake) as world:
            world.keep_timeline = False
            started = time.perf_counter()
            cpu0 = _cpu()
            load0 = os.getloadavg()[0]
            sampler = asyncio.create_task(_sample_load(run))
            tasks = [asyncio.create_task(play_table(world, i, run, pool, channels[i], seed))
                     for i in range(matches)]
            done, pending = await asyncio.wait(tasks, timeout=time_box)
            run.wall = time.perf_counter() - started
            run.cpu = _cpu() - cpu0
            run.workers_cpu = sum(_cpu_of(p) for p in _descendants(os.getpid()))
            sampler.cancel()
            run.load = (load0, os.getloadavg()[0])
            run.load_max = max(run.load_max, *run.load)
            images = world.bot.flow.images  # type: ignore[union-attr]
            run.renders, run.image_hits = images.renders, images.hits
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
            # the handlers cut off by the teardown (session closed) would each log a traceback
            logging.disable(logging.ERROR)
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


def _descendants(pid: int) -> list[int]:
    """Child processes of ``pid``, recursively (Linux /proc; [] elsewhere). The render
    workers are children of multiprocessing's fork server, itself a child of this process."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        for kid in kids:
            out += [kid, *_descendants(kid)]
    return out


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _cpu_of(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


async def _sample_load(run: Run) -> None:
    """Every 5 s: the 1-minute load average and the memory of this process and its render
    workers (their peak RSS summed at the sampling moments)."""
    me = os.getpid()
    while True:
        run.load_max = max(run.load_max, os.getloadavg()[0])
        run.rss_max = max(run.rss_max, _rss(me) + sum(_rss(p) for p in _descendants(me)))
        await asyncio.sleep(5)


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
    pacing = (f"players think {0.5 * run.think:g}-{1.5 * run.think:g} s per decision"
              if run.think else "players act flat out (no thinking time)")
    lines = [
        f"== {run.matches} concurrent matches · rounds capped at {run.rounds} · {pacing} · "
        f"started {run.ramp:g}/s · time box {run.time_box:g} s"
        f"{' (TIME-BOXED: stopped early)' if run.timed_out else ''}",
        f"   wall {run.wall:.1f} s · {run.decisions} decisions "
        f"({run.decisions / run.wall:.1f}/s) · {len(run.samples)} interactions "
        f"({len(run.samples) / run.wall:.1f}/s) · matches done {run.finished}/{run.matches} "
        f"(ended with a winner: {run.won}) · failed actions {run.failed} · refused "
        f"{run.refused}",
        f"   images rendered {run.renders}, served without a render {run.image_hits} · PNG "
        f"traffic {run.png_bytes / 2**20:.0f} MiB",
        f"   acks later than 3 s: {run.late} · never acknowledged: {run.never}",
        f"   handler latency (dispatch -> the bot's first response, the ack)  p50 "
        f"{percentile(acks, 50):7.1f} ms  p95 {percentile(acks, 95):7.1f} ms  p99 "
        f"{percentile(acks, 99):7.1f} ms  max {max(acks, default=float('nan')):7.1f} ms",
        f"   last reply (dispatch -> the last message made for it)           p50 "
        f"{percentile(lasts, 50):7.1f} ms  p95 {percentile(lasts, 95):7.1f} ms  p99 "
        f"{percentile(lasts, 99):7.1f} ms  max {max(lasts, default=float('nan')):7.1f} ms",
    ]
    for kind, values in sorted(by_kind.items()):
        lines.append(f"     {kind:7s} ({len(values):6d})  last reply p50 "
                     f"{percentile(values, 50):8.1f} ms  p95 {percentile(values, 95):8.1f} ms")
    cpu = run.cpu + run.workers_cpu
    lines.append(f"   peak memory: this process {rss_mib:.0f} MiB (ru_maxrss), with its render "
                 f"workers {run.rss_max / 2**20:.0f} MiB (sampled every 5 s)")
    lines.append(f"   CPU {run.cpu:.0f} s in this process + {run.workers_cpu:.0f} s in render "
                 f"workers in {run.wall:.0f} s wall ({1000 * cpu / max(1, run.decisions):.0f} "
                 f"ms per decision) · load average {run.load[0]:.1f} -> {run.load[1]:.1f}, "
                 f"max {run.load_max:.1f} on {os.cpu_count()} CPUs")
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
    args = parser.parse_args(argv)
    print(f"machine: {os.cpu_count()} CPUs · Python {sys.version.split()[0]} · pid {os.getpid()}")
    for n in args.matches:
        run = asyncio.run(one_run(n, args.rounds, args.think, args.seed, args.time_box,
                                  args.keep_files, args.ramp))
        mean = statistics.fmean(run.acks) * 1000 if run.acks else 0
        print(f"   (mean ack {mean:.1f} ms)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
