"""``python -m bot backup FILE``: a consistent copy of the live database with SQLite's backup
API, safe while the bot writes; clear refusals (exit 2, one line) that write nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

from bot.__main__ import main
from bot.storage.schema import SCHEMA_VERSION
from tests.ops.conftest import fill

TABLES = ("matches", "match_log", "results", "guild_settings", "challenges")


def backup(capsys, target: Path) -> tuple[int, list[str], list[str]]:  # noqa: ANN001
    status = main(["backup", str(target)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def rows(path: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()
                for t in TABLES if t != "match_log"} | {
            "match_log": conn.execute("SELECT * FROM match_log ORDER BY match_id, seq")
            .fetchall()}
    finally:
        conn.close()


def test_the_copy_holds_the_database(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    target = deployment / "backups" / "raptor-1.sqlite3"
    target.parent.mkdir()
    status, out, err = backup(capsys, target)
    assert (status, err) == (0, [])
    assert out == [f"Backed up {db_path} to {target}: {target.stat().st_size:,} bytes, schema "
                   f"version {SCHEMA_VERSION}, 2 matches; integrity check ok."]
    assert rows(target) == rows(db_path)
    assert len(rows(target)["match_log"]) == 2
    conn = sqlite3.connect(target)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    finally:
        conn.close()
    assert sorted(p.name for p in target.parent.iterdir()) == ["raptor-1.sqlite3"]


def test_an_empty_file_name_is_refused(deployment, monkeypatch, capsys):
    asyncio.run(fill(deployment / "raptor.sqlite3"))
    monkeypatch.chdir(deployment)
    monkeypatch.setenv("RAPTOR_DB_PATH", "raptor.sqlite3")
    status = main(["backup", ""])
    out, err = (part.splitlines() for part in capsys.readouterr())
    assert (status, out) == (2, [])
    assert err == ["python -m bot backup: the backup's file name is empty: give one, e.g. "
                   "raptor-backup.sqlite3"]
    assert sorted(p.name for p in deployment.iterdir()) == ["raptor.sqlite3"]


def test_a_relative_database_path_is_backed_up(deployment, monkeypatch, capsys):
    """RAPTOR_DB_PATH=raptor.sqlite3 relative to the working directory, the usual set-up."""
    asyncio.run(fill(deployment / "raptor.sqlite3"))
    monkeypatch.chdir(deployment)
    monkeypatch.setenv("RAPTOR_DB_PATH", "raptor.sqlite3")
    status, out, err = backup(capsys, Path("copy.sqlite3"))
    assert (status, err) == (0, [])
    assert out[0].startswith(f"Backed up {deployment / 'raptor.sqlite3'} to "
                             f"{deployment / 'copy.sqlite3'}: ")
    assert rows(deployment / "copy.sqlite3") == rows(deployment / "raptor.sqlite3")


def test_a_backup_while_a_writer_is_writing_is_consistent(deployment, monkeypatch, capsys):
    """A writer commits transactions of two rows each (the pair must stay together) all the
    time the backup runs; the copy is one instant of the database: whole pairs only."""
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE ballast (id INTEGER PRIMARY KEY, blob BLOB)")
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO ballast (blob) VALUES (randomblob(4000))",
                     [()] * 6000)  # ~24 MB: the copy takes a while
    conn.execute("COMMIT")
    conn.close()

    stop = threading.Event()
    commits: list[float] = []

    def write() -> None:
        w = sqlite3.connect(db_path, isolation_level=None, timeout=5)
        w.execute("PRAGMA busy_timeout = 5000")
        n = 0
        while not stop.is_set():
            n += 1
            w.execute("BEGIN IMMEDIATE")
            w.execute("INSERT INTO user_settings (user_id, key, value, updated_at) "
                      "VALUES (?, 'a', '1', 0)", (n,))
            w.execute("INSERT INTO user_settings (user_id, key, value, updated_at) "
                      "VALUES (?, 'b', '1', 0)", (n,))
            w.execute("COMMIT")
            commits.append(time.monotonic())
        w.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while len(commits) < 20:
            time.sleep(0.01)
        monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
        target = deployment / "copy.sqlite3"
        began = time.monotonic()
        status, out, err = backup(capsys, target)
        ended = time.monotonic()
    finally:
        stop.set()
        writer.join()
    assert (status, err) == (0, []), err
    assert out[0].startswith(f"Backed up {db_path} to {target}: ")
    assert any(began < t < ended for t in commits), "the writer did not write meanwhile"

    copy = sqlite3.connect(target)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        a, b = (copy.execute("SELECT COUNT(*) FROM user_settings WHERE key = ?",
                             (k,)).fetchone()[0] for k in "ab")
        assert a == b >= 20
        assert copy.execute("SELECT COUNT(*) FROM ballast").fetchone() == (6000,)
    finally:
        copy.close()
    assert a < len(commits)  # the copy is an earlier instant than the writer's end


def test_an_existing_file_is_never_overwritten(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    target = deployment / "precious.sqlite3"
    target.write_bytes(b"keep me")
    status, out, err = backup(capsys, target)
    assert (status, out) == (2, [])
    assert err == [f"python -m bot backup: {target} already exists: give a new file name "
                   "(nothing was overwritten)"]
    assert target.read_bytes() == b"keep me"
    # the database itself is an existing file too
    status, _, err = backup(capsys, db_path)
    assert status == 2 and err == [f"python -m bot backup: {db_path} already exists: give a "
                                   "new file name (nothing was overwritten)"]


def test_refusals_name_the_problem_and_write_nothing(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    before = sorted(p.name for p in deployment.iterdir())

    missing = deployment / "nowhere" / "b.sqlite3"
    status, out, err = backup(capsys, missing)
    assert (status, out, err) == (2, [], [f"python -m bot backup: the folder "
                                          f"{missing.parent} does not exist: create it first"])

    status, out, err = backup(capsys, deployment)
    assert (status, out, err) == (2, [], [
        f"python -m bot backup: {deployment} is a folder: give the backup's file name, e.g. "
        f"{deployment / 'raptor-backup.sqlite3'}"])
    assert sorted(p.name for p in deployment.iterdir()) == before

    absent = deployment / "absent.sqlite3"
    monkeypatch.setenv("RAPTOR_DB_PATH", str(absent))
    status, out, err = backup(capsys, deployment / "b.sqlite3")
    assert (status, out) == (2, [])
    assert err == [f"python -m bot backup: there is no database at RAPTOR_DB_PATH={absent}: "
                   "nothing to back up (is the volume mounted, is this the bot's working "
                   "directory?)"]
    assert not absent.exists() and not (deployment / "b.sqlite3").exists()

    monkeypatch.setenv("RAPTOR_DB_PATH", str(deployment / "garbage.sqlite3"))
    (deployment / "garbage.sqlite3").write_bytes(b"not a database at all" * 200)
    status, out, err = backup(capsys, deployment / "c.sqlite3")
    assert (status, out) == (2, [])
    assert len(err) == 1 and "file is not a database" in err[0], err
    assert sorted(p.name for p in deployment.iterdir()) == sorted([*before, "garbage.sqlite3"])
