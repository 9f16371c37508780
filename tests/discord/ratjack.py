"""Steps of a Ratjack player on the fake Discord, and the checks the Ratjack tests share:
decisions made through the private view's controls, a match of several people begun by
the narrator, and what each seat may see (RJ11)."""

from __future__ import annotations

import re
from typing import Any

from bot.match import Match, Player
from engine.ratjack import EVERYONE, format_action, view
from tests.discord.conftest import World
from tests.fakediscord import FakeUser, Outcome, Record

HEADING = re.compile(r"your cards\*\* \(p([1-4])|你的牌\*\*（p([1-4])")


def controls(world: World, user: FakeUser, m: Match) -> dict[str, tuple[str, str]]:
    """The decisions offered to ``user`` for the current version of ``m``, in the messages
    they can see: notation -> (kind, custom_id)."""
    prefix = f"ratjack:m:{m.id}:v:{m.version}:"
    found: dict[str, tuple[str, str]] = {}
    for msg in world.fake.server.messages.values():
        if msg.deleted or not msg.visible_to(user):
            continue
        for comp in msg.walk():
            cid = comp.get("custom_id") or ""
            if cid.startswith(prefix + "play:"):
                found[cid[len(prefix) + len("play:"):]] = ("button", cid)
            elif cid.startswith(prefix + "menu:"):
                for option in comp["options"]:
                    found[option["value"]] = ("select", cid)
    return found


def policy(notations: list[str]) -> str:
    """A simple player: draw from the deck, play a card face up when it can, else the first
    decision offered."""
    for prefix in ("draw deck", "up ", "down "):
        for n in notations:
            if n.startswith(prefix):
                return n
    return notations[0]


async def decide(world: World, user: FakeUser) -> tuple[str, Outcome]:
    """``user`` makes their next decision through the controls of their private view
    (opened from the card's **Your cards** first when they have none for this version),
    which must offer exactly their legal actions. Returns the notation and the outcome."""
    m = await world.match()
    seat = next(s for s in m.seats_of(user.id) if s in m.to_act())
    offered = controls(world, user, m)
    if not offered:
        out = await user.click(custom_id=f"ratjack:m:{m.id}:r:{m.state.round}:hand")
        assert out.reply is not None and out.reply.ephemeral
        offered = controls(world, user, m)
    legal = [format_action(a) for a in view(m.state, seat).legal]
    assert sorted(offered) == sorted(legal)
    notation = policy(legal)
    kind, cid = offered[notation]
    if kind == "button":
        out = await user.click(custom_id=cid)
    else:
        out = await user.select(cid, values=[notation])
    return notation, out


async def begin_table(world: World, players: list[Player], *, decks: str = "rb",
                      by: FakeUser) -> Match:
    """A match of several people (and AI seats) begun as the lobby begins one: created by
    the match service with those ``players``, then announced by the narrator in reply to
    ``by``'s command (here the practice command stands in for the lobby's ``/ratjack
    table``, its service call replaced)."""
    service = world.service

    async def create(guild_id: int, channel_id: int, user_id: int, **_: Any) -> Match:
        return await service.starter.create("ratjack", guild_id, channel_id, players,
                                            {"decks": decks})

    service.start_practice = create  # type: ignore[method-assign]
    try:
        await by.slash("ratjack practice")
    finally:
        del service.start_practice
    return await world.match()


def hidden_names(m: Match) -> set[str]:
    """The cards of the round that the public does not know: in hands and face down, not
    seen by everyone (RJ11.1), and in the deck."""
    s = m.state
    out = set()
    for hand in s.hands:
        out |= {h.card for h in hand if EVERYONE not in h.seen}
    for display in s.displays:
        out |= {x.card for x in display if not x.up and EVERYONE not in x.seen}
    out |= set(s.deck)
    return out


def names_in(text: str, cards: set[str]) -> set[str]:
    """Which of ``cards`` (``C7``) appear as words in ``text``."""
    return {c for c in cards if re.search(rf"(?<![A-Za-z0-9]){c}(?![0-9])", text)}


def private_seats(record: Record) -> set[int]:
    """The seats whose private view ``record`` shows (by its heading)."""
    return {int(a or b) - 1 for a, b in HEADING.findall(record.content)}
