"""Raptor Race's controls as built, without a client: the keep menu's options and what
they send (RR4.2, RR4.3, RR9.3), and the steps grouped by die when they do not fit one menu
(RR5.1, RR9.4). Every custom id starts with ``race:``."""

from __future__ import annotations

from dataclasses import replace

import engine.race as race
from bot.games.race.ui import components
from bot.match import Match, MatchStatus, Player
from engine.race import Face, Phase, RaceState

STATE = race.new_game(99, 3, "jungle")


def match_of(state: RaceState, version: int = 4) -> Match:
    players = (Player(0, 100), Player(1, 200), Player(2, 300))
    return Match(id=7, game="race", guild_id=1, channel_id=10, players=players, seed=99,
                 options={"board": "jungle"}, status=MatchStatus.ACTIVE, state=state,
                 version=version, created_at=0.0, updated_at=0.0, last_activity=0.0,
                 deadline_at=None, reminded=False, reason=None, draw_offered_by=None,
                 rematch_of=None)


def custom_ids(items) -> list[str]:
    return [item.custom_id for item in items]


def test_the_keep_menu_lists_each_die_rolled_and_the_arrows_die():
    state = STATE
    assert state.phase is Phase.ROLL and state.arrow_die is not None
    options = components.keep_options(state)
    assert [o.value for o in options] == [*map(str, range(len(state.rolled))), "a"]
    assert [o.description for o in options[:-1]] == [f.value for f in state.rolled]
    items = components.turn_items(match_of(state), state.seat)
    assert custom_ids(items) == ["race:m:7:v:4:keep", "race:m:7:v:4:keep:all"]
    assert items[0].item.max_values == len(options) and items[0].item.min_values == 1


def test_what_the_keep_menu_sends_becomes_the_keep_notation_or_nothing():
    state = replace(STATE, rolled=(Face.G, Face.G, Face.P, Face.T))
    assert components.keep_notation(state, ["0"]) == "keep G"
    assert components.keep_notation(state, ["3", "0", "a"]) == "keep TG a"
    assert components.keep_notation(state, None) == "keep all"
    for bad in ([], ["a"], ["4"], ["0", "0"], ["01"], ["-1"], ["x"], ["", "0"]):
        assert components.keep_notation(state, bad) is None, bad


def test_steps_that_do_not_fit_one_menu_are_grouped_by_die(monkeypatch):
    state = race.apply(STATE, STATE.seat, race.Keep(STATE.rolled))
    assert state.phase is Phase.MOVE
    legal = race.legal_actions(state, state.seat)
    m = match_of(state)
    items = components.turn_items(m, state.seat)
    assert custom_ids(items) == ["race:m:7:v:4:do", "race:m:7:v:4:undo"]
    assert [o.value for o in items[0].item.options] == [race.format_action(a) for a in legal]
    monkeypatch.setattr(components, "MAX_OPTIONS", 2)
    items = components.turn_items(m, state.seat)
    assert custom_ids(items) == ["race:m:7:v:4:grp", "race:m:7:v:4:undo"]
    keys = [o.value for o in items[0].item.options]
    assert keys == list(dict.fromkeys(components.group_key(a) for a in legal))
    shown = []
    for key in keys:
        view, title = components.group_view(m, state.seat, key)
        assert title.startswith("**The ")
        for menu in view.children:
            assert menu.custom_id.startswith("race:m:7:v:4:do:")
            shown += [o.value for o in menu.item.options]
    assert shown == [race.format_action(a) for a in legal]
    assert components.group_view(m, state.seat, "nope") is None
