"""RR3 Setup: seats, the board's dice, the start, the deal, the first seat and the order of
play, and forfeits."""

from __future__ import annotations

from collections import Counter

import pytest

import engine.race as R
from engine.race import Board, Phase
from engine.race.errors import OptionError, WrongTurnError
from engine.race.track import row_of

from .helpers import acts, check_invariants, play, position, random_race


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_RR3_1_two_to_five_players_all_five_raptors_race(seats):
    s = R.new_game(1, seats, "desert")
    assert s.seats == seats and len(s.cards) == seats and len(set(s.raptors)) == 5


@pytest.mark.parametrize("seats", [0, 1, 6, "4", None])
def test_RR3_1_other_seat_counts_are_refused(seats):
    with pytest.raises(OptionError, match="2 to 5 players"):
        R.new_game(1, seats, "desert")


def test_RR3_2_the_desert_uses_four_footprint_dice_the_jungle_adds_the_arrows_die():
    desert, jungle = R.new_game(4, 3, "desert"), R.new_game(4, 3, "jungle")
    assert len(desert.rolled) == 4 and desert.arrow_die is None
    assert len(jungle.rolled) == 4 and jungle.arrow_die in (0, 1, 2)
    assert (desert.board, jungle.board) == (Board.DESERT, Board.JUNGLE)
    with pytest.raises(OptionError, match="'desert' or 'jungle'"):
        R.new_game(4, 3, "savannah")


def test_RR3_3_one_raptor_per_lane_on_row_0_in_an_order_from_the_seed():
    orders = Counter()
    for seed in range(600):
        s = R.new_game(seed, 2, "desert")
        assert all(row_of(sp) == 0 for sp in s.raptors)
        assert sorted(sp % 5 for sp in s.raptors) == [0, 1, 2, 3, 4]
        orders[s.raptors] += 1
    assert R.new_game(9, 2, "desert").raptors == R.new_game(9, 4, "jungle").raptors
    assert len(orders) > 100  # many of the 120 orders turn up, none dominates
    assert max(orders.values()) < 20


def test_RR3_4_each_seat_is_dealt_a_different_card():
    dealt = Counter()
    for seed in range(400):
        s = R.new_game(seed, 5, "desert")
        assert len(set(s.cards)) == 5 and set(s.cards) <= set(R.CARDS)
        dealt.update(s.cards)
    assert set(dealt) == set(R.CARDS) and min(dealt.values()) > 50  # 100 each on average


def test_RR3_5_the_first_seat_is_drawn_and_turns_pass_in_seat_order():
    firsts = Counter(R.new_game(seed, 4, "desert").first for seed in range(400))
    assert set(firsts) == {0, 1, 2, 3} and min(firsts.values()) > 70
    s = R.new_game(11, 4, "jungle")
    seats = [s.seat]
    for state in random_race(11, 4, "jungle"):
        if state.seat != seats[-1] and not state.is_over:
            seats.append(state.seat)
    assert seats[0] == s.first
    assert all(b == (a + 1) % 4 for a, b in zip(seats, seats[1:], strict=False))


def _mid_move():
    return position("""
        race: desert, 3 seats
          1  B . . . .
          0  s G O P Y
        seat: 2
        phase: move
        kept: BGOT
        used: B
        """)


def test_RR3_6_a_seat_that_forfeits_mid_turn_loses_its_dice_and_is_skipped():
    s = _mid_move()
    after = R.forfeit(s, 1)
    assert after.forfeited == (1,) and after.seat == 2 and after.turn == s.turn + 1
    assert after.phase is Phase.ROLL and after.last_seat == 1
    check_invariants(after)
    # seat 2, then seat 0, then seat 2 again: seat 1 is skipped from then on
    seen = []
    state = after
    for _ in range(400):
        if state.is_over:
            break
        if not seen or seen[-1] != (state.turn, state.seat):
            seen.append((state.turn, state.seat))
        state = R.apply(state, state.seat, R.legal_actions(state, state.seat)[0])
    assert 1 not in {seat for _, seat in seen} and {0, 2} <= {seat for _, seat in seen}
    with pytest.raises(WrongTurnError, match="left the race"):
        R.parse_action("keep B", after, 1)


def test_RR3_6_a_forfeit_out_of_turn_keeps_the_turn_going_and_the_card_scores():
    s = _mid_move()
    after = R.forfeit(s, 0)
    assert (after.seat, after.turn, after.used, after.forfeited) == (1, s.turn, s.used, (0,))
    assert R.forfeit(after, 0) is after  # already gone: nothing changes
    finished = after
    while not finished.is_over:
        finished = R.apply(finished, finished.seat, R.legal_actions(finished, finished.seat)[0])
    assert len(R.outcome(finished).places) == 3 and R.card_scores(finished)[0] is not None


def test_RR3_7_the_last_seat_racing_cannot_forfeit_into_the_game():
    s = R.forfeit(R.forfeit(_mid_move(), 0), 2)
    assert s.forfeited == (0, 2) and s.seat == 1
    assert R.forfeit(s, 1) is None
    alone = play(s, *acts(s)[:1])
    assert alone.seat == 1 or alone.is_over  # one seat alone plays on


def test_RR3_6_forfeit_refuses_a_seat_outside_the_table():
    with pytest.raises(OptionError):
        R.forfeit(_mid_move(), 3)
