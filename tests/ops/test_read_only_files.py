"""Operator commands on files this user may not write (``bot.check``, ``bot.backup``,
``bot.offline.replay``, ``bot.db``'s read-only opening): ``python -m bot check`` (and the bot)
say the bot could not write, naming the file or folder at fault; ``replay`` and ``backup`` only
read, so a read-only database in a read-only folder is fine and nothing is created beside it.

The permission cases need a user that chmod binds: root writes a 0444 file in a 0555 folder
anyway, so they are skipped under root; run them as an unprivileged user (see README.md).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import engine
from bot.__main__ import main
from bot.db import SCHEMA_VERSION, Database
from bot.match import MatchService
from engine import Side
from tests.ops.conftest import fill
from tests.ops.test_backup import rows

unprivileged = pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="root may write read-only files and folders (chmod does not bind it): run as an "
           "unprivileged user")


def user_name() -> str:
    """This process's user, as the messages name it."""
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


def run(capsys, *argv: str) -> tuple[int, list[str], list[str]]:  # noqa: ANN001
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


@contextmanager
def read_only(*paths: Path, mode: int | None = None) -> Iterator[None]:
    """Files 0444 and folders 0555 (or ``mode``) inside the block, as they were after it."""
    before = {p: stat.S_IMODE(p.stat().st_mode) for p in paths}
    for p in paths:
        p.chmod(mode if mode is not None else 0o555 if p.is_dir() else 0o444)
    try:
        yield
    finally:
        for p in reversed(paths):
            p.chmod(before[p])


def files(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder`` with its bytes: a -wal/-shm created or a byte written shows."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


async def one_round_played(db_path: Path) -> int:
    """A practice match resigned after its first round (so it has a replay); its number."""
    db = await Database.open(db_path)
    try:
        service = MatchService(db)
        m = await service.start_practice(1, 11, 1001, side=Side.RAPTOR, level="easy",
                                         ai_user_id=900, seed=4)
        while (m := await service.get_match(m.id)).state.round == 1:
            if Side.RAPTOR in m.waiting_for():
                await service.act(m.id, 1001, engine.legal_actions(m.state, Side.RAPTOR)[0])
            await service.play_ai(m.id)
        await service.resign(m.id, 1001)
        return m.id
    finally:
        await db.close()


def could_not_write(db_path: Path, faults: str) -> str:
    return (f"the bot could not write its database RAPTOR_DB_PATH={db_path}: {faults} "
            f"read-only for the user {user_name()}. The bot writes that file and creates its "
            "-wal and -shm files beside it: give the bot's user write access to both (chown or "
            "chmod), or run the bot as their owner")


# ----------------------------------------------------------------------------- check
@unprivileged
def test_check_says_a_read_only_database_could_not_be_written(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    before = files(deployment)
    with read_only(db_path):
        status, out, err = run(capsys, "check")
        assert (status, out) == (2, [])
        assert err == [f"python -m bot check: {could_not_write(db_path, f'the file {db_path} is')}"]
        assert files(deployment) == before         # no -wal or -shm made, nothing written
        # the bot itself refuses to start with the same sentence, before any connection
        status, out, err = run(capsys)
        assert (status, out) == (2, [])
        assert err == [f"python -m bot: {could_not_write(db_path, f'the file {db_path} is')}"]


@unprivileged
@pytest.mark.parametrize("file_too", [False, True], ids=["folder", "file and folder"])
def test_check_says_a_database_in_a_read_only_folder_could_not_be_written(
        deployment, monkeypatch, capsys, file_too):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    before = files(deployment)
    with read_only(*([db_path] if file_too else []), deployment):
        status, out, err = run(capsys, "check")
    faults = (f"the file {db_path} and the folder {deployment} are" if file_too
              else f"the folder {deployment} is")
    assert (status, out) == (2, [])
    assert err == [f"python -m bot check: {could_not_write(db_path, faults)}"]
    assert files(deployment) == before


@unprivileged
def test_check_names_a_write_ahead_log_it_could_not_write(deployment, monkeypatch, capsys):
    """A bot (another user's) has the database open: its -wal and -shm are not ours to write."""
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    holder = sqlite3.connect(db_path)
    try:
        holder.execute("PRAGMA wal_autocheckpoint = 0")  # its commits stay in the -wal
        holder.execute("CREATE TABLE pad (x)")
        holder.commit()
        wal, shm = (deployment / "raptor.sqlite3-wal", deployment / "raptor.sqlite3-shm")
        with read_only(wal, shm):
            status, out, err = run(capsys, "check")
    finally:
        holder.close()
    assert (status, out) == (2, [])
    assert err == [f"python -m bot check: "
                   f"{could_not_write(db_path, f'the file {wal} and the file {shm} are')}"]


@unprivileged
def test_check_says_a_database_it_cannot_read(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    with read_only(db_path, mode=0):
        status, out, err = run(capsys, "check")
    assert (status, out) == (2, [])
    assert err == [f"python -m bot check: cannot read the database RAPTOR_DB_PATH={db_path}: "
                   f"the file {db_path} cannot be read by the user {user_name()}: give the "
                   "bot's user access (chown or chmod), or run the bot as the owner"]


# ----------------------------------------------------------------------------- replay
def _replayed(capsys, db_path: Path, out_dir: Path, number: int) -> None:  # noqa: ANN001
    status, out, err = run(capsys, "replay", "--db", str(db_path), "--out", str(out_dir))
    assert (status, err) == (0, [])
    assert out == [f"Wrote {out_dir / f'match-{number}.txt'} (the match record) and "
                   f"{out_dir / f'match-{number}.gif'} (its animation)."]
    record = engine.read_record((out_dir / f"match-{number}.txt").read_text(encoding="utf-8"))
    assert (record.result, record.reason, record.rounds) == ("scientist", "resigned", 1)


@unprivileged
@pytest.mark.parametrize("folder_too", [False, True], ids=["file", "file and folder"])
def test_replay_reads_a_read_only_database(tmp_path, capsys, folder_too):
    data = tmp_path / "data"
    data.mkdir()
    db_path = data / "raptor.sqlite3"
    number = asyncio.run(one_round_played(db_path))
    before = files(data)
    with read_only(db_path, *([data] if folder_too else [])):
        _replayed(capsys, db_path, tmp_path / "out", number)
        assert files(data) == before                 # no -wal or -shm beside it


def _as_schema_7(db_path: Path) -> None:
    """Take migration 8 back out of the file: an older bot's database."""
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("DROP INDEX matches_end_unannounced")
        conn.execute("ALTER TABLE matches DROP COLUMN end_announced_at")
        conn.execute("PRAGMA user_version = 7")
        conn.commit()
    finally:
        conn.close()


def test_replay_leaves_an_older_database_as_it_was(tmp_path, capsys):
    """An export never migrates the file it reads: it migrates a copy in memory."""
    data = tmp_path / "data"
    data.mkdir()
    db_path = data / "raptor.sqlite3"
    number = asyncio.run(one_round_played(db_path))
    _as_schema_7(db_path)
    before = files(data)
    _replayed(capsys, db_path, tmp_path / "out", number)
    assert files(data) == before                     # same bytes, no -wal or -shm
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone() == (7,)
    conn.close()
    assert SCHEMA_VERSION > 7


def test_replay_reads_what_is_still_in_the_write_ahead_log(tmp_path, capsys):
    """A bot has the database open and its commits are in the -wal only: they are read."""
    data = tmp_path / "data"
    data.mkdir()
    db_path = data / "raptor.sqlite3"
    holder = sqlite3.connect(db_path)  # open before the bot: its close checkpoints nothing
    try:
        holder.execute("PRAGMA journal_mode = WAL")
        holder.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()  # joins the -wal
        number = asyncio.run(one_round_played(db_path))
        wal = data / "raptor.sqlite3-wal"
        assert wal.stat().st_size > 0
        alone = sqlite3.connect(f"{db_path.as_uri()}?mode=ro&immutable=1", uri=True)
        with pytest.raises(sqlite3.OperationalError, match="no such table: matches"):
            alone.execute("SELECT COUNT(*) FROM matches")  # the file alone has no match yet
        alone.close()
        before = files(data)
        _replayed(capsys, db_path, tmp_path / "out", number)
        assert sorted(files(data)) == sorted(before)  # nothing created beside it
    finally:
        holder.close()


# ----------------------------------------------------------------------------- backup
@unprivileged
def test_backup_into_a_read_only_folder_names_that_folder(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    folder = deployment / "backups"
    folder.mkdir()
    target = folder / "raptor-1.sqlite3"
    with read_only(folder):
        status, out, err = run(capsys, "backup", str(target))
    assert (status, out) == (2, [])
    assert err == [f"python -m bot backup: cannot write the backup {target}: the folder "
                   f"{folder} is read-only for the user {user_name()} (nothing was written)"]
    assert list(folder.iterdir()) == []


@unprivileged
def test_backup_reads_a_read_only_database_in_a_read_only_folder(deployment, monkeypatch,
                                                                capsys, tmp_path):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    target = tmp_path / "raptor-1.sqlite3"
    before = files(deployment)
    with read_only(db_path, deployment):
        status, out, err = run(capsys, "backup", str(target))
        assert files(deployment) == before           # no -wal or -shm beside it
    assert (status, err) == (0, [])
    assert out == [f"Backed up {db_path} to {target}: {target.stat().st_size:,} bytes, schema "
                   f"version {SCHEMA_VERSION}, 2 matches; integrity check ok."]
    assert rows(target) == rows(db_path)


@unprivileged
def test_backup_of_a_database_it_cannot_read_names_the_file(deployment, monkeypatch, capsys,
                                                           tmp_path):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    target = tmp_path / "raptor-1.sqlite3"
    with read_only(db_path, mode=0):
        status, out, err = run(capsys, "backup", str(target))
    assert (status, out) == (2, [])
    assert err == [f"python -m bot backup: cannot read the database RAPTOR_DB_PATH={db_path}: "
                   f"the file {db_path} cannot be read by the user {user_name()} (nothing was "
                   "written)"]
    assert not target.exists()


def test_backup_of_a_file_that_is_not_sqlite_says_so_and_names_it(deployment, monkeypatch,
                                                                 capsys, tmp_path):
    garbage = deployment / "raptor.sqlite3"
    garbage.write_bytes(b"not a database at all" * 200)
    monkeypatch.setenv("RAPTOR_DB_PATH", str(garbage))
    target = tmp_path / "raptor-1.sqlite3"
    status, out, err = run(capsys, "backup", str(target))
    assert (status, out) == (2, [])
    assert err == [f"python -m bot backup: cannot read the database RAPTOR_DB_PATH={garbage}: it "
                   "is not a SQLite database (file is not a database) (nothing was written)"]
    assert not target.exists() and sorted(p.name for p in deployment.iterdir()) == [
        "raptor.sqlite3"]
