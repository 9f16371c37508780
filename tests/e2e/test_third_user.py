"""A member who is not in the match clicks the players' controls: each click gets an ephemeral
"not your match" for that member only, and the stored match does not change."""

from __future__ import annotations

import random

from bot import texts
from tests.e2e.players import GROUP_PLACEHOLDER, Table, World
from tests.fakediscord import FakeUser, Outcome


async def refused(table: Table, carol: FakeUser, out: Outcome, before_version: int,
                  before_log: int, text: str = texts.NOT_YOUR_MATCH) -> None:
    assert out.records, "the bot answered nothing"
    assert [(r.visibility, r.user_id, r.content) for r in out.records] == [
        ("ephemeral", carol.id, text)]
    after = await table.match()
    assert after.version == before_version
    assert len(await table.world.observer.action_log(table.match_id)) == before_log


async def test_a_third_user_cannot_use_the_players_controls(world: World) -> None:
    carol = world.user("carol")
    rng = random.Random(21)
    table = await world.new_table()
    tried: set[str] = set()
    decisions = 0
    while tried != {"pick", "action menu", "group menu", "end"} and decisions < 60:
        match = await table.match()
        version, log = match.version, len(await world.observer.action_log(match.id))
        round_msg = table.raptor.round_message()
        if "pick" not in tried and round_msg is not None:
            out = await carol.click("Pick your card", message=round_msg)
            await refused(table, carol, out, version, log)
            tried.add("pick")
        turn = table.turn_message(match)
        if turn is not None:
            menu = turn.select_menu("Choose an action")
            if menu is not None and "action menu" not in tried:
                value = menu["options"][0]["value"]
                out = await carol.select(menu["custom_id"], values=[value], message=turn)
                await refused(table, carol, out, version, log)
                tried.add("action menu")
            groups = turn.select_menu(GROUP_PLACEHOLDER)
            if groups is not None and "group menu" not in tried:
                value = groups["options"][0]["value"]
                out = await carol.select(groups["custom_id"], values=[value], message=turn)
                await refused(table, carol, out, version, log)
                tried.add("group menu")
            end = [b for b in turn.buttons if b["custom_id"].endswith(":end")]
            if end and "end" not in tried:
                out = await carol.click(end[0]["label"], message=turn)
                await refused(table, carol, out, version, log)
                tried.add("end")
            # the controls are still there for the player
            assert world.fake.message(turn.message_id).selects == turn.selects
        await table.play_decision(rng, match=match)
        decisions += 1
    assert tried == {"pick", "action menu", "group menu", "end"}

    # typing is refused as well, and carol never saw anything private
    match = await table.match()
    out = await carol.slash("raptor act", action="end", in_channel=table.channel)
    assert out.reply.visibility == "ephemeral" and out.reply.user_id == carol.id
    assert "not playing" in out.content
    assert (await table.match()).version == match.version
    assert all(r.visibility == "public" or r.user_id != carol.id or r.content in (
        texts.NOT_YOUR_MATCH, out.content) for r in world.fake.records)


async def test_a_third_user_cannot_answer_someone_elses_challenge(world: World) -> None:
    alice, bob, carol = world.user("alice"), world.user("bob"), world.user("carol")
    out = await alice.slash("raptor challenge", user=bob, side="raptor")
    challenge = out.reply
    for label in ("Accept", "Decline", "Cancel"):
        out = await carol.click(label, message=challenge)
        assert [(r.visibility, r.user_id) for r in out.records] == [("ephemeral", carol.id)]
        assert "Only the" in out.content
    assert await world.observer.active_match(world.fake.channel.id) is None
    assert world.fake.message(challenge.message_id).labels == ["Accept", "Decline", "Cancel"]
    (pending,) = await world.observer.pending_challenges(world.fake.channel.id)
    assert pending.status == "pending" and pending.challenged_id == bob.id
