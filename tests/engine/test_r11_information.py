"""R11 Information: a view holds everything public and the viewer's own cards, never the
opponent's hand, any deck order, an unrevealed opponent pick or the seed."""

from __future__ import annotations

import dataclasses
import random

import pytest

import engine
from engine import Phase, View, sample_state, view

from .conftest import RAPTOR, SCIENTIST, board, hidden_variant, play

VIEW_FIELDS = {
    "viewer", "options", "layout", "board", "phase", "round", "to_act", "sleep_tokens",
    "mother_off", "escaped", "captured", "killed", "reserve", "fire_supply", "discards",
    "deck_sizes", "hand_sizes", "hand", "deck", "picked", "my_pick", "shown_pick", "revealed",
    "observation", "observe_next", "effect", "ap", "winner", "reason", "events",
    "round_events", "last_round_events",
}

ROWS = ["S..........", "..B........", "......M....", "...........", "........B..",
        "..........S"]


def test_R11_the_view_has_exactly_the_documented_fields():
    # A tripwire: a new field must be reviewed for hidden information before it is added.
    assert {f.name for f in dataclasses.fields(View)} == VIEW_FIELDS


def test_R11_1_public_information_is_in_every_view():
    s = board(ROWS, round=6, sleep=2, escaped=1, captured=1, killed=2, raptor_hand="2 8",
              raptor_discard="1 3 5 6", raptor_deck="4 9 7", scientist_hand="1 6 9",
              scientist_discard="2 3", scientist_deck="7 5 8 4")
    for side in (None, RAPTOR, SCIENTIST):
        v = view(s, side)
        assert v.board == tuple(s.board) and v.round == 6 and v.phase is Phase.PICK
        assert (v.sleep_tokens, v.escaped, v.captured, v.killed, v.reserve) == (2, 1, 1, 2, 6)
        assert v.fire_supply == 10
        assert v.discards == {RAPTOR: (1, 3, 5, 6), SCIENTIST: (2, 3)}
        assert v.deck_sizes == {RAPTOR: 3, SCIENTIST: 4}
        assert v.hand_sizes == {RAPTOR: 2, SCIENTIST: 3}
        assert v.to_act == {RAPTOR, SCIENTIST}


def test_R11_2_the_hand_and_pick_are_private_to_their_owner():
    s = board(ROWS, raptor_hand="2 8", raptor_pick=5, scientist_hand="1 6 9",
              scientist_deck="7 2 8 4", scientist_discard="3 5")
    raptor, sci, public = view(s, RAPTOR), view(s, SCIENTIST), view(s, None)
    assert (raptor.hand, raptor.my_pick) == ((2, 8), 5)
    assert (sci.hand, sci.my_pick) == ((1, 6, 9), None)
    assert (public.hand, public.deck, public.my_pick) == (None, None, None)
    assert raptor.picked == sci.picked == public.picked == {RAPTOR: True, SCIENTIST: False}
    assert raptor.deck == (1, 3, 4, 6, 7, 9)   # contents, sorted: the order is nobody's
    assert sci.deck == (2, 4, 7, 8)
    assert all(v.shown_pick is None and v.revealed is None for v in (raptor, sci, public))


def states_along_random_games(games: int, every: int):
    """Every ``every``-th state of ``games`` seeded random games (quick setup)."""
    for seed in range(games):
        rng = random.Random(seed)
        s = engine.new_game(seed, setup="quick", layout="random")
        step = 0
        while not s.is_over and step < 1500:
            if step % every == 0:
                yield s
            side = min(engine.to_act(s))
            s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
            step += 1
        yield s


SAMPLED = list(states_along_random_games(6, 7))


def test_R11_sampled_positions_cover_every_phase():
    assert {s.phase for s in SAMPLED} >= {Phase.PICK, Phase.EFFECT, Phase.AP,
                                          Phase.MOTHER_RETURN, Phase.OVER}
    assert any(s.observation and s.picks[SCIENTIST] is not None and s.revealed is None
               for s in SAMPLED)


@pytest.mark.parametrize("viewer", [RAPTOR, SCIENTIST, None])
def test_R11_2_states_differing_only_in_hidden_information_look_the_same(viewer):
    rng = random.Random(2)
    changed = 0
    for s in SAMPLED:
        t = hidden_variant(s, viewer, rng)
        changed += t.key() != s.key()
        assert view(t, viewer) == view(s, viewer)
    assert changed == len(SAMPLED)   # the seed at least always differs


@pytest.mark.parametrize("viewer", [RAPTOR, SCIENTIST])
def test_R11_2_a_views_own_cards_are_its_own(viewer):
    # The converse, so that the test above cannot pass by ignoring the cards altogether.
    s = board(ROWS, raptor_hand="2 8 9", scientist_hand="1 6 9")
    t = s.copy()
    t.hands = dict(s.hands)
    t.hands[viewer] = (3, 4, 5)
    t.decks = dict(s.decks)
    t.decks[viewer] = tuple(c for c in range(1, 10) if c not in (3, 4, 5))
    assert view(t, viewer) != view(s, viewer)
    assert view(t, viewer.other) == view(s, viewer.other)
    assert view(t, None) == view(s, None)


def test_R11_2_a_pick_reaches_nobody_else_until_revealed():
    s = board(ROWS, raptor_hand="2 5 8", scientist_hand="1 4 9")
    public_before = view(s, None)
    outcomes = set()
    for card in (2, 5, 8):
        after = play(s, RAPTOR, f"play {card}")
        outcomes.add((view(after, SCIENTIST).picked[RAPTOR], tuple(after.events),
                      view(after, None).round_events))
        assert view(after, SCIENTIST).my_pick is None
    assert len(outcomes) == 1   # the scientist and the public see the same whatever was picked
    assert public_before.picked == {RAPTOR: False, SCIENTIST: False}


def test_R5_2_R11_2_the_shown_pick_reaches_the_raptor_only():
    s = board(ROWS, observation="yes", raptor_hand="2 5 8", scientist_hand="1 4 9")
    publics, raptors = [], set()
    for card in (1, 4, 9):
        after = play(s, SCIENTIST, f"play {card}")
        publics.append((view(after, None), after.events))
        raptors.add(view(after, RAPTOR).shown_pick)
    assert publics[0] == publics[1] == publics[2] and raptors == {1, 4, 9}


@pytest.mark.parametrize("viewer", [RAPTOR, SCIENTIST])
def test_R11_sample_state_is_consistent_with_the_view(viewer):
    rng = random.Random(5)
    for s in SAMPLED:
        v = view(s, viewer)
        t = sample_state(v, rng)
        assert view(t, viewer) == v
        assert sorted(t.hands[viewer.other] + t.decks[viewer.other]
                      + t.discards[viewer.other]
                      + ((t.picks[viewer.other],) if t.picks[viewer.other] else ())) == sorted(
            s.hands[viewer.other] + s.decks[viewer.other] + s.discards[viewer.other]
            + ((s.picks[viewer.other],) if s.picks[viewer.other] else ()))
        if not s.is_over:
            for side in engine.to_act(s):
                assert engine.to_act(t) == engine.to_act(s)
                if side is viewer or s.phase is not Phase.PICK:
                    assert engine.legal_actions(t, side) == engine.legal_actions(s, side)


def test_R11_sample_state_refuses_the_public_view():
    with pytest.raises(ValueError):
        sample_state(view(SAMPLED[0], None), random.Random(0))
