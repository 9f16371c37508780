"""Raptor Race as a :class:`engine.game.Game`: :data:`RACE`.

Seats are the table's order of play (RR3.5); the one option is the ``board`` side (RR3.2,
default the Desert, the starter level). A seat that forfeits is skipped and its card still
scores (RR3.6); a log records that as a :class:`~engine.race.actions.Forfeit` entry, which
:meth:`RaceGame.replay` and the records understand.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping, Sequence

from ..game import OptionSpec, Outcome, RecordHeader, Seat, resolve_options
from . import record as _record
from .actions import (
    Action,
    Forfeit,
    LogEntry,
    action_from_dict,
    action_to_dict,
    format_action,
)
from .errors import NotationError
from .notation import parse_action
from .rules import apply, forfeit, legal_actions, new_game, replay, to_act
from .scoring import outcome
from .state import MAX_SEATS, MIN_SEATS, Phase, RaceState
from .track import Board
from .view import RaceView, view


def board_option(options: Mapping[str, str]) -> Board:
    """The board side of ``options`` (resolved with :data:`RaceGame.options`).

    Raises:
        ValueError: an unknown option or board (the message names the choices).
    """
    return Board(resolve_options(RaceGame.options, options)["board"])


def _forfeits(log: Iterable[tuple[Seat, LogEntry | None]]) -> Iterable[tuple[Seat, LogEntry]]:
    """The platform's log (a forfeit is a None action, :mod:`engine.game`) as the race's
    own (a forfeit is a :class:`Forfeit` entry)."""
    return ((seat, Forfeit() if action is None else action) for seat, action in log)


class RaceGame:
    """The :class:`engine.game.Game` of Raptor Race (2-5 seats)."""

    name = "race"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    options = (OptionSpec("board", ("desert", "jungle"), "desert"),)

    def new_game(self, seed: int, seats: int, options: Mapping[str, str]) -> RaceState:
        """:func:`engine.race.new_game`.

        Raises:
            OptionError: a seat count outside 2-5.
            ValueError: a bad option.
        """
        return new_game(seed, seats, board_option(options))

    def to_act(self, state: RaceState) -> frozenset[Seat]:
        return to_act(state)

    def legal_actions(self, state: RaceState, seat: Seat) -> list[Action]:
        return legal_actions(state, seat)

    def apply(self, state: RaceState, seat: Seat, action: Action) -> RaceState:
        return apply(state, seat, action)

    def view(self, state: RaceState, seat: Seat | None) -> RaceView:
        return view(state, seat)

    def is_over(self, state: RaceState) -> bool:
        return state.is_over

    def outcome(self, state: RaceState) -> Outcome | None:
        """Places by points, ties shared (RR7.3), the scores per seat."""
        return outcome(state)

    def forfeit(self, state: RaceState, seat: Seat) -> RaceState | None:
        """RR3.6: the seat is skipped from then on; None once no seat is left (RR3.7)."""
        return forfeit(state, seat)

    def turn(self, state: RaceState, seat: Seat) -> Hashable | None:
        """A seat's whole turn, rolls and steps, is one turn of the clock."""
        if state.phase is Phase.OVER:
            return None
        return ("turn", state.turn)

    def may_undo(self, before: RaceState, after: RaceState, seat: Seat) -> bool:
        """Only an action that rolled nothing and did not end the turn or the race: a step
        of the move, or setting every remaining die aside (no chance involved)."""
        return (before.seat == seat and after.seat == seat and before.turn == after.turn
                and before.rolls == after.rolls and not after.is_over
                and before.phase is not Phase.OVER)

    def parse_action(self, text: str, state: RaceState, seat: Seat) -> Action:
        return parse_action(text, state, seat)

    def format_action(self, action: LogEntry) -> str:
        return format_action(action)

    def action_to_json(self, action: LogEntry) -> str:
        return json.dumps(action_to_dict(action), separators=(",", ":"))

    def action_from_json(self, text: str) -> LogEntry:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise NotationError(f"not an action record: {exc}") from None
        return action_from_dict(data)

    def state_to_json(self, state: RaceState) -> str:
        return state.to_json()

    def state_from_json(self, text: str) -> RaceState:
        return RaceState.from_json(text)

    def replay(self, seed: int, seats: int, options: Mapping[str, str],
               log: Iterable[tuple[Seat, LogEntry | None]]) -> RaceState:
        """:func:`engine.race.replay`; a None action is the seat's :class:`Forfeit`."""
        return replay(seed, seats, board_option(options), _forfeits(log))

    def write_record(self, seed: int, seats: int, options: Mapping[str, str],
                     log: Sequence[tuple[Seat, LogEntry]], header: RecordHeader) -> str:
        """:func:`engine.race.write_record` (docs/RACE_RECORD.md); a None action is the
        seat's :class:`Forfeit`."""
        return _record.write_record(seed, seats, board_option(options), list(_forfeits(log)),
                                    header)

    def read_record(self, text: str) -> _record.RaceRecord:
        return _record.read_record(text)


#: The one Raptor Race game object.
RACE = RaceGame()
