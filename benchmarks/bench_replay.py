"""The replay animation's size and speed: frames, bytes and encoding time for 10, 30 and 60
rounds (the targets for 30 rounds: at most 3 s and 8 MiB).

Each match is a real random-play game (``tests.engine.test_record.random_game``): the public
views after its first N-1 rounds, then a final board (the game's end), animated by
:func:`render.replay.render_replay` with the default 10 MiB limit. The time is the median
of ``--repeat`` runs in this process (static layer cached after the first, as in a render
worker that has drawn this match's board before), and the first run (cold layer) apart.
Run by hand::

    .venv/bin/python benchmarks/bench_replay.py [--repeat 3] [--seed 11]
"""

from __future__ import annotations

import argparse
import statistics
import sys
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
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
