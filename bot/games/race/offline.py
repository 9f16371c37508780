"""Raptor Race's offline modes, as :meth:`bot.games.base.GamePlugin.offline` gives them to
``python -m bot demo``, ``play`` and ``replay``."""

from __future__ import annotations

from ...match import Match, MatchService
from . import demo, terminal
from .history import race_animation


def demo_main(argv: list[str]) -> int:
    """``python -m bot demo --game race``: :func:`bot.games.race.demo.main`."""
    return demo.main(argv)


def play_main(argv: list[str]) -> int:
    """``python -m bot play --game race``: :func:`bot.games.race.terminal.main`."""
    return terminal.main(argv)


async def replay_animation(service: MatchService, match: Match, *, byte_limit: int):
    """The animation of the finished race ``match``: a frame per turn, ending on the finish
    (:func:`bot.games.race.history.race_animation`), at most ``byte_limit`` bytes."""
    return await race_animation(service, match, byte_limit=byte_limit)
