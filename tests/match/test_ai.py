"""The AI through the service: it acts from its own view only, with a seed derived from the
match, in practice and AI-vs-AI matches."""

from __future__ import annotations

import asyncio
import random

import pytest

import engine
from bot.games.raptor import sides as rs
from bot.match import MatchService, Player
from bot.match.play import ai_seed as _ai_seed
from tests.match.conftest import (
    ALICE,
    BOT_USER,
    CHANNEL,
    GUILD,
    check_replay,
    random_chooser,
)

RAPTOR = engine.Side.RAPTOR
SCIENTIST = engine.Side.SCIENTIST


class Recorder:
    """A chooser that records what it was given and plays a random legal action."""

    def __init__(self, inner=random_chooser) -> None:
        self.calls: list[tuple[engine.View, dict]] = []
        self.inner = inner

    def __call__(self, view, **kwargs):
        self.calls.append((view, kwargs))
        return self.inner(view, **kwargs)


@pytest.fixture
def recorder(db, clock):
    rec = Recorder()
    svc = MatchService(db, clock=clock, ai_chooser=rec, ai_time_budget=0.25,
                       seed_source=lambda: 777)
    return rec, svc


async def test_ai_picks_from_its_own_view_without_the_humans_pick(recorder):
    rec, svc = recorder
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=0, level="easy",
                                 ai_user_id=BOT_USER)
    human_card = m.state.hands[RAPTOR][0]
    await svc.act(m.id, ALICE, engine.Pick(human_card))  # the human picks first
    results = await svc.play_ai(m.id, max_steps=1)
    assert len(results) == 1 and results[0].seat == 1 and rs.acted(results[0]) is SCIENTIST
    view, kwargs = rec.calls[0]
    assert view.viewer is SCIENTIST
    assert view.picked[RAPTOR] is True
    assert view.my_pick is None and view.shown_pick is None
    assert view.hand == m.state.hands[SCIENTIST]
    assert kwargs == {"level": "easy", "seed": _ai_seed("raptor", 777, 1, "scientist"),
                      "time_budget": 0.25}
    assert kwargs["seed"] != 777 and 0 <= kwargs["seed"] < 2**63


async def test_a_service_with_fixed_ai_work_passes_it_as_iterations(db, clock):
    # ai_iterations (the offline demo's fixed work) reaches the chooser as iterations=,
    # beside the budget; without it the chooser gets no iterations at all (above)
    def fixed_work_chooser(view, *, iterations: int, **kwargs):
        return random_chooser(view, **kwargs)

    rec = Recorder(fixed_work_chooser)
    svc = MatchService(db, clock=clock, ai_chooser=rec, ai_time_budget=0.25,
                       seed_source=lambda: 777, ai_iterations=40)
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=1,
                                 ai_user_id=BOT_USER)
    await svc.play_ai(m.id)
    _view, kwargs = rec.calls[0]
    assert kwargs == {"level": "easy", "seed": _ai_seed("raptor", 777, 0, "raptor"),
                      "time_budget": 0.25, "iterations": 40}


async def test_play_ai_stops_when_a_human_must_act(recorder):
    rec, svc = recorder
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=1,
                                 ai_user_id=BOT_USER)
    results = await svc.play_ai(m.id)
    # Only the AI's pick was due: the human still has to pick.
    assert [r.seat for r in results] == [0] and [rs.acted(r) for r in results] == [RAPTOR]
    after = await svc.get_match(m.id)
    assert engine.to_act(after.state) == {SCIENTIST}
    assert await svc.play_ai(m.id) == []
    assert await svc.matches_waiting_for_ai() == []


async def test_practice_match_to_the_end_with_the_ai(recorder):
    ai = pytest.importorskip("bot.ai")
    rec, svc = recorder
    rec.inner = ai.choose_action  # the real AI ends games sooner than random play
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=0,
                                 ai_user_id=BOT_USER)
    rng = random.Random(2)
    while m.active:
        await svc.play_ai(m.id)
        m = await svc.get_match(m.id)
        if not m.active:
            break
        acting = engine.to_act(m.state)
        assert acting == {RAPTOR}
        r = await svc.act(m.id, ALICE, rng.choice(engine.legal_actions(m.state, RAPTOR)))
        m = r.match
    assert rs.result(m) in ("raptor", "scientist")
    assert await check_replay(svc, m.id) == m.state
    assert all(view.viewer is SCIENTIST for view, _ in rec.calls)
    assert (await svc.stats(GUILD, "raptor", ALICE)).games == 0  # practice is not rated


async def test_ai_vs_ai_match(recorder, db):
    rec, svc = recorder
    m = await svc.start_ai_match(GUILD, CHANNEL, game="raptor", levels=["easy", "hard"],
                                 ai_user_ids=[1, 2], seed=99)
    assert m.players == (Player(0, 1, "easy"), Player(1, 2, "hard"))
    assert m.seed == 99 and m.deadline_at is None
    results = await svc.play_ai(m.id, max_steps=60)
    m = await svc.get_match(m.id)
    assert m.active and len(results) == m.log_length == 60
    levels = {SCIENTIST: "hard", RAPTOR: "easy"}
    assert all(kw["level"] == levels[view.viewer] for view, kw in rec.calls)
    assert {view.viewer for view, _ in rec.calls} == {RAPTOR, SCIENTIST}
    assert await check_replay(svc, m.id) == m.state
    # Each decision got its own seed.
    seeds = [kw["seed"] for _, kw in rec.calls]
    assert len(set(seeds)) == len(seeds) == 60


async def test_concurrent_play_ai_calls_take_turns(recorder):
    rec, svc = recorder
    m = await svc.start_ai_match(GUILD, CHANNEL, game="raptor", levels=["easy", "easy"],
                                 ai_user_ids=[1, 2])
    a, b = await asyncio.gather(svc.play_ai(m.id, max_steps=5), svc.play_ai(m.id, max_steps=5))
    assert len(a) == len(b) == 5
    assert (await svc.get_match(m.id)).log_length == 10
    assert len(rec.calls) == 10  # no decision was computed twice


async def test_the_real_ai_plays_a_practice_match(db, clock):
    pytest.importorskip("bot.ai")
    svc = MatchService(db, clock=clock, ai_time_budget=0.1, seed_source=lambda: 5)
    m = await svc.start_ai_match(GUILD, CHANNEL, game="raptor", levels=["easy", "easy"],
                                 ai_user_ids=[1, 2])
    await svc.play_ai(m.id)
    m = await svc.get_match(m.id)
    assert m.status == "finished" and rs.result(m) in ("raptor", "scientist")
    assert await check_replay(svc, m.id) == m.state
