"""RJ1 Components: the four decks, the six bonus chips, victory points."""

from __future__ import annotations

from collections import Counter

from engine.ratjack import ALL_CARDS, CHIP_SIZES, DECKS, EFFECTS, Kind, effect_of, new_game
from engine.ratjack.cards import (
    DECK_BY_LETTER,
    EFFECT_BY_KEY,
    card_name,
    chip_face,
    deck_of,
    format_face,
    kind_of,
    value_of,
)
from engine.ratjack.predicates import face

from .conftest import acts, play, pos


def test_RJ1_1_four_decks_of_twelve_valued_1_to_12():
    assert [d.letter for d in DECKS] == ["R", "B", "C", "W"]
    assert [d.kind for d in DECKS] == [Kind.RAT, Kind.RAT, Kind.RACCOON, Kind.WEASEL]
    assert [str(d.name) for d in DECKS] == ["Red Rats", "Blue Rats", "Raccoons", "Weasels"]
    assert len(ALL_CARDS) == 48 == len(set(ALL_CARDS))
    assert Counter(c[0] for c in ALL_CARDS) == {"R": 12, "B": 12, "C": 12, "W": 12}
    assert sorted(value_of(c) for c in ALL_CARDS if c[0] == "C") == list(range(1, 13))


def test_RJ1_1_a_card_is_named_by_deck_and_value():
    assert card_name("C", 7) == "C7" and value_of("C7") == 7 and deck_of("C7").letter == "C"
    assert kind_of("W12") is Kind.WEASEL and kind_of("B3") is Kind.RAT
    assert DECK_BY_LETTER["B"].name == "Blue Rats"


def test_RJ1_1_red_and_blue_rats_share_their_effects_so_36_effects():
    assert len(EFFECTS) == 36 == len(EFFECT_BY_KEY)
    assert Counter(e.kind for e in EFFECTS) == {Kind.RAT: 12, Kind.RACCOON: 12, Kind.WEASEL: 12}
    for v in range(1, 13):
        assert effect_of(f"R{v}") is effect_of(f"B{v}")
    assert len({effect_of(c) for c in ALL_CARDS}) == 36
    # each effect cites its rule: Rats RJ5, Raccoons RJ6, Weasels RJ7, value = rule number
    for e in EFFECTS:
        section = {Kind.RAT: 5, Kind.RACCOON: 6, Kind.WEASEL: 7}[e.kind]
        assert e.rule == f"RJ{section}.{e.value}"


def test_RJ1_2_six_chips_plus_minus_1_2_3_4_5_10():
    assert CHIP_SIZES == (1, 2, 3, 4, 5, 10)
    assert [chip_face(c, 1) for c in range(6)] == [1, 2, 3, 4, 5, 10]
    assert [chip_face(c, -1) for c in range(6)] == [-1, -2, -3, -4, -5, -10]
    assert format_face(3) == "+3" and format_face(-10) == "-10"


def test_RJ1_2_the_toss_decides_only_the_signs_and_the_faces_differ():
    signs = Counter()
    for seed in range(200):
        s = new_game(seed, 3)
        faces = [face(s, c) for c in range(6)]
        assert sorted(abs(f) for f in faces) == [1, 2, 3, 4, 5, 10]
        assert len(set(faces)) == 6
        signs.update(s.signs)
    assert 500 < signs[1] < 700 and signs[1] + signs[-1] == 1200  # a fair toss each


def test_RJ1_2_a_chip_is_named_by_its_showing_face():
    s = pos("""
        phase: action
        chips: +1 -2 +3 +4 -5 -10
        p1 hand: R1 B2
        p1 display: B3
        p2 hand: B4
        p2 display: R5
    """)
    s = play(s, "up R1")
    assert acts(s) == ["+1", "-2", "+3", "+4", "-5", "-10"]
    s = play(s, "-10", "p1@1")
    assert s.displays[0][0].chips == (5,)  # chip id 5 is the 10
    assert s.vp == [0, 0]


def test_RJ1_3_the_engine_counts_victory_points_per_seat():
    s = pos("""
        phase: action
        vp: 2 2 2 2
        p1 hand: R12 B1
        p1 display: R10 B10 R4
        p2 hand: B4
        p2 display: R5
        p3 hand: B5
        p3 display: R6
        p4 hand: B6
        p4 display: R7
    """)
    s = play(s, "down B1")  # 24: nothing
    assert s.vp == [2, 2, 2, 2]
    s = pos("""
        phase: action
        vp: 2 2 2 2
        p1 hand: R1 B1
        p1 display: R10 B10 R3
        p2 hand: B4
        p2 display: R5
        p3 hand: B5
        p3 display: R6
        p4 hand: B6
        p4 display: R7
    """)
    s = play(s, "up B1", "+1", "p1@1")  # 10 + 1 + 10 + 3 + 1 = 25 (RJ9.1 a)
    assert s.vp == [3, 2, 2, 2] and sum(s.vp) == 9 and s.is_over
