"""Terminal mode as a person meets it: ``python -m bot play`` on a pseudo-terminal
(80×24), with line editing and history, Tab completion, the resign confirmation, the reason
of a turn that ends by itself, lines that fit 80 columns, the manual setup and Ctrl-C."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
UP = b"\x1b[A"
#: A game in which, as the scientist, the AI's Fear ×2 leaves 1 AP that nothing can use.
LOST_AP_SEED = "8939373321752501320"
LOST_AP_SCRIPT = ["play 4", "gas k5", "gas d4", "play 8", "L6-L5", "L5 sleep K5", "L3-K3",
                "play 7", "play 9"]
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|[\x07\x08]")


class Console:
    """``python -m bot play ARGS`` with a pseudo-terminal of ``cols``×``rows`` as its stdin,
    stdout and stderr (TERM=xterm, COLUMNS set, no inputrc of the user's)."""

    def __init__(self, cwd: Path, *args: str, cols: int = 80, rows: int = 24) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, TERM="xterm", COLUMNS=str(cols), LINES=str(rows),
                   INPUTRC=os.devnull)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT),
                                                          env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", "play", "--out", "pc", *args],
                                     stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                                     start_new_session=True)
        os.close(slave)
        self.fd = master
        self.pending = b""
        self.transcript = b""  # everything the program wrote

    def _more(self, deadline: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the program has closed the terminal
            chunk = b""
        if not chunk:
            raise EOFError(self.text(self.pending[-600:]))
        self.pending += chunk
        self.transcript += chunk
        return True

    def expect(self, marker: str, timeout: float = 60) -> str:
        """The output up to and including ``marker`` (as text, escapes removed), waiting at
        most ``timeout`` seconds (a hang fails the test instead of blocking it)."""
        want = marker.encode()
        deadline = time.monotonic() + timeout
        while want not in self.pending:
            if not self._more(deadline):
                raise AssertionError(f"no {marker!r} within {timeout} s; last output:\n"
                                     + self.text(self.pending[-600:]))
        end = self.pending.index(want) + len(want)
        out, self.pending = self.pending[:end], self.pending[end:]
        return self.text(out)

    def type(self, data: bytes | str, settle: float = 0.0) -> None:
        os.write(self.fd, data.encode() if isinstance(data, str) else data)
        if settle:
            time.sleep(settle)

    def line(self, text: str, prompt: str) -> str:
        """Type ``text`` and Enter; the output up to the next ``prompt``."""
        self.type(text + "\r")
        return self.expect(prompt)

    def wait(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            try:
                self._more(min(deadline, time.monotonic() + 0.2))
            except EOFError:
                break
            assert time.monotonic() < deadline, "the program did not end"
        return self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.fd)

    @staticmethod
    def text(raw: bytes) -> str:
        return _ESCAPES.sub("", raw.decode("utf-8", "replace")).replace("\r", "")


@pytest.fixture
def console(tmp_path):
    made: list[Console] = []

    def start(*args: str) -> Console:
        c = Console(tmp_path, *args)
        made.append(c)
        return c

    yield start
    for c in made:
        c.close()


def unwrapped(text: str) -> str:
    """``text`` with the terminal's wrapping undone (a continuation line starts with two
    spaces more), for comparing whole sentences."""
    return re.sub(r"\n +", " ", text)


def test_history_recalls_the_last_entry_tab_completes_and_resigning_asks_first(console):
    c = console("--seed", LOST_AP_SEED, "--side", "scientist")
    c.expect("scientist> ")
    refused = c.line("kill A1", "scientist> ")
    assert "Not played: 'kill A1' is not legal now" in refused
    c.type(UP, settle=0.3)  # the Up arrow brings back 'kill A1'; Enter sends it again
    again = c.line("", "scientist> ")
    assert again.startswith("kill A1\n") and "Not played: 'kill A1' is not legal now" in again
    c.type("pl\t", settle=0.3)  # Tab at the first prompt already: 'play ' (4, 7 or 8)
    # Sleeping Gas ×2: babies on K5 and D4, and others; the prompt counts the units left
    picked = c.line("4", "scientist Sleeping Gas ×2 (2 left)> ")
    assert picked.startswith("play 4\nYou picked 4 · Sleeping Gas ×2.\n")
    c.type("gas k\t", settle=0.3)  # the one legal action that starts so: 'gas K5'
    played = c.line("", "scientist Sleeping Gas ×2 (1 left)> ")
    assert "Played: gas K5 — Gas the baby on K5" in played
    asked = c.line("quit", "(y/N)? ")
    assert asked.endswith("Really resign? Your opponent wins. Resign (y/N)? ")
    assert "Not resigned: play on." in c.line("n", "scientist Sleeping Gas ×2 (1 left)> ")
    c.line("resign", "(y/N)? ")  # the Discord command's name is a word here too
    c.type("y\r")
    assert c.wait() == 0
    end = c.text(c.transcript)
    assert "You resigned. Bye." in end
    assert f"Seed {LOST_AP_SEED}: python -m bot play --seed {LOST_AP_SEED}" in unwrapped(end)


def test_ctrl_d_at_the_prompt_resigns_on_a_line_of_its_own(console):
    c = console("--seed", "5")
    c.expect("raptor> ")
    c.type(b"\x04")  # Ctrl-D on an empty line: the end of input
    assert c.wait() == 0
    end = c.text(c.transcript)
    assert "raptor> \nEnd of input: you resign.\n" in end, end[-400:]
    assert "You resigned. Bye." in end


def test_a_turn_that_ends_by_itself_says_why(console):
    c = console("--seed", LOST_AP_SEED, "--side", "scientist")
    seen = c.expect("scientist> ")
    for entry in LOST_AP_SCRIPT:
        seen += c.line(entry, "> ")
    text = unwrapped(seen)
    assert ("Revealed: raptor 8, scientist 9: raptor resolves Fear ×2, scientist gets 1 AP.\n"
            "The raptor (AI): fear L5, fear K3\n"
            "Your turn ends: no action is possible with 1 AP: the scientists on K3 and L5 were "
            "frightened this round: they can stand up and act from the next round on.\n"
            "Round 4 is over") in text
    c.type("\x04")  # Ctrl-D: the end of input resigns without asking
    assert c.wait() == 0
    assert "End of input: you resign." in c.text(c.transcript)


def test_a_whole_game_at_80_columns_fits_them_and_shows_less_after_own_actions(console):
    """The raptor plays its highest card, spends one AP of a turn and ends it (else plays the
    first legal action), so the easy AI wins soon; no line of the whole game is wider than 80
    columns."""
    c = console("--seed", "5", "--side", "raptor")
    text = c.expect("> ")
    own = []
    for _ in range(2000):
        if "Game over:" in text:
            break
        ap = re.search(r"(\d+) AP> $", text)
        listed = c.line("?", "> ")
        # one action a line with its description, or (a long list) notation in columns
        actions = [t for ln in listed.splitlines() if re.match(r"  \S", ln)
                   for t in re.split(r" {2,}", ln.strip())]
        spend = ap is not None and int(ap[1]) >= 2 and "AP left" in text
        choice = "end" if "end" in actions and not spend else actions[0]
        if choice.startswith("play"):  # the highest card: the AP phase is the raptor's
            choice = max((a for a in actions if a.startswith("play ")),
                         key=lambda a: int(a.split()[1]))
        try:
            text = c.line(choice, "> ")
        except EOFError:  # the game ended: no more prompt
            break
        if choice != "end" and not choice.startswith("play"):
            own.append(text)
    assert c.wait() == 0
    whole = c.text(c.transcript)
    assert "Game over: the scientist (AI) wins" in unwrapped(whole)
    widest = max(whole.splitlines(), key=len)
    assert len(widest) <= 80, widest
    # after an action of the player's own that leaves the decision with them: one line
    quiet = [t for t in own if "AP> " in t.splitlines()[-1]]
    assert quiet and all(len(t.splitlines()) == 3 for t in quiet), quiet[:3]


def test_manual_setup_takes_the_placements_in_notation(console):
    c = console("--seed", "5", "--side", "raptor", "--setup", "manual")
    first = unwrapped(c.expect("raptor> "))
    assert ("Your move: place the mother on a free space of the two middle tiles, columns F-H "
            "(tiles T2 and T5).") in first
    assert "Not played: 'B@B1' is not legal now" in c.line("B@B1", "raptor> ")
    placed = []
    while len(placed) < 6:
        listed = c.line("?", "raptor> ")
        choice = next(ln.split("  ")[1] for ln in listed.splitlines() if ln.startswith("  "))
        out = c.line(choice, "raptor> ")
        assert f"Played: {choice} — Put " in out
        placed.append(choice)
    assert placed[0].startswith("M@") and all(p.startswith("B@") for p in placed[1:])
    assert "Your move: pick a card with 'play N'." in out  # the AI placed its scientists
    assert out.count("S") >= 4
    c.line("quit", "(y/N)? ")
    c.type("y\r")
    assert c.wait() == 0
    assert "--setup manual deals this game again." in unwrapped(c.text(c.transcript))


def test_ctrl_c_tells_the_seed_and_the_board_image_and_restores_the_terminal(console,
                                                                             tmp_path):
    c = console("--seed", "5")
    c.expect("raptor> ")
    c.type("pla", settle=0.3)  # in the middle of a line: the line editor holds the terminal
    c.proc.send_signal(signal.SIGINT)
    assert c.wait() == 130
    end = unwrapped(c.text(c.transcript))
    assert "Board image: pc/board.png" in end and (tmp_path / "pc" / "board.png").exists()
    assert "Seed 5: python -m bot play --seed 5 --side raptor" in end
    assert "Stopped." in end and "Traceback" not in end
    lflag = termios.tcgetattr(c.fd)[3]
    assert lflag & termios.ICANON and lflag & termios.ECHO  # as before the line editor
