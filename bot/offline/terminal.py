"""``python -m bot play [--game NAME] [OPTIONS]``: one person against the AI in the
terminal, in a game's notation. Each game has its own options and prompts (``--game NAME
--help``); the default game is Raptor (:mod:`bot.games.raptor.terminal`)."""

from __future__ import annotations

from .. import games
from .common import split_game


def main(argv: list[str] | None = None) -> int:
    """``python -m bot play``: the named game's terminal mode (:meth:`GamePlugin.offline`).
    Returns the exit status."""
    game, rest = split_game(argv, "python -m bot play")
    return games.plugin(game).offline().play_main(rest)
