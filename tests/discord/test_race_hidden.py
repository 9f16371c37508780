"""Hidden information on Discord (RR9.2): a Top-3 card reaches its holder only.

Two worlds are played exactly alike — the same seed, the same players, the same clicks,
commands and typing — except for the card dealt to bob (seat 2). Everything alice (seat 1)
and carol (watching, no seat) receive must then be the same in both: every public message
and edit, their ephemeral answers and refusals, alice's DMs, embeds, components (custom
ids, labels, options), the bytes of every image, the autocomplete lists, and the bot's log
lines. Bob himself must see the difference (the test would otherwise prove nothing).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
import re
from collections.abc import AsyncIterator

import pytest

from bot.discord.app import build_service, create_bot
from bot.storage.db import SqliteDatabase
from engine.race import RACE, Phase
from tests.clock import FakeClock
from tests.discord.conftest import SEED, World, make_settings
from tests.discord.race_helpers import play_decision, race_card, table
from tests.fakediscord import FakeDiscord

GUILD = 881_000_000_000_000_001
ALICE, BOB, CAROL, DAVE = (881_000_000_000_000_100 + n for n in range(4))
DECISIONS = 16  # the race is still on after them (asserted): no card is revealed yet
SNOWFLAKE = re.compile(r"[0-9]{15,}")


def norm(text: str) -> str:
    """Message and user ids differ between two runs of the fake (time-based snowflakes);
    the users' are fixed, so naming every snowflake alike hides nothing the test needs."""
    return SNOWFLAKE.sub("#", text)


@contextlib.asynccontextmanager
async def race_world(tmp_path, name: str, bob_card: int | None, monkeypatch
                     ) -> AsyncIterator[World]:
    """A world as the ``world`` fixture's, with fixed ids, where bob's card is ``bob_card``
    (None: as dealt). The swap is applied wherever the race's state is made from its seed
    (the start and the replay an undo uses)."""
    def swap(state):
        if bob_card is None:
            return state
        cards = list(state.cards)
        cards[1] = bob_card
        return dataclasses.replace(state, cards=tuple(cards))

    new_game, replay = RACE.new_game, RACE.replay
    monkeypatch.setattr(RACE, "new_game", lambda *a, **k: swap(new_game(*a, **k)))
    monkeypatch.setattr(RACE, "replay", lambda *a, **k: swap(replay(*a, **k)))
    path = tmp_path / f"{name}.sqlite3"
    db = await SqliteDatabase.open(path)
    settings = make_settings(db_path=str(path))
    clock = FakeClock()
    service = build_service(settings, db, clock=clock, seed_source=lambda: SEED)
    try:
        async with FakeDiscord(guild_id=GUILD) as fake:
            alice = fake.add_user("alice", id=ALICE)
            bob = fake.add_user("bob", id=BOB)
            raptor_bot = await create_bot(settings, db, service=service)
            await fake.start_client(raptor_bot)
            await service.set_guild_threads(fake.guild_id, False)
            yield World(fake, raptor_bot, db, clock, alice, bob)
    finally:
        await db.close()
        monkeypatch.setattr(RACE, "new_game", new_game)
        monkeypatch.setattr(RACE, "replay", replay)


def received(world: World, user_id: int) -> list[tuple]:
    """Everything ``user_id`` was shown, in order: public messages and edits, their own
    ephemerals and DMs, with embeds, components and the digest of each file."""
    out = []
    for r in world.fake.records:
        if r.visibility != "public" and r.user_id != user_id:
            continue
        files = sorted((n, hashlib.sha256(data).hexdigest()) for n, data in r.files.items())
        out.append((r.visibility, r.edit, norm(r.content or ""),
                    norm(json.dumps(r.embeds, sort_keys=True)),
                    norm(json.dumps(r.components, sort_keys=True)), files))
    return out


async def script(world: World, monkeypatch) -> tuple[list, list]:
    """The same race, the same requests; returns what the autocompletes offered alice and
    carol, and what bob saw of his own card."""
    fake, alice, bob = world.fake, world.alice, world.bob
    carol = fake.add_user("carol", id=CAROL)
    dave = fake.add_user("dave", id=DAVE)
    offered: list = []
    await alice.slash("race settings", dm_hand=True)  # her card by DM when the race begins
    m = await table(world, monkeypatch, [alice, bob, dave], board="jungle")
    people = [alice, bob, dave]
    out = await bob.click("Your Top-3 card")
    bobs = [r.content for r in out.replies]
    for n in range(DECISIONS):
        m = await world.service.get_match(m.id)
        assert m.active and not m.state.is_over
        card = race_card(world)
        acting = people[m.state.seat]
        prefix = f"race:m:{m.id}:v:{m.version}"
        for who in (alice, carol):
            offered.append(await who.autocomplete("race act", "action", ""))
            offered.append(await who.autocomplete("race act", "action", "k"))
        await carol.click("Your Top-3 card", message=card)  # refused: no seat
        if acting is not alice:
            await alice.click(custom_id=f"{prefix}:keep:all", message=card) if (
                m.state.phase is Phase.ROLL) else await alice.forge_click(
                f"{prefix}:keep:all", message=card)
            await alice.slash("race act", action="keep all")
            await alice.forge_click(f"{prefix}:keep", message=card, values=["0", "9"])
        elif m.state.phase is Phase.ROLL:
            await alice.slash("race act", action="keep PPPPP")
            await alice.forge_click(f"{prefix}:keep", message=card, values=["a"])
        if n % 5 == 0:
            await alice.click("Your Top-3 card", message=card)
            await alice.slash("race hand")
            await alice.slash("race status")
            await carol.slash("race status")
            await carol.slash("race board")
            await carol.slash("race hand")
        await play_decision(world, acting, keep_first=n % 3 == 0, typed=n % 4 == 3)
    assert (await world.service.get_match(m.id)).active  # no card was revealed
    return offered, bobs


async def test_another_seats_card_changes_nothing_alice_or_a_spectator_receives(
        tmp_path, monkeypatch, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with race_world(tmp_path, "a", None, monkeypatch) as world:
        dealt = RACE.new_game(SEED, 3, {"board": "jungle"}).cards
        offered_a, bob_a = await script(world, monkeypatch)
        alice_a, carol_a = received(world, ALICE), received(world, CAROL)
        assert world.fake.problems() == []
    logs_a = [norm(r.getMessage()) for r in caplog.records if r.name.startswith("bot")]
    caplog.clear()
    other = next(c for c in range(1, 21) if c not in dealt)
    async with race_world(tmp_path, "b", other, monkeypatch) as world:
        offered_b, bob_b = await script(world, monkeypatch)
        alice_b, carol_b = received(world, ALICE), received(world, CAROL)
        assert (await world.service.get_match(1)).state.cards == (dealt[0], other, dealt[2])
        assert world.fake.problems() == []
    logs_b = [norm(r.getMessage()) for r in caplog.records if r.name.startswith("bot")]

    assert bob_a != bob_b and f"(#{dealt[1]}," in bob_a[0] and f"(#{other}," in bob_b[0]
    assert offered_a == offered_b and any(offered_a)
    assert len(alice_a) == len(alice_b) and len(alice_a) > 50
    for a, b in zip(alice_a, alice_b, strict=True):
        assert a == b
    assert carol_a == carol_b
    # alice did see her own card, privately and by DM, and refusals were sent
    assert any(v == "dm" and f"(#{dealt[0]}," in c for v, _, c, *_ in alice_a)
    assert any(v == "ephemeral" and "not your turn" in c for v, _, c, *_ in alice_a)
    assert any(v == "ephemeral" and "isn't your match" in c for v, _, c, *_ in carol_a)
    assert logs_a == logs_b and logs_a
    assert not any(f"#{dealt[1]}" in line or f"card {dealt[1]}" in line for line in logs_a)
