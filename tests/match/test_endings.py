"""Ending a match: resign, draw by agreement, rematch; results, history, leaderboard and
user settings."""

from __future__ import annotations

import pytest

import engine
from bot.match import (
    ChannelBusyError,
    InvalidRequestError,
    MatchFinishedError,
    NotAPlayerError,
    NotFoundError,
    StaleError,
)
from tests.match.conftest import ALICE, BOB, BOT_USER, CAROL, CHANNEL, GUILD, start_match

RAPTOR = engine.Side.RAPTOR
SCIENTIST = engine.Side.SCIENTIST


async def test_resign_gives_the_win_to_the_opponent(svc):
    m = await start_match(svc)
    with pytest.raises(NotAPlayerError):
        await svc.resign(m.id, CAROL)
    after = await svc.resign(m.id, ALICE)  # Alice is the raptor
    assert (after.status, after.result, after.reason) == ("finished", "scientist", "resigned")
    assert after.version == m.version + 1 and after.deadline_at is None
    assert (await svc.stats(GUILD, BOB)).scientist_wins == 1
    assert (await svc.stats(GUILD, BOB)).rating == 1516
    assert (await svc.stats(GUILD, ALICE)).raptor_losses == 1
    assert await svc.active_match(CHANNEL) is None
    with pytest.raises(MatchFinishedError):
        await svc.resign(m.id, BOB)
    with pytest.raises(NotFoundError):
        await svc.resign(4242, ALICE)
    assert (await svc.last_finished(CHANNEL)).id == m.id
    assert await svc.last_finished(CHANNEL + 1) is None


async def test_a_moderator_ends_a_match_without_a_result(svc, db):
    m = await start_match(svc)
    other = await start_match(svc, guild=GUILD + 1, channel=CHANNEL + 1)
    assert [x.id for x in await svc.active_matches(GUILD)] == [m.id]
    assert [x.id for x in await svc.active_matches()] == [m.id, other.id]
    after = await svc.end_by_moderator(m.id)
    assert (after.status, after.result, after.reason) == ("finished", None, "ended_by_moderator")
    assert after.version == m.version + 1 and after.deadline_at is None
    for user in (ALICE, BOB):
        assert ((await svc.stats(GUILD, user)).games, (await svc.stats(GUILD, user)).rating) == (
            0, 1500)
    row = await db.fetchone("SELECT result, reason, rated FROM results WHERE match_id = ?",
                            (m.id,))
    assert tuple(row) == (None, "ended_by_moderator", 0)
    assert [h.id for h in await svc.history(GUILD, ALICE)] == [m.id]
    assert await svc.active_matches(GUILD) == []
    with pytest.raises(MatchFinishedError):
        await svc.end_by_moderator(m.id)
    with pytest.raises(NotFoundError):
        await svc.end_by_moderator(4242)
    assert (await svc.get_match(other.id)).active


async def test_draw_offer_accepted(svc, db):
    m = await start_match(svc)
    offered = await svc.offer_draw(m.id, ALICE)
    assert offered.draw_offered_by == ALICE and offered.version == m.version  # buttons live
    with pytest.raises(InvalidRequestError, match="already offered"):
        await svc.offer_draw(m.id, ALICE)
    with pytest.raises(InvalidRequestError, match="no draw offer from your opponent"):
        await svc.accept_draw(m.id, ALICE)  # one's own offer
    with pytest.raises(NotAPlayerError):
        await svc.accept_draw(m.id, CAROL)
    after = await svc.accept_draw(m.id, BOB)
    assert (after.status, after.result, after.reason) == ("finished", "draw", "draw_agreed")
    a, b = await svc.stats(GUILD, ALICE), await svc.stats(GUILD, BOB)
    assert (a.draws, b.draws, a.rating, b.rating) == (1, 1, 1500, 1500)
    row = await db.fetchone("SELECT result, rated FROM results WHERE match_id = ?", (m.id,))
    assert tuple(row) == ("draw", 1)


async def test_draw_offer_declined_or_cleared_by_the_next_action(svc):
    m = await start_match(svc)
    await svc.offer_draw(m.id, BOB)
    declined = await svc.decline_draw(m.id, ALICE)
    assert declined.draw_offered_by is None and declined.active
    with pytest.raises(InvalidRequestError, match="no draw offer"):
        await svc.accept_draw(m.id, ALICE)
    with pytest.raises(InvalidRequestError, match="no draw offer to decline"):
        await svc.decline_draw(m.id, ALICE)

    await svc.offer_draw(m.id, BOB)
    r = await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    assert r.match.draw_offered_by is None  # an action clears the offer
    with pytest.raises(InvalidRequestError, match="no draw offer"):
        await svc.accept_draw(m.id, ALICE)
    assert (await svc.get_match(m.id)).active


async def test_crossing_draw_offers_agree(svc):
    m = await start_match(svc)
    await svc.offer_draw(m.id, ALICE)
    after = await svc.offer_draw(m.id, BOB)
    assert (after.result, after.reason) == ("draw", "draw_agreed")


async def test_accepting_a_draw_that_an_action_just_cleared_is_stale(svc):
    m = await start_match(svc)
    await svc.offer_draw(m.id, BOB)
    loaded = await svc.get_match(m.id)  # Alice's client saw the offer ...
    await svc.act(m.id, BOB, engine.Pick(m.state.hands[SCIENTIST][0]))  # ... then Bob moved

    async def outdated_load(match_id):
        return loaded, 3600.0

    svc.ctx.match = outdated_load
    with pytest.raises(StaleError, match="no longer open"):
        await svc.accept_draw(m.id, ALICE)
    del svc.ctx.match
    assert (await svc.get_match(m.id)).active


async def test_the_ai_takes_no_draws(svc):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, side="raptor", ai_user_id=BOT_USER)
    with pytest.raises(InvalidRequestError, match="AI doesn't agree to draws"):
        await svc.offer_draw(m.id, ALICE)


async def test_rematch_swaps_sides_by_default(svc, clock):
    m = await start_match(svc)  # Alice raptor, Bob scientist
    with pytest.raises(InvalidRequestError, match="still being played"):
        await svc.rematch(m.id, BOB)
    await svc.resign(m.id, ALICE)
    with pytest.raises(NotAPlayerError):
        await svc.rematch(m.id, CAROL)
    ch = await svc.rematch(m.id, BOB)
    assert (ch.challenger_id, ch.challenged_id, ch.side, ch.rematch_of, ch.status) == (
        BOB, ALICE, "raptor", m.id, "pending")
    assert (ch.environment, ch.setup) == (m.options.environment, m.options.setup)
    m2 = await svc.accept_challenge(ch.id, ALICE)
    assert m2.players == {RAPTOR: BOB, SCIENTIST: ALICE}
    assert m2.rematch_of == m.id and m2.seed != m.seed


async def test_rematch_of_a_practice_match_is_refused(svc):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, side="raptor", ai_user_id=BOT_USER)
    await svc.resign(m.id, ALICE)
    with pytest.raises(InvalidRequestError, match="practice"):
        await svc.rematch(m.id, ALICE)



async def test_a_practice_rematch_swaps_sides_and_keeps_the_level(svc):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, side="raptor", level="hard",
                                 environment="savannah", ai_user_id=BOT_USER)
    with pytest.raises(InvalidRequestError, match="still being played"):
        await svc.rematch_practice(m.id, ALICE, ai_user_id=BOT_USER)
    await svc.resign(m.id, ALICE)
    with pytest.raises(NotAPlayerError, match="Only the players of this match"):
        await svc.rematch_practice(m.id, BOB, ai_user_id=BOT_USER)
    again = await svc.rematch_practice(m.id, ALICE, ai_user_id=BOT_USER)
    assert again.players == {SCIENTIST: ALICE, RAPTOR: BOT_USER}
    assert again.ai == {SCIENTIST: None, RAPTOR: "hard"}
    assert again.options.environment == "savannah" and again.channel_id == CHANNEL

async def test_practice_is_not_rated_but_is_in_the_history(svc, db):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, side="scientist", level="easy",
                                 ai_user_id=BOT_USER)
    assert m.players == {SCIENTIST: ALICE, RAPTOR: BOT_USER}
    assert m.ai == {SCIENTIST: None, RAPTOR: "easy"} and m.practice
    with pytest.raises(ChannelBusyError):
        await svc.start_practice(GUILD, CHANNEL, BOB, ai_user_id=BOT_USER)
    with pytest.raises(InvalidRequestError, match="Unknown AI level"):
        await svc.start_practice(GUILD, CHANNEL + 1, BOB, level="godlike", ai_user_id=BOT_USER)
    await svc.resign(m.id, ALICE)
    assert (await svc.stats(GUILD, ALICE)).games == 0
    assert (await svc.stats(GUILD, BOT_USER)).games == 0
    row = await db.fetchone("SELECT result, reason, rated FROM results")
    assert tuple(row) == ("raptor", "resigned", 0)
    assert [h.id for h in await svc.history(GUILD, ALICE)] == [m.id]


async def test_elo_over_several_games_and_the_leaderboard(svc, clock):
    # Game 1: Alice beats Bob (1516 / 1484). Game 2: Carol beats Alice.
    m = await start_match(svc, raptor=ALICE, scientist=BOB)
    await svc.resign(m.id, BOB)
    clock.advance(10)
    m2 = await start_match(svc, raptor=CAROL, scientist=ALICE)
    await svc.resign(m2.id, ALICE)
    alice, carol = [await svc.stats(GUILD, u) for u in (ALICE, CAROL)]
    # Carol (1500) beats Alice (1516): expected 1/(1+10**(16/400)) = 0.4770...
    assert carol.rating == pytest.approx(1500 + 32 * (1 - 1 / (1 + 10 ** (16 / 400))))
    assert alice.rating == pytest.approx(1516 - 32 * (1 - 1 / (1 + 10 ** (16 / 400))))
    assert carol.rating + alice.rating == pytest.approx(3016)
    assert (alice.raptor_wins, alice.scientist_losses, alice.games) == (1, 1, 2)
    board = await svc.leaderboard(GUILD)
    assert [p.user_id for p in board] == [CAROL, ALICE, BOB]
    assert [p.user_id for p in await svc.leaderboard(GUILD, limit=1)] == [CAROL]
    assert await svc.leaderboard(GUILD + 1) == []  # per server
    assert [h.id for h in await svc.history(GUILD, ALICE)] == [m2.id, m.id]  # newest first
    assert [h.id for h in await svc.history(GUILD, ALICE, limit=1)] == [m2.id]
    assert await svc.history(GUILD + 1, ALICE) == []


async def test_user_settings(svc):
    assert await svc.get_user_setting(ALICE, "dm_hand") is None
    assert await svc.get_user_setting(ALICE, "dm_hand", False) is False
    await svc.set_user_setting(ALICE, "dm_hand", True)
    await svc.set_user_setting(BOB, "dm_hand", False)
    assert await svc.get_user_setting(ALICE, "dm_hand") is True
    await svc.set_user_setting(ALICE, "dm_hand", False)
    assert await svc.get_user_setting(ALICE, "dm_hand", True) is False
    await svc.set_user_setting(ALICE, "theme", {"board": "dark"})
    assert await svc.get_user_setting(ALICE, "theme") == {"board": "dark"}


async def test_server_languages(svc):
    assert await svc.guild_language(7) is None
    await svc.set_guild_language(7, "zh-TW")
    await svc.set_guild_language(8, "en")
    assert await svc.guild_language(7) == "zh-TW" and await svc.guild_language(8) == "en"
    await svc.set_guild_language(7, "en")  # chosen again: replaced
    assert await svc.guild_language(7) == "en"
    await svc.set_guild_language(7, None)  # back to Discord's server locale
    assert await svc.guild_language(7) is None and await svc.guild_language(8) == "en"
    await svc.set_guild_timeout(8, 60.0)
    await svc.reset_guild_timeout(8)  # forgetting the timeout keeps the language
    assert await svc.guild_language(8) == "en"
