"""The match layer's values: statuses and reasons come back from storage as enum members."""

from __future__ import annotations

import pytest

import engine
from bot.match import ChallengeStatus, EndReason, LogKind, MatchStatus
from bot.match.models import parse_reason
from tests.match.conftest import ALICE, BOB, CHANNEL, GUILD, start_match


def test_parse_reason_knows_both_kinds_of_reason():
    assert parse_reason(None) is None
    assert parse_reason("resigned") is EndReason.RESIGNED
    assert parse_reason("ended_by_moderator") is EndReason.ENDED_BY_MODERATOR
    assert parse_reason("babies_escaped") is engine.Reason.BABIES_ESCAPED
    with pytest.raises(ValueError):
        parse_reason("bored")


async def test_stored_values_come_back_as_enum_members(svc):
    m = await start_match(svc)
    assert m.status is MatchStatus.ACTIVE and m.reason is None
    await svc.act(m.id, ALICE, engine.Pick(m.state.hands[engine.Side.RAPTOR][0]))
    [entry] = await svc.raw_log(m.id)
    assert entry.kind is LogKind.ACTION
    ended = await svc.resign(m.id, BOB)
    assert ended.status is MatchStatus.FINISHED and ended.reason is EndReason.RESIGNED
    assert (ended.status, ended.reason) == ("finished", "resigned")  # str values too
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB)
    assert ch.status is ChallengeStatus.PENDING
    declined = await svc.decline_challenge(ch.id, BOB)
    assert declined.status is ChallengeStatus.DECLINED
