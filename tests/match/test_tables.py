"""Tables, the lobby of any game (:mod:`bot.match.tables`), on both databases: secret Nim
(``tests/toy_game.py``, 2 to 4 seats) gathers its players at a table, the host seats the AI
and starts; tables expire, are capped per member, and two joins of the last seat take turns."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.match import (
    ChallengeExpiredError,
    ChannelBusyError,
    InvalidRequestError,
    MatchService,
    NotAPlayerError,
    NotFoundError,
    Player,
    StaleError,
    TableStatus,
    TimerKind,
)
from bot.match.table_store import TablePlayer
from tests.clock import FakeClock
from tests.databases import database_target, open_target
from tests.match.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.match.nim_table import nim, play_out, take_one
from tests.toy_game import NIM

__all__ = ["nim"]  # a fixture

DAVE = 400
BOT_USER = 999
TIMEOUT = 900.0


@pytest.fixture
def svc(db, clock, nim) -> MatchService:
    seeds = itertools.count(11)
    return MatchService(db, turn_timeout=3600.0, clock=clock, ai_chooser=take_one,
                        seed_source=lambda: next(seeds), table_timeout=TIMEOUT,
                        max_challenges=2, max_practices=1)


async def test_a_table_gathers_people_and_the_ai_and_starts_their_match(svc, clock):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=4,
                             options={"pile": "21"})
    assert (t.game, t.seats, t.options, t.status, t.host_id) == (
        "nim", 4, {"pile": "21"}, TableStatus.OPEN, ALICE)
    assert t.players == (TablePlayer(0, ALICE),)
    assert t.expires_at == clock.now + TIMEOUT
    t = await svc.join_table(t.id, BOB)
    t = await svc.join_table(t.id, CAROL)
    t = await svc.seat_table_ai(t.id, ALICE, "easy")
    assert t.players == (TablePlayer(0, ALICE), TablePlayer(1, BOB), TablePlayer(2, CAROL),
                         TablePlayer(3, None, "easy"))
    assert t.full and t.humans == [ALICE, BOB, CAROL]
    m = await svc.start_table(t.id, ALICE, ai_user_id=BOT_USER)
    assert (m.game, m.seats, m.channel_id, m.guild_id, m.options["pile"]) == (
        "nim", 4, CHANNEL, GUILD, "21")
    assert sorted((p.user_id, p.ai) for p in m.players) == [
        (ALICE, None), (BOB, None), (CAROL, None), (BOT_USER, "easy")]
    assert [p.seat for p in m.players] == [0, 1, 2, 3]
    t = await svc.get_table(t.id)
    assert (t.status, t.match_id) == (TableStatus.STARTED, m.id)
    with pytest.raises(StaleError, match="already started"):
        await svc.join_table(t.id, DAVE)
    done = await play_out(svc, m.id, {ALICE: 2, BOB: 3, CAROL: 1})
    assert not done.active
    assert tuple(p.place for p in done.players) == NIM.outcome(done.state).places
    # three people at one table: all three are rated, the AI seat is not
    for user in (ALICE, BOB, CAROL):
        assert (await svc.stats(GUILD, "nim", user)).games == 1
    assert (await svc.stats(GUILD, "nim", BOT_USER)).games == 0


async def test_the_seats_are_dealt_in_a_random_order(svc):
    orders = set()
    for n in range(12):
        t = await svc.open_table(GUILD, CHANNEL + n, ALICE, game="nim", seats=3)
        await svc.join_table(t.id, BOB)
        await svc.join_table(t.id, CAROL)
        m = await svc.start_table(t.id, ALICE, ai_user_id=BOT_USER)
        orders.add(tuple(p.user_id for p in m.players))
    assert len(orders) > 1
    assert all(sorted(o) == [ALICE, BOB, CAROL] for o in orders)


async def test_who_may_do_what_at_a_table(svc):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=3)
    await svc.join_table(t.id, BOB)
    with pytest.raises(InvalidRequestError, match="already at this table"):
        await svc.join_table(t.id, BOB)
    with pytest.raises(InvalidRequestError, match="already at this table"):
        await svc.join_table(t.id, ALICE)
    with pytest.raises(NotAPlayerError, match="Only the host of this table can start it"):
        await svc.start_table(t.id, BOB, ai_user_id=BOT_USER)
    with pytest.raises(NotAPlayerError, match="Only the host of this table can seat the AI"):
        await svc.seat_table_ai(t.id, BOB, "easy")
    with pytest.raises(NotAPlayerError, match="Only the host of this table can cancel it"):
        await svc.cancel_table(t.id, BOB)
    with pytest.raises(NotAPlayerError, match="not at this table"):
        await svc.leave_table(t.id, CAROL)
    with pytest.raises(InvalidRequestError, match="No AI is seated"):
        await svc.unseat_table_ai(t.id, ALICE)
    with pytest.raises(InvalidRequestError, match="level"):
        await svc.seat_table_ai(t.id, ALICE, "grandmaster")
    await svc.seat_table_ai(t.id, ALICE, "easy")
    with pytest.raises(InvalidRequestError, match="Every seat of this table is taken"):
        await svc.join_table(t.id, CAROL)
    with pytest.raises(InvalidRequestError, match="Every seat of this table is taken"):
        await svc.seat_table_ai(t.id, ALICE, "easy")
    t = await svc.unseat_table_ai(t.id, ALICE)
    assert [p.user_id for p in t.players] == [ALICE, BOB]
    t = await svc.leave_table(t.id, BOB)
    assert t.players == (TablePlayer(0, ALICE),) and t.open
    # the host leaving cancels the table
    t = await svc.leave_table(t.id, ALICE)
    assert t.status == TableStatus.CANCELLED
    with pytest.raises(StaleError, match="already cancelled"):
        await svc.join_table(t.id, CAROL)
    with pytest.raises(NotFoundError):
        await svc.join_table(t.id + 100, CAROL)


async def test_a_table_starts_only_with_the_games_fewest_players(svc):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=3)
    with pytest.raises(InvalidRequestError, match="needs 2 players or more"):
        await svc.start_table(t.id, ALICE, ai_user_id=BOT_USER)
    assert (await svc.get_table(t.id)).open
    # a table need not be full: two of three seats are enough for the game
    await svc.join_table(t.id, BOB)
    m = await svc.start_table(t.id, ALICE, ai_user_id=BOT_USER)
    assert m.seats == 2


@pytest.mark.parametrize("seats", [1, 5])
async def test_a_table_has_a_number_of_seats_the_game_is_played_by(svc, seats):
    with pytest.raises(InvalidRequestError):
        await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=seats)
    with pytest.raises(InvalidRequestError):
        await svc.open_table(GUILD, CHANNEL, ALICE, game="chess", seats=2)
    with pytest.raises(InvalidRequestError):
        await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=2,
                             options={"pile": "1000"})


async def test_one_person_and_the_ai_is_a_practice_under_its_cap(svc):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=2)
    await svc.seat_table_ai(t.id, ALICE, "easy")
    m = await svc.start_table(t.id, ALICE, ai_user_id=BOT_USER)
    assert m.practice
    t2 = await svc.open_table(GUILD, CHANNEL + 1, ALICE, game="nim", seats=2)
    await svc.seat_table_ai(t2.id, ALICE, "easy")
    with pytest.raises(InvalidRequestError, match="practice"):
        await svc.start_table(t2.id, ALICE, ai_user_id=BOT_USER)
    assert (await svc.get_table(t2.id)).open


async def test_a_host_has_one_open_table_a_channel_and_a_cap_with_challenges(svc):
    await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=2)
    with pytest.raises(InvalidRequestError, match="already have an open table"):
        await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=3)
    await svc.create_challenge(GUILD, CHANNEL + 1, ALICE, BOB, game="raptor")
    # a table and a challenge: the cap of two open invitations is reached
    with pytest.raises(InvalidRequestError, match="2 open challenges and tables"):
        await svc.open_table(GUILD, CHANNEL + 2, ALICE, game="nim", seats=2)
    # others may open tables in the same channel
    await svc.open_table(GUILD, CHANNEL, BOB, game="nim", seats=2)


async def test_no_table_opens_or_starts_in_a_channel_with_an_active_match(svc):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=2)
    await svc.join_table(t.id, BOB)
    await svc.starter.create("nim", GUILD, CHANNEL, [Player(0, CAROL), Player(1, DAVE)], {})
    with pytest.raises(ChannelBusyError):
        await svc.open_table(GUILD, CHANNEL, CAROL, game="nim", seats=2)
    with pytest.raises(ChannelBusyError):
        await svc.start_table(t.id, ALICE, ai_user_id=BOT_USER)
    assert (await svc.get_table(t.id)).open


async def test_a_table_nobody_starts_expires_once(svc, clock):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=3)
    await svc.join_table(t.id, BOB)
    assert await svc.next_timer_at() == t.expires_at
    clock.advance(TIMEOUT - 1)
    assert [e for e in await svc.process_timers() if e.kind is TimerKind.TABLE_EXPIRED] == []
    clock.advance(1)
    [event] = await svc.process_timers()
    assert (event.kind, event.channel_id, event.user_ids) == (
        TimerKind.TABLE_EXPIRED, CHANNEL, (ALICE, BOB))
    assert (event.table.id, event.table.status) == (t.id, TableStatus.EXPIRED)
    assert await svc.process_timers() == []
    assert await svc.next_timer_at() is None
    with pytest.raises(ChallengeExpiredError, match="expired"):
        await svc.join_table(t.id, CAROL)
    # the host may open another one there
    await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=3)


async def test_a_table_past_its_time_refuses_before_the_timer_runs(svc, clock):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=2)
    await svc.join_table(t.id, BOB)
    clock.advance(TIMEOUT)
    with pytest.raises(ChallengeExpiredError):
        await svc.start_table(t.id, ALICE, ai_user_id=BOT_USER)
    assert await svc.active_match(CHANNEL) is None


async def test_two_joins_of_the_last_seat_take_turns(svc):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=2)
    got = await asyncio.gather(svc.join_table(t.id, BOB), svc.join_table(t.id, CAROL),
                               return_exceptions=True)
    joined = [g for g in got if not isinstance(g, BaseException)]
    refused = [g for g in got if isinstance(g, BaseException)]
    assert len(joined) == 1 and len(refused) == 1
    assert isinstance(refused[0], InvalidRequestError)
    assert "Every seat" in str(refused[0])
    t = await svc.get_table(t.id)
    assert len(t.players) == 2 and t.full


async def test_a_table_never_posted_is_withdrawn(svc, clock):
    t = await svc.open_table(GUILD, CHANNEL, ALICE, game="nim", seats=2)
    posted = await svc.open_table(GUILD, CHANNEL + 1, ALICE, game="nim", seats=2)
    await svc.set_table_message(posted.id, 5555)
    clock.advance(1)
    [gone] = await svc.withdraw_unposted_tables()
    assert gone.id == t.id
    assert (await svc.get_table(t.id)).status == TableStatus.CANCELLED
    assert (await svc.get_table(posted.id)).message_id == 5555
    assert (await svc.get_table(posted.id)).open
    with pytest.raises(NotFoundError):
        await svc.set_table_message(posted.id + 100, 1)


async def test_a_database_of_schema_10_gets_the_tables_and_keeps_its_matches(backend,
                                                                            tmp_path, nim):
    async with database_target(backend, tmp_path) as target:
        db = await open_target(target, upto=10)
        try:
            old = MatchService(db, clock=FakeClock())
            m = await old.starter.create("nim", GUILD, CHANNEL, [Player(0, ALICE),
                                                                 Player(1, BOB)], {})
            m = (await old.act(m.id, ALICE, "take 2")).match
        finally:
            await db.close()
        db = await open_target(target)
        try:
            svc = MatchService(db, clock=FakeClock())
            assert await db.schema_version() == 11
            again = await svc.get_match(m.id)
            assert (again.version, again.state, again.players) == (m.version, m.state,
                                                                  m.players)
            # the match still holds its channel: a table opens there but cannot start
            t = await svc.open_table(GUILD, CHANNEL + 1, CAROL, game="nim", seats=2)
            await svc.join_table(t.id, DAVE)
            started = await svc.start_table(t.id, CAROL, ai_user_id=BOT_USER)
            assert started.id > m.id and started.channel_id == CHANNEL + 1
        finally:
            await db.close()
