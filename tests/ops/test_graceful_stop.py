"""SIGTERM (or SIGINT) to a real ``python -m bot`` mid-match: it stops within 10 s, exits 0, and the
database is whole with nothing lost (``bot.discord.shutdown``).

The bot runs in a child process through ``tests/ops/fake_discord_bot.py`` (the real entry point,
with discord.py's gateway connection replaced by the fake Discord inside that process: see its
docstring for why), while alice and bob play. The sixth decision's save is held until the stop
begins, then takes one second more: the signal always lands while a write is in flight.
"""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.match import MatchService
from bot.storage.db import SqliteDatabase
from tests.ops.fake_discord_bot import SLOW_SAVE

REPO_ROOT = Path(__file__).resolve().parents[2]
STOP_LIMIT = 10.0  # seconds: the bot's promised stop time (bot.discord.shutdown.STOP_SECONDS)


class Lines:
    """A pipe read line by line in a thread (so that waiting for a line can time out)."""

    def __init__(self, pipe) -> None:  # noqa: ANN001
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._read, args=(pipe,), daemon=True)
        self._thread.start()

    def _read(self, pipe) -> None:  # noqa: ANN001
        for raw in pipe:
            self._queue.put(raw.decode(errors="replace").rstrip("\n"))
        self._queue.put(None)

    def wait_for(self, test, timeout: float) -> str:  # noqa: ANN001
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; seen: {self.lines[-20:]}"
            line = self._queue.get(timeout=left)
            assert line is not None, f"the process ended; seen: {self.lines[-20:]}"
            self.lines.append(line)
            assert not line.startswith("PLAYERS failed"), line
            if test(line):
                return line

    def rest(self, timeout: float = 10.0) -> list[str]:
        self._thread.join(timeout)
        while not self._queue.empty():
            line = self._queue.get()
            if line is not None:
                self.lines.append(line)
        return self.lines


def stored(db_path: Path) -> tuple[list[tuple], list[tuple]]:
    """(matches, action log) rows as stored now, read through a connection of our own."""
    conn = sqlite3.connect(db_path)
    try:
        matches = conn.execute("SELECT id, status, version, log_length, state FROM matches "
                               "ORDER BY id").fetchall()
        log = conn.execute("SELECT match_id, seq, seat, kind, action, created_at "
                           "FROM match_log ORDER BY match_id, seq").fetchall()
    finally:
        conn.close()
    return matches, log


def processes_left(group: int, wait: float = 3.0) -> list[int]:
    """The processes of process group ``group`` still running after up to ``wait`` seconds
    (Linux /proc; the bot's render workers and their forkserver belong to its group)."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":  # pgrp; a zombie has ended
                found.append(int(entry.name))
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.1)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stop_signal_mid_match_exits_0_within_10_s_and_the_database_is_whole(tmp_path, sig):
    data = tmp_path / "data"
    data.mkdir()
    db_path = data / "raptor.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAPTOR_", "DISCORD_"))}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")])),
               DISCORD_TOKEN="fake-token", RAPTOR_DB_PATH=str(db_path),
               RAPTOR_LOG_LEVEL="INFO", FAKE_DISCORD_HOLD_SAVE="6")
    # its own process group: the render workers (children of a forkserver) are found by it
    proc = subprocess.Popen([sys.executable, "-m", "tests.ops.fake_discord_bot"], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    try:
        out.wait_for(lambda line: line.startswith("MATCH "), timeout=120)
        out.wait_for(lambda line: line == "DONE 5", timeout=120)  # into round 2
        out.wait_for(lambda line: line == "HOLDING", timeout=60)  # decision 6: save in flight
        matches_before, log_before = stored(db_path)
        began = time.monotonic()
        proc.send_signal(sig)
        status = proc.wait(timeout=30)
        took = time.monotonic() - began
        left = processes_left(proc.pid)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in processes_left(proc.pid, wait=0):
            os.kill(pid, signal.SIGKILL)
    stdout, stderr = out.rest(), err.rest()
    text = "\n".join(stderr)
    print(f"stopped {took:.2f} s after {sig.name} (the save in flight took {SLOW_SAVE} s of it)")

    assert status == 0, text
    assert SLOW_SAVE < took < STOP_LIMIT, (took, text)  # it waited for the save, not more
    assert left == [], f"processes of the bot still running after it exited: {left}"
    assert "Traceback" not in text and " ERROR " not in text, text
    assert any(f"{sig.name} received: stopping" in line for line in stderr), text
    assert any("database closed" in line for line in stderr), text
    # the decision whose save was in flight finished, and its messages were posted
    assert "DONE 6" in stdout, stdout[-10:]
    assert "SENT 7" not in stdout or "DONE 7" not in stdout  # nothing new was taken in

    # the database: closed cleanly (the last connection removes the WAL file), whole, and
    # holding everything stored before the signal plus the save that was in flight
    assert not Path(f"{db_path}-wal").exists()
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()
    matches_after, log_after = stored(db_path)
    assert len(matches_before) == len(matches_after) == 1
    (mid, status_before, version_before, length_before, _), = matches_before
    (_, status_after, version_after, length_after, _), = matches_after
    assert status_before == status_after == "active"
    assert (version_after, length_after) == (version_before + 1, length_before + 1)
    assert log_after[:len(log_before)] == log_before and len(log_after) == len(log_before) + 1

    async def replayed() -> bool:
        db = await SqliteDatabase.open(db_path)
        try:
            service = MatchService(db)
            match = await service.get_match(mid)
            return match.state == await service.replayed_state(mid)
        finally:
            await db.close()

    assert asyncio.run(replayed()), "the stored state is not its action log replayed"
