"""RJ2 Setup: the deck pairs, a round's setup from the seed, the first player, 2-4 seats."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.game import OptionSpec
from engine.ratjack import DECK_PAIRS, RATJACK, OptionError, Phase, new_game, round_cards
from engine.ratjack.effects import chance
from engine.ratjack.predicates import opponents

from .conftest import play


def test_RJ2_1_every_round_uses_two_decks_chosen_for_the_match():
    assert DECK_PAIRS == {"rb": ("R", "B"), "rc": ("R", "C"), "rw": ("R", "W"),
                          "cw": ("C", "W")}
    assert RATJACK.options == (OptionSpec("decks", ("rb", "rc", "rw", "cw"), "rb"),)
    for pair, letters in DECK_PAIRS.items():
        cards = round_cards(pair)
        assert len(cards) == 24 and {c[0] for c in cards} == set(letters)
        for seats in (2, 3, 4):
            s = new_game(7, seats, pair)
            everywhere = (s.deck + s.discard + [h.card for hd in s.hands for h in hd]
                          + [x.card for d in s.displays for x in d])
            assert sorted(everywhere) == sorted(cards)
    assert RATJACK.new_game(1, 2, {}).decks == "rb"
    with pytest.raises(ValueError, match="cannot be 'rr'"):
        RATJACK.new_game(1, 2, {"decks": "rr"})
    with pytest.raises(OptionError):
        new_game(1, 2, "rr")


def test_RJ2_2_round_setup():
    s = new_game(11, 4, "cw")
    assert s.round == 1 and s.phase is Phase.DRAW
    assert len(s.deck) == 24 - 4 * 2 - 1
    for q in range(4):
        assert len(s.hands[q]) == 1 and not s.hands[q][0].seen
        (x,) = s.displays[q]
        assert not x.up and not x.chips and not x.seen
    assert len(s.discard) == 1
    assert s.reserve == [0, 1, 2, 3, 4, 5]
    assert all(sign in (1, -1) for sign in s.signs)


def test_RJ2_2_chance_comes_from_the_seed_one_stream_per_shuffle_and_toss():
    assert new_game(5, 3).to_json() == new_game(5, 3).to_json()
    assert new_game(5, 3).to_json() != new_game(6, 3).to_json()
    s = new_game(5, 3)
    deck = list(round_cards("rb"))
    chance(5, "deck", 1).shuffle(deck)
    dealt = [x.card for q in _from(s.current, 3) for x in s.displays[q]]
    dealt += [h.card for q in _from(s.current, 3) for h in s.hands[q]]
    assert list(reversed(deck))[:7] == dealt + s.discard  # dealt from the top
    toss = chance(5, "chips", 1)
    assert s.signs == tuple(toss.choice((1, -1)) for _ in range(6))
    # the deck pair changes the cards, not the chips' toss nor the first player
    other = new_game(5, 3, "cw")
    assert other.signs == s.signs and other.current == s.current


def _from(first: int, seats: int) -> list[int]:
    return [(first + k) % seats for k in range(seats)]


def test_RJ2_3_a_random_first_player_then_seat_order():
    firsts = Counter(new_game(seed, 3).current for seed in range(300))
    assert set(firsts) == {0, 1, 2} and min(firsts.values()) > 70
    s = new_game(2, 3)
    order = [s.current]
    for _ in range(4):
        s = play(s, "draw deck", f"down {s.hands[s.current][-1].card}")
        order.append(s.current)
    first = order[0]
    assert order == [(first + k) % 3 for k in range(5)]


def test_RJ2_4_two_to_four_players_and_with_two_the_other_is_the_opponent():
    for seats in (2, 3, 4):
        assert new_game(1, seats).seats == seats
    for bad in (1, 5, 0):
        with pytest.raises(OptionError, match="2 to 4 players"):
            new_game(1, bad)
    s = new_game(1, 2)
    assert opponents(s, 0) == [1] and opponents(s, 1) == [0]
    assert opponents(new_game(1, 4), 2) == [0, 1, 3]
