"""Ratjack's offline modes, as :meth:`bot.games.base.GamePlugin.offline` gives them to
``python -m bot demo``, ``play`` and ``replay``: the demo (:mod:`.demo`), the terminal game
(:mod:`.terminal`) and a finished match's animation, a frame per turn (what the demo's
``replay.gif`` and ``python -m bot replay`` draw)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.messages import Text
from engine.ratjack import RATJACK, Phase, State, view

from ...match import Match, MatchService, replays
from .texts import REASONS, ai_name, seat_label


def demo_main(argv: list[str]) -> int:
    """``python -m bot demo --game ratjack``: :func:`bot.games.ratjack.demo.main`."""
    from . import demo

    return demo.main(argv)


def play_main(argv: list[str]) -> int:
    """``python -m bot play --game ratjack``: :func:`bot.games.ratjack.terminal.main`."""
    from . import terminal

    return terminal.main(argv)


def is_turn_end(before: State, after: State) -> bool:
    """Whether the step from ``before`` to ``after`` ended a turn (RJ3.2, an extra turn
    counting as a turn of its own, RJ5.3) or the game."""
    return ((after.round, after.turn) != (before.round, before.turn)
            or after.phase is Phase.OVER)


def turn_states(seed: int, seats: int, options: Mapping[str, str],
                log: Iterable[tuple[int, Any]]) -> list[State]:
    """The states of a match at its start and at the end of every turn (the next turn
    begun, or the game over), its last one the final state: the match replayed from its
    seed and its log of ``(seat, action)`` (an action of None: that seat's forfeit)."""
    s = RATJACK.new_game(seed, seats, options)
    out = [s]
    for seat, action in log:
        before = s
        s = RATJACK.forfeit(s, seat) if action is None else RATJACK.apply(s, seat, action)
        if is_turn_end(before, s):
            out.append(s)
    if out[-1] is not s:
        out.append(s)
    return out


def image_names(match: Match, tr: Callable[[Any], str] = str) -> list[str]:
    """The players' names on the images of ``match``'s table: ``p2 AI (hard)`` for an AI
    seat, the seat alone (``p1``) for a person, whose name the database does not hold."""
    return [tr(seat_label(p.seat, ai_name(p.ai))) if p.ai else f"p{p.seat + 1}"
            for p in match.players]


def verdict(match: Match, tr: Callable[[Any], str] = str) -> str | None:
    """The banner of the last frame of a match that ended outside the game (stopped, ended
    by a moderator, ...), without names; None when the game itself ended."""
    if match.active or match.state.phase is Phase.OVER:
        return None
    reason = match.reason or ""
    return tr(Text("Match over: {why}", why=REASONS.get(reason, reason.replace("_", " "))))


def animation_views(states: Sequence[State]) -> list:
    """The public views of ``states`` (RJ11.1), the frames' positions."""
    return [view(s, None) for s in states]


async def replay_animation(service: MatchService, match: Match, *,
                           byte_limit: int, tr: Callable[[Any], str] = str):
    """The animation of the finished ``match``: the public table at its start and after
    every turn, ending on the final table (:func:`render.ratjack.render_animation`), at
    most ``byte_limit`` bytes; ``tr`` the language of its texts."""
    from render.ratjack import render_animation  # the renderer is heavy: loaded when needed

    states = turn_states(match.seed, match.seats, match.options,
                         await replays.match_actions(service, match))
    return render_animation(animation_views(states), names=image_names(match, tr),
                            verdict=verdict(match, tr), byte_limit=byte_limit, tr=tr)
