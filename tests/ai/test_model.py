"""Parity of the AI's fast transition model (bot/ai/model.py) with the engine: for every
legal non-pick action in seeded random positions, the position the model predicts equals
the one :func:`engine.apply` produces, on every field the model tracks.

What the model tracks (the fields of ``evaluation.Position`` that ``model.after`` changes or
carries): the board's cells, the mother's sleep tokens, escaped and captured babies, the
scientists' reserve, whether the mother is off the board, the coming observation (R5.2),
the winner (R6), and the action points still to come this round: their side, how many,
whether the mother has moved (R7.2's wound). It does not track the phase, the round, the
cards or the killed count. The AP count at the end of the AP phase and the board at the end
of the round are compared as the rules define them (R5.5: the rest of the AP is lost;
R5.6: this round's marks fade), see :func:`check`.

The evaluation and the card model also read a few rules straight off the board (shots,
the mother's moves, kills, wakes, sleeps, captures, the gas's reach): the second test
checks each against the engine's legal actions.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from bot.ai.evaluation import ACTIVE_SCI, Position, clear_shots, score
from bot.ai.model import after, ap_cost
from bot.ai.params import WIN
from bot.ai.pick_model import threats
from engine import End, GameState, Phase, Pick, Side, legal_actions
from engine.geometry import NEIGHBOURS
from engine.predicates import mother_move_cost, mother_runs
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    SCIENTIST_ACTIVE,
    SCIENTIST_CODES,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
)

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
#: R5.6 (and R7.4, R8.2, R8.6): at the round's end, this round's marks fade: babies put to
#: sleep this round, scientists that acted aggressively and those frightened this round
#: become plain sleeping babies, active and frightened scientists.
FADE = {BABY_ASLEEP_NEW: BABY_ASLEEP, SCIENTIST_USED: SCIENTIST_ACTIVE,
        SCIENTIST_FRIGHTENED_NEW: SCIENTIST_FRIGHTENED}


def decision_points(games: range) -> list[tuple[GameState, Side]]:
    """Every non-pick decision of seeded random games (manual setup, random layouts)."""
    out = []
    for seed in games:
        s = engine.new_game(seed)
        rng = random.Random(seed)
        while not s.is_over and s.round <= 150:
            for side in (RAPTOR, SCIENTIST):
                if side not in engine.to_act(s):
                    continue
                if s.phase is not Phase.PICK:
                    out.append((s, side))
                s = engine.apply(s, side, rng.choice(legal_actions(s, side)))
    return out


def predict(s: GameState, a) -> Position:
    """The model's position after ``a``, as the easy policy (``easy.ranked``) builds it."""
    q = after(Position.of(s), a, ap_cost(a, s))
    if type(a) is End and s.phase is Phase.AP:
        q.ap_left = 0  # R5.5: unspent AP are lost
    return q


def check(s: GameState, side: Side, a) -> str:
    """Compare the model's prediction for ``a`` with :func:`engine.apply`; returns what the
    comparison was (a kind, for the coverage counts). Fails on the first difference."""
    q = predict(s, a)
    new = engine.apply(s, side, a)
    e = Position.of(new)

    def where() -> str:  # the failure message: drawn only when an assertion fails
        return f"{engine.format_action(a)} by the {side.value}\n{engine.to_diagram(s)}"

    round_over = new.round != s.round
    board = [FADE.get(c, c) for c in q.board] if round_over else q.board
    assert board == e.board, where()
    for name in ("sleep_tokens", "escaped", "captured", "reserve", "mother_off", "observe_next",
                 "winner"):
        assert getattr(q, name) == getattr(e, name), (name, where())
    # the end of the game (R6) is what the evaluation scores +-WIN
    value = score(q)
    assert (value == WIN) == (new.winner is RAPTOR), (value, new.winner, where())
    assert (value == -WIN) == (new.winner is SCIENTIST), (value, new.winner, where())
    if new.phase is Phase.AP and not round_over:
        # the AP phase goes on (or starts after the effect): who, how many, the wound
        assert (q.ap_side, q.ap_left, q.mother_moved) == (
            new.ap.side, new.ap.remaining, new.ap.mother_moved), where()
        return "ap goes on"
    if new.phase is Phase.EFFECT and not round_over:
        assert (q.ap_side, q.ap_left) == (new.effect.side.other, e.ap_left), where()
        return "effect goes on"
    if s.phase in (Phase.EFFECT, Phase.AP) and new.phase is not Phase.OVER:
        # the AP phase is over (spent, ended, or nothing left affordable, R5.5): AP the
        # model still counts are worth nothing to it
        rest = q.copy()
        rest.ap_left = 0
        assert value == score(rest), (q.ap_left, where())
        return "ap over"
    return "other"


@pytest.fixture(scope="module")
def points() -> list[tuple[GameState, Side]]:
    return decision_points(range(1, 13))


def test_the_fast_model_predicts_what_the_engine_does(points):
    kinds: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    phases: Counter[tuple[Phase, Side]] = Counter()
    wounded_first_moves = 0
    for s, side in points:
        phases[s.phase, side] += 1
        for a in legal_actions(s, side):
            assert type(a) is not Pick
            kinds[check(s, side, a)] += 1
            actions[type(a).__name__] += 1
            wounded_first_moves += (type(a) is engine.MoveMother and s.sleep_tokens > 0
                                    and not s.ap.mother_moved)
    # coverage: every non-pick phase for the side that decides in it, every action type,
    # the mother's wound (R7.2), and each way a prediction is compared
    assert set(phases) == {(Phase.SETUP_MOTHER, RAPTOR), (Phase.SETUP_BABIES, RAPTOR),
                           (Phase.SETUP_SCIENTISTS, SCIENTIST), (Phase.EFFECT, RAPTOR),
                           (Phase.EFFECT, SCIENTIST), (Phase.AP, RAPTOR),
                           (Phase.AP, SCIENTIST), (Phase.MOTHER_RETURN, RAPTOR)}
    assert set(actions) == {cls.__name__ for cls in engine.ACTION_TYPES.values()} - {"Pick"}
    assert wounded_first_moves >= 100
    assert min(kinds.values()) >= 100 and set(kinds) == {"ap goes on", "effect goes on",
                                                        "ap over", "other"}
    assert sum(kinds.values()) >= 20_000


def targets(legal, cls, field: str = "at") -> set[int]:
    return {getattr(a, field) for a in legal if type(a) is cls}


def test_the_rule_facts_the_evaluation_reads_are_the_engines(points):
    """The evaluation and the card model read rules off the board without asking the engine
    (speed): who may shoot the mother (R8.5: only rocks and active scientists block), where
    the mother may move (R7.2), what she may kill or wake (R7.3, R7.4), which babies a
    scientist may put to sleep or capture (R8.3, R8.4), which babies a gas reaches (R10.1).
    Each equals the targets of the engine's legal actions wherever the engine offers them."""
    seen: Counter[str] = Counter()
    for s, side in points:
        b, legal = s.board, legal_actions(s, side)
        m = s.mother
        sleep_t, capture_t, gas = threats(b)
        if s.phase is Phase.AP and side is SCIENTIST:
            shots = set()
            if m is not None:
                active = [q for q in range(len(b)) if b[q] in ACTIVE_SCI]
                shots = {q for q in clear_shots(b, m, active) if b[q] == SCIENTIST_ACTIVE}
            assert targets(legal, engine.Shoot, "by") == shots, engine.to_diagram(s)
            assert len(targets(legal, engine.SleepBaby)) == sleep_t
            assert len(targets(legal, engine.Capture)) == capture_t
            seen["shots"] += len(shots)
            seen["sleeps"] += sleep_t
            seen["captures"] += capture_t
        elif s.phase is Phase.AP and side is RAPTOR and m is not None:
            near = NEIGHBOURS[m]
            assert targets(legal, engine.Kill) == {n for n in near if b[n] in SCIENTIST_CODES}
            assert targets(legal, engine.Wake) == {n for n in near if b[n] == BABY_ASLEEP}
            cost = mother_move_cost(s.sleep_tokens, s.ap.mother_moved)
            dests = set(mother_runs(b, m)) if s.ap.remaining >= cost else set()
            assert targets(legal, engine.MoveMother, "to") == dests, engine.to_diagram(s)
            seen["mother moves"] += len(dests)
            seen["kills"] += len(targets(legal, engine.Kill))
            seen["wakes"] += len(targets(legal, engine.Wake))
        elif s.phase is Phase.EFFECT and any(type(a) is engine.Gas for a in legal):
            assert len(targets(legal, engine.Gas)) == gas, engine.to_diagram(s)
            seen["gas"] += gas
            seen["babies out of the gas's reach"] += sum(1 for c in b if c == BABY) - gas
    assert set(seen) == {"shots", "sleeps", "captures", "mother moves", "kills", "wakes", "gas",
                         "babies out of the gas's reach"}
    assert min(seen.values()) >= 20, seen
