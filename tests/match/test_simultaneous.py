"""Decisions saved at the same moment (the simultaneous card pick, R5.1): neither is lost.

Each race is made certain: the saves are held until both decisions have loaded the match
(:func:`tests.databases.saves_held_together`), so both were made on the same version and one
save loses the version check; on SQLite and PostgreSQL (the ``svc`` fixture), and with two
OS processes on one database (``tests/match/pick_worker.py``)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import threading
from pathlib import Path

import pytest

import engine
from bot import games
from bot.games.base import GamePlugin
from bot.games.raptor import sides as rs
from bot.match import MatchService, NotYourTurnError, StaleError
from engine.raptor_game import side_of
from tests.databases import saves_held_together
from tests.match.conftest import (
    ALICE,
    BOB,
    BOT_USER,
    CHANNEL,
    GUILD,
    check_replay,
    random_chooser,
    start_match,
)

RAPTOR = engine.Side.RAPTOR
SCIENTIST = engine.Side.SCIENTIST
ROOT = Path(__file__).resolve().parents[2]


async def _picks(svc: MatchService, match_id: int) -> list[tuple[engine.Side, int]]:
    return sorted((side_of(seat), a.card) for _, seat, a in await svc.action_log(match_id)
                  if isinstance(a, engine.Pick))


@pytest.mark.parametrize("versioned", [False, True], ids=["card-button", "with-version"])
async def test_both_players_pick_at_the_same_moment_and_both_picks_are_saved(svc, versioned):
    m = await start_match(svc)
    r_card, s_card = m.state.hands[RAPTOR][1], m.state.hands[SCIENTIST][2]
    version = m.version if versioned else None
    async with saves_held_together(svc.db) as changed:
        r, s = await asyncio.gather(
            svc.act(m.id, ALICE, engine.Pick(r_card), expected_version=version),
            svc.act(m.id, BOB, engine.Pick(s_card), expected_version=version),
            return_exceptions=True)
    assert sorted(changed) == [0, 1]  # one save lost the version check: a race, each time
    assert not isinstance(r, Exception) and not isinstance(s, Exception), (r, s)
    assert sorted([r.match.version, s.match.version]) == [1, 2]
    assert await _picks(svc, m.id) == [(RAPTOR, r_card), (SCIENTIST, s_card)]
    after = await svc.get_match(m.id)
    assert after.version == 2 and after.log_length == 2
    assert after.state.revealed == (r_card, s_card)  # both revealed (R5.1)
    assert await check_replay(svc, m.id) == after.state


async def test_two_picks_of_one_player_at_the_same_moment_save_one(svc):
    m = await start_match(svc)
    first, second = m.state.hands[RAPTOR][0], m.state.hands[RAPTOR][1]
    async with saves_held_together(svc.db) as changed:
        results = await asyncio.gather(svc.act(m.id, ALICE, engine.Pick(first)),
                                       svc.act(m.id, ALICE, engine.Pick(second)),
                                       return_exceptions=True)
    assert sorted(changed) == [0, 1]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], StaleError)
    assert str(refused[0]) == ("Already done: your other decision at the same moment was "
                               "saved first, so this one was not played. Look at the latest "
                               "message.")
    saved = next(r for r in results if not isinstance(r, Exception))
    assert await _picks(svc, m.id) == [(RAPTOR, saved.action.card)]
    assert (await svc.get_match(m.id)).version == 1


async def test_a_pick_made_before_the_other_players_pick_is_saved_after_it(svc):
    """A decision made at version 0 (as the AI makes its own, and as a button carries it)
    still applies at version 1 when all that changed is the other side's hidden pick."""
    m = await start_match(svc)
    await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    s_card = m.state.hands[SCIENTIST][2]
    r = await svc.act(m.id, BOB, engine.Pick(s_card), expected_version=0)
    assert r.match.version == 2 and (SCIENTIST, s_card) in await _picks(svc, m.id)
    # more than the other side's pick changed: refused as before
    m = await start_match(svc, channel=CHANNEL + 1)
    await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    with pytest.raises(StaleError, match="^Already done: this position has changed since"):
        await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][1]), expected_version=0)


class GatedChooser:
    """A random AI that counts its decisions and, on the first, waits in its thread until
    the test lets it answer."""

    def __init__(self) -> None:
        self.calls = 0
        self.thinking = threading.Event()
        self.answer = threading.Event()

    def __call__(self, view, **kwargs):
        self.calls += 1
        self.thinking.set()
        assert self.answer.wait(30)
        return random_chooser(view, **kwargs)


async def _wait_for(event: threading.Event) -> None:
    for _ in range(3000):
        if event.is_set():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the AI never started thinking")


async def test_the_ai_pick_decided_while_the_human_picked_is_played_without_thinking_again(
        db, clock):
    ai = GatedChooser()
    svc = MatchService(db, clock=clock, ai_chooser=ai, seed_source=lambda: 4242)
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=0, level="easy",
                                 ai_user_id=BOT_USER)
    playing = asyncio.create_task(svc.play_ai(m.id, max_steps=1))
    await _wait_for(ai.thinking)  # the AI thinks on version 0 ...
    human = await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    assert human.match.version == 1  # ... the human's pick is saved meanwhile
    ai.answer.set()
    results = await asyncio.wait_for(playing, 30)
    assert ai.calls == 1  # its decision still applied: not thrown away and made again
    assert [(rs.acted(r), r.match.version) for r in results] == [(SCIENTIST, 2)]
    assert [side for side, _ in await _picks(svc, m.id)] == [RAPTOR, SCIENTIST]


async def test_the_human_and_the_ai_pick_at_the_same_moment(db, clock):
    calls = []

    def chooser(view, **kwargs):
        calls.append(view.viewer)
        return random_chooser(view, **kwargs)

    svc = MatchService(db, clock=clock, ai_chooser=chooser, seed_source=lambda: 4243)
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=1, level="easy",
                                 ai_user_id=BOT_USER)
    card = m.state.hands[SCIENTIST][0]
    async with saves_held_together(svc.db) as changed:
        human, results = await asyncio.gather(
            svc.act(m.id, ALICE, engine.Pick(card)), svc.play_ai(m.id, max_steps=1))
    assert sorted(changed) == [0, 1]
    assert calls == [RAPTOR]  # one decision of the AI, saved whether it won or lost
    assert [rs.acted(r) for r in results] == [RAPTOR] and rs.acted(human) is SCIENTIST
    assert sorted([human.match.version, results[0].match.version]) == [1, 2]
    assert [side for side, _ in await _picks(svc, m.id)] == [RAPTOR, SCIENTIST]
    assert (SCIENTIST, card) in await _picks(svc, m.id)


async def test_an_undo_and_a_move_at_the_same_moment_stay_consistent(svc):
    m = await start_match(svc)
    await svc.act(m.id, ALICE, engine.Pick(max(m.state.hands[RAPTOR])))
    m = (await svc.act(m.id, BOB, engine.Pick(min(m.state.hands[SCIENTIST])))).match
    while m.state.phase is engine.Phase.EFFECT:  # the scientist's low card first (R5.4)
        side = m.state.effect.side
        m = (await svc.act(m.id, rs.user(m, side),
                           engine.legal_actions(m.state, side)[0])).match
    assert m.state.phase is engine.Phase.AP and m.state.ap.side is RAPTOR
    move = next(a for a in engine.legal_actions(m.state, RAPTOR)
                if not isinstance(a, engine.End))
    m = (await svc.act(m.id, ALICE, move)).match
    async with saves_held_together(svc.db) as changed:
        undone, ended = await asyncio.gather(svc.undo(m.id, ALICE),
                                             svc.act(m.id, ALICE, engine.End()),
                                             return_exceptions=True)
    assert sorted(changed) == [0, 1]
    assert not isinstance(ended, Exception), ended  # End stays legal either way
    kinds = [e.kind for e in await svc.raw_log(m.id)][-2:]
    if isinstance(undone, Exception):  # End was saved first: the undo is refused, plainly
        assert str(undone) == ("Nothing was undone: another decision was saved in this match "
                               "at the same moment. Look at the latest message.")
        assert kinds == ["action", "action"]
    else:  # the undo was saved first, then End applied to the position it left
        assert kinds == ["undo", "action"]
    await check_replay(svc, m.id)


def test_not_your_turn_is_total_when_nobody_is_to_act():
    s = engine.new_game(5)
    rng = random.Random(5)
    while not s.is_over:
        side = sorted(engine.to_act(s))[0]
        s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
    raptor = games.plugin("raptor")
    for seat in (0, 1):
        # Raptor's own refusal, and the platform's default any game gets
        for text in (raptor.waiting_text(s, seat, 2),
                     GamePlugin.waiting_text(raptor, s, seat, 2)):
            error = NotYourTurnError(text)
            assert str(error) == "The game is over: nobody has anything left to decide."


# ----------------------------------------------------------------------------- processes
async def _worker(target: str, match_id: int, user_id: int, card: int):
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.match.pick_worker", target, str(match_id), str(user_id),
        str(card), cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


async def test_two_processes_pick_at_the_same_moment_and_both_picks_are_saved(db_target, svc):
    m = await start_match(svc)
    r_card, s_card = m.state.hands[RAPTOR][2], m.state.hands[SCIENTIST][1]
    workers = [await _worker(db_target, m.id, ALICE, r_card),
               await _worker(db_target, m.id, BOB, s_card)]
    try:
        for w in workers:  # each has loaded the match (version 0) and holds its save
            line = json.loads(await asyncio.wait_for(w.stdout.readline(), 60))
            assert line == {"holding": 0}
        for w in workers:
            w.stdin.write(b"go\n")
            await w.stdin.drain()
        outs = [json.loads(line) for w in workers
                for line in (await asyncio.wait_for(w.communicate(), 60))[0].splitlines()]
    finally:
        for w in workers:
            if w.returncode is None:
                w.kill()
                await w.wait()
    assert [w.returncode for w in workers] == [0, 0], outs
    assert sorted(o["changed"] for o in outs) == [0, 1]  # one save lost the version check
    assert sorted(o["saved"] for o in outs) == [1, 2]
    assert await _picks(svc, m.id) == [(RAPTOR, r_card), (SCIENTIST, s_card)]
    after = await svc.get_match(m.id)
    assert after.state.revealed == (r_card, s_card)
    assert await check_replay(svc, m.id) == after.state
