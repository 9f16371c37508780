"""Fixtures of the end-to-end tests: the real bot (``bot.discord.app.create_bot``) on a real SQLite
file, driven through the real discord.py client against the fake Discord.

``world`` yields a :class:`tests.e2e.players.World`. At teardown it checks what a Discord
user would notice: every interaction of the test was acknowledged, each within Discord's
3 seconds (measured by the fake: from dispatching INTERACTION_CREATE to the callback POST),
and the fake saw no problem (unknown route, invalid request, logged error).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.players import World

ACK_DEADLINE = 3.0  # seconds (Discord's interaction deadline)


def check_acks(world: World) -> None:
    """Every interaction got exactly one first callback, in time."""
    server = world.fake.server
    unanswered = [i.name for i in server.interactions.values() if i.ack is None]
    assert not unanswered, f"interactions never acknowledged: {unanswered}"
    assert len(world.fake.acks) == len(server.interactions)
    slow = [(a.name, round(a.latency, 3)) for a in world.fake.acks
            if a.late or a.latency >= ACK_DEADLINE]
    assert not slow, f"acknowledged too late: {slow}"


@pytest.fixture
async def world(tmp_path) -> AsyncIterator[World]:
    async with World.open(tmp_path) as w:
        yield w
        check_acks(w)
        assert w.fake.acks, "the test made no interaction"
        w.fake.assert_clean()


@pytest.fixture(scope="session", autouse=True)
def _render_workers_start_warm(warm_render_workers) -> None:
    """The render workers of these tests' bots fork from a warm server (tests/conftest.py)."""
