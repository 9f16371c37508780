"""Calibrate ``bot.ai.params.PLAYOUTS_PER_SECOND``: the CPU time of the hard level's
decisions at fixed work caps, for this checkout and for an older one, on the positions of
``bench_clock.py``. Run by hand (niced: it measures CPU time, not wall clock):

    nice -n 10 python benchmarks/calibrate_playouts.py --against /work/wt/base
    nice -n 10 python benchmarks/calibrate_playouts.py --caps 160 320 480 640

The method (benchmarks/RESULTS.md, "PLAYOUTS_PER_SECOND"): the cap at the default 2 s
budget is ``2 x PLAYOUTS_PER_SECOND`` playouts, and it must end the search well before the
clock does, so that play at the default budget is deterministic in practice. The old
value was safe by the clock benchmark with a CPU hog; so a new cap is safe when the new
code's decisions at it cost no more CPU, on each side, than the old code's at the old
cap, both in the mean and at worst. Positions: ``--positions`` decision points of
``bench_clock.py`` (easy-vs-easy games from seed ``--first-seed``), each decided once per
cap with ``iterations`` = the cap (no clock), timed with ``time.process_time``.

``--against ROOT`` times ROOT's code (its ``bot`` and ``engine``) at ``--old-cap`` and this
checkout's at every ``--caps`` cap, each in a fresh process, then prints the largest cap
that passes. ``--root`` (used by it) runs this script on the code of ROOT.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ROOT = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv[:-1] else HERE
sys.path.insert(0, os.path.abspath(ROOT))
sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))

import bot.ai  # noqa: E402
from bot.ai import choose_action  # noqa: E402

# after bot.ai, which is then ROOT's: bench_clock puts this checkout first on the path
positions = importlib.import_module("bench_clock").positions


def measure(cap: int, count: int, first_seed: int) -> dict[str, list[float]]:
    """CPU seconds of each hard decision at ``cap`` playouts, by side."""
    times: dict[str, list[float]] = {}
    for i, (v, side) in enumerate(positions(4, count, first_seed)):
        start = time.process_time()
        choose_action(v, level="hard", seed=i, iterations=cap)
        times.setdefault(side.value, []).append(time.process_time() - start)
    return times


def _line(label: str, times: dict[str, list[float]]) -> str:
    parts = []
    for side, ts in sorted(times.items()):
        ts = sorted(ts)
        parts.append(f"{side} mean {1000 * statistics.fmean(ts):5.0f}, median "
                     f"{1000 * statistics.median(ts):5.0f}, worst {1000 * ts[-1]:5.0f} ms")
    return f"  {label:<28} " + "; ".join(parts)


def _run(code: str, cap: int, args: argparse.Namespace) -> dict[str, list[float]]:
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", code,
                          "--caps", str(cap), "--positions", str(args.positions),
                          "--first-seed", str(args.first_seed), "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--caps", type=int, nargs="+", default=[160, 240, 320, 480, 640])
    ap.add_argument("--old-cap", type=int, default=160, help="the old code's cap (160)")
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--first-seed", type=int, default=8000)
    ap.add_argument("--against", metavar="ROOT", help="the old code, timed at --old-cap")
    ap.add_argument("--root", help="import bot and engine from this checkout")
    ap.add_argument("--json", action="store_true", help="print the times as JSON (one cap)")
    args = ap.parse_args()
    if args.json:
        print(f"code: {os.path.dirname(bot.ai.__file__)}")
        print(json.dumps(measure(args.caps[0], args.positions, args.first_seed)))
        return 0
    print(f"{args.positions} positions of bench_clock.py (seeds {args.first_seed}...), "
          "CPU per hard decision:")
    old = None
    if args.against:
        old = _run(args.against, args.old_cap, args)
        print(_line(f"old, {args.old_cap} playouts", old), flush=True)
    best = None
    for cap in args.caps:
        new = _run(HERE, cap, args)
        print(_line(f"new, {cap} playouts", new), flush=True)
        if old is not None and all(
                statistics.fmean(new[s]) <= statistics.fmean(old[s])
                and max(new[s]) <= max(old[s]) for s in old):
            best = cap
    if old is not None:
        print(f"largest cap costing no more than the old code's at {args.old_cap}: {best} "
              f"(PLAYOUTS_PER_SECOND {best // 2 if best else None} at 2 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
