"""End-to-end harness: the real discord.py client against a local fake of Discord's API.

Quick start::

    from tests.fakediscord import FakeDiscord

    async def test_ping():
        async with FakeDiscord() as fake:
            alice = fake.add_user("alice")
            await fake.start_client(MyBot())
            out = await alice.slash("raptor ping")
            assert out.reply.ephemeral and out.reply.user_id == alice.id

or use the pytest fixture from :mod:`tests.fakediscord.fixture`.  See README.md here.
"""

from .fixture import fake_discord
from .gateway import PROCESS_HEADER
from .harness import DM, FakeChannel, FakeDiscord, FakeGuild, FakeUser, Outcome
from .models import Ack, Attachment, HarnessError, Record, Rejection, UnknownRoute
from .server import FakeDiscordServer

__all__ = [
    "DM",
    "Ack",
    "Attachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordServer",
    "FakeGuild",
    "FakeUser",
    "HarnessError",
    "PROCESS_HEADER",
    "Outcome",
    "Record",
    "Rejection",
    "UnknownRoute",
    "fake_discord",
]
