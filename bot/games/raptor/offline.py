"""Raptor's offline modes, as :meth:`bot.games.base.GamePlugin.offline` gives them to
``python -m bot demo``, ``play`` and ``replay``."""

from __future__ import annotations

from ...match import Match, MatchService
from . import demo, terminal
from .replays import replay_views


def demo_main(argv: list[str]) -> int:
    """``python -m bot demo --game raptor``: :func:`bot.games.raptor.demo.main`."""
    return demo.main(argv)


def play_main(argv: list[str]) -> int:
    """``python -m bot play --game raptor``: :func:`bot.games.raptor.terminal.main`."""
    return terminal.main(argv)


async def replay_animation(service: MatchService, match: Match, *, byte_limit: int):
    """The animation of the finished ``match``: a frame per round, ending on the final
    board (:func:`render.replay.render_replay`), at most ``byte_limit`` bytes."""
    from render.replay import render_replay  # the renderer is heavy: loaded when needed

    views, verdict, winner = await replay_views(service, match)
    return render_replay(views, byte_limit=byte_limit, verdict=verdict, winner=winner)
