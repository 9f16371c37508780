"""``python -m bot check``: the settings, the database (opened and migrated) and what it holds;
exit 0 when the bot can start, 2 with a one-line reason when not (``bot.check``)."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.__main__ import main
from bot.storage.db import SqliteDatabase
from bot.storage.schema import SCHEMA_VERSION
from tests.ops.conftest import fill

REPO_ROOT = Path(__file__).resolve().parents[2]


def check(capsys) -> tuple[int, list[str], list[str]]:  # noqa: ANN001
    status = main(["check"])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def test_a_new_database_is_created_and_reported(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    status, out, err = check(capsys)
    assert (status, err) == (0, [])
    assert out == [
        "Settings: ok (DISCORD_TOKEN set; commands registered globally; log level INFO)",
        f"Database: {db_path} (a new file, created now)",
        f"Schema version: {SCHEMA_VERSION} (new database)",
        "Matches in progress: 0",
        "Finished matches: 0",
        "Servers with settings: 0",
        "Time limits: 24 h per turn (unless a server set its own), 10 min per challenge, "
        "2 s per AI decision",
        "Ready: python -m bot can start.",
    ]
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    conn.close()


def test_an_existing_database_is_counted(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    monkeypatch.setenv("RAPTOR_DEV_GUILD_ID", "4242")
    monkeypatch.setenv("RAPTOR_LOG_LEVEL", "warning")
    status, out, err = check(capsys)
    assert (status, err) == (0, [])
    size = db_path.stat().st_size
    assert out[0] == ("Settings: ok (DISCORD_TOKEN set; commands registered in the development "
                      "server 4242 only; log level WARNING)")
    assert out[1] == f"Database: {db_path} (existing file, {size / 1000:.1f} KB)"
    assert out[2:6] == [f"Schema version: {SCHEMA_VERSION} (up to date)",
                        "Matches in progress: 1", "Finished matches: 1",
                        "Servers with settings: 1"]


def test_a_database_in_use_is_measured_with_its_write_ahead_log(deployment, monkeypatch,
                                                                capsys):
    db_path = deployment / "raptor.sqlite3"
    asyncio.run(fill(db_path))
    other = sqlite3.connect(db_path)  # another process's open database, its log not yet
    try:                              # checkpointed into the main file
        other.execute("PRAGMA wal_autocheckpoint = 0")
        other.execute("CREATE TABLE pad (x)")
        other.execute("INSERT INTO pad VALUES (randomblob(200000))")
        other.commit()
        monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
        monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
        status, out, err = check(capsys)
        wal = db_path.with_name("raptor.sqlite3-wal").stat().st_size
        assert wal > 200_000
        size = db_path.stat().st_size + wal
        assert (status, err) == (0, [])
        assert out[1] == f"Database: {db_path} (existing file, {size / 1000:.1f} KB)"
    finally:
        other.close()


def test_a_database_path_beside_a_postgresql_url_is_said_to_be_ignored(deployment,
                                                                        monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(deployment / "raptor.sqlite3"))
    monkeypatch.setenv("RAPTOR_DATABASE_URL", "postgresql://raptor@127.0.0.1:1/raptor")
    status, _out, err = check(capsys)
    assert status == 2  # nothing listens on port 1
    assert err[0] == ("Warning: RAPTOR_DB_PATH is ignored: RAPTOR_DATABASE_URL is set, so the "
                      "bot uses that PostgreSQL database (unset one of them)")
    assert not (deployment / "raptor.sqlite3").exists()


def test_an_older_database_is_migrated(deployment, monkeypatch, capsys):
    db_path = deployment / "old.sqlite3"

    async def old() -> None:
        db = await SqliteDatabase.open(db_path, upto=1)
        await db.close()

    asyncio.run(old())
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    status, out, _ = check(capsys)
    assert status == 0
    assert out[2] == f"Schema version: {SCHEMA_VERSION} (migrated now from 1)"
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    conn.close()


def test_no_token_is_refused_after_the_database_is_checked(deployment, monkeypatch, capsys):
    # the volume can be confirmed before a token exists
    db_path = deployment / "raptor.sqlite3"
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    status, out, err = check(capsys)
    assert status == 2
    assert out == [
        "Settings: incomplete (DISCORD_TOKEN NOT SET; commands registered globally; "
        "log level INFO)",
        f"Database: {db_path} (a new file, created now)",
        f"Schema version: {SCHEMA_VERSION} (new database)",
        "Matches in progress: 0",
        "Finished matches: 0",
        "Servers with settings: 0",
        "Time limits: 24 h per turn (unless a server set its own), 10 min per challenge, "
        "2 s per AI decision",
    ]
    assert err == ["python -m bot check: DISCORD_TOKEN is not set, so the bot cannot connect "
                   "to Discord: set it in the environment or in a .env file in the working "
                   "directory"]
    assert db_path.exists()


def test_the_token_may_come_from_dot_env(deployment, monkeypatch, capsys):
    Path(".env").write_text(f"DISCORD_TOKEN=from-the-file\nRAPTOR_DB_PATH={deployment}/r.db\n")
    status, out, _ = check(capsys)
    assert status == 0
    assert out[1] == f"Database: {deployment / 'r.db'} (a new file, created now)"


def test_a_missing_volume_is_refused(deployment, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(deployment / "absent" / "raptor.sqlite3"))
    status, out, err = check(capsys)
    assert (status, out) == (2, [])
    assert err == [f"python -m bot check: the database folder {deployment / 'absent'} does not "
                   f"exist (RAPTOR_DB_PATH={deployment / 'absent' / 'raptor.sqlite3'}): create "
                   "it, or mount the volume there"]


def test_a_turn_shorter_than_a_minute_is_refused_like_the_admin_command_does(
        deployment, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(deployment / "raptor.sqlite3"))
    monkeypatch.setenv("RAPTOR_TURN_TIMEOUT_HOURS", "1e-9")
    status, out, err = check(capsys)
    assert (status, out) == (2, [])
    assert err == ["python -m bot check: RAPTOR_TURN_TIMEOUT_HOURS must be a number of hours "
                   "from 1/60 (a minute, 0.0167) to 8760 (a year), got '1e-9'"]
    monkeypatch.setenv("RAPTOR_TURN_TIMEOUT_HOURS", str(1 / 60))
    status, out, err = check(capsys)
    assert status == 0 and err == []
    assert out[-2] == ("Time limits: 0.0166667 h per turn (unless a server set its own), 10 min "
                       "per challenge, 2 s per AI decision")


def test_malformed_settings_are_named_on_one_line(deployment, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_TURN_TIMEOUT_HOURS", "-1")
    monkeypatch.setenv("RAPTOR_LOG_LEVEL", "loud")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(deployment / "raptor.sqlite3"))
    status, out, err = check(capsys)
    assert (status, out) == (2, [])
    assert err == ["python -m bot check: RAPTOR_LOG_LEVEL must be one of DEBUG, INFO, WARNING, "
                   "ERROR, got 'LOUD'; RAPTOR_TURN_TIMEOUT_HOURS must be a number of hours "
                   "from 1/60 (a minute, 0.0167) to 8760 (a year), got '-1'"]
    assert not (deployment / "raptor.sqlite3").exists()


def test_a_database_newer_than_the_code_is_refused_and_left_alone(deployment, monkeypatch,
                                                                  capsys):
    db_path = deployment / "raptor.sqlite3"
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    status, out, err = check(capsys)
    assert (status, out) == (2, [])
    assert len(err) == 1 and err[0].startswith("python -m bot check: the database ")
    assert f"has schema version {SCHEMA_VERSION + 1}" in err[0] and "upgrade the bot" in err[0]
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION + 1,)
    conn.close()


def test_a_file_that_is_not_a_database_is_refused(deployment, monkeypatch, capsys):
    db_path = deployment / "raptor.sqlite3"
    db_path.write_bytes(b"these are not the pages you are looking for" * 100)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", str(db_path))
    status, out, err = check(capsys)
    assert (status, out) == (2, [])
    assert err == [f"python -m bot check: RAPTOR_DB_PATH={db_path} is not a SQLite database "
                   "(file is not a database): point RAPTOR_DB_PATH at the bot's database file, "
                   "or at a new file name"]


def test_as_a_process_a_refusal_is_one_line_and_status_2(deployment):
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT), "DISCORD_TOKEN": "x",
           "RAPTOR_DB_PATH": str(deployment / "no-such-folder" / "raptor.sqlite3")}
    done = subprocess.run([sys.executable, "-m", "bot", "check"], cwd=deployment, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("python -m bot check: the database folder ")
