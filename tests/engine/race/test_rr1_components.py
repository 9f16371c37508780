"""RR1 Components: the board's two sides, the five raptors, the dice and the Top-3 cards,
each one table of engine.race.components / engine.race.track."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

from engine.race import ARROW_FACES, CARDS, FOOTPRINT_FACES, RAPTORS, Board, Face, Raptor
from engine.race.components import FOOTPRINT_DICE, RAPTOR_COLOURS, card_letters, face_of


def test_RR1_1_the_board_has_a_desert_and_a_jungle_side():
    assert [b.value for b in Board] == ["desert", "jungle"]


def test_RR1_2_five_raptors_by_letter_in_colour_order():
    assert [r.value for r in RAPTORS] == ["B", "G", "O", "P", "Y"]
    assert [RAPTOR_COLOURS[r] for r in RAPTORS] == ["blue", "green", "orange", "purple",
                                                    "yellow"]
    assert [r.index for r in RAPTORS] == [0, 1, 2, 3, 4]
    assert Raptor("O") is Raptor.ORANGE and repr(Raptor.ORANGE) == "Raptor.ORANGE"


def test_RR1_3_four_footprint_dice_of_six_faces_one_per_colour_and_the_t_rex():
    assert FOOTPRINT_DICE == 4
    assert FOOTPRINT_FACES == (Face.B, Face.G, Face.O, Face.P, Face.Y, Face.T)
    assert [f.raptor for f in FOOTPRINT_FACES] == [*RAPTORS, None]
    assert all(face_of(r).raptor is r for r in RAPTORS)


def test_RR1_4_the_arrows_die_shows_0_0_1_1_2_2():
    assert sorted(ARROW_FACES) == [0, 0, 1, 1, 2, 2]


def test_RR1_5_twenty_cards_of_three_different_raptors_by_the_formula():
    assert sorted(CARDS) == list(range(1, 21))
    assert all(len(set(card)) == 3 for card in CARDS.values())
    for m in range(1, 5):
        for c in range(5):
            n = 5 * (m - 1) + c + 1
            assert CARDS[n] == (RAPTORS[c], RAPTORS[(c + m) % 5], RAPTORS[(c + 2 * m) % 5])


def test_RR1_5_the_cards_are_the_printed_list():
    printed = ("1 BGO · 2 GOP · 3 OPY · 4 PYB · 5 YBG · 6 BOY · 7 GPB · 8 OYG · 9 PBO · "
               "10 YGP · 11 BPG · 12 GYO · 13 OBP · 14 PGY · 15 YOB · 16 BYP · 17 GBY · "
               "18 OGB · 19 POG · 20 YPO")
    listed = dict(item.split() for item in printed.split(" · "))
    assert {int(n): letters for n, letters in listed.items()} == {
        n: card_letters(n) for n in CARDS}


def test_RR1_5_each_colour_stands_in_each_slot_four_times():
    for slot in range(3):
        assert Counter(card[slot] for card in CARDS.values()) == {r: 4 for r in RAPTORS}


def test_RR1_5_every_ordered_pair_once_per_pair_of_slots():
    for i, j in ((0, 1), (1, 2), (0, 2)):
        pairs = Counter((card[i], card[j]) for card in CARDS.values())
        assert pairs == {p: 1 for p in permutations(RAPTORS, 2)}


def test_RR1_5_each_three_colour_set_is_on_two_cards_in_opposite_orders():
    by_set: dict[frozenset, list] = {}
    for card in CARDS.values():
        by_set.setdefault(frozenset(card), []).append(card)
    assert set(by_set) == {frozenset(c) for c in combinations(RAPTORS, 3)}
    for cards in by_set.values():
        assert len(cards) == 2 and cards[0] == tuple(reversed(cards[1]))
