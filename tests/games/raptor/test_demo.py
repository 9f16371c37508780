"""The offline demo: a full AI-vs-AI match through service, SQLite and renderer.

A demo at its defaults gives the hard AI 40 playouts a decision (``DEFAULT_ITERATIONS``),
5 to 10 CPU seconds a match. The tests of what the demo writes and prints, which hold for
any amount of AI work, give it :data:`LIGHT` playouts (or :data:`LIGHT_BUDGET` on the
command line) in the default run; their ``soak`` variants (``pytest -m soak``, run by
``.ci/run``) play the default amount.
"""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

import engine
from bot.games.raptor import sides as rs
from bot.games.raptor.demo import DEFAULT_ITERATIONS, DEFAULT_LEVELS, play_demo
from bot.games.raptor.demo import main as demo_main
from bot.match import MatchService
from bot.storage.db import SqliteDatabase
from engine import Side
from tests.docs import ROOT, section

#: Playouts a decision of the hard AI in the default run's demos (``iterations``).
LIGHT = 1
#: Its command line in the default run: seconds a decision of the hard AI (``--budget``).
LIGHT_BUDGET = ["--budget", "0.01"]
#: A test's AI work: :data:`LIGHT` in the default run, the demo's default in ``-m soak``.
WORK = pytest.mark.parametrize("iterations", [
    pytest.param(LIGHT, id="light"),
    pytest.param(DEFAULT_ITERATIONS, id="default", marks=pytest.mark.soak)])
#: The same on the command line: :data:`LIGHT_BUDGET`, or no option (the default) in soak.
WORK_ARGS = pytest.mark.parametrize("work", [
    pytest.param(LIGHT_BUDGET, id="light"),
    pytest.param([], id="default", marks=pytest.mark.soak)])


async def test_demo_plays_a_full_match_and_leaves_pngs_log_and_a_replayable_database(tmp_path):
    lines: list[str] = []
    summary = await play_demo(tmp_path, seed=3, level="easy", echo=lines.append)

    assert summary["winner"] in ("raptor", "scientist")
    assert summary["reason"] in {r.value for r in engine.Reason}
    # one PNG per round played, each a real board image
    # (a game ends during a round, so the last image is of that unfinished round)
    assert len(summary["pngs"]) == summary["rounds"] >= 1
    sizes = set()
    for png in summary["pngs"] + [tmp_path / "final.png"]:
        img = Image.open(io.BytesIO(png.read_bytes()))
        img.load()
        sizes.add(img.size)
    assert len(sizes) == 1 and min(next(iter(sizes))) > 300
    # the images change as the game goes
    first, last = summary["pngs"][0].read_bytes(), (tmp_path / "final.png").read_bytes()
    assert first != last

    # printed: a line per round and the result
    round_lines = [ln for ln in lines if re.match(r"Round +\d+:", ln)]
    assert len(round_lines) == len(summary["pngs"])
    assert any(ln.startswith(f"The {summary['winner']} player wins") for ln in lines)

    # the log is readable: every action in notation, the verdict, the final diagram
    log = summary["log"].read_text(encoding="utf-8")
    assert "raptor: play " in log and "scientist: play " in log
    assert f"The {summary['winner']} player wins" in log
    assert f"winner: {summary['winner']} {summary['reason']}" in log

    # the database replays to the stored final state
    db = await SqliteDatabase.open(summary["db"])
    try:
        service = MatchService(db)
        match = await service.get_match(summary["match_id"])
        assert match.status == "finished"
        assert rs.result(match) == summary["winner"]
        replayed = await service.replayed_state(match.id)
        assert replayed.key() == match.state.key()
        assert replayed.winner is match.state.winner
        entries = await service.action_log(match.id)
        assert len([1 for ln in log.splitlines() if ln.startswith("[round")]) == len(entries)
    finally:
        await db.close()

    # the match record replays to the same final state; the animation has a frame a round
    record = engine.read_record(summary["record"].read_text(encoding="utf-8"))
    assert summary["record"].name == "match.txt"
    assert record.final.key() == match.state.key() and record.rounds == summary["rounds"]
    assert record.header["Server"] == "offline" and record.header["Raptor"] == "AI (easy)"
    assert [a for _, _, a in entries] == [a for _, a in record.actions]
    gif = Image.open(summary["gif"])
    assert summary["gif"].name == "replay.gif" and gif.format == "GIF"
    assert gif.n_frames == summary["animation"].frames == summary["rounds"]
    assert summary["animation"].note is None


@WORK
async def test_demo_is_deterministic_for_a_seed(tmp_path, iterations):
    a = await play_demo(tmp_path / "a", seed=11, iterations=iterations, echo=lambda _: None)
    b = await play_demo(tmp_path / "b", seed=11, iterations=iterations, echo=lambda _: None)
    assert (a["rounds"], a["winner"], a["reason"]) == (b["rounds"], b["winner"], b["reason"])
    assert a["log"].read_text().splitlines()[3:] == b["log"].read_text().splitlines()[3:]


@WORK_ARGS
def test_demo_command_line_runs_and_reports(tmp_path, capsys, work):
    status = demo_main(["--seed", "5", "--out", str(tmp_path / "out"), *work])
    out = capsys.readouterr().out
    assert status == 0
    # the default pairing: the hard raptor against the easy scientist (RESULTS.md)
    assert DEFAULT_LEVELS == {Side.RAPTOR: "hard", Side.SCIENTIST: "easy"}
    assert "Raptor demo: AI (hard) vs AI (easy)" in out
    record = engine.read_record((tmp_path / "out" / "match.txt").read_text(encoding="utf-8"))
    assert (record.header["Raptor"], record.header["Scientist"]) == ("AI (hard)", "AI (easy)")
    assert re.search(r"The (raptor|scientist) player wins in round \d+", out)
    assert (tmp_path / "out" / "demo.sqlite3").exists()
    out_dir = tmp_path / "out"
    # images are named for what they show: the start, then the position after each round
    start, after1 = out_dir / "start.png", out_dir / "after-round-001.png"
    assert start.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert after1.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert start.read_bytes() != after1.read_bytes()
    assert not list(out_dir.glob("round-*.png"))
    afters = sorted(p.name for p in out_dir.glob("after-round-*.png"))
    assert afters == [f"after-round-{i:03d}.png" for i in range(1, len(afters) + 1)]
    gif = Image.open(out_dir / "replay.gif")
    assert gif.format == "GIF" and gif.n_frames == len(afters)
    assert (f"Wrote start.png, {len(afters)} board images after each round "
            f"(after-round-001.png … {afters[-1]}), final.png, demo.log, match.txt (the match "
            f"record), replay.gif ({len(afters)} frames) and demo.sqlite3 to "
            f"{out_dir}/") in out
    # docs/OFFLINE.md names every file the demo leaves in its folder (the lock too)
    outputs = section(ROOT / "docs" / "OFFLINE.md", "The demo")
    left = sorted(p.name for p in out_dir.iterdir())
    assert ".lock" in left and "demo.sqlite3" in left
    assert [name for name in left if f"`{name}`" not in outputs
            and not name.startswith("after-round-")] == []


def test_demo_levels_by_side_on_the_command_line(tmp_path, capsys):
    # --level sets both sides, --raptor and --scientist one each (over --level)
    assert demo_main(["--seed", "4", "--level", "easy", "--out", str(tmp_path / "a")]) == 0
    assert "Raptor demo: AI (easy) vs AI (easy)" in capsys.readouterr().out
    assert demo_main(["--seed", "4", "--level", "easy", "--scientist", "medium",
                      "--out", str(tmp_path / "b")]) == 0
    assert "Raptor demo: AI (easy) vs AI (medium)" in capsys.readouterr().out
    record = engine.read_record((tmp_path / "b" / "match.txt").read_text(encoding="utf-8"))
    assert (record.header["Raptor"], record.header["Scientist"]) == ("AI (easy)", "AI (medium)")
    log = (tmp_path / "b" / "demo.log").read_text(encoding="utf-8")
    assert log.startswith("Raptor offline demo: seed 4, raptor easy, scientist medium, jungle")


def test_demo_refuses_bad_arguments_before_touching_the_folder(tmp_path, capsys):
    import pytest

    out = tmp_path / "out"
    for bad in (["--budget", "0"], ["--budget", "inf"], ["--seed", "-1"],
                ["--seed", str(2**63)], ["--out", ""]):
        with pytest.raises(SystemExit) as exc:
            demo_main([*bad, "--out", str(out)] if bad[0] != "--out" else bad)
        assert exc.value.code == 2
    assert not out.exists()
    err = capsys.readouterr().err
    assert "the budget must be more than 0" in err and "the seed must be between 0" in err


def test_two_demos_never_write_into_one_folder_at_once(tmp_path, capsys):
    from bot.offline.common import folder_lock

    with folder_lock(tmp_path):
        status = demo_main(["--out", str(tmp_path)])
    assert status == 1
    assert "another demo is writing to" in capsys.readouterr().err
    assert not (tmp_path / "demo.log").exists()


@WORK
async def test_an_interrupted_demo_keeps_the_log_of_the_rounds_played(tmp_path, iterations):
    import pytest

    lines: list[str] = []

    def echo(text: str) -> None:
        lines.append(text)
        if sum(1 for ln in lines if re.match(r"Round +\d+:", ln)) == 3:
            raise KeyboardInterrupt  # Ctrl-C after the third round

    with pytest.raises(KeyboardInterrupt):
        await play_demo(tmp_path, seed=3, iterations=iterations, echo=echo)
    log = (tmp_path / "demo.log").read_text(encoding="utf-8").splitlines()
    assert log[0] == "Raptor offline demo: seed 3, raptor hard, scientist easy, jungle"
    assert [ln for ln in log if re.match(r"Round +\d+:", ln)] == [
        ln for ln in lines if re.match(r"Round +\d+:", ln)]
    assert any(ln.startswith("[round 3] raptor: ") for ln in log)
    assert "Final position" not in "\n".join(log)  # the game is not over: no hands shown


@WORK
async def test_the_log_says_why_it_shows_hands_and_decks_at_the_end(tmp_path, iterations):
    summary = await play_demo(tmp_path, seed=5, iterations=iterations, echo=lambda _: None)
    log = summary["log"].read_text(encoding="utf-8").splitlines()
    i = log.index("Final position, hands and decks shown: the game is over.")
    assert log[i - 2].startswith(f"The {summary['winner']} player wins")
    assert len(log) > i + 5  # the diagram follows


@WORK_ARGS
def test_a_reader_gone_from_stdout_stops_the_lines_not_the_files(tmp_path, work):
    """``python -m bot demo | head -1``: the demo stops printing once the pipe's reader has
    gone, still writes every file, and ends with status 0 and nothing on stderr."""
    import subprocess
    import sys

    out_dir = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "bot", "demo", "--seed", "5", "--lang", "en",
                             "--out", str(out_dir), *work],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline().startswith("Raptor demo: AI (hard) vs AI (easy)")
    proc.stdout.close()  # as `head -1` does once it has its line
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait() == 0
    assert err == ""
    afters = sorted(out_dir.glob("after-round-*.png"))
    record = engine.read_record((out_dir / "match.txt").read_text(encoding="utf-8"))
    assert len(record.round_states()) == len(afters) > 1
    assert Image.open(out_dir / "replay.gif").n_frames == len(afters)
    assert (out_dir / "final.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "wins in round" in (out_dir / "demo.log").read_text(encoding="utf-8")
