"""Record the AI's decisions over a fixed set of positions, to check that a change of the
AI's code leaves its play unchanged, and time them. Run by hand:

    python benchmarks/ai_decisions.py --out before.json      # record (and time)
    python benchmarks/ai_decisions.py --compare before.json  # record again, diff, time

Positions: decision points of seeded random games (``engine.new_game(seed)``, manual setup),
both sides, every phase (setup placements, card picks with and without observation, effect
units, AP actions, the mother's return): the first decision of each phase per side and
game, then every ``--stride``-th other one. For each, the easy level's decision (seed = the
position's index) and the hard level's with ``--iterations`` fixed playouts (deterministic:
no clock). Printed: the number of positions per phase, the total and worst time of the hard
decisions, and with ``--compare`` every decision that differs (exit status 1 if any).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

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


def record(games: range, stride: int, iterations: int) -> tuple[list[dict], list[float]]:
    rows, times = [], []
    for i, (s, side) in enumerate(positions(games, stride)):
        v = engine.view(s, side)
        easy = choose_action(v, level="easy", seed=i)
        t0 = time.perf_counter()
        hard = choose_action(v, level="hard", seed=i, iterations=iterations)
        times.append(time.perf_counter() - t0)
        rows.append({"i": i, "round": s.round, "phase": s.phase.value, "side": side.value,
                     "observation": bool(s.observation),
                     "easy": engine.format_action(easy), "hard": engine.format_action(hard)})
    return rows, times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="random games (seeds 1..N)")
    ap.add_argument("--stride", type=int, default=25, help="keep every N-th other decision")
    ap.add_argument("--iterations", type=int, default=20, help="hard level's fixed playouts")
    ap.add_argument("--out", help="write the decisions to this JSON file")
    ap.add_argument("--compare", help="compare with the decisions in this JSON file")
    args = ap.parse_args()
    rows, times = record(range(1, args.games + 1), args.stride, args.iterations)
    kinds = Counter((r["phase"], r["side"]) for r in rows)
    print(f"{len(rows)} positions:",
          ", ".join(f"{p}/{s} {n}" for (p, s), n in sorted(kinds.items())))
    print(f"observation picks: {sum(r['observation'] and r['phase'] == 'pick' for r in rows)}")
    print(f"hard decisions ({args.iterations} playouts): total {sum(times):.2f} s, "
          f"worst {max(times):.3f} s")
    if args.out:
        with open(args.out, "w") as f:
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
