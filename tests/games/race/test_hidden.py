"""Hidden information in the offline modes (RR9.2): before the race ends, nothing the demo
prints, logs or draws, and nothing the terminal shows its player, depends on another seat's
Top-3 card.

The check is an experiment: the same race is played twice, every roll the same, with the
other seats' cards dealt differently and AI seats that do not read their card (the first
legal action), so that the cards can reach the output only by being shown. Until the result,
both runs must print, log and draw the same; after it, they differ (every card is shown then,
RR7.1), which proves the cards did change.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine.race as race
import engine.race.rules as rules
from bot.games.race import ai
from bot.games.race.demo import play_demo
from bot.games.race.terminal import play
from tests.games.race.test_terminal import Typist


def card_blind(view: race.RaceView, **_) -> race.Action:
    """An AI seat that never reads its card: the first legal action (legality reads no
    card)."""
    return race.legal_actions(race.sample_state(view, random.Random(0)), view.viewer)[0]


@pytest.fixture
def redeal(monkeypatch):
    """``redeal(keep)``: from now on the deal of every race gives the seats other than
    ``keep`` other cards (cards no seat had), ``keep`` the same card; every other chance
    stream (the start, the first seat, the rolls) is left as it was."""
    original = rules._stream

    def install(keep: int | None) -> None:
        def stream(seed: int, what: str):
            rng = original(seed, what)
            if what != "deal":
                return rng

            class Deal:
                def sample(self, population, k):
                    cards = rng.sample(population, k)
                    spare = [c for c in population if c not in cards]
                    return [c if seat == keep else spare[seat] for seat, c in enumerate(cards)]

            return Deal()

        monkeypatch.setattr(rules, "_stream", stream)

    monkeypatch.setattr(ai, "choose_action", card_blind)
    return install


def before_the_result(lines: list[str]) -> list[str]:
    end = next(i for i, ln in enumerate(lines) if ln.startswith("🏁 "))
    return lines[:end]


async def test_the_demo_shows_no_card_before_the_end(tmp_path: Path, redeal):
    runs = []
    for n, keep in enumerate((None, -1)):  # -1: every seat's card changes in the second run
        if keep is not None:
            redeal(keep)
        lines: list[str] = []
        summary = await play_demo(tmp_path / str(n), seed=7, players=4, echo=lines.append)
        cards = race.read_record(summary["record"].read_text()).final.cards
        runs.append((summary, lines, cards))
    (a, a_lines, a_cards), (b, b_lines, b_cards) = runs
    assert set(a_cards).isdisjoint(b_cards)
    assert a["turns"] == b["turns"] > 1
    assert before_the_result(a_lines) == before_the_result(b_lines)
    assert a_lines != b_lines  # the result shows the cards
    a_log, b_log = (s["log"].read_text().split("\n") for s in (a, b))
    assert before_the_result(a_log) == before_the_result(b_log) and a_log != b_log
    # every image but the last turn's (it shows the points) is the same
    assert [p.read_bytes() for p in a["pngs"][:-1]] == [p.read_bytes() for p in b["pngs"][:-1]]


async def test_the_terminal_shows_its_player_no_other_card_before_the_end(redeal):
    import shutil
    import tempfile

    outs = []
    folder = Path(tempfile.mkdtemp(prefix="h", dir="/tmp")) / "play"  # printed: the same twice
    try:
        for keep in (None, 1):  # the player is seat 2: their card stays
            if keep is not None:
                redeal(keep)
            t = Typist(["card", "t"])
            result = await play(folder, players=4, seat=1, seed=21, read=t.read, echo=t.echo)
            outs.append((result, t))
            shutil.rmtree(folder)  # the second race is match #1 of a new database too
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)
    (a, ta), (b, tb) = outs
    assert a["turns"] == b["turns"] > 1 and a["scores"] != b["scores"]
    assert before_the_result(ta.lines) == before_the_result(tb.lines)
    assert ta.prompts == tb.prompts
    assert ta.lines != tb.lines
