"""Counts of legal actions in fixed positions (python-chess's perft idea): the number of
decision sequences from a position, ``depth`` decisions deep or to the end of the turn.
Small ones are counted by hand in the comments; the deep ones guard against changes."""

from __future__ import annotations

import pytest

import engine.race as R

from .helpers import position
from .test_worked_examples import D1, J1


def perft(state: R.RaceState, depth: int | None = None) -> int:
    """The decision sequences from ``state`` within its turn, at most ``depth`` deep
    (None: to the end of the turn or the race)."""
    if state.is_over or depth == 0:
        return 1
    out = 0
    for a in R.legal_actions(state, state.seat):
        after = R.apply(state, state.seat, a)
        out += 1 if after.turn != state.turn else perft(after, None if depth is None
                                                        else depth - 1)
    return out


ROW_0 = position("race: desert, 2 seats\n  0  B G O P Y\nphase: move\nkept: BGOT\n")


def test_RR5_1_RR5_5_perft_of_one_step_each_and_a_t_rex():
    # B, G and O each have one step; the T-Rex has none until a raptor has left row 0
    # (then one back step per raptor on row 1): with the T used k-th (k = 0..3) after k
    # colour dice, 3! orders of those times max(k, 1) choices: 6 + 6 + 12 + 18 = 42
    assert perft(ROW_0, 1) == 4
    assert perft(ROW_0) == 42


@pytest.mark.parametrize(("seed", "board", "count"), [
    (0, "desert", 11),   # GGOY: (2+1)(1+1)(1+1) - 1 selections
    (0, "jungle", 21),   # the same 11, and each but keep-all with the arrows die: + 10
    (1, "jungle", 21),   # BYYT: (1+1)(2+1)(1+1) - 1 = 11, + 10
])
def test_RR9_3_the_first_roll_of_fixed_games(seed, board, count):
    s = R.new_game(seed, 4, board)
    assert len(R.legal_actions(s, s.seat)) == count


def test_RR9_4_perft_of_the_desert_example():
    s = position(D1.replace("rolled: BBOP", "phase: move\n    kept: OOTY"))
    # O>C3, Y>E1, and the T-Rex: blue D4, green A1, purple B1 and orange C2 back
    assert perft(s, 1) == 6
    assert perft(s, 2) == 22
    assert perft(s) == 2381


def test_RR9_4_perft_of_the_jungle_example():
    s = position(J1)
    # blue's die: A6, or B6 diagonally; green's: D10, or C10 / E10; the T-Rex: blue A4 or
    # B4, green D8 or C8, orange D8 only (purple behind it), purple D7 only (the tree E7),
    # yellow B6, A6 or C6: 2 + 3 + 9
    assert perft(s, 1) == 14
    assert perft(s, 2) == 115


@pytest.mark.soak
def test_RR9_4_perft_of_the_jungle_example_to_the_end_of_the_turn():
    assert perft(position(J1)) == 26356
