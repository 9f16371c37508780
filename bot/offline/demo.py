"""``python -m bot demo [--game NAME] [OPTIONS]``: a full AI-vs-AI match of a game offline,
through the real stack (match service, SQLite, renderer), no Discord token needed. Each game
has its own options, its lines, images, record and animation (``--game NAME --help``); the
default game is Raptor (:mod:`bot.games.raptor.demo`)."""

from __future__ import annotations

from .. import games
from .common import split_game


def main(argv: list[str] | None = None) -> int:
    """``python -m bot demo``: the named game's demo (:meth:`GamePlugin.offline`).
    Returns the exit status."""
    game, rest = split_game(argv, "python -m bot demo")
    return games.plugin(game).offline().demo_main(rest)
