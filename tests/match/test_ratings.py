"""Ratings (:mod:`bot.match.ratings`): OpenSkill's Plackett-Luce model, checked against the
``openskill`` package called directly (:mod:`tests.match.rating_model`), the shown rating,
the places among the rated people, the win/draw/loss tallies; and which matches
:mod:`bot.match.results` rates, with a match of three seats of the toy game
(``tests/toy_game.py``) where an AI seat sits between two people."""

from __future__ import annotations

import itertools

import pytest

from bot.match import EndReason, Match, MatchService, MatchStatus, Player
from bot.match.ratings import BASE, MODEL, SCALE, START, Skill, rate, reranked, shown, standing
from bot.match.result_store import SeatRecord
from bot.match.results import rated_seats
from tests.match import rating_model as model
from tests.match.conftest import ALICE, BOB, BOT_USER, CAROL, CHANNEL, GUILD
from tests.match.nim_table import nim, play_out, take_one
from tests.toy_game import NIM, Take

__all__ = ["nim"]  # a fixture


# ----------------------------------------------------------------------------- the model
def test_a_new_player_starts_at_the_models_defaults_shown_as_1500():
    assert (START.mu, START.sigma) == pytest.approx(model.NEW)
    assert (MODEL.mu, MODEL.sigma) == pytest.approx(model.NEW)
    assert START.shown == shown(START.mu, START.sigma) == pytest.approx(1500.0)
    assert (BASE, SCALE) == (1500.0, 50.0)


def test_the_shown_rating_is_the_conservative_estimate_on_the_familiar_scale():
    assert shown(30.0, 5.0) == 1500.0 + 50.0 * (30.0 - 15.0) == 2250.0
    assert shown(25.0, 25.0 / 3.0) == pytest.approx(1500.0)
    assert shown(10.0, 4.0) == 1500.0 + 50.0 * -2.0 == 1400.0  # below the start: fine
    assert Skill(30.0, 5.0).shown == shown(30.0, 5.0)
    # unrounded: rounding is for display only
    assert shown(25.01, 25.0 / 3.0) == pytest.approx(1500.5)


def test_rate_is_plackett_luce_with_the_places_as_ranks():
    for places in ([1, 2], [2, 1], [1, 1], [1, 2, 3], [3, 1, 2], [1, 1, 3], [2, 2, 1],
                   [1, 2, 3, 4], [1, 1, 1, 1]):
        got = rate([START] * len(places), places)
        want = model.after(places)
        assert [(s.mu, s.sigma) for s in got] == [pytest.approx(w) for w in want], places


def test_rate_from_skills_other_than_the_start():
    before = [Skill(31.0, 4.0), Skill(22.5, 6.5), Skill(25.0, 2.0)]
    got = rate(before, [3, 1, 2])
    want = model.after([3, 1, 2], [(s.mu, s.sigma) for s in before])
    assert [(s.mu, s.sigma) for s in got] == [pytest.approx(w) for w in want]
    assert before == [Skill(31.0, 4.0), Skill(22.5, 6.5), Skill(25.0, 2.0)]  # not changed


def test_a_winners_shown_rating_rises_and_a_losers_falls():
    won, lost = rate([START, START], [1, 2])
    assert won.mu > START.mu > lost.mu
    assert won.sigma < START.sigma and lost.sigma < START.sigma  # surer of both
    assert won.shown > START.shown > lost.shown
    # from unequal skills too: the favourite gains less by winning than the underdog
    strong, weak = Skill(30.0, 5.0), Skill(22.0, 5.0)
    s_won, w_lost = rate([strong, weak], [1, 2])
    w_won, s_lost = rate([weak, strong], [1, 2])
    assert s_won.shown > strong.shown and w_lost.shown < weak.shown
    assert w_won.mu - weak.mu > s_won.mu - strong.mu > 0


def test_a_draw_between_equals_moves_neither_mu():
    a, b = rate([START, START], [1, 1])
    assert a.mu == pytest.approx(START.mu) and b.mu == pytest.approx(START.mu)
    assert a == b and a.sigma < START.sigma
    c, d = rate([Skill(28.0, 3.0), Skill(28.0, 3.0)], [1, 1])
    assert (c.mu, d.mu) == pytest.approx((28.0, 28.0))
    # between unequal players a draw moves the two towards each other
    strong, weak = rate([Skill(30.0, 5.0), Skill(20.0, 5.0)], [1, 1])
    assert strong.mu < 30.0 and weak.mu > 20.0


def test_the_order_of_the_players_does_not_matter():
    skills = [Skill(27.0, 6.0), Skill(24.0, 7.0), Skill(25.0, 3.0)]
    places = [2, 1, 3]
    straight = rate(skills, places)
    for order in itertools.permutations(range(3)):
        turned = rate([skills[i] for i in order], [places[i] for i in order])
        for j, i in enumerate(order):
            assert (turned[j].mu, turned[j].sigma) == pytest.approx(
                (straight[i].mu, straight[i].sigma))


@pytest.mark.parametrize("skills, places", [
    ([START], [1]),  # one player
    ([], []),
    ([START, START], [1]),  # a place short
    ([START, START], [1, 2, 3]),  # a place too many
])
def test_rate_refuses_fewer_than_two_players_or_not_one_place_each(skills, places):
    with pytest.raises(ValueError, match="two players or more, each with a place"):
        rate(skills, places)


# ----------------------------------------------------------------------------- places
@pytest.mark.parametrize("places, among", [
    ([1, 2], [1, 2]),
    ([2, 1], [2, 1]),
    ([1, 1], [1, 1]),
    ([2, 4, 4], [1, 2, 2]),
    ([1, 1, 3], [1, 1, 3]),
    ([3, 1], [2, 1]),
    ([2, 3], [1, 2]),
    ([4, 2, 4, 1], [3, 2, 3, 1]),
    ([3, 3], [1, 1]),
    ([5], [1]),
])
def test_reranked_gives_places_among_the_players_kept(places, among):
    assert reranked(places) == among


@pytest.mark.parametrize("place, places, counts_as", [
    (1, [1, 2], "win"),
    (2, [1, 2], "loss"),
    (1, [1, 1], "draw"),
    (1, [1, 2, 2], "win"),
    (2, [1, 2, 2], "loss"),
    (1, [1, 1, 3], "draw"),
    (3, [1, 1, 3], "loss"),
    (2, [1, 2, 3], "loss"),
])
def test_standing_counts_first_alone_as_a_win_first_tied_as_a_draw(place, places, counts_as):
    assert standing(place, places) == counts_as


# ----------------------------------------------------------------------------- which rated
def _match(players, *, game="raptor") -> Match:
    """A finished match of ``players`` (no state: only who sat where matters here)."""
    return Match(id=1, game=game, guild_id=GUILD, channel_id=CHANNEL, players=tuple(players),
                 seed=1, options={}, status=MatchStatus.FINISHED, state=None, version=1,
                 created_at=0.0, updated_at=0.0, last_activity=0.0, deadline_at=None,
                 reminded=False, reason=None, draw_offered_by=None, rematch_of=None)


def test_which_matches_are_rated():
    people = _match([Player(0, ALICE), Player(1, BOB)])
    assert rated_seats(people, (1, 2), "babies_escaped") == [0, 1]
    assert rated_seats(people, (1, 1), EndReason.DRAW_AGREED) == [0, 1]
    assert rated_seats(people, (2, 1), EndReason.RESIGNED) == [0, 1]
    assert rated_seats(people, (2, 1), EndReason.TIMEOUT) == [0, 1]
    # no result, or abandoned: nothing rated
    assert rated_seats(people, None, EndReason.ENDED_BY_MODERATOR) == []
    assert rated_seats(people, (None, None), EndReason.STOPPED) == []
    assert rated_seats(people, (1, 2), EndReason.ABANDONED) == []
    # against the AI alone, or one person at every seat: nothing rated
    practice = _match([Player(0, BOT_USER, "easy"), Player(1, ALICE)])
    assert rated_seats(practice, (2, 1), EndReason.RESIGNED) == []
    alone = _match([Player(0, ALICE), Player(1, ALICE)])
    assert rated_seats(alone, (1, 2), "babies_escaped") == []
    # the people of a table with an AI seat are rated; one person at two seats is not
    table = _match([Player(0, ALICE), Player(1, BOT_USER, "easy"), Player(2, BOB)],
                   game="nim")
    assert rated_seats(table, (2, 1, 3), "pile_empty") == [0, 2]
    twice = _match([Player(0, ALICE), Player(1, BOB), Player(2, ALICE)], game="nim")
    assert rated_seats(twice, (1, 2, 3), "pile_empty") == []


# ----------------------------------------------------------------------------- a table
@pytest.fixture
def table_svc(db, clock, nim) -> MatchService:
    seeds = itertools.count(7)
    return MatchService(db, turn_timeout=3600.0, clock=clock, ai_chooser=take_one,
                        seed_source=lambda: next(seeds))


@pytest.mark.parametrize("ai_seat, pile, takes, places, among", [
    # the AI first, the two people tied behind it: a draw among them (not two losses)
    (0, "10", {ALICE: 1, BOB: 1}, (1, 2, 2), [1, 1]),
    # the AI between the two people: first and second among them
    (1, "15", {ALICE: 2, BOB: 1}, (1, 2, 3), [1, 2]),
])
async def test_a_table_rates_its_people_by_their_places_among_themselves(
        table_svc, ai_seat, pile, takes, places, among):
    svc = table_svc
    people = iter((ALICE, BOB))
    players = [Player(s, BOT_USER, "easy") if s == ai_seat else Player(s, next(people))
               for s in range(3)]
    m = await svc.starter.create("nim", GUILD, CHANNEL, players, {"pile": pile})
    m = await play_out(svc, m.id, takes)
    outcome = NIM.outcome(m.state)
    assert tuple(p.place for p in m.players) == outcome.places == places
    assert [p.score for p in m.players] == list(outcome.scores)
    seats = [s for s in range(3) if s != ai_seat]
    assert reranked([places[s] for s in seats]) == among
    (a_mu, a_sigma), (b_mu, b_sigma) = model.after(among)
    alice, bob = [await svc.stats(GUILD, "nim", u) for u in (ALICE, BOB)]
    assert (alice.mu, alice.sigma, alice.rating) == pytest.approx(
        (a_mu, a_sigma, model.shown(a_mu, a_sigma)))
    assert (bob.mu, bob.sigma, bob.rating) == pytest.approx(
        (b_mu, b_sigma, model.shown(b_mu, b_sigma)))
    tally = {"win": (1, 0, 0), "draw": (0, 1, 0), "loss": (0, 0, 1)}
    for stats, place, seat in ((alice, among[0], seats[0]), (bob, among[1], seats[1])):
        assert stats.games == 1
        assert (stats.wins, stats.draws, stats.losses) == tally[standing(place, among)]
        assert await svc.seat_records(GUILD, "nim", stats.user_id) == [
            SeatRecord(seat, *tally[standing(place, among)])]
    # the people keep their ratings on the match; the AI seat is not rated
    for seat, (mu, sigma) in zip(seats, ((a_mu, a_sigma), (b_mu, b_sigma)), strict=True):
        assert m.players[seat].rating_before == 1500
        assert m.players[seat].rating_after == pytest.approx(model.shown(mu, sigma))
    assert (m.players[ai_seat].rating_before, m.players[ai_seat].rating_after) == (None, None)
    assert (await svc.stats(GUILD, "nim", BOT_USER)).games == 0
    # per game: Raptor's ratings did not move
    assert (await svc.stats(GUILD, "raptor", ALICE)).games == 0
    board = await svc.leaderboard(GUILD, "nim")
    assert {s.user_id for s in board} == {ALICE, BOB}
    assert [s.rating for s in board] == sorted((alice.rating, bob.rating), reverse=True)
    assert await svc.leaderboard(GUILD, "raptor") == []


async def test_a_seat_that_resigns_while_the_others_play_on_is_rated_at_its_place(table_svc):
    svc = table_svc
    players = [Player(0, ALICE), Player(1, BOB), Player(2, CAROL)]
    m = await svc.starter.create("nim", GUILD, CHANNEL, players, {"pile": "15"})
    m = (await svc.act(m.id, ALICE, "take 3")).match
    left = await svc.resign(m.id, BOB)  # Bob's turn: he leaves, the game goes on
    assert left.active and left.players[1].left == EndReason.RESIGNED
    assert left.to_act() == {2}
    assert [(seat, action) for _, seat, action in await svc.action_log(m.id)] == [
        (0, Take(3)), (1, None)]
    m = await play_out(svc, m.id, {ALICE: 3, CAROL: 3})
    assert not m.active and m.reason == "pile_empty"
    places = [p.place for p in m.players]
    assert places == list(NIM.outcome(m.state).places) and places[1] == 3  # took nothing
    want = model.after(places)
    got = [await svc.stats(GUILD, "nim", u) for u in (ALICE, BOB, CAROL)]
    assert [(s.mu, s.sigma) for s in got] == [pytest.approx(w) for w in want]
    assert got[1].losses == 1 and got[1].rating < 1500
    assert [p.left for p in m.players] == [None, EndReason.RESIGNED, None]
