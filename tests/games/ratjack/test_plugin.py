"""Ratjack through the platform: the registry finds its plug-in, the match service plays a
match of AI seats to its end with the game's outcome stored (places, VP as scores), the
record reads back to the final state, and the refusals say who is awaited for what."""

from __future__ import annotations

import pytest

from bot import games
from bot.games.ratjack import PLUGIN
from bot.games.ratjack.ai import LEVELS
from bot.match import InvalidRequestError, MatchService, NotYourTurnError, replays
from engine.ratjack import RATJACK, RatjackError, read_record
from engine.ratjack.errors import NotationError
from tests.engine.ratjack.conftest import pos
from tests.games.ratjack.conftest import ALICE, CHANNEL, GUILD, practice


def test_the_registry_hosts_ratjack():
    assert "ratjack" in games.names()
    plugin = games.plugin("ratjack")
    assert plugin is PLUGIN
    assert plugin.game is RATJACK and plugin.name == "ratjack"
    assert plugin.title == "Ratjack"
    assert plugin.ai_levels == LEVELS == ("easy", "hard")
    assert plugin.errors == (RatjackError,)
    assert plugin.ui_module == "bot.games.ratjack.ui"
    assert "ratjack" in games.on_discord()
    assert plugin.chooser().__module__ == "bot.games.ratjack.ai"
    offline = plugin.offline()
    assert offline.__name__ == "bot.games.ratjack.offline"
    assert str(plugin.seat_name(2, 4)) == "player 3"


@pytest.mark.parametrize(("diagram", "seat", "expected"), [
    ("players: 3\ncurrent: p2\nphase: draw\np2 hand: R5", 0,
     "It's not your turn: waiting for player 2 to draw a card."),
    ("players: 3\ncurrent: p3\nphase: action\np3 hand: R5 B4", 0,
     "It's not your turn: waiting for player 3 to play a card: up, down or discard."),
    ("players: 2\ncurrent: p2\nphase: flip\np2 display: ~R5\np2 hand: B4", 0,
     "It's not your turn: waiting for player 2 to flip a hidden card face up, or not."),
    ("players: 2\ncurrent: p1\nphase: effect\np1 display: R3 B5\np2 display: ~R7\n"
     "stack: B5 p1 0", 1, "It's not your turn: waiting for player 1 to resolve Rat 5."),
])
def test_the_refusal_says_who_is_awaited_for_what(diagram, seat, expected):
    s = pos(diagram)
    assert str(PLUGIN.waiting_text(s, seat, s.seats)) == expected


def test_weasel_12s_opponent_is_awaited_to_place_the_chip():
    s = pos("""
        players: 3
        decks: cw
        current: p1
        phase: effect
        chips: +1 +2 +3 +4 +5 +10
        p1 display: W12
        p2 display: C3 ~C9
        p3 display: C4
        stack: W12 p1 2 +3 p2
    """)
    assert str(PLUGIN.waiting_text(s, 0, 3)) == (
        "It's not your turn: waiting for player 2 to put the +3 bonus token on one of their "
        "cards (Weasel 12).")
    s = pos("players: 2\nphase: over\nvp: 3 1\nwinners: p1\nreason: three_vp")
    assert str(PLUGIN.waiting_text(s, 1, 2)) == (
        "The game is over: nobody has anything left to decide.")


async def test_a_match_of_ai_seats_plays_to_its_end_with_places_and_vp_stored(db):
    service = MatchService(db, ai_iterations=2)
    m = await service.start_ai_match(GUILD, CHANNEL, game="ratjack",
                                     levels=["hard", "easy", "easy"],
                                     ai_user_ids=[901, 902, 903], seed=11)
    assert m.game == "ratjack" and m.seats == 3 and m.options == {"decks": "rb"}
    assert [p.ai for p in m.players] == ["hard", "easy", "easy"]
    results = await service.play_ai(m.id)
    final = await service.get_match(m.id)
    assert results[-1].game_over and not final.active
    s = final.state
    assert s.is_over and final.reason == s.reason.value == "three_vp"
    # the outcome stored: the winners first, the others by VP; the VP as scores
    outcome = RATJACK.outcome(s)
    assert [p.place for p in final.players] == list(outcome.places)
    assert [p.score for p in final.players] == [float(v) for v in s.vp]
    assert final.winners == frozenset(s.winners)
    assert all(s.vp[q] >= 3 for q in s.winners)
    assert sorted(s.vp, reverse=True)[0] >= 3
    for p in final.players:
        better = sum(1 for v in s.vp if v > s.vp[p.seat])
        assert p.place == (1 if p.seat in s.winners else 1 + better)
    # every step saved, the state rebuilt from the seed and the log
    assert len(results) == final.log_length
    assert await service.replayed_state(m.id) == s
    # the record reads back to the same final state
    text = await replays.record_text(service, final, server="test",
                                     players=["AI (hard)", "AI (easy)", "AI (easy)"])
    record = read_record(text)
    assert record.final == s
    assert record.winners == s.winners and record.reason == "three_vp"
    assert record.players == ("AI (hard)", "AI (easy)", "AI (easy)")
    assert f"VP: {' '.join(map(str, s.vp))}" in text


async def test_a_person_is_refused_out_of_turn_and_undo_is_never_possible(service):
    m = await practice(service, seats=3, seed=5)
    await service.play_ai(m.id)
    m = await service.get_match(m.id)
    assert m.to_act() == {0}  # p1's decision: the AI played up to it
    with pytest.raises(InvalidRequestError) as undo:
        await service.undo(m.id, ALICE)
    assert str(undo.value.message) == str(PLUGIN.nothing_to_undo)
    with pytest.raises(NotationError):
        await service.act(m.id, ALICE, "fly away")
    res = await service.act(m.id, ALICE, "draw deck")
    assert res.seat == 0 and res.match.version == m.version + 1
    # after the draw, still p1's decision: one of the two cards
    assert res.match.to_act() == {0}
    card = res.match.state.hands[0][0].card
    res = await service.act(m.id, ALICE, f"down {card}")
    assert res.match.to_act() != {0}
    with pytest.raises(NotYourTurnError) as wrong:
        await service.act(res.match.id, ALICE, "draw deck")
    assert str(wrong.value.message).startswith("It's not your turn: waiting for player ")


async def test_a_resignation_in_a_match_of_two_leaves_the_ai_the_winner(service):
    m = await practice(service, seats=2, seed=8)
    m = await service.resign(m.id, ALICE)
    assert not m.active and m.reason == "last_in_match"
    assert m.winners == {1}
    assert m.players[0].left == "resigned" and m.players[0].place == 2
