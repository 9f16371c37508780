"""The state of a race: a frozen value, stored as JSON checked by pydantic at the boundary.

:func:`engine.race.apply` returns a new :class:`RaceState` and never changes its argument;
``RaceState.from_json(s.to_json()) == s``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError

from .components import CARDS, FOOTPRINT_DICE, RAPTORS, Face, Raptor, sorted_faces
from .errors import StateError
from .track import TRACKS, Board, Track, row_of, space, space_name

#: The version of the stored JSON form; a state of another version is refused.
SCHEMA_VERSION = 1
MIN_SEATS, MAX_SEATS = 2, 5  # RR3.1


class Phase(StrEnum):
    """Where a turn is (RR4, RR5), or the race's end (RR6)."""

    ROLL = "roll"  # the seat sets dice aside after a roll (RR4.2, RR9.3)
    MOVE = "move"  # the seat uses the result, one step at a time (RR5, RR9.4)
    OVER = "over"  # a raptor crossed the finish line (RR6.1)


class Reason(StrEnum):
    """How a race ends by its rules."""

    FINISHED = "finished"  # a raptor crossed the finish line (RR6.1)


#: What moved a step: a die's face letter, or this for a booster (RR5.6).
BOOSTER = "+"


class Step(NamedTuple):
    """One thing the result did this turn, public (RR9.1): ``by`` a die's face letter or
    :data:`BOOSTER`; ``raptor`` moved from ``frm`` to ``to``, or all three None when the die
    moved nothing (RR5.1) or the booster was lost (RR5.6)."""

    by: str
    raptor: Raptor | None = None
    frm: int | None = None
    to: int | None = None

    def to_list(self) -> list[Any]:
        if self.raptor is None:
            return [self.by]
        return [self.by, self.raptor.value, space_name[self.frm], space_name[self.to]]

    @classmethod
    def from_list(cls, data: list[Any]) -> Step:
        if len(data) == 1:
            return cls(str(data[0]))
        by, raptor, frm, to = data
        return cls(str(by), Raptor(raptor), space(frm), space(to))


@dataclass(frozen=True, slots=True)
class RaceState:
    """The whole position (hidden information included: storage and the engine only).

    Attributes:
        seed: fixes the start, the deal, the first seat and every roll (RR3.3-RR3.5).
        board: the side of the board (RR3.2).
        seats: 2-5 (RR3.1); seats are 0 .. seats-1 in the order of play (RR3.5).
        cards: the Top-3 card number dealt to each seat (RR3.4): secret until the end.
        first: the seat that played the first turn (RR3.5).
        raptors: the space of each raptor, in colour order (RR1.2).
        turn: the turn number, from 1; seat: whose turn it is.
        phase: :class:`Phase`.
        rolls: the rolls made so far in the race (the next roll's chance stream).
        rolled: the footprint dice of the last roll not set aside (ROLL), canonical order.
        kept: the footprint dice set aside this turn, canonical order; in MOVE, the result.
        arrow_die: the arrows die's face (Jungle) or None (Desert); arrow_aside: set aside.
        used: the dice of the result used so far, in order (MOVE, RR5.1).
        arrows_used: arrows spent so far (RR5.7).
        pending: the raptor whose step ended on a booster not yet resolved (RR5.6).
        forfeited: the seats that left the race, ascending (RR3.6).
        winner: the raptor that crossed the finish line (RR6.1), once the race is over.
        steps: what the result did this turn so far (:class:`Step`).
        last_steps, last_seat: the same for the turn before, and whose it was.
    """

    seed: int
    board: Board
    seats: int
    cards: tuple[int, ...]
    first: int
    raptors: tuple[int, ...]
    turn: int
    seat: int
    phase: Phase
    rolls: int
    rolled: tuple[Face, ...]
    kept: tuple[Face, ...]
    arrow_die: int | None
    arrow_aside: bool
    used: tuple[Face, ...]
    arrows_used: int
    pending: Raptor | None
    forfeited: tuple[int, ...]
    winner: Raptor | None
    steps: tuple[Step, ...]
    last_steps: tuple[Step, ...]
    last_seat: int | None

    # --- queries
    @property
    def track(self) -> Track:
        return TRACKS[self.board]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def left(self) -> tuple[Face, ...]:
        """The dice of the result not yet used (MOVE), canonical order (RR5.1)."""
        return dice_left(self.kept, self.used)

    @property
    def arrows_left(self) -> int:
        """Arrows of the result not yet spent (MOVE, RR5.7); 0 before the move."""
        if self.phase is not Phase.MOVE or self.arrow_die is None:
            return 0
        return self.arrow_die - self.arrows_used

    def space_of(self, raptor: Raptor) -> int:
        return self.raptors[raptor.index]

    def raptor_on(self, sp: int) -> Raptor | None:
        """The raptor on space ``sp``, if any."""
        try:
            return RAPTORS[self.raptors.index(sp)]
        except ValueError:
            return None

    # --- the JSON boundary
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (spaces by name, faces by letter); inverse :meth:`from_dict`."""
        return {
            "schema_version": SCHEMA_VERSION, "seed": self.seed, "board": self.board.value,
            "seats": self.seats, "cards": list(self.cards), "first": self.first,
            "raptors": {r.value: space_name[sp]
                        for r, sp in zip(RAPTORS, self.raptors, strict=True)},
            "turn": self.turn, "seat": self.seat, "phase": self.phase.value,
            "rolls": self.rolls, "rolled": _letters(self.rolled),
            "kept": _letters(self.kept), "arrow_die": self.arrow_die,
            "arrow_aside": self.arrow_aside, "used": _letters(self.used),
            "arrows_used": self.arrows_used,
            "pending": None if self.pending is None else self.pending.value,
            "forfeited": list(self.forfeited),
            "winner": None if self.winner is None else self.winner.value,
            "steps": [s.to_list() for s in self.steps],
            "last_steps": [s.to_list() for s in self.last_steps],
            "last_seat": self.last_seat,
        }

    def to_json(self) -> str:
        """Compact JSON with ``schema_version``; inverse :meth:`from_json`."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> RaceState:
        """Inverse of :meth:`to_dict`, checked (fields, types, values, consistency).

        Raises:
            StateError: not a race state of this schema version.
        """
        try:
            rec = _StateRecord.model_validate(data)
        except ValidationError as exc:
            raise StateError(f"not a race state: {exc.errors()[0]['msg']} "
                             f"({'.'.join(map(str, exc.errors()[0]['loc']))})") from None
        if rec.schema_version != SCHEMA_VERSION:
            raise StateError(f"race state schema version {rec.schema_version} is not "
                             f"supported (this engine reads version {SCHEMA_VERSION})")
        try:
            state = cls(
                seed=rec.seed, board=Board(rec.board), seats=rec.seats,
                cards=tuple(rec.cards), first=rec.first,
                raptors=tuple(space(rec.raptors[r.value]) for r in RAPTORS),
                turn=rec.turn, seat=rec.seat, phase=Phase(rec.phase), rolls=rec.rolls,
                rolled=_faces(rec.rolled), kept=_faces(rec.kept), arrow_die=rec.arrow_die,
                arrow_aside=rec.arrow_aside, used=tuple(Face(c) for c in rec.used),
                arrows_used=rec.arrows_used,
                pending=None if rec.pending is None else Raptor(rec.pending),
                forfeited=tuple(rec.forfeited),
                winner=None if rec.winner is None else Raptor(rec.winner),
                steps=tuple(Step.from_list(s) for s in rec.steps),
                last_steps=tuple(Step.from_list(s) for s in rec.last_steps),
                last_seat=rec.last_seat)
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"not a race state: {exc}") from None
        return state.check()

    @classmethod
    def from_json(cls, text: str | bytes) -> RaceState:
        """Inverse of :meth:`to_json`.

        Raises:
            StateError: not JSON, or not a race state (:meth:`from_dict`).
        """
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise StateError(f"not JSON: {exc}") from None
        return cls.from_dict(data)

    def check(self) -> RaceState:
        """This state, once it is one a race can reach in its shape: seats 2-5, distinct
        cards, five raptors on distinct free spaces of the track, dice counts in range.

        Raises:
            StateError: what is wrong.
        """
        t = self.track
        problems = []
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            problems.append(f"{self.seats} seats (2-5)")
        if (len(self.cards) != self.seats or len(set(self.cards)) != self.seats
                or not set(self.cards) <= set(CARDS)):
            problems.append(f"cards {self.cards} (one distinct card 1-20 per seat)")
        if not (0 <= self.first < self.seats and 0 <= self.seat < self.seats):
            problems.append("a seat outside the table")
        if len(set(self.raptors)) != 5 or not all(t.on_track(sp) and sp not in t.obstacles
                                                  for sp in self.raptors):
            problems.append("raptors not on five distinct free spaces")
        crossed = [r for r, sp in zip(RAPTORS, self.raptors, strict=True) if t.crossed(sp)]
        if crossed != ([] if self.winner is None else [self.winner]):
            problems.append("the winner is not the one raptor beyond the finish line")
        if (self.winner is not None) != (self.phase is Phase.OVER):
            problems.append("a winner exactly when the race is over")
        if len(self.rolled) + len(self.kept) != FOOTPRINT_DICE and self.phase is not Phase.OVER:
            problems.append("four footprint dice")
        if (self.arrow_die is None) == t.arrows:
            problems.append("the arrows die on the Jungle only")
        try:
            dice_left(self.kept, self.used)
        except ValueError:
            problems.append("used dice that are not in the result")
        if not 0 <= self.arrows_used <= (self.arrow_die or 0):
            problems.append("more arrows spent than rolled")
        if not set(self.forfeited) <= set(range(self.seats)) or list(self.forfeited) != sorted(
                set(self.forfeited)):
            problems.append("forfeited seats")
        if problems:
            raise StateError("not a race position: " + "; ".join(problems))
        return self

    def __repr__(self) -> str:
        return (f"<RaceState {self.board.value} turn={self.turn} seat={self.seat} "
                f"phase={self.phase.value}>")


def dice_left(kept: tuple[Face, ...], used: tuple[Face, ...]) -> tuple[Face, ...]:
    """The faces of ``kept`` not in ``used`` (a multiset difference), canonical order."""
    rest = list(kept)
    for face in used:
        rest.remove(face)
    return tuple(rest)


def rows_of(state: RaceState) -> tuple[int, ...]:
    """Each raptor's row, in colour order."""
    return tuple(row_of(sp) for sp in state.raptors)


def _letters(faces: tuple[Face, ...]) -> str:
    return "".join(f.value for f in faces)


def _faces(letters: str) -> tuple[Face, ...]:
    faces = tuple(Face(c) for c in letters)
    if faces != sorted_faces(faces):
        raise ValueError(f"dice {letters!r} not in canonical order")
    return faces


class _StateRecord(BaseModel):
    """The JSON form of :class:`RaceState` (pydantic checks the types)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    schema_version: int
    seed: int
    board: str
    seats: int
    cards: list[int]
    first: int
    raptors: dict[str, str]
    turn: int
    seat: int
    phase: str
    rolls: int
    rolled: str
    kept: str
    arrow_die: int | None
    arrow_aside: bool
    used: str
    arrows_used: int
    pending: str | None
    forfeited: list[int]
    winner: str | None
    steps: list[list[Any]]
    last_steps: list[list[Any]]
    last_seat: int | None
