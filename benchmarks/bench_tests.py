"""The test suite's wall time: the README's command against the one-process run it replaced,
for the whole suite and per folder of ``tests/``.

Variants (each a fresh ``python -m pytest -q`` from the repository root):

* ``before`` — ``-n 0 -m "not slow"``: one process, the soak runs included (the README's
  command before the suite ran on several processes);
* ``after`` — no options: the README's command (workers and marks from pyproject's addopts);
* ``nN`` — ``-n N``: the README's command on N workers (``n3``, ``n4``: which is fastest);
  ``nNMODE`` also gives xdist's ``--dist MODE`` (``n2load``, ``n2loadfile``);
* ``soak`` — ``-m soak``: the second step of ``.ci/run``.

Runs are interleaved (every variant of a target, then the next target; ``--repeat`` rounds
of that), so that the variants see the same load; the load average before each run is
printed beside it, since the figures mean little on a busy machine. Each run's CPU time
(user + system, of every process it started: the workers, the bot processes some tests
start, the render workers of their forkservers) is printed too: it depends much less on
the load than the wall time (on Linux this script adopts the run's orphaned processes,
``PR_SET_CHILD_SUBREAPER``, to count them). With ``RAPTOR_TEST_DATABASE_URL`` set
(``tests/pg_server.sh``) the PostgreSQL cases run too (the server's own CPU time is not
counted).
Run by hand::

    .venv/bin/python benchmarks/bench_tests.py [--variants before,after] [--repeat 1]
        [--targets all,dirs] [--quiet-load 1.0]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = {"before": ["-n", "0", "-m", "not slow"], "after": [], "soak": ["-m", "soak"]}
SUMMARY = re.compile(r"^=*\s*(\d+ (passed|failed).*) in [\d.]+s", re.M)


def options(variant: str) -> list[str]:
    if variant in VARIANTS:
        return VARIANTS[variant]
    found = re.fullmatch(r"n(\d+)(load|loadfile|loadscope|worksteal)?", variant)
    if found:
        return ["-n", found[1]] + (["--dist", found[2]] if found[2] else [])
    raise SystemExit(f"unknown variant {variant!r}: before, after, soak, nN or nNMODE")


def targets(which: list[str]) -> dict[str, list[str]]:
    """Name -> pytest arguments: ``all`` (the whole suite), ``dirs`` (each folder of tests/
    with tests, and ``tests/*.py`` for the files at its top)."""
    out: dict[str, list[str]] = {}
    if "all" in which:
        out["tests"] = []
    if "dirs" in which:
        for d in sorted(p for p in (ROOT / "tests").iterdir() if p.is_dir()):
            if any(d.glob("test_*.py")):
                out[f"tests/{d.name}"] = [f"tests/{d.name}"]
        out["tests/*.py"] = sorted(f"tests/{p.name}" for p in (ROOT / "tests").glob("test_*.py"))
    return out


def adopt_orphans() -> bool:
    """Make this process the "subreaper" of its descendants (Linux): a process whose parent
    ended (a render worker of a forkserver) is then this one's child, and its CPU time is
    counted in ``RUSAGE_CHILDREN`` once reaped (:func:`reap`). False where unsupported."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap(grace: float = 10.0) -> None:
    """Wait for the adopted processes still running (they leave within seconds of their
    owner, render/pool.py), at most ``grace`` seconds."""
    end = time.monotonic() + grace
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.1)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(args: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, pytest's summary line) of one run."""
    cpu0 = children_cpu()
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *args], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    reap()
    found = SUMMARY.findall(done.stdout)
    summary = found[-1][0] if found else f"exit {done.returncode}"
    if done.returncode not in (0, 5):
        summary += f" (exit {done.returncode})"
    return seconds, children_cpu() - cpu0, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="before,after",
                        help="comma-separated: before, after, soak, nN (default before,after)")
    parser.add_argument("--targets", default="all,dirs",
                        help="comma-separated: all, dirs (default both)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of runs (default 1)")
    parser.add_argument("--quiet-load", type=float, default=None, metavar="L",
                        help="before each run, wait until the 1-minute load average is below L")
    ns = parser.parse_args(argv)
    variants = ns.variants.split(",")
    for v in variants:
        options(v)
    chosen = targets(ns.targets.split(","))
    adopted = adopt_orphans()
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, PostgreSQL cases "
          f"{'on' if os.environ.get('RAPTOR_TEST_DATABASE_URL') else 'skipped'}, "
          f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}"
          f"{'' if adopted else ', orphans not counted'}")
    times: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    for r in range(ns.repeat):
        for name, args in chosen.items():
            for v in variants:
                while ns.quiet_load is not None and os.getloadavg()[0] >= ns.quiet_load:
                    time.sleep(5)
                load = os.getloadavg()[0]
                seconds, cpu, summary = run(options(v) + args)
                times.setdefault((name, v), []).append(seconds)
                cpus.setdefault((name, v), []).append(cpu)
                print(f"round {r + 1} {name:16} {v:10} {seconds:7.1f} s  CPU {cpu:6.1f} s  "
                      f"load {load:4.1f} -> {os.getloadavg()[0]:4.1f}  {summary}", flush=True)
    for title, figures in (("wall", times), ("CPU", cpus)):
        print(f"\nmedian {title} seconds")
        print(f"{'target':16} " + " ".join(f"{v:>10}" for v in variants))
        for name in chosen:
            print(f"{name:16} " + " ".join(f"{statistics.median(figures[name, v]):10.1f}"
                                           for v in variants))
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
