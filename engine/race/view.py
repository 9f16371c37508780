"""Per-seat views (RR9.1, RR9.2), and a full state drawn consistent with a seat's view.

A :class:`RaceView` is the only thing that leaves the engine for a player, a spectator,
the renderer or an AI. Everything on the table is in it (RR9.1); of the Top-3 cards, only
the viewer's own until the race ends, then every dealt card (RR9.2). The seed is not in it:
it fixes the deal and every roll to come.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .components import CARD_NUMBERS, Face, Raptor
from .errors import OptionError
from .rules import to_act
from .scoring import CardScore, Placing, card_scores, placing
from .state import Phase, RaceState, Step, dice_left
from .track import Board, Track, track


@dataclass(frozen=True, slots=True)
class RaceView:
    """What ``viewer`` may know (``viewer is None``: the public, spectator view).

    Attributes:
        viewer: the seat this view is for, or None (public).
        board, seats, first: how the race was set up (public).
        raptors: each raptor's space, in colour order.
        turn, seat, phase, to_act: the turn number, whose turn it is, its phase, who must
            decide now.
        rolled: the footprint dice of the last roll not set aside (ROLL); kept: the dice set
            aside this turn (in MOVE, the result); used: the result's dice used, in order.
        arrow_die, arrow_aside, arrows_used: the arrows die (Jungle; None on the Desert).
        pending: the raptor on a booster not yet resolved (RR5.6).
        forfeited: the seats that left the race (RR3.6).
        steps, last_steps, last_seat: what the result did this turn, and the turn before.
        winner: the raptor that crossed the finish line, once over.
        my_card: the viewer's own card number (None in the public view).
        cards: every seat's card once the race is over (RR7.1), else None.
        placing, scores: the RR6.2 groups and each seat's :class:`CardScore`, once over.
    """

    viewer: int | None
    board: Board
    seats: int
    first: int
    raptors: tuple[int, ...]
    turn: int
    seat: int
    phase: Phase
    to_act: frozenset[int]
    rolled: tuple[Face, ...]
    kept: tuple[Face, ...]
    used: tuple[Face, ...]
    arrow_die: int | None
    arrow_aside: bool
    arrows_used: int
    pending: Raptor | None
    forfeited: tuple[int, ...]
    steps: tuple[Step, ...]
    last_steps: tuple[Step, ...]
    last_seat: int | None
    winner: Raptor | None
    my_card: int | None
    cards: tuple[int, ...] | None
    placing: Placing | None
    scores: tuple[CardScore, ...] | None

    @property
    def track(self) -> Track:
        return track(self.board)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def left(self) -> tuple[Face, ...]:
        """The result's dice not yet used (MOVE)."""
        return dice_left(self.kept, self.used)

    @property
    def arrows_left(self) -> int:
        if self.phase is not Phase.MOVE or self.arrow_die is None:
            return 0
        return self.arrow_die - self.arrows_used


def view(state: RaceState, seat: int | None) -> RaceView:
    """The view of ``state`` for ``seat`` (None: public). Implements RR9.1 and RR9.2.

    Raises:
        OptionError: ``seat`` is not a seat of the table nor None.
    """
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.seats):
        raise OptionError(f"seat {seat!r} is not at this table of {state.seats}")
    over = state.is_over
    return RaceView(
        viewer=seat, board=state.board, seats=state.seats, first=state.first,
        raptors=state.raptors, turn=state.turn, seat=state.seat, phase=state.phase,
        to_act=to_act(state), rolled=state.rolled, kept=state.kept, used=state.used,
        arrow_die=state.arrow_die, arrow_aside=state.arrow_aside,
        arrows_used=state.arrows_used, pending=state.pending, forfeited=state.forfeited,
        steps=state.steps, last_steps=state.last_steps, last_seat=state.last_seat,
        winner=state.winner,
        my_card=None if seat is None else state.cards[seat],
        cards=state.cards if over else None,
        placing=placing(state.raptors, state.winner) if over else None,
        scores=card_scores(state) if over else None,
    )


def sample_state(v: RaceView, rng: random.Random) -> RaceState:
    """A full state consistent with a seat's view: the other seats' cards drawn at random
    among the cards that are not the viewer's (distinct), and a fresh seed for the rolls
    to come. For an AI that must look ahead (determinization).

    Raises:
        OptionError: the public view (``viewer is None``).
    """
    if v.viewer is None:
        raise OptionError("sample_state needs a seat's view, not the public one")
    if v.cards is not None:
        cards = v.cards
    else:
        pool = [c for c in CARD_NUMBERS if c != v.my_card]
        others = rng.sample(pool, v.seats - 1)
        cards = tuple(v.my_card if s == v.viewer else others.pop() for s in range(v.seats))
    return RaceState(
        seed=rng.getrandbits(48), board=v.board, seats=v.seats, cards=cards, first=v.first,
        raptors=v.raptors, turn=v.turn, seat=v.seat, phase=v.phase,
        rolls=0, rolled=v.rolled, kept=v.kept, arrow_die=v.arrow_die,
        arrow_aside=v.arrow_aside, used=v.used, arrows_used=v.arrows_used,
        pending=v.pending, forfeited=v.forfeited, winner=v.winner, steps=v.steps,
        last_steps=v.last_steps, last_seat=v.last_seat)

