"""Challenges: create, accept, decline, cancel, expiry, and the one-active-match-per-channel
rule (enforced by the database)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

import engine
from bot.games.raptor import sides as rs
from bot.match import (
    ChallengeExpiredError,
    ChallengeStatus,
    ChannelBusyError,
    InvalidRequestError,
    NotAPlayerError,
    NotFoundError,
    Player,
    StaleError,
)
from bot.match import service as service_module
from bot.match import starting as starting_module
from bot.match.challenges import UNPOSTED_GRACE
from bot.storage import IntegrityViolation
from tests.match.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, start_match


async def test_challenge_accepted_creates_an_active_match(svc, clock):
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor",
                                    seat=rs.seat_wish("scientist"),
                                    options={"environment": "savannah", "setup": "manual"})
    assert (ch.status, ch.game, ch.seat, ch.options) == (
        "pending", "raptor", 1, {"environment": "savannah", "setup": "manual"})
    assert ch.expires_at == clock.now + 600
    m = await svc.accept_challenge(ch.id, BOB)
    assert m.game == "raptor"
    assert m.players == (Player(0, BOB), Player(1, ALICE))
    assert (rs.user(m, "raptor"), rs.user(m, "scientist")) == (BOB, ALICE)
    assert (rs.ai(m, "raptor"), rs.ai(m, "scientist")) == (None, None)
    assert m.status == "active" and m.version == 0 and m.log_length == 0
    assert m.options == {"environment": "savannah", "layout": "random", "setup": "manual"}
    assert rs.options(m) == engine.Options("savannah", "random", "manual")
    assert m.state == engine.new_game(m.seed, environment="savannah", setup="manual")
    assert m.state.phase is engine.Phase.SETUP_MOTHER
    assert 0 <= m.seed < 2**63
    assert (await svc.get_challenge(ch.id)).status == "accepted"
    assert (await svc.get_challenge(ch.id)).match_id == m.id
    assert (await svc.active_match(CHANNEL)).id == m.id
    assert "seed" not in repr(m) and str(m.seed) not in repr(m)


async def test_random_side_is_drawn_at_acceptance(svc):
    seen = Counter()
    for channel in range(20, 60):
        ch = await svc.create_challenge(GUILD, channel, ALICE, BOB, game="raptor")
        assert ch.seat is None and rs.wish_word(ch.seat) == "random"
        m = await svc.accept_challenge(ch.id, BOB)
        seen[rs.side_in(m, ALICE)] += 1
        assert rs.side_in(m, BOB) is rs.side_in(m, ALICE).other
    assert set(seen) == {engine.Side.RAPTOR, engine.Side.SCIENTIST}  # 2 * 0.5**40 to fail


async def test_random_side_uses_the_system_rng(svc, monkeypatch):
    calls = []

    def randrange(seats):
        calls.append(seats)
        return 1  # the scientist's seat

    monkeypatch.setattr(starting_module._random, "randrange", randrange)
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    m = await svc.accept_challenge(ch.id, BOB)
    assert calls == [2]
    assert rs.user(m, engine.Side.SCIENTIST) == ALICE


async def test_only_the_challenged_user_answers_and_only_the_challenger_cancels(svc):
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    with pytest.raises(NotAPlayerError, match="Only the challenged player"):
        await svc.accept_challenge(ch.id, CAROL)
    with pytest.raises(NotAPlayerError, match="Only the challenged player"):
        await svc.accept_challenge(ch.id, ALICE)
    with pytest.raises(NotAPlayerError, match="Only the challenged player"):
        await svc.decline_challenge(ch.id, ALICE)
    with pytest.raises(NotAPlayerError, match="Only the player who sent"):
        await svc.cancel_challenge(ch.id, BOB)
    assert (await svc.get_challenge(ch.id)).status == "pending"
    assert await svc.active_match(CHANNEL) is None

    assert (await svc.decline_challenge(ch.id, BOB)).status == "declined"
    with pytest.raises(StaleError, match="already declined"):
        await svc.accept_challenge(ch.id, BOB)
    assert await svc.active_match(CHANNEL) is None

    ch2 = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    assert (await svc.cancel_challenge(ch2.id, ALICE)).status == "cancelled"
    with pytest.raises(StaleError, match="already cancelled"):
        await svc.accept_challenge(ch2.id, BOB)


async def test_self_challenge_and_bad_options_are_refused(svc, db):
    with pytest.raises(InvalidRequestError, match="can't challenge yourself"):
        await svc.create_challenge(GUILD, CHANNEL, ALICE, ALICE, game="raptor")
    with pytest.raises(InvalidRequestError, match="Unknown side"):
        await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor",
                                   seat=rs.seat_wish("mother"))
    with pytest.raises(InvalidRequestError, match="There is no seat 3"):
        await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor", seat=2)
    with pytest.raises(InvalidRequestError,
                       match="Unknown environment 'desert': choose jungle, savannah."):
        await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor",
                                   options={"environment": "desert"})
    with pytest.raises(InvalidRequestError, match="Unknown setup 'slow'"):
        await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor",
                                   options={"setup": "slow"})
    assert (await db.fetchone("SELECT COUNT(*) FROM challenges"))[0] == 0


async def test_unknown_challenge(svc):
    with pytest.raises(NotFoundError):
        await svc.get_challenge(12345)
    with pytest.raises(NotFoundError):
        await svc.accept_challenge(12345, BOB)


async def test_expired_challenge_cannot_be_accepted(svc, clock, db):
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    clock.advance(600)
    with pytest.raises(ChallengeExpiredError, match="expired"):
        await svc.accept_challenge(ch.id, BOB)
    assert (await svc.get_challenge(ch.id)).status == "expired"
    assert (await db.fetchone("SELECT COUNT(*) FROM matches"))[0] == 0
    with pytest.raises(ChallengeExpiredError):
        await svc.decline_challenge(ch.id, BOB)


async def test_challenge_expiry_timer(svc, clock):
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    assert await svc.next_timer_at() == ch.expires_at
    assert await svc.process_timers(clock.now + 599) == []
    events = await svc.process_timers(clock.now + 600)
    assert [(e.kind, e.challenge_id, e.channel_id, e.user_ids) for e in events] == [
        ("challenge_expired", ch.id, CHANNEL, (ALICE, BOB))]
    assert events[0].challenge.status == "expired"
    assert await svc.process_timers(clock.now + 700) == []  # fires once
    assert await svc.next_timer_at() is None


async def test_one_pending_challenge_per_challenger_per_channel(svc, clock):
    await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    with pytest.raises(InvalidRequestError, match="already have a pending challenge"):
        await svc.create_challenge(GUILD, CHANNEL, ALICE, CAROL, game="raptor")
    # another channel is fine
    await svc.create_challenge(GUILD, CHANNEL + 1, ALICE, CAROL, game="raptor")
    # another challenger is fine
    await svc.create_challenge(GUILD, CHANNEL, CAROL, BOB, game="raptor")
    clock.advance(600)  # once the first one has expired, a new one may be sent
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, CAROL, game="raptor")
    assert ch.status == "pending"


async def test_no_challenge_in_a_busy_channel(svc):
    await start_match(svc)
    with pytest.raises(ChannelBusyError, match="already has a match"):
        await svc.create_challenge(GUILD, CHANNEL, CAROL, ALICE, game="raptor")


async def test_two_challenges_accepted_at_once_make_exactly_one_match(svc, db):
    ch1 = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    ch2 = await svc.create_challenge(GUILD, CHANNEL, CAROL, ALICE, game="raptor")
    results = await asyncio.gather(svc.accept_challenge(ch1.id, BOB),
                                   svc.accept_challenge(ch2.id, ALICE),
                                   return_exceptions=True)
    errors = [r for r in results if isinstance(r, Exception)]
    matches = [r for r in results if not isinstance(r, Exception)]
    assert len(matches) == 1 and len(errors) == 1
    assert isinstance(errors[0], ChannelBusyError)
    assert (await db.fetchone("SELECT COUNT(*) FROM matches"))[0] == 1
    statuses = sorted([(await svc.get_challenge(ch1.id)).status,
                       (await svc.get_challenge(ch2.id)).status])
    assert statuses == ["accepted", "pending"]  # the loser stays pending, nothing half-done


async def test_database_refuses_a_second_active_match_inserted_directly(svc, db):
    m = await start_match(svc)
    row = await db.fetchone("SELECT * FROM matches WHERE id = ?", (m.id,))
    cols = [k for k in row.keys() if k != "id"]
    with pytest.raises(IntegrityViolation,
                       match="matches.channel_id|matches_one_active_per_channel"):
        async with db.transaction() as tx:
            await tx.execute(f"INSERT INTO matches ({', '.join(cols)}) VALUES "
                             f"({', '.join('?' * len(cols))})", [row[k] for k in cols])
    assert (await db.fetchone("SELECT COUNT(*) FROM matches"))[0] == 1
    # A finished match does not count: the same row as 'finished' is accepted.
    async with db.transaction() as tx:
        values = [("finished" if k == "status" else row[k]) for k in cols]
        await tx.execute(f"INSERT INTO matches ({', '.join(cols)}) VALUES "
                         f"({', '.join('?' * len(cols))})", values)
    assert (await db.fetchone("SELECT COUNT(*) FROM matches"))[0] == 2


async def test_accepting_in_a_busy_channel_keeps_the_challenge_pending(svc, db):
    ch = await svc.create_challenge(GUILD, CHANNEL, CAROL, BOB, game="raptor")
    await start_match(svc, channel=CHANNEL + 5)
    # Make the channel busy behind the service's back (e.g. another process).
    async with db.transaction() as tx:
        await tx.execute("UPDATE matches SET channel_id = ?", (CHANNEL,))
    with pytest.raises(ChannelBusyError):
        await svc.accept_challenge(ch.id, BOB)
    assert (await svc.get_challenge(ch.id)).status == "pending"
    assert (await db.fetchone("SELECT COUNT(*) FROM matches"))[0] == 1


async def test_default_match_seed_comes_from_secrets(db, clock, monkeypatch):
    calls = []

    def randbits(k):
        calls.append(k)
        return 123456789

    monkeypatch.setattr(starting_module.secrets, "randbits", randbits)
    plain = service_module.MatchService(db, clock=clock)
    ch = await plain.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    m = await plain.accept_challenge(ch.id, BOB)
    assert calls == [63] and m.seed == 123456789


async def test_a_challenge_records_its_message(svc):
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    assert ch.message_id is None
    await svc.set_challenge_message(ch.id, 4242)
    assert (await svc.get_challenge(ch.id)).message_id == 4242
    with pytest.raises(NotFoundError):
        await svc.set_challenge_message(ch.id + 1, 4243)


async def test_a_challenge_never_posted_gives_way_to_a_new_one_after_the_grace(svc, clock):
    # saved, never posted
    unposted = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    posted = await svc.create_challenge(GUILD, CHANNEL, CAROL, BOB, game="raptor")
    await svc.set_challenge_message(posted.id, 4242)
    clock.advance(UNPOSTED_GRACE - 1)  # its message may still be on its way: refused
    with pytest.raises(InvalidRequestError, match="already have a pending challenge"):
        await svc.create_challenge(GUILD, CHANNEL, ALICE, CAROL, game="raptor")
    clock.advance(2)
    new = await svc.create_challenge(GUILD, CHANNEL, ALICE, CAROL, game="raptor")
    assert new.status == ChallengeStatus.PENDING
    assert (await svc.get_challenge(unposted.id)).status == ChallengeStatus.CANCELLED
    with pytest.raises(InvalidRequestError, match="already have a pending challenge"):
        # a posted one still counts
        await svc.create_challenge(GUILD, CHANNEL, CAROL, ALICE, game="raptor")
    assert [c.id for c in await svc.pending_challenges(CHANNEL)] == [posted.id, new.id]


async def test_withdraw_unposted_cancels_only_unposted_challenges_saved_before(svc, clock):
    unposted = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    posted = await svc.create_challenge(GUILD, CHANNEL, CAROL, BOB, game="raptor")
    await svc.set_challenge_message(posted.id, 4242)
    started = clock.now + 1
    clock.advance(2)
    # after the start
    later = await svc.create_challenge(GUILD, CHANNEL + 1, ALICE, BOB, game="raptor")
    withdrawn = await svc.withdraw_unposted(created_before=started)
    assert [c.id for c in withdrawn] == [unposted.id]
    assert (await svc.get_challenge(unposted.id)).status == ChallengeStatus.CANCELLED
    assert (await svc.get_challenge(posted.id)).status == ChallengeStatus.PENDING
    assert (await svc.get_challenge(later.id)).status == ChallengeStatus.PENDING
    assert await svc.withdraw_unposted(created_before=started) == []


async def test_a_busy_channel_is_told_by_the_one_active_match_not_by_an_error_text(svc):
    m = await start_match(svc)
    players = [Player(0, CAROL), Player(1, BOB)]
    options = {"environment": "jungle", "setup": "quick"}
    with pytest.raises(ChannelBusyError, match="already has a match in progress"):
        await svc.starter.create("raptor", GUILD, CHANNEL, players, options)
    # another integrity error (a rematch of a match that does not exist) stays what it is
    with pytest.raises(IntegrityViolation):
        await svc.starter.create("raptor", GUILD, CHANNEL + 1, players, options,
                                 rematch_of=m.id + 99)
    assert await svc.active_match(CHANNEL + 1) is None


async def test_a_double_click_on_challenge_makes_one_challenge(svc, db, monkeypatch):
    """Two /raptor challenge at once by the same player in one channel (on PostgreSQL the
    two transactions run side by side, and the unique index decides): one challenge, and
    the other gets the answer a second challenge gets."""
    from bot.match.challenge_store import ChallengeStore

    looked = ChallengeStore.pending_of

    async def slow_look(tx, channel_id, challenger_id):  # both look before either inserts
        found = await looked(tx, channel_id, challenger_id)
        await asyncio.sleep(0.05)
        return found

    monkeypatch.setattr(ChallengeStore, "pending_of", staticmethod(slow_look))
    results = await asyncio.gather(*(svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
                                     for _ in range(2)), return_exceptions=True)
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(made) == 1 and len(refused) == 1, results
    assert isinstance(refused[0], InvalidRequestError)
    assert "already have a pending challenge" in str(refused[0])
    assert [c.id for c in await svc.pending_challenges(CHANNEL)] == [made[0].id]
