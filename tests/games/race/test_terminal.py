"""The race's terminal game (python -m bot play --game race): a scripted race played to its
end, the screens (the track as text with the player's own card, the legal actions), one-line
refusals that change nothing, leaving the race while the AI races on (RR3.6), the end of
input, a stop (Ctrl-C, SIGTERM), 80 columns in both languages, and the command line."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.race as race
from bot.games.race import terminal
from bot.games.race.terminal import CONFIRM_RESIGN, play, track_text
from bot.i18n import translator
from bot.match import MatchService
from bot.offline.console import display_len, wrapped
from bot.storage.db import SqliteDatabase

WIDTH = 80
REPO_ROOT = Path(__file__).resolve().parents[3]
#: A grid row of the track as text: its number, then the five lanes.
GRID_ROW = re.compile(r"^ {0,2}\d{1,2}  [.+^#sBGOPY ]( [.+^#sBGOPY ]){4}( |$)")


class Typist:
    """Types ``script`` first, then for each decision ``?`` and the first action it lists
    (or, once ``leave_after`` decisions were made, ``quit`` and ``y``); keeps what was
    shown (each ``echo`` call's text) and every prompt."""

    def __init__(self, script: list[str] | None = None, *, leave_after: int | None = None,
                 lang: str = "en") -> None:
        self.script = list(script or [])
        self.leave_after = leave_after
        self.decisions = 0
        self.out: list[str] = []
        self.prompts: list[str] = []
        self.listed: int | None = None
        self.confirm = translator(lang).text(CONFIRM_RESIGN)

    def echo(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt == self.confirm:
            return self.script.pop(0) if self.script else "y"
        if self.script:
            return self.script.pop(0)
        if self.leave_after is not None and self.decisions >= self.leave_after:
            return "quit"
        if self.listed is None:
            self.listed = len(self.out)
            return "?"
        first = self.out[self.listed].split("\n")[0]
        self.listed = None
        self.decisions += 1
        return first[2:14].strip()

    @property
    def lines(self) -> list[str]:
        return [line for text in self.out for line in text.split("\n")]


@pytest.fixture
def short_folder() -> Iterator[Path]:
    """A folder with a short path (the track image's path is printed whole)."""
    folder = Path(tempfile.mkdtemp(prefix="r", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def turns_of(log: list) -> list[tuple[int, int]]:
    """The ``(turn, seat)`` of each turn a log played, replayed from its seed 5 race of 3."""
    state = race.new_game(5, 3, "desert")
    seen = [(state.turn, state.seat)]
    for seat, action in log:
        state = race.forfeit(state, seat) if action is None else race.apply(state, seat, action)
        if not state.is_over and (state.turn, state.seat) != seen[-1]:
            seen.append((state.turn, state.seat))
    return seen


async def stored(folder: Path, match_id: int):
    db = await SqliteDatabase.open(folder / "play.sqlite3")
    try:
        service = MatchService(db)
        m = await service.get_match(match_id)
        return m, [(seat, action) for _, seat, action in await service.action_log(match_id)]
    finally:
        await db.close()


async def test_a_scripted_race_is_played_to_its_end(short_folder):
    t = Typist()
    result = await play(short_folder, players=3, seat=1, seed=5, level="hard", read=t.read,
                        echo=t.echo)
    m, log = await stored(short_folder, result["match_id"])
    assert not m.active and m.reason == "finished" and result["seat"] == 1
    outcome = race.outcome(m.state)
    assert result["places"] == outcome.places and result["scores"] == outcome.scores
    assert result["turns"] == m.state.turn and (short_folder / "track.png").exists()
    lines = t.lines
    assert lines[0] == ("Raptor Race on the Desert: you are seat 2 of 3; the AI (hard) plays "
                        f"the other seats. Seat {m.state.first + 1} plays first.")
    assert "Seed 5." in lines
    # the person's own decisions were each played and said so
    mine = [a for seat, a in log if seat == 1]
    played = [ln for ln in lines if ln.startswith("Played: ")]
    assert [ln.split()[1] for ln in played] == [race.format_action(a).split()[0] for a in mine]
    assert t.decisions == len(mine)
    # each AI turn in one line: its rolls, what was set aside, its steps
    ai_lines = [ln for ln in t.out if re.match(r"Turn +\d+ · seat [13] \(AI hard\): ", ln)]
    ai_turns = {turn for turn, seat in turns_of(log) if seat != 1}
    assert len(ai_lines) == len(ai_turns) and all("leading: " in ln for ln in ai_lines)
    # the track as text, with the player's card beside it: theirs only
    card = m.state.cards[1]
    assert any(f"your card #{card}: " in ln for ln in lines)
    assert not any(f"#{c}:" in ln for c in (m.state.cards[0], m.state.cards[2])
                   for ln in lines[:lines.index(next(ln for ln in lines
                                                     if ln.startswith("🏁 ")))])
    # the end: the result per seat, the place, the command that races it again
    end = lines.index(next(ln for ln in lines if ln.startswith("🏁 Race #1 is over")))
    assert lines[end + 1].startswith("The finish: ")
    place = outcome.places[1]
    assert lines[end + 5] == ("You win!" if place == 1 and list(outcome.places).count(1) == 1
                              else "You share first place." if place == 1
                              else f"Your place: {place} of 3.")
    assert lines[-1] == ("Seed 5: python -m bot play --game race --seed 5 --players 3 --seat 2 "
                         "--level hard --board desert deals this race again.")


async def test_a_refusal_is_one_line_and_changes_nothing(short_folder):
    long = "keep " + "G" * 60
    t = Typist(["fly away", "keep ZZ", "O>Z9", "+T>B4", long, "TB>A1", "undo", "",
                "card", "t"], leave_after=0)
    await play(short_folder, players=2, seat=0, seed=8, read=t.read, echo=t.echo)
    first = t.prompts[0]
    assert first.startswith("rolled ") and t.prompts[1:11] == [first] * 10  # no change
    replies = t.out[t.out.index(next(x for x in t.out if x.startswith("Your turn: "))) + 1:]
    assert replies[:7] == [
        "Not played: 'fly away' is not race notation: for example 'keep OOT a', 'O>B4', "
        "'TG>C2', '+Y>D6' or 'O-' ('?' lists your legal actions)",
        "Not played: 'keep ZZ' is not race notation: for example 'keep OOT a', 'O>B4', "
        "'TG>C2', '+Y>D6' or 'O-' ('?' lists your legal actions)",
        "Not played: 'O>Z9' is not race notation: for example 'keep OOT a', 'O>B4', "
        "'TG>C2', '+Y>D6' or 'O-' ('?' lists your legal actions)",
        "Not played: '+T>B4': a booster moves a raptor forward, not with the T-Rex: for "
        "example '+Y>D6' ('?' lists your legal actions)",
        replies[4],
        replies[5],
        "Not done. There is nothing to undo: you can only take back your own last step of "
        "this turn, or the setting aside of your last dice; never what a roll decided.",
    ]
    assert replies[4].startswith("Not played: 'keep GGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG…'")
    assert replies[5].startswith("Not played: ") and "set dice aside first" in replies[5]
    assert replies[7] == ("Not played: empty input: type an action such as 'keep OT', "
                          "'O>B4' or '+Y>D6' ('?' lists your legal actions)")
    assert all("\n" not in r and "Traceback" not in r for r in replies[:8])
    assert replies[8].startswith("Your Top-3 card (#")  # 'card': the player's own, plain
    assert replies[9].startswith("     A B C D E")  # 't': the track


async def test_leaving_the_race_lets_the_ai_race_on_and_the_card_still_scores(short_folder):
    t = Typist(leave_after=3)
    result = await play(short_folder, players=3, seat=0, seed=11, read=t.read, echo=t.echo)
    m, log = await stored(short_folder, result["match_id"])
    assert m.reason == "finished" and m.state.forfeited == (0,)
    assert (0, None) in log and m.players[0].left == "resigned"
    assert result["places"][0] == race.outcome(m.state).places[0]
    assert ("You left the race: the AI seats race on to the finish, and your card still "
            "scores.") in t.lines
    assert any(ln.startswith("1. ") for ln in t.lines)


async def test_no_to_the_confirmation_plays_on_and_end_of_input_leaves(short_folder):
    t = Typist(["resign", "n"])

    def read(prompt: str) -> str:
        if len(t.prompts) >= 3:  # 'resign', 'n', '?': then the input ends
            t.prompts.append(prompt)
            raise EOFError
        return t.read(prompt)

    result = await play(short_folder, players=2, seat=0, seed=3, read=read, echo=t.echo)
    assert "Not left: race on." in t.lines
    assert "End of input: you leave the race." in t.lines
    m, _ = await stored(short_folder, result["match_id"])
    assert m.state.forfeited == (0,) and m.reason == "finished"


async def test_a_stop_ends_the_race_without_a_result_and_shows_the_seed(short_folder):
    waiting, release = threading.Event(), threading.Event()
    out: list[str] = []

    def read(prompt: str) -> str:
        waiting.set()
        release.wait(60)  # blocks like a person who types nothing
        return "quit"

    task = asyncio.ensure_future(play(short_folder, players=2, seat=0, seed=6, read=read,
                                      echo=out.append))
    while not waiting.is_set():
        await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    release.set()  # the input thread ends while the loop still runs (its line is dropped)
    for thread in threading.enumerate():
        if thread.name == "terminal-input":
            await asyncio.to_thread(thread.join, 10)
    assert out[-1].startswith("Seed 6: python -m bot play --game race --seed 6 ")
    db = await SqliteDatabase.open(short_folder / "play.sqlite3")
    try:
        m = await MatchService(db).get_match(1)
    finally:
        await db.close()
    assert not m.active and m.reason == "stopped"


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
async def test_every_screen_fits_80_columns(short_folder, monkeypatch, lang):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("LINES", "24")
    t = Typist(["?", "t", "card", "bad input", "undo"], leave_after=12, lang=lang)
    await play(short_folder, players=5, seat=2, seed=4, board="jungle", read=t.read,
               echo=t.echo, lang=lang)
    shown = [line for text in t.out for line in wrapped(text, WIDTH).split("\n")]
    assert [ln for ln in shown if display_len(ln) > WIDTH] == []
    assert max(map(display_len, t.prompts)) <= WIDTH
    # the track's grid stays whole: no status line beside it was wrapped onto it
    grids = [ln for ln in shown if GRID_ROW.match(ln)]
    assert len(grids) >= 13 * 3
    if lang == "zh-TW":
        assert any("座位 3（你）" in ln for ln in shown)


def test_the_track_as_text_with_the_status_beside_it():
    state = race.new_game(5, 3, "desert")
    from tests.games.race.test_texts import race_match
    m = race_match(state)
    text = track_text(m, 0, width=80).split("\n")
    assert text[0].startswith("     A B C D E  turn 1 · seat ")
    assert text[1].startswith("     =finish==  seats: 1 you · 2 AI · 3 AI")
    assert any(ln.endswith(f"your card #{state.cards[0]}: " + " · ".join(
        f"{n + 1} {race.RAPTOR_NAMES[r]}" for n, r in enumerate(race.CARDS[state.cards[0]])))
        for ln in text)
    narrow = track_text(m, 0, width=40).split("\n")
    assert narrow[0] == "     A B C D E" and narrow[14] == "  0  " + " ".join(
        race.to_diagram(state).split("\n")[15].split()[1:])


def test_the_command_line_refuses_a_seat_outside_the_table(capsys):
    with pytest.raises(SystemExit) as exit_info:
        terminal.main(["--players", "2", "--seat", "3"])
    assert exit_info.value.code == 2
    assert "--seat 3: a race of 2 has seats 1 to 2" in capsys.readouterr().err


def start_play(folder: Path, *args: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["COLUMNS"] = "80"
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--game", "race", "--seed", "3", "--seat", "1",
         "--out", str(folder / "pc"), "--lang", "en", *args],
        cwd=folder, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)


def test_as_a_process_piped_input_plays_and_sigterm_stops(short_folder):
    proc = start_play(short_folder)
    out, err = proc.communicate(b"?\nkeep zz\nquit\ny\n", timeout=120)
    text = out.decode()
    assert proc.returncode == 0, err.decode()
    assert "Not played: 'keep zz' is not race notation" in text
    assert "You left the race" in text and "Traceback" not in err.decode()
    proc = start_play(short_folder)
    try:
        seen = b""
        while b"> " not in seen:
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, seen[-300:]
            seen += chunk
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        err = proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            pipe.close()
    assert proc.returncode == 143, err
    assert "Stopped." in err and "Traceback" not in err
