"""Typed actions: every decision of a Ratjack player is one of these frozen values (a closed
union, :data:`Action`), and its notation (RJ11.3, RJ11.4) is one short line:

==================  ================================  ==================================
decision            action                            notation
==================  ================================  ==================================
draw (RJ3.1)        ``Draw(Source.DECK)``             ``draw deck`` / ``draw discard``
play up (RJ3.2)     ``Up("C7")``                      ``up C7``
play down           ``Down("R3")``                    ``down R3``
discard             ``Discard("W2")``                 ``discard W2`` (also Raccoon 10's
                                                      discard, RJ6.10)
flip after discard  ``Flip(2)`` / ``NoFlip()``        ``flip @2`` / ``no flip``
a card (RJ11.4)     ``Target(seat=1, place=3)``       ``p2@3``
an opponent         ``Opponent(seat=1)``              ``p2``
a bonus token       ``Chip(-10)``                     ``-10`` (by its showing face)
==================  ================================  ==================================

Seats are 0-based (the engine's), named ``p1`` .. ``p4`` in notation; places in a display
are 1-based (RJ3.5), as notation writes them. ``repr()`` can be pasted back.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

from .cards import format_face, is_card
from .errors import NotationError


class Source(StrEnum):
    """Where the turn's draw comes from (RJ3.1)."""

    DECK = "deck"
    DISCARD = "discard"

    def __repr__(self) -> str:
        return f"Source.{self.name}"


def seat_name(seat: int) -> str:
    """The notation name of a seat: ``seat_name(1) == "p2"``."""
    return f"p{seat + 1}"


class _Base:
    __slots__ = ()
    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict ``{"kind": ..., field: value}``; inverse :func:`action_from_dict`."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, StrEnum) else v
        return out


@dataclass(frozen=True, slots=True)
class Draw(_Base):
    """Draw the top card of the deck or of the discard pile (RJ3.1)."""
    kind: ClassVar[str] = "draw"
    source: Source


@dataclass(frozen=True, slots=True)
class Up(_Base):
    """Play ``card`` from the hand face up and resolve its effect (RJ3.2, RJ4.2)."""
    kind: ClassVar[str] = "up"
    card: str


@dataclass(frozen=True, slots=True)
class Down(_Base):
    """Play ``card`` from the hand face down: no effect, no value (RJ3.2)."""
    kind: ClassVar[str] = "down"
    card: str


@dataclass(frozen=True, slots=True)
class Discard(_Base):
    """Put ``card`` from the hand on the discard pile: the turn's discard action (RJ3.2) or
    the discard of Raccoon 10 (RJ6.10)."""
    kind: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True, slots=True)
class Flip(_Base):
    """After the discard action, flip your hidden card at ``place`` (1-based) face up; its
    effect triggers (RJ3.2, RJ4.4)."""
    kind: ClassVar[str] = "flip"
    place: int


@dataclass(frozen=True, slots=True)
class NoFlip(_Base):
    """After the discard action, flip nothing (RJ3.2)."""
    kind: ClassVar[str] = "no_flip"


@dataclass(frozen=True, slots=True)
class Target(_Base):
    """An effect's choice of a card: the one at ``place`` (1-based) in the display of
    ``seat`` (RJ11.4)."""
    kind: ClassVar[str] = "target"
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class Opponent(_Base):
    """An effect's choice of an opponent (RJ11.4: Weasel 1, 3, 12)."""
    kind: ClassVar[str] = "opponent"
    seat: int


@dataclass(frozen=True, slots=True)
class Chip(_Base):
    """An effect's choice of a bonus token, by its showing face (RJ1.2, RJ11.4)."""
    kind: ClassVar[str] = "chip"
    face: int


Action = Draw | Up | Down | Discard | Flip | NoFlip | Target | Opponent | Chip

ACTION_TYPES: dict[str, type] = {
    cls.kind: cls for cls in (Draw, Up, Down, Discard, Flip, NoFlip, Target, Opponent, Chip)}


def format_action(action: Action) -> str:
    """The notation of ``action`` (the table of the module docstring), which
    :func:`engine.ratjack.parse_action` reads back.

    Raises:
        NotationError: not a Ratjack action.
    """
    t = type(action)
    if t is Draw:
        return f"draw {action.source.value}"
    if t is Up:
        return f"up {action.card}"
    if t is Down:
        return f"down {action.card}"
    if t is Discard:
        return f"discard {action.card}"
    if t is Flip:
        return f"flip @{action.place}"
    if t is NoFlip:
        return "no flip"
    if t is Target:
        return f"{seat_name(action.seat)}@{action.place}"
    if t is Opponent:
        return seat_name(action.seat)
    if t is Chip:
        return format_face(action.face)
    raise NotationError(f"not a Ratjack action: {action!r}")


def action_from_dict(data: Any) -> Action:
    """Inverse of ``action.to_dict()``.

    Raises:
        NotationError: an unknown kind or bad fields.
    """
    try:
        cls = ACTION_TYPES[data["kind"]]
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            v = data[f.name]
            if f.name == "source":
                v = Source(v)
            elif f.name == "card":
                if not isinstance(v, str) or not is_card(v):
                    raise ValueError(v)
            elif isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(v)
            kwargs[f.name] = v
        if set(data) - {"kind"} - set(kwargs):
            raise ValueError("unknown fields")
        return cls(**kwargs)
    except (KeyError, TypeError, ValueError) as exc:
        raise NotationError(f"not a Ratjack action record: {data!r}") from exc
