"""RR4 Rolling: every die rolled at the start of a turn, one or more footprint dice set
aside after each roll, the arrows die's own ruling, and the result."""

from __future__ import annotations

from collections import Counter

import pytest

import engine.race as R
from engine.race import Face, Keep, Phase
from engine.race.errors import IllegalActionError

from .helpers import acts, play, position, random_race


def test_RR4_1_a_turn_begins_by_rolling_every_die_in_use():
    for board, arrows in (("desert", False), ("jungle", True)):
        s = R.new_game(3, 2, board)
        assert (s.phase, s.turn, len(s.rolled), s.kept, s.rolls) == (Phase.ROLL, 1, 4, (), 1)
        assert (s.arrow_die is not None) is arrows and not s.arrow_aside
        after = s
        while after.turn == 1:
            after = R.apply(after, after.seat, R.legal_actions(after, after.seat)[-1])
        assert len(after.rolled) == 4 and after.kept == () and after.phase is Phase.ROLL


def test_RR4_1_the_rolls_are_fair_and_fixed_by_the_seed():
    faces = Counter(f for n in range(3000) for f in R.roll_dice(5, n, 4, False)[0])
    assert set(faces) == set(R.FOOTPRINT_FACES)
    assert all(1800 < k < 2200 for k in faces.values())  # 2000 each on average
    arrows = Counter(R.roll_dice(5, n, 1, True)[1] for n in range(3000))
    assert set(arrows) == {0, 1, 2} and all(900 < k < 1100 for k in arrows.values())
    assert R.roll_dice(5, 7, 3, True) == R.roll_dice(5, 7, 3, True)
    assert len({R.roll_dice(5, n, 4, True) for n in range(50)}) > 30


def _rolled(dice: str, board: str = "desert", **keys: str) -> R.RaceState:
    extra = "".join(f"{k.replace('_', ' ')}: {v}\n" for k, v in keys.items())
    return position(f"race: {board}, 2 seats\n  0  B G O P Y\nrolled: {dice}\n{extra}")


def test_RR4_2_one_or_more_dice_just_rolled_are_set_aside_by_face():
    s = _rolled("OOBT")
    assert acts(s) == ["keep B", "keep O", "keep T", "keep BO", "keep BT", "keep OO",
                       "keep OT", "keep BOO", "keep BOT", "keep OOT", "keep BOOT"]
    with pytest.raises(IllegalActionError):
        R.apply(s, 0, Keep(()))
    with pytest.raises(IllegalActionError):
        R.apply(s, 0, Keep((Face.G,)))


def test_RR4_2_the_others_are_rolled_again_and_a_die_set_aside_never_is():
    s = _rolled("OOBT")
    after = play(s, "keep OT")
    assert after.kept == (Face.O, Face.T) and len(after.rolled) == 2
    assert after.rolls == s.rolls + 1 and after.phase is Phase.ROLL
    assert after.rolled == R.roll_dice(s.seed, s.rolls, 2, False)[0]
    again = play(after, f"keep {after.rolled[0].value}")
    assert Counter(again.kept) == Counter((Face.O, Face.T, after.rolled[0]))


def test_RR4_2_rolling_stops_when_all_four_are_set_aside_after_at_most_four_rolls():
    for seed in range(30):
        first_roll: dict[int, int] = {}  # turn -> the race's roll count after its first roll
        for state in random_race(seed, 2, ("desert", "jungle")[seed % 2]):
            first_roll.setdefault(state.turn, state.rolls)
            if state.phase is Phase.MOVE and not state.used:
                assert len(state.kept) == 4 and state.rolled == ()
                assert 1 <= state.rolls - first_roll[state.turn] + 1 <= 4
    s = _rolled("BGOP")
    for _ in range(3):  # keep one die after each roll: four rolls in all
        s = play(s, f"keep {s.rolled[0].value}")
    assert s.phase is Phase.ROLL and len(s.rolled) == 1
    assert play(s, f"keep {s.rolled[0].value}").phase is Phase.MOVE
    assert s.rolls == 4


def test_RR4_3_the_arrows_die_may_be_set_aside_with_footprint_dice_and_then_stays():
    s = _rolled("OOBT", "jungle", arrows="2")
    assert acts(s)[:4] == ["keep B", "keep B a", "keep O", "keep O a"]
    assert "keep BOOT a" not in acts(s)  # all kept: the arrows die goes aside as it lies
    aside = play(s, "keep O a")
    assert aside.arrow_aside and aside.arrow_die == 2 and len(aside.rolled) == 3
    assert all(not a.arrows for a in R.legal_actions(aside, 0))


def test_RR4_3_until_then_it_is_rolled_again_and_never_rolled_alone():
    s = _rolled("OOBT", "jungle", arrows="2")
    again = play(s, "keep O")
    assert not again.arrow_aside
    assert again.arrow_die == R.roll_dice(s.seed, s.rolls, 3, True)[1]
    last = _rolled("O", "jungle", arrows="1", kept="BGT")
    assert acts(last) == ["keep O"]  # never "keep O a", and no roll of the arrows die alone
    done = play(last, "keep O")
    assert done.phase is Phase.MOVE and done.arrow_aside and done.arrow_die == 1
    assert done.rolls == last.rolls


def test_RR4_3_the_arrows_die_never_counts_as_the_die_set_aside():
    s = _rolled("OOBT", "jungle", arrows="2")
    assert all(a.faces for a in R.legal_actions(s, 0))


def test_RR4_4_the_result_is_the_faces_set_aside_and_the_arrows():
    s = _rolled("BB", "jungle", arrows="2", arrows_aside="yes", kept="GT")
    result = play(s, "keep BB")
    assert result.phase is Phase.MOVE
    assert (result.kept, result.left, result.arrows_left) == (
        (Face.B, Face.B, Face.G, Face.T), (Face.B, Face.B, Face.G, Face.T), 2)
