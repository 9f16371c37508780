"""The render pool's workers (render/pool.py) leave by themselves when the process that
made the pool is killed outright and cannot shut them down."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from render.pool import _alive

ROOT = Path(__file__).resolve().parents[2]

OWNER = """
import os, sys, time
from render.pool import render_executor
if __name__ == "__main__":
    pool = render_executor(2)
    workers = {pool.submit(os.getpid).result() for _ in range(6)}
    print(" ".join(map(str, sorted(workers))), flush=True)
    time.sleep(120)
"""


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    end = time.monotonic() + seconds
    left = [p for p in pids if _alive(p)]
    while left and time.monotonic() < end:
        time.sleep(0.1)
        left = [p for p in left if _alive(p)]
    return left


def test_workers_leave_when_their_owner_is_killed(tmp_path):
    script = tmp_path / "owner.py"
    script.write_text(OWNER)
    owner = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        workers = [int(p) for p in owner.stdout.readline().split()]
        assert workers and owner.pid not in workers
        assert all(_alive(p) for p in workers)
        owner.send_signal(signal.SIGKILL)
        # no wait() yet: the killed owner stays a zombie, which counts as gone
        assert _wait_gone(workers, 30) == []
    finally:
        owner.kill()
        owner.wait()


def test_alive_tells_a_running_process_from_a_finished_one():
    assert _alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert not _alive(child.pid)
