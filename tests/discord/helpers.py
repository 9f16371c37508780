"""Small steps a test takes as a Discord user, and lookups in what the fake Discord recorded."""

from __future__ import annotations

import re

from bot.games.raptor import texts
from bot.match import Match
from engine import Side
from tests.discord.conftest import World
from tests.fakediscord import FakeUser, Outcome, Record

CONTROL = re.compile(r"raptor:m:[0-9]+:v:[0-9]+:")


async def start_match(world: World, *, side: str = "raptor", setup: str = "quick") -> Match:
    """alice challenges bob (alice plays ``side``), bob accepts; returns the new match."""
    await world.alice.slash("raptor challenge", user=world.bob, side=side, setup=setup)
    await world.bob.click("Accept")
    return await world.match()


async def pick(user: FakeUser, side: Side, card: int) -> Outcome:
    """Open the hand with "Pick your card", then click the card's button."""
    await user.click("Pick your card")
    return await user.click(texts.card_label(side, card))


def has_controls(record: Record) -> bool:
    return any(CONTROL.match(c.get("custom_id") or "") for c in record.walk())


def turn_message(world: World) -> Record:
    """The newest public message that carries decision controls."""
    for record in reversed(world.fake.public_messages(world.fake.channel)):
        if has_controls(record):
            return record
    raise AssertionError("no public message with decision controls")


def option_values(record: Record, placeholder: str | None = None) -> list[str]:
    menus = record.selects if placeholder is None else [record.select_menu(placeholder)]
    return [o["value"] for menu in menus if menu for o in menu["options"]]


def public_text(world: World) -> str:
    """Everything public so far, as one string (contents, embeds)."""
    return "\n".join(r.text for r in world.fake.records if r.visibility == "public")
