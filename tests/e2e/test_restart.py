"""A restart in the middle of a round: the card posted by the old bot is edited in place by
the new one, and its controls keep working.

The bot is stopped (client closed, database connection closed) and a brand-new bot instance
is started on the same SQLite file; the fake Discord keeps every message, so the players
click what they saw before the restart.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time

import engine
from bot.discord.app import build_service, create_bot
from bot.games.raptor import sides as rs
from bot.games.raptor import texts
from bot.match import Match, MatchService
from bot.storage.db import SqliteDatabase
from bot.storage.schema import SCHEMA_VERSION
from engine import Phase, Pick, Side
from tests.e2e.conftest import check_acks
from tests.e2e.players import Table, World
from tests.fakediscord import FakeDiscord, Record

R, S = Side.RAPTOR, Side.SCIENTIST


async def test_a_card_button_and_the_round_message_survive_a_restart(world: World) -> None:
    table = await world.new_table()
    alice, bob = table.raptor, table.scientist
    match = await table.match()
    round_msg = alice.round_message()
    hand = await alice.open_hand()  # alice looks at her cards ...
    card = alice.think(match, seed=1)
    assert isinstance(card, Pick)
    old_bot = world.bot

    await world.restart_bot()  # ... the bot goes down and comes back
    assert world.bot is not old_bot and world.restarts == 1

    out = await alice.click(texts.card_label(R, card.card), message=hand)  # pre-restart button
    assert "You picked" in out.reply.content and out.reply.user_id == alice.id
    after = await table.match()
    assert after.version == match.version + 1 and after.state.picks[R] == card.card
    # the pick shows on the card the old bot posted, edited in place; no new message, no
    # ping (bob had to pick already, and the restarted bot knows it)
    public = [r for r in out.records if r.visibility == "public"
              and r.channel_id == table.channel.id]  # (the parent's line is edited too)
    assert [r.message_id for r in public] == [round_msg.message_id] and public[0].edit
    assert f"{alice.user.mention} (raptor) ✅" in public[0].content

    # bob uses the round card the old bot posted
    out = await bob.click("Pick your card", message=round_msg)
    assert out.reply.visibility == "ephemeral" and out.reply.user_id == bob.id
    mine = after.state.hands[S]
    assert out.reply.labels == [texts.card_label(S, c) for c in mine]
    out = await bob.click(texts.card_label(S, mine[0]), message=out.reply)
    assert any(r.message_id == round_msg.message_id and "Cards: raptor" in r.text
               for r in out.records if r.visibility == "public")  # the reveal, in place
    revealed = await table.match()
    assert revealed.state.revealed == (card.card, mine[0])
    assert revealed.version == match.version + 2


async def test_a_turn_message_survives_a_restart_and_the_match_goes_on(world: World) -> None:
    rng = random.Random(8)
    table = await world.new_table()
    # play until a decision with a turn message is pending (an effect or action points)
    match = await table.match()
    while match.state.phase is Phase.PICK:
        await table.play_decision(rng, act_share=0.0)
        match = await table.match()
    turn = table.turn_message(match)
    assert turn is not None and turn.selects
    round_no = match.state.round

    await world.restart_bot()

    who, action = await table.next_decision(rng, match)
    assert table.turn_message(match) is turn  # nothing new posted: the old message is used
    out = await who.play(action, via="controls", match=match)
    after = await table.match()
    assert after.version == match.version + 1
    log = await world.observer.action_log(table.match_id)
    assert log[-1][1:] == (who.seat, action)
    # the new bot edited the card the old one posted, and carried on
    card = world.fake.message(turn.message_id)
    assert any(r.message_id == card.message_id and r.edit for r in out.records)
    assert f":v:{after.version}:" in str(card.components) or not card.components
    # the match continues to the next round with the new bot
    while (await table.match()).state.round == round_no:
        await table.play_decision(rng)
    assert (await table.match()).state.phase is Phase.PICK or not (await table.match()).active


class _Killed(Exception):
    """The process stopping between saving a challenge and posting it."""


async def test_a_challenge_saved_but_never_posted_blocks_nobody(world: World,
                                                                 monkeypatch) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    channel = world.fake.channel.id

    async def killed(interaction: object, challenge: object) -> None:
        raise _Killed

    monkeypatch.setattr(world.bot.flow.posts, "post_challenge", killed)
    await alice.slash("raptor challenge", user=bob)
    world.fake.errors.clear()  # the stop was logged as an error: expected here
    [unposted] = await world.observer.pending_challenges(channel)
    assert unposted.message_id is None
    assert not any("challenges you" in r.content for r in world.fake.public_messages())

    await world.restart_bot()  # at start-up, the bot withdraws it
    for _ in range(200):
        if (await world.observer.get_challenge(unposted.id)).status != "pending":
            break
        await asyncio.sleep(0.02)
    assert (await world.observer.get_challenge(unposted.id)).status == "cancelled"

    out = await alice.slash("raptor challenge", user=bob)  # not "cancel it first"
    assert out.reply.visibility == "public" and out.reply.labels == [
        "Accept", "Decline", "Cancel"]
    [pending] = await world.observer.pending_challenges(channel)
    assert pending.id != unposted.id and pending.message_id == out.reply.message_id


# --------------------------------------------------------------------------- lost endings
SHORT_LEASE = 0.5  # seconds: the restarted bot's claim lease (the default is a minute)


async def _start_bot_with_lease(world: World, lease: float) -> None:
    """A brand-new bot instance (new connection, new service with its own owner name) whose
    claims last ``lease`` seconds; returns once its start-up timer pass is done."""
    world.db = await SqliteDatabase.open(world.db_path)
    world.bot = await create_bot(world.settings, world.db, service=build_service(
        world.settings, world.db, claim_lease=lease))
    await world.fake.start_client(world.bot)


async def _posted_once_after_a_restart(world: World, table: Table, card: Record,
                                       ended: Match, *words: str) -> None:
    """``table``'s match ``ended`` was saved by a bot that stopped before posting its end:
    a lease later a new bot starts; its result (first line with ``words``) is posted once in
    the thread, the card loses its controls and the parent channel's line shows the result;
    later timer passes post nothing more."""
    assert (ended.active, ended.end_announced_at) == (False, None)
    assert world.fake.message(card.message_id).labels == ["Pick your card"]  # not posted
    assert table.parent is not None
    (line,) = world.fake.public_messages(table.parent)
    assert "Round 1" in line.content and "wins" not in line.content
    await world.stop_bot()
    await asyncio.sleep(SHORT_LEASE)  # a lease after the end: no live flow is posting it
    world.restarts += 1
    await _start_bot_with_lease(world, SHORT_LEASE)

    results = [r for r in world.fake.public_messages(table.channel)
               if not r.edit and r.labels == ["Rematch"]]
    assert len(results) == 1
    first = results[0].content.splitlines()[0]
    assert all(w in first for w in words), first
    now = world.fake.message(card.message_id)
    assert now.components == [] and "the match is over" in now.content
    (line,) = world.fake.public_messages(table.parent)
    assert first in line.content and line.components == []
    announced = (await table.match()).end_announced_at
    assert announced is not None and announced >= ended.updated_at + SHORT_LEASE

    await asyncio.sleep(2 * SHORT_LEASE)
    seen = len(world.fake.records)
    await world.bot.flow.timers.run_once()  # later passes post nothing more
    assert len(world.fake.records) == seen
    assert (await table.match()).end_announced_at == announced


async def test_a_resignation_saved_before_a_stop_is_posted_once_after_it(
        world: World, monkeypatch) -> None:
    """The bot stops right after it saved a resignation, before posting it (its narrator
    fails there, as the process would die there)."""
    table = await world.new_table()
    alice, bob = table.raptor, table.scientist
    card = alice.round_message()
    assert card is not None and card.labels == ["Pick your card"]

    async def stopped(*args: object, **kwargs: object) -> None:
        raise _Killed

    monkeypatch.setattr(world.bot.flow.narrator, "finish", stopped)
    await alice.slash("raptor resign")
    await alice.click("Resign", message=alice.user.ephemerals()[-1])
    world.fake.errors.clear()  # the stop was logged as an error: expected here
    ended = await table.match()
    assert ended.reason == "resigned"
    await _posted_once_after_a_restart(world, table, card, ended,
                                       f"{bob.user.mention} (scientist) wins", "resigned")


async def test_a_timer_s_forfeit_saved_before_a_stop_is_posted_once_after_it(
        world: World) -> None:
    """bob lets his turn run out; the process that fires the timer saves the forfeit and
    stops before posting it (its match service alone, on its own connection: what the bot's
    timer task does before it posts)."""
    table = await world.new_table()
    alice, bob = table.raptor, table.scientist
    match = await table.match()
    pick = alice.think(match, seed=1)
    assert isinstance(pick, Pick)
    await alice.pick_card(pick.card)
    card = alice.round_message()
    assert card is not None
    await world.stop_bot()
    stopping = await SqliteDatabase.open(world.db_path)
    try:
        timers = MatchService(stopping, owner="stopping")
        events = await timers.process_timers(time.time() + 25 * 3600)  # past the 24 h
        assert [(e.kind, e.match_id) for e in events] == [("forfeit", table.match_id)]
    finally:
        await stopping.close()
    ended = await table.match()
    assert (ended.reason, rs.result(ended)) == ("timeout", "raptor")
    await world.start_bot()  # at once, a minute's lease: it leaves the end to a live flow
    await _posted_once_after_a_restart(world, table, card, ended,
                                       f"{alice.user.mention} (raptor) wins",
                                       f"{bob.user.mention} (scientist) ran out of time")


async def test_an_upgrade_posts_nothing_of_the_matches_finished_before_it(tmp_path) -> None:
    """A database of schema 7 with matches finished long ago (their ends were posted by the
    bot of that version, which had no marker): the upgraded bot posts none of them."""
    fake = FakeDiscord()
    folder = tmp_path / "old"
    folder.mkdir()
    old = await SqliteDatabase.open(folder / "raptor.sqlite3", upto=7)
    long_ago = time.time() - 7 * 86400
    state = engine.new_game(3, environment="jungle", layout="random", setup="quick")
    options = json.dumps(dataclasses.asdict(state.options), sort_keys=True)
    async with old.transaction() as tx:  # rows as the bot of schema 7 wrote them
        for n in range(3):
            await tx.insert(
                "INSERT INTO matches (guild_id, channel_id, raptor_user_id, "
                "scientist_user_id, raptor_ai, scientist_ai, seed, options, status, state, "
                "version, log_length, created_at, updated_at, last_activity, reminded, "
                "result, reason) VALUES (?, ?, ?, ?, NULL, NULL, 3, ?, 'finished', ?, 1, 0, "
                "?, ?, ?, 0, 'raptor', 'resigned')",
                (fake.guild_id, fake.channel.id, 501 + n, 601 + n, options, state.to_json(),
                 long_ago + n, long_ago + n + 60, long_ago + n))
    await old.close()

    async with World.open(folder, fake=fake) as world:  # migrates, then the bot starts
        assert await world.observer_db.schema_version() == SCHEMA_VERSION
        await world.bot.flow.timers.run_once()
        assert world.fake.public_messages() == []  # no old result posted again
        table = await world.new_table()  # and the bot plays on
        assert table.match_id == 4
        check_acks(world)
        world.fake.assert_clean()
