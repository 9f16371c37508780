"""The games the bot hosts, by registry name: the platform's one way to a game.

==============  ===============================  =========================================
name            package                          its parts
==============  ===============================  =========================================
``raptor``      :mod:`bot.games.raptor`          engine (top level), render (top level)
``race``        :mod:`bot.games.race`            engine.race, render.race
``ratjack``     :mod:`bot.games.ratjack`         engine.ratjack, render.ratjack
==============  ===============================  =========================================

:func:`plugin` loads a game's package on first use and returns its
:class:`~bot.games.base.GamePlugin`; nothing of the platform (``bot.match``, ``bot.discord``,
``bot.storage``, ``bot.ops``) imports a game's package otherwise (``tests/test_layering.py``).
Tests register games of their own (:func:`register`).
"""

from __future__ import annotations

import importlib

from .base import GamePlugin

#: The games' packages by name, in the order the bot lists them.
PACKAGES: dict[str, str] = {
    "raptor": "bot.games.raptor",
    "race": "bot.games.race",
    "ratjack": "bot.games.ratjack",
}

_loaded: dict[str, GamePlugin] = {}


class UnknownGameError(LookupError):
    """No game of that name is registered."""


def names() -> tuple[str, ...]:
    """The registered games' names: the bot's, then those a test registered."""
    return tuple(PACKAGES) + tuple(n for n in _loaded if n not in PACKAGES)


def on_discord() -> tuple[str, ...]:
    """The registered games the bot offers on Discord (those with a Discord presentation,
    :attr:`GamePlugin.ui_module`), in :func:`names` order."""
    return tuple(n for n in names() if plugin(n).ui_module)


def plugin(name: str) -> GamePlugin:
    """The plug-in of the game ``name``.

    Raises:
        UnknownGameError: no such game.
    """
    found = _loaded.get(name)
    if found is not None:
        return found
    module = PACKAGES.get(name)
    if module is None:
        raise UnknownGameError(f"there is no game {name!r}: the games are "
                               f"{', '.join(names())}")
    found = importlib.import_module(module).PLUGIN
    _loaded[name] = found
    return found


def refusals() -> tuple[type[Exception], ...]:
    """Every registered game's refusal classes (:attr:`GamePlugin.errors`): what a player's
    bad input or illegal action raises, whose message is for the player."""
    return tuple(cls for name in names() for cls in plugin(name).errors)


def register(game_plugin: GamePlugin) -> None:
    """Host ``game_plugin`` under its game's name (tests: a toy game)."""
    _loaded[game_plugin.name] = game_plugin


def unregister(name: str) -> None:
    """Forget a game :func:`register` added."""
    if name not in PACKAGES:
        _loaded.pop(name, None)


__all__ = ["GamePlugin", "PACKAGES", "UnknownGameError", "names", "on_discord", "plugin",
           "refusals", "register", "unregister"]
