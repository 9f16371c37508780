"""The Ratjack demo (``python -m bot demo --game ratjack``): AI seats through the match
service, SQLite and the renderer; the same match for the same seed, its files written, and
a finished match of its database replayed (``python -m bot replay``)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.__main__ import main as bot_main
from bot.games.ratjack.demo import play_demo
from bot.match import MatchService
from bot.offline.replay import write_match
from bot.storage.db import SqliteDatabase
from engine.ratjack import read_record


def _png_size(data: bytes) -> tuple[int, int]:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.size


async def test_the_demo_is_the_same_match_for_a_seed_and_writes_its_files(tmp_path):
    runs = []
    for name in ("a", "b"):
        lines: list[str] = []
        summary = await play_demo(tmp_path / name, players=2, seed=7, level="hard",
                                  iterations=2, echo=lines.append)
        runs.append((lines, summary))
    (lines, summary), (lines_b, summary_b) = runs
    out, out_b = tmp_path / "a", tmp_path / "b"
    turns = summary["turns"]
    assert turns >= 10 and summary["rounds"] >= 2
    assert summary["reason"] == "three_vp" and summary["winners"]
    assert all(summary["vp"][q] >= 3 for q in summary["winners"])

    # the same match, decision for decision, and the same lines (all but the time taken)
    assert lines[:-1] == lines_b[:-1]
    assert (out / "demo.log").read_text() == (out_b / "demo.log").read_text()
    assert [p.name for p in summary["pngs"]] == [f"after-turn-{n:03d}.png"
                                                  for n in range(1, turns + 1)]
    for a, b in zip(summary["pngs"], summary_b["pngs"], strict=True):
        assert a.read_bytes() == b.read_bytes()
    assert (out / "replay.gif").read_bytes() == (out_b / "replay.gif").read_bytes()
    record, record_b = (o.joinpath("match.txt").read_text() for o in (out, out_b))
    assert re.sub("Date: .*", "", record) == re.sub("Date: .*", "", record_b)

    # a line per turn, each round's result, the match's
    assert lines[0] == "Ratjack demo: 2 AI players (hard), decks rb, seed 7"
    turn_lines = [ln for ln in lines if re.match(r"Round \d+, turn \d+: ", ln)]
    assert len(turn_lines) == turns
    assert sum(bool(re.match(r"Round \d+ is over: ", ln)) for ln in lines) == summary["rounds"]
    (winner,) = summary["winners"]
    loser = 1 - winner
    assert (f"🏆 Ratjack match #1 is over: p{winner + 1} AI (hard) wins (3 VP reached).\n"
            f"1. p{winner + 1} AI (hard) — {summary['vp'][winner]} VP\n"
            f"2. p{loser + 1} AI (hard) — {summary['vp'][loser]} VP") in lines
    assert lines[-1].startswith(f"Wrote start.png, {turns} table images after each turn "
                                "(after-turn-001.png … ")

    # the images: the table at the start, after each turn, at the end; the GIF a frame each
    sizes = {_png_size(p.read_bytes()) for p in
             [out / "start.png", *summary["pngs"], out / "final.png"]}
    assert sizes == {(960, 600)}
    assert summary["pngs"][-1].read_bytes() == (out / "final.png").read_bytes()
    gif = Image.open(out / "replay.gif")
    assert gif.n_frames == summary["animation"].frames == turns + 1
    assert (gif.width, gif.height) == (960, 600)

    # the log: every turn's decisions in notation, its story
    log = (out / "demo.log").read_text()
    assert "[round 1, turn 1] p" in log and ": draw " in log
    assert log.count("\n[round ") == turns

    # the record reads back to the stored final state, and so does the database
    rec = read_record(record)
    assert rec.winners == (winner,) and rec.reason == "three_vp"
    assert rec.players == ("p1 AI (hard)", "p2 AI (hard)")
    db = await SqliteDatabase.open(summary["db"])
    try:
        service = MatchService(db)
        m = await service.get_match(summary["match_id"])
        assert not m.active and m.state == rec.final
        assert await service.replayed_state(m.id) == m.state
    finally:
        await db.close()

    # python -m bot replay: the same record's moves and the same animation
    record_path, gif_path, note = await write_match(summary["db"], tmp_path / "replay", None)
    assert note is None
    assert gif_path.read_bytes() == (out / "replay.gif").read_bytes()
    assert read_record(record_path.read_text()).final == rec.final

    # another seed: another match
    lines_c: list[str] = []
    await play_demo(tmp_path / "c", players=2, seed=8, level="easy", echo=lines_c.append)
    assert lines_c[1:-1] != lines[1:-1]


def test_the_demo_command_writes_into_its_folder_in_chinese(tmp_path, capsys):
    out = tmp_path / "demo"
    assert bot_main(["demo", "--game", "ratjack", "--players", "2", "--level", "easy",
                     "--seed", "3", "--out", str(out), "--lang", "zh-TW"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Ratjack")
    names = {p.name for p in out.iterdir()}
    assert {"start.png", "final.png", "demo.log", "match.txt", "replay.gif",
            "demo.sqlite3", "after-turn-001.png"} <= names


@pytest.mark.parametrize("argv", [["--players", "5"], ["--level", "medium"],
                                  ["--decks", "rr"], ["--budget", "0"]])
def test_the_demo_refuses_bad_options_in_one_line(argv, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        bot_main(["demo", "--game", "ratjack", *argv, "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().split("\n")
    assert err[-1].startswith("python -m bot demo --game ratjack: error: argument ")
    assert not any(tmp_path.iterdir())


def test_the_offline_guide_names_ratjack_s_files_options_and_words():
    from bot.games.ratjack import terminal
    from bot.offline.console import HELP_WORDS, RESIGN_WORDS
    from tests.docs import ROOT, section

    guide = section(ROOT / "docs" / "OFFLINE.md", "Ratjack")
    for name in ("start.png", "after-turn-001.png", "final.png", "demo.log", "match.txt",
                 "replay.gif", "demo.sqlite3", ".lock", "table.png", "play.sqlite3"):
        assert f"`{name}`" in guide or f"/{name}`" in guide, name
    for option in ("--players", "--seed", "--level", "--decks", "--budget", "--out", "--lang",
                   "--seat"):
        assert f"`{option}" in guide, option
    for word in (*HELP_WORDS, *RESIGN_WORDS, *terminal.CARDS_WORDS, "board"):
        assert f"`{word}`" in guide, word
