"""Ready-made ways to get a :class:`~.harness.FakeDiscord` in a test.

* ``async with fake_discord(bot, users=["alice", "bob"]) as fake:`` - async context manager;
  starts the fake, adds the users (``fake.users["alice"]``), logs ``bot`` in (if given) and
  tears everything down (raising on leftover problems when ``strict``).
* the ``fakediscord`` pytest fixture - a started ``FakeDiscord`` without a client.  Make it
  available with ``pytest_plugins = ["tests.fakediscord.fixture"]`` in the top-level
  ``tests/conftest.py`` (in a test module that also imports ``tests.fakediscord`` pytest
  warns it can't assert-rewrite the module; there, copy the four-line fixture instead).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from .harness import FakeDiscord


@asynccontextmanager
async def fake_discord(client: Any = None, *, users: Iterable[str] = (),
                       **options: Any) -> AsyncIterator[FakeDiscord]:
    """Start a FakeDiscord (``options`` go to its constructor), add ``users`` by name and
    start ``client`` if given.  The users are available as ``fake.users[name]``."""
    fake = FakeDiscord(**options)
    async with fake:
        for name in users:
            fake.add_user(name)
        if client is not None:
            await fake.start_client(client)
        yield fake


@pytest.fixture
async def fakediscord() -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord (no client yet): add users, then ``await
    fakediscord.start_client(bot)``.  Problems (unknown routes, invalid requests, logged
    errors) fail the test at teardown."""
    async with FakeDiscord() as fake:
        yield fake
