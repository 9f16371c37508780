"""The model of the opponent's card pick (bot/ai/pick_model.py)."""

from __future__ import annotations

import itertools
import math

import pytest

from bot.ai import easy, params, pick_model
from bot.ai.evaluation import Position
from engine import CARD_VALUES, Phase, Side, view
from tests.ai.helpers import diagram, random_positions

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST


def test_opponent_pick_model_is_a_distribution_over_its_possible_cards():
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...........",
                 "........S..",
                 "..........."], scientist_discard="9 2")
    probs = pick_model.opponent_pick_model(view(s, RAPTOR), RAPTOR)
    assert set(probs) == {1, 3, 4, 5, 6, 7, 8}
    assert sum(probs.values()) == pytest.approx(1.0)
    assert min(probs.values()) >= params.UNIFORM_MIX / 7 - 1e-12
    shown = diagram(["..B........",
                     "...........",
                     "......M....",
                     "...........",
                     "........S..",
                     "..........."], observation="yes", scientist_pick="4")
    v = view(shown, RAPTOR)
    assert v.shown_pick == 4
    assert pick_model.opponent_pick_model(v, RAPTOR) == {4: 1.0}
    # the scientist under observation: the raptor answers our card (no prior model)
    assert pick_model.opponent_pick_model(view(shown, SCIENTIST), SCIENTIST) is None


def test_opponent_pick_model_leans_to_hands_keeping_the_least_liked_cards(monkeypatch):
    # four cards left to the scientist (R5.6), three in hand: four possible hands. Ranked
    # by the easy heuristic a > b > c > d, it picks a from the three hands holding a and
    # b from the fourth; each card weighs exp(kappa * rank / 3) in its hand's weight.
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...S.......",
                 "........S..",
                 "..B........"], round="4", scientist_discard="9 2 4 6 8",
                scientist_hand="1 3 5")
    # as shipped: the raptor only (the hard scientist models the raptor's hands alike)
    assert params.HAND_STICKINESS == {RAPTOR: 2.0}
    v = view(s, RAPTOR)
    mix = params.UNIFORM_MIX
    monkeypatch.setattr(params, "HAND_STICKINESS", {})
    alike = pick_model.opponent_pick_model(v, RAPTOR)
    assert set(alike) == {1, 3, 5, 7}
    ranked = sorted(alike, key=alike.get, reverse=True)
    a, b = ranked[0], ranked[1]
    assert alike[a] == pytest.approx(mix / 4 + (1 - mix) * 3 / 4)
    assert alike[b] == pytest.approx(mix / 4 + (1 - mix) / 4)
    monkeypatch.setattr(params, "HAND_STICKINESS", {RAPTOR: 2.0})
    sticky = pick_model.opponent_pick_model(v, RAPTOR)
    e = math.exp
    bcd = e(2 * (1 + 2 + 3) / 3)
    total = e(2 * (0 + 1 + 2) / 3) + e(2 * (0 + 1 + 3) / 3) + e(2 * (0 + 2 + 3) / 3) + bcd
    assert sticky[b] == pytest.approx(mix / 4 + (1 - mix) * bcd / total)
    assert sticky[a] == pytest.approx(mix / 4 + (1 - mix) * (1 - bcd / total))
    assert sticky[a] < alike[a] and sticky[b] > alike[b]
    assert sum(sticky.values()) == pytest.approx(1.0)
    assert {c: sticky[c] for c in sticky if c not in (a, b)} == {
        c: pytest.approx(mix / 4) for c in sticky if c not in (a, b)}


def test_opponent_pick_model_is_the_easy_pick_of_every_hand(monkeypatch):
    # with all hands alike, the raptor's model of the scientist's card is exactly the easy
    # pick of each hand the scientist may hold (20 hands of 3 from 6 cards, R5.6), mixed
    # with a uniform pick
    rows = ["..B........",
            "...S.......",
            "......M....",
            "..b........",
            "........S..",
            "..B........"]
    keys = dict(round="4", scientist_discard="9 2 4", raptor_discard="3 5")
    pool = [1, 3, 5, 6, 7, 8]
    monkeypatch.setattr(params, "HAND_STICKINESS", {})
    mix = params.UNIFORM_MIX
    picks = {}
    for hand in itertools.combinations(pool, 3):
        s = diagram(rows, **keys, scientist_hand=" ".join(map(str, hand)))
        picks[hand] = easy.pick_card(view(s, SCIENTIST), SCIENTIST, list(hand))
    # the hands' picks, for cards 1 3 5 6 7 8
    assert [list(picks.values()).count(c) for c in pool] == [0, 0, 1, 3, 6, 10]
    expected = {c: mix / 6 + (1 - mix) * sum(p == c for p in picks.values()) / 20
                for c in pool}
    model = pick_model.opponent_pick_model(view(diagram(rows, **keys), RAPTOR), RAPTOR)
    assert model == pytest.approx(expected)


def test_the_easy_picks_rating_is_public_and_one_home():
    # at the card picks of random games (under observation too, R5.2), the easy pick is
    # the card its rating (easy.pick_merits) puts first; with the raptor's card unknown and
    # no observation, that rating is pick_model.card_merits, which the opponent's model
    # (and fit_pick_model.py --history) reads; and it depends on the public position
    # only: read from the raptor's view, it rates the scientist's cards alike
    usual = observed = 0
    for s, _side in random_positions(range(8), stride=1):
        if s.phase is not Phase.PICK or s.picks[SCIENTIST] is not None or s.picks[RAPTOR]:
            continue
        mine, theirs = view(s, SCIENTIST), view(s, RAPTOR)
        pool, _known = pick_model.opponent_pool(theirs, RAPTOR)
        rating = easy.pick_merits(mine, SCIENTIST, pool)
        assert easy.pick_merits(theirs, SCIENTIST, pool) == rating
        assert set(rating) == set(pool) and all(rating[c][1] == -c for c in pool)
        hand = sorted(s.hands[SCIENTIST])
        assert easy.pick_card(mine, SCIENTIST, hand) == max(hand, key=rating.__getitem__)
        if s.observation:
            observed += 1
        else:
            assert pick_model.card_merits(theirs, SCIENTIST, pool) == rating
            usual += 1
        # each side rates its own cards by their outcome against every card the other
        # side may still play (R5.3-R5.5), from its own side
        model = pick_model.CardModel(Position.of(theirs))
        for side in (RAPTOR, SCIENTIST):
            left = [c for c in CARD_VALUES if c not in theirs.discards[side.other]]
            assert pick_model.card_merits(theirs, side, CARD_VALUES) == {
                c: (sum(model.outcome(side, c, o) for o in left), -c) for c in CARD_VALUES}
    assert usual >= 30 and observed >= 3
