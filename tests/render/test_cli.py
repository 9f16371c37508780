"""``python -m render replay RECORD --out DIR``: the images after each round and replay.gif
of a checked record; a refused record in one line."""

from __future__ import annotations

import io

from PIL import Image

from engine import Phase
from engine.record import write_record
from render.__main__ import main

from ..engine.test_record import random_game


def _resigned_record(tmp_path):
    """A match the scientist resigned in round 4's AP phase (4 rounds, the last partial)."""
    s, log = random_game(4, stop=lambda s: s.round == 4 and s.phase is Phase.AP)
    path = tmp_path / "match.txt"
    path.write_text(write_record(4, s.options, log, result="raptor", reason="resigned"))
    return path


def test_replay_writes_the_board_after_each_round_and_the_animation(tmp_path, capsys):
    path = _resigned_record(tmp_path)
    out = tmp_path / "out"
    assert main(["replay", str(path), "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == ["after-round-001.png", "after-round-002.png", "after-round-003.png",
                     "after-round-004.png", "replay.gif"]
    gif = Image.open(out / "replay.gif")
    assert gif.format == "GIF" and gif.n_frames == 4 and gif.size == (828, 756)
    png = Image.open(out / "after-round-002.png")
    assert png.format == "PNG" and png.size == (828, 756)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Raptor wins: the scientist resigned, after 4 rounds: the record checks"
    assert lines[1].startswith("Wrote 4 board images (after-round-001.png … "
                               "after-round-004.png) and replay.gif (4 frames, ")
    assert len(lines) == 2  # nothing had to be scaled or dropped


def test_replay_says_when_it_scaled_the_animation_to_fit(tmp_path, capsys):
    path = _resigned_record(tmp_path)
    assert main(["replay", str(path), "--out", str(tmp_path / "o"), "--limit", "0.1"]) == 0
    note = capsys.readouterr().out.splitlines()[-1]
    assert note.startswith("Scaled to ") and note.endswith("to fit 102 KiB.")
    assert (tmp_path / "o" / "replay.gif").stat().st_size <= 0.1 * 1024 * 1024
    im = Image.open(io.BytesIO((tmp_path / "o" / "replay.gif").read_bytes()))
    assert im.size[0] < 828


def test_a_refused_record_gets_one_line_and_writes_nothing(tmp_path, capsys):
    path = _resigned_record(tmp_path)
    path.write_text(path.read_text().replace("Seed: 4", "Seed: four"))
    assert main(["replay", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err == (f"render replay: {path}: line 10: the seed is a whole number "
                   "('Seed: four')\n")
    assert not (tmp_path / "o").exists()


def test_a_bot_database_is_named_with_the_command_that_replays_it(tmp_path, capsys):
    """Given the bot's (or the demo's) SQLite file, `python -m render replay` says in one
    line what it is and which command reads it, and writes nothing; so does the engine's."""
    import contextlib
    import sqlite3

    from engine.__main__ import main as engine_main

    db_path = tmp_path / "my raptor.sqlite3"
    with contextlib.closing(sqlite3.connect(db_path)) as con:
        con.execute("CREATE TABLE matches (id INTEGER PRIMARY KEY)")
        con.commit()
    out = tmp_path / "out"
    assert main(["replay", str(db_path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    quoted = f"'{db_path}'"
    assert err == (f"render replay: {db_path}: this is a database (the bot's or the demo's), "
                   f"not a match record: python -m bot replay --db {quoted} --out DIR writes "
                   "the record and animation of its newest finished match (--match N for "
                   "another)\n")
    assert not out.exists()
    assert engine_main(["replay", str(db_path)]) == 2
    assert capsys.readouterr().err.startswith(f"engine replay: {db_path}: this is a database")


def test_an_empty_out_is_refused_not_read_as_the_current_folder(tmp_path, capsys, monkeypatch):
    """``--out ""`` (an unset variable in ``--out "$DIR"``) is a usage error, as in
    ``python -m bot replay``, ``demo``, ``play`` and ``backup``; '.' is the current folder."""
    import pytest

    path = _resigned_record(tmp_path)
    monkeypatch.chdir(tmp_path)
    for empty in ("", " "):
        with pytest.raises(SystemExit) as stop:
            main(["replay", str(path), "--out", empty])
        assert stop.value.code == 2
        err = capsys.readouterr().err.splitlines()[-1]
        assert err == ("python -m render replay: error: argument --out: the folder name is "
                       "empty: give one ('.' is the current folder)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.txt"]  # nothing written
    assert main(["replay", str(path), "--out", "."]) == 0
    assert (tmp_path / "replay.gif").exists()


def test_the_help_gives_the_exit_statuses_of_the_engine_and_the_bot(capsys):
    import pytest

    from engine.cli import EXIT_STATUS

    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert " ".join(EXIT_STATUS.split()) in said
    assert "2 a usage error" in EXIT_STATUS
