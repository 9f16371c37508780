"""A full disk (SQLite's "database or disk is full") ends the demo and the terminal mode with
one line and exit status 1, never a traceback or a hang."""

from __future__ import annotations

import threading

import pytest

import bot.games.raptor.terminal as terminal
import bot.storage.db as db_module
from bot.games.raptor.demo import main as demo_main


@pytest.fixture
def small_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every database opened from now on holds at most 12 pages more than after its
    migrations (SQLite's ``max_page_count``), and each action logged also stores an 8 KB
    ballast blob: a few actions into the match, a write fails with SQLite's own
    ``database or disk is full``."""
    real_open = db_module.SqliteDatabase.open.__func__

    async def capped_open(cls, path, **kwargs):
        db = await real_open(cls, path, **kwargs)
        w = db._writer
        await w.execute("CREATE TABLE ballast (b BLOB)")
        await w.execute("CREATE TRIGGER grow AFTER INSERT ON match_log BEGIN "
                        "INSERT INTO ballast VALUES (zeroblob(8192)); END")
        pages = next(iter(await w.execute_fetchall("PRAGMA page_count")))[0]
        await w.execute_fetchall(f"PRAGMA max_page_count = {pages + 12}")
        return db

    monkeypatch.setattr(db_module.SqliteDatabase, "open", classmethod(capped_open))


def _sqlite_threads() -> list[threading.Thread]:
    """Non-daemon threads still running 5 s after the command returned (a closed aiosqlite
    connection's thread ends just after ``close`` returns, not before: on a loaded machine
    it was once seen still alive at once)."""
    others = [t for t in threading.enumerate() if t is not threading.current_thread()
              and not t.daemon]
    for t in others:
        t.join(timeout=5)
    return [t for t in others if t.is_alive()]


def test_demo_on_a_full_disk_says_so_in_one_line(tmp_path, capsys, small_disk):
    status = demo_main(["--seed", "3", "--out", str(tmp_path / "d")])
    err = capsys.readouterr().err
    assert status == 1
    assert err.strip() == f"demo: cannot write to {tmp_path / 'd'}: database or disk is full"
    assert _sqlite_threads() == []  # nothing left running that would keep the process alive


def test_terminal_on_a_full_disk_says_so_in_one_line_and_returns(tmp_path, capsys, monkeypatch,
                                                                 small_disk):
    def typist(prompt: str) -> str:
        """'?' then the first legal action listed, so the match goes on until a write fails."""
        shown = capsys.readouterr().out
        listed = [ln for ln in shown.splitlines() if ln.startswith("  ")]
        return listed[0].split("  ")[1] if listed else "?"  # the first action listed

    monkeypatch.setattr(terminal, "stdin_read", typist)
    monkeypatch.setenv("COLUMNS", "1000")  # no wrapped line that would look like a listed one
    status = terminal.main(["--seed", "3", "--out", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert status == 1
    assert err.strip() == f"play: cannot write to {tmp_path / 'p'}: database or disk is full"
    assert _sqlite_threads() == []
