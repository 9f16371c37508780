"""Fixtures for the Discord bot tests: the real bot (``bot.discord.app.create_bot``) on a real
SQLite file, driven through the fake Discord of ``tests/fakediscord``.

``world`` gives a started fake Discord with the bot logged in and two members, alice and bob;
the server has threads turned off (``/raptor-admin threads``), so matches play in #general.
Matches use a fixed seed (``SEED``) so positions are reproducible; the AI is the real one
with a tiny time budget.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

import bot.match.service
import engine
from bot.discord.app import RaptorBot, build_service, create_bot
from bot.match import Match
from bot.settings import Settings
from bot.storage.db import SqliteDatabase
from tests.clock import FakeClock
from tests.fakediscord import FakeDiscord, FakeUser

SEED = 20240607


@dataclass
class World:
    fake: FakeDiscord
    bot: RaptorBot
    db: SqliteDatabase
    clock: FakeClock
    alice: FakeUser
    bob: FakeUser

    @property
    def service(self) -> bot.match.service.MatchService:
        return self.bot.service

    async def match(self) -> Match:
        """The active match of the default channel."""
        m = await self.service.active_match(self.fake.channel.id)
        assert m is not None, "no active match in #general"
        return m


def make_settings(**overrides: object) -> Settings:
    values: dict[str, object] = {"ai_time_budget": 0.05, "turn_timeout_hours": 24.0,
                                 "challenge_timeout_minutes": 10.0}
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
async def world(tmp_path) -> AsyncIterator[World]:
    """Every new match gets the seed ``SEED``; the service's clock is a ``FakeClock``."""
    clock = FakeClock()
    db = await SqliteDatabase.open(tmp_path / "raptor.sqlite3")
    settings = make_settings(db_path=str(tmp_path / "raptor.sqlite3"))
    service = build_service(settings, db, clock=clock, seed_source=lambda: SEED)
    try:
        async with FakeDiscord() as fake:
            alice = fake.add_user("alice")
            bob = fake.add_user("bob")
            raptor_bot = await create_bot(settings, db, service=service)
            await fake.start_client(raptor_bot)
            # these tests watch matches played in #general itself (the server turned threads
            # off); a thread per match is tested in tests/e2e/test_threads.py
            await service.set_guild_threads(fake.guild_id, False)
            yield World(fake, raptor_bot, db, clock, alice, bob)
    finally:
        await db.close()


def state_of(match: Match) -> engine.GameState:
    return match.state


@pytest.fixture(scope="session", autouse=True)
def _render_workers_start_warm(warm_render_workers) -> None:
    """The render workers of these tests' bots fork from a warm server (tests/conftest.py)."""
