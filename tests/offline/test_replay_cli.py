"""``python -m bot replay --db FILE [--match N] --out DIR``: a finished match's record and
animation from a database; a match in progress, an unknown number and a missing file are
refused in one line."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from PIL import Image

import engine
from bot.games.raptor import sides as rs
from bot.match import MatchService
from bot.offline import OFFLINE_GUILD, TERMINAL_PLAYER
from bot.offline.replay import main
from bot.storage.db import SqliteDatabase
from bot.storage.schema import SCHEMA_VERSION
from engine import Side


def test_writes_the_record_and_the_animation_of_the_newest_finished_match(tmp_path, capsys,
                                                                          demo_seed_1):
    summary = demo_seed_1
    db = tmp_path / "demo" / "demo.sqlite3"
    assert main(["--db", str(db), "--out", str(tmp_path / "out")]) == 0
    record = tmp_path / "out" / "match-1.txt"
    gif = tmp_path / "out" / "match-1.gif"
    assert capsys.readouterr().out == (f"Wrote {record} (the match record) and {gif} (its "
                                       "animation).\n")
    parsed = engine.read_record(record.read_text(encoding="utf-8"))
    assert parsed.rounds == summary["rounds"] and parsed.result == summary["winner"]
    assert "Raptor: AI (hard)\nScientist: AI (easy)\n" in record.read_text()  # the defaults
    assert Image.open(gif).n_frames == summary["rounds"]
    assert gif.read_bytes() == summary["gif"].read_bytes()   # the demo's replay.gif
    assert main(["--db", str(db), "--match", "1", "--out", str(tmp_path / "o2"),
                 "--limit", "0.1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Scaled to 50 %")


def test_refusals(tmp_path, capsys):
    db_path = tmp_path / "raptor.sqlite3"

    async def one_in_progress() -> int:
        db = await SqliteDatabase.open(db_path)
        try:
            m = await MatchService(db).start_ai_match(
                5, 6, game="raptor", levels=["easy", "easy"], ai_user_ids=[1, 2], seed=4)
            return m.id
        finally:
            await db.close()

    number = asyncio.run(one_in_progress())
    assert main(["--db", str(db_path), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (f"python -m bot replay: {db_path} holds no finished "
                                       "match yet\n")
    assert main(["--db", str(db_path), "--match", str(number), "--out", str(tmp_path / "o")]) == 2
    assert "is still being played" in capsys.readouterr().err
    assert main(["--db", str(db_path), "--match", "42", "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == f"python -m bot replay: {db_path} has no match #42\n"
    missing = tmp_path / "none.sqlite3"
    assert main(["--db", str(missing), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == f"python -m bot replay: {missing}: no such file\n"
    assert not missing.exists()
    url = "postgresql://raptor@127.0.0.1:5432/raptor"
    assert main(["--db", url, "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (
        "python -m bot replay: --db is the bot's SQLite file; a match of a PostgreSQL database "
        "is replayed in Discord with /raptor replay\n")
    assert not (tmp_path / "o").exists()


def test_a_file_that_is_not_the_bots_database_is_refused_and_left_untouched(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    text = tmp_path / "match.txt"
    text.write_text("Raptor match record, format 1\n", encoding="utf-8")
    folder = tmp_path / "folder"
    folder.mkdir()
    for path, reason in ((empty, "is not the bot's database: it holds no Raptor tables"),
                         (text, "is not a SQLite database"),
                         (folder, "is a folder, not the bot's database file")):
        before = path.read_bytes() if path.is_file() else None
        assert main(["--db", str(path), "--out", str(tmp_path / "o")]) == 2
        assert capsys.readouterr().err == f"python -m bot replay: {path} {reason}\n"
        assert (path.read_bytes() if path.is_file() else None) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3", "folder", "match.txt"]



def test_a_database_newer_than_the_code_is_refused_in_one_line_and_left_untouched(
        tmp_path, capsys):
    newer = tmp_path / "newer.sqlite3"
    asyncio.run(_create(newer))
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 92}")
    conn.commit()
    conn.close()
    before = newer.read_bytes()
    assert main(["--db", str(newer), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"python -m bot replay: the database '{newer}' has schema version "
                          f"{SCHEMA_VERSION + 92}")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert newer.read_bytes() == before and not (tmp_path / "o").exists()


async def _create(path) -> None:
    db = await SqliteDatabase.open(path)
    await db.close()


@pytest.mark.parametrize("limit", ["0", "-1", "nan", "inf", "ten"])
def test_a_limit_that_is_not_a_positive_size_is_refused_by_the_options(tmp_path, capsys,
                                                                        limit):
    db_path = tmp_path / "raptor.sqlite3"
    asyncio.run(_create(db_path))
    with pytest.raises(SystemExit) as stop:
        main(["--db", str(db_path), "--out", str(tmp_path / "o"), "--limit", limit])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("python -m bot replay: error: argument --limit: ")
    assert not (tmp_path / "o").exists()


def test_a_match_played_at_the_terminal_names_its_player_and_the_offline_server(tmp_path,
                                                                              capsys):
    db_path = tmp_path / "raptor.sqlite3"

    async def resigned_at_the_terminal() -> int:
        db = await SqliteDatabase.open(db_path)
        try:
            service = MatchService(db)
            m = await service.start_practice(OFFLINE_GUILD, 1, TERMINAL_PLAYER, game="raptor",
                                             seat=rs.seat_wish(Side.RAPTOR), level="easy",
                                             ai_user_id=2, seed=4)
            while (m := await service.get_match(m.id)).state.round == 1:  # one round played
                if Side.RAPTOR in rs.waiting(m):
                    action = engine.legal_actions(m.state, Side.RAPTOR)[0]
                    await service.act(m.id, TERMINAL_PLAYER, action)
                await service.play_ai(m.id)
            await service.resign(m.id, TERMINAL_PLAYER)
            return m.id
        finally:
            await db.close()

    number = asyncio.run(resigned_at_the_terminal())
    assert main(["--db", str(db_path), "--out", str(tmp_path / "o")]) == 0
    header = engine.read_record((tmp_path / "o" / f"match-{number}.txt").read_text()).header
    assert (header["Server"], header["Raptor"], header["Scientist"]) == (
        "offline", "terminal player", "AI (easy)")


def test_a_reader_gone_from_stdout_ends_the_replays_quietly(tmp_path, demo_seed_1):
    import os
    import subprocess
    import sys
    from pathlib import Path

    db = tmp_path / "demo" / "demo.sqlite3"
    record = tmp_path / "demo" / "match.txt"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    for command in (["bot", "replay", "--db", str(db), "--out", str(tmp_path / "b")],
                    ["render", "replay", str(record), "--out", str(tmp_path / "r")]):
        proc = subprocess.Popen([sys.executable, "-m", *command], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        proc.stdout.close()  # as `| head` does
        err = proc.stderr.read()
        proc.stderr.close()
        assert proc.wait() == 1, err
        assert "Traceback" not in err and "Broken pipe" not in err, err


def test_a_relative_database_path_is_read(tmp_path, capsys, monkeypatch, demo_seed_1):
    """``--db raptor-demo/demo.sqlite3`` as typed from the repository root (a relative path
    once made SQLite's read-only URI fail with a traceback)."""
    monkeypatch.chdir(tmp_path)
    assert main(["--db", "demo/demo.sqlite3", "--out", "out"]) == 0
    assert capsys.readouterr().out.startswith("Wrote out/match-1.txt (the match record)")
    assert (tmp_path / "out" / "match-1.gif").is_file()


def test_match_files_already_in_the_folder_are_kept_unless_forced(tmp_path, capsys,
                                                                   demo_seed_1):
    """A second export into one folder (another database's match 1, perhaps) is refused in
    one line and writes nothing; ``--force`` overwrites; an empty ``--out`` is refused as
    ``backup ""`` is (``.`` is the current folder)."""
    db = tmp_path / "demo" / "demo.sqlite3"
    out = tmp_path / "out"
    out.mkdir()
    record = out / "match-1.txt"
    record.write_text("mine\n")
    assert main(["--db", str(db), "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"python -m bot replay: {record} already exists (perhaps another database's match): "
        "--force overwrites it; nothing was written\n")
    assert record.read_text() == "mine\n" and not (out / "match-1.gif").exists()
    assert main(["--db", str(db), "--out", str(out), "--force"]) == 0
    assert engine.read_record(record.read_text(encoding="utf-8")).rounds > 1
    assert (out / "match-1.gif").exists()
    for empty in ("", "  "):
        with pytest.raises(SystemExit) as stop:
            main(["--db", str(db), "--out", empty])
        assert stop.value.code == 2
        assert capsys.readouterr().err.splitlines()[-1] == (
            "python -m bot replay: error: argument --out: the folder name is empty: give one "
            "('.' is the current folder)")
