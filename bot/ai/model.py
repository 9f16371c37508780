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
from engine.geometry import NEIGHBOURS, RAYS
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


def _fire_group(b: list[int], start: int) -> list[int]:
    seen = {start}
    stack = [start]
    while stack:
        q = stack.pop()
        for n in NEIGHBOURS[q]:
            if b[n] == FIRE and n not in seen:
                seen.add(n)
                stack.append(n)
    return list(seen)


def after(p: Position, a: Action, cost: int = 0) -> Position:
    """The position after ``a`` (a legal action costing ``cost`` AP), for evaluation only:
    the engine's :func:`engine.apply` stays the one source of truth for play."""
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
        for ray in RAYS[a.frm]:
            if a.to in ray:
                for x in ray[: ray.index(a.to) + 1]:
                    if b[x] == FIRE:
                        b[x] = EMPTY
                break
        b[a.to] = b[a.frm]
        b[a.frm] = EMPTY
    elif t is Kill:
        b[a.at] = EMPTY
    elif t is Wake:
        b[a.at] = BABY
    elif t is PutOut:
        for x in _fire_group(b, a.at):
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
        q.sleep += 1
    elif t is Frighten:
        b[a.at] = SCIENTIST_FRIGHTENED_NEW
    elif t is Heal:
        q.sleep -= 1
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
    return q


def ap_cost(a: Action, state) -> int:
    t = type(a)
    if t is MoveScientist:
        return a.cost
    if t is MoveMother:
        return 1 if state.ap.mother_moved else 1 + state.sleep_tokens
    if t is End or state.phase is not Phase.AP:
        return 0
    return 1

