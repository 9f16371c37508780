"""The match layer's values: statuses and reasons come back from storage as enum members,
and a match answers who plays which seat (:class:`bot.match.Match`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from bot.games.raptor import sides as rs
from bot.match import (
    ChallengeStatus,
    EndReason,
    LogKind,
    Match,
    MatchFinishedError,
    MatchStatus,
    NotAPlayerError,
    Player,
)
from bot.match.models import parse_reason
from tests.match.conftest import ALICE, BOB, BOT_USER, CAROL, CHANNEL, GUILD, start_match


def test_parse_reason_knows_both_kinds_of_reason():
    assert parse_reason(None) is None
    assert parse_reason("resigned") is EndReason.RESIGNED
    assert parse_reason("ended_by_moderator") is EndReason.ENDED_BY_MODERATOR
    # a game's own reason comes back as the stored word, equal to the game's enum member
    reason = parse_reason("babies_escaped")
    assert reason == engine.Reason.BABIES_ESCAPED and not isinstance(reason, EndReason)
    assert type(reason) is str
    # the platform does not know every game's words: any other word stays the game's
    assert parse_reason("bored") == "bored" and type(parse_reason("bored")) is str


async def test_stored_values_come_back_as_enum_members(svc):
    m = await start_match(svc)
    assert m.status is MatchStatus.ACTIVE and m.reason is None
    await svc.act(m.id, ALICE, engine.Pick(m.state.hands[engine.Side.RAPTOR][0]))
    [entry] = await svc.raw_log(m.id)
    assert entry.kind is LogKind.ACTION
    ended = await svc.resign(m.id, BOB)
    assert ended.status is MatchStatus.FINISHED and ended.reason is EndReason.RESIGNED
    assert (ended.status, ended.reason) == ("finished", "resigned")  # str values too
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    assert ch.status is ChallengeStatus.PENDING
    declined = await svc.decline_challenge(ch.id, BOB)
    assert declined.status is ChallengeStatus.DECLINED


async def test_a_match_names_the_player_of_each_seat(svc):
    m = await start_match(svc)  # ALICE the raptor (seat 0), BOB the scientist (seat 1)
    assert m.game == "raptor" and m.seats == 2 and not m.practice
    assert m.players == (Player(0, ALICE), Player(1, BOB))
    assert all(p.human for p in m.players)
    assert (m.user_of(0), m.user_of(1)) == (ALICE, BOB)
    assert (m.ai_of(0), m.ai_of(1)) == (None, None)
    assert (m.seats_of(ALICE), m.seats_of(BOB), m.seats_of(CAROL)) == ([0], [1], [])
    assert (m.seat_of(ALICE), m.seat_of(BOB), m.seat_of(CAROL)) == (0, 1, None)
    assert (m.others(ALICE), m.others(BOB), m.others(CAROL)) == ([BOB], [ALICE], [])
    # the quick setup starts at the simultaneous card pick (R4, R5.1): both seats decide
    assert m.to_act() == m.waiting_for() == {0, 1}
    assert m.idle_humans() == [0, 1]
    assert m.acting_seat(ALICE) == 0 and m.acting_seat(BOB) == 1
    assert m.acting_seat(BOB, 1) == 1
    with pytest.raises(NotAPlayerError, match="You are not playing in this match"):
        m.acting_seat(CAROL)
    with pytest.raises(NotAPlayerError, match="You are not the scientist player"):
        m.acting_seat(ALICE, 1)
    # a seat out of range (a hostile custom id) is refused like another player's seat
    with pytest.raises(NotAPlayerError, match="There is no seat 3 in a match of 2 players"):
        m.acting_seat(ALICE, 2)
    with pytest.raises(NotAPlayerError, match="There is no seat 0 in a match of 2 players"):
        m.acting_seat(BOB, -1)
    assert m.winners == frozenset() and not m.draw and rs.result(m) is None
    ended = await svc.resign(m.id, BOB)
    assert ended.waiting_for() == frozenset()
    with pytest.raises(MatchFinishedError, match="This match is over"):
        ended.acting_seat(ALICE)
    assert ended.winners == {0} and not ended.draw and rs.result(ended) == "raptor"
    assert [p.place for p in ended.players] == [1, 2]


async def test_a_practice_match_knows_its_ai_seats_and_a_user_with_two_seats(svc):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=1,
                                 ai_user_id=BOT_USER)
    assert m.practice and m.players == (Player(0, BOT_USER, "easy"), Player(1, ALICE))
    assert (m.ai_of(0), m.ai_of(1)) == ("easy", None)
    assert not m.players[0].human and m.players[1].human
    assert m.others(ALICE) == [BOT_USER] and m.seat_of(ALICE) == 1
    assert m.to_act() == {0, 1} and m.idle_humans() == [1]  # the AI's seat is not idle
    # one user at both seats (offline play against oneself): the seat that must act
    both = replace(m, players=(Player(0, CAROL), Player(1, CAROL)))
    assert both.seats_of(CAROL) == [0, 1] and both.seat_of(CAROL) == 0
    assert both.others(CAROL) == []
    assert both.acting_seat(CAROL) == 0 and both.acting_seat(CAROL, 1) == 1


def test_winners_and_draw_read_the_places():
    def finished(*places):
        return [Player(seat, 100 + seat, place=place) for seat, place in enumerate(places)]

    m = _bare_match()
    assert replace(m, players=tuple(finished(1, 2))).winners == {0}
    assert replace(m, players=tuple(finished(2, 1))).winners == {1}
    drawn = replace(m, players=tuple(finished(1, 1)))
    assert drawn.winners == {0, 1} and drawn.draw and rs.result(drawn) == "draw"
    none = replace(m, players=tuple(finished(None, None)))
    assert none.winners == frozenset() and not none.draw and rs.result(none) is None
    three = replace(m, game="x", players=tuple(finished(1, 1, 3)))
    assert three.winners == {0, 1} and not three.draw and three.seats == 3


def _bare_match() -> Match:
    """A finished two-seat match with no state (its places are set by the test)."""
    return Match(id=1, game="raptor", guild_id=GUILD, channel_id=CHANNEL,
                 players=(Player(0, ALICE), Player(1, BOB)), seed=1, options={},
                 status=MatchStatus.FINISHED, state=None, version=1, created_at=0.0,
                 updated_at=0.0, last_activity=0.0, deadline_at=None, reminded=False,
                 reason=None, draw_offered_by=None, rematch_of=None)
