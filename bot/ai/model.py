"""The AI's fast transition model: the position after an action and its AP cost, for
evaluation only (:func:`engine.apply` stays the one source of truth for play)."""

from __future__ import annotations

from bot.ai.evaluation import Position
from engine import (
    Action,
    CallBaby,
    Capture,
    End,
    Frighten,
    Gas,
    Heal,
    Jeep,
    Kill,
    MoveBaby,
    MoveMother,
    MoveScientist,
    Phase,
    PlaceBaby,
    PlaceFire,
    PlaceMother,
    PlaceScientist,
    PutOut,
    Reinforce,
    Shoot,
    SleepBaby,
    Stand,
    Wake,
)
from engine.predicates import fire_group, jeep_clears, mother_move_cost, victory
from engine.state import (
    BABY,
    BABY_ASLEEP_NEW,
    EMPTY,
    EXIT,
    FIRE,
    MOTHER,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
)

#: The actions that change what a victory depends on (R6): escaped babies, scientists on
#: the board, captured babies, the mother's sleep tokens.
_MAY_WIN = frozenset({MoveBaby, Kill, Capture, Shoot})


def after(p: Position, a: Action, cost: int = 0) -> Position:
    """The position after ``a`` (a legal action costing ``cost`` AP), for evaluation only:
    the engine's :func:`engine.apply` stays the one source of truth for play. Its winner
    is set when the action ends the game (R6, R5.7: :func:`engine.predicates.victory`)."""
    q = p.copy()
    b = q.board
    t = type(a)
    if cost:
        q.ap_left -= cost
    if t is MoveMother:
        q.mother_moved = True
    if t is MoveBaby:
        b[a.frm] = EMPTY
        if b[a.to] == EXIT:
            q.escaped += 1
        else:
            b[a.to] = BABY
    elif t is MoveMother or t is MoveScientist or t is CallBaby:
        b[a.to] = b[a.frm]
        b[a.frm] = EMPTY
    elif t is Jeep:
        for x in jeep_clears(b, a.frm, a.to):
            b[x] = EMPTY
        b[a.to] = b[a.frm]
        b[a.frm] = EMPTY
    elif t is Kill:
        b[a.at] = EMPTY
    elif t is Wake:
        b[a.at] = BABY
    elif t is PutOut:
        for x in fire_group(b, a.at):
            b[x] = EMPTY
    elif t is Stand:
        b[a.at] = SCIENTIST_ACTIVE
    elif t is SleepBaby:
        b[a.at] = BABY_ASLEEP_NEW
        b[a.by] = SCIENTIST_USED
    elif t is Capture:
        b[a.at] = EMPTY
        b[a.by] = SCIENTIST_USED
        q.captured += 1
    elif t is Shoot:
        b[a.by] = SCIENTIST_USED
        q.sleep_tokens += 1
    elif t is Frighten:
        b[a.at] = SCIENTIST_FRIGHTENED_NEW
    elif t is Heal:
        q.sleep_tokens -= 1
    elif t is Gas:
        b[a.at] = BABY_ASLEEP_NEW
    elif t is Reinforce:
        b[a.to] = SCIENTIST_ACTIVE
        q.reserve -= 1
    elif t is PlaceFire:
        b[a.at] = FIRE
    elif t is PlaceMother:
        b[a.to] = MOTHER
        q.mother_off = False
    elif t is PlaceBaby:
        b[a.to] = BABY
    elif t is PlaceScientist:
        b[a.to] = SCIENTIST_ACTIVE
    if t in _MAY_WIN:
        won = victory(q)
        if won is not None:
            q.winner = won[0]
    return q


def ap_cost(a: Action, state) -> int:
    t = type(a)
    if t is MoveScientist:
        return a.cost
    if t is MoveMother:
        return mother_move_cost(state.sleep_tokens, state.ap.mother_moved)
    if t is End or state.phase is not Phase.AP:
        return 0
    return 1

