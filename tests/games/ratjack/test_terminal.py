"""The terminal game of Ratjack (``python -m bot play --game ratjack``): a scripted person
plays a whole match against AI seats, bad input gets one line and changes nothing, the
screens fit 80 columns in both languages, resigning and the end of input leave the match,
and a stop (SIGTERM) ends the match without a result."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bot.games.ratjack import terminal
from bot.games.ratjack.terminal import CONFIRM_RESIGN, play
from bot.i18n import translator
from bot.match import MatchService
from bot.offline.console import display_len
from bot.storage.db import SqliteDatabase
from engine.ratjack import RatjackError, State, format_action, legal_actions, parse_action
from tests.docs import ROOT

WIDTH = 80


class Person:
    """The person at the terminal: first the ``lines`` given, then (with ``play_on``) a
    legal action of their seat drawn at random, read from the match as stored (what the
    screen shows them, as a person would type it). Records every prompt and, for each
    entry, what was echoed after it."""

    def __init__(self, out: Path, lines: list[str], *, play_on: bool = True,
                 seed: int = 0) -> None:
        self.out, self.lines, self.play_on = out, list(lines), play_on
        self.rng = random.Random(seed)
        self.prompts: list[str] = []
        self.entries: list[str] = []
        self.echoed: list[list[str]] = [[]]

    def state(self) -> State:
        con = sqlite3.connect(self.out / "play.sqlite3")
        try:
            (text,) = con.execute("SELECT state FROM matches WHERE status = 'active'"
                                  ).fetchone()
        finally:
            con.close()
        return State.from_json(text)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.lines:
            entry = self.lines.pop(0)
        elif self.play_on:
            s = self.state()
            seat = int(prompt.split(">")[0][1:]) - 1
            entry = format_action(self.rng.choice(legal_actions(s, seat)))
        else:
            raise EOFError
        self.entries.append(entry)
        self.echoed.append([])
        return entry

    def echo(self, text: str) -> None:
        self.echoed[-1].append(text)

    @property
    def transcript(self) -> list[str]:
        return [line for block in self.echoed for text in block for line in text.split("\n")]


async def test_a_scripted_person_plays_a_whole_match_to_its_end(tmp_path):
    person = Person(tmp_path, [], seed=3)
    summary = await play(tmp_path, players=3, seat=1, level="easy", seed=21,
                         read=person.read, echo=person.echo)
    assert summary["reason"] == "three_vp" and summary["winners"]
    assert all(summary["vp"][q] >= 3 for q in summary["winners"])
    text = "\n".join(person.transcript)
    assert text.startswith("You play p2; the AI (easy) plays the 2 other seats.")
    assert "Seed 21." in text  # a seed given is no secret
    if "draw deck" in person.entries:
        assert "  p2 (you) drew a card from the deck." in person.transcript
    assert "Seed 21: python -m bot play --game ratjack --seed 21 --players 3 --seat 2 " in (
        text.replace("\n  ", " "))
    assert set(person.prompts) == {"p2> "}
    # the stored match is over and replays to its state
    db = await SqliteDatabase.open(tmp_path / "play.sqlite3")
    try:
        service = MatchService(db)
        m = await service.get_match(summary["match_id"])
        assert not m.active and m.reason == "three_vp"
        assert await service.replayed_state(m.id) == m.state
        mine = [a for seq, seat, a in await service.action_log(m.id) if seat == 1]
        assert [format_action(a) for a in mine] == person.entries
    finally:
        await db.close()
    assert (tmp_path / "table.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("entry", "said"), [
    ("hello", "Not played: 'hello' is not Ratjack notation; for example 'draw deck', 'up C7', "
              "'discard W2', 'flip @2', 'p2@3' or '+3'"),
    ("up Z9", "Not played: 'up Z9': Z9 is not a card (decks R, B, C and W, values 1 to 12)"),
    ("draw", "Not played: 'draw' matches 2 legal actions: draw deck, draw discard"),
    ("p3@1", "Not played: 'p3@1' is not legal now: first draw a card: 'draw deck' or 'draw "
             "discard'; legal: draw deck, draw discard"),
    ("flip @9" * 20, "Not played: 'flip @9flip @9flip @9flip @9flip @9flip …' is not Ratjack "
                     "notation; for example 'draw deck', 'up C7', 'discard W2', 'flip @2', "
                     "'p2@3' or '+3'"),
])
async def test_bad_input_is_refused_in_one_line_and_changes_nothing(tmp_path, entry, said):
    person = Person(tmp_path, [entry, "board"], play_on=False)
    summary = await play(tmp_path, players=2, seat=0, level="easy", seed=5, read=person.read,
                         echo=person.echo)
    assert person.echoed[1] == [said]
    assert person.entries == [entry, "board"]
    assert person.echoed[2][0].startswith("Round 1, turn 2 · deck 18 · ")
    assert "End of input: you resign." in person.echoed[2]
    assert summary["reason"] == "last_in_match" and summary["winners"] == [1]
    # nothing was played: the person's only step in the log is their resignation
    db = await SqliteDatabase.open(tmp_path / "play.sqlite3")
    try:
        log = await MatchService(db).action_log(summary["match_id"])
        assert [(seat, a) for _, seat, a in log if seat == 0] == [(0, None)]
    finally:
        await db.close()


async def test_help_lists_the_legal_actions_and_chinese_words_are_read(tmp_path):
    person = Person(tmp_path, ["?", "抽牌庫"], play_on=False)
    await play(tmp_path, players=2, seat=0, level="easy", seed=5, read=person.read,
               echo=person.echo)
    assert person.echoed[1] == ["  draw deck     draw the top card of the deck\n"
                                "  draw discard  take B2 from the discard pile"]
    assert person.echoed[2][0] == "  p1 (you) drew a card from the deck."


async def test_resigning_with_two_players_leaves_the_ai_the_winner(tmp_path):
    person = Person(tmp_path, ["resign", "n", "quit", "y"], play_on=False)
    summary = await play(tmp_path, players=2, seat=0, level="easy", seed=5, read=person.read,
                         echo=person.echo)
    assert person.prompts[1] == str(CONFIRM_RESIGN)
    assert person.echoed[2] == ["Not resigned: play on."]
    assert summary["reason"] == "last_in_match" and summary["winners"] == [1]
    said = "\n".join(person.echoed[4])
    assert "p1 (you) left the match." in said
    assert "You resigned. Bye." in said and "Seed 5: python -m bot play" in said


async def test_resigning_with_more_players_ends_the_match_without_a_result(tmp_path):
    person = Person(tmp_path, ["q", "是"], play_on=False)
    summary = await play(tmp_path, players=4, seat=None, level="easy", seed=9,
                         read=person.read, echo=person.echo)
    assert summary["reason"] == "stopped" and summary["winners"] == []
    said = "\n".join(person.echoed[2])
    assert "is over without a result (stopped by its player)." in said
    assert "(you) — 0 VP (resigned)" in said


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
async def test_every_screen_fits_80_columns(monkeypatch, capsys, lang):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    # a short folder: its path is printed as it is (a path is not wrapped)
    folder = Path(tempfile.mkdtemp(prefix="rj", dir="/tmp"))
    person = Person(folder, ["?", "board", "cards", "hello"], seed=4)
    try:
        await play(folder, players=4, seat=3, level="easy", seed=33, read=person.read,
                   lang=lang)  # the real terminal_echo, wrapping at the terminal's width
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out = capsys.readouterr().out
    assert out.count("\n") > 100
    assert [line for line in out.split("\n") if display_len(line) > WIDTH] == []
    assert translator(lang)("Your hand:") in out


def test_the_table_as_text_shows_a_person_only_their_own_cards():
    from engine.ratjack import view
    from tests.engine.ratjack.conftest import pos
    s = pos("""
        players: 3
        round: 2
        turn: 6
        current: p2
        phase: action
        vp: 1 0 0
        chips: +1 -2 +3 +4 -5 +10
        discard: B1 R2
        p1 hand: R5
        p1 display: R3[+3] ~B10{p2} ~R9
        p2 hand: B4 R12{*}
        p2 display: B7 ~R7
        p3 hand: B9
        p3 display: ~B8{*}[+10]
    """)
    names = terminal.seat_names(["easy", None, "easy"], 1)
    assert terminal.table_text(view(s, 1), names, width=WIDTH) == "\n".join([
        "Round 2, turn 6 · deck 12 · discard pile (2, top last): B1 R2",
        "Bonus tokens in the reserve: +1 -2 +4 -5",
        "  p1 AI (easy): 1 VP · total 6 · hand ??",
        "    @1 R3[+3]  @2 ~B10{p2}  @3 ~??",
        "> p2 (you): 0 VP · total 7 · hand B4 R12",
        "    @1 B7  @2 ~R7",
        "  p3 AI (easy): 0 VP · total 0 · hand ??",
        "    @1 ~B8{*}[+10]",
    ])
    assert terminal.table_text(view(s, 0), names, width=WIDTH).split("\n")[2:7] == [
        "  p1 AI (easy): 1 VP · total 6 · hand R5",
        "    @1 R3[+3]  @2 ~B10{p2}  @3 ~R9",
        "> p2 (you): 0 VP · total 7 · hand ?? R12",
        "    @1 B7  @2 ~??",
        "  p3 AI (easy): 0 VP · total 0 · hand ??",
    ]


def test_sigterm_stops_the_match_and_tells_the_seed(tmp_path):
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--game", "ratjack", "--seed", "77",
         "--out", str(tmp_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, cwd=ROOT, env=env)
    out = b""
    deadline = time.monotonic() + 60
    os.set_blocking(proc.stdout.fileno(), False)
    while b"p1> " not in out and time.monotonic() < deadline:
        chunk = proc.stdout.read()
        if chunk:
            out += chunk
        time.sleep(0.05)
    assert b"p1> " in out
    proc.send_signal(signal.SIGTERM)
    rest, err = proc.communicate(timeout=60)
    out = (out + rest).decode()
    assert proc.returncode == 143
    assert err.decode().strip() == "Stopped."
    assert "Seed 77: python -m bot play --game ratjack --seed 77 --players 2 --seat 1" in out
    con = sqlite3.connect(tmp_path / "play.sqlite3")
    try:
        assert con.execute("SELECT status, reason FROM matches").fetchall() == [
            ("finished", "stopped")]
    finally:
        con.close()


def test_a_bad_entry_never_reaches_the_engine_unrefused():
    """Every refusal the terminal shows is the engine's or the service's sentence: no entry
    of these raises anything else (no traceback)."""
    from tests.engine.ratjack.conftest import pos
    s = pos("players: 2\nphase: draw\ndiscard: B1\np1 hand: R5")
    for entry in ["", "   ", "@", "p9@99", "up", "-", "+11", "chip", "🐀", "drawdeck",
                  "draw deck draw deck", "\x00", "flip -1"]:
        try:
            parse_action(entry, s, 0)
        except RatjackError as exc:
            assert terminal.refusal(exc).startswith("Not played: ")


async def test_a_match_left_and_stopped_replays_under_its_verdict(tmp_path):
    """``python -m bot replay`` of the match a resignation stopped (three players): its
    record says so, its animation ends on the table under the verdict banner."""
    from PIL import Image

    from bot.offline.replay import write_match
    from render.ratjack import theme

    person = Person(tmp_path, ["q", "y"], play_on=False)
    summary = await play(tmp_path, players=3, seat=0, level="easy", seed=12, read=person.read,
                         echo=person.echo)
    assert summary["reason"] == "stopped"
    record, gif, note = await write_match(tmp_path / "play.sqlite3", tmp_path / "replay", None)
    text = record.read_text()
    assert "Reason: stopped" in text and "Result: none" in text
    assert "p1: forfeit" in text
    frames = Image.open(gif)
    assert frames.n_frames >= 2 and note is None
    frames.seek(frames.n_frames - 1)
    corner = frames.convert("RGB").getpixel((4, 4))
    assert all(abs(a - b) <= 8 for a, b in zip(corner, theme.OVER_BG, strict=True))
    frames.seek(frames.n_frames - 2)
    assert frames.convert("RGB").getpixel((4, 4)) != corner  # a turn's frame: no banner


@pytest.mark.parametrize(("argv", "error"), [
    (["--seat", "3", "--players", "2"], "--seat 3: there are 2 players"),
    (["--seat", "0"], "argument --seat: '0': a seat is 1 to 4, or random"),
    (["--seat", "x"], "argument --seat: 'x': a seat is 1 to 4, or random"),
    (["--players", "5"], "argument --players: invalid choice: 5 (choose from 2, 3, 4)"),
])
def test_the_terminal_refuses_bad_options_in_one_line(argv, error, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        terminal.main([*argv, "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.strip().split("\n")[-1] == (
        f"python -m bot play --game ratjack: error: {error}")


def test_a_seat_is_read_from_1_to_4_or_random():
    assert [terminal._seat_arg(t) for t in ("1", "2", "4", "random", "RANDOM")] == [
        0, 1, 3, None, None]
