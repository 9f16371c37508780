"""Raptor Race on the platform: its plug-in through the registry, a race of AI seats played
to its end through the match service (places, scores and the record stored and readable),
a person's refusals in the race's words, undo, and a seat that leaves while the race goes
on (RR3.6)."""

from __future__ import annotations

import pytest

import engine.race as race
from bot import games
from bot.games.race import PLUGIN, ai
from bot.match import (
    InvalidRequestError,
    MatchService,
    NotYourTurnError,
    replays,
)
from engine.race import RACE

GUILD, CHANNEL, ALICE, BOT = 1, 10, 100, 999


def test_the_registry_hosts_the_race():
    assert "race" in games.names()
    plugin = games.plugin("race")
    assert plugin is PLUGIN and plugin.game is RACE and plugin.name == "race"
    assert plugin.title == "Raptor Race"
    assert plugin.ai_levels == ai.LEVELS == ("easy", "medium", "hard")
    assert plugin.chooser() is ai.choose_action
    assert plugin.errors == (race.RaceError,)
    assert all(issubclass(e, ValueError) for e in plugin.errors)
    assert plugin.ui_module == "bot.games.race.ui"
    assert "race" in games.on_discord()
    offline = plugin.offline()
    assert offline.__name__ == "bot.games.race.offline"
    assert callable(offline.demo_main) and callable(offline.play_main)
    assert plugin.seat_name(1, 4) == "seat 2"


def test_the_waiting_text_says_what_the_seat_to_play_does():
    state = race.new_game(3, 3, "desert")
    other = (state.seat + 1) % 3
    assert PLUGIN.waiting_text(state, other, 3) == (
        f"It's not your turn: seat {state.seat + 1} is setting dice aside.")
    moving = race.apply(state, state.seat, race.Keep(state.rolled))
    assert PLUGIN.waiting_text(moving, other, 3) == (
        f"It's not your turn: seat {state.seat + 1} is moving the raptors.")
    left = race.forfeit(state, other)
    assert PLUGIN.waiting_text(left, other, 3).startswith("You have left this race")


async def test_a_race_of_ai_seats_ends_with_places_scores_and_a_readable_record(db):
    svc = MatchService(db, ai_iterations=300)
    m = await svc.start_ai_match(GUILD, CHANNEL, game="race", levels=["easy", "medium", "hard"],
                                 ai_user_ids=[BOT, BOT, BOT], options={"board": "jungle"},
                                 seed=12)
    assert m.game == "race" and m.options == {"board": "jungle"} and m.seats == 3
    results = await svc.play_ai(m.id)
    assert results and results[-1].game_over
    m = await svc.get_match(m.id)
    assert not m.active and m.reason == "finished" == race.Reason.FINISHED
    outcome = race.outcome(m.state)
    assert tuple(p.place for p in m.players) == outcome.places
    assert tuple(p.score for p in m.players) == outcome.scores
    assert m.winners == outcome.winners and all(p.left is None for p in m.players)
    # the stored state is the replay of the log
    assert await svc.replayed_state(m.id) == m.state
    text = await replays.record_text(svc, m, server="offline",
                                     players=["AI (easy)", "AI (medium)", "AI (hard)"])
    record = race.read_record(text)
    assert record.final == m.state and record.outcome == outcome
    assert record.seed == 12 and record.seats == 3 and record.board is race.Board.JUNGLE
    assert record.players == ("AI (easy)", "AI (medium)", "AI (hard)")
    assert RACE.read_record(text).log == record.log
    assert len(record.log) == len(results)


async def test_a_persons_refusals_and_undo_are_in_the_races_words(db):
    svc = MatchService(db, ai_iterations=200)
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="race", seat=0, level="easy",
                                 seats=2, ai_user_id=BOT, seed=4)
    await svc.play_ai(m.id)
    m = await svc.get_match(m.id)
    assert m.state.seat == 0 and m.state.phase is race.Phase.ROLL
    with pytest.raises(race.NotationError, match="is not race notation"):
        await svc.act(m.id, ALICE, "fly away")
    with pytest.raises(InvalidRequestError, match="nothing to undo"):
        await svc.undo(m.id, ALICE)  # a roll decided: nothing of the turn to take back
    keep_all = race.Keep(m.state.rolled)
    moved = (await svc.act(m.id, ALICE, keep_all)).match
    assert moved.state.phase is race.Phase.MOVE
    # setting every die left aside rolled nothing: it may be taken back
    back = await svc.undo(m.id, ALICE)
    assert back.state == m.state
    # a seat whose turn it is not is told what the seat to play is doing
    await svc.act(m.id, ALICE, keep_all)
    m = await svc.get_match(m.id)
    while m.state.seat == 0 and m.active:
        await svc.act(m.id, ALICE, race.legal_actions(m.state, 0)[0])
        m = await svc.get_match(m.id)
    assert m.active and m.state.seat == 1  # the AI's turn, not played yet
    with pytest.raises(NotYourTurnError, match="^It's not your turn: seat 2 is setting dice "
                                               "aside.$"):
        await svc.act(m.id, ALICE, "keep all")


async def test_a_seat_that_resigns_is_skipped_and_still_ranked(db):
    svc = MatchService(db, ai_iterations=200)
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="race", seat=1, level="easy",
                                 seats=3, ai_user_id=BOT, seed=9)
    await svc.play_ai(m.id)
    m = await svc.resign(m.id, ALICE)
    assert m.active and m.state.forfeited == (1,)
    assert m.players[1].left == "resigned"
    await svc.play_ai(m.id)
    m = await svc.get_match(m.id)
    assert not m.active and m.reason == "finished"
    outcome = race.outcome(m.state)
    assert m.players[1].place == outcome.places[1] and m.players[1].score == outcome.scores[1]
    actions = await svc.action_log(m.id)
    assert (1, None) in [(seat, action) for _, seat, action in actions]
    record = race.read_record(await replays.record_text(svc, m, server="-", players=[]))
    assert record.outcome == outcome and record.final.forfeited == (1,)
