"""A round in the channel, driven by clicks, select menus and ``/raptor act`` (R5).

The match seed is fixed (``tests/discord/conftest.py``): the raptor (alice) holds 2 6 7 and the
scientist (bob) 1 8 9 in round 1.
"""

from __future__ import annotations

import render
from bot.games.raptor import sides as rs
from bot.games.raptor import texts
from engine import Phase, Side, square
from engine.state import BABY, EMPTY
from tests.discord.conftest import World
from tests.discord.helpers import option_values, pick, public_text, start_match, turn_message

R, S = Side.RAPTOR, Side.SCIENTIST


async def test_challenge_accept_and_round_one_by_clicks(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    out = await alice.slash("raptor challenge", user=bob, side="raptor")
    challenge = out.reply
    assert challenge.visibility == "public"
    assert challenge.labels == ["Accept", "Decline", "Cancel"]
    assert bob.mention in challenge.content and alice.mention in challenge.content

    out = await bob.click("Accept")
    start = fake.message(challenge.id)
    assert start.buttons == []  # answered: no more buttons
    assert start.content.startswith(f"Challenge from {alice.mention} to {bob.mention}: "
                                    "accepted ✅")  # not struck through
    assert f"**Match #1** — a new match: {alice.mention} (raptor)" in start.content
    (card,) = [r for r in out if r.visibility == "public" and not r.edit]  # one new message
    assert card.content.startswith(f"**Match #1 · Round 1** — {alice.mention} (raptor) ⏳ · "
                                   f"{bob.mention} (scientist) ⏳ — pick your card")
    assert card.pinged == (alice.id,)  # bob just clicked Accept: he is not pinged
    assert card.attachments[0].is_png and card.attachments[0].filename == "board.png"
    assert card.attachments[0].image().size == render.BOARD_IMAGE_SIZE
    assert card.embeds[0]["image"]["url"] == "attachment://board.png"
    assert card.labels == ["Pick your card"]
    match = await world.match()
    assert (rs.user(match, R), rs.user(match, S)) == (alice.id, bob.id)

    # The hand is shown only to its player, with one button per card.
    out = await alice.click("Pick your card")
    hand = out.reply
    assert hand.visibility == "ephemeral" and hand.user_id == alice.id
    assert hand.labels == ["2 · Disappearance & Observation", "6 · Disappearance & Observation",
                           "7 · Recovery ×3"]
    assert hand.attachments[0].filename == "hand.png" and hand.attachments[0].is_png
    assert all(not r.visible_to(bob) for r in out.records)

    out = await alice.click("7 · Recovery ×3")
    assert out.reply.ephemeral and "You picked **7 · Recovery ×3**" in out.reply.content
    public = [r for r in out if r.visibility == "public"]
    # the pick is folded into the card: edited in place, no "has picked" message, no ping
    assert [r.id for r in public] == [card.id] and public[0].edit
    assert (f"{alice.mention} (raptor) ✅ · {bob.mention} (scientist) ⏳ — pick your card"
            in public[0].content)
    assert fake.message(hand.id).buttons == []  # the hand message lost its pick buttons

    out = await pick(bob, S, 1)
    assert [r.id for r in out if r.visibility == "public"] == [card.id]  # the reveal: in place
    reveal = fake.message(card.id)
    log = reveal.embeds[0]["description"]
    assert log.startswith("Cards: raptor **7 · Recovery ×3**, scientist **1 · Sleeping Gas & "
                          "Shuffle**.")
    assert f"{bob.mention} (scientist), your move: resolve **1 · Sleeping Gas" in reveal.content
    assert f"Then {alice.mention} (raptor) gets **6 AP**." in reveal.content
    assert "Pick your card" not in reveal.labels  # picking is over for round 1

    # The scientist resolves the effect with the select menu of the card.
    turn = turn_message(world)
    assert turn.id == card.id
    assert turn.attachments[0].filename == "board.png"
    assert sorted(option_values(turn)) == ["gas C4", "gas D3", "gas J6", "gas K2"]
    out = await bob.select("Choose an action", values=["gas D3"])
    assert out.ack.callback_type == 6  # acknowledged at once, then edited
    done = fake.message(card.id)
    assert "Scientist resolves card 1 (Sleeping Gas & Shuffle): `gas D3`." in (
        done.embeds[0]["description"])
    # the turn passes to alice, who did not act last and was pinged already this round
    assert [r for r in out if r.visibility == "public" and not r.edit] == []

    # The raptor's AP: one select of all 19 actions (≤ 25) plus End turn.
    turn = turn_message(world)
    assert turn.id == card.id
    assert alice.mention in turn.content and "6 AP" in turn.content
    assert len(option_values(turn)) == 19 and "C4-C3" in option_values(turn)
    assert "End turn" in turn.labels and "Undo" not in turn.labels
    await alice.select("Choose an action", values=["C4-C3"])
    match = await world.match()
    assert match.state.ap.remaining == 5
    turn = turn_message(world)
    assert "Undo" in turn.labels and "5 AP" in turn.content

    # Undo takes it back; the card shows the decision again.
    await alice.click("Undo")
    match = await world.match()
    assert match.state.ap.remaining == 6
    assert match.state.board[square("C4")] == BABY and match.state.board[square("C3")] == EMPTY
    turn = turn_message(world)
    assert "6 AP" in turn.content and "Undo" not in turn.labels

    # The same decisions through /raptor act (ephemeral confirmation).
    version = match.version
    out = await alice.slash("raptor act", action="c4-c3")
    assert out.reply.ephemeral and out.reply.content.startswith("Done: `C4-C3`")
    controls = str(fake.message(card.id).components)
    assert f":v:{version}:" not in controls and f":v:{version + 1}:" in controls
    out = await alice.slash("raptor act", action="G1-G3")
    assert (await world.match()).state.ap.remaining == 4
    # a typed undo, as the Undo button
    out = await alice.slash("raptor act", action="Undo")
    assert out.reply.ephemeral and out.reply.content == "Done: your last action is taken back."
    assert (await world.match()).state.ap.remaining == 5
    assert "5 AP" in turn_message(world).content
    out = await alice.slash("raptor act", action="G1-G3")
    assert (await world.match()).state.ap.remaining == 4

    out = await alice.click("End turn")
    summary = fake.message(card.id)  # the card became the round's record
    assert summary.content.startswith("**Match #1 · Round 1 summary**")
    assert "`gas D3`" in summary.content and "`C4-C3`" in summary.content
    assert "`G1-G3`" in summary.content
    assert summary.content.count("`G1-G3`") == 1  # each action once
    assert "raptor **7 · Recovery ×3**, scientist **1 · Sleeping Gas & Shuffle**" in (
        summary.content)
    assert summary.attachments == [] and summary.components == [] and summary.embeds == []
    (round2,) = [r for r in out if r.visibility == "public" and not r.edit]
    assert "Round 2" in round2.content and round2.labels == ["Pick your card"]
    assert round2.attachments[0].image().size == render.BOARD_IMAGE_SIZE
    assert round2.pinged == (bob.id,)  # alice ended the round: only bob is pinged
    match = await world.match()
    assert match.state.round == 2 and match.state.phase is Phase.PICK
    assert fake.problems() == []


async def test_disappearance_group_menus_return_and_observation(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    match = await start_match(world)
    await pick(alice, R, 2)
    out = await pick(bob, S, 9)
    assert any("the mother disappears" in r.text or "resolve **2 · Disappearance" in r.text
               for r in out)

    # 81 scientist actions: a select of figurines, then that figurine's actions, ephemerally.
    turn = turn_message(world)
    menu = turn.select_menu("Choose a figurine or an area")
    assert menu is not None
    assert [o["value"] for o in menu["options"]] == ["B2", "L2", "B6", "L6"]
    out = await bob.select("Choose a figurine or an area", values=["B2"])
    group = out.reply
    assert group.visibility == "ephemeral" and group.user_id == bob.id
    assert len(option_values(group)) == 23 and "B2-C2" in option_values(group)
    # only bob can use the public menu
    out = await alice.select("Choose a figurine or an area", values=["L2"], message=turn.id)
    assert out.reply.ephemeral and out.reply.content == (
        "It's not your turn: waiting for the scientist player to spend their action points.")
    version = (await world.match()).version
    out = await bob.select("Scientist on B2: choose an action", values=["B2-C2"])
    assert out.reply.ephemeral and out.reply.content == "Done: `B2-C2`"
    controls = str(fake.message(turn.id).components)  # the card: the next version's controls
    assert f":v:{version}:" not in controls and f":v:{version + 1}:" in controls
    match = await world.match()
    assert match.state.ap.remaining == 6
    await bob.click("End turn")

    # The mother's return: grouped by tile.
    turn = turn_message(world)
    assert alice.mention in turn.content and "put the mother back" in turn.content
    out = await alice.select("Choose a figurine or an area", values=["T2"])
    target = option_values(out.reply)[0]
    out = await alice.select("Tile T2: choose an action", values=[target])
    summary = next(r for r in out if "Round 1 summary" in r.content)
    assert f"The mother returns on {target[2:]}." in summary.content
    round2 = next(r for r in out if "Round 2" in r.content)
    assert (f"{bob.mention} (scientist) ⏳ picks first · then {alice.mention} (raptor) sees "
            "that card and picks (observation)") in round2.content
    assert round2.pinged == (bob.id,)  # only the scientist is asked first (R5.2)

    # Observation (R5.2): the scientist picks first; the raptor then sees that card.
    out = await alice.click("Pick your card")
    assert "scientist picks first" in out.reply.content and out.reply.buttons == []
    match = await world.match()
    scientist_card = match.state.hands[S][0]
    out = await pick(bob, S, scientist_card)
    # the card says the raptor's turn to pick, and one short message pings her
    nudge = next(r for r in out if r.visibility == "public" and not r.edit)
    assert nudge.content.startswith(f"🔔 {alice.mention}, your move in Match #1: pick your")
    assert nudge.pinged == (alice.id,)
    assert fake.message(round2.id).labels == ["Pick your card"]
    assert "has picked" not in public_text(world)
    name = texts.card_label(S, scientist_card)
    assert all(name not in r.text for r in fake.records if r.visibility == "public")
    out = await alice.click("Pick your card")
    assert f"the scientist has picked **{name}**" in out.reply.content
    assert out.reply.user_id == alice.id and out.reply.ephemeral
    assert len(out.reply.buttons) == 3
    out = await alice.click(out.reply.labels[0], message=out.reply.id)
    assert any(r.id == round2.id and "Cards: raptor" in r.text for r in out)  # the reveal
    assert "Pick your card" not in fake.message(round2.id).labels  # none left behind
    assert fake.problems() == []


async def test_manual_setup_by_menus(world: World) -> None:
    alice, bob = world.alice, world.bob
    match = await start_match(world, setup="manual")
    assert match.state.phase is Phase.SETUP_MOTHER
    turn = turn_message(world)
    assert alice.mention in turn.content and "place the mother" in turn.content
    places = option_values(turn)
    assert len(places) <= 18 and all(p.startswith("M@") for p in places)
    await alice.select("Choose an action", values=[places[0]])

    grouped = 0
    for placed in range(5):  # babies: a menu of tiles first while > 25 spaces are free
        turn = turn_message(world)
        assert "place a baby" in turn.content
        options = option_values(turn)
        if turn.select_menu("Choose an action"):
            assert len(options) <= 25 and all(o.startswith("B@") for o in options)
            await alice.select("Choose an action", values=[options[0]])
            continue
        grouped += 1
        assert len(options) == 5 - placed and all(t.startswith("T") for t in options)
        out = await alice.select("Choose a figurine or an area", values=[options[0]])
        space = option_values(out.reply)[0]
        assert space.startswith("B@")
        await alice.select(f"Tile {options[0]}: choose an action", values=[space],
                           message=out.reply.id)
    assert grouped >= 2

    for _ in range(4):
        turn = turn_message(world)
        assert bob.mention in turn.content and "place a scientist" in turn.content
        await bob.select("Choose an action", values=[option_values(turn)[0]])
    match = await world.match()
    assert match.state.phase is Phase.PICK and match.state.round == 1
    setup = next(r for r in world.fake.public_messages() if "setup done" in r.content)
    assert setup.content.count("`B@") == 5 and setup.content.count("`S@") == 4
    assert setup.attachments == []  # the setup's card became its record
    card = world.fake.public_messages()[-1]
    assert card.labels == ["Pick your card"] and card.attachments[0].is_png
