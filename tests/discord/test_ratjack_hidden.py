"""Hidden information on Discord (RJ11): what a seat receives depends only on what that
seat may know. Non-interference: redeal every card a seat does not know, consistently with
its view (:func:`engine.ratjack.sample_state`), and everything that seat — and a
spectator — receives from the bot is the same, byte for byte: messages, embeds, images,
components, autocomplete choices, refusals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.match import Match, Player
from engine.ratjack import Phase, sample_state, view
from tests.discord.conftest import World
from tests.discord.ratjack import begin_table, decide
from tests.fakediscord import FakeUser, Outcome

ALICE, BOB = 0, 1


def shown(out: Outcome, user: FakeUser) -> list[Any]:
    """What ``user`` got from one interaction, without the ids that differ anyway."""
    return [(r.visibility, r.edit, r.content, r.embeds, r.components,
             [(a.filename, a.data) for a in r.attachments], r.pinged)
            for r in out.visible_to(user)]


async def observe(world: World, user: FakeUser, m: Match) -> list[Any]:
    """Everything ``user`` receives when they look at the match every way they can: the
    public table and status, their private view (button, command), the autocomplete of
    ``act``, a decision refused, a forged click refused, and the card brought up to date.
    The images are drawn afresh (the image cache is emptied first)."""
    for cache in world.bot.flow.images._caches.values():
        cache.clear()
    seen: list[Any] = []
    seen.append(shown(await user.slash("ratjack board"), user))
    seen.append(shown(await user.slash("ratjack status"), user))
    seen.append(shown(await user.slash("ratjack hand"), user))
    card = next(r for r in reversed(world.fake.public_messages(world.fake.channel))
                if any(b.get("custom_id", "").endswith(":hand") for b in r.buttons))
    seen.append(shown(await user.click(custom_id=f"ratjack:m:{m.id}:r:{m.state.round}:hand",
                                       message=card), user))
    for typed in ("", "p", "up", "down", "discard", "draw"):
        seen.append(await user.autocomplete("ratjack act", "action", typed))
    for typed in ("up R1", "down B12", "discard C7", "flip @1", "p3@1", "draw deck"):
        seen.append(shown(await user.slash("ratjack act", action=typed), user))
    forged = f"ratjack:m:{m.id}:v:{m.version}:play:up R12"
    seen.append(shown(await user.forge_click(forged, message=card), user))
    mine = [r for r in world.fake.ephemerals(user) if r.attachments]
    if mine:  # on their own private view
        seen.append(shown(await user.forge_click(forged, message=mine[-1]), user))
    before = len(world.fake.records)
    await world.bot.flow.cards.refresh(m.id)
    seen.append([(r.content, r.embeds, r.components, [a.data for a in r.attachments])
                 for r in world.fake.records[before:] if r.visible_to(user)])
    return seen


async def redeal(world: World, m: Match, seat: int, seed: int) -> Match:
    """Store a state of ``m`` that ``seat`` cannot tell from the true one: every card it does
    not know drawn again (:func:`sample_state`)."""
    other = sample_state(view(m.state, seat), random.Random(seed))
    assert view(other, seat) == view(m.state, seat)
    assert other != m.state
    await world.db.write("UPDATE matches SET state = ? WHERE id = ?",
                         (other.to_json(), m.id))
    after = await world.service.get_match(m.id)
    assert after.state == other and after.version == m.version
    return after


async def position(world: World) -> Match:
    """A three-player match (alice, bob, the AI) played a few turns, at alice's action:
    she holds two cards and others hold hidden cards."""
    fake = world.fake
    m = await begin_table(world, [Player(ALICE, world.alice.id), Player(BOB, world.bob.id),
                                  Player(2, fake.bot_user.id, "easy")], by=world.alice)
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    steps = 0
    while not (steps >= 8 and m.to_act() == {ALICE} and m.state.phase is Phase.ACTION):
        (seat,) = m.to_act()
        await decide(world, users[m.user_of(seat)])
        m = await world.match()
        steps += 1
        assert steps < 200
    assert any(not x.up for d in m.state.displays for x in d)
    return m


@pytest.mark.parametrize("seat", [BOB, ALICE])
async def test_a_seat_and_a_spectator_cannot_tell_a_redeal_of_what_they_do_not_know(
        world: World, seat: int):
    fake = world.fake
    carol = fake.add_user("carol")
    m = await position(world)
    user = world.bob if seat == BOB else world.alice
    first = await observe(world, user, m)
    first_carol = await observe(world, carol, m)
    for n in (1, 2):
        other = await redeal(world, m, seat, seed=n)
        # the others' hands differ, or their hidden cards, or the deck
        assert (other.state.hands, other.state.displays, other.state.deck) != (
            m.state.hands, m.state.displays, m.state.deck)
        assert await observe(world, user, other) == first
        assert await observe(world, carol, other) == first_carol
    # and the observation is not empty: the private view and the refusals were there
    flat = repr(first)
    assert f"your cards** (p{seat + 1}, round 1)" in flat and "hand.png" in flat
    assert ("That is not one of your decisions now. You may: `up " in flat if seat == ALICE
            else "It's not your turn: waiting for player 1 to play a card" in flat)
    assert fake.problems() == []
