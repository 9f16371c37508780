"""Record the AI's decisions over a fixed set of positions, to check that a change of the
AI's code leaves its play unchanged, and time them. Run by hand:

    python benchmarks/ai_decisions.py --out before.json      # record (and time)
    python benchmarks/ai_decisions.py --compare before.json  # record again, diff, time
    python benchmarks/ai_decisions.py --against ../base --repeat 4   # old and new, one run

Positions: decision points of seeded random games (``engine.new_game(seed)``, manual setup),
both sides, every phase (setup placements, card picks with and without observation, effect
units, AP actions, the mother's return): the first decision of each phase per side and
game, then every ``--stride``-th other one. For each, the easy level's decision (seed = the
position's index) and the hard level's with ``--iterations`` fixed playouts (deterministic:
no clock). Printed: the number of positions per phase, the mean CPU time of the easy and
the hard decisions and the worst hard one, and with ``--compare`` every decision that
differs (exit status 1 if any).

``--against ROOT`` runs the same recording with the code of another checkout ROOT (its
``bot`` and ``engine``) and with this one, alternately ``--repeat`` times, each in a fresh
process, then prints both sides' times and whether every decision is the same. ``--root``
(used by it) runs this script on the code of ROOT.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# --root ROOT: import bot and engine from another checkout (read before importing them)
ROOT = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv[:-1] else HERE
sys.path.insert(0, os.path.abspath(ROOT))

import engine  # noqa: E402
from bot.ai import choose_action  # noqa: E402
from engine import Phase, Side  # noqa: E402


def positions(games: range, stride: int) -> list[tuple[engine.GameState, Side]]:
    """Decision points of random games (see the module docstring)."""
    out = []
    for seed in games:
        s = engine.new_game(seed)
        rng = random.Random(seed)
        seen: set[tuple[Phase, Side, bool]] = set()
        n = 0
        while not s.is_over and s.round <= 200:
            for side in (Side.RAPTOR, Side.SCIENTIST):
                if side not in engine.to_act(s):
                    continue
                kind = (s.phase, side, bool(s.observation))
                if kind not in seen or n % stride == 0:
                    seen.add(kind)
                    out.append((s, side))
                n += 1
                s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
    return out


def record(games: range, stride: int, iterations: int
           ) -> tuple[list[dict], list[float], list[float]]:
    """The decisions at :func:`positions`, and the CPU seconds of each easy and hard one."""
    rows, easy_times, times = [], [], []
    for i, (s, side) in enumerate(positions(games, stride)):
        v = engine.view(s, side)
        t0 = time.process_time()
        easy = choose_action(v, level="easy", seed=i)
        t1 = time.process_time()
        hard = choose_action(v, level="hard", seed=i, iterations=iterations)
        easy_times.append(t1 - t0)
        times.append(time.process_time() - t1)
        rows.append({"i": i, "round": s.round, "phase": s.phase.value, "side": side.value,
                     "observation": bool(s.observation),
                     "easy": engine.format_action(easy), "hard": engine.format_action(hard)})
    return rows, easy_times, times


def against(root: str, args: argparse.Namespace) -> int:
    """Old (``root``) and new (this checkout) alternately, each in a fresh process."""
    import subprocess
    import tempfile

    common = ["--games", str(args.games), "--stride", str(args.stride),
              "--iterations", str(args.iterations)]
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeat):
            for name, code in (("old", root), ("new", HERE)):
                out = os.path.join(tmp, f"{name}{r}.json")
                subprocess.run([sys.executable, os.path.abspath(__file__), "--root", code,
                                "--out", out, "--timed", *common], check=True,
                               stdout=subprocess.DEVNULL)
                with open(out) as f:
                    runs[name].append(json.load(f))
    for name, code in (("old", root), ("new", HERE)):
        easy = [run["easy_ms"] for run in runs[name]]
        hard = [run["hard_ms"] for run in runs[name]]
        shown_easy = " ".join(f"{t:.2f}" for t in easy)
        shown_hard = " ".join(f"{t:.1f}" for t in hard)
        print(f"{name} ({os.path.abspath(code)}): easy {shown_easy} ms, hard {shown_hard} ms "
              f"per decision (CPU; means {sum(easy) / len(easy):.2f} and "
              f"{sum(hard) / len(hard):.1f})")
    first = runs["old"][0]["decisions"]
    same = all(run["decisions"] == first for run in runs["old"] + runs["new"])
    print(f"{len(first)} decisions per run, identical in every run: {same}")
    return 0 if same else 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="random games (seeds 1..N)")
    ap.add_argument("--stride", type=int, default=25, help="keep every N-th other decision")
    ap.add_argument("--iterations", type=int, default=20, help="hard level's fixed playouts")
    ap.add_argument("--out", help="write the decisions to this JSON file")
    ap.add_argument("--compare", help="compare with the decisions in this JSON file")
    ap.add_argument("--against", metavar="ROOT", help="old (ROOT) and new side by side")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each with --against (3)")
    ap.add_argument("--root", help="import bot and engine from this checkout")
    ap.add_argument("--timed", action="store_true", help="--out also holds the times")
    args = ap.parse_args()
    if args.against:
        sys.exit(against(args.against, args))
    rows, easy_times, times = record(range(1, args.games + 1), args.stride, args.iterations)
    kinds = Counter((r["phase"], r["side"]) for r in rows)
    print(f"{len(rows)} positions:",
          ", ".join(f"{p}/{s} {n}" for (p, s), n in sorted(kinds.items())))
    print(f"observation picks: {sum(r['observation'] and r['phase'] == 'pick' for r in rows)}")
    easy_ms, hard_ms = 1000 * sum(easy_times) / len(rows), 1000 * sum(times) / len(rows)
    print(f"CPU time per decision: easy {easy_ms:.2f} ms; hard ({args.iterations} playouts) "
          f"{hard_ms:.1f} ms, worst {1000 * max(times):.0f} ms")
    if args.out:
        with open(args.out, "w") as f:
            if args.timed:
                json.dump({"decisions": rows, "easy_ms": easy_ms, "hard_ms": hard_ms}, f)
            else:
                json.dump(rows, f, indent=0)
    if args.compare:
        with open(args.compare) as f:
            old = json.load(f)
        diffs = [(a, b) for a, b in zip(old, rows, strict=True) if a != b]
        for a, b in diffs:
            print(f"differs: {a} -> {b}")
        print(f"{len(rows) - len(diffs)} of {len(rows)} decisions identical")
        sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
