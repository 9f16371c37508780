"""Raptor Race on the platform: its :class:`~bot.games.base.GamePlugin` (``PLUGIN``).

The rules are :mod:`engine.race` (``docs/RACE_RULES.md``, rule IDs RR…; records
``docs/RACE_RECORD.md``), the images :mod:`render.race`, the AI seats
:mod:`bot.games.race.ai`, the sentences :mod:`bot.games.race.texts`, the offline modes
:mod:`bot.games.race.offline` (the demo, :mod:`~bot.games.race.demo`; the terminal game,
:mod:`~bot.games.race.terminal`), the Discord presentation :mod:`bot.games.race.ui`.

Seats are the table's order of play (RR3.5) and have no colours or names in the rules: the
sentences call them "seat 2", as the race's records, diagrams and images do.
"""

from __future__ import annotations

from engine.game import Seat
from engine.messages import N_, Text
from engine.race import RACE, Phase, RaceError, RaceState

from ..base import GamePlugin
from .ai import LEVELS

#: What the seat to play is doing, by phase (and a pending booster, RR5.6), in sentences:
#: "seat 2 is setting dice aside".
_DOING = {
    Phase.ROLL: N_("{seat} is setting dice aside"),
    Phase.MOVE: N_("{seat} is moving the raptors"),
}
_BOOSTING = N_("{seat} is using a booster")


def seat_word(seat: Seat) -> Text:
    """``"seat 2"``: a seat in the middle of a sentence (seats numbered from 1)."""
    return Text("seat {n}", n=seat + 1)


def doing_text(state: RaceState, player: Text | str | None = None) -> Text:
    """What the seat to play is doing now: ``"seat 2 is setting dice aside"`` (RR4),
    ``"... is moving the raptors"`` (RR5), ``"... is using a booster"`` (RR5.6); ``player``
    names that seat instead of ``"seat 2"`` (a mention)."""
    template = _BOOSTING if state.pending is not None else _DOING[state.phase]
    return Text(template, seat=seat_word(state.seat) if player is None else player)


class RacePlugin(GamePlugin):
    """Raptor Race: 2 to 5 seats in the order of play (RR3.1, RR3.5)."""

    game = RACE
    title = Text("Raptor Race")
    ai_levels = LEVELS
    ai_module = "bot.games.race.ai"
    errors = (RaceError,)
    ui_module = "bot.games.race.ui"
    offline_module = "bot.games.race.offline"

    #: The engine lets a seat take back a step of its move, or the setting aside of its
    #: last dice, never what a roll decided (:meth:`engine.race.RaceGame.may_undo`).
    nothing_to_undo = Text("There is nothing to undo: you can only take back your own last "
                           "step of this turn, or the setting aside of your last dice; never "
                           "what a roll decided.")

    def seat_name(self, seat: Seat, seats: int) -> Text:
        """``"seat 2"`` (the rules give seats no colours or names)."""
        return seat_word(seat)

    def waiting_text(self, state: RaceState, seat: Seat, seats: int) -> Text:
        """Why ``seat`` has nothing to decide: the race is over, the seat left it (RR3.6),
        or another seat's turn (what that seat is doing)."""
        if state.is_over:
            return Text("The race is over: nobody has anything left to decide.")
        if seat in state.forfeited:
            return Text("You have left this race: it goes on without you, and your card "
                        "still scores at the end.")
        return Text("It's not your turn: {doing}.", doing=doing_text(state))


PLUGIN = RacePlugin()

__all__ = ["PLUGIN", "RacePlugin", "doing_text", "seat_word"]
