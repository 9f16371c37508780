"""Speed and size of the Ratjack images (run by hand:
``python benchmarks/bench_ratjack_render.py``).

Plays seeded random games of 2, 3 and 4 players, keeps varied positions, and prints for the
public table (``render_table``), a player's private view (``render_private``) and a card
face (``render_card``): the median wall and CPU time per image (static layers and text masks
cached, as in a running bot), the drawing and the PNG encoding apart, the PNG sizes, and the
same in Traditional Chinese. Targets: each image <= 60 ms median, <= 400 KB. The time
target is judged on CPU time, which a machine shared with other work does not inflate (the
wall time is printed beside it, with the load average).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.i18n import TRADITIONAL_CHINESE, translator  # noqa: E402
from engine.ratjack import (  # noqa: E402
    ALL_CARDS,
    Phase,
    apply,
    legal_actions,
    new_game,
    to_act,
    view,
)
from render.board import encode_png  # noqa: E402
from render.ratjack import (  # noqa: E402
    private_image,
    render_card,
    render_private,
    render_table,
    table_image,
)

TARGET_MS, TARGET_BYTES = 60.0, 400_000


def positions(games: int, seed: int) -> list:
    """Positions from ``games`` seeded random games (2, 3, 4 players in turn), a few each."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        s = new_game(rng.getrandbits(32), 2 + g % 3, ("rb", "rc", "rw", "cw")[g % 4])
        stops = sorted(rng.sample(range(10, 160), 4))
        step = 0
        while s.phase is not Phase.OVER and stops:
            (q,) = to_act(s)
            s = apply(s, q, rng.choice(legal_actions(s, q)))
            step += 1
            if step == stops[0]:
                stops.pop(0)
                out.append(s)
    return out


def timed(f, items) -> tuple[list[float], list[float], list]:
    wall, cpu, results = [], [], []
    for x in items:
        t, c = time.perf_counter(), time.process_time()
        results.append(f(x))
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return wall, cpu, results


def ms(xs: list[float]) -> str:
    return f"{1000 * statistics.median(xs):6.2f} ms"


def report(name: str, f, items, *, draw=None, sizes: bool = True) -> bool:
    for x in items[:3]:
        f(x)  # warm the caches of static layers and text masks
    wall, cpu, out = timed(f, items)
    line = f"{name:28s}: median {ms(wall)} wall, {ms(cpu)} CPU (max wall " \
           f"{1000 * max(wall):.1f} ms)"
    ok = statistics.median(cpu) <= TARGET_MS / 1000  # wall time waits for a busy machine
    if draw is not None:
        dwall, _, ims = timed(draw, items)
        ewall, _, _ = timed(encode_png, ims)
        line += f"; drawing {ms(dwall)}, PNG encoding {ms(ewall)}"
    print(line)
    if sizes:
        lengths = [len(b) for b in out]
        print(f"{'':28s}  PNG size median {statistics.median(lengths) / 1000:.1f} KB, max "
              f"{max(lengths) / 1000:.1f} KB")
        ok = ok and max(lengths) <= TARGET_BYTES
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    a = parser.parse_args(argv)
    states = positions(a.games, a.seed)
    public = [view(s, None) for s in states]
    private = [view(s, s.current) for s in states if s.phase is not Phase.OVER]
    zh = translator(TRADITIONAL_CHINESE).text
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(states)} positions from {a.games} random games (2-4 players); load average "
          f"{load:.2f} on {os.cpu_count()} CPUs")
    ok = report("render_table (en)", render_table, public, draw=table_image)
    ok &= report("render_table (zh-TW)", lambda v: render_table(v, tr=zh), public)
    ok &= report("render_private (en)", render_private, private, draw=private_image)
    ok &= report("render_private (zh-TW)", lambda v: render_private(v, tr=zh), private)
    cards = list(ALL_CARDS)
    ok &= report("render_card (en)", render_card, cards)
    ok &= report("render_card (zh-TW)", lambda c: render_card(c, tr=zh), cards)
    print(f"targets: <= {TARGET_MS:.0f} ms median CPU, <= {TARGET_BYTES // 1000} KB: "
          f"{'OK' if ok else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
