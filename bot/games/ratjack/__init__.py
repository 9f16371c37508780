"""Ratjack on the platform: its :class:`~bot.games.base.GamePlugin` (``PLUGIN``).

The rules are :mod:`engine.ratjack` (seats 0-3 the players ``p1``-``p4``; rules of record
``docs/RATJACK_RULES.md``), the images :mod:`render.ratjack`, the AI
:mod:`bot.games.ratjack.ai`, the sentences :mod:`bot.games.ratjack.texts`, the offline modes
:mod:`bot.games.ratjack.offline` (the demo, :mod:`~bot.games.ratjack.demo`; the terminal
game, :mod:`~bot.games.ratjack.terminal`); the Discord presentation is
:mod:`bot.games.ratjack.ui`.
"""

from __future__ import annotations

from engine.game import Seat
from engine.messages import Text
from engine.ratjack import RATJACK, RatjackError, State, to_act, view

from ..base import GamePlugin
from .ai import LEVELS
from .texts import TITLE, their_decision


class RatjackPlugin(GamePlugin):
    """Ratjack: two to four seats, ``p1``-``p4`` in turn order (RJ2.3)."""

    game = RATJACK
    title = TITLE
    ai_levels = LEVELS
    ai_module = "bot.games.ratjack.ai"
    errors = (RatjackError,)
    ui_module = "bot.games.ratjack.ui"
    offline_module = "bot.games.ratjack.offline"

    #: Ratjack takes no decision back (:meth:`engine.ratjack.RatjackGame.may_undo`).
    nothing_to_undo = Text("There is nothing to undo in Ratjack: every decision draws a card, "
                           "shows one or starts an effect the others see, so none is taken "
                           "back.")

    def seat_name(self, seat: Seat, seats: int) -> Text:
        """``"player 2"``: the seat ``p2`` of the notation (``p2@3`` names its cards)."""
        return Text("player {n}", n=seat + 1)

    def waiting_text(self, state: State, seat: Seat, seats: int) -> Text:
        """Who is awaited instead of ``seat``, and for what (public facts only, RJ11.1):
        their draw, their play, the flip after a discard, an effect's decision (Weasel 12's
        opponent placing the chip, RJ7.12)."""
        acting = sorted(to_act(state))
        if not acting:
            return Text("The game is over: nobody has anything left to decide.")
        return Text("It's not your turn: waiting for {player} {doing}.",
                    player=self.seat_name(acting[0], seats), doing=their_decision(
                        view(state, None)))


PLUGIN = RatjackPlugin()

__all__ = ["PLUGIN", "RatjackPlugin"]
