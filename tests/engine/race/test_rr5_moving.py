"""RR5 Moving: every die used once, steps and free spaces, colour dice, blocked steps that
turn sideways, T-Rex dice, boosters and their chains, arrows and when they are compulsory.

Positions are diagrams (engine.race.diagram) that list only the rows that matter; the
raptors not in play wait on row 0."""

from __future__ import annotations

from itertools import combinations

import pytest

import engine.race as R
from engine.race import Board, Face, Move, NoStep, Phase, Raptor, Track, space
from engine.race.errors import IllegalActionError
from engine.race.predicates import arrows_compulsory, back_steps, forward_steps, is_free
from engine.race.track import Obstacle, at

from .helpers import acts, play, position, where


def jungle(rows: str, kept: str, arrows: int = 0, **keys: str) -> R.RaceState:
    extra = "".join(f"{k.replace('_', ' ')}: {v}\n" for k, v in keys.items())
    return position(f"race: jungle, 3 seats\n{rows}\nphase: move\nkept: {kept}\n"
                    f"arrows: {arrows}\n{extra}")


def desert(rows: str, kept: str, **keys: str) -> R.RaceState:
    extra = "".join(f"{k.replace('_', ' ')}: {v}\n" for k, v in keys.items())
    return position(f"race: desert, 3 seats\n{rows}\nphase: move\nkept: {kept}\n{extra}")


def by(state: R.RaceState, die: str) -> list[str]:
    """The legal actions that use a die of face ``die`` (or the booster, ``+``)."""
    return [a for a in acts(state) if a[0] == die]


# --- RR5.1 every die, once each
def test_RR5_1_every_die_of_the_result_is_used_once_in_any_order():
    s = desert("  0  B G O P Y", "BGOT")
    assert {a[0] for a in acts(s)} == {"B", "G", "O", "T"}
    after = play(s, "O>C1", "B>A1", "G>B1")
    assert after.left == (Face.T,) and after.used == (Face.O, Face.B, Face.G)
    done = play(after, "TB>A0")
    assert done.turn == s.turn + 1 and done.phase is Phase.ROLL  # the turn is over


def test_RR5_1_a_die_that_moves_nothing_is_used_up_with_no_step():
    s = desert("  0  B G O P Y", "TTTT")  # nothing steps back out of row 0
    assert acts(s) == ["T-"]
    after = play(s, "T-")
    assert after.left == (Face.T, Face.T, Face.T) and after.steps == (R.Step("T"),)
    with pytest.raises(IllegalActionError):  # a die that can move something must
        R.apply(desert("  1  B . . . .\n  0  s G O P Y", "TTTT"), 0, NoStep(Face.T))


def test_RR5_1_an_illegal_step_is_refused_with_the_legal_ones():
    s = desert("  0  B G O P Y", "BGOT")
    with pytest.raises(IllegalActionError, match="legal: B>A1"):
        R.apply(s, 0, Move(Face.B, Raptor.BLUE, space("A2")))
    assert R.apply(s, 0, Move(Face.B, Raptor.BLUE, space("A1"))).used == (Face.B,)


# --- RR5.2 steps end on free spaces
def test_RR5_2_a_step_ends_on_a_free_space_only_the_end_space_matters():
    # blue on B3, the rock C3 beside it, purple ahead on B4: the diagonal to C4 slips
    # between them
    s = jungle("  4  . P . . .\n  3  . B # . .\n  0  s G O s Y", "BGGG", arrows=1)
    assert by(s, "B") == ["B>A3", "B>A4", "B>C4"]  # sideways (B4 taken), two diagonals
    assert is_free(s.track, s.raptors, space("C4"))
    assert not is_free(s.track, s.raptors, space("C3"))  # the rock
    assert not is_free(s.track, s.raptors, space("B4"))  # purple


# --- RR5.3 colour dice
def test_RR5_3_a_colour_die_moves_its_own_raptor_one_space_forward():
    s = desert("  2  . . O . .\n  0  B G s P Y", "OOGY")
    assert by(s, "O") == ["O>C3"] and by(s, "G") == ["G>B1"] and by(s, "Y") == ["Y>E1"]
    assert where(play(s, "O>C3", "O>C4", "+B>A1"))["O"] == "C4"


# --- RR5.4 blocked steps
def test_RR5_4_a_blocked_forward_step_turns_sideways_either_way_the_player_picks():
    s = jungle("  2  ^ . O . #\n  0  B G s P Y", "OGGG")  # the rock C3 ahead of orange
    assert by(s, "O") == ["O>B2", "O>D2"]
    assert where(play(s, "O>D2"))["O"] == "D2"


def test_RR5_4_only_to_a_free_neighbour_else_the_raptor_stays_and_the_die_is_used():
    one = jungle("  2  ^ P O . #\n  0  B G s s Y", "OGGG")
    assert by(one, "O") == ["O>D2"]
    none = jungle("  2  ^ P O Y #\n  0  B G s s s", "OGGG")
    assert by(none, "O") == ["O-"]
    after = play(none, "O-")
    assert where(after)["O"] == "C2" and after.left == (Face.G, Face.G, Face.G)


def test_RR5_4_blocked_for_that_step_only_the_raptor_moves_again_later():
    s = jungle("  2  ^ . O . #\n  0  B G s P Y", "OOGG")
    after = play(s, "O>D2")
    assert by(after, "O") == ["O>D3"]  # straight ahead of D2 is free
    assert where(play(after, "O>D3"))["O"] == "D3"


def test_RR5_4_the_desert_has_no_sideways_step_and_never_blocks():
    for seed in range(40):
        s = R.new_game(seed, 3, "desert")
        while not s.is_over:
            for a in R.legal_actions(s, s.seat):
                if isinstance(a, (Move, R.Boost)):
                    assert a.to % 5 == s.raptors[a.raptor.index] % 5  # its own lane
                assert not (isinstance(a, NoStep) and a.die is not Face.T), a
            s = R.apply(s, s.seat, R.legal_actions(s, s.seat)[-1])


# --- RR5.5 T-Rex dice
def test_RR5_5_a_t_rex_die_moves_a_raptor_of_the_players_choice_back():
    s = desert("  5  . G . . .\n  2  B . . P .\n  0  s s O s Y", "TTBB")
    assert by(s, "T") == ["TB>A1", "TG>B4", "TP>D1"]  # O and Y stand on row 0
    twice = play(s, "TG>B4", "TG>B3", "+Y>E1")  # B3 is a booster
    assert where(twice)["G"] == "B3"  # several T-Rex dice may go to one raptor
    spread = play(s, "TB>A1", "TP>D1")
    assert (where(spread)["B"], where(spread)["P"]) == ("A1", "D1")


def test_RR5_5_only_a_raptor_with_a_free_space_behind_and_never_sideways():
    # orange on B6 has the tree B5 behind it; without an arrow it cannot step back
    s = jungle("  6  . O . . .\n  0  B G s P Y", "TGGG")
    assert by(s, "T") == ["T-"]
    assert back_steps(s.track, s.raptors, space("B6"), 0, 3) == ()
    with_arrow = jungle("  6  . O . . .\n  0  B G s P Y", "TGGG", arrows=1)
    assert by(with_arrow, "T") == ["TO>A5", "TO>C5"]  # diagonally, round the tree


# --- RR5.6 boosters
def test_RR5_6_a_step_ending_on_a_booster_gives_another_raptor_a_step_first():
    s = desert("  3  . . O . .\n  0  B G s P Y", "OGGG")
    on = play(s, "O>C4")  # C4 is a booster
    assert on.pending is Raptor.ORANGE
    assert acts(on) == ["+B>A1", "+G>B1", "+P>D1", "+Y>E1"]  # not orange, and no die yet
    with pytest.raises(IllegalActionError, match="booster"):
        R.parse_action("G>B1", on, on.seat)
    after = play(on, "+Y>E1")
    assert after.pending is None and by(after, "G") == ["G>B1"]


def test_RR5_6_any_kind_of_step_activates_and_boosters_chain():
    # the T-Rex sends blue back onto the D3 booster; yellow's boosted step lands on E2,
    # another booster, which resolves next
    s = desert("  4  . . . B .\n  1  . . . . Y\n  0  s G O P s", "TGGG")
    after = play(s, "TB>D3")
    assert after.pending is Raptor.BLUE
    chained = play(after, "+Y>E2")
    assert chained.pending is Raptor.YELLOW
    assert "+B>D4" in acts(chained) and "+Y>E3" not in acts(chained)
    done = play(chained, "+O>C1")
    assert done.pending is None and [x.by for x in done.steps] == ["T", "+", "+"]


def test_RR5_6_a_sideways_step_onto_a_booster_activates_it():
    s = jungle("  7  # Y . . ^\n  6  . B . . .\n  0  s G O P s", "BGGG")  # yellow ahead
    assert by(s, "B") == ["B>A6", "B>C6"]
    assert play(s, "B>C6").pending is Raptor.BLUE  # sideways onto the C6 booster


def test_RR5_6_staying_put_or_beginning_on_a_booster_activates_nothing():
    start = desert("  4  . . O . .\n  0  B G s P Y", "TGGG")  # orange begins on C4
    assert start.pending is None and by(start, "G") == ["G>B1"]
    stays = jungle("  2  ^ P O Y #\n  0  B G s s s", "OGGG")
    assert play(stays, "O-").pending is None


def _four_stuck(t: Track, b: int, row: int, stuck: tuple[int, ...]) -> bool:
    """Whether raptors can be added on ``row`` and below to ``stuck`` (raptors above) so
    that four raptors besides the one on ``b`` have no forward step at all (no arrow:
    straight ahead or sideways). Exhaustive, rows from the top down: each raptor's space
    ahead must be blocked by an obstacle, the raptor on ``b`` or one placed above it."""
    taken = (b, *stuck)
    if len(stuck) == 4:
        return not any(forward_steps(t, taken, sp, 0, 0) for sp in stuck)
    if row < 0:
        return False
    lanes = [at(lane, row) for lane in range(5)
             if at(lane, row) not in t.obstacles and at(lane, row) != b
             and not is_free(t, taken, at(lane, row + 1))]
    return any(_four_stuck(t, b, row - 1, stuck + extra)
               for k in range(min(4 - len(stuck), len(lanes)) + 1)
               for extra in combinations(lanes, k))


def _some_booster_can_be_lost(t: Track, boosters) -> bool:
    """Whether a raptor can end a step on one of ``boosters`` with no other raptor able
    to take a forward step (:func:`_four_stuck`)."""
    return any(_four_stuck(t, b, t.rows - 1, ()) for b in boosters)


def test_RR5_6_on_our_jungle_no_booster_can_ever_be_lost():
    # RR2.6 keeps boosters and obstacles apart: four raptors are never all stuck at once
    # (on the Desert nothing is ever blocked, RR5.4)
    assert not _some_booster_can_be_lost(R.TRACKS[Board.JUNGLE],
                                         R.TRACKS[Board.JUNGLE].boosters)


def test_RR5_6_a_booster_no_other_raptor_can_use_is_lost(monkeypatch):
    # The ruling on a test track that walls row 1 in (rocks on A2-D2 and E1): blue, green,
    # orange and purple on A1-D1 cannot step, so yellow reaching C6 gets nothing.
    walled = Track(board=Board.JUNGLE, rows=12, arrows=True, name="walled",
                   boosters=frozenset({space("C6")}),
                   obstacles={space(n): Obstacle.ROCK for n in "A2 B2 C2 D2 E1".split()})
    monkeypatch.setitem(R.TRACKS, Board.JUNGLE, walled)
    assert _some_booster_can_be_lost(walled, walled.boosters)
    s = R.RaceState(
        seed=0, board=Board.JUNGLE, seats=2, cards=(1, 2), first=0,
        raptors=tuple(space(n) for n in "A1 B1 C1 D1 C5".split()), turn=1, seat=0,
        phase=Phase.MOVE, rolls=1, rolled=(), kept=(Face.Y, Face.T), arrow_die=0,
        arrow_aside=True, used=(), arrows_used=0, pending=None, forfeited=(), winner=None,
        steps=(), last_steps=(), last_seat=None)
    after = play(s, "Y>C6")
    assert after.pending is None and after.steps[-1] == R.Step("+")  # lost, no decision
    assert after.left == (Face.T,)


# --- RR5.7 arrows
def test_RR5_7_an_arrow_turns_a_forward_or_back_step_diagonal_sideways_spend_none():
    s = jungle("  2  ^ . O . #\n  0  B G s P Y", "OTGG", arrows=1)
    assert by(s, "O") == ["O>B2", "O>D2", "O>B3", "O>D3"]
    sideways, diagonal = play(s, "O>B2"), play(s, "O>B3")
    assert (sideways.arrows_left, diagonal.arrows_left) == (1, 0)
    assert by(s, "T") == ["TO>B1", "TO>C1", "TO>D1"]


def test_RR5_7_boosters_take_diagonals_too_and_the_desert_has_no_arrows():
    s = jungle("  5  . ^ O # .\n  3  . B # . .\n  0  s G s P Y", "OGGG", arrows=1)
    on = play(s, "O>C6")  # the C6 booster; three dice left, one arrow: not compulsory
    assert by(on, "+")[:3] == ["+B>A4", "+B>B4", "+B>C4"]
    assert play(on, "+B>C4").arrows_left == 0 and play(on, "+B>B4").arrows_left == 1
    d = desert("  3  . . O . .\n  0  B G s P Y", "OGGG")
    assert d.arrow_die is None and d.arrows_left == 0
    assert forward_steps(d.track, d.raptors, space("C3"), 0, 3) == (space("C4"),)


# --- RR5.8 compulsory arrows
def test_RR5_8_arrows_are_compulsory_when_they_outnumber_the_dice_left():
    assert arrows_compulsory(2, 1) and not arrows_compulsory(1, 1)
    assert arrows_compulsory(1, 0) and not arrows_compulsory(0, 0)
    # two arrows, two dice left: the orange step has one die after it, 2 > 1: diagonal
    forced = jungle("  1  . . O . .\n  0  B G s P Y", "OGTT", arrows=2, used="TT")
    assert by(forced, "O") == ["O>B2", "O>D2"]
    # one arrow, two dice left: 1 > 1 is false, so straight is allowed too
    free = jungle("  1  . . O . .\n  0  B G s P Y", "OGGG", arrows=1, used="GG")
    assert by(free, "O") == ["O>B2", "O>C2", "O>D2"]
    # four dice, two arrows: 2 > 3 is false
    assert by(jungle("  1  . . O . .\n  0  B G s P Y", "OGTT", arrows=2), "O") == [
        "O>B2", "O>C2", "O>D2"]


def test_RR5_8_a_booster_step_counts_every_die_left_unlike_a_die_step():
    # one arrow, one die (G) left: the booster's step has that die after it (not
    # compulsory), the G die's own step none (compulsory)
    s = jungle("  6  . . O . .\n  3  . B # . .\n  1  . G . . .\n  0  s s s P Y", "OGGG",
               arrows=1, used="OGG", pending="O")
    assert by(s, "+")[:3] == ["+B>A4", "+B>B4", "+B>C4"]
    after = play(s, "+B>B4")
    assert by(after, "G") == ["G>C2"]  # green must go diagonally (A2 is a tree)


def test_RR5_8_no_duty_when_no_diagonal_is_free():
    s = jungle("  9  . . ^ . Y\n  8  . . . O .\n  0  B G s P s", "OGGG", arrows=2,
               used="GG")  # orange D8: diagonals C9 (the tree) and E9 (yellow)
    assert by(s, "O") == ["O>D9"]


def test_RR5_8_arrows_left_at_the_end_are_lost():
    s = jungle("  1  . . O . .\n  0  B G s P Y", "OGGG", arrows=2, used="GGG")
    assert s.arrows_left == 2 and by(s, "O") == ["O>B2", "O>D2"]
    after = play(s, "O>B2")  # one arrow spent, the other lost with the end of the turn
    assert after.turn == s.turn + 1 and after.phase is Phase.ROLL
    assert after.last_steps[-1] == R.Step("O", Raptor.ORANGE, space("C1"), space("B2"))
