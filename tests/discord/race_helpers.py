"""Steps a test takes as a player of Raptor Race on the fake Discord, and lookups of the
race's card in what the fake recorded."""

from __future__ import annotations

import re
from collections.abc import Sequence

import engine.race as race
from bot.match import Match, Player
from engine.race import Phase
from tests.discord.conftest import World
from tests.fakediscord import FakeUser, Record

HAND = re.compile(r"race:m:[0-9]+:r:[0-9]+:hand")


def ids(record: Record) -> list[str]:
    return [c.get("custom_id") or "" for c in record.walk() if c.get("custom_id")]


def race_card(world: World, channel=None) -> Record:
    """The race's live card: the newest public message with **Your Top-3 card**."""
    for record in reversed(world.fake.public_messages(channel or world.fake.channel)):
        if any(HAND.fullmatch(i) for i in ids(record)):
            return record
    raise AssertionError("no race card in the channel")


async def table(world: World, monkeypatch, users: Sequence[FakeUser], *,
                board: str = "desert") -> Match:
    """A race of the people ``users`` (seats in that order), begun as the platform's lobby
    begins one: the match stored by ``MatchStarter.create`` with a human at every seat, then
    announced by the narrator in answer to the starter's command (here ``/race practice``,
    whose service call is replaced by that creation)."""
    service = world.service

    async def create_table(guild_id, channel_id, user_id, **_):
        players = [Player(seat, user.id) for seat, user in enumerate(users)]
        return await service.starter.create("race", guild_id, channel_id, players,
                                            {"board": board})

    with monkeypatch.context() as patch:
        patch.setattr(service, "start_practice", create_table)
        await users[0].slash("race practice", players=len(users))
    return await world.match()


async def play_decision(world: World, user: FakeUser, *, keep_first: bool = False,
                        typed: bool = False) -> Match:
    """``user`` makes the decision now on the card: while rolling, **Keep all** (or with
    ``keep_first`` the first die alone through the keep menu, when more than one was
    rolled); while moving, the first step of the card's menu (through a die's private menu
    when the steps do not fit one). ``typed``: the same through ``/race act``."""
    m = await world.match()
    state = m.state
    prefix = f"race:m:{m.id}:v:{m.version}"
    if state.phase is Phase.ROLL:
        if typed:
            await user.slash("race act", action="keep all")
        elif keep_first and len(state.rolled) > 1:
            await user.select(f"{prefix}:keep", values=["0"])
        else:
            await user.click(custom_id=f"{prefix}:keep:all")
        return await world.service.get_match(m.id)
    first = race.format_action(race.legal_actions(state, state.seat)[0])
    if typed:
        await user.slash("race act", action=first)
        return await world.service.get_match(m.id)
    card = race_card(world)
    if f"{prefix}:do" in ids(card):
        await user.select(f"{prefix}:do", values=[first])
    else:
        group = card.select_menu(f"{prefix}:grp")["options"][0]["value"]
        await user.select(f"{prefix}:grp", values=[group])
        menu = user.last_message()
        value = menu.select_menu(f"{prefix}:do:0")["options"][0]["value"]
        await user.select(f"{prefix}:do:0", values=[value])
    return await world.service.get_match(m.id)
