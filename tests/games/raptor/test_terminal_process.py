"""Terminal mode as a process (``python -m bot play``): how it stops."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]


def start_play(tmp_path: Path, *args: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--seed", "3", "--out", str(tmp_path / "pc"),
         *args],
        cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)


def read_until(proc: subprocess.Popen[bytes], marker: bytes, timeout: float = 60) -> bytes:
    """Read the process's stdout until ``marker`` appears (the prompt has no line break)."""
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        assert time.monotonic() < deadline, seen[-500:]
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, seen[-500:]  # the process ended before prompting
        seen += chunk
    return seen


def test_ctrl_c_at_the_prompt_with_piped_input_exits_130_without_a_fatal_error(tmp_path):
    proc = start_play(tmp_path)
    try:
        read_until(proc, b"raptor> ")
        time.sleep(0.3)  # the input thread is now blocked reading the (open, silent) pipe
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)  # stdin stays open: closing it would end the blocked read
        assert proc.stderr is not None
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    text = err.decode()
    assert proc.returncode == 130, text
    assert "Stopped." in text
    assert "Fatal Python error" not in text and "Traceback" not in text


def test_raw_lines_split_a_pipe_into_lines_and_end_with_eof():
    import pytest

    from bot.offline.console import RawLines

    r, w = os.pipe()
    os.write(w, "G2-G5\r\n?\n\nplay 5 é".encode())
    os.close(w)
    lines = RawLines(r)
    try:
        assert [lines.readline() for _ in range(4)] == ["G2-G5", "?", "", "play 5 é"]
        with pytest.raises(EOFError):
            lines.readline()
    finally:
        os.close(r)


def test_ctrl_c_landing_on_another_thread_still_stops_at_once(tmp_path):
    """SIGINT is delivered to any thread of the process; when it lands on a thread blocked in
    a read (the terminal's input thread) rather than on the main thread, the event loop
    must still wake up and stop (it once waited for the next line)."""
    import asyncio
    import threading

    from bot.offline.common import run_offline

    r, w = os.pipe()
    blocked = threading.Event()

    async def main() -> bytes:
        loop = asyncio.get_running_loop()
        line: asyncio.Future[bytes] = loop.create_future()

        def read() -> None:
            blocked.set()
            data = os.read(r, 1)  # an interrupted read is retried (PEP 475): still blocked
            try:
                loop.call_soon_threadsafe(line.set_result, data)
            except RuntimeError:  # the loop is closed: the program has stopped
                pass

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        blocked.wait()
        threading.Timer(0.2, signal.pthread_kill, (reader.ident, signal.SIGINT)).start()
        return await line

    unblock = threading.Timer(10, os.write, (w, b"x"))  # what the loop would wait for
    unblock.start()
    started = time.monotonic()
    try:
        status = run_offline(main(), command="test", out=tmp_path, busy="")
        elapsed = time.monotonic() - started
    finally:
        unblock.cancel()
        os.write(w, b"x")  # let the reader thread end
        time.sleep(0.05)
        os.close(w)
        os.close(r)
    assert status == 130
    assert elapsed < 5, f"stopped only after {elapsed:.1f} s"


def _stop_at_the_prompt(tmp_path: Path, signum: int) -> tuple[int, str, str]:
    proc = start_play(tmp_path)
    try:
        read_until(proc, b"raptor> ")
        time.sleep(0.3)
        proc.send_signal(signum)
        proc.wait(timeout=30)
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    return proc.returncode, out.decode(), err.decode()


def test_a_stop_at_the_prompt_starts_its_lines_on_a_new_line(tmp_path):
    status, out, err = _stop_at_the_prompt(tmp_path, signal.SIGINT)
    assert status == 130, err
    assert out.startswith("\nBoard image: "), out  # not "raptor> Board image: ..."
    assert "python -m bot play --seed 3" in out


def test_sigterm_at_the_prompt_stops_as_ctrl_c_does(tmp_path):
    status, out, err = _stop_at_the_prompt(tmp_path, signal.SIGTERM)
    assert status == 143, err
    assert out.startswith("\nBoard image: "), out
    assert "python -m bot play --seed 3" in out
    assert err == "\nStopped.\n"


def test_sigterm_stops_the_demo_as_ctrl_c_does(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "demo", "--out", str(tmp_path / "d"), "--level", "hard",
         "--budget", "2"], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        read_until(proc, b"\n")  # the demo is under way
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        err = proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == 143, err
    assert err == "\nStopped.\n"


def test_a_stopped_match_ends_as_stopped_and_python_m_bot_replay_shows_it(tmp_path, capsys):
    """Ctrl-C ends the terminal's match (it cannot be resumed: the next `play` starts a new
    one) without a result, reason "stopped"; `python -m bot replay` writes it, its record
    and its last frame saying so, instead of calling it "still being played" forever."""
    import asyncio

    import engine
    from bot.games.raptor import sides as rs
    from bot.games.raptor.replays import replay_views
    from bot.match import MatchService
    from bot.offline.replay import main as replay_main
    from bot.storage.db import SqliteDatabase
    from render import render_board
    from render.replay import render_replay

    status, out, err = _stop_at_the_prompt(tmp_path, signal.SIGINT)
    assert status == 130, err
    db_path = tmp_path / "pc" / "play.sqlite3"

    async def stored():
        db = await SqliteDatabase.open(db_path)
        try:
            service = MatchService(db)
            m = await service.get_match(1)
            return m, await replay_views(service, m)
        finally:
            await db.close()

    m, (views, verdict, winner) = asyncio.run(stored())
    assert (m.active, rs.result(m), m.reason) == (False, None, "stopped")
    assert (verdict, winner) == ("No result: the player stopped the match", None)
    assert replay_main(["--db", str(db_path), "--out", str(tmp_path / "r")]) == 0
    assert "Wrote " in capsys.readouterr().out
    record = engine.read_record((tmp_path / "r" / "match-1.txt").read_text(encoding="utf-8"))
    assert (record.header["Result"], record.header["Reason"]) == ("none", "stopped")
    gif = (tmp_path / "r" / "match-1.gif").read_bytes()
    assert gif == render_replay(views, verdict=verdict).data
    # the board image left behind carries the same banner
    assert (tmp_path / "pc" / "board.png").read_bytes() == render_board(
        engine.view(m.state, None), verdict=verdict)
