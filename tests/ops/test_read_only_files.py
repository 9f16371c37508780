"""Operator commands on files this user may not write (``bot.check``, ``bot.backup``,
``bot.offline.replay``, ``bot.db``'s read-only opening): ``python -m bot check`` (and the bot)
say the bot could not write, naming the file or folder at fault; ``replay`` and ``backup`` only
read, so a read-only database in a read-only folder is fine and nothing is created beside it.

The permission cases need a user that chmod binds. Root writes a 0444 file in a 0555 folder
anyway, so under root (as CI runs) each of their commands runs in a forked child process that
drops to the user ``nobody`` first (:class:`Unprivileged`); as any other user they run in this
process.
"""

from __future__ import annotations

import asyncio
import grp
import io
import json
import os
import pwd
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

import bot.offline.replay  # noqa: F401

# The commands' modules, loaded here since a child dropped to ``nobody`` may not be able to
# read the virtualenv or the checkout to import them (``bot.__main__`` imports them lazily,
# Pillow its image plugins, GIF and PNG among them, when it first encodes: ``Image.init``).
import bot.ops.backup  # noqa: F401
import bot.ops.check  # noqa: F401
import engine
from bot.__main__ import main
from bot.games.raptor import sides as rs
from bot.match import MatchService
from bot.storage.db import SqliteDatabase
from bot.storage.schema import SCHEMA_VERSION
from engine import Side
from tests.ops.conftest import fill
from tests.ops.test_backup import rows

Image.init()

CHILD_SECONDS = 120
"""A command's child process is ended by SIGALRM after this long (one takes well under 1 s)."""

Outcome = tuple[int, list[str], list[str]]
"""A command's exit status and its stdout and stderr lines."""


def run(*argv: str) -> Outcome:
    """``python -m bot ARGV`` in this process, as this process's user."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue().splitlines(), err.getvalue().splitlines()


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """This test's folder (and ``deployment``'s, which builds on it): a fresh one in the
    temporary folder that every user may enter (0755), where pytest's own is inside
    ``/tmp/pytest-of-USER`` (0700), closed to the user ``nobody``; removed after the test."""
    folder = Path(tempfile.mkdtemp(prefix="raptor-read-only-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


@dataclass(frozen=True)
class Unprivileged:
    """Runs ``python -m bot ARGV`` as a user that chmod binds, called ``name`` (as the messages
    name it).

    ``uid`` None: this process's own user, in this process. Otherwise (this process is root)
    in a child forked from this process, which drops to ``uid``/``gid`` with no supplementary
    group before anything else; every file and folder under ``home`` is first given to that
    user, as a deployment's data belongs to the bot's user, so only the modes the test sets
    stop it. The child sends its status and output back through a pipe and ends with
    ``os._exit``: nothing of pytest runs in it. It imports nothing new (see the imports
    above) and opens its own connections under a fresh event loop (the commands'
    ``asyncio.run``; aiosqlite's threads do not survive a fork), so it must be forked outside
    a running loop: these tests are not coroutines.
    """

    name: str
    home: Path
    uid: int | None = None
    gid: int | None = None

    def run(self, *argv: str) -> Outcome:
        return run(*argv) if self.uid is None else self._in_child(argv)

    def _in_child(self, argv: tuple[str, ...]) -> Outcome:
        assert self.uid is not None and self.gid is not None
        for folder, names, file_names in os.walk(self.home):
            for path in (folder, *(os.path.join(folder, n) for n in names + file_names)):
                os.lchown(path, self.uid, self.gid)
        reading, writing = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: it never returns into pytest
            code = 1
            try:
                os.close(reading)
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                signal.alarm(CHILD_SECONDS)  # a child stuck after the fork ends, and says so
                try:
                    os.setgroups([])
                    os.setgid(self.gid)
                    os.setuid(self.uid)
                    ids = (os.getresuid(), os.getresgid(), os.getgroups())
                    if ids != ((self.uid,) * 3, (self.gid,) * 3, []):
                        raise RuntimeError(f"dropping to {self.name} left the ids {ids}")
                    status, out, err = run(*argv)
                    report: dict[str, object] = {"status": status, "out": out, "err": err}
                except BaseException:
                    report = {"raised": traceback.format_exc()}
                with os.fdopen(writing, "w", encoding="utf-8") as pipe:
                    json.dump(report, pipe)
                code = 0
            finally:
                os._exit(code)
        os.close(writing)
        with os.fdopen(reading, encoding="utf-8") as pipe:
            sent = pipe.read()
        _pid, wait_status = os.waitpid(pid, 0)
        command = " ".join(("python -m bot", *argv))
        if os.waitstatus_to_exitcode(wait_status) != 0 or not sent:
            pytest.fail(f"{command} as {self.name}: the child ended with wait status "
                        f"{wait_status} (SIGALRM {signal.SIGALRM:d}: more than {CHILD_SECONDS} "
                        f"s) and sent {sent!r}", pytrace=False)
        report = json.loads(sent)
        if "raised" in report:
            pytest.fail(f"{command} as {self.name} raised:\n{report['raised']}", pytrace=False)
        return report["status"], report["out"], report["err"]


@pytest.fixture
def unprivileged(tmp_path) -> Unprivileged:
    """Who runs the permission cases' commands: this process's user if chmod binds it, else
    (root) ``nobody``/``nogroup`` in a child process. Skipped only for a user that is not root
    yet writes a read-only file (one with CAP_DAC_OVERRIDE): it cannot drop to another user."""
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("nobody")
        except KeyError:
            pytest.fail("running as root, these cases drop to the user nobody, and there is none")
        try:
            gid = grp.getgrnam("nogroup").gr_gid
        except KeyError:
            gid = user.pw_gid
        return Unprivileged(user.pw_name, tmp_path, user.pw_uid, gid)
    name = pwd.getpwuid(os.geteuid()).pw_name
    probe = tmp_path / "probe"
    probe.write_bytes(b"")
    probe.chmod(0o444)
    try:
        with probe.open("ab"):
            pytest.skip(f"the user {name} (not root) writes a 0444 file, so chmod cannot "
                        "make a file read-only for it, and it cannot drop to another user")
    except PermissionError:
        pass
    finally:
        probe.unlink()
    return Unprivileged(name, tmp_path)


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
    db = await SqliteDatabase.open(db_path)
    try:
        service = MatchService(db)
        m = await service.start_practice(1, 11, 1001, game="raptor",
                                         seat=rs.seat_wish(Side.RAPTOR), level="easy",
                                         ai_user_id=900, seed=4)
        while (m := await service.get_match(m.id)).state.round == 1:
            if Side.RAPTOR in rs.waiting(m):
                await service.act(m.id, 1001, engine.legal_actions(m.state, Side.RAPTOR)[0])
            await service.play_ai(m.id)
        await service.resign(m.id, 1001)
        return m.id
    finally:
        await db.close()


def could_not_write(db_path: Path, faults: str, user: str) -> str:
    return (f"the bot could not write its database RAPTOR_DB_PATH={db_path}: {faults} "
            f"read-only for the user {user}. The bot writes that file and creates its "
            "-wal and -shm files beside it: give the bot's user write access to both (chown or "
            "chmod), or run the bot as their owner")


@contextmanager
def held_open(db_path: Path) -> Iterator[None]:
    """Inside the block, another process (a running bot's, as it were) has the WAL-mode
    database ``db_path`` open and has committed a table that stays in the ``-wal``: no
    checkpoint until it closes, after the block. Another process, not a connection of this
    one, since a child forked from this one would share SQLite's per-file state with it."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys\n"
         "conn = sqlite3.connect(sys.argv[1])\n"
         "conn.execute('PRAGMA wal_autocheckpoint = 0')\n"
         "conn.execute('CREATE TABLE pad (x)')\n"
         "conn.commit()\n"
         "print('committed', flush=True)\n"
         "sys.stdin.read()\n"
         "conn.close()\n", str(db_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline() == "committed\n"
        yield
    finally:
        holder.stdin.close()  # its cue to close
        assert holder.wait(timeout=60) == 0
        holder.stdout.close()


# ----------------------------------------------------------------------------- check
def test_check_says_a_read_only_database_could_not_be_written(deployment, monkeypatch,
                                                              unprivileged):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    before = files(deployment)
    said = could_not_write(db_path, f"the file {db_path} is", unprivileged.name)
    with read_only(db_path):
        status, out, err = unprivileged.run("check")
        assert (status, out) == (2, [])
        assert err == [f"python -m bot check: {said}"]
        assert files(deployment) == before         # no -wal or -shm made, nothing written
        # the bot itself refuses to start with the same sentence, before any connection
        status, out, err = unprivileged.run()
        assert (status, out) == (2, [])
        assert err == [f"python -m bot: {said}"]


@pytest.mark.parametrize("file_too", [False, True], ids=["folder", "file and folder"])
def test_check_says_a_database_in_a_read_only_folder_could_not_be_written(
        deployment, monkeypatch, unprivileged, file_too):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    before = files(deployment)
    with read_only(*([db_path] if file_too else []), deployment):
        status, out, err = unprivileged.run("check")
    faults = (f"the file {db_path} and the folder {deployment} are" if file_too
              else f"the folder {deployment} is")
    assert (status, out) == (2, [])
    assert err == [f"python -m bot check: {could_not_write(db_path, faults, unprivileged.name)}"]
    assert files(deployment) == before


def test_check_names_a_write_ahead_log_it_could_not_write(deployment, monkeypatch,
                                                          unprivileged):
    """A bot (another user's) has the database open: its -wal and -shm are not ours to write."""
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    wal, shm = (deployment / "raptor.sqlite3-wal", deployment / "raptor.sqlite3-shm")
    with held_open(db_path), read_only(wal, shm):
        status, out, err = unprivileged.run("check")
    assert (status, out) == (2, [])
    faults = f"the file {wal} and the file {shm} are"
    assert err == [f"python -m bot check: {could_not_write(db_path, faults, unprivileged.name)}"]


def test_check_says_a_database_it_cannot_read(deployment, monkeypatch, unprivileged):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    with read_only(db_path, mode=0):
        status, out, err = unprivileged.run("check")
    assert (status, out) == (2, [])
    assert err == [f"python -m bot check: cannot read the database RAPTOR_DB_PATH={db_path}: "
                   f"the file {db_path} cannot be read by the user {unprivileged.name}: give "
                   "the bot's user access (chown or chmod), or run the bot as the owner"]


# ----------------------------------------------------------------------------- replay
def _replayed(command: Callable[..., Outcome], db_path: Path, out_dir: Path,
              number: int, ended: tuple[str, str, int] = ("scientist", "resigned", 1)) -> None:
    """``replay`` through ``command`` (:func:`run` or :meth:`Unprivileged.run`) wrote the
    record and the animation of the match ``number`` into ``out_dir``; the record says how
    it ``ended``: (result, reason, rounds) (by default :func:`one_round_played`'s)."""
    status, out, err = command("replay", "--db", str(db_path), "--out", str(out_dir))
    assert (status, err) == (0, [])
    assert out == [f"Wrote {out_dir / f'match-{number}.txt'} (the match record) and "
                   f"{out_dir / f'match-{number}.gif'} (its animation)."]
    record = engine.read_record((out_dir / f"match-{number}.txt").read_text(encoding="utf-8"))
    assert (record.result, record.reason, record.rounds) == ended


@pytest.mark.parametrize("folder_too", [False, True], ids=["file", "file and folder"])
def test_replay_reads_a_read_only_database(tmp_path, unprivileged, folder_too):
    data = tmp_path / "data"
    data.mkdir()
    db_path = data / "raptor.sqlite3"
    number = asyncio.run(one_round_played(db_path))
    before = files(data)
    with read_only(db_path, *([data] if folder_too else [])):
        _replayed(unprivileged.run, db_path, tmp_path / "out", number)
        assert files(data) == before                 # no -wal or -shm beside it


#: A database of schema version 8 written by the bot of that time, with two sides
#: (``tests/match/data/make_v8.py``). Its newest finished match, 10, ended in round 2 when
#: the scientist resigned.
V8 = Path(__file__).resolve().parents[1] / "match" / "data" / "v8.sqlite3"


def _as_schema_7(db_path: Path) -> None:
    """Copy :data:`V8` to ``db_path`` and take migration 8 back out of it: an older bot's
    database."""
    shutil.copy(V8, db_path)
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("DROP INDEX matches_end_unannounced")
        conn.execute("ALTER TABLE matches DROP COLUMN end_announced_at")
        conn.execute("PRAGMA user_version = 7")
        conn.commit()
    finally:
        conn.close()


def test_replay_leaves_an_older_database_as_it_was(tmp_path):
    """An export never migrates the file it reads: it migrates a copy in memory."""
    data = tmp_path / "data"
    data.mkdir()
    db_path = data / "raptor.sqlite3"
    _as_schema_7(db_path)
    before = files(data)
    _replayed(run, db_path, tmp_path / "out", 10, ("raptor", "resigned", 2))
    assert files(data) == before                     # same bytes, no -wal or -shm
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone() == (7,)
    conn.close()
    assert SCHEMA_VERSION > 7


def test_replay_reads_what_is_still_in_the_write_ahead_log(tmp_path):
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
        _replayed(run, db_path, tmp_path / "out", number)
        assert sorted(files(data)) == sorted(before)  # nothing created beside it
    finally:
        holder.close()


# ----------------------------------------------------------------------------- backup
def test_backup_into_a_read_only_folder_names_that_folder(deployment, monkeypatch,
                                                          unprivileged):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    folder = deployment / "backups"
    folder.mkdir()
    target = folder / "raptor-1.sqlite3"
    with read_only(folder):
        status, out, err = unprivileged.run("backup", str(target))
    assert (status, out) == (2, [])
    assert err == [f"python -m bot backup: cannot write the backup {target}: the folder "
                   f"{folder} is read-only for the user {unprivileged.name} (nothing was "
                   "written)"]
    assert list(folder.iterdir()) == []


def test_backup_reads_a_read_only_database_in_a_read_only_folder(deployment, monkeypatch,
                                                                unprivileged, tmp_path):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    target = tmp_path / "raptor-1.sqlite3"
    before = files(deployment)
    with read_only(db_path, deployment):
        status, out, err = unprivileged.run("backup", str(target))
        assert files(deployment) == before           # no -wal or -shm beside it
    assert (status, err) == (0, [])
    assert out == [f"Backed up {db_path} to {target}: {target.stat().st_size:,} bytes, schema "
                   f"version {SCHEMA_VERSION}, 2 matches; integrity check ok."]
    assert rows(target) == rows(db_path)


def test_backup_of_a_database_it_cannot_read_names_the_file(deployment, monkeypatch,
                                                           unprivileged, tmp_path):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    target = tmp_path / "raptor-1.sqlite3"
    with read_only(db_path, mode=0):
        status, out, err = unprivileged.run("backup", str(target))
    assert (status, out) == (2, [])
    assert err == [f"python -m bot backup: cannot read the database RAPTOR_DB_PATH={db_path}: "
                   f"the file {db_path} cannot be read by the user {unprivileged.name} "
                   "(nothing was written)"]
    assert not target.exists()


def test_backup_of_a_file_that_is_not_sqlite_says_so_and_names_it(deployment, monkeypatch,
                                                                 tmp_path):
    garbage = deployment / "raptor.sqlite3"
    garbage.write_bytes(b"not a database at all" * 200)
    monkeypatch.setenv("RAPTOR_DB_PATH", str(garbage))
    target = tmp_path / "raptor-1.sqlite3"
    status, out, err = run("backup", str(target))
    assert (status, out) == (2, [])
    assert err == [f"python -m bot backup: cannot read the database RAPTOR_DB_PATH={garbage}: it "
                   "is not a SQLite database (file is not a database) (nothing was written)"]
    assert not target.exists() and sorted(p.name for p in deployment.iterdir()) == [
        "raptor.sqlite3"]
