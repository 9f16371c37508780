"""A Raptor match's seats as its sides: the raptor at seat 0, the scientist at seat 1
(:data:`engine.raptor_game.SEAT_SIDES`). What Raptor's presentation reads of a stored
:class:`~bot.match.Match`, in the game's own words. Discord-free.
"""

from __future__ import annotations

import engine
from engine import Options, Side
from engine.game import resolve_options
from engine.messages import Text
from engine.raptor_game import RAPTOR, SEAT_SIDES, SIDE_SEATS, side_of

from ...match.models import ActResult, Challenge, InvalidRequestError, Match

#: The sides a challenger or a practising player may wish for (``random``: drawn).
SIDE_WISHES = ("raptor", "scientist", "random")
DRAW = "draw"  # :func:`result` of a draw


def user(m: Match, side: Side | str) -> int:
    """The user id playing ``side``."""
    return m.user_of(SIDE_SEATS[Side(side)])


def ai(m: Match, side: Side | str) -> str | None:
    """The AI level playing ``side``, or None for a person."""
    return m.ai_of(SIDE_SEATS[Side(side)])


def side_in(m: Match, user_id: int) -> Side | None:
    """The side ``user_id`` plays, or None (one who plays both: the side that must act now,
    the raptor if both must)."""
    seat = m.seat_of(user_id)
    return None if seat is None else side_of(seat)


def result(m: Match) -> str | None:
    """The result of a finished match: the winning side's value, :data:`DRAW`, or None
    (still playing, or ended without a result)."""
    if m.draw:
        return DRAW
    winners = m.winners
    return side_of(next(iter(winners))).value if len(winners) == 1 else None


def options(m: Match | Challenge) -> Options:
    """The options of a match or of the match a challenge asks for (R1.3 environment, R2.6
    layout, R4 setup), those not given at their defaults (:data:`RAPTOR`'s specs)."""
    return Options(**resolve_options(RAPTOR.options, m.options))


def to_act(m: Match) -> frozenset[Side]:
    """The sides that must decide now."""
    return engine.to_act(m.state)


def seat_wish(word: str) -> int | None:
    """The seat of a side wished for: ``"raptor"`` 0, ``"scientist"`` 1, ``"random"`` None
    (drawn when the match starts).

    Raises:
        InvalidRequestError: not one of :data:`SIDE_WISHES`.
    """
    if word not in SIDE_WISHES:
        raise InvalidRequestError(Text("Unknown side {side}: choose {choices}.",
                                       side=repr(word), choices=", ".join(SIDE_WISHES)))
    return None if word == "random" else SIDE_SEATS[Side(word)]


def wish_word(seat: int | None) -> str:
    """The side wished for by a seat (:func:`seat_wish` read back)."""
    return "random" if seat is None else SEAT_SIDES[seat].value


def acted(res: ActResult) -> Side:
    """The side that made the decision of ``res``."""
    return side_of(res.seat)


def events(res: ActResult) -> tuple[engine.Event, ...]:
    """The public events of the decision of ``res`` (its new state's)."""
    return res.match.state.events


def round_ended(res: ActResult) -> bool:
    """Whether the decision of ``res`` ended a round."""
    return any(e.kind == "round_end" for e in res.match.state.events)


def waiting(m: Match) -> list[Side]:
    """The sides that must decide now (none once the match is over), raptor first."""
    return sorted(side_of(seat) for seat in m.waiting_for())


def idle_sides(m: Match) -> list[Side]:
    """The sides played by a person that must decide now, raptor first."""
    return [side_of(seat) for seat in m.idle_humans()]


__all__ = ["DRAW", "SIDE_WISHES", "acted", "ai", "events", "idle_sides", "options", "result",
           "round_ended", "seat_wish", "side_in", "to_act", "user", "waiting", "wish_word"]
