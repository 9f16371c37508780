"""Legality and the consequences of actions: ``new_game``, ``to_act``, ``legal_actions``,
``apply``, ``forfeit``, ``replay``.

Chance is explicit and seeded: the start (RR3.3), the deal (RR3.4) and the first seat
(RR3.5) each have a stream of their own from the seed, and so has the n-th roll of the race
(:func:`roll_dice`); nothing calls the global ``random``. The seed and the log rebuild the
exact state (:func:`replay`).

``legal_actions`` is the one source of legality: ``apply`` accepts exactly its actions, the
notation parser picks from them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

from ..messages import Text
from .actions import Action, Boost, Forfeit, Keep, LogEntry, Move, NoStep, format_action
from .components import (
    ARROW_FACES,
    CARD_NUMBERS,
    FOOTPRINT_DICE,
    FOOTPRINT_FACES,
    RAPTORS,
    Face,
    Raptor,
    sorted_faces,
)
from .errors import IllegalActionError, OptionError, WrongTurnError
from .predicates import back_steps, forward_steps, is_diagonal, keep_choices
from .state import BOOSTER, MAX_SEATS, MIN_SEATS, Phase, RaceState, Step
from .track import Board, at, track


def _stream(seed: int, what: str) -> random.Random:
    """The chance stream ``what`` of the game ``seed`` (independent of every other)."""
    return random.Random(f"race:{seed}:{what}")


def roll_dice(seed: int, n: int, footprint: int, arrows: bool) -> tuple[tuple[Face, ...],
                                                                       int | None]:
    """The ``n``-th roll (from 0) of the race ``seed``: ``footprint`` footprint dice (RR1.3),
    in canonical order, and the arrows die's face when ``arrows`` (RR1.4), else None."""
    rng = _stream(seed, f"roll:{n}")
    faces = sorted_faces(rng.choice(FOOTPRINT_FACES) for _ in range(footprint))
    return faces, (rng.choice(ARROW_FACES) if arrows else None)


def new_game(seed: int, seats: int, board: Board | str = Board.DESERT) -> RaceState:
    """A new race for ``seats`` players on ``board``, its first roll made (RR3, RR4.1).

    The raptors stand one per lane on row 0 in an order drawn from the seed (RR3.3), each
    seat is dealt a different card (RR3.4) and the first seat is drawn (RR3.5).

    Raises:
        OptionError: a seat count outside 2-5 (RR3.1) or an unknown board.
    """
    if not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionError(f"Raptor Race is played by 2 to 5 players, not {seats!r}")
    t = track(board)
    lanes = list(range(5))
    _stream(seed, "start").shuffle(lanes)
    cards = tuple(_stream(seed, "deal").sample(CARD_NUMBERS, seats))
    first = _stream(seed, "first").randrange(seats)
    state = RaceState(
        seed=seed, board=t.board, seats=seats, cards=cards, first=first,
        raptors=tuple(at(lane, 0) for lane in lanes), turn=0, seat=first, phase=Phase.ROLL,
        rolls=0, rolled=(), kept=(), arrow_die=None, arrow_aside=False, used=(),
        arrows_used=0, pending=None, forfeited=(), winner=None, steps=(), last_steps=(),
        last_seat=None)
    return _begin_turn(state, first, last_steps=(), last_seat=None)


def _begin_turn(state: RaceState, seat: int, *, last_steps: tuple[Step, ...],
                last_seat: int | None) -> RaceState:
    """``seat``'s turn, begun by rolling every die in use (RR4.1)."""
    faces, arrows = roll_dice(state.seed, state.rolls, FOOTPRINT_DICE, state.track.arrows)
    return replace(state, turn=state.turn + 1, seat=seat, phase=Phase.ROLL,
                   rolls=state.rolls + 1, rolled=faces, kept=(), arrow_die=arrows,
                   arrow_aside=False, used=(), arrows_used=0, pending=None, steps=(),
                   last_steps=last_steps, last_seat=last_seat)


def next_seat(state: RaceState, seat: int) -> int | None:
    """The seat that plays after ``seat`` (seat order, RR3.5), forfeited seats skipped
    (RR3.6); None when none is left."""
    for k in range(1, state.seats + 1):
        other = (seat + k) % state.seats
        if other not in state.forfeited:
            return other
    return None


def _end_turn(state: RaceState) -> RaceState:
    nxt = next_seat(state, state.seat)
    if nxt is None:  # every seat has left: forfeit() refuses to get here
        raise AssertionError("no seat left to play")
    return _begin_turn(state, nxt, last_steps=state.steps, last_seat=state.seat)


def to_act(state: RaceState) -> frozenset[int]:
    """The seat that must decide now (the seat whose turn it is), none once the race is
    over."""
    if state.phase is Phase.OVER:
        return frozenset()
    return frozenset((state.seat,))


def booster_steps(state: RaceState) -> list[Boost]:
    """The pending booster's steps (RR5.6): each raptor other than the one on the booster
    that can take a forward step, to each space it may reach (RR5.3, RR5.4, RR5.7, RR5.8;
    every die not yet used counts for RR5.8)."""
    t, raptors, arrows = state.track, state.raptors, state.arrows_left
    after = len(state.left)
    out = []
    for r in RAPTORS:
        if r is not state.pending:
            out.extend(Boost(r, to) for to in forward_steps(t, raptors, raptors[r.index],
                                                             arrows, after))
    return out


def die_steps(state: RaceState, face: Face) -> list[Move]:
    """The steps an unused die of ``face`` gives now: its raptor forward for a colour
    (RR5.3, RR5.4), any raptor that can step back for the T-Rex (RR5.5), each to every
    space it may reach (RR5.7, RR5.8); empty when it can move nothing."""
    t, raptors, arrows = state.track, state.raptors, state.arrows_left
    after = len(state.left) - 1
    if face is Face.T:
        return [Move(face, r, to) for r in RAPTORS
                for to in back_steps(t, raptors, raptors[r.index], arrows, after)]
    r = face.raptor
    return [Move(face, r, to) for to in forward_steps(t, raptors, raptors[r.index], arrows,
                                                       after)]


def keep_actions(state: RaceState) -> list[Keep]:
    """The selections that may be set aside after this roll (RR4.2, RR9.3), on the Jungle
    each with and without the arrows die while it is still rolled and some footprint dice
    would be rolled again (RR4.3)."""
    out = []
    arrows_open = state.arrow_die is not None and not state.arrow_aside
    for faces in keep_choices(state.rolled):
        out.append(Keep(faces))
        if arrows_open and len(faces) < len(state.rolled):
            out.append(Keep(faces, True))
    return out


def legal_actions(state: RaceState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now, in a fixed order (empty when it has nothing to
    decide): a :class:`Keep` per selection after a roll (RR9.3); while a booster is pending
    its steps only (RR5.6); otherwise each unused die's steps, or its :class:`NoStep` when
    it can move nothing (RR5.1, RR9.4)."""
    if state.phase is Phase.OVER or seat != state.seat:
        return []
    return list(_legal(state))


#: The legal actions of the last states asked about, by identity: ``id -> (state, actions)``
#: (the parser and ``apply`` ask again about the very state a caller has just listed; the
#: state is kept so that its id stays its own).
_MEMO: dict[int, tuple[RaceState, tuple[Action, ...]]] = {}
_MEMO_SIZE = 64


def _legal(state: RaceState) -> tuple[Action, ...]:
    """The legal actions of the seat to play, remembered for the last states asked."""
    hit = _MEMO.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    actions = _list_legal(state)
    _MEMO[id(state)] = (state, actions)
    return actions


def _list_legal(state: RaceState) -> tuple[Action, ...]:
    if state.phase is Phase.ROLL:
        return tuple(keep_actions(state))
    if state.pending is not None:
        return tuple(booster_steps(state))
    out: list[Action] = []
    for face in sorted_faces(set(state.left)):
        steps = die_steps(state, face)
        out.extend(steps if steps else [NoStep(face)])
    return tuple(out)


def apply(state: RaceState, seat: int, action: Action) -> RaceState:
    """The state after ``seat`` plays ``action`` (one of :func:`legal_actions`); ``state``
    is unchanged.

    Raises:
        WrongTurnError: ``seat`` has nothing to decide now (the message says whose turn it
            is, or that the race is over).
        IllegalActionError: ``action`` is not legal now (the message lists what is).
    """
    legal = legal_actions(state, seat) if seat == state.seat else []
    if not legal:
        raise WrongTurnError(_not_your_turn(state, seat))
    if action not in legal:
        raise IllegalActionError(Text("{action} is not legal now; legal: {legal}",
                                      action=_quoted(action),
                                      legal=", ".join(format_action(a) for a in legal)))
    if type(action) is Keep:
        return _keep(state, action)
    if type(action) is NoStep:
        return _after_die(replace(state, used=state.used + (action.die,),
                                  steps=state.steps + (Step(action.die.value),)))
    if type(action) is Move:
        moved = replace(state, used=state.used + (action.die,))
        return _step(moved, action.die.value, action.raptor, action.to)
    return _step(replace(state, pending=None), BOOSTER, action.raptor, action.to)


def _quoted(action: object) -> str:
    try:
        return repr(format_action(action))  # type: ignore[arg-type]
    except ValueError:
        return repr(action)[:60]


def _not_your_turn(state: RaceState, seat: int) -> Text:
    if state.phase is Phase.OVER:
        return Text("the race is over")
    if seat in state.forfeited:
        return Text("seat {seat} has left the race", seat=seat + 1)
    return Text("it is not your turn: seat {seat} is playing", seat=state.seat + 1)


def _keep(state: RaceState, action: Keep) -> RaceState:
    """RR4.2, RR4.3: set the selection aside; roll the others again, or end the rolling."""
    rolled = list(state.rolled)
    for face in action.faces:
        rolled.remove(face)
    kept = sorted_faces(state.kept + action.faces)
    if not rolled:  # every footprint die set aside: the arrows die as it lies (RR4.3)
        return replace(state, phase=Phase.MOVE, rolled=(), kept=kept,
                       arrow_aside=state.arrow_die is not None)
    aside = state.arrow_aside or action.arrows
    faces, arrows = roll_dice(state.seed, state.rolls, len(rolled),
                              state.arrow_die is not None and not aside)
    return replace(state, rolls=state.rolls + 1, rolled=faces, kept=kept,
                   arrow_die=state.arrow_die if arrows is None else arrows, arrow_aside=aside)


def _step(state: RaceState, by: str, raptor: Raptor, to: int) -> RaceState:
    """Move ``raptor`` to ``to`` (a legal end, RR5.2); the race ends if it crossed the
    finish line (RR6.1); a booster it ends on is pending (RR5.6)."""
    frm = state.raptors[raptor.index]
    raptors = state.raptors[:raptor.index] + (to,) + state.raptors[raptor.index + 1:]
    t = state.track
    state = replace(state, raptors=raptors,
                    arrows_used=state.arrows_used + is_diagonal(frm, to),
                    steps=state.steps + (Step(by, raptor, frm, to),))
    if t.crossed(to):  # RR6.1: unused dice, arrows and boosters are lost
        return replace(state, phase=Phase.OVER, winner=raptor, pending=None)
    if to in t.boosters:
        state = replace(state, pending=raptor)
        if not booster_steps(state):  # RR5.6 ruling: no other raptor can step
            state = replace(state, pending=None, steps=state.steps + (Step(BOOSTER),))
        else:
            return state
    return _after_die(state)


def _after_die(state: RaceState) -> RaceState:
    """The turn ends when every die of the result is used and no booster is pending."""
    if state.pending is None and not state.left:
        return _end_turn(state)
    return state


def forfeit(state: RaceState, seat: int) -> RaceState | None:
    """The state after ``seat`` leaves the race for good (RR3.6): it is skipped from then
    on; a turn it had begun ends at once, its unused dice lost; its card still scores.
    A seat that has already left, or a race that is over, leaves the state as it is.
    None when no seat would be left to play (RR3.7).

    Raises:
        OptionError: not a seat of the table.
    """
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise OptionError(f"seat {seat!r} is not at this table of {state.seats}")
    if state.phase is Phase.OVER or seat in state.forfeited:
        return state
    if len(state.forfeited) + 1 == state.seats:
        return None
    state = replace(state, forfeited=tuple(sorted(state.forfeited + (seat,))))
    if seat == state.seat:
        return _end_turn(replace(state, pending=None))
    return state


def replay(seed: int, seats: int, board: Board | str,
           log: Iterable[tuple[int, LogEntry]]) -> RaceState:
    """The state reached from ``new_game(seed, seats, board)`` by the ``(seat, entry)``
    pairs of ``log``: decisions, and :class:`Forfeit` entries (:func:`forfeit`).

    Raises:
        OptionError: bad options.
        IllegalActionError, WrongTurnError: an entry that is not legal at its point.
    """
    state = new_game(seed, seats, board)
    for seat, entry in log:
        if type(entry) is Forfeit:
            after = forfeit(state, seat)
            if after is None or after is state:
                raise IllegalActionError(Text("seat {seat} cannot leave the race here",
                                              seat=seat + 1))
            state = after
        else:
            state = apply(state, seat, entry)
    return state

