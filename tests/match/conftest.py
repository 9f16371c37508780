"""Fixtures for the match service tests: a real database — each test runs once on an SQLite
file in tmp_path and once on PostgreSQL (:mod:`tests.databases`) — and a fake clock."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator

import pytest

import engine
from bot.games.raptor import sides as rs
from bot.match import Match, MatchService
from bot.storage.db import SqliteDatabase
from bot.storage.pg import PgDatabase
from tests.clock import FakeClock
from tests.databases import BACKENDS, database_target, open_target

__all__ = ["open_target"]

GUILD = 1
CHANNEL = 10
ALICE = 100
BOB = 200
CAROL = 300
BOT_USER = 999


def random_chooser(view: engine.View, *, level: str, seed: int,
                   time_budget: float) -> engine.Action:
    """A stand-in AI with the real signature: a uniformly random legal action, found from a
    state sampled from the AI's own view (so it cannot use hidden information)."""
    rng = random.Random(seed)
    sampled = engine.sample_state(view, rng)
    return rng.choice(engine.legal_actions(sampled, view.viewer))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "raptor.sqlite3"


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    """``"sqlite"`` or ``"postgresql"``: the database under test."""
    return request.param


@pytest.fixture
async def db_target(backend, tmp_path) -> AsyncIterator[str]:
    """Where the test's database lives: an SQLite file path or a PostgreSQL URL (open a
    second connection to it, as another process would, with :func:`open_target`)."""
    async with database_target(backend, tmp_path) as target:
        yield target


@pytest.fixture
async def db(db_target) -> AsyncIterator[SqliteDatabase | PgDatabase]:
    database = await open_target(db_target)
    yield database
    await database.close()


@pytest.fixture
async def sqlite_db(db_path) -> AsyncIterator[SqliteDatabase]:
    """An SQLite database only (tests of SQLite's own connection handling)."""
    database = await SqliteDatabase.open(db_path)
    yield database
    await database.close()


#: The claim lease (seconds) of the two "processes" of :func:`pair`.
LEASE = 30.0


@pytest.fixture
async def pair(db_target, clock) -> AsyncIterator[list[MatchService]]:
    """Two match services, "a" and "b", on separate connections to one database (as two
    processes would be), each with its own owner name in claims and a lease of
    :data:`LEASE` seconds."""
    dbs = [await open_target(db_target) for _ in range(2)]
    services = [MatchService(d, turn_timeout=3600.0, challenge_timeout=600.0, clock=clock,
                             ai_chooser=random_chooser, owner=name, claim_lease=LEASE)
                for d, name in zip(dbs, ("a", "b"), strict=True)]
    yield services
    for d in dbs:
        await d.close()


@pytest.fixture
def svc(db, clock) -> MatchService:
    seeds = itertools.count(1000)  # predictable seeds keep the tests reproducible
    return MatchService(db, turn_timeout=3600.0, challenge_timeout=600.0, clock=clock,
                        ai_chooser=random_chooser, seed_source=lambda: next(seeds))


async def start_match(svc: MatchService, *, channel: int = CHANNEL, raptor: int = ALICE,
                      scientist: int = BOB, setup: str = "quick",
                      guild: int = GUILD) -> Match:
    """A human-vs-human match via a challenge (``raptor`` challenges as the raptor)."""
    ch = await svc.create_challenge(guild, channel, raptor, scientist, game="raptor", seat=0,
                                    options={"setup": setup})
    return await svc.accept_challenge(ch.id, scientist)


def pick_random(m: Match, rng: random.Random) -> tuple[engine.Side, engine.Action]:
    """The first side to act (raptor before scientist) and a random legal action for it."""
    side = sorted(engine.to_act(m.state))[0]
    return side, rng.choice(engine.legal_actions(m.state, side))


async def play_random(svc: MatchService, m: Match, rng: random.Random,
                      steps: int | None = None) -> Match:
    """Play random legal actions through the service until the game ends (or ``steps``)."""
    n = 0
    while m.active and (steps is None or n < steps):
        side, action = pick_random(m, rng)
        m = (await svc.act(m.id, rs.user(m, side), action, expected_version=m.version)).match
        n += 1
    return m


async def check_replay(svc: MatchService, match_id: int) -> engine.GameState:
    """Assert that the replay of the seed and the log equals the state as stored in the
    database (parsed from its JSON text, not a cached object) and as ``get_match`` returns
    it; returns that state."""
    row = await svc.db.fetchone("SELECT state FROM matches WHERE id = ?", (match_id,))
    stored = engine.GameState.from_json(row["state"])
    replayed = await svc.replayed_state(match_id)
    assert replayed == stored
    assert replayed.to_json() == row["state"]
    assert (await svc.get_match(match_id)).state == stored
    return stored
