"""The race's offline demo (python -m bot demo --game race): a whole race of AI seats through
service, SQLite and renderer, its files, its lines, the same race for the same seed, and
``python -m bot replay`` of the race it leaves in its database."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from PIL import Image

import engine.race as race
from bot.__main__ import main as bot_main
from bot.games.race.demo import DEFAULT_ITERATIONS, play_demo
from bot.match import MatchService
from bot.offline.replay import write_match
from bot.storage.db import SqliteDatabase
from render.race import image_size

TURN_LINE = re.compile(r"Turn +(\d+) · seat (\d) \(AI hard\): .+ · leading: .+")


def run_demo(out: Path, **kwargs) -> tuple[dict, list[str]]:
    lines: list[str] = []
    summary = asyncio.run(play_demo(out, echo=lines.append, **kwargs))
    return summary, lines


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[dict, list[str], Path]:
    out = tmp_path_factory.mktemp("demo")
    summary, lines = run_demo(out, seed=2, players=3)
    return summary, lines, out


def test_the_demo_writes_its_images_log_record_animation_and_database(demo):
    summary, lines, out = demo
    turns = summary["turns"]
    assert summary["reason"] == "finished"
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [".lock", "demo.log", "demo.sqlite3", "final.png", "match.txt", "replay.gif",
         "start.png", *(f"turn-{n:03d}.png" for n in range(1, turns + 1))])
    # the start, then one image per turn, each a track image of the Desert
    assert [p.name for p in summary["pngs"]] == ["start.png", *(
        f"turn-{n:03d}.png" for n in range(1, turns + 1))]
    for png in [*summary["pngs"], summary["final"]]:
        with Image.open(png) as im:
            assert im.format == "PNG" and im.size == image_size("desert")
    assert len({p.read_bytes() for p in summary["pngs"]}) == turns + 1  # each turn changed it
    # printed: the title, a line per turn, the result, what was written
    assert lines[0] == "Raptor Race demo: 3 AI seats (hard), Desert, seed 2"
    turn_lines = [ln for ln in lines if TURN_LINE.fullmatch(ln)]
    assert [int(TURN_LINE.fullmatch(ln).group(1)) for ln in turn_lines] == list(
        range(1, turns + 1))
    assert lines[-1].startswith(f"Wrote start.png, {turns} track images after each turn "
                                f"(turn-001.png … turn-{turns:03d}.png), final.png, demo.log, "
                                f"match.txt (the race record), replay.gif ({turns + 1} frames) "
                                "and demo.sqlite3 to ")


def test_the_database_the_record_the_log_and_the_result_agree(demo):
    summary, lines, out = demo

    async def stored():
        db = await SqliteDatabase.open(summary["db"])
        try:
            service = MatchService(db)
            match = await service.get_match(summary["match_id"])
            return match, await service.action_log(match.id), await service.replayed_state(
                match.id)
        finally:
            await db.close()

    match, actions, replayed = asyncio.run(stored())
    assert match.game == "race" and not match.active and replayed == match.state
    assert [p.ai for p in match.players] == ["hard"] * 3
    outcome = race.outcome(match.state)
    assert summary["places"] == outcome.places and summary["scores"] == outcome.scores
    record = race.read_record(summary["record"].read_text(encoding="utf-8"))
    assert record.final == match.state and record.seed == 2 and record.seats == 3
    assert record.header["Server"] == "offline" and record.players == ("AI (hard)",) * 3
    assert [a for _, _, a in actions] == [a for _, a in record.log]
    # the log: every decision in notation, a line per turn, then every card and the diagram
    log = summary["log"].read_text(encoding="utf-8")
    assert len(re.findall(r"^\[turn \d+\] seat \d: ", log, re.M)) == len(actions)
    assert log.rstrip("\n").endswith(race.to_diagram(match.state).rstrip("\n"))
    result = lines[-3 - match.seats:-1]
    assert result[0].startswith("🏁 Race #1 is over: ")
    for seat, line in zip(sorted(range(3), key=lambda s: (outcome.places[s], s)), result[2:],
                          strict=True):
        assert line.startswith(f"{outcome.places[seat]}. seat {seat + 1} (AI hard): "
                               f"{int(outcome.scores[seat])} points — card "
                               f"#{match.state.cards[seat]}: ")
    # the animation: a frame per turn after the start
    with Image.open(summary["gif"]) as gif:
        assert gif.format == "GIF" and gif.n_frames == summary["turns"] + 1
    assert summary["animation"].note is None


def test_the_same_seed_gives_the_same_race(demo, tmp_path):
    summary, lines, out = demo
    again, again_lines = run_demo(tmp_path / "again", seed=2, players=3)
    assert again_lines[:-1] == lines[:-1]  # all but the time it took
    assert again["record"].read_text() == summary["record"].read_text()
    assert [p.read_bytes() for p in again["pngs"]] == [p.read_bytes() for p in summary["pngs"]]
    other, other_lines = run_demo(tmp_path / "other", seed=3, players=3)
    assert other_lines[1:-1] != lines[1:-1]


def test_the_default_race_is_contested_and_fixed_work(tmp_path):
    summary, lines = run_demo(tmp_path)  # seed 1, four hard seats, the Desert
    assert DEFAULT_ITERATIONS > 0 and summary["turns"] == 11
    assert summary["places"] == (3, 1, 4, 1) and summary["scores"] == (10.0, 13.0, 8.0, 13.0)


def test_replay_of_the_demos_database_draws_the_same_animation(demo, tmp_path):
    summary, _, _ = demo
    record, gif, note = asyncio.run(write_match(summary["db"], tmp_path, None))
    assert (record.name, gif.name, note) == ("match-1.txt", "match-1.gif", None)
    assert record.read_text() == summary["record"].read_text()
    assert gif.read_bytes() == summary["gif"].read_bytes()


def test_the_command_line(tmp_path, capsys):
    out = tmp_path / "cli"
    assert bot_main(["demo", "--game", "race", "--players", "2", "--seed", "4", "--board",
                     "jungle", "--level", "medium", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "Raptor Race demo: 2 AI seats (medium), Jungle, seed 4"
    assert (out / "replay.gif").exists() and (out / "match.txt").exists()
    assert race.read_record((out / "match.txt").read_text()).board is race.Board.JUNGLE
    assert bot_main(["replay", "--db", str(out / "demo.sqlite3"), "--out",
                     str(tmp_path / "r")]) == 0
    assert (tmp_path / "r" / "match-1.gif").exists()
    with pytest.raises(SystemExit) as exit_info:
        bot_main(["demo", "--game", "race", "--players", "6"])
    assert exit_info.value.code == 2
    assert "--players: invalid choice: 6" in capsys.readouterr().err


def test_on_the_clock_with_budget(tmp_path):
    summary, lines = run_demo(tmp_path, seed=5, players=2, time_budget=0.05)
    assert summary["reason"] == "finished" and len(summary["pngs"]) == summary["turns"] + 1


def test_the_demo_in_chinese(tmp_path):
    summary, lines = run_demo(tmp_path, seed=2, players=2, lang="zh-TW")
    assert lines[0] == "迅猛龍競速示範：2 個 AI 座位（困難），沙漠，種子 2"
    assert re.match(r"第 +1 回合 · 座位 \d（AI 困難）：", lines[1])
    assert "衝過終點線" in "\n".join(lines)
