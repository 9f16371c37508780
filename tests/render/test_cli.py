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
    assert lines[0] == "raptor (resigned) after 4 rounds: the record checks"
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
    assert main(["replay", str(path), "--out", str(tmp_path / "o")]) == 1
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
    assert main(["replay", str(db_path), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    quoted = f"'{db_path}'"
    assert err == (f"render replay: {db_path}: this is a database (the bot's or the demo's), "
                   f"not a match record: python -m bot replay --db {quoted} --out DIR writes "
                   "the record and animation of its newest finished match (--match N for "
                   "another)\n")
    assert not out.exists()
    assert engine_main(["replay", str(db_path)]) == 1
    assert capsys.readouterr().err.startswith(f"engine replay: {db_path}: this is a database")
