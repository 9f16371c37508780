"""What the platform knows of a game besides its rules: :class:`GamePlugin`.

A game's rules are its :class:`engine.game.Game`; the plug-in adds what hosting it needs and
the engine has no business knowing: its title and seat names in the bot's sentences, its AI
levels and how to ask its AI for a decision, its refusals, and where its Discord
presentation lives. Each game's package under :mod:`bot.games` makes one ``PLUGIN``; the
platform finds it through the registry (:func:`bot.games.plugin`) and never imports a game's
package itself. Discord-free: the presentation module is named here, loaded by the Discord
layer.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from engine.game import Game, Seat
from engine.messages import Text


class GamePlugin:
    """One game as the platform hosts it.

    Attributes:
        game: the rules (:class:`engine.game.Game`); ``game.name`` is the registry name.
        title: the game's name in sentences (``Text("Raptor")``).
        ai_levels: the AI's levels, weakest first; ``ai_module`` the module whose
            ``choose_action(view, *, level, seed, time_budget, iterations)`` decides for an
            AI seat from that seat's view only.
        errors: the game's refusal classes (bad notation, an illegal or ambiguous action,
            not that seat's turn), all :class:`ValueError`: their message is shown to the
            player.
        ui_module: the module of the game's Discord presentation (loaded by
            :mod:`bot.discord`, which alone may import discord); empty for a game played
            offline only.
        offline_module: the module of the game's offline modes (:meth:`offline`).
    """

    game: Game
    title: Text
    ai_levels: tuple[str, ...]
    ai_module: str
    errors: tuple[type[Exception], ...]
    ui_module: str
    offline_module: str

    @property
    def name(self) -> str:
        return self.game.name

    def seat_name(self, seat: Seat, seats: int) -> Text:
        """The seat in sentences ("player 2"; Raptor: "raptor", "scientist")."""
        return Text("player {n}", n=seat + 1)

    def seat_key(self, seat: Seat) -> str:
        """The seat's word in the AI's seeds (:func:`bot.match.play.ai_seed`)."""
        return str(seat)

    #: The refusal of an undo when the player's last decision cannot be taken back.
    nothing_to_undo = Text("There is nothing to undo: you can only take back your own last "
                           "decision of the current turn, when no dice or cards decided since.")

    def chooser(self) -> Callable[..., Any]:
        """The AI's ``choose_action`` (its module imported on first use: the AI is heavy and
        storage users need none of it)."""
        return importlib.import_module(self.ai_module).choose_action

    def offline(self) -> Any:
        """The game's offline modes (its module imported on first use): ``demo_main(argv)``
        and ``play_main(argv)`` run ``python -m bot demo`` and ``play`` for it and return an
        exit status; ``async replay_animation(service, match, *, byte_limit)`` draws a
        finished match's animation for ``python -m bot replay`` (an object with ``data``,
        the GIF's bytes, and ``note``, a sentence or None)."""
        return importlib.import_module(self.offline_module)

    def waiting_text(self, state: Any, seat: Seat, seats: int) -> Text:
        """Why ``seat`` has nothing to decide in ``state``, for its refusal: who is awaited
        (or that the game is over)."""
        acting = sorted(self.game.to_act(state))
        if not acting:
            return Text("The game is over: nobody has anything left to decide.")
        names = Text.joined(", ", [self.seat_name(s, seats) for s in acting])
        return Text("It's not your turn: waiting for {who}.", who=names)

    def others_secret_only(self, state: Any, seat: Seat) -> bool:
        """Whether all that the last step of ``state`` can have changed, for ``seat``, is
        another seat's secret decision in a simultaneous choice that ``seat`` still has to
        make: a decision ``seat`` made one step earlier could not depend on it, so it still
        applies (a card pick that lost a simultaneous save is applied again). By default
        False: a decision made at an older position is stale."""
        return False
