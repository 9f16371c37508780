"""RR7 Scoring: each card's points, the best order for each player when raptors are tied,
and the ranking with shared places. (The rulebook's scoring example is in
test_worked_examples.py.)"""

from __future__ import annotations

from itertools import permutations

import pytest

import engine.race as R
from engine.race import CARDS
from engine.race.scoring import best_score, orders, score_in_order

B, G, O, P, Y = R.RAPTORS  # noqa: E741 - the letter of orange


@pytest.mark.parametrize(("card", "order", "slots", "bonus"), [
    ((B, G, O), (B, G, O, P, Y), (10, 8, 5), 3),   # 26, the most
    ((B, G, O), (G, B, O, P, Y), (0, 8, 5), 3),    # slot 2 first counts as first or second
    ((B, G, O), (O, G, B, P, Y), (0, 8, 5), 3),    # slot 3 first counts as top three
    ((B, G, O), (P, Y, O, B, G), (0, 0, 5), 0),
    ((B, G, O), (P, Y, G, O, B), (0, 0, 0), 0),
    ((Y, P, O), (Y, O, P, B, G), (10, 0, 5), 3),   # slot 2 third: no 8, but the bonus
])
def test_RR7_1_slot_points_and_the_top_three_bonus(card, order, slots, bonus):
    s = score_in_order(card, order)
    assert (s.slots, s.bonus, s.total) == (slots, bonus, sum(slots) + bonus)


def test_RR7_1_no_card_scores_more_than_26():
    totals = {score_in_order(c, o).total for c in CARDS.values() for o in permutations(R.RAPTORS)}
    assert max(totals) == 26 and min(totals) == 0


def test_RR7_2_each_player_scores_the_tied_order_best_for_them():
    groups = ((B,), (Y,), (O, G), (P,))  # orange and green tied for third
    assert orders(groups) == [(B, Y, O, G, P), (B, Y, G, O, P)]
    assert best_score((B, P, G), groups).order[:3] == (B, Y, G)  # green third for this one
    assert best_score((P, Y, O), groups).order[:3] == (B, Y, O)  # orange third for that one


def test_RR7_2_a_tie_for_second_lets_each_choose_second_and_third():
    groups = ((B,), (G, O, P), (Y,))
    best = best_score((Y, G, O), groups)
    assert (best.slots, best.bonus, best.order[:3]) == ((0, 8, 5), 0, (B, G, O))
    assert best_score((B, P, G), groups).total == 10 + 8 + 5 + 3
    assert best_score((O, G, Y), groups).total == 8  # yellow stays fifth


# G crossed; then B (row 9); O and P tied on row 5; Y last
FINISH = """
    race: desert, {n} seats
     13    G
      9  B . . . .
      5  . . O P .
      0  s s s s Y
    cards: {cards}
    phase: over
    kept: GGGG
    """


def _finished(cards: str):
    return R.from_diagram(FINISH.format(n=len(cards.split()), cards=cards).replace(
        "\n    ", "\n"))


def test_RR7_3_the_most_points_wins():
    s = _finished("17 16 1 5")
    # 17 GBY 10+8 = 18; 16 BYP 5 (purple third); 1 BGO 8+5+3 = 16 (orange third);
    # 5 YBG 8+5 = 13
    assert [c.total for c in R.card_scores(s)] == [18, 5, 16, 13]
    out = R.outcome(s)
    assert out.places == (1, 4, 2, 3) and out.scores == (18.0, 5.0, 16.0, 13.0)
    assert out.reason == "finished" and out.winners == {0}


def test_RR7_3_equal_points_share_the_place_with_no_tie_break():
    s = _finished("17 5 13")  # 13 OBP: 8 + 5 (purple third) = 13, as 5 YBG
    assert [c.total for c in R.card_scores(s)] == [18, 13, 13]
    assert R.outcome(s).places == (1, 2, 2)
    first = _finished("5 13")
    assert R.outcome(first).places == (1, 1) and R.outcome(first).winners == {0, 1}
