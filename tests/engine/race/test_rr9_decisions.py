"""RR9 Decisions a program needs: what every view shows (RR9.1), what stays private and
cannot leak (RR9.2, with a non-interference test), the rolling and moving decisions and
their notation (RR9.3, RR9.4), and every choice made explicit (RR9.5)."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace

import pytest

import engine.race as R
from engine.game import RecordHeader
from engine.messages import Text
from engine.race import Face, Keep, Move, Phase, RaceView, Raptor, space
from engine.race.errors import (
    AmbiguousActionError,
    IllegalActionError,
    NotationError,
    RaceError,
    UnfinishedRaceError,
    WrongTurnError,
)
from engine.race.view import sample_state

from .helpers import acts, play, position, sampled_states

VIEW_FIELDS = {
    "viewer", "board", "seats", "first", "raptors", "turn", "seat", "phase", "to_act",
    "rolled", "kept", "used", "arrow_die", "arrow_aside", "arrows_used", "pending",
    "forfeited", "steps", "last_steps", "last_seat", "winner", "my_card", "cards",
    "placing", "scores",
}
SAMPLED = sampled_states(14, 6)


def test_RR9_1_the_view_has_exactly_the_documented_fields():
    # A tripwire: a new field must be reviewed for hidden information before it is added.
    assert {f.name for f in dataclasses.fields(RaceView)} == VIEW_FIELDS


def test_RR9_1_everything_on_the_table_is_in_every_view():
    s = play(position("""
        race: jungle, 3 seats
          4  . . O . .
          0  B G s P Y
        seat: 2
        phase: move
        kept: OOTY
        arrows: 2
        """), "O>C5")
    for seat in (None, 0, 1, 2):
        v = R.view(s, seat)
        assert (v.board, v.seats, v.first, v.turn, v.seat, v.phase) == (
            s.board, 3, 0, 1, 1, Phase.MOVE)
        assert v.raptors == s.raptors and v.to_act == {1}
        assert (v.kept, v.used, v.left) == (s.kept, (Face.O,), (Face.O, Face.Y, Face.T))
        assert (v.arrow_die, v.arrows_used, v.arrows_left) == (2, 0, 2)
        assert v.steps == (R.Step("O", Raptor.ORANGE, space("C4"), space("C5")),)
        assert v.forfeited == () and v.pending is None


def test_RR9_1_after_the_race_every_dealt_card_and_score():
    over = next(s for s in SAMPLED if s.is_over)
    for seat in (None, 0):
        v = R.view(over, seat)
        assert v.cards == over.cards and v.scores == R.card_scores(over)
        assert v.placing == R.placing(over.raptors, over.winner)


def test_RR9_2_a_seat_sees_its_own_card_only_and_the_public_none():
    s = R.new_game(7, 4, "desert")
    for seat in range(4):
        v = R.view(s, seat)
        assert v.my_card == s.cards[seat] and v.cards is None and v.scores is None
    public = R.view(s, None)
    assert (public.my_card, public.cards, public.scores) == (None, None, None)
    with pytest.raises(R.OptionError):
        R.view(s, 4)


def _redealt(state: R.RaceState, seat: int, rng: random.Random) -> R.RaceState:
    """``state`` with every other seat's card dealt again, consistent with ``seat``'s view:
    distinct cards, none of them the seat's own."""
    pool = [c for c in R.CARDS if c != state.cards[seat]]
    others = rng.sample(pool, state.seats - 1)
    cards = tuple(state.cards[seat] if s == seat else others.pop() for s in range(state.seats))
    return replace(state, cards=cards)


PROBES = ("keep T", "keep all", "keep B a", "k oot", "O>B4", "O", "T", "TG", "+Y", "+Y>D6",
          "B-", "T-", "C5", "keep", "", "hello", "O>Z9", "forfeit")


def text_form(message: object) -> object:
    """A message as the bot would translate it: a Text's id and parameters."""
    return message.to_dict() if isinstance(message, Text) else str(message)


def _answers(state: R.RaceState, seat: int) -> list:
    """Everything a seat can get from its own entries: the action chosen, or the error's
    class and message with its parameters (what the bot translates)."""
    out = []
    entries = [R.format_action(a) for a in R.legal_actions(state, seat)] + list(PROBES)
    for entry in entries:
        try:
            out.append(("ok", R.parse_action(entry, state, seat)))
        except RaceError as exc:
            out.append((type(exc).__name__, text_form(exc.args[0])))
    return out


def test_RR9_2_non_interference_other_cards_change_nothing_a_seat_can_see_or_get():
    rng = random.Random(4)
    checked = 0
    for s in SAMPLED:
        if s.is_over:
            continue
        for seat in range(s.seats):
            t = _redealt(s, seat, rng)
            assert R.view(t, seat) == R.view(s, seat)
            assert R.view(t, None) == R.view(s, None)
            assert R.legal_actions(t, seat) == R.legal_actions(s, seat)
            assert _answers(t, seat) == _answers(s, seat)
            checked += t.cards != s.cards
    assert checked > 600  # the cards really differed, in hundreds of positions


def test_RR9_2_the_converse_a_seats_own_card_is_in_its_view():
    # so that the test above cannot pass by leaving the cards out altogether
    s = R.new_game(3, 3, "jungle")
    other = next(c for c in R.CARDS if c not in s.cards)
    t = replace(s, cards=(other, *s.cards[1:]))
    assert R.view(t, 0) != R.view(s, 0)
    assert R.view(t, 1) == R.view(s, 1) and R.view(t, None) == R.view(s, None)


def test_RR9_2_no_record_of_an_unfinished_race():
    s = R.new_game(3, 3, "desert")
    log = [(s.seat, R.legal_actions(s, s.seat)[0])]
    with pytest.raises(UnfinishedRaceError):
        R.write_record(3, 3, "desert", log, RecordHeader())


def test_RR9_2_sample_state_keeps_the_view_and_draws_the_other_cards():
    rng = random.Random(8)
    for s in SAMPLED:
        for seat in range(s.seats):
            v = R.view(s, seat)
            t = sample_state(v, rng)
            assert R.view(t, seat) == v
            assert R.legal_actions(t, seat) == R.legal_actions(s, seat)
            assert t.cards[seat] == s.cards[seat] and len(set(t.cards)) == s.seats
    with pytest.raises(R.OptionError):
        sample_state(R.view(SAMPLED[0], None), rng)


# --- RR9.3 the rolling decision
def _rolled(dice: str, board: str = "jungle", **keys: str) -> R.RaceState:
    extra = "".join(f"{k.replace('_', ' ')}: {v}\n" for k, v in keys.items())
    return position(f"race: {board}, 2 seats\n  0  B G O P Y\nrolled: {dice}\n{extra}")


def test_RR9_3_keep_names_the_faces_and_a_the_arrows_die():
    s = _rolled("OOTB", arrows="1")
    assert R.parse_action("keep OOT a", s, 0) == Keep((Face.O, Face.O, Face.T), True)
    assert R.parse_action("keep OOT", s, 0) == Keep((Face.O, Face.O, Face.T))
    for typed in ("KEEP o o t A", "k OTO a", "keep OOTa", "keep oot arrows", "ｋｅｅｐ　ＯＯＴ　ａ",
                  "留 橙橙暴龍 箭頭"):
        assert R.parse_action(typed, s, 0) == Keep((Face.O, Face.O, Face.T), True), typed
    assert R.format_action(Keep((Face.O, Face.O, Face.T), True)) == "keep OOT a"


def test_RR9_3_keeping_every_die_left_ends_the_rolling_and_implies_the_arrows_die():
    s = _rolled("OOTB", arrows="1")
    everything = Keep((Face.B, Face.O, Face.O, Face.T))
    assert R.parse_action("keep all", s, 0) == everything
    assert R.parse_action("keep BOOT a", s, 0) == everything  # RR9.5: 'a' is implied
    assert play(s, "keep all").phase is Phase.MOVE


def test_RR9_3_refusals_say_what_was_rolled():
    s = _rolled("OOTB", arrows="1")
    with pytest.raises(IllegalActionError, match="the dice just rolled are BOOT"):
        R.parse_action("keep GG", s, 0)
    with pytest.raises(IllegalActionError, match="no arrows die on the Desert"):
        R.parse_action("keep O a", _rolled("OOTB", "desert"), 0)
    with pytest.raises(NotationError, match="needs the dice"):
        R.parse_action("keep", s, 0)
    with pytest.raises(NotationError, match="not race notation"):
        R.parse_action("keep XYZ", s, 0)
    with pytest.raises(IllegalActionError, match="set dice aside first"):
        R.parse_action("O>C1", s, 0)


# --- RR9.4 the moving decisions
MOVE = """
    race: jungle, 3 seats
      3  . . # . .
      2  ^ . O . #
      0  B G s P Y
    phase: move
    kept: OGTT
    arrows: 1
    """


def test_RR9_4_a_die_by_face_and_an_end_space():
    s = position(MOVE)
    assert acts(s) == ["G>A1", "G>B1", "G>C1", "O>B2", "O>D2", "O>B3", "O>D3", "TO>B1",
                       "TO>C1", "TO>D1"]
    assert R.parse_action("O>B2", s, 0) == Move(Face.O, Raptor.ORANGE, space("B2"))
    assert R.parse_action("to>c1", s, 0) == Move(Face.T, Raptor.ORANGE, space("C1"))
    assert R.parse_action("O -> D3", s, 0) == Move(Face.O, Raptor.ORANGE, space("D3"))
    assert R.parse_action("橙>B3", s, 0) == Move(Face.O, Raptor.ORANGE, space("B3"))


def test_RR9_4_a_part_only_one_action_fits_may_be_left_out():
    s = position(MOVE)
    assert R.parse_action("B3", s, 0) == Move(Face.O, Raptor.ORANGE, space("B3"))
    assert R.parse_action("G>B1", s, 0) == R.parse_action("G B1", s, 0)
    with pytest.raises(AmbiguousActionError, match="fits 3 legal actions: TO>B1, TO>C1, TO>D1"):
        R.parse_action("TO", s, 0)
    with pytest.raises(AmbiguousActionError, match="G>A1, G>B1, G>C1"):
        R.parse_action("G", s, 0)


def test_RR9_4_refusals_say_why_and_what_is_legal():
    s = position(MOVE)
    with pytest.raises(IllegalActionError, match="O may step to B2, D2, B3, D3 only"):
        R.parse_action("O>C3", s, 0)
    with pytest.raises(IllegalActionError, match="no B die is left"):
        R.parse_action("B>A1", s, 0)
    with pytest.raises(IllegalActionError, match="the rolling is over"):
        R.parse_action("keep T", s, 0)
    with pytest.raises(IllegalActionError, match="no booster is waiting"):
        R.parse_action("+Y>E1", s, 0)
    with pytest.raises(IllegalActionError, match="can move a raptor, so it must"):
        R.parse_action("O-", s, 0)
    with pytest.raises(WrongTurnError, match="seat 1 is playing"):
        R.parse_action("O>B2", s, 1)
    with pytest.raises(NotationError, match="not a space"):
        R.parse_action("O>B77", s, 0)


def test_RR9_4_a_pending_booster_offers_only_its_steps():
    s = play(position("""
        race: desert, 2 seats
          3  . . O . .
          0  B G s P Y
        phase: move
        kept: OGGG
        """), "O>C4")
    assert acts(s) == ["+B>A1", "+G>B1", "+P>D1", "+Y>E1"]
    with pytest.raises(IllegalActionError, match="the booster under O comes first"):
        R.parse_action("G>B1", s, 0)
    with pytest.raises(IllegalActionError, match="another raptor than the one on it"):
        R.parse_action("+O>C5", s, 0)
    assert R.parse_action("+y", s, 0) == R.Boost(Raptor.YELLOW, space("E1"))


def test_RR9_4_a_die_that_can_move_nothing_is_used_with_no_step():
    s = _rolled("TTTT", "desert")
    s = play(s, "keep TTTT")
    assert acts(s) == ["T-"] and R.parse_action("t -", s, 0) == R.NoStep(Face.T)


def test_RR9_5_every_choice_is_a_decision_even_a_single_one():
    s = _rolled("O", "desert", kept="BGT")
    assert acts(s) == ["keep O"]  # the last die: still a decision the seat makes
    after = play(s, "keep O")
    assert after.phase is Phase.MOVE and R.to_act(after) == {0}


def test_RR9_4_every_legal_action_round_trips_through_its_notation():
    for s in SAMPLED:
        for a in R.legal_actions(s, s.seat):
            text = R.format_action(a)
            assert R.parse_action(text, s, s.seat) == a
            assert R.action_from_notation(text) == a and str(a) == text
            assert eval(repr(a), vars(R)) == a  # repr pastes back
            assert R.action_from_dict(R.action_to_dict(a)) == a
