"""Play seeded games of the hard level against the easy one with a fixed amount of work,
recording every move and the CPU time of every hard decision: to check that a change of
the AI's speed leaves its play unchanged, and to time old and new code on the positions of
real games, side by side. Run by hand:

    python benchmarks/ai_games.py --games 20 --iterations 160 --out new.jsonl
    python benchmarks/ai_games.py --against /work/wt/base --games 20 --iterations 160

Games: seed ``first_seed + 2 i`` (the seeds of ``bench_ai_ablation.py``; +1 when the hard
level plays the scientist), ``engine.new_game(seed)`` (random layout, manual setup), the
hard level on ``--side`` against the easy level, decision seeds as in
``bench_ai_ablation.py``, ``--iterations`` fixed playouts (the clock is never read, so a
game repeats exactly on any machine). A game still running after ``--max-rounds`` rounds
stops there.

``--against ROOT`` plays every game with the code of the checkout ROOT (its ``bot`` and
``engine``: "old") and with this one ("new"), alternately, each game in a fresh process
(so both meet the same memory state and the machine's load falls alike on both), then
prints for each the CPU milliseconds per hard decision (mean, median, 95th percentile,
worst), the ratio old / new, and whether every game's moves are identical (exit status 1
if not). ``--root`` (used by it) runs this script on the code of ROOT.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# --root ROOT: import bot and engine from another checkout (read before importing them)
ROOT = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv[:-1] else HERE
sys.path.insert(0, os.path.abspath(ROOT))

import engine  # noqa: E402
from bot.ai import choose_action  # noqa: E402
from engine import Side  # noqa: E402


def play(seed: int, hard_side: Side, iterations: int, max_rounds: int) -> dict:
    """One game: its moves, winner, rounds and the CPU seconds of each hard decision."""
    levels = {hard_side: "hard", hard_side.other: "easy"}
    state = engine.new_game(seed)
    decision = 0
    moves: list[str] = []
    hard_cpu: list[float] = []
    while not state.is_over and state.round <= max_rounds:
        for side in (Side.RAPTOR, Side.SCIENTIST):
            if side not in engine.to_act(state):
                continue
            start = time.process_time()
            action = choose_action(engine.view(state, side), level=levels[side],
                                   seed=seed * 100_000 + decision, iterations=iterations)
            if levels[side] == "hard":
                hard_cpu.append(time.process_time() - start)
            decision += 1
            moves.append(f"{side.value[0]} {engine.format_action(action)}")
            state = engine.apply(state, side, action)
    return {"seed": seed, "winner": state.winner.value if state.winner else None,
            "rounds": state.round, "moves": moves, "hard_cpu": hard_cpu}


def _ms(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return (f"mean {1000 * statistics.fmean(times):6.1f}, median "
            f"{1000 * statistics.median(times):6.1f}, 95th pct {1000 * p95:7.1f}, worst "
            f"{1000 * times[-1]:7.1f} ms")


def against(root: str, args: argparse.Namespace, seeds: list[int]) -> int:
    """Every game with the old code (``root``) and with this checkout's, alternately."""
    results: dict[str, list[dict]] = {"old": [], "new": []}
    common = ["--side", args.side, "--iterations", str(args.iterations),
              "--max-rounds", str(args.max_rounds), "--games", "1"]
    with tempfile.TemporaryDirectory() as tmp:
        for k, seed in enumerate(seeds):
            for name, code in (("old", root), ("new", HERE)):
                out = os.path.join(tmp, f"{name}{seed}.jsonl")
                first = seed - (0 if args.side == "raptor" else 1)
                subprocess.run([sys.executable, os.path.abspath(__file__), "--root", code,
                                "--first-seed", str(first), "--out", out, *common],
                               check=True, stdout=subprocess.DEVNULL)
                with open(out) as f:
                    results[name].append(json.loads(f.readline()))
            old, new = results["old"][-1], results["new"][-1]
            print(f"  game {k + 1}/{len(seeds)} seed {seed}: {len(old['moves'])} moves, "
                  f"hard CPU {sum(old['hard_cpu']):.1f} s old, {sum(new['hard_cpu']):.1f} s "
                  f"new, same moves: {old['moves'] == new['moves']}", flush=True)
    totals = {}
    for name, code in (("old", root), ("new", HERE)):
        times = [t for game in results[name] for t in game["hard_cpu"]]
        totals[name] = sum(times)
        print(f"{name} ({os.path.abspath(code)}): {len(times)} hard decisions, CPU {_ms(times)}")
    print(f"hard CPU in all: old {totals['old']:.1f} s, new {totals['new']:.1f} s: "
          f"old / new = {totals['old'] / max(totals['new'], 1e-9):.2f}")
    same = sum(o["moves"] == n["moves"] for o, n in zip(results["old"], results["new"],
                                                          strict=True))
    print(f"games with identical moves: {same} of {len(seeds)}")
    return 0 if same == len(seeds) else 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--side", default="raptor", choices=("raptor", "scientist"),
                    help="the side the hard level plays (raptor)")
    ap.add_argument("--iterations", type=int, default=160, help="hard level's fixed playouts")
    ap.add_argument("--max-rounds", type=int, default=300)
    ap.add_argument("--out", help="write one JSON line per game to this file")
    ap.add_argument("--against", metavar="ROOT", help="old (ROOT) and new side by side")
    ap.add_argument("--root", help="import bot and engine from this checkout")
    args = ap.parse_args()
    if args.games < 1 or args.iterations < 1:
        ap.error("--games and --iterations must be at least 1")
    hard_side = Side(args.side)
    offset = 0 if hard_side is Side.RAPTOR else 1
    seeds = [args.first_seed + 2 * i + offset for i in range(args.games)]
    if args.against:
        sys.exit(against(args.against, args, seeds))
    out = open(args.out, "w") if args.out else None  # noqa: SIM115 - closed below
    try:
        for seed in seeds:
            game = play(seed, hard_side, args.iterations, args.max_rounds)
            if out:
                out.write(json.dumps(game) + "\n")
                out.flush()
            print(f"seed {seed}: {game['winner']} after {game['rounds']} rounds, "
                  f"{len(game['hard_cpu'])} hard decisions, CPU {_ms(game['hard_cpu'])}")
    finally:
        if out:
            out.close()


if __name__ == "__main__":
    main()
