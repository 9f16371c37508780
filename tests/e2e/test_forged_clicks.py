"""Clicks with crafted component ids: what a modified client can send (any custom_id on any
message it can see, :meth:`tests.fakediscord.FakeUser.forge_click`). Each gets one ephemeral
refusal for the clicker and changes nothing: no match, challenge or message of another
server, channel or message is touched (``bot.discord.ownership``).

``carried``: the forged interaction's message carries the forged component (as if Discord
relayed the client's copy of the message) or is the message as stored, whose components do
not have it — discord.py then drops the click, and the bot must still answer it
(``bot.discord.components.dispatch_unplaced``), as it must a click from a client that shows
an older version of an edited message (End turn one version back).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot import texts
from bot.discord.app import CONTROLS
from tests.e2e.conftest import check_acks
from tests.e2e.players import Table, World
from tests.fakediscord import FakeDiscord, FakeGuild, FakeUser, Outcome, Record


@pytest.fixture
async def world(tmp_path) -> AsyncIterator[World]:
    """The e2e world with a second server, "Other" (``world.fake.guilds``, second)."""
    fake = FakeDiscord()
    fake.add_guild("Other")
    async with World.open(tmp_path, fake=fake) as w:
        yield w
        check_acks(w)
        w.fake.assert_clean()


def other_server(world: World) -> FakeGuild:
    return list(world.fake.guilds.values())[1]


def member_of(world: World, name: str, guild: FakeGuild) -> FakeUser:
    """The member ``name`` of ``guild`` (added there on first use)."""
    return world.fake.users.get(name) or world.fake.add_user(name, guild=guild)


async def stored(world: World) -> dict:
    """Everything a click could change: each match's status, version, channel, log length
    and draw offer, each challenge's status, each thread, and each message as shown now."""
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
    return {"matches": matches, "logs": logs, "challenges": challenges,
            "messages": messages, "threads": threads}


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
    assert out.content == texts.stale_text("control")
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


def ids_of(message: Record, suffix: str) -> str:
    return next(c["custom_id"] for c in message.walk()
                if (c.get("custom_id") or "").endswith(suffix))


async def scene(world: World) -> tuple[dict[str, Record], dict[str, int], dict[str, FakeUser]]:
    """Two servers, each with a match in progress and a finished one, pending challenges
    both ways and an open draw offer; alice plays in all of them (a member of both
    servers), mod is an admin of this server. Returns the messages, the object ids and the
    people the sweep uses."""
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
    ids = {"m1": m1.match_id, "m2": m2.match_id, "m3": m3.match_id, "f": f.match_id,
           "fb": fb.match_id}
    for key in ("c1", "c1b", "c2", "c2b"):
        ids[key] = int(ids_of(msg[key], ":accept").split(":")[2])
    for key, table in (("m1", m1), ("m3", m3)):
        match = await table.match()
        ids[f"{key}.v"], ids[f"{key}.r"] = match.version, match.state.round
        ids[f"{key}.card"] = match.state.hands[table.raptor.side][0]
    return msg, ids, {"alice": alice, "mod": mod}


def sweep_cases(ids: dict[str, int]) -> list[tuple[str, str, str, str, list[str] | None, str]]:
    """(case, clicker, custom_id, message key, select values, answer): every control's id
    naming another server's, another channel's or another message's object, clicked by
    someone the object would otherwise let act (a player, the challenged player, the
    challenger, a moderator)."""
    no = texts.NOT_THIS_MESSAGE
    cases = []
    for where, (m, c_in, c_out, msg, private) in {
            "another server": ("m3", "c2", "c2b", "card2", "hand2"),
            "another channel": ("m1", "c1", "c1b", "card2", "hand2"),
    }.items():
        v, r, card = ids[f"{m}.v"], ids[f"{m}.r"], ids[f"{m}.card"]
        mid = ids[m]
        finished = "fb" if where == "another server" else "f"
        cases += [
            (f"{where}: accept", "alice", f"raptor:c:{ids[c_in]}:accept", msg, None, no),
            (f"{where}: decline", "alice", f"raptor:c:{ids[c_in]}:decline", msg, None, no),
            (f"{where}: cancel", "alice", f"raptor:c:{ids[c_out]}:cancel", msg, None, no),
            (f"{where}: hand", "alice", f"raptor:m:{mid}:r:{r}:hand", msg, None, no),
            (f"{where}: pick", "alice", f"raptor:m:{mid}:r:{r}:pick:{card}", private, None,
             no),
            (f"{where}: do", "alice", f"raptor:m:{mid}:v:{v}:do", msg, [f"play {card}"], no),
            (f"{where}: do:0", "alice", f"raptor:m:{mid}:v:{v}:do:0", private,
             [f"play {card}"], no),
            (f"{where}: grp", "alice", f"raptor:m:{mid}:v:{v}:grp", msg, ["T1"], no),
            (f"{where}: page", "alice", f"raptor:m:{mid}:v:{v}:grp:T1:1", private, None, no),
            (f"{where}: end turn", "alice", f"raptor:m:{mid}:v:{v}:end", msg, None, no),
            (f"{where}: undo", "alice", f"raptor:m:{mid}:v:{v}:undo", msg, None, no),
            (f"{where}: resign", "alice", f"raptor:m:{mid}:resign", private, None, no),
            (f"{where}: rematch", "alice", f"raptor:m:{ids[finished]}:rematch", msg, None,
             no),
            (f"{where}: draw-accept", "alice", f"raptor:m:{mid}:draw-accept", msg, None, no),
            (f"{where}: draw-decline", "alice", f"raptor:m:{mid}:draw-decline", msg, None,
             no),
        ]
    m1, v, r, card = ids["m1"], ids["m1.v"], ids["m1.r"], ids["m1.card"]
    cases += [
        ("another server: end match", "mod", f"raptor:m:{ids['m3']}:end", "confirm", None,
         f"No match #{ids['m3']} is in progress in this server: `/raptor-admin matches` "
         "lists them."),
        ("another server: replay", "alice", f"raptor:replay:{ids['fb']}:1:next", "viewer",
         None, f"There is no match #{ids['fb']} in this server: `/raptor history` lists "
               "yours."),
        # the object's own channel, another message
        ("another message: accept", "alice", f"raptor:c:{ids['c1']}:accept", "c1b", None, no),
        ("another message: decline", "alice", f"raptor:c:{ids['c1']}:decline", "line1", None,
         no),
        ("another message: cancel", "alice", f"raptor:c:{ids['c1b']}:cancel", "c1", None, no),
        ("another message: pick", "alice", f"raptor:m:{m1}:r:{r}:pick:{card}", "card1", None,
         no),
        ("another message: page", "alice", f"raptor:m:{m1}:v:{v}:grp:T1:1", "card1", None, no),
        ("another message: resign", "alice", f"raptor:m:{m1}:resign", "card1", None, no),
        ("another message: draw-accept", "alice", f"raptor:m:{m1}:draw-accept", "card1", None,
         no),
        ("another message: draw-decline", "alice", f"raptor:m:{m1}:draw-decline", "card1",
         None, no),
        ("another message: end match", "mod", f"raptor:m:{m1}:end", "card1", None, no),
        ("another message: replay", "alice", f"raptor:replay:{ids['f']}:1:next", "result",
         None, no),
    ]
    return cases


ALL_MEANINGS = {"ChallengeButton:accept", "ChallengeButton:decline", "ChallengeButton:cancel",
                "HandButton", "PickButton", "ActionSelect", "GroupSelect", "PageButton",
                "TurnButton:end", "TurnButton:undo", "MatchButton:resign", "MatchButton:rematch",
                "MatchButton:draw-accept", "MatchButton:draw-decline", "MatchButton:end",
                "ReplayStepButton"}


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
    assert {cls.__name__ for cls in CONTROLS} == {m.split(":")[0] for m in ALL_MEANINGS}


@pytest.mark.parametrize("carried", [True, False], ids=["carried", "as-stored"])
async def test_no_control_acts_on_an_object_of_another_server_channel_or_message(
        world: World, carried: bool) -> None:
    """Every template (accept / decline / cancel, hand, pick, do, grp, page, end / undo,
    resign, rematch, draw-accept / draw-decline, End match, the replay viewer's steps) with
    an id naming an object that is not the clicked message's: one ephemeral refusal, and no
    match, challenge, thread or message changes."""
    msg, ids, people = await scene(world)
    cases = sweep_cases(ids)
    assert meanings(c[2] for c in cases) == ALL_MEANINGS
    wrong = []
    for case, who, custom_id, key, values, answer in cases:
        user = people[who]
        before = await stored(world)
        out = await user.forge_click(custom_id, message=msg[key], values=values,
                                     carried=carried)
        got = [(r.visibility, r.user_id, r.content) for r in out.records]
        if got != [("ephemeral", user.id, answer)] or out.errors:
            wrong.append((case, got, out.errors))
        if without(await stored(world), out) != before:
            wrong.append((case, "changed something"))
    assert wrong == []
