"""Clicks with crafted component ids: what a modified client can send (any custom_id on any
message it can see, :meth:`tests.fakediscord.FakeUser.forge_click`). Each gets one ephemeral
refusal for the clicker and changes nothing: no match, challenge or message of another
server, channel or message is touched (``bot.discord.ownership``).

The sweep (:func:`sweep_cases`) sends every control of the bot (:func:`template_meanings`:
each DynamicItem template and each ``what`` it allows) through each attack of
:data:`ATTACKS` — another server's object, another channel's, another message's, a click in
a DM, a malformed id, an out-of-date one, a third member — or says in
:data:`NOT_APPLICABLE` why the attack does not apply; a new control without its cases fails
:func:`test_the_sweep_names_every_control_of_the_bot`.

``carried``: the forged interaction's message carries the forged component (as if Discord
relayed the client's copy of the message) or is the message as stored, whose components do
not have it — discord.py then drops the click, and the bot must still answer it
(``bot.discord.components.dispatch_unplaced``), as it must a click from a client that shows
an older version of an edited message (End turn one version back).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import AsyncIterator

import pytest

from bot import texts
from bot.discord.app import CONTROLS
from bot.discord.links import match_link
from bot.discord.post_store import PostStore
from bot.games.raptor import texts as raptor_texts
from engine import Side
from tests.e2e.conftest import check_acks
from tests.e2e.players import Table, World
from tests.fakediscord import FakeDiscord, FakeGuild, FakeUser, HarnessError, Outcome, Record


@pytest.fixture
async def world(tmp_path) -> AsyncIterator[World]:
    """The e2e world with a second server, "Other" (``world.fake.guilds``, second)."""
    fake = FakeDiscord()
    fake.add_guild("Other")
    async with World.open(tmp_path, fake=fake) as w:
        yield w
        check_acks(w)
        w.fake.assert_clean()


R, S = Side.RAPTOR, Side.SCIENTIST


def other_server(world: World) -> FakeGuild:
    return list(world.fake.guilds.values())[1]


def member_of(world: World, name: str, guild: FakeGuild) -> FakeUser:
    """The member ``name`` of ``guild`` (added there on first use)."""
    return world.fake.users.get(name) or world.fake.add_user(name, guild=guild)


async def stored(world: World) -> dict:
    """Everything a click could change: each match's status, version, channel, log length
    and draw offer, each challenge's status, each table's status and who sits at it, each
    thread, and each message as shown now."""
    db = world.observer_db
    matches = {r["id"]: (r["status"], r["version"], r["channel_id"], r["draw_offered_by"])
               for r in await db.fetchall("SELECT * FROM matches")}
    logs = {r["match_id"]: r["n"] for r in await db.fetchall(
        "SELECT match_id, COUNT(*) AS n FROM match_log GROUP BY match_id")}
    challenges = {r["id"]: (r["status"], r["match_id"])
                  for r in await db.fetchall("SELECT * FROM challenges")}
    messages = {m.message_id: (m.content, m.components, m.embeds, m.deleted)
                for m in world.fake.messages(include_deleted=True)}
    threads = [t.id for t in world.fake.threads()]
    tables = {r["id"]: (r["status"], r["version"], r["match_id"])
              for r in await db.fetchall("SELECT * FROM game_tables")}
    seated = {(r["table_id"], r["position"]): (r["user_id"], r["ai"])
              for r in await db.fetchall("SELECT * FROM table_players")}
    return {"matches": matches, "logs": logs, "challenges": challenges,
            "messages": messages, "threads": threads, "tables": tables, "seated": seated}


def only_refusal(out: Outcome, who: FakeUser, text: str) -> None:
    """The click got exactly one answer: ``text``, ephemeral, to ``who``; nothing logged
    as an error."""
    assert [(r.visibility, r.user_id, r.content) for r in out.records] == [
        ("ephemeral", who.id, text)], [(r.visibility, r.user_id, r.content)
                                        for r in out.records]
    assert out.errors == []


def without(state: dict, out: Outcome) -> dict:
    """``state`` without the messages ``out`` created (its refusal)."""
    mine = {r.message_id for r in out.records}
    return {**state, "messages": {k: v for k, v in state["messages"].items()
                                  if k not in mine}}


async def b_table(world: World, raptor: str, scientist: str) -> Table:
    """A match in the other server's channel (in a thread from there)."""
    guild = other_server(world)
    member_of(world, raptor, guild)
    member_of(world, scientist, guild)
    return await world.new_table(raptor=raptor, scientist=scientist, channel=guild.channel)


# --------------------------------------------------------------------------- the findings


async def test_a_moderator_cannot_end_another_servers_match(world: World) -> None:
    """An admin of this server sends End match of the other server's match on the
    confirmation ``/raptor-admin end`` gave them for a match here."""
    fake = world.fake
    there = await b_table(world, "carol", "dave")
    here = await world.new_table(raptor="alice", scientist="bob")
    mod = fake.add_user("mod", admin=True)
    confirm = await mod.slash("raptor-admin end", match=here.match_id)
    assert confirm.reply.labels == ["End match"]
    before = await stored(world)

    out = await mod.forge_click(f"raptor:m:{there.match_id}:end", message=confirm.reply)

    assert (await there.match()).active and (await here.match()).active
    assert without(await stored(world), out) == before
    only_refusal(out, mod, f"No match #{there.match_id} is in progress in this server: "
                           "`/raptor-admin matches` lists them.")


async def test_another_servers_challenge_cannot_be_accepted_on_a_message_here(
        world: World) -> None:
    """erin, a member of both servers, sends the Accept of her challenge in the other
    server on a message of the bot here: no match starts, no thread here, the challenge
    keeps its buttons."""
    fake = world.fake
    guild = other_server(world)
    erin = fake.add_user("erin")
    fake.join(erin, guild)
    carol = member_of(world, "carol", guild)
    sent = await carol.slash("raptor challenge", user=erin, in_channel=guild.channel)
    challenge = sent.reply
    assert challenge.labels == ["Accept", "Decline", "Cancel"]
    accept = challenge.buttons[0]["custom_id"]
    here = (await erin.slash("raptor stats")).reply  # a public message of the bot here
    assert here.visibility == "public" and here.guild_id == fake.guild_id
    before = await stored(world)

    out = await erin.forge_click(accept, message=here)

    assert await world.observer.active_match(guild.channel.id) is None
    (pending,) = await world.observer.pending_challenges(guild.channel.id)
    assert pending.status == "pending" and pending.message_id == challenge.message_id
    assert fake.message(challenge.message_id).labels == ["Accept", "Decline", "Cancel"]
    assert fake.threads() == []
    assert without(await stored(world), out) == before
    only_refusal(out, erin, texts.NOT_THIS_MESSAGE)


async def test_a_challenge_button_cannot_rewrite_a_match_card(world: World) -> None:
    """carol sends the Decline of a challenge made to her on alice's match card: the card
    keeps its text and its Pick your card button, the challenge stays open."""
    fake = world.fake
    table = await world.new_table(raptor="alice", scientist="bob")
    carol, dave = world.user("carol"), world.user("dave")
    sent = await dave.slash("raptor challenge", user=carol)  # in #general
    decline = sent.reply.buttons[1]["custom_id"]
    assert decline.endswith(":decline")
    card = table.raptor.round_message()  # the message as it is now (fake.message: live)
    assert card is not None and "Pick your card" in card.labels
    card_before = (card.content, card.labels)
    before = await stored(world)

    out = await carol.forge_click(decline, message=card)

    shown = fake.message(card.message_id)
    assert (shown.content, shown.labels) == card_before
    (pending,) = await world.observer.pending_challenges(fake.channel.id)
    assert pending.status == "pending" and pending.challenged_id == carol.id
    assert without(await stored(world), out) == before
    only_refusal(out, carol, texts.NOT_THIS_MESSAGE)


OUT_OF_RANGE = [f"raptor:m:{2**63}:resign", f"raptor:c:{2**63}:accept",
                f"raptor:m:{2**64}:v:1:end", f"raptor:m:{2**63}:r:1:hand",
                f"raptor:replay:{2**63}:0:next", f"raptor:m:{'9' * 290}:resign",
                f"raptor:c:{'1' * 300}:decline"]


@pytest.mark.parametrize("carried", [True, False], ids=["carried", "as-stored"])
async def test_ids_out_of_range_are_refused_quietly(world: World, carried: bool) -> None:
    """Ids storage cannot hold (2**63 and above, 300 characters) get the refusal, before
    any query: no "Something went wrong", no ERROR line in the log."""
    table = await world.new_table(raptor="alice", scientist="bob")
    alice = table.raptor.user
    card = table.raptor.round_message()
    for custom_id in OUT_OF_RANGE:
        before = await stored(world)
        out = await alice.forge_click(custom_id, message=card, carried=carried)
        assert without(await stored(world), out) == before, custom_id
        only_refusal(out, alice, texts.NOT_THIS_MESSAGE)
    assert world.fake.errors == []


async def finished_table(world: World, rng: random.Random) -> Table:
    """alice (raptor) and bob play rounds 1 and 2, then alice resigns (Resign button)."""
    table = await world.new_table(raptor="alice", scientist="bob")
    while (await table.match()).state.round <= 2:
        await table.play_decision(rng)
    asked = await table.raptor.slash("raptor resign")
    await table.raptor.click("Resign", message=asked.reply)
    assert not (await table.match()).active
    return table


async def test_the_replay_viewer_changes_nothing_while_the_bot_stops(world: World) -> None:
    table = await finished_table(world, random.Random(5))
    out = await table.raptor.slash("raptor replay", match=table.match_id)
    viewer = next(r for r in out if r.visibility == "ephemeral" and r.attachments)
    shown = world.fake.message(viewer.message_id)  # live: keep what it shows now
    shown_before = (shown.content, shown.attachments[0].data)
    world.bot.gate.close()  # what RaptorBot.close does first on SIGTERM

    step = next(b for b in viewer.buttons if b["custom_id"].endswith(":next"))
    assert step["custom_id"] == f"raptor:replay:{table.match_id}:1:next"
    assert not step.get("disabled")
    out = await table.raptor.user.click(custom_id=step["custom_id"], message=viewer)

    after = world.fake.message(viewer.message_id)
    assert (after.content, after.attachments[0].data) == shown_before
    only_refusal(out, table.raptor.user, texts.STOPPING)


async def test_end_is_refused_plainly_to_a_member_granted_raptor_admin_only(
        world: World) -> None:
    """A server admin granted ``/raptor-admin`` to a member without Manage Server (Server
    Settings → Integrations): ``end`` says that it takes Manage Server, and offers no
    confirmation."""
    table = await world.new_table(raptor="alice", scientist="bob")
    helper = world.user("helper")
    world.fake.grant_command(helper, "raptor-admin")
    before = await stored(world)

    out = await helper.slash("raptor-admin end", match=table.match_id)

    assert (await table.match()).active
    assert out.reply.labels == []
    assert without(await stored(world), out) == before
    only_refusal(out, helper, texts.END_NEEDS_MANAGE_SERVER)


async def test_end_turn_one_version_back_gets_the_out_of_date_answer(world: World) -> None:
    """The End turn of the version before, on the card that moved on (the id is on none of
    its components now: a client showing the card as it was): "out of date", nothing
    changed — not Discord's "This interaction failed"."""
    rng = random.Random(3)
    table = await world.new_table(raptor="alice", scientist="bob")
    while True:
        match = await table.match()
        turn = table.turn_message(match)
        if turn is not None and any(b["custom_id"].endswith(":end") for b in turn.buttons):
            break
        await table.play_decision(rng, act_share=0.0, match=match)
    end = next(b["custom_id"] for b in turn.buttons if b["custom_id"].endswith(":end"))
    who = table.player(next(iter(match.waiting_for())))
    await table.play_decision(rng, act_share=1.0, match=match)  # typed: the card moves on
    now = await table.match()
    assert now.version == match.version + 1 and now.active
    card = world.fake.message(turn.message_id)
    assert end not in [c.get("custom_id") for c in card.walk()]
    before = await stored(world)

    out = await who.user.forge_click(end, message=card, carried=False)

    assert without(await stored(world), out) == before
    assert [(r.visibility, r.user_id) for r in out.records] == [("ephemeral", who.id)]
    assert out.content == texts.stale_text("control", group="raptor")
    assert out.errors == []


# --------------------------------------------------------------------------- the sweep


async def draw_offer(world: World, table: Table, who: str) -> Record:
    """``who`` (a player of ``table``) offers a draw; the public offer message."""
    player = table.raptor if table.raptor.name == who else table.scientist
    await player.slash("raptor draw")
    offer = table.newest(player, lambda m: any(
        (b.get("custom_id") or "").endswith(":draw-accept") for b in m.buttons))
    assert offer is not None and offer.visibility == "public"
    return offer


async def challenge_message(world: World, frm: FakeUser, to: FakeUser, channel) -> Record:
    out = await frm.slash("raptor challenge", user=to, in_channel=channel)
    assert out.reply.labels == ["Accept", "Decline", "Cancel"]
    return out.reply


async def table_message(frm: FakeUser, channel) -> Record:
    out = await frm.slash("raptor table", in_channel=channel)
    assert out.reply.labels == ["Join", "Leave", "Remove an AI", "Start match", "Cancel"]
    return out.reply


def ids_of(message: Record, suffix: str) -> str:
    return next(c["custom_id"] for c in message.walk()
                if (c.get("custom_id") or "").endswith(suffix))


async def scene(world: World) -> tuple[dict[str, Record], dict[str, int], dict[str, FakeUser]]:
    """Two servers, each with a match in progress and a finished one, pending challenges
    both ways and an open draw offer; alice plays in all of them (a member of both
    servers), mod is an admin of this server, carol plays M2 but not M1 (the third member).
    alice gets her hands by DM: her DMs hold the settings note, a retired DM hand of M2, M2's
    live one and M1's live one. Returns the messages, the object ids and the people the
    sweep uses."""
    fake = world.fake
    rng = random.Random(8)
    guild = other_server(world)
    alice = world.user("alice")
    fake.join(alice, guild)
    dave = member_of(world, "dave", guild)
    f = await finished_table(world, rng)  # alice vs bob, here
    fb = await b_table(world, "alice", "dave")  # there
    while (await fb.match()).state.round <= 2:
        await fb.play_decision(rng)
    asked = await fb.raptor.slash("raptor resign")
    await fb.raptor.click("Resign", message=asked.reply)
    m1 = await world.new_table(raptor="alice", scientist="bob")
    m2 = await world.new_table(raptor="alice", scientist="carol")
    m3 = await b_table(world, "alice", "dave")
    bob, carol = world.user("bob"), world.user("carol")
    msg = {
        "card1": m1.raptor.round_message(), "card2": m2.raptor.round_message(),
        "line1": fake.message(m1.channel.id),  # the thread's start: M1's line in #general
        "hand1": await m1.raptor.open_hand(), "hand2": await m2.raptor.open_hand(),
        "offer1": await draw_offer(world, m1, "bob"),
        "offer3": await draw_offer(world, m3, "dave"),
        "c1": await challenge_message(world, bob, alice, fake.channel),
        "c1b": await challenge_message(world, alice, carol, fake.channel),
        "c2": await challenge_message(world, dave, alice, guild.channel),
        "c2b": await challenge_message(world, alice, dave, guild.channel),
    }
    replay = await alice.slash("raptor replay", match=f.match_id, in_channel=f.channel)
    msg["viewer"] = next(r for r in replay if r.visibility == "ephemeral" and r.attachments)
    msg["result"] = next(r for r in fake.public_messages(f.channel) if "Rematch" in r.labels)
    mod = fake.add_user("mod", admin=True)
    msg["confirm"] = (await mod.slash("raptor-admin end", match=m1.match_id)).reply
    assert msg["confirm"].labels == ["End match"]
    # M1's thread: a public message of the bot that is no control of M1, carol's ephemeral
    msg["stats1"] = (await alice.slash("raptor stats", in_channel=m1.channel)).reply
    msg["carol1"] = (await carol.slash("raptor rules", in_channel=m1.channel)).reply
    assert msg["stats1"].visibility == "public" and msg["carol1"].visibility == "ephemeral"
    # M2's draw offer, declined: a public message of M2's thread no longer recorded
    msg["offer2"] = await draw_offer(world, m2, "alice")
    await carol.click("Decline draw", message=msg["offer2"])
    # the DMs
    await alice.slash("raptor settings", dm_hand=True)
    msg["dm_note"] = fake.dms(alice)[-1]
    await alice.slash("raptor hand", in_channel=m2.channel)
    msg["dm_old2"] = fake.dms(alice)[-1]
    await alice.slash("raptor hand", in_channel=m2.channel)  # retires the one before
    msg["dm_hand2"] = fake.dms(alice)[-1]
    await alice.slash("raptor hand", in_channel=m1.channel)
    msg["dm_hand1"] = fake.dms(alice)[-1]
    assert fake.message(msg["dm_old2"].id).buttons == [] and msg["dm_hand2"].buttons
    await carol.slash("raptor settings", dm_hand=True)
    msg["dm_carol"] = fake.dms(carol)[-1]
    # tables: bob's and alice's here, dave's and alice's there (alice sits at neither of
    # the others'), and alice's table here that she cancelled with the AI seated
    msg["t0"] = await table_message(alice, fake.channel)
    await alice.select("Seat the AI (host)", values=["easy"], message=msg["t0"])
    await alice.click("Cancel", message=msg["t0"])
    msg["t1"] = await table_message(bob, fake.channel)
    msg["t1b"] = await table_message(alice, fake.channel)
    await alice.select("Seat the AI (host)", values=["easy"], message=msg["t1b"])
    msg["t2"] = await table_message(dave, guild.channel)
    msg["t2b"] = await table_message(alice, guild.channel)
    await alice.select("Seat the AI (host)", values=["easy"], message=msg["t2b"])
    ids = {"m1": m1.match_id, "m2": m2.match_id, "m3": m3.match_id, "f": f.match_id,
           "fb": fb.match_id}
    # Raptor Race: R1 here (alice against the AI, her turn to set dice aside), R3 there
    for key, who, channel in (("r1", alice, fake.channel), ("r3", dave, guild.channel)):
        await who.slash("race practice", players=2, in_channel=channel)
        thread = fake.threads()[-1]
        race = await world.observer.active_match(thread.id)
        assert race is not None and race.game == "race"
        ids[key], ids[f"{key}.v"] = race.id, race.version
        if key == "r1":
            assert race.state.seat == race.seat_of(alice.id) and race.state.phase == "roll"
            msg["rcard1"] = next(r for r in reversed(fake.public_messages(thread)) if any(
                (c.get("custom_id") or "").endswith(":hand") for c in r.walk()))
    for key in ("c1", "c1b", "c2", "c2b"):
        ids[key] = int(ids_of(msg[key], ":accept").split(":")[2])
    for key in ("t0", "t1", "t1b", "t2", "t2b"):
        ids[key] = int(ids_of(msg[key], ":join").split(":")[2])
    ids["c.m1"] = (await world.observer_db.fetchone(
        "SELECT id FROM challenges WHERE match_id = ?", (m1.match_id,)))["id"]
    for key, table in (("m1", m1), ("m3", m3)):
        match = await table.match()
        ids[f"{key}.v"], ids[f"{key}.r"] = match.version, match.state.round
        ids[f"{key}.card"] = match.state.hands[table.raptor.side][0]
    return msg, ids, {"alice": alice, "mod": mod, "carol": carol}


#: (attack, case, clicker, custom_id, message key, select values, answer)
Case = tuple[str, str, str, str, str, "list[str] | None", str]


def sweep_cases(ids: dict[str, int], jump1: str) -> list[Case]:
    """Every control's id, clicked by someone the object would otherwise let act (a player,
    the challenged player, the challenger, a moderator), naming an object that is not the
    clicked message's (another server's, another channel's, another message's, on a DM),
    malformed, out of date, or clicked by a member who is none of those. ``jump1``: the
    link to M1 that a click in a DM is answered with."""
    no = texts.NOT_THIS_MESSAGE
    m1, v, r, card = ids["m1"], ids["m1.v"], ids["m1.r"], ids["m1.card"]
    cases: list[Case] = []
    for where, (m, c_in, c_out, msg, private) in {
            "another server": ("m3", "c2", "c2b", "card2", "hand2"),
            "another channel": ("m1", "c1", "c1b", "card2", "hand2"),
    }.items():
        v_, r_, card_ = ids[f"{m}.v"], ids[f"{m}.r"], ids[f"{m}.card"]
        mid = ids[m]
        finished = "fb" if where == "another server" else "f"
        cases += [(where, *case) for case in [
            ("accept", "alice", f"raptor:c:{ids[c_in]}:accept", msg, None, no),
            ("decline", "alice", f"raptor:c:{ids[c_in]}:decline", msg, None, no),
            ("cancel", "alice", f"raptor:c:{ids[c_out]}:cancel", msg, None, no),
            ("hand", "alice", f"raptor:m:{mid}:r:{r_}:hand", msg, None, no),
            ("pick", "alice", f"raptor:m:{mid}:r:{r_}:pick:{card_}", private, None, no),
            ("do", "alice", f"raptor:m:{mid}:v:{v_}:do", msg, [f"play {card_}"], no),
            ("do:0", "alice", f"raptor:m:{mid}:v:{v_}:do:0", private, [f"play {card_}"], no),
            ("grp", "alice", f"raptor:m:{mid}:v:{v_}:grp", msg, ["T1"], no),
            ("page", "alice", f"raptor:m:{mid}:v:{v_}:grp:T1:1", private, None, no),
            ("end turn", "alice", f"raptor:m:{mid}:v:{v_}:end", msg, None, no),
            ("undo", "alice", f"raptor:m:{mid}:v:{v_}:undo", msg, None, no),
            ("resign", "alice", f"raptor:m:{mid}:resign", private, None, no),
            ("rematch", "alice", f"raptor:m:{ids[finished]}:rematch", msg, None, no),
            ("draw-accept", "alice", f"raptor:m:{mid}:draw-accept", msg, None, no),
            ("draw-decline", "alice", f"raptor:m:{mid}:draw-decline", msg, None, no),
            # Ratjack's decisions naming the match (a Raptor one: another game's object)
            ("ratjack play", "alice", f"ratjack:m:{mid}:v:{v_}:play:draw deck", private, None,
             no),
            ("ratjack menu", "alice", f"ratjack:m:{mid}:v:{v_}:menu:0", private,
             ["draw deck"], no),
        ]]
        cases += [(where, *case) for case in table_cases(ids, "t2", "t2b", "t1b", no)
                  if where == "another server"]
        cases += [(where, *case) for case in table_cases(ids, "t1", "t1b", "card2", no)
                  if where == "another channel"]
    cases += [("another message", *case)
              for case in table_cases(ids, "t1", "t1b", "t1b", no, on_hosted="t1")]
    cases += [("a DM", *case) for case in table_cases(ids, "t1", "t1b", "dm_hand1", no)]
    cancelled = "This table was already cancelled."
    cases += [("out of date", *case) for case in table_cases(ids, "t0", "t0", "t0", cancelled)]
    # the race's controls: R3's (the other server's) on R1's card; R1's on M2's card
    for where, (race, message) in {"another server": ("r3", "rcard1"),
                                   "another channel": ("r1", "card2")}.items():
        rid, rv = ids[race], ids[f"{race}.v"]
        cases += [(where, *case) for case in [
            ("keep", "alice", f"race:m:{rid}:v:{rv}:keep", message, ["0"], no),
            ("keep all", "alice", f"race:m:{rid}:v:{rv}:keep:all", message, None, no),
        ]]
    cases += [(attack, *case) for attack, case in [
        ("another server", ("end match", "mod", f"raptor:m:{ids['m3']}:end", "confirm", None,
                            f"No match #{ids['m3']} is in progress in this server: "
                            "`/raptor-admin matches` lists them.")),
        ("another server", ("replay", "alice", f"raptor:replay:{ids['fb']}:1:next", "viewer",
                            None, f"There is no match #{ids['fb']} in this server: "
                                  "`/raptor history` lists yours.")),
        # the object's own channel, another message
        ("another message", ("accept", "alice", f"raptor:c:{ids['c1']}:accept", "c1b", None,
                             no)),
        ("another message", ("decline", "alice", f"raptor:c:{ids['c1']}:decline", "line1",
                             None, no)),
        ("another message", ("cancel", "alice", f"raptor:c:{ids['c1b']}:cancel", "c1", None,
                             no)),
        ("another message", ("pick", "alice", f"raptor:m:{m1}:r:{r}:pick:{card}", "card1",
                             None, no)),
        ("another message", ("page", "alice", f"raptor:m:{m1}:v:{v}:grp:T1:1", "card1", None,
                             no)),
        ("another message", ("resign", "alice", f"raptor:m:{m1}:resign", "card1", None, no)),
        ("another message", ("draw-accept", "alice", f"raptor:m:{m1}:draw-accept", "card1",
                             None, no)),
        # a public message of the match's channel not recorded as its offer: the offer
        # lapsed, for all the bot knows
        ("another message", ("draw-decline", "alice", f"raptor:m:{m1}:draw-decline",
                             "stats1", None, texts.stale_text("button", group="raptor"))),
        ("another message", ("end match", "mod", f"raptor:m:{m1}:end", "card1", None, no)),
        ("another message", ("ratjack play", "alice", f"ratjack:m:{m1}:v:{v}:play:draw deck",
                             "card1", None, no)),
        ("another message", ("ratjack menu", "alice", f"ratjack:m:{m1}:v:{v}:menu:0",
                             "card1", ["draw deck"], no)),
        ("another message", ("replay", "alice", f"raptor:replay:{ids['f']}:1:next", "result",
                             None, no)),
    ]]
    # in alice's DM with the bot, on M1's live DM hand, or (a pick) on another message
    dm = "dm_hand1"
    stale_dm = texts.stale_text("card button", group="raptor", jump=jump1)
    cases += [("a DM", *case) for case in [
        ("accept", "alice", f"raptor:c:{ids['c1']}:accept", dm, None, no),
        ("decline", "alice", f"raptor:c:{ids['c1']}:decline", dm, None, no),
        ("cancel", "alice", f"raptor:c:{ids['c1b']}:cancel", dm, None, no),
        ("hand", "alice", f"raptor:m:{m1}:r:{r}:hand", dm, None, no),
        ("pick on M2's hand", "alice", f"raptor:m:{m1}:r:{r}:pick:{card}", "dm_hand2", None,
         no),
        ("pick on a retired hand", "alice", f"raptor:m:{m1}:r:{r}:pick:{card}", "dm_old2",
         None, stale_dm),
        ("pick on the settings note", "alice", f"raptor:m:{m1}:r:{r}:pick:{card}", "dm_note",
         None, stale_dm),
        ("pick by a third member", "carol", f"raptor:m:{m1}:r:{r}:pick:{card}", "dm_carol",
         None, no),
        ("do", "alice", f"raptor:m:{m1}:v:{v}:do", dm, [f"play {card}"], no),
        ("do:0", "alice", f"raptor:m:{m1}:v:{v}:do:0", dm, [f"play {card}"], no),
        ("grp", "alice", f"raptor:m:{m1}:v:{v}:grp", dm, ["T1"], no),
        ("page", "alice", f"raptor:m:{m1}:v:{v}:grp:T1:0", dm, None, no),
        ("end turn", "alice", f"raptor:m:{m1}:v:{v}:end", dm, None, no),
        ("undo", "alice", f"raptor:m:{m1}:v:{v}:undo", dm, None, no),
        ("resign", "alice", f"raptor:m:{m1}:resign", dm, None, no),
        ("rematch", "alice", f"raptor:m:{ids['f']}:rematch", dm, None, no),
        ("draw-accept", "alice", f"raptor:m:{m1}:draw-accept", dm, None, no),
        ("draw-decline", "alice", f"raptor:m:{m1}:draw-decline", dm, None, no),
        ("end match", "alice", f"raptor:m:{m1}:end", dm, None, no),
        ("replay", "alice", f"raptor:replay:{ids['f']}:1:next", dm, None, no),
        ("keep", "alice", f"race:m:{ids['r1']}:v:{ids['r1.v']}:keep", dm, ["0"], no),
        ("keep all", "alice", f"race:m:{ids['r1']}:v:{ids['r1.v']}:keep:all", dm, None, no),
        ("ratjack play", "alice", f"ratjack:m:{m1}:v:{v}:play:draw deck", dm, None, no),
        ("ratjack menu", "alice", f"ratjack:m:{m1}:v:{v}:menu:0", dm, ["draw deck"], no),
    ]]
    cases += malformed_cases(valid_clicks(ids), m1)
    stale_menu = texts.stale_text("menu", group="raptor")
    # hostile choices in M1's menus (alice may act: she has a card to pick)
    do, grp = f"raptor:m:{m1}:v:{v}:do", f"raptor:m:{m1}:v:{v}:grp"
    empty = "That didn't work: empty input: type an action such as 'G2-G5', 'play 5' or 'end'"
    cases += [("malformed", *case) for case in [
        ("do, no choice", "alice", do, "card1", [], empty),
        ("do as a button", "alice", do, "card1", None, empty),
        ("do, no notation", "alice", do, "card1", ["zz", f"play {card}"],
         "That didn't work: 'zz' is not action notation; try 'G2-G5', 'kill F3', 'play 5' "
         "or 'end'"),
        ("do, 100 characters", "alice", do, "card1", ["G2-" * 33 + "G"],
         f"That didn't work: '{'G2-' * 13}G…' is not action notation; try 'G2-G5', "
         "'kill F3', 'play 5' or 'end'"),
        ("grp, no choice", "alice", grp, "card1", [], stale_menu),
        ("grp, no group", "alice", grp, "card1", ["../T1"], stale_menu),
    ]]
    cases += stale_cases(ids)
    cases += third_member_cases(ids)
    return cases


def table_cases(ids: dict[str, int], joinable: str, hosted: str, on: str, answer: str,
                on_hosted: str | None = None
                ) -> list[tuple[str, str, str, str, list[str] | None, str]]:
    """Each control of a table clicked by alice, who may join table ``joinable`` and hosts
    ``hosted`` (the AI seated): Join on message ``on``, the host's controls on
    ``on_hosted`` (default ``on``). (case, clicker, custom_id, message key, values,
    answer)."""
    j, h, o = ids[joinable], ids[hosted], on_hosted or on
    return [
        ("table join", "alice", f"raptor:t:{j}:join", on, None, answer),
        ("table leave", "alice", f"raptor:t:{h}:leave", o, None, answer),
        ("table unseat", "alice", f"raptor:t:{h}:unseat", o, None, answer),
        ("table start", "alice", f"raptor:t:{h}:start", o, None, answer),
        ("table cancel", "alice", f"raptor:t:{h}:cancel", o, None, answer),
        ("table ai", "alice", f"raptor:t:{h}:ai", o, ["hard"], answer),
    ]


def valid_clicks(ids: dict[str, int]) -> list[tuple[str, str, str, list[str] | None]]:
    """(clicker, custom_id, message key, values): one click of each control on its own
    message, by someone it lets act (the malformed ids are made from these)."""
    m1, v, r, card = ids["m1"], ids["m1.v"], ids["m1.r"], ids["m1.card"]
    return [
        ("alice", f"raptor:c:{ids['c1']}:accept", "c1", None),
        ("alice", f"raptor:c:{ids['c1']}:decline", "c1", None),
        ("alice", f"raptor:c:{ids['c1b']}:cancel", "c1b", None),
        ("alice", f"raptor:m:{m1}:r:{r}:hand", "card1", None),
        ("alice", f"raptor:m:{m1}:r:{r}:pick:{card}", "hand1", None),
        ("alice", f"raptor:m:{m1}:v:{v}:do", "card1", [f"play {card}"]),
        ("alice", f"raptor:m:{m1}:v:{v}:do:0", "hand1", [f"play {card}"]),
        ("alice", f"raptor:m:{m1}:v:{v}:grp", "card1", ["T1"]),
        ("alice", f"raptor:m:{m1}:v:{v}:grp:T1:1", "hand1", None),
        ("alice", f"raptor:m:{m1}:v:{v}:end", "card1", None),
        ("alice", f"raptor:m:{m1}:v:{v}:undo", "card1", None),
        ("alice", f"raptor:m:{m1}:resign", "hand1", None),
        ("alice", f"raptor:m:{ids['f']}:rematch", "result", None),
        ("alice", f"raptor:m:{m1}:draw-accept", "offer1", None),
        ("alice", f"raptor:m:{m1}:draw-decline", "offer1", None),
        ("mod", f"raptor:m:{m1}:end", "confirm", None),
        ("alice", f"raptor:replay:{ids['f']}:1:next", "viewer", None),
        ("alice", f"ratjack:m:{m1}:v:{v}:play:draw deck", "hand1", None),
        ("alice", f"ratjack:m:{m1}:v:{v}:menu:0", "hand1", ["draw deck"]),
        *((who, custom_id, key, values)
          for _, who, custom_id, key, values, _ in table_cases(ids, "t1", "t1b", "t1", "",
                                                                on_hosted="t1b")),
        ("alice", f"race:m:{ids['r1']}:v:{ids['r1.v']}:keep", "rcard1", ["0"]),
        ("alice", f"race:m:{ids['r1']}:v:{ids['r1.v']}:keep:all", "rcard1", None),
    ]


NUMBER_FIELD = re.compile(r"(?<=:)[0-9]+(?=:|$)")


def malformed_cases(valid: list[tuple[str, str, str, list[str] | None]], m1: int
                    ) -> list[Case]:
    """Each valid click with its id spoiled: every number negative, followed by a letter,
    21 or 101 digits long or in full-width digits; the object's id 0 or 2**63; a field
    more; spaces or a line break around it; in capitals; another game's name, or a name of
    no game, in front. And ids of no control on M1's card."""
    no = texts.NOT_THIS_MESSAGE
    cases: list[Case] = []
    for who, custom_id, key, values in valid:
        numbers = list(NUMBER_FIELD.finditer(custom_id))
        spoiled = []
        for i, number in enumerate(numbers):
            n = number.group()
            bad = [f"-{n}", f"{n}x", "1" * 21, "9" * 101, n.translate(FULL_WIDTH)]
            if i == 0:  # the object's id: numbers that name nothing storage holds
                bad += ["0", str(2**63)]
            spoiled += [custom_id[:number.start()] + b + custom_id[number.end():] for b in bad]
        spoiled += [f"{custom_id}:x", f"{custom_id}\n", f" {custom_id}", custom_id.upper()]
        game, _, rest = custom_id.partition(":")
        spoiled += [f"{other}:{rest}" for other in ("race", "ratjack", "nim", "zz")
                    if other != game]  # another game's (or no game's) name for the object
        cases += [("malformed", f"{custom_id} as {bad!r}", who, bad, key, values, no)
                  for bad in spoiled]
    cases += [("malformed", f"no control: {bad!r}", "alice", bad, "card1", None, no)
              for bad in ("", "hello", "raptor:", f"raptor:m:{m1}", "x" * 100,
                          "ratjack:m:1:resign")]
    return cases


FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def stale_cases(ids: dict[str, int]) -> list[Case]:
    """Each control on its own message, naming its object as it no longer is: the
    challenge M1 started from (accepted), a round or version of M1 other than its current
    one, the finished match, M2's declined draw offer, the match in progress for what only a
    finished one has."""
    m1, v, r, card, c = ids["m1"], ids["m1.v"], ids["m1.r"], ids["m1.card"], ids["c.m1"]
    stale = functools.partial(texts.stale_text, group="raptor")
    accepted = "This challenge was already accepted."
    return [("out of date", *case) for case in [
        ("accept", "bob", f"raptor:c:{c}:accept", "line1", None, accepted),
        ("decline", "bob", f"raptor:c:{c}:decline", "line1", None, accepted),
        ("cancel", "alice", f"raptor:c:{c}:cancel", "line1", None, accepted),
        ("hand", "alice", f"raptor:m:{m1}:r:{r + 1}:hand", "card1", None,
         f"{stale('button')} (It was for round {r + 1}; the match is in round {r}.)"),
        ("pick", "alice", f"raptor:m:{m1}:r:{r + 1}:pick:{card}", "hand1", None,
         stale("card button")),
        ("do", "alice", f"raptor:m:{m1}:v:{v + 1}:do", "card1", [f"play {card}"], stale()),
        ("do:0", "alice", f"raptor:m:{m1}:v:{v + 1}:do:0", "hand1", [f"play {card}"],
         stale()),
        ("grp", "alice", f"raptor:m:{m1}:v:{v + 1}:grp", "card1", ["T1"], stale()),
        ("page", "alice", f"raptor:m:{m1}:v:{v + 1}:grp:T1:0", "hand1", None, stale()),
        ("end turn", "alice", f"raptor:m:{m1}:v:{v + 1}:end", "card1", None, stale()),
        ("undo", "alice", f"raptor:m:{m1}:v:{v + 1}:undo", "card1", None, stale()),
        ("resign", "alice", f"raptor:m:{ids['f']}:resign", "viewer", None, texts.MATCH_OVER),
        ("rematch", "alice", f"raptor:m:{m1}:rematch", "card1", None,
         "This match is still being played: finish it (or resign) before asking for a "
         "rematch."),
        ("draw-accept", "alice", f"raptor:m:{ids['m2']}:draw-accept", "offer2", None,
         stale("button")),
        ("draw-decline", "alice", f"raptor:m:{ids['m2']}:draw-decline", "offer2", None,
         stale("button")),
        ("end match", "mod", f"raptor:m:{ids['f']}:end", "confirm", None,
         "This match is already over."),
        ("replay", "alice", f"raptor:replay:{m1}:1:next", "viewer", None,
         f"Match #{m1} is still being played: its replay and record come once it is over "
         "(until then its hands are secret)."),
        ("keep", "alice", f"race:m:{ids['r1']}:v:{ids['r1.v'] + 1}:keep", "rcard1", ["0"],
         texts.stale_text("control", group="race")),
        ("keep all", "alice", f"race:m:{ids['r1']}:v:{ids['r1.v'] + 2}:keep:all", "rcard1",
         None, texts.stale_text("control", group="race")),
    ]]


def third_member_cases(ids: dict[str, int]) -> list[Case]:
    """Each control on its own message (or, a private one, on carol's own ephemeral message
    in M1's thread), clicked by carol, who plays M2 but neither M1 nor the finished match,
    sent no challenge and is no moderator."""
    m1, v, r, card = ids["m1"], ids["m1.v"], ids["m1.r"], ids["m1.card"]
    mine = texts.NOT_YOUR_MATCH
    return [("a third member", *case) for case in [
        ("accept", "carol", f"raptor:c:{ids['c1']}:accept", "c1", None,
         "Only the challenged player can accept this challenge."),
        ("decline", "carol", f"raptor:c:{ids['c1']}:decline", "c1", None,
         "Only the challenged player can decline this challenge."),
        ("cancel", "carol", f"raptor:c:{ids['c1']}:cancel", "c1", None,
         "Only the player who sent this challenge can cancel it."),
        ("hand", "carol", f"raptor:m:{m1}:r:{r}:hand", "card1", None, mine),
        ("pick", "carol", f"raptor:m:{m1}:r:{r}:pick:{card}", "carol1", None, mine),
        ("do", "carol", f"raptor:m:{m1}:v:{v}:do", "card1", [f"play {card}"], mine),
        ("do:0", "carol", f"raptor:m:{m1}:v:{v}:do:0", "carol1", [f"play {card}"], mine),
        ("grp", "carol", f"raptor:m:{m1}:v:{v}:grp", "card1", ["T1"], mine),
        ("page", "carol", f"raptor:m:{m1}:v:{v}:grp:T1:0", "carol1", None, mine),
        ("end turn", "carol", f"raptor:m:{m1}:v:{v}:end", "card1", None, mine),
        ("undo", "carol", f"raptor:m:{m1}:v:{v}:undo", "card1", None, mine),
        ("resign", "carol", f"raptor:m:{m1}:resign", "carol1", None, mine),
        ("rematch", "carol", f"raptor:m:{ids['f']}:rematch", "result", None,
         "Only the players of this match can ask for a rematch."),
        ("draw-accept", "carol", f"raptor:m:{m1}:draw-accept", "offer1", None, mine),
        ("draw-decline", "carol", f"raptor:m:{m1}:draw-decline", "offer1", None, mine),
        ("end match", "carol", f"raptor:m:{m1}:end", "carol1", None,
         texts.END_NEEDS_MANAGE_SERVER),
        ("table leave", "carol", f"raptor:t:{ids['t1b']}:leave", "t1b", None,
         "You are not at this table."),
        ("table unseat", "carol", f"raptor:t:{ids['t1b']}:unseat", "t1b", None,
         "Only the host of this table can take the AI away."),
        ("table start", "carol", f"raptor:t:{ids['t1b']}:start", "t1b", None,
         "Only the host of this table can start it."),
        ("table cancel", "carol", f"raptor:t:{ids['t1b']}:cancel", "t1b", None,
         "Only the host of this table can cancel it."),
        ("table ai", "carol", f"raptor:t:{ids['t1b']}:ai", "t1b", ["hard"],
         "Only the host of this table can seat the AI."),
        ("keep", "carol", f"race:m:{ids['r1']}:v:{ids['r1.v']}:keep", "rcard1", ["0"], mine),
        ("keep all", "carol", f"race:m:{ids['r1']}:v:{ids['r1.v']}:keep:all", "rcard1", None,
         mine),
    ]]


#: Ratjack's decisions need a Ratjack match to be out of date or clicked by a member
#: outside it; the scene's matches are Raptor's (where these ids name another game's match:
#: the other attacks).
RATJACK_ON_ITS_MATCH = dict.fromkeys(
    ("PlayButton", "PlaySelect"),
    "on a Ratjack match: a control of an older version, another player's decision and a "
    "member outside the match, in tests/discord/test_ratjack_refusals.py")

#: The attacks that do not apply to a control, and why (each other control has a case).
NOT_APPLICABLE = {
    "another channel": {
        "MatchButton:end": "a moderator ends any match of the server from any channel "
                           "(/raptor-admin end match:N)",
        "ReplayStepButton": "a finished match's replay is anyone's in its server, from any "
                            "channel (/raptor replay match:N)",
    },
    "another message": dict.fromkeys(
        ("HandButton", "ActionSelect", "GroupSelect", "TurnButton:end", "TurnButton:undo",
         "MatchButton:rematch", "KeepSelect", "KeepAllButton"),
        "a control of the match's channel fits any message there not recorded for another "
        "match (bot.discord.ownership); its handler never edits the clicked public message: "
        "test_a_channel_control_never_rewrites_the_message_it_is_sent_on"),
    "a third member": {
        "ReplayStepButton": "a finished match's replay is anyone's in its server",
        "TableButton:join": "a table is open to anyone in its channel",
        **RATJACK_ON_ITS_MATCH,
    },
    "out of date": RATJACK_ON_ITS_MATCH,
}
ATTACKS = ("another server", "another channel", "another message", "a DM", "malformed",
           "out of date", "a third member")


def template_meanings() -> set[str]:
    """Every control the bot registers (class, and each ``what`` its template allows)."""
    out = set()
    for cls in CONTROLS:
        found = re.search(r"\(\?P<what>([a-z|-]+)\)", cls.__discord_ui_compiled_template__.pattern)
        out |= ({f"{cls.__name__}:{what}" for what in found.group(1).split("|")} if found
                else {cls.__name__})
    return out


def meanings(custom_ids) -> set[str]:
    """The controls (class, and its ``what``) the bot would read these ids as."""
    out = set()
    for custom_id in custom_ids:
        for cls in CONTROLS:
            found = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
            if found is not None:
                what = found.groupdict().get("what")
                out.add(f"{cls.__name__}:{what}" if what else cls.__name__)
    return out


def test_the_sweep_names_every_control_of_the_bot() -> None:
    """Each attack has a case for every control registered (a new control, or a new
    ``what`` of one, needs its cases), or says why it does not apply."""
    ids = {k: 10 + i for i, k in enumerate(
        ("m1", "m2", "m3", "f", "fb", "c1", "c1b", "c2", "c2b", "c.m1", "m1.v", "m1.r",
         "m3.v", "m3.r", "t0", "t1", "t1b", "t2", "t2b", "r1", "r1.v", "r3", "r3.v"))}
    ids |= {"m1.card": 2, "m3.card": 5}
    cases = sweep_cases(ids, "jump")
    assert {c[0] for c in cases} == set(ATTACKS)
    for attack in ATTACKS:
        sources = [c[3] for c in cases if c[0] == attack]
        if attack == "malformed":
            sources = [v[1] for v in valid_clicks(ids)]
        covered = meanings(sources)
        exempt = set(NOT_APPLICABLE.get(attack, {}))
        assert covered | exempt == template_meanings() and not covered & exempt, attack


@pytest.mark.parametrize("carried", [True, False], ids=["carried", "as-stored"])
async def test_no_control_acts_on_an_object_of_another_server_channel_or_message(
        world: World, carried: bool) -> None:
    """Every template (accept / decline / cancel, hand, pick, do, grp, page, end / undo,
    resign, rematch, draw-accept / draw-decline, End match, the replay viewer's steps) with
    an id naming an object that is not the clicked message's, in a DM, malformed, out of
    date or clicked by a third member: one ephemeral refusal, and no match, challenge,
    thread or message changes."""
    msg, ids, people = await scene(world)
    m1 = await world.observer.get_match(ids["m1"])
    jump1 = texts.to_match(raptor_texts.match_title(m1),
                           await match_link(PostStore(world.observer_db), m1))
    cases = sweep_cases(ids, jump1)
    people = {**people, "bob": world.user("bob")}
    wrong = []
    for attack, case, who, custom_id, key, values, answer in cases:
        user = people[who]
        before = await stored(world)
        out = await user.forge_click(custom_id, message=msg[key], values=values,
                                     carried=carried)
        got = [(r.visibility, r.user_id, r.content) for r in out.records]
        if got != [("ephemeral", user.id, answer)] or out.errors:
            wrong.append((attack, case, got, out.errors))
        if without(await stored(world), out) != before:
            wrong.append((attack, case, "changed something"))
    assert wrong == []


async def test_a_channel_control_never_rewrites_the_message_it_is_sent_on(
        world: World) -> None:
    """The controls of a match's channel (``NOT_APPLICABLE["another message"]``) fit any
    message there that is not recorded for another match. Sent by a player on the bot's
    answer to ``/raptor stats`` in the match's thread, each acts on its own match as from
    the match's card, and that message stays as it was."""
    table = await world.new_table(raptor="alice", scientist="bob")
    alice, fake = table.raptor.user, world.fake
    stats = (await alice.slash("raptor stats", in_channel=table.channel)).reply
    assert stats.visibility == "public" and stats.channel_id == table.channel.id
    shown = (stats.content, stats.components, stats.attachments)
    match = await table.match()
    mid, v, r = match.id, match.version, match.state.round
    hand = match.state.hands[R]
    assert len(hand) == 3
    card = hand[0]
    answers = {}
    for custom_id, values in [(f"raptor:m:{mid}:r:{r}:hand", None),
                              (f"raptor:m:{mid}:v:{v}:grp", ["T1"]),
                              (f"raptor:m:{mid}:v:{v}:end", None),
                              (f"raptor:m:{mid}:v:{v}:undo", None),
                              (f"raptor:m:{mid}:v:{v}:do", [f"play {card}"])]:
        out = await alice.forge_click(custom_id, message=stats, values=values)
        assert stats.message_id not in {r.message_id for r in out.records}
        assert out.errors == []
        answers[custom_id] = [(r.visibility, r.content.split("\n")[0]) for r in out.replies]
    assert answers == {
        f"raptor:m:{mid}:r:{r}:hand": [("ephemeral", f"**Match #{mid} · your hand** (raptor, "
                                                     f"round {r})")],
        f"raptor:m:{mid}:v:{v}:grp": [("ephemeral", texts.stale_text("menu", group="raptor"))],
        f"raptor:m:{mid}:v:{v}:end": [(
            "ephemeral", "That didn't work: 'end' is not legal now: this is the card pick: "
            f"play a card from your hand ({' '.join(map(str, hand))}) with 'play N'; closest "
            f"legal actions: {', '.join(f'play {c}' for c in hand)}")],
        f"raptor:m:{mid}:v:{v}:undo": [("ephemeral", "There is nothing to undo: you can only "
                                        "take back your own action-point moves of the current "
                                        "turn.")],
        f"raptor:m:{mid}:v:{v}:do": [],  # the pick: only the match's card shows it
    }
    after = await table.match()
    assert after.version == v + 1 and after.state.picks == {R: card, S: None}
    asked = await table.raptor.slash("raptor resign")
    await table.raptor.click("Resign", message=asked.reply)
    out = await alice.forge_click(f"raptor:m:{mid}:rematch", message=stats)
    assert stats.message_id not in {r.message_id for r in out.records}
    (rematch,) = await world.observer.pending_challenges(table.channel.id)
    assert (rematch.challenger_id, rematch.challenged_id) == (alice.id, table.scientist.id)
    now = fake.message(stats.message_id)
    assert (now.content, now.components, now.attachments) == shown and not now.edit
    # the race's controls, on the bot's answer in a race's thread: they act on the race
    await alice.slash("race practice", players=2)
    thread = fake.threads()[-1]
    race = await world.observer.active_match(thread.id)
    assert race is not None and race.state.seat == race.seat_of(alice.id)
    rstats = (await alice.slash("race stats", in_channel=thread)).reply
    assert rstats.visibility == "public" and rstats.channel_id == thread.id
    rshown = (rstats.content, rstats.components, rstats.attachments)
    keep = f"race:m:{race.id}:v:{race.version}:keep"
    out = await alice.forge_click(keep, message=rstats, values=["0"])
    assert rstats.message_id not in {r.message_id for r in out.records} and out.errors == []
    kept = await world.observer.get_match(race.id)
    assert kept.version == race.version + 1 and kept.state.kept == race.state.rolled[:1]
    keep_all = f"race:m:{race.id}:v:{kept.version}:keep:all"
    out = await alice.forge_click(keep_all, message=rstats)
    assert rstats.message_id not in {r.message_id for r in out.records} and out.errors == []
    assert (await world.observer.get_match(race.id)).version > kept.version
    now = fake.message(rstats.message_id)
    assert (now.content, now.components, now.attachments) == rshown and not now.edit
    assert meanings([f"raptor:m:{mid}:rematch", *answers, keep, keep_all]) == set(
        NOT_APPLICABLE["another message"])


async def test_no_command_names_an_object_of_another_server(world: World) -> None:
    """The commands that take a match number, run here by a member of both servers (and
    a moderator here) with the number of the other server's match, finished or in
    progress, or with the largest number Discord sends: one ephemeral refusal, nothing
    posted; ``/raptor act`` offers nothing where the typing member has no match."""
    fake, guild = world.fake, other_server(world)
    alice = world.user("alice")
    fake.join(alice, guild)
    over = await b_table(world, "alice", "dave")
    asked = await over.raptor.slash("raptor resign")
    await over.raptor.click("Resign", message=asked.reply)
    there = await b_table(world, "alice", "erin")
    mod = fake.add_user("mod", admin=True)
    fake.join(mod, guild, admin=True)
    largest = 2**53 - 1  # Discord's largest integer option
    cases = []
    for number in (over.match_id, there.match_id, largest):
        no_match = (f"There is no match #{number} in this server: `/raptor history` lists "
                    "yours.")
        cases += [(alice, "raptor replay", number, no_match),
                  (alice, "raptor record", number, no_match),
                  (mod, "raptor-admin end", number,
                   f"No match #{number} is in progress in this server: `/raptor-admin "
                   "matches` lists them.")]
    for who, command, number, answer in cases:
        before = await stored(world)
        out = await who.slash(command, match=number)
        assert without(await stored(world), out) == before, (command, number)
        only_refusal(out, who, answer)
    with pytest.raises(HarnessError, match="beyond Discord's"):  # Discord refuses it
        await alice.slash("raptor replay", match=largest + 1)
    for channel in (fake.channel, guild.channel):  # no match there: nothing to offer
        assert await alice.autocomplete("raptor act", "action", "", in_channel=channel) == []
    offered = await alice.autocomplete("raptor act", "action", "", in_channel=there.channel)
    hand = (await there.match()).state.hands[R]
    assert sorted(c["value"] for c in offered) == [f"play {c}" for c in sorted(hand)]
