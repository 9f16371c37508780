"""A race played again from its log: its state at the start of each turn
(:func:`turn_states`), and its animation (:func:`race_animation`), for the demo and
``python -m bot replay``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import engine.race as race
from engine.game import Seat
from engine.race import RACE, LogEntry, RaceState

from ...match import Match, MatchService, replays
from ...texts import plain
from .texts import result_headline


def turn_states(seed: int, seats: int, options: Mapping[str, str],
                log: Iterable[tuple[Seat, LogEntry | None]]) -> list[RaceState]:
    """The race's states at its start (the first roll made) and at the start of each next
    turn, the last one where it stopped: the finish (RR6.1), or the position a race ended
    outside the game was left in. ``log``: the platform's ``(seat, action)`` steps, a None
    action a seat's forfeit (RR3.6)."""
    state = RACE.new_game(seed, seats, options)
    out = [state]
    for seat, action in log:
        before = state
        state = (race.forfeit(state, seat) if action is None
                 else race.apply(state, seat, action))
        if state is None:  # no seat left: the platform ended the race there (RR3.7)
            state = before
            break
        if state.turn != before.turn or state.is_over:
            out.append(state)
    if out[-1] is not state:
        out.append(state)
    return out


async def race_animation(service: MatchService, match: Match, *,
                         byte_limit: int | None = None, tr: Callable[[Any], str] = str):
    """The animation of the finished race ``match`` (:func:`render.race.replay.
    render_race_replay`: a frame per turn), at most ``byte_limit`` bytes (default
    :data:`render.animation.DEFAULT_BYTE_LIMIT`), its texts in ``tr``'s language; a race ended
    outside the game ends on its last position under the verdict.

    Raises:
        render.animation.ReplayError: the limit is too small even for two small frames.
    """
    from render.animation import DEFAULT_BYTE_LIMIT
    from render.race.replay import render_race_replay  # the renderer is heavy

    states = turn_states(match.seed, match.seats, match.options,
                         await replays.match_actions(service, match))
    views = [race.view(s, None) for s in states]
    verdict = None if states[-1].is_over else plain(tr(result_headline(match)))
    return render_race_replay(views, verdict=verdict, tr=tr,
                              byte_limit=DEFAULT_BYTE_LIMIT if byte_limit is None
                              else byte_limit)


__all__ = ["race_animation", "turn_states"]
