"""The other ``/raptor`` commands: board, hand, autocomplete, status, rules, settings and DMs,
permissions, resign, draw, rematch, history, stats, leaderboard."""

from __future__ import annotations

import asyncio

import pytest
from openskill.models import PlackettLuce

import bot.ai
import engine
import render
from bot import texts
from bot.games.raptor import sides as rs
from bot.games.raptor import texts as raptor_texts
from bot.match import InvalidRequestError, NotAPlayerError
from bot.match.challenges import rematch_seat
from engine import Side
from tests.discord.conftest import World
from tests.discord.helpers import pick, start_match
from tests.discord.test_refusals import only_ephemeral_to
from tests.fakediscord import DM

R, S = Side.RAPTOR, Side.SCIENTIST


async def test_commands_are_synced_as_one_group(world: World) -> None:
    race, group, _admin, ratjack = sorted(world.fake.synced_commands(),
                                          key=lambda c: c["name"])
    assert group["name"] == "raptor"
    subs = {o["name"] for o in group["options"]}
    assert subs == {"challenge", "practice", "table", "board", "hand", "act", "status",
                    "resign", "draw", "replay", "record",
                    "rematch", "rules", "history", "stats", "leaderboard", "settings"}
    practice = next(o for o in group["options"] if o["name"] == "practice")
    level = next(o for o in practice["options"] if o["name"] == "level")
    assert [c["value"] for c in level["choices"]] == ["easy", "medium", "hard"]
    assert tuple(c["value"] for c in level["choices"]) == bot.ai.LEVELS
    # each game on Discord is one group of its own: Raptor Race's
    assert race["name"] == "race"
    assert {o["name"] for o in race["options"]} == subs - {"challenge"}
    practice = next(o for o in race["options"] if o["name"] == "practice")
    assert [o["name"] for o in practice["options"]] == ["players", "level", "board"]
    board = next(o for o in practice["options"] if o["name"] == "board")
    assert [c["value"] for c in board["choices"]] == ["desert", "jungle"]
    # Ratjack's group: the shared commands and its practice (2-4 players, RJ2.4)
    assert ratjack["name"] == "ratjack"
    assert {o["name"] for o in ratjack["options"]} == subs - {"challenge"}
    practice = next(o for o in ratjack["options"] if o["name"] == "practice")
    options = {o["name"]: o for o in practice["options"]}
    assert (options["players"]["min_value"], options["players"]["max_value"]) == (2, 4)
    assert [c["value"] for c in options["level"]["choices"]] == ["easy", "hard"]
    assert [c["value"] for c in options["decks"]["choices"]] == ["rb", "rc", "rw", "cw"]


async def test_board_is_public_and_needs_a_match(world: World) -> None:
    fake, alice = world.fake, world.alice
    carol = fake.add_user("carol")
    out = await carol.slash("raptor board")
    only_ephemeral_to(out, carol)
    assert out.content == raptor_texts.NO_MATCH_HERE
    assert fake.public_messages() == []  # the public "thinking" placeholder was removed

    await start_match(world)
    out = await carol.slash("raptor board")  # anyone in the channel may look
    board = out.reply
    assert board.visibility == "public" and "Round 1" in board.content
    assert board.attachments[0].is_png
    assert board.attachments[0].image().size == render.BOARD_IMAGE_SIZE
    match = await world.match()
    assert board.attachments[0].data == render.render_board(engine.view(match.state, None))
    assert alice.mention in board.content


async def test_hand_is_ephemeral_and_only_for_the_player(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    await start_match(world)
    out = await bob.slash("raptor hand")
    hand = out.reply
    only_ephemeral_to(out, bob)
    # the hand once: the image and the buttons, no card list in the text
    assert hand.content.startswith("**Match #1 · your hand** (scientist, round 1)\n")
    assert "Sleeping Gas" not in hand.content and "Jeep" not in hand.content
    assert "`/raptor act play <n>`" in hand.content  # typed in the match's channel: it runs
    assert hand.labels == ["1 · Sleeping Gas & Shuffle", "8 · Jeep ×4", "9 · No effect"]
    assert hand.attachments[0].is_png
    match = await world.match()
    assert hand.attachments[0].data == render.render_hand(engine.view(match.state, S))
    assert all("Jeep" not in r.text for r in fake.messages(visible_to=alice))

    await pick(bob, S, 8)
    out = await bob.slash("raptor hand")  # after the pick: no buttons, the pick face down
    assert out.reply.buttons == []
    assert "You picked **8 · Jeep ×4** (face down)" in out.reply.content


async def test_act_autocomplete_offers_at_most_25_legal_actions(world: World) -> None:
    alice, bob = world.alice, world.bob
    await start_match(world)
    choices = await alice.autocomplete("raptor act", "action", "")
    assert [c["value"] for c in choices] == ["play 2", "play 6", "play 7"]
    assert choices[2]["name"] == "Play 7: Recovery ×3 · play 7"
    choices = await alice.autocomplete("raptor act", "action", "ｐｌａｙ　７")  # full-width
    assert [c["value"] for c in choices] == ["play 7"]
    assert await bob.autocomplete("raptor act", "action", "G1") == []  # picks only

    await pick(alice, R, 2)
    await pick(bob, S, 9)  # 81 scientist actions
    match = await world.match()
    legal = {engine.format_action(a) for a in engine.legal_actions(match.state, S)}
    assert len(legal) == 81
    choices = await bob.autocomplete("raptor act", "action", "")
    assert len(choices) == 25 and {c["value"] for c in choices} <= legal
    choices = await bob.autocomplete("raptor act", "action", "l2 sl")
    assert [c["value"] for c in choices] == ["L2 sleep K2"]
    choices = await bob.autocomplete("raptor act", "action", "b6-")
    assert choices and all(c["value"].startswith("B6-") for c in choices)
    assert all(len(c["name"]) <= 100 for c in choices)
    assert await alice.autocomplete("raptor act", "action", "") == []  # not her decision


async def test_status_and_rules(world: World) -> None:
    alice, bob = world.alice, world.bob
    await start_match(world)
    await pick(alice, R, 7)
    out = await bob.slash("raptor status")
    only_ephemeral_to(out, bob)
    text = out.content
    assert "Round 1 · Card pick" in text
    assert f"Waiting for {bob.mention} (scientist)" in text
    assert f"Has picked: {alice.mention} (raptor)" in text
    match = await world.match()
    assert f"<t:{int(match.deadline_at)}:R>" in text
    assert "Recovery" not in text  # alice's card stays hidden

    out = await alice.slash("raptor rules")
    only_ephemeral_to(out, alice)
    body = out.reply.text
    assert "How to win" in body and "Observation" in body
    for side in (R, S):
        for card in range(1, 10):
            assert engine.card_text(side, card) in body


async def test_hand_by_dm_and_closed_dms_fallback(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    out = await alice.slash("raptor settings", dm_hand=True)
    assert "**on**" in out.content and fake.dms(alice)
    fake.set_dms_closed(bob)
    out = await bob.slash("raptor settings", dm_hand=True)
    only_ephemeral_to(out, bob)
    assert "DMs are closed" in out.content

    await start_match(world)
    dm = fake.dms(alice)[-1]  # the round-1 hand, by DM
    assert "your hand" in dm.content and dm.labels[0] == "2 · Disappearance & Observation"
    assert fake.dms(bob) == [] and fake.rejections[-1].code == 50007

    out = await bob.click("Pick your card")  # bob's DM failed: ephemeral, with a notice
    assert out.reply.ephemeral and out.reply.content.startswith(texts.DM_CLOSED)
    out = await bob.slash("raptor hand")  # the DM fails again: the notice was given
    assert out.reply.ephemeral and texts.DM_CLOSED not in out.reply.content
    assert out.reply.content.startswith("**Match #1 · your hand** (scientist, round 1)")
    assert "1 · Sleeping Gas & Shuffle" in out.reply.labels

    out = await alice.slash("raptor hand")  # DMs open: sent there
    assert out.content == "I sent your hand to your DMs. 📬"
    old, dm = fake.message(dm.id), fake.dms(alice)[-1]
    assert old.buttons == [] and old.attachments == []  # the older DM hand is retired
    assert old.content.startswith("**Match #1 · your hand** (raptor, round 1)\n✔ "
                                  + texts.HAND_SUPERSEDED)
    assert dm.id != old.id and dm.labels[0] == "2 · Disappearance & Observation"
    out = await alice.click("7 · Recovery ×3", message=dm.id)  # picking from the DM works
    assert "You picked **7 · Recovery ×3**" in fake.message(dm.id).content
    # the pick shows on the match card's line (no "has picked" message)
    assert any(r.visibility == "public" and f"{alice.mention} (raptor) ✅" in r.content
               for r in out)
    assert not any("has picked" in r.text for r in out)
    assert (await world.match()).state.picks[R] == 7


async def test_missing_permissions_are_explained(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    locked = fake.add_channel("locked", bot_can_send=False)
    out = await alice.slash("raptor challenge", user=bob, in_channel=locked)
    only_ephemeral_to(out, alice)
    for name in ("Send Messages", "Attach Files", "Embed Links"):
        assert name in out.content
    assert "server admin" in out.content
    assert await world.service.pending_challenges(locked.id) == []
    out = await alice.slash("raptor practice", in_channel=locked)
    assert "Send Messages" in out.content

    await start_match(world)
    fake.set_bot_can_send(fake.channel, False)
    out = await alice.click("Pick your card")  # the hand is ephemeral: still fine
    out = await alice.click("7 · Recovery ×3")
    only_ephemeral_to(out, alice)
    assert "Send Messages" in out.content
    assert (await world.match()).state.picks[R] is None

    # A post that Discord refuses anyway (e.g. a reminder) is logged for the admin.
    world.clock.advance(13 * 3600)
    events = await world.bot.flow.timers.run_once()
    assert [e.kind for e in events] == ["reminder"]
    assert any("cannot post in channel" in w for w in fake.warnings)


async def test_resign_with_confirmation_then_rematch_and_records(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    await start_match(world)
    out = await alice.slash("raptor resign")
    only_ephemeral_to(out, alice)
    assert out.reply.labels == ["Resign"]
    assert (await world.match()).active
    out = await alice.click("Resign")
    assert fake.message(out.reply.id).content == "You resigned."
    result = next(r for r in out if r.visibility == "public" and "Match #1 is over" in r.content)
    assert f"{bob.mention} (scientist) wins" in result.content
    assert f"{alice.mention} (raptor) resigned" in result.content
    assert result.content.splitlines()[0].startswith(f"🏆 **Match #1 is over: {bob.mention}")
    assert result.attachments == [] and result.labels == ["Rematch"]
    assert await world.service.active_match(fake.channel.id) is None
    ended = await world.service.get_match(1)  # the card's board banner tells the resignation
    card = next(r for r in reversed(fake.public_messages()) if r.attachments)
    assert card.components == [] and "the match is over" in card.content
    assert card.attachments[0].data == render.render_board(
        engine.view(ended.state, None), verdict="Scientist wins: the raptor resigned",
        winner=S)

    out = await bob.slash("raptor stats")
    # the OpenSkill shown rating of a new player's first win against a new player
    model = PlackettLuce()
    [won], [_] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    rating = 1500 + 50 * (won.mu - 3 * won.sigma)
    assert round(rating) == 1672
    assert f"rating **{rating:.0f}**" in out.content and "1 won" in out.content
    out = await alice.slash("raptor leaderboard")
    assert out.reply.visibility == "public"
    lines = out.content.splitlines()
    assert bob.mention in lines[1] and alice.mention in lines[2]
    out = await alice.slash("raptor history")
    only_ephemeral_to(out, alice)
    assert "Match #1 · raptor vs" in out.content and "**lost** (you resigned)" in out.content

    out = await bob.click("Rematch")
    challenge = out.reply
    assert challenge.visibility == "public" and challenge.labels == ["Accept", "Decline",
                                                                      "Cancel"]
    assert challenge.content.startswith(f"{alice.mention}, {bob.mention} challenges you")
    await alice.click("Accept")
    match = await world.match()
    # sides swapped
    assert match.id == 2 and (rs.user(match, R), rs.user(match, S)) == (bob.id, alice.id)



async def test_the_rematch_rule_is_one_rule_with_one_wording(world: World) -> None:
    fake, alice = world.fake, world.alice
    carol = fake.add_user("carol")
    match = await start_match(world)
    with pytest.raises(InvalidRequestError) as playing:
        rematch_seat(match, alice.id)
    await alice.slash("raptor resign")
    out = await alice.click("Resign")
    result = next(r for r in out if r.visibility == "public" and "Match #1 is over" in r.content)
    ended = await world.service.get_match(match.id)
    with pytest.raises(NotAPlayerError) as stranger:
        rematch_seat(ended, carol.id)
    # the button, the command and the service say the same
    out = await carol.click("Rematch", message=result)
    only_ephemeral_to(out, carol)
    assert out.content == stranger.value.message == (
        "Only the players of this match can ask for a rematch.")
    with pytest.raises(NotAPlayerError, match=stranger.value.message):
        await world.service.rematch(match.id, carol.id)
    assert playing.value.message == ("This match is still being played: finish it (or resign) "
                                     "before asking for a rematch.")
    assert await world.service.pending_challenges(fake.channel.id) == []

async def test_draw_offer_and_answers(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    carol = fake.add_user("carol")
    await start_match(world)
    out = await alice.slash("raptor draw")
    assert out.reply.ephemeral and out.reply.content == "Draw offered."
    offer = next(r for r in out if r.visibility == "public")
    assert "offers a draw" in offer.content and offer.labels == ["Accept draw", "Decline draw"]
    out = await carol.click("Accept draw")
    only_ephemeral_to(out, carol)
    out = await bob.click("Decline draw")
    assert "declined the draw; play on." in fake.message(offer.id).content
    assert fake.message(offer.id).buttons == []
    assert (await world.match()).draw_offered_by is None

    # the offer's author takes it back with the same button
    out = await alice.slash("raptor draw")
    offer = next(r for r in out if r.visibility == "public")
    await alice.click("Decline draw")
    content = fake.message(offer.id).content
    assert "withdrew the draw offer; play on." in content and "declined" not in content
    assert fake.message(offer.id).buttons == []
    assert (await world.match()).draw_offered_by is None

    await bob.slash("raptor draw")
    out = await alice.click("Accept draw")
    result = next(r for r in out if r.visibility == "public" and "Match #1 is over" in r.content)
    assert "a draw" in result.content
    assert await world.service.active_match(fake.channel.id) is None


async def test_a_draw_offer_loses_its_buttons_when_it_lapses_or_the_match_ends(
        world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    await start_match(world)
    out = await alice.slash("raptor draw")
    offer = next(r for r in out if r.visibility == "public")
    await pick(bob, S, 1)  # a move: the offer lapses
    lapsed = fake.message(offer.id)
    assert lapsed.buttons == []
    assert lapsed.content.endswith("\n✔ The offer lapsed: a move was made.")
    assert (await world.match()).draw_offered_by is None

    out = await bob.slash("raptor draw")
    declined = next(r for r in out if r.visibility == "public")
    await alice.click("Decline draw")
    await pick(alice, R, 7)  # a later move leaves the answered offer as it was
    assert fake.message(declined.id).content.endswith("declined the draw; play on.")

    out = await bob.slash("raptor draw")
    offer = next(r for r in out if r.visibility == "public")
    out = await alice.slash("raptor resign")
    await alice.click("Resign")
    ended = fake.message(offer.id)
    assert ended.buttons == [] and ended.content.endswith("\n✔ The match is over.")
    assert fake.problems() == []


@pytest.mark.parametrize("answer", ["Decline draw", "Accept draw"])
async def test_a_draw_answer_racing_a_move_leaves_no_live_buttons(world: World,
                                                                  answer: str) -> None:
    """bob picks his card and answers alice's offer at the same moment: whichever comes
    first, the offer's message ends without buttons."""
    fake, alice, bob = world.fake, world.alice, world.bob
    await start_match(world)
    await pick(alice, R, 7)
    out = await alice.slash("raptor draw")
    offer = next(r for r in out if r.visibility == "public")
    await bob.click("Pick your card")
    await asyncio.gather(bob.click(raptor_texts.card_label(S, 1)),
                         bob.click(answer, message=offer.id))
    message = fake.message(offer.id)
    match = await world.match()
    assert message.buttons == []
    lapsed = message.content.endswith("\n✔ The offer lapsed: a move was made.")
    if answer == "Decline draw":  # declined, or refused after the move made it lapse
        assert match.active
        assert lapsed or message.content.endswith("declined the draw; play on.")
    elif match.active:  # the move came first: the acceptance was refused
        assert lapsed
    else:  # accepted before the move
        assert rs.result(match) == "draw" and "accepted the draw" in message.content
    assert fake.problems() == []


async def test_stats_add_the_elo_a_player_had_before_the_ratings_moved(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    async with world.db.transaction() as tx:  # alice's Elo row, kept as history
        await tx.execute(
            "INSERT INTO elo_ratings (guild_id, user_id, rating, raptor_wins, raptor_losses, "
            "scientist_wins, scientist_losses, draws, updated_at) "
            "VALUES (?, ?, 1534.4, 2, 0, 0, 1, 0, 0)", (fake.guild_id, alice.id))
    out = await alice.slash("raptor stats")
    assert out.reply.visibility == "public"
    assert out.content == (f"**{alice.mention}** · rating **1500** · 0 rated games: 0 won, "
                           "0 lost, 0 drawn\nAs raptor 0–0 · as scientist 0–0\n"
                           "Elo before the move to the new ratings: 1534")
    out = await alice.slash("raptor stats", user=bob)  # no Elo history: no such line
    assert out.content == (f"**{bob.mention}** · rating **1500** · 0 rated games: 0 won, "
                           "0 lost, 0 drawn\nAs raptor 0–0 · as scientist 0–0")


async def test_decline_and_cancel_challenges(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    out = await alice.slash("raptor challenge", user=bob)
    first = out.reply
    await bob.click("Decline")
    assert "declined" in fake.message(first.id).content
    out = await alice.slash("raptor challenge", user=bob, environment="savannah")
    second = out.reply
    assert "savannah" in second.content
    out = await bob.click("Cancel", message=second.id)
    only_ephemeral_to(out, bob)
    await alice.click("Cancel", message=second.id)
    assert "cancelled" in fake.message(second.id).content
    assert await world.service.active_match(fake.channel.id) is None


async def test_in_direct_messages_only_rules_and_settings_work(world: World) -> None:
    alice = world.alice
    out = await alice.slash("raptor rules", in_channel=DM)
    assert out.reply.user_id == alice.id and "How to win" in out.reply.text
    out = await alice.slash("raptor settings", in_channel=DM)
    assert "Hand by DM: **off**" in out.content
    for command in ("raptor board", "raptor status", "raptor leaderboard", "raptor practice"):
        out = await alice.slash(command, in_channel=DM)
        assert len(out.replies) == 1 and "works in a server channel" in out.content
    assert await alice.autocomplete("raptor act", "action", "", in_channel=DM) == []
    assert world.fake.public_messages() == []


async def test_board_between_matches_shows_the_last_ones_end(world: World) -> None:
    alice = world.alice
    await start_match(world)
    await alice.slash("raptor resign")
    await alice.click("Resign")
    out = await world.bob.slash("raptor board")
    assert out.reply.visibility == "public"
    assert out.content.startswith("🏆 **Match #1 is over: ")
    assert "Start a new one with `/raptor challenge`" in out.content
    ended = await world.service.get_match(1)
    assert out.reply.attachments[0].data == render.render_board(
        engine.view(ended.state, None), verdict="Scientist wins: the raptor resigned",
        winner=S)
