"""Speed and size of the Raptor Race images (run by hand:
``python benchmarks/bench_race_render.py``).

Plays seeded random races on both boards, keeps positions from all of their phases, and
prints for the track image (with its dice panel), the dice alone and a seat's Top-3 card:
the median and the 95th percentile time of a render (static layer cached, as in a running
bot) in wall time and in the process's CPU time (the figure that holds on a shared machine),
the time of a first track render (layer not cached), and the PNG sizes (median and
largest), in English and in Traditional Chinese. Targets: each image <= 60 ms, <= 400 KB.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.race as race  # noqa: E402
from bot.i18n import translator  # noqa: E402
from render.race import render_card, render_dice, render_track, static_layer  # noqa: E402


def positions(races: int, per_race: int) -> list[race.RaceState]:
    out = []
    for n in range(races):
        rng = random.Random(n)
        s = race.new_game(n, 2 + n % 4, ("desert", "jungle")[n % 2])
        states = [s]
        while not s.is_over:
            s = race.apply(s, s.seat, rng.choice(race.legal_actions(s, s.seat)))
            states.append(s)
        out += rng.sample(states[:-1], min(per_race - 1, len(states) - 1)) + [states[-1]]
    return out


def timed(fn, *args, **kw) -> tuple[float, int, float]:
    """Wall milliseconds, bytes, and milliseconds of this process's CPU (what the render
    costs when the machine is shared)."""
    started, cpu = time.perf_counter(), time.process_time()
    data = fn(*args, **kw)
    return ((time.perf_counter() - started) * 1000, len(data),
            (time.process_time() - cpu) * 1000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=20)
    parser.add_argument("--per-race", type=int, default=10)
    args = parser.parse_args()
    states = positions(args.races, args.per_race)
    names = ("Ann", "Bo", "Cy", "Di", "Ed")
    for board in race.Board:
        static_layer.cache_clear()
        first, _, _ = timed(render_track, race.view(race.new_game(1, 3, board), None))
        print(f"first track render on the {board.value} (layer not cached): {first:.1f} ms")
    for lang, tr in (("en", str), ("zh_TW", translator("zh_TW").text)):
        for kind, fn in (("track", lambda v, tr: render_track(v, tr=tr, names=names)),
                         ("dice", lambda v, tr: render_dice(v, tr=tr)),
                         ("card", lambda v, tr: render_card(v, tr=tr))):
            fn(race.view(states[0], 0), tr)  # warm the caches of this language
            results = [timed(fn, race.view(s, s.seat), tr) for s in states]
            ms = sorted(r[0] for r in results)
            sizes = sorted(r[1] for r in results)
            cpu = statistics.median(r[2] for r in results)
            print(f"{lang:5s} {kind:5s}: {len(states)} images, {statistics.median(ms):5.1f} ms "
                  f"median ({cpu:4.1f} ms CPU), {ms[int(0.95 * len(ms))]:5.1f} ms p95, "
                  f"{ms[-1]:5.1f} ms max; "
                  f"{statistics.median(sizes) / 1000:5.1f} KB median, {sizes[-1] / 1000:5.1f} "
                  f"KB largest")


if __name__ == "__main__":
    main()
