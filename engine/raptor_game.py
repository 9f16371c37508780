"""Raptor as a :class:`engine.game.Game`: the rules of this package, unchanged, seen through
the platform's protocol.

Seat 0 is the raptor, seat 1 the scientist (:data:`SEAT_SIDES`). Options are the
:class:`engine.Options` fields; a new match takes ``environment`` (R1.3), ``setup`` (R4) and
``layout`` (R2.6), each with the default the bot uses.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping, Sequence

from . import record as _record
from .actions import Action, action_from_dict
from .errors import OptionError
from .game import OptionSpec, Outcome, RecordHeader, Seat, resolve_options
from .notation import format_action, parse_action
from .rules import apply, legal_actions, new_game, replay, to_act
from .state import GameState, Options, Phase, Side
from .view import View, view

#: The side of each seat, in seat order.
SEAT_SIDES: tuple[Side, Side] = (Side.RAPTOR, Side.SCIENTIST)
#: The seat of each side.
SIDE_SEATS: dict[Side, Seat] = {side: seat for seat, side in enumerate(SEAT_SIDES)}


def side_of(seat: Seat) -> Side:
    """The side at ``seat``.

    Raises:
        OptionError: not a seat of Raptor (0 or 1).
    """
    if seat not in (0, 1):
        raise OptionError(f"Raptor has seats 0 (raptor) and 1 (scientist), not {seat!r}")
    return SEAT_SIDES[seat]


def seats_of(sides: Iterable[Side]) -> frozenset[Seat]:
    """The seats of ``sides``."""
    return frozenset(SIDE_SEATS[side] for side in sides)


def _options(options: Mapping[str, str]) -> Options:
    opts = resolve_options(RaptorGame.options, options)
    return Options(opts["environment"], opts["layout"], opts["setup"]).check()


class RaptorGame:
    """The :class:`engine.game.Game` of Raptor (two seats)."""

    name = "raptor"
    min_seats = 2
    max_seats = 2
    options = (
        OptionSpec("environment", ("jungle", "savannah"), "jungle"),
        OptionSpec("setup", ("quick", "manual"), "quick"),
        OptionSpec("layout", ("random", "standard"), "random"),
    )

    def new_game(self, seed: int, seats: int, options: Mapping[str, str]) -> GameState:
        """:func:`engine.new_game` for two seats.

        Raises:
            OptionError: a seat count other than 2, or a bad option.
        """
        if seats != 2:
            raise OptionError(f"Raptor is played by 2 players, not {seats}")
        o = _options(options)
        return new_game(seed, environment=o.environment, layout=o.layout, setup=o.setup)

    def to_act(self, state: GameState) -> frozenset[Seat]:
        return seats_of(to_act(state))

    def legal_actions(self, state: GameState, seat: Seat) -> list[Action]:
        return legal_actions(state, side_of(seat))

    def apply(self, state: GameState, seat: Seat, action: Action) -> GameState:
        return apply(state, side_of(seat), action)

    def view(self, state: GameState, seat: Seat | None) -> View:
        return view(state, None if seat is None else side_of(seat))

    def is_over(self, state: GameState) -> bool:
        return state.is_over

    def outcome(self, state: GameState) -> Outcome | None:
        """The winner first, the loser second (R6), with the R6 reason."""
        if not state.is_over:
            return None
        return Outcome.winner_takes_all(2, (SIDE_SEATS[state.winner],), state.reason.value)

    def forfeit(self, state: GameState, seat: Seat) -> None:
        """Raptor cannot go on without one of its two players: the platform ends it."""
        return None

    def turn(self, state: GameState, seat: Seat) -> Hashable | None:
        """One turn of a side: the round's card pick (R5.1; one side's pick keeps the other
        side's clock), a card's effect or an AP phase (R5.4, R5.5: the decisions inside
        one keep its clock). Each placement of the setup (R4) and the mother's return
        (R9.2) is a turn of its own (None)."""
        if state.phase is Phase.EFFECT and state.effect is not None:
            return (state.round, "effect", state.effect.side.value)
        if state.phase is Phase.AP and state.ap is not None:
            return (state.round, "ap", state.ap.side.value)
        if state.phase is Phase.PICK:
            return (state.round, "pick")
        return None

    def may_undo(self, before: GameState, after: GameState, seat: Seat) -> bool:
        """Only the side's own action-point actions of the AP phase still under way
        (R5.5): they involve no chance; a card pick, an effect or the action that ended
        the AP phase (and so drew cards) cannot be undone."""
        side = side_of(seat)
        return (before.phase is Phase.AP and before.ap.side is side
                and after.phase is Phase.AP and after.ap.side is side
                and before.round == after.round)

    def parse_action(self, text: str, state: GameState, seat: Seat) -> Action:
        return parse_action(text, state, side_of(seat))

    def format_action(self, action: Action) -> str:
        return format_action(action)

    def action_to_json(self, action: Action) -> str:
        return json.dumps(action.to_dict())

    def action_from_json(self, text: str) -> Action:
        return action_from_dict(json.loads(text))

    def state_to_json(self, state: GameState) -> str:
        return state.to_json()

    def state_from_json(self, text: str) -> GameState:
        return GameState.from_json(text)

    def replay(self, seed: int, seats: int, options: Mapping[str, str],
               log: Iterable[tuple[Seat, Action]]) -> GameState:
        if seats != 2:
            raise OptionError(f"Raptor is played by 2 players, not {seats}")
        return replay(seed, _options(options), [(side_of(seat), a) for seat, a in log])

    def write_record(self, seed: int, seats: int, options: Mapping[str, str],
                     log: Sequence[tuple[Seat, Action]], header: RecordHeader) -> str:
        """:func:`engine.write_record`; a match ended outside the game has the result of
        its ``header.winners``: one side, ``draw`` (both) or ``none``."""
        names = (*header.players, "", "")[:2]
        result = reason = None
        if header.ending is not None:
            reason = header.ending
            result = ("draw" if len(header.winners) == 2 else
                      SEAT_SIDES[next(iter(header.winners))].value if header.winners
                      else "none")
        return _record.write_record(
            seed, _options(options), [(side_of(seat), a) for seat, a in log], result=result,
            reason=reason, event=header.event, server=header.server, date=header.date,
            raptor=names[0], scientist=names[1])

    def read_record(self, text: str) -> _record.MatchRecord:
        return _record.read_record(text)


#: The one Raptor game object.
RAPTOR = RaptorGame()
