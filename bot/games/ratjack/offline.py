"""Ratjack's offline modes, as :meth:`bot.games.base.GamePlugin.offline` gives them to
``python -m bot demo``, ``play`` and ``replay``: the demo (:mod:`.demo`), the terminal game
(:mod:`.terminal`) and a finished match's animation, a frame per turn (what the demo's
``replay.gif`` and ``python -m bot replay`` draw)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...match import Match, MatchService, replays
from .shared import animation_views, image_names, turn_states, verdict


def demo_main(argv: list[str]) -> int:
    """``python -m bot demo --game ratjack``: :func:`bot.games.ratjack.demo.main`."""
    from . import demo

    return demo.main(argv)


def play_main(argv: list[str]) -> int:
    """``python -m bot play --game ratjack``: :func:`bot.games.ratjack.terminal.main`."""
    from . import terminal

    return terminal.main(argv)


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
