"""The contract between the platform and a game's rules: the :class:`Game` protocol.

The platform (seats, lobby, threads, the live card's frame, timers, hands, ratings, records,
storage) knows a game only through this protocol and the registry that lists the games by
name; every game of the bot (Raptor, Raptor Race, Ratjack, and the toy game of the tests) is
one object that satisfies it. It follows OpenSpiel's Game/State split and boardgame.io's game
object: the state is a value the game alone understands, and everything that leaves it for a
player goes through :meth:`Game.view`.

Seats are ``int`` from 0 to ``seats - 1``, in the table's order (the order of play, where the
game has one). A game keeps its own names for them (Raptor's seat 0 is the raptor, seat 1 the
scientist); the platform never needs them.

States, actions and views are the game's own types. A state must be a value: ``apply``
returns a new state and leaves its argument unchanged, and ``state_from_json(
state_to_json(s))`` gives back an equal state. Chance is explicit: ``new_game`` and every
later shuffle or roll come from the seed, so the seed and the log of ``(seat, action)`` pairs
rebuild the exact state (:meth:`Game.replay`).

Logs: :meth:`Game.replay` and :meth:`Game.write_record` read a log of ``(seat, action)``
pairs in which an action of ``None`` is that seat's forfeit (:meth:`Game.forfeit`): the
seed and the log then rebuild games that went on after a seat left.

Errors: the game raises its own errors, which must subclass :class:`ValueError` (bad
notation, an illegal or ambiguous action, a seat that has nothing to decide); their message
says what would have been legal and never holds hidden information.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

#: A seat at the table: 0 .. seats - 1.
Seat = int


class Ending(StrEnum):
    """How a match ends outside the game, by the platform (no end by the game's rules): the
    words of a record's ending line and of the platform's stored reason. Who won: the seats
    still playing after a resignation or a timeout; every seat in a draw; nobody for the
    others."""

    RESIGNED = "resigned"                      # the other seats win
    TIMEOUT = "timeout"                        # the other seats win (the idle one's time ran out)
    DRAW_AGREED = "draw_agreed"                # a draw
    ABANDONED = "abandoned"                    # no result (every person idle)
    ENDED_BY_MODERATOR = "ended_by_moderator"  # no result
    STOPPED = "stopped"                        # no result (a terminal match stopped)
    AI_FAILED = "ai_failed"                    # no result (the AI kept failing to decide)


@dataclass(frozen=True)
class OptionSpec:
    """One option a new match of a game takes: its ``name`` (a key of the options mapping),
    the ``choices`` (values as stored, lowercase words) and the ``default`` (one of them).

    Raises:
        ValueError: a default that is not among the choices.
    """

    name: str
    choices: tuple[str, ...]
    default: str

    def __post_init__(self) -> None:
        if self.default not in self.choices:
            raise ValueError(f"option {self.name!r}: default {self.default!r} is not one of "
                             f"{self.choices!r}")


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, str]) -> dict[str, str]:
    """Every option of ``specs``, each the value ``given`` or its default.

    Raises:
        ValueError: a name that is no option, or a value that is not among its choices (the
            message names the choices).
    """
    known = {spec.name: spec for spec in specs}
    for name in given:
        if name not in known:
            raise ValueError(f"unknown option {name!r}: the options are "
                             f"{', '.join(known) or 'none'}")
    out = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        if value not in spec.choices:
            raise ValueError(f"option {spec.name!r} cannot be {value!r}: choose "
                             f"{', '.join(spec.choices)}")
        out[spec.name] = value
    return out


@dataclass(frozen=True)
class Outcome:
    """How a finished game ranks its seats.

    ``places``: one entry per seat, 1 for first; tied seats share a place and the next
    place counts them (1, 1, 3). ``scores``: the game's points per seat, when it has points
    (Raptor Race's Top-3 scores, Ratjack's victory points), else None. ``reason``: the
    game's own word for how it ended (a value of its reason enum, e.g. ``"babies_escaped"``).
    """

    places: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if self.scores is not None and len(self.scores) != len(self.places):
            raise ValueError("an outcome has one score per seat")
        if sorted(self.places) != _standard_places(self.places):
            raise ValueError(f"places {self.places!r} are not a ranking (1, 1, 3, ...)")

    @property
    def winners(self) -> frozenset[Seat]:
        """The seats in first place."""
        return frozenset(seat for seat, place in enumerate(self.places) if place == 1)

    @classmethod
    def by_scores(cls, scores: Sequence[float], reason: str, *,
                  higher_wins: bool = True) -> Outcome:
        """The outcome that ranks seats by ``scores`` (highest first unless
        ``higher_wins`` is False); equal scores share a place."""
        sign = -1 if higher_wins else 1
        places = tuple(1 + sum(1 for other in scores if sign * other < sign * mine)
                       for mine in scores)
        return cls(places, reason, tuple(float(s) for s in scores))

    @classmethod
    def winner_takes_all(cls, seats: int, winners: Iterable[Seat], reason: str) -> Outcome:
        """The outcome where ``winners`` share first place and every other seat comes next
        (after them all)."""
        first = frozenset(winners)
        return cls(tuple(1 if seat in first else len(first) + 1 for seat in range(seats)),
                   reason)


def _standard_places(places: Sequence[int]) -> list[int]:
    """The places a ranking with these ties must have: each place is 1 + the number of
    seats strictly ahead of it."""
    ordered = sorted(places)
    return [1 + sum(1 for other in ordered if other < mine) for mine in ordered]


@dataclass(frozen=True)
class RecordHeader:
    """What the platform puts in a record: descriptive lines (``event``, ``server``,
    ``date``, the ``players``' names by seat; one line each) and, for a match ended outside
    the game, ``ending`` (an :class:`Ending` word: ``"resigned"``, ``"timeout"``,
    ``"draw_agreed"``, ``"abandoned"``, ``"ended_by_moderator"``, ``"stopped"``) and
    ``winners``, the seats that won it (every seat: a draw; none: no result). ``ending`` is
    None when the game ended by its rules."""

    event: str = ""
    server: str = ""
    date: str = ""
    players: tuple[str, ...] = ()
    ending: str | None = None
    winners: frozenset[Seat] = frozenset()


@runtime_checkable
class Game(Protocol):
    """A game the platform can host. Every method is pure: same arguments, same result, no
    I/O, no global randomness.

    Attributes:
        name: the registry name and the first word of the game's component custom ids
            (``"raptor"``, ``"race"``, ``"ratjack"``): lowercase letters only.
        min_seats, max_seats: how many seats a table may have.
        options: the options a new match takes (:class:`OptionSpec`).
    """

    name: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...]

    # --- a game and its moves
    def new_game(self, seed: int, seats: int, options: Mapping[str, str]) -> Any:
        """A new game for ``seats`` seats with the ``options`` (every option present, as
        :func:`resolve_options` returns them), its chance fixed by ``seed``.

        Raises:
            ValueError: a seat count outside ``min_seats .. max_seats`` or a bad option.
        """
        ...

    def to_act(self, state: Any) -> frozenset[Seat]:
        """The seats that must decide now; several for a simultaneous decision, none once
        the game is over."""
        ...

    def legal_actions(self, state: Any, seat: Seat) -> Sequence[Any]:
        """Every legal action of ``seat`` now (empty when it has nothing to decide)."""
        ...

    def apply(self, state: Any, seat: Seat, action: Any) -> Any:
        """The state after ``seat`` plays ``action``; ``state`` is left unchanged.

        Raises:
            ValueError: (the game's error class) the action is not legal for that seat now.
        """
        ...

    def view(self, state: Any, seat: Seat | None) -> Any:
        """What ``seat`` may know of the state (None: a spectator, the public view). The
        only way out of a state for players, renderers, AIs and messages."""
        ...

    def is_over(self, state: Any) -> bool:
        """Whether the game has ended by its rules."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The ranking of a finished game; None while it goes on."""
        ...

    # --- the platform's hooks
    def forfeit(self, state: Any, seat: Seat) -> Any | None:
        """The state after ``seat`` leaves the game for good (its time ran out, or it
        resigned): the game goes on without it (Raptor Race skips it, Ratjack eliminates
        it), possibly to its end. None when the game cannot go on without that seat: the
        platform then ends the match and the seats left share first place."""
        ...

    def turn(self, state: Any, seat: Seat) -> Hashable | None:
        """What counts as one turn of ``seat`` (a seat that must decide now) for the clock:
        the platform keeps the running deadline while every seat to decide was deciding
        before with the same key, and starts a new one otherwise (so the decisions inside
        one turn, and undoing them, do not restart it). None: each decision is a turn of
        its own."""
        ...

    def may_undo(self, before: Any, after: Any, seat: Seat) -> bool:
        """Whether ``seat`` may take back the action that led from ``before`` to ``after``
        (the platform asks only about the seat's own last action; the state after an undo
        is the replay without it, so only actions that involve no chance may be undone)."""
        ...

    # --- text forms
    def parse_action(self, text: str, state: Any, seat: Seat) -> Any:
        """The legal action of ``seat`` that ``text`` (the game's notation) names.

        Raises:
            ValueError: (the game's error classes) bad notation, no such legal action, more
                than one.
        """
        ...

    def format_action(self, action: Any) -> str:
        """The action in the game's notation (``parse_action`` reads it back)."""
        ...

    def action_to_json(self, action: Any) -> str:
        """The action as stored in the match log."""
        ...

    def action_from_json(self, text: str) -> Any:
        """The action of a stored log record.

        Raises:
            ValueError: not an action of this game.
        """
        ...

    def state_to_json(self, state: Any) -> str:
        """The state as stored (hidden information included: storage only)."""
        ...

    def state_from_json(self, text: str) -> Any:
        """The state of a stored text.

        Raises:
            ValueError: not a state of this game.
        """
        ...

    def replay(self, seed: int, seats: int, options: Mapping[str, str],
               log: Iterable[tuple[Seat, Any]]) -> Any:
        """The state reached from ``new_game(seed, seats, options)`` by the ``(seat,
        action)`` pairs of ``log`` (an action of None: that seat's :meth:`forfeit`).

        Raises:
            ValueError: an action of the log is not legal at its point (a corrupt log).
        """
        ...

    # --- records
    def write_record(self, seed: int, seats: int, options: Mapping[str, str],
                     log: Sequence[tuple[Seat, Any]], header: RecordHeader) -> str:
        """The text record of a finished match (its format documented beside ``docs/RECORD.md``;
        ``log`` as for :meth:`replay`): ``header`` holds what the platform knows (event, server,
        date, players by seat, how a match ended outside the game), the game adds its own lines.

        Raises:
            ValueError: the match is not finished (a record would reveal hidden
                information).
        """
        ...

    def read_record(self, text: str) -> Any:
        """A record read back and checked by replaying it.

        Raises:
            ValueError: (the game's record error) the line at fault and why.
        """
        ...
