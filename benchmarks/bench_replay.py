"""The replay animation's size and speed: frames, bytes and encoding time for 10, 30 and 60
rounds (the targets for 30 rounds: at most 3 s and 8 MiB).

Each match is a real random-play game (``tests.engine.test_record.random_game``): the public
views after its first N-1 rounds, then a final board (the game's end), animated by
:func:`render.replay.render_replay` with the default 10 MiB limit. The time is the median
of ``--repeat`` runs in this process (static layer cached after the first, as in a render
worker that has drawn this match's board before), and the first run (cold layer) apart.
Run by hand::

    .venv/bin/python benchmarks/bench_replay.py [--repeat 3] [--seed 11]
    .venv/bin/python benchmarks/bench_replay.py --in-bot [--replays 12] [--rounds 15]

``--in-bot``: the real bot against the fake Discord (``tests/e2e``), its render workers as
in production. A match of ``--rounds`` rounds is finished (random legal decisions, then a
resignation); then ``--replays`` members ask ``/raptor replay`` of it at once while a member
of another match (its id on the same render worker, the worst case) asks ``/raptor board``
in that match's thread, with the bot's board cache emptied first so that the board is
drawn (and its replay caches, so that each repeat draws the animation). Printed: that
board's latency (dispatch to the reply with the image) alone and during the replays (median
of ``--repeat``), how the replays were answered, and the renders made.

Figures on the 2-CPU machine shared with other jobs (load average 4.5-7 during the runs;
three runs each, 12 replays of a 15-round match, 2 board workers):

===============================================  ===========  ================================
run                                              board alone  board during the replays (max)
===============================================  ===========  ================================
before (every request drew the animation and     0.01-0.02 s  3.15 (3.90), 4.35 (4.51),
its first frame, in the match's board worker)                 4.55 (4.94) s
after (drawn once and kept, in a replay worker   0.01-0.06 s  0.02 (0.05), 0.08 (0.09),
of its own at nice 10)                                        0.09 (0.29) s
===============================================  ===========  ================================
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from engine.record import round_states  # noqa: E402
from render.board import static_layer  # noqa: E402
from render.pool import render_executor  # noqa: E402
from render.replay import render_replay  # noqa: E402
from tests.engine.test_record import random_game  # noqa: E402

TARGET_SECONDS, TARGET_BYTES = 3.0, 8 * 1024 * 1024


def views_of(seed: int, rounds: int) -> list[engine.View]:
    """``rounds`` public views of a finished random game: after rounds 1..N-1, then the end."""
    final, log = random_game(seed)
    states = round_states(seed, final.options, log)
    if len(states) < rounds:
        raise SystemExit(f"seed {seed} plays only {len(states)} rounds; choose another")
    return [engine.view(s, None) for s in states[: rounds - 1] + [states[-1]]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--in-bot", action="store_true",
                        help="concurrent /raptor replay in the real bot (see above)")
    parser.add_argument("--replays", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    if args.in_bot:
        asyncio.run(in_bot(args.replays, args.rounds, args.repeat, args.seed))
        return
    print(f"replay animation, random-play game seed {args.seed}, median of {args.repeat}")
    print(f"{'rounds':>6} {'frames':>6} {'bytes':>10} {'MiB':>6} {'cold s':>7} {'warm s':>7}"
          f" {'s/frame':>8}  scale")
    for rounds in (10, 30, 60):
        views = views_of(args.seed, rounds)
        static_layer.cache_clear()
        t0 = time.perf_counter()
        anim = render_replay(views)
        cold = time.perf_counter() - t0
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            anim = render_replay(views)
            times.append(time.perf_counter() - t0)
        warm = statistics.median(times)
        size = len(anim.data)
        mark = ""
        if rounds == 30:
            mark = ("  (targets met)" if warm <= TARGET_SECONDS and size <= TARGET_BYTES
                    else "  (TARGET MISSED)")
        print(f"{rounds:>6} {anim.frames:>6} {size:>10,} {size / 2**20:>6.2f} {cold:>7.2f} "
              f"{warm:>7.2f} {warm / rounds:>8.3f}  {anim.scale:g}{mark}")
    in_worker(args.seed)


def in_worker(seed: int, rounds: int = 30) -> None:
    """The same animation through a render worker process (nice 5), as the bot runs it:
    the first call (a fresh worker: imports done by the forkserver, nothing drawn yet) and
    a second one."""
    views = views_of(seed, rounds)
    pool = render_executor(1)
    try:
        out = []
        for _ in range(2):
            t0 = time.perf_counter()
            anim = pool.submit(render_replay, views).result()
            out.append(time.perf_counter() - t0)
    finally:
        pool.shutdown(wait=True)
    print(f"in a render worker process, {rounds} rounds: first {out[0]:.2f} s, then "
          f"{out[1]:.2f} s ({anim.frames} frames, {len(anim.data):,} bytes)")


async def _latency(world, out) -> float:
    """Seconds from dispatching ``out``'s interaction to its last record with an image."""
    info = next(i for i in world.fake.server.interactions.values()
                if i.id == out.interaction_id)
    shown = [r.time for r in out.replies if r.attachments]
    if not shown:
        raise SystemExit(f"no image in the answer: {[r.content for r in out.replies]}")
    return max(shown) - info.dispatched_at


async def in_bot(replays: int, rounds: int, repeat: int, seed: int) -> None:
    from bot.games.raptor import sides as rs
    from engine.raptor_game import SIDE_SEATS
    from tests.e2e.players import World  # the bot and the fake Discord: only here

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with World.open(Path(folder)) as world:
            service, images = world.bot.service, world.bot.flow.images
            old = await world.new_table(raptor="alice", scientist="bob")
            m = await old.match()
            while m.state.round <= rounds and not m.state.is_over:
                side = min(engine.to_act(m.state))
                action = rng.choice(engine.legal_actions(m.state, side))
                await service.act(m.id, rs.user(m, side), action, seat=SIDE_SEATS[side])
                m = await service.get_match(m.id)
            await service.resign(m.id, rs.user(m, engine.Side.RAPTOR))
            # another match on the replayed match's render worker (same id modulo workers)
            filler = 0
            while True:
                table = await world.new_table(raptor=f"carol{filler}", scientist=f"dave{filler}")
                if table.match_id % images.workers == old.match_id % images.workers:
                    break
                filler += 1
            viewers = [world.user(f"viewer{i}") for i in range(replays)]
            board_user = table.raptor

            async def board() -> float:
                images._caches["board"].clear()
                return await _latency(world, await board_user.slash("raptor board"))

            alone = statistics.median([await board() for _ in range(repeat)])
            during, answers = [], {}
            renders0 = images.renders
            for _ in range(repeat):
                for kind in ("replay", "frame"):  # each repeat draws the animation again
                    images._caches.get(kind, {}).clear()
                jobs = [asyncio.create_task(v.slash("raptor replay", match=old.match_id,
                                                    in_channel=old.channel))
                        for v in viewers]
                await asyncio.sleep(0.05)  # the replays are asked for first
                during.append(await board())
                for out in await asyncio.gather(*jobs):
                    gif = any(r.attachments and r.attachments[0].filename.endswith(".gif")
                              for r in out.replies)
                    key = "animation" if gif else (out.content or "")[:60]
                    answers[key] = answers.get(key, 0) + 1
            print(f"in the bot: {replays} concurrent /raptor replay of a {m.state.round - 1}"
                  f"-round match, {images.workers} render workers, median of {repeat}")
            print(f"  /raptor board of another match (same worker): alone "
                  f"{alone:.2f} s, during the replays {statistics.median(during):.2f} s "
                  f"(max {max(during):.2f} s)")
            print(f"  replay answers: {answers}; renders during the replays (animations, "
                  f"viewer frames and the boards): {images.renders - renders0}")


if __name__ == "__main__":
    main()
