"""Typed actions: every decision of a race is one of these frozen values (RR9.3, RR9.4).

=====================  ====================  ==============================================
decision               notation              value
=====================  ====================  ==============================================
set dice aside         ``keep OOT a``        ``Keep((O, O, T), arrows=True)``: the faces set
                                             aside, and on the Jungle ``a`` to set the
                                             arrows die aside too (RR4.2, RR4.3, RR9.3)
a colour die's step    ``O>B4``              ``Move(O, ORANGE, B4)`` (RR5.3, RR5.4, RR5.7)
a T-Rex die's step     ``TG>C2``             ``Move(T, GREEN, C2)`` (RR5.5, RR5.7)
a die that moves none  ``O-``, ``T-``        ``NoStep(O)`` (RR5.1, RR5.4, RR5.5)
a booster's step       ``+Y>D6``             ``Boost(YELLOW, D6)`` (RR5.6)
=====================  ====================  ==============================================

Spaces are ``int`` (:mod:`.track`); ``str(action)`` is its notation and ``repr(action)``
something you can paste back: ``Move.from_notation('O>B4')``. :func:`action_from_notation`
reads the notation without a position (no abbreviations: :func:`engine.race.parse_action`
reads what players type and checks it against the legal actions).

:class:`Forfeit` is no decision: it is how a log records that a seat left the race
(RR3.6); :func:`engine.race.replay` applies it with :func:`engine.race.forfeit`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from ..messages import Text
from .components import Face, Raptor, sorted_faces
from .errors import NotationError, OptionError
from .track import space, space_name


class _Base:
    __slots__ = ()
    kind: ClassVar[str]

    def __str__(self) -> str:
        return format_action(self)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_notation({format_action(self)!r})"  # type: ignore

    @classmethod
    def from_notation(cls, text: str) -> Any:
        """The action whose canonical notation is ``text`` (:func:`action_from_notation`),
        which must be of this class.

        Raises:
            NotationError: not the notation of an action of this class.
        """
        action = action_from_notation(text)
        if not isinstance(action, cls):
            raise NotationError(Text("{entry} is not the notation of a {kind} action",
                                     entry=repr(text), kind=cls.kind))
        return action


@dataclass(frozen=True, slots=True, repr=False)
class Keep(_Base):
    """Set aside ``faces`` of the footprint dice just rolled (a non-empty selection by face,
    in canonical order), and with ``arrows`` the arrows die too (RR4.2, RR4.3, RR9.3)."""

    kind: ClassVar[str] = "keep"
    faces: tuple[Face, ...]
    arrows: bool = False


@dataclass(frozen=True, slots=True, repr=False)
class Move(_Base):
    """Use the ``die`` of the result to step ``raptor`` to the space ``to``: a colour die
    moves its own raptor forward (RR5.3, RR5.4), the T-Rex any raptor back (RR5.5); the
    step may be diagonal with an arrow (RR5.7)."""

    kind: ClassVar[str] = "move"
    die: Face
    raptor: Raptor
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class NoStep(_Base):
    """Use up the ``die`` of the result that can move nothing (RR5.1, RR5.4, RR5.5)."""

    kind: ClassVar[str] = "no_step"
    die: Face


@dataclass(frozen=True, slots=True, repr=False)
class Boost(_Base):
    """The pending booster's forward step: ``raptor`` (another than the one on the booster)
    to ``to`` (RR5.6)."""

    kind: ClassVar[str] = "boost"
    raptor: Raptor
    to: int


@dataclass(frozen=True, slots=True, repr=False)
class Forfeit(_Base):
    """A log entry, never a legal action: the seat that logs it left the race (RR3.6)."""

    kind: ClassVar[str] = "forfeit"


#: A decision of a race (the closed union :func:`engine.race.legal_actions` returns).
Action = Keep | Move | NoStep | Boost
#: What a log holds: the decisions, and the seats' forfeits.
LogEntry = Keep | Move | NoStep | Boost | Forfeit
ACTION_TYPES: dict[str, type] = {cls.kind: cls for cls in (Keep, Move, NoStep, Boost, Forfeit)}
#: The word of a forfeit in a log's text form (a record writes ``seat N forfeits``).
FORFEIT_WORD = "forfeit"
#: The letter after ``keep`` that sets the arrows die aside too (RR9.3).
ARROWS_LETTER = "a"


def format_action(action: LogEntry) -> str:
    """The canonical notation of ``action`` (module table): ``"keep OOT a"``, ``"O>B4"``,
    ``"TG>C2"``, ``"O-"``, ``"+Y>D6"``; a forfeit is ``"forfeit"``.

    Raises:
        NotationError: not a race action.
    """
    t = type(action)
    if t is Move:
        who = action.die.value if action.die is not Face.T else f"T{action.raptor.value}"
        return f"{who}>{space_name[action.to]}"
    if t is Keep:
        faces = "".join(f.value for f in action.faces)
        return f"keep {faces} {ARROWS_LETTER}" if action.arrows else f"keep {faces}"
    if t is Boost:
        return f"+{action.raptor.value}>{space_name[action.to]}"
    if t is NoStep:
        return f"{action.die.value}-"
    if t is Forfeit:
        return FORFEIT_WORD
    raise NotationError(Text("not a race action: {action}", action=repr(action)))


_KEEP = re.compile(r"keep ([BGOPYT]+)( a)?")
_MOVE = re.compile(r"(?:([BGOPY])|T([BGOPY]))>([A-E]\d{1,2})")
_BOOST = re.compile(r"\+([BGOPY])>([A-E]\d{1,2})")
_NO_STEP = re.compile(r"([BGOPYT])-")


def action_from_notation(text: str) -> LogEntry:
    """The action whose canonical notation (:func:`format_action`) is ``text``.

    Raises:
        NotationError: anything else (abbreviations and other spellings are for
            :func:`engine.race.parse_action`).
    """
    try:
        if m := _KEEP.fullmatch(text):
            faces = tuple(Face(c) for c in m.group(1))
            if faces != sorted_faces(faces):
                raise ValueError("faces out of order")
            return Keep(faces, m.group(2) is not None)
        if m := _MOVE.fullmatch(text):
            if m.group(1):
                return Move(Face(m.group(1)), Raptor(m.group(1)), space(m.group(3)))
            return Move(Face.T, Raptor(m.group(2)), space(m.group(3)))
        if m := _BOOST.fullmatch(text):
            return Boost(Raptor(m.group(1)), space(m.group(2)))
        if m := _NO_STEP.fullmatch(text):
            return NoStep(Face(m.group(1)))
        if text == FORFEIT_WORD:
            return Forfeit()
    except (ValueError, OptionError):
        pass
    raise NotationError(Text("{entry} is not race notation: for example 'keep OOT a', "
                             "'O>B4', 'TG>C2', '+Y>D6' or 'O-'", entry=repr(text)))


def action_to_dict(action: LogEntry) -> dict[str, Any]:
    """A JSON-ready dict: ``{"kind": "move", "die": "O", "raptor": "O", "to": "B4"}``;
    inverse :func:`action_from_dict`."""
    t = type(action)
    if t is Keep:
        return {"kind": "keep", "faces": "".join(f.value for f in action.faces),
                "arrows": action.arrows}
    if t is Move:
        return {"kind": "move", "die": action.die.value, "raptor": action.raptor.value,
                "to": space_name[action.to]}
    if t is NoStep:
        return {"kind": "no_step", "die": action.die.value}
    if t is Boost:
        return {"kind": "boost", "raptor": action.raptor.value, "to": space_name[action.to]}
    if t is Forfeit:
        return {"kind": "forfeit"}
    raise NotationError(Text("not a race action: {action}", action=repr(action)))


def action_from_dict(data: Any) -> LogEntry:
    """Inverse of :func:`action_to_dict`.

    Raises:
        NotationError: an unknown kind, missing or extra fields, bad values.
    """
    try:
        kind = data["kind"]
        fields = set(data) - {"kind"}
        if kind == "keep" and fields == {"faces", "arrows"} and isinstance(data["arrows"],
                                                                           bool):
            faces = tuple(Face(c) for c in data["faces"])
            if faces and faces == sorted_faces(faces):
                return Keep(faces, data["arrows"])
        elif kind == "move" and fields == {"die", "raptor", "to"}:
            action = Move(Face(data["die"]), Raptor(data["raptor"]), space(data["to"]))
            if action.die in (Face.T, Face(action.raptor.value)):
                return action
        elif kind == "no_step" and fields == {"die"}:
            return NoStep(Face(data["die"]))
        elif kind == "boost" and fields == {"raptor", "to"}:
            return Boost(Raptor(data["raptor"]), space(data["to"]))
        elif kind == "forfeit" and not fields:
            return Forfeit()
    except (KeyError, TypeError, ValueError, AttributeError):
        pass
    raise NotationError(Text("not a race action record: {data}", data=repr(data)[:80]))
