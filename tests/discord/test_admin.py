"""``/raptor-admin``: the server's time per decision, its matches in progress, and ending a
stuck match without a result — for members with Manage Server only."""

from __future__ import annotations

import pytest

import engine
from bot import texts
from bot.games.raptor import sides as rs
from bot.match import EndReason
from engine import Side
from tests.clock import T0
from tests.discord.conftest import World
from tests.discord.helpers import has_controls, pick, start_match
from tests.discord.test_refusals import only_ephemeral_to
from tests.fakediscord import HarnessError

R, S = Side.RAPTOR, Side.SCIENTIST
MANAGE_GUILD = 1 << 5


def admin_group(world: World) -> dict:
    return next(c for c in world.fake.synced_commands() if c["name"] == "raptor-admin")


async def test_the_group_is_synced_for_server_managers_in_servers_only(world: World) -> None:
    group = admin_group(world)
    assert {o["name"] for o in group["options"]} == {"timeout", "threads", "matches", "end",
                                                     "language"}
    assert int(group["default_member_permissions"]) == MANAGE_GUILD
    assert group["contexts"] == [0]  # guild only: not offered in DMs
    hours = next(o for o in group["options"] if o["name"] == "timeout")["options"][0]
    assert (hours["name"], hours["min_value"], hours["max_value"]) == ("hours", 0, 8760)


async def test_members_without_manage_server_cannot_run_it(world: World) -> None:
    with pytest.raises(HarnessError, match="cannot use /raptor-admin"):
        await world.alice.slash("raptor-admin timeout", hours=1)
    with pytest.raises(HarnessError, match="cannot use /raptor-admin"):
        await world.alice.slash("raptor-admin end")
    assert await world.service.has_guild_timeout(world.fake.guild_id) is False


async def test_timeout_shows_sets_and_resets_the_servers_time(world: World) -> None:
    fake, service = world.fake, world.service
    mod = fake.add_user("mod", admin=True)
    out = await mod.slash("raptor-admin timeout")
    only_ephemeral_to(out, mod)
    assert "Time per turn in this server: **24 h** (the bot's default)" in out.content

    out = await mod.slash("raptor-admin timeout", hours=1.5)
    only_ephemeral_to(out, mod)
    assert "**1.5 h** (set for this server; it was 24 h)" in out.content
    assert await service.guild_timeout(fake.guild_id) == 5400.0
    out = await mod.slash("raptor-admin timeout")
    assert "**1.5 h** (set for this server)" in out.content

    match = await start_match(world)  # a new decision takes the server's time
    assert match.deadline_at == T0 + 5400.0

    out = await mod.slash("raptor-admin timeout", hours=0.25)
    assert "**15 min** (set for this server; it was 1.5 h)" in out.content
    assert (await world.match()).deadline_at == T0 + 5400.0  # a running deadline keeps its time
    hands = (await world.match()).state.hands
    await pick(world.alice, R, hands[R][0])
    assert (await world.match()).deadline_at == T0 + 5400.0  # bob's pick still pending (R5.1)
    await pick(world.bob, S, hands[S][0])
    assert (await world.match()).deadline_at == T0 + 900.0  # the next decision takes the new time

    out = await mod.slash("raptor-admin timeout", hours=0)
    assert "**24 h** (the bot's default; it was 15 min)" in out.content
    assert await service.has_guild_timeout(fake.guild_id) is False
    assert await service.guild_timeout(fake.guild_id) == 86400.0

    for bad in (-1, 8761):
        with pytest.raises(HarnessError):  # outside the option's range: Discord refuses
            await mod.slash("raptor-admin timeout", hours=bad)
    out = await mod.slash("raptor-admin timeout", hours=0.001)  # 3.6 s: refused
    only_ephemeral_to(out, mod)
    assert out.content.startswith("The time per turn must be at least one minute")
    assert await service.has_guild_timeout(fake.guild_id) is False


async def test_matches_lists_the_servers_matches_privately(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    mod = fake.add_user("mod", admin=True)
    out = await mod.slash("raptor-admin matches")
    only_ephemeral_to(out, mod)
    assert out.content == "No match is in progress in this server."

    await start_match(world)
    out = await mod.slash("raptor-admin matches")
    only_ephemeral_to(out, mod)
    lines = out.content.splitlines()
    assert lines[0] == "**Matches in progress: 1** (oldest first)"
    assert lines[1].startswith(f"#1 in <#{fake.channel.id}> · {alice.mention} (raptor) "
                               f"vs {bob.mention} (scientist) · round 1 · waiting for "
                               f"{alice.mention} (raptor) and {bob.mention} (scientist), "
                               f"deadline <t:{int(T0 + 86400)}:R>")


async def test_end_asks_then_ends_the_match_without_a_result(world: World) -> None:
    fake, alice, bob, service = world.fake, world.alice, world.bob, world.service
    mod = fake.add_user("mod", admin=True)
    out = await mod.slash("raptor-admin end")
    only_ephemeral_to(out, mod)
    assert out.content.startswith("There is no match in this channel. `/raptor-admin matches`")

    match = await start_match(world)
    await pick(alice, R, match.state.hands[R][0])
    first = await mod.slash("raptor-admin end")
    out = await mod.slash("raptor-admin end")
    only_ephemeral_to(out, mod)
    assert out.reply.labels == ["End match"]
    assert "End Match #1" in out.content and "no rating changes" in out.content
    assert (await world.match()).active  # nothing happens before the confirmation

    out = await mod.click("End match", message=out.reply)
    assert fake.message(out.reply.id).content == "You ended Match #1: no result, not rated."
    result = next(r for r in out if r.visibility == "public" and "Match #1 is over" in r.content)
    assert "a moderator ended it, without a result (not rated)" in result.content
    assert f"Ended by {mod.mention}, a moderator." in result.content
    assert result.labels == ["Rematch"]
    ended = await service.get_match(match.id)
    assert (ended.status, rs.result(ended), ended.reason) == ("finished", None,
                                                             "ended_by_moderator")
    assert ended.deadline_at is None
    # no round message keeps its "Pick your card" button
    assert not any("Pick your card" in r.labels or has_controls(r)
                   for r in fake.public_messages(fake.channel))
    for user in (alice, bob):
        stats = await service.stats(fake.guild_id, "raptor", user.id)
        assert (stats.rating, stats.games) == (1500, 0)
    out = await alice.slash("raptor history")
    assert "**no result** (ended by a moderator)" in out.content

    out = await mod.click("End match", message=first.reply)  # the older confirmation
    only_ephemeral_to(out, mod)
    assert out.content == "This match is already over."

    await start_match(world)  # the channel is free again
    assert (await world.match()).id == 2


async def test_a_long_list_of_matches_keeps_whole_lines_and_counts_the_rest(world: World
                                                                           ) -> None:
    fake, service = world.fake, world.service
    mod = fake.add_user("mod", admin=True)
    for i in range(20):  # 20 members (a member may have 3 practice games going)
        await service.start_practice(fake.guild_id, 9000 + i, fake.add_user(f"p{i}").id,
                                     game="raptor", seat=rs.seat_wish("raptor"),
                                     ai_user_id=fake.bot_user.id)
    out = await mod.slash("raptor-admin matches")
    only_ephemeral_to(out, mod)
    lines = out.content.splitlines()
    assert len(out.content) <= 2000
    assert lines[0] == "**Matches in progress: 20** (oldest first)"
    listed = [ln for ln in lines if ln.startswith("#")]
    assert 5 <= len(listed) < 20
    assert all(ln.endswith("R>") or "waiting for" in ln for ln in listed)  # whole lines
    assert lines[-2] == f"… and {20 - len(listed)} more."
    assert lines[-1].startswith("`/raptor-admin end` in a match's channel")


async def test_end_by_number_ends_a_match_of_another_channel(world: World) -> None:
    fake, service = world.fake, world.service
    mod = fake.add_user("mod", admin=True)
    elsewhere = await service.start_practice(fake.guild_id, 9001, world.alice.id,
                                             game="raptor", seat=rs.seat_wish("raptor"),
                                             ai_user_id=fake.bot_user.id)
    for number in (elsewhere.id + 1, 0):
        if number == 0:
            with pytest.raises(HarnessError):  # below the option's minimum
                await mod.slash("raptor-admin end", match=number)
            continue
        out = await mod.slash("raptor-admin end", match=number)
        only_ephemeral_to(out, mod)
        assert out.content == (f"No match #{number} is in progress in this server: "
                               "`/raptor-admin matches` lists them.")
    out = await mod.slash("raptor-admin end", match=elsewhere.id)
    assert out.reply.labels == ["End match"] and f"End Match #{elsewhere.id}" in out.content
    await mod.click("End match", message=out.reply)
    ended = await service.get_match(elsewhere.id)
    assert (ended.status, ended.reason) == ("finished", "ended_by_moderator")


async def test_ai_moves_made_before_an_end_are_not_posted_after_it(world: World,
                                                                   monkeypatch) -> None:
    """A match ended while the AI thinks: the AI's steps saved before the end are shown by
    the final board, not posted after the end notice (found by a fresh trial)."""
    fake, service, flow = world.fake, world.service, world.bot.flow
    match = await service.start_practice(fake.guild_id, fake.channel.id, world.alice.id,
                                         game="raptor", seat=rs.seat_wish("raptor"),
                                         ai_user_id=fake.bot_user.id)
    assert S in engine.to_act(match.state) and match.state.picks[S] is None
    real = service.play_ai

    async def think_then_ended(match_id: int, **kw):
        results = await real(match_id, max_steps=1)  # the AI picks ...
        ended = await service.end_by_moderator(match_id)  # ... and a moderator ends it
        await flow.narrator.finish(ended)
        return results

    monkeypatch.setattr(service, "play_ai", think_then_ended)
    after = await flow.narrator.run_ai(match)
    assert (after.status, after.reason) == ("finished", "ended_by_moderator")
    assert after.state.picks[S] is not None  # the AI did pick
    texts_posted = [r.content for r in fake.public_messages(fake.channel)]
    assert any("a moderator ended it" in t for t in texts_posted)
    assert not any("has picked a card" in t for t in texts_posted)


async def test_the_end_button_rechecks_manage_server_when_clicked(world: World) -> None:
    fake, service = world.fake, world.service
    mod = fake.add_user("mod", admin=True)
    match = await start_match(world)
    out = await mod.slash("raptor-admin end")
    assert out.reply.labels == ["End match"]
    # the moderator loses the role before confirming: the click says what it takes
    fake.server.users[mod.id].role_ids.remove(fake.server.admin_role.id)
    refused = await mod.click("End match", message=out.reply)
    only_ephemeral_to(refused, mod)
    assert refused.content == texts.END_NEEDS_MANAGE_SERVER
    assert (await service.get_match(match.id)).active
    assert not any("is over" in r.content for r in fake.public_messages(fake.channel))
    # given back, the same confirmation ends the match
    fake.server.users[mod.id].role_ids.append(fake.server.admin_role.id)
    done = await mod.click("End match", message=out.reply)
    assert fake.message(done.reply.id).content == "You ended Match #1: no result, not rated."
    assert (await service.get_match(match.id)).reason == EndReason.ENDED_BY_MODERATOR
