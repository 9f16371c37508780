"""Raptor Race through the platform's protocol (engine.game.Game): RACE."""

from __future__ import annotations

import pytest

import engine.race as R
from engine.game import Game, OptionSpec, RecordHeader
from engine.race import RACE, Phase

from .helpers import play, position


def test_race_is_a_game():
    assert isinstance(RACE, Game)
    assert (RACE.name, RACE.min_seats, RACE.max_seats) == ("race", 2, 5)
    assert RACE.options == (OptionSpec("board", ("desert", "jungle"), "desert"),)


def test_new_game_reads_its_options():
    assert RACE.new_game(1, 3, {}).board is R.Board.DESERT
    assert RACE.new_game(1, 3, {"board": "jungle"}).board is R.Board.JUNGLE
    with pytest.raises(ValueError, match="cannot be 'moon'"):
        RACE.new_game(1, 3, {"board": "moon"})
    with pytest.raises(ValueError, match="unknown option"):
        RACE.new_game(1, 3, {"environment": "jungle"})
    with pytest.raises(ValueError, match="2 to 5 players"):
        RACE.new_game(1, 6, {})


def test_actions_and_states_through_json():
    s = RACE.new_game(2, 4, {"board": "jungle"})
    for a in RACE.legal_actions(s, s.seat):
        assert RACE.action_from_json(RACE.action_to_json(a)) == a
    assert RACE.action_from_json(RACE.action_to_json(R.Forfeit())) == R.Forfeit()
    assert RACE.action_to_json(R.Keep((R.Face.O, R.Face.T), True)) == (
        '{"kind":"keep","faces":"OT","arrows":true}')
    for bad in ('{"kind":"keep","faces":"TO","arrows":true}', '{"kind":"fly"}', "[1]", "{",
                '{"kind":"move","die":"O","raptor":"B","to":"B4"}'):
        with pytest.raises(ValueError):
            RACE.action_from_json(bad)
    assert RACE.state_from_json(RACE.state_to_json(s)) == s


def test_a_whole_turn_is_one_turn_of_the_clock():
    s = RACE.new_game(5, 3, {})
    key = RACE.turn(s, s.seat)
    turn = s.turn
    while s.turn == turn:
        assert RACE.turn(s, s.seat) == key == ("turn", turn)
        s = RACE.apply(s, s.seat, RACE.legal_actions(s, s.seat)[0])
    assert RACE.turn(s, s.seat) != key


def test_only_actions_without_chance_may_be_undone():
    rolled = position("race: desert, 2 seats\n  0  B G O P Y\nrolled: BGOT\n")
    reroll = play(rolled, "keep B")
    assert not RACE.may_undo(rolled, reroll, 0)  # it rolled the other dice
    all_kept = play(rolled, "keep BGOT")
    assert RACE.may_undo(rolled, all_kept, 0)  # keeping every die left rolls nothing
    step = play(all_kept, "B>A1")
    assert RACE.may_undo(all_kept, step, 0)
    last = play(step, "G>B1", "O>C1")
    end = play(last, "TB>A0")
    assert end.seat != 0 and not RACE.may_undo(last, end, 0)  # the next turn's roll
    assert not RACE.may_undo(all_kept, step, 1)


def test_forfeit_through_the_protocol():
    s = RACE.new_game(4, 3, {})
    after = RACE.forfeit(s, s.seat)
    assert after.forfeited == (s.seat,) and after.seat != s.seat
    assert RACE.forfeit(RACE.forfeit(after, (s.seat + 1) % 3), (s.seat + 2) % 3) is None
    log = [(s.seat, R.Forfeit())]
    assert RACE.replay(4, 3, {}, log) == after
    with pytest.raises(ValueError, match="cannot leave"):
        RACE.replay(4, 3, {}, log + log)


def test_records_through_the_protocol():
    s = RACE.new_game(9, 2, {"board": "jungle"})
    log = []
    while not RACE.is_over(s):
        a = RACE.legal_actions(s, s.seat)[-1]
        log.append((s.seat, a))
        s = RACE.apply(s, s.seat, a)
    text = RACE.write_record(9, 2, {"board": "jungle"}, log,
                             RecordHeader(event="Race #1", players=("Ann", "Bo")))
    rec = RACE.read_record(text)
    assert rec.final == s and rec.players == ("Ann", "Bo") and rec.board is R.Board.JUNGLE
    assert RACE.outcome(s).places == RACE.outcome(rec.final).places
    assert RACE.view(s, None).phase is Phase.OVER and RACE.is_over(rec.final)
