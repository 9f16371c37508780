"""Raptor on the platform: its :class:`~bot.games.base.GamePlugin` (``PLUGIN``).

The rules are :mod:`engine` (seat 0 the raptor, seat 1 the scientist:
:mod:`engine.raptor_game`), the images :mod:`render`, the AI :mod:`bot.ai`, the Discord
presentation :mod:`bot.games.raptor.ui`, the offline modes :mod:`bot.games.raptor.offline`
(the demo, :mod:`~bot.games.raptor.demo`; the terminal game,
:mod:`~bot.games.raptor.terminal`).
"""

from __future__ import annotations

import engine
from engine import GameState, Phase, Side
from engine.game import Seat
from engine.messages import Text
from engine.raptor_game import RAPTOR, SEAT_SIDES, SIDE_SEATS, side_of

from ..base import GamePlugin

#: The sides as the bot's sentences name them ("the raptor player").
SIDE_WORDS = {Side.RAPTOR: Text("raptor"), Side.SCIENTIST: Text("scientist")}

_DOING = {
    Phase.SETUP_MOTHER: Text("to place the mother"),
    Phase.SETUP_BABIES: Text("to place the babies"),
    Phase.SETUP_SCIENTISTS: Text("to place the scientists"),
    Phase.PICK: Text("to pick a card"),
    Phase.EFFECT: Text("to resolve their card's effect"),
    Phase.AP: Text("to spend their action points"),
    Phase.MOTHER_RETURN: Text("to put the mother back on the board"),
}


def _waiting(state: GameState) -> Text:
    acting = sorted(engine.to_act(state))
    doing = _DOING.get(state.phase, Text("to decide"))
    if len(acting) > 1:
        return Text("waiting for the raptor and scientist players {doing}", doing=doing)
    return Text("waiting for the {side} player {doing}", side=SIDE_WORDS[acting[0]],
                doing=doing)


class RaptorPlugin(GamePlugin):
    """Raptor: two seats, the raptor (0) and the scientist (1)."""

    game = RAPTOR
    title = Text("Raptor")
    ai_levels = ("easy", "medium", "hard")
    ai_module = "bot.ai"
    errors = (engine.RaptorError,)
    ui_module = "bot.games.raptor.ui"
    offline_module = "bot.games.raptor.offline"

    nothing_to_undo = Text("There is nothing to undo: you can only take back your own "
                           "action-point moves of the current turn.")

    def seat_name(self, seat: Seat, seats: int) -> Text:
        return SIDE_WORDS[side_of(seat)]

    def seat_key(self, seat: Seat) -> str:
        return side_of(seat).value

    def waiting_text(self, state: GameState, seat: Seat, seats: int) -> Text:
        """Who is awaited instead of ``seat`` (R5.1: a side that has picked waits for the
        other's pick)."""
        if not engine.to_act(state):
            return Text("The game is over: nobody has anything left to decide.")
        if state.phase is Phase.PICK and state.picks.get(side_of(seat)) is not None:
            return Text("You have already picked your card: {waiting}.",
                        waiting=_waiting(state))
        return Text("It's not your turn: {waiting}.", waiting=_waiting(state))

    def others_secret_only(self, state: GameState, seat: Seat) -> bool:
        """The simultaneous card pick (R5.1) that ``seat`` still has to make, the other
        side's pick made and not shown (no observation, R5.2)."""
        side = side_of(seat)
        return (state.phase is Phase.PICK and not state.observation
                and state.picks[side] is None and state.picks[side.other] is not None)


PLUGIN = RaptorPlugin()

__all__ = ["PLUGIN", "SEAT_SIDES", "SIDE_SEATS", "SIDE_WORDS", "RaptorPlugin", "side_of"]

