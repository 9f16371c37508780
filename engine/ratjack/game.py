"""Ratjack as a :class:`engine.game.Game`: the rules of this package seen through the
platform's protocol.

Seats 0-3 are the players ``p1``-``p4`` in turn order (RJ2.3). One option, ``decks``: the pair
of decks of every round (RJ2.1), ``rb`` by default.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping, Sequence

from ..game import OptionSpec, Outcome, RecordHeader, Seat, resolve_options
from . import record as _record
from .actions import Action, action_from_dict, format_action
from .cards import DECK_PAIRS, DEFAULT_DECKS
from .errors import OptionError
from .notation import parse_action
from .rules import MAX_SEATS, MIN_SEATS, apply, forfeit, legal_actions, new_game, replay, to_act
from .state import Phase, State
from .view import View, view

#: The options of a new match (RJ2.1).
OPTIONS = (OptionSpec("decks", tuple(DECK_PAIRS), DEFAULT_DECKS),)


def decks_option(options: Mapping[str, str]) -> str:
    """The deck pair of ``options`` (its default when absent).

    Raises:
        ValueError: an unknown option or deck pair.
    """
    return resolve_options(OPTIONS, options)["decks"]


def outcome(s: State) -> Outcome | None:
    """The ranking of a finished game: the winners first (RJ9.5 shared wins, RJ8.4 the last
    player in the match), then the others who stayed in the match by VP, then those who
    left it (RJ8.4), by VP among themselves; equal VP share a place. The scores are the VP.
    None while it goes on."""
    if s.phase is not Phase.OVER:
        return None
    first = set(s.winners)

    def ahead(q: int, r: int) -> bool:
        """Whether ``r`` ranks strictly ahead of ``q`` (both not winners)."""
        if s.forfeited[q] != s.forfeited[r]:
            return s.forfeited[q]
        return s.vp[r] > s.vp[q]

    places = []
    for q in range(s.seats):
        if q in first:
            places.append(1)
        else:
            places.append(1 + len(first) + sum(1 for r in range(s.seats)
                                                if r not in first and ahead(q, r)))
    return Outcome(tuple(places), s.reason.value, tuple(float(v) for v in s.vp))


class RatjackGame:
    """The :class:`engine.game.Game` of Ratjack (2-4 seats)."""

    name = "ratjack"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    options = OPTIONS

    def new_game(self, seed: int, seats: int, options: Mapping[str, str]) -> State:
        """:func:`engine.ratjack.new_game`.

        Raises:
            OptionError: a seat count outside 2-4; ValueError: a bad option.
        """
        return new_game(seed, seats, decks_option(options))

    def to_act(self, state: State) -> frozenset[Seat]:
        return to_act(state)

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        return legal_actions(state, seat)

    def apply(self, state: State, seat: Seat, action: Action) -> State:
        return apply(state, seat, action)

    def view(self, state: State, seat: Seat | None) -> View:
        return view(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def outcome(self, state: State) -> Outcome | None:
        return outcome(state)

    def forfeit(self, state: State, seat: Seat) -> State:
        """RJ8.4: the seat is eliminated for good and the game goes on without it."""
        return forfeit(state, seat)

    def turn(self, state: State, seat: Seat) -> Hashable | None:
        """One turn of the player on turn (its draw, action, flip and its effects' choices,
        RJ3; an extra turn is a new one, RJ5.3); Weasel 12's opponent's choice is a turn of
        that seat's own (RJ7.12)."""
        if state.phase is Phase.OVER:
            return None
        if seat != state.current:
            return ("choice", state.round, state.turn, seat)
        return ("turn", state.round, state.turn)

    def may_undo(self, before: State, after: State, seat: Seat) -> bool:
        """Never: every Ratjack decision either shows a card to someone, draws one, or starts
        an effect whose choices others see (RJ11.1); taking it back would replay hidden
        information."""
        return False

    def parse_action(self, text: str, state: State, seat: Seat) -> Action:
        return parse_action(text, state, seat)

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def action_to_json(self, action: Action) -> str:
        return json.dumps(action.to_dict(), separators=(",", ":"))

    def action_from_json(self, text: str) -> Action:
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise OptionError(f"not an action's JSON: {exc}") from None
        return action_from_dict(data)

    def state_to_json(self, state: State) -> str:
        return state.to_json()

    def state_from_json(self, text: str) -> State:
        return State.from_json(text)

    def replay(self, seed: int, seats: int, options: Mapping[str, str],
               log: Iterable[tuple[Seat, Action]]) -> State:
        return replay(seed, seats, decks_option(options), log)

    def write_record(self, seed: int, seats: int, options: Mapping[str, str],
                     log: Sequence[tuple[Seat, Action]], header: RecordHeader) -> str:
        """:func:`engine.ratjack.write_record` (format of ``docs/RATJACK_RECORD.md``)."""
        return _record.write_record(seed, seats, decks_option(options), log, header)

    def read_record(self, text: str) -> _record.MatchRecord:
        return _record.read_record(text)


#: The one Ratjack game object.
RATJACK = RatjackGame()
