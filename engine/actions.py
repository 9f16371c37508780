"""Typed actions: every decision a player makes is one of these frozen values.

Squares are ``int`` indices (see :mod:`engine.geometry`); ``repr()`` prints a form you can
paste back, e.g. ``MoveMother(frm=square('F2'), to=square('F5'))``.
The notation module turns them into short text and back.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import NotationError
from .geometry import SQUARE_NAMES, square
from .state import Piece


class _Base:
    __slots__ = ()
    kind: ClassVar[str]

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            parts.append(f"{f.name}=square({SQUARE_NAMES[v]!r})" if f.name in _SQUARE_FIELDS
                         else f"{f.name}={v!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict ``{"kind": ..., field: "E4" or int}``; inverse
        :func:`action_from_dict`."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            out[f.name] = SQUARE_NAMES[v] if f.name in _SQUARE_FIELDS else v
        return out


_SQUARE_FIELDS = frozenset({"to", "frm", "at", "by"})


# --- setup (R4) and the mother's return (R9.2) ---
@dataclass(frozen=True, slots=True, repr=False)
class PlaceMother(_Base):
    """Put the mother on ``to``: at setup (R4.1) or back after Disappearance (R9.2)."""
    kind: ClassVar[str] = "place_mother"
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class PlaceBaby(_Base):
    """Setup: put a baby on ``to``, a free space of a square tile without one (R4.1)."""
    kind: ClassVar[str] = "place_baby"
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class PlaceScientist(_Base):
    """Setup: put a scientist on ``to``, a free space of an L-tile without one (R4.2)."""
    kind: ClassVar[str] = "place_scientist"
    to: int


# --- the card pick (R5.1) ---
@dataclass(frozen=True, slots=True, repr=False)
class Pick(_Base):
    """Secretly pick the card of value ``card`` (1-9) from the hand (R5.1, R5.2)."""
    kind: ClassVar[str] = "pick"
    card: int


# --- card effects (R9, R10) ---
@dataclass(frozen=True, slots=True, repr=False)
class CallBaby(_Base):
    """Mother's Call: the active baby on ``frm`` goes to ``to`` on the mother's tile
    (R9.1, R9.4)."""
    kind: ClassVar[str] = "call_baby"
    frm: int
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class Frighten(_Base):
    """Fear: frighten the active scientist on ``at`` (R9.3, R9.6)."""
    kind: ClassVar[str] = "frighten"
    at: int


@dataclass(frozen=True, slots=True, repr=False)
class Heal(_Base):
    """Recovery unit: remove one sleep token from the mother (R9.5)."""
    kind: ClassVar[str] = "heal"


@dataclass(frozen=True, slots=True, repr=False)
class Wake(_Base):
    """Wake the sleeping baby on ``at``: a Recovery unit (R9.5) or a mother's AP action (R7.4)."""
    kind: ClassVar[str] = "wake"
    at: int


@dataclass(frozen=True, slots=True, repr=False)
class Gas(_Base):
    """Sleeping Gas: put the active baby on ``at`` to sleep (R10.1, R10.4)."""
    kind: ClassVar[str] = "gas"
    at: int


@dataclass(frozen=True, slots=True, repr=False)
class Reinforce(_Base):
    """Reinforcements: a scientist from the reserve onto the long-edge space ``to`` (R10.2)."""
    kind: ClassVar[str] = "reinforce"
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class Jeep(_Base):
    """One jeep move: the active scientist on ``frm`` drives straight to ``to`` (R10.3)."""
    kind: ClassVar[str] = "jeep"
    frm: int
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class PlaceFire(_Base):
    """Fire: put a fire token on ``at`` (R10.5)."""
    kind: ClassVar[str] = "place_fire"
    at: int


@dataclass(frozen=True, slots=True, repr=False)
class End(_Base):
    """Stop: skip the optional rest of a card effect (R5.4) or end the AP phase (R5.5)."""
    kind: ClassVar[str] = "end"


# --- raptor AP actions (R7) ---
@dataclass(frozen=True, slots=True, repr=False)
class MoveBaby(_Base):
    """Move the active baby on ``frm`` one space to ``to``, maybe an exit (R7.1). 1 AP."""
    kind: ClassVar[str] = "move_baby"
    frm: int
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class MoveMother(_Base):
    """Move the mother in a straight line from ``frm`` to ``to`` (R7.2). 1 AP (+ wound)."""
    kind: ClassVar[str] = "move_mother"
    frm: int
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class Kill(_Base):
    """The mother kills the scientist on ``at``, adjacent to her (R7.3). 1 AP."""
    kind: ClassVar[str] = "kill"
    at: int


@dataclass(frozen=True, slots=True, repr=False)
class PutOut(_Base):
    """The mother puts out the fire on ``at`` and every fire connected to it (R7.5). 1 AP."""
    kind: ClassVar[str] = "put_out"
    at: int


# --- scientist AP actions (R8) ---
@dataclass(frozen=True, slots=True, repr=False)
class MoveScientist(_Base):
    """Move the active scientist on ``frm`` to ``to``; costs ``cost`` AP, one per step (R8.1)."""
    kind: ClassVar[str] = "move_scientist"
    frm: int
    to: int
    cost: int


@dataclass(frozen=True, slots=True, repr=False)
class Stand(_Base):
    """Stand up the frightened scientist on ``at`` (R8.2). 1 AP."""
    kind: ClassVar[str] = "stand"
    at: int


@dataclass(frozen=True, slots=True, repr=False)
class SleepBaby(_Base):
    """The scientist on ``by`` puts the adjacent active baby on ``at`` to sleep (R8.3). 1 AP."""
    kind: ClassVar[str] = "sleep_baby"
    by: int
    at: int


@dataclass(frozen=True, slots=True, repr=False)
class Capture(_Base):
    """The scientist on ``by`` captures the adjacent sleeping baby on ``at`` (R8.4). 1 AP."""
    kind: ClassVar[str] = "capture"
    by: int
    at: int


@dataclass(frozen=True, slots=True, repr=False)
class Shoot(_Base):
    """The scientist on ``by`` shoots the mother on ``at`` along a line (R8.5). 1 AP."""
    kind: ClassVar[str] = "shoot"
    by: int
    at: int


Action = (PlaceMother | PlaceBaby | PlaceScientist | Pick | CallBaby | Frighten | Heal | Wake
          | Gas | Reinforce | Jeep | PlaceFire | End | MoveBaby | MoveMother | Kill | PutOut
          | MoveScientist | Stand | SleepBaby | Capture | Shoot)

ACTION_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (PlaceMother, PlaceBaby, PlaceScientist, Pick, CallBaby, Frighten, Heal, Wake,
                Gas, Reinforce, Jeep, PlaceFire, End, MoveBaby, MoveMother, Kill, PutOut,
                MoveScientist, Stand, SleepBaby, Capture, Shoot)
}


# ----------------------------------------------------------------------------- notation
N = SQUARE_NAMES
#: The letter of each piece in placement notation (``M@G2``, ``B@D2``, ``S@B2``), and ``R``
#: for a reinforcement (``R@E1``).
PIECE_LETTERS = {Piece.MOTHER: "M", Piece.BABY: "B", Piece.SCIENTIST: "S"}
REINFORCEMENT_LETTER = "R"


def format_action(action: Action) -> str:
    """The canonical notation of ``action``: ``"G2-G5"``, ``"kill F3"``, ``"M@G2"``, ``"play
    5"``, ... (the table of :mod:`engine.notation`, which parses it back).

    Raises:
        NotationError: not an engine action.
    """
    t = type(action)
    if t is Pick:
        return f"play {action.card}"
    if t in (MoveMother, MoveBaby, MoveScientist, CallBaby, Jeep):
        return f"{N[action.frm]}-{N[action.to]}"
    if t is PlaceMother:
        return f"{PIECE_LETTERS[Piece.MOTHER]}@{N[action.to]}"
    if t is PlaceBaby:
        return f"{PIECE_LETTERS[Piece.BABY]}@{N[action.to]}"
    if t is PlaceScientist:
        return f"{PIECE_LETTERS[Piece.SCIENTIST]}@{N[action.to]}"
    if t is Reinforce:
        return f"{REINFORCEMENT_LETTER}@{N[action.to]}"
    if t is End:
        return "end"
    if t is Heal:
        return "heal"
    word = _WORDS.get(t)
    if word is not None:
        return f"{word} {N[action.at]}"
    if t in (SleepBaby, Capture, Shoot):
        verb = {SleepBaby: "sleep", Capture: "capture", Shoot: "shoot"}[t]
        return f"{N[action.by]} {verb} {N[action.at]}"
    raise NotationError(f"not an action: {action!r}")


_WORDS = {Kill: "kill", Wake: "wake", PutOut: "out", Stand: "stand", Frighten: "fear",
          Gas: "gas", PlaceFire: "fire"}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of ``action.to_dict()``.

    Raises:
        NotationError: unknown kind or bad fields.
    """
    try:
        cls = ACTION_TYPES[data["kind"]]
        kwargs = {}
        for f in fields(cls):
            v = data[f.name]
            kwargs[f.name] = square(v) if f.name in _SQUARE_FIELDS else int(v)
        return cls(**kwargs)
    except (KeyError, TypeError, ValueError) as exc:
        raise NotationError(f"not an action record: {data!r}") from exc
