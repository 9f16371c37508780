"""Ending a match: resign, draw by agreement, rematch; results, history, leaderboard and
user settings."""

from __future__ import annotations

import pytest

import engine
from bot.games.raptor import sides as rs
from bot.match import (
    ChannelBusyError,
    InvalidRequestError,
    MatchFinishedError,
    NotAPlayerError,
    NotFoundError,
    Player,
    StaleError,
)
from bot.match.result_store import SeatRecord
from tests.match import rating_model as model
from tests.match.conftest import ALICE, BOB, BOT_USER, CAROL, CHANNEL, GUILD, start_match

RAPTOR = engine.Side.RAPTOR
SCIENTIST = engine.Side.SCIENTIST


async def test_resign_gives_the_win_to_the_opponent(svc):
    m = await start_match(svc)
    with pytest.raises(NotAPlayerError):
        await svc.resign(m.id, CAROL)
    after = await svc.resign(m.id, ALICE)  # Alice is the raptor
    assert (after.status, rs.result(after), after.reason) == ("finished", "scientist",
                                                              "resigned")
    assert after.winners == {1} and [p.place for p in after.players] == [2, 1]
    assert after.version == m.version + 1 and after.deadline_at is None
    assert await svc.seat_records(GUILD, "raptor", BOB) == [SeatRecord(1, 1, 0, 0)]
    won, lost = model.shown_after([1, 2])  # OpenSkill from two new players
    assert (await svc.stats(GUILD, "raptor", BOB)).rating == pytest.approx(won)
    assert await svc.seat_records(GUILD, "raptor", ALICE) == [SeatRecord(0, 0, 0, 1)]
    assert (await svc.stats(GUILD, "raptor", ALICE)).losses == 1
    assert (await svc.stats(GUILD, "raptor", ALICE)).rating == pytest.approx(lost)
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
    assert (after.status, rs.result(after), after.reason) == ("finished", None,
                                                              "ended_by_moderator")
    assert after.winners == frozenset() and [p.place for p in after.players] == [None, None]
    assert after.version == m.version + 1 and after.deadline_at is None
    for user in (ALICE, BOB):
        stats = await svc.stats(GUILD, "raptor", user)
        assert (stats.games, stats.rating) == (0, 1500)
    row = await db.fetchone("SELECT reason, rated, rating FROM results WHERE match_id = ?",
                            (m.id,))
    assert tuple(row) == ("ended_by_moderator", 0, None)
    places = await db.fetchall("SELECT place FROM match_players WHERE match_id = ? "
                               "ORDER BY seat", (m.id,))
    assert [r["place"] for r in places] == [None, None]
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
    assert (after.status, rs.result(after), after.reason) == ("finished", "draw",
                                                              "draw_agreed")
    assert after.draw and after.winners == {0, 1}
    a, b = await svc.stats(GUILD, "raptor", ALICE), await svc.stats(GUILD, "raptor", BOB)
    assert (a.draws, b.draws, a.wins + a.losses, b.wins + b.losses) == (1, 1, 0, 0)
    # OpenSkill: a draw between equals moves neither mu; both grow surer (sigma falls)
    (mu, sigma), _ = model.after([1, 1])
    assert a.mu == b.mu == pytest.approx(25.0) == pytest.approx(mu)
    assert a.sigma == b.sigma == pytest.approx(sigma) and sigma < model.NEW[1]
    assert a.rating == b.rating == pytest.approx(model.shown(mu, sigma))
    row = await db.fetchone("SELECT rated, rating FROM results WHERE match_id = ?", (m.id,))
    assert tuple(row) == (1, "openskill")
    places = await db.fetchall("SELECT place FROM match_players WHERE match_id = ? "
                               "ORDER BY seat", (m.id,))
    assert [r["place"] for r in places] == [1, 1]


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
    assert (rs.result(after), after.reason) == ("draw", "draw_agreed")


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
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=0, ai_user_id=BOT_USER)
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
    assert (ch.challenger_id, ch.challenged_id, ch.seat, ch.rematch_of, ch.status) == (
        BOB, ALICE, 0, m.id, "pending")
    assert rs.wish_word(ch.seat) == "raptor" and ch.game == m.game == "raptor"
    assert ch.options == m.options
    assert (ch.options["environment"], ch.options["setup"]) == (
        rs.options(m).environment, rs.options(m).setup)
    m2 = await svc.accept_challenge(ch.id, ALICE)
    assert m2.players == (Player(0, BOB), Player(1, ALICE))
    assert (rs.user(m2, RAPTOR), rs.user(m2, SCIENTIST)) == (BOB, ALICE)
    assert m2.rematch_of == m.id and m2.seed != m.seed


async def test_rematch_of_a_practice_match_is_refused(svc):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=0, ai_user_id=BOT_USER)
    await svc.resign(m.id, ALICE)
    with pytest.raises(InvalidRequestError, match="practice"):
        await svc.rematch(m.id, ALICE)



async def test_a_practice_rematch_swaps_sides_and_keeps_the_level(svc):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=0, level="hard",
                                 options={"environment": "savannah"}, ai_user_id=BOT_USER)
    with pytest.raises(InvalidRequestError, match="still being played"):
        await svc.rematch_practice(m.id, ALICE, ai_user_id=BOT_USER)
    await svc.resign(m.id, ALICE)
    with pytest.raises(NotAPlayerError, match="Only the players of this match"):
        await svc.rematch_practice(m.id, BOB, ai_user_id=BOT_USER)
    again = await svc.rematch_practice(m.id, ALICE, ai_user_id=BOT_USER)
    assert again.players == (Player(0, BOT_USER, "hard"), Player(1, ALICE))
    assert (rs.user(again, SCIENTIST), rs.user(again, RAPTOR)) == (ALICE, BOT_USER)
    assert (rs.ai(again, SCIENTIST), rs.ai(again, RAPTOR)) == (None, "hard")
    assert rs.options(again).environment == "savannah" and again.channel_id == CHANNEL


async def test_practice_is_not_rated_but_is_in_the_history(svc, db):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor",
                                 seat=rs.seat_wish("scientist"), level="easy",
                                 ai_user_id=BOT_USER)
    assert m.players == (Player(0, BOT_USER, "easy"), Player(1, ALICE))
    assert (rs.ai(m, SCIENTIST), rs.ai(m, RAPTOR)) == (None, "easy") and m.practice
    with pytest.raises(ChannelBusyError):
        await svc.start_practice(GUILD, CHANNEL, BOB, game="raptor", ai_user_id=BOT_USER)
    with pytest.raises(InvalidRequestError, match="Unknown AI level"):
        await svc.start_practice(GUILD, CHANNEL + 1, BOB, game="raptor", level="godlike",
                                 ai_user_id=BOT_USER)
    ended = await svc.resign(m.id, ALICE)
    assert rs.result(ended) == "raptor"
    assert (await svc.stats(GUILD, "raptor", ALICE)).games == 0
    assert (await svc.stats(GUILD, "raptor", BOT_USER)).games == 0
    row = await db.fetchone("SELECT reason, rated, rating FROM results")
    assert tuple(row) == ("resigned", 0, None)
    assert [(p.rating_before, p.rating_after) for p in ended.players] == [(None, None)] * 2
    assert [h.id for h in await svc.history(GUILD, ALICE)] == [m.id]


async def test_ratings_over_several_games_and_the_leaderboard(svc, clock):
    # Game 1: Alice beats Bob. Game 2: Carol beats Alice.
    m = await start_match(svc, raptor=ALICE, scientist=BOB)
    first = await svc.resign(m.id, BOB)
    clock.advance(10)
    m2 = await start_match(svc, raptor=CAROL, scientist=ALICE)
    second = await svc.resign(m2.id, ALICE)
    alice, bob, carol = [await svc.stats(GUILD, "raptor", u) for u in (ALICE, BOB, CAROL)]
    # OpenSkill (Plackett-Luce): game 1 from new players, game 2 from Alice's belief after it
    alice1, bob1 = model.after([1, 2])
    carol2, alice2 = model.after([1, 2], [model.NEW, alice1])
    assert (carol.mu, carol.sigma) == pytest.approx(carol2)
    assert (alice.mu, alice.sigma) == pytest.approx(alice2)
    assert (bob.mu, bob.sigma) == pytest.approx(bob1)
    assert carol.rating == pytest.approx(model.shown(*carol2))
    assert alice.rating == pytest.approx(model.shown(*alice2))
    assert bob.rating == pytest.approx(model.shown(*bob1))
    # each match's players keep their shown rating before and after it
    assert [r for p in first.players for r in (p.rating_before, p.rating_after)] == (
        pytest.approx([1500, model.shown(*alice1), 1500, model.shown(*bob1)]))
    assert [r for p in second.players for r in (p.rating_before, p.rating_after)] == (
        pytest.approx([1500, model.shown(*carol2), model.shown(*alice1), model.shown(*alice2)]))
    # the winner's shown rating rises, the loser's falls
    assert carol.rating > 1500 and alice.rating < model.shown(*alice1)
    assert (alice.wins, alice.losses, alice.draws, alice.games) == (1, 1, 0, 2)
    assert await svc.seat_records(GUILD, "raptor", ALICE) == [SeatRecord(0, 1, 0, 0),
                                                              SeatRecord(1, 0, 0, 1)]
    board = await svc.leaderboard(GUILD, "raptor")
    assert [p.user_id for p in board] == [CAROL, ALICE, BOB]
    assert [p.user_id for p in await svc.leaderboard(GUILD, "raptor", limit=1)] == [CAROL]
    assert await svc.leaderboard(GUILD + 1, "raptor") == []  # per server
    assert await svc.leaderboard(GUILD, "race") == []  # per game
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
