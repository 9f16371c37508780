"""Seeded random play: thousands of complete games, with invariants checked after every
step and deeper round-trip checks on a sample of steps.

Each game ``seed`` plays ``random.Random(seed).choice`` over the legal actions of a side in
``to_act`` (the lowest side first). The soak test plays 2,000 games split over the machine's
cores (at most 4 worker processes; ``-m soak``, run by ``.ci/run`` after the default run);
``-m slow`` plays 10,000 and prints a report (``-s``).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections import Counter
from dataclasses import dataclass

import pytest

from engine import (
    GameState,
    MoveBaby,
    Phase,
    Pick,
    Reason,
    Side,
    action_from_dict,
    apply,
    format_action,
    from_diagram,
    legal_actions,
    new_game,
    parse_action,
    replay,
    to_act,
    to_diagram,
    view,
)
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    EXIT,
    FIRE,
    MOTHER,
    ROCK,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
    VOID,
)

from .conftest import hidden_variant

RAPTOR, SCIENTIST = Side.RAPTOR, Side.SCIENTIST
SIDES = (RAPTOR, SCIENTIST)
SETUP_PHASES = frozenset({Phase.SETUP_MOTHER, Phase.SETUP_BABIES, Phase.SETUP_SCIENTISTS})
CARDS = list(range(1, 10))
MAX_ROUNDS = 5000          # a safety net only: the rules set no limit (R6.3)
DEEP_EVERY = 500           # deep round-trip checks on about 1 step in DEEP_EVERY
REPLAY_EVERY = 20          # replay the whole log of 1 game in REPLAY_EVERY


def options_for(seed: int) -> dict[str, str]:
    """Vary the options with the seed: both environments, both layouts, 1 game in 5 with a
    manual (randomly played) setup."""
    return {"environment": ("jungle", "savannah")[seed % 2],
            "layout": ("random", "random", "standard")[seed % 3],
            "setup": "manual" if seed % 5 == 0 else "quick"}


@dataclass(frozen=True)
class Ending:
    seed: int
    winner: str | None
    reason: str | None
    rounds: int
    steps: int


def check_step(s: GameState, prev: GameState, side: Side, action) -> None:
    """Invariants that must hold after every step (cheap)."""
    b = s.board
    n = bytes(b).count  # cell codes are small ints: counting bytes is fast
    babies = n(BABY) + n(BABY_ASLEEP) + n(BABY_ASLEEP_NEW)
    on_board = (n(SCIENTIST_ACTIVE) + n(SCIENTIST_USED) + n(SCIENTIST_FRIGHTENED)
                + n(SCIENTIST_FRIGHTENED_NEW))
    setup = s.phase in SETUP_PHASES
    if not setup:
        assert babies + s.escaped + s.captured == 5, "5 babies: board + escaped + captured"
        assert on_board + s.reserve + s.killed == 10, "10 scientists: board + reserve + killed"
        assert n(MOTHER) == (0 if s.mother_off else 1), "one mother unless disappeared"
    assert s.reserve >= 0 and s.killed >= 0
    assert n(FIRE) <= 10 and s.fire_supply == 10 - n(FIRE), "fire on board + supply = 10"
    assert 0 <= s.sleep_tokens <= 5, "sleep tokens 0-5"
    # Nothing but babies enters an exit: the exits stay exits, the rest of A and M stays void.
    assert n(EXIT) == 4 and all(b[e] == EXIT for e in s.layout.exits)
    assert n(VOID) == 8
    assert n(ROCK) == 9, "rocks never move or vanish"
    if type(action) is Pick or s.round != prev.round or prev.phase is Phase.EFFECT:
        for sd in SIDES:  # the steps where cards move: a pick, a card-1 shuffle, a round end
            pick = s.picks[sd]
            held = [*s.hands[sd], *s.decks[sd], *s.discards[sd]]
            if pick is not None:
                held.append(pick)
            held.sort()
            assert held == CARDS, f"{sd}: the 9 cards are hand + deck + discard + pick"
            assert len(s.hands[sd]) <= 3
    # Escapes only by a baby's move onto an exit (R3.2, R7.1).
    escaped_now = type(action) is MoveBaby and prev.board[action.to] == EXIT
    assert s.escaped == prev.escaped + escaped_now
    assert s.round == prev.round or s.round == prev.round + 1
    ph = s.phase
    if ph is Phase.PICK:
        assert s.effect is None and s.ap is None and s.revealed is None
        if s.picks[RAPTOR] is None and s.picks[SCIENTIST] is None:
            assert len(s.hands[RAPTOR]) == len(s.hands[SCIENTIST]) == 3, "hands back to 3"
            assert not (n(BABY_ASLEEP_NEW) or n(SCIENTIST_USED) or n(SCIENTIST_FRIGHTENED_NEW)), \
                "this-round marks are cleared at the end of the round"
    elif ph is Phase.EFFECT:
        assert s.effect is not None and s.revealed is not None and s.ap is None
    elif ph is Phase.AP:
        assert s.ap is not None and s.ap.remaining > 0 and s.effect is None
    elif ph is Phase.MOTHER_RETURN:
        assert s.mother_off and s.ap is None and s.effect is None
    won = {
        Reason.BABIES_ESCAPED: s.escaped >= 3,
        Reason.BABIES_CAPTURED: s.captured >= 3,
        Reason.MOTHER_ASLEEP: s.sleep_tokens >= 5,
        Reason.NO_SCIENTISTS: not setup and on_board == 0,
    }
    if ph is Phase.OVER:
        assert s.winner is not None and won[s.reason], "the winner's condition holds"
        assert s.winner is (RAPTOR if s.reason in (Reason.BABIES_ESCAPED,
                                                   Reason.NO_SCIENTISTS) else SCIENTIST)
        assert to_act(s) == frozenset()
    else:
        assert s.winner is None and not any(won.values()), "R5.7: a win ends the game at once"
        acting = to_act(s)
        assert acting, "someone must decide while the game is on"
        for sd in acting:
            assert legal_actions(s, sd), f"{sd} must decide but has no legal action"


def check_deep(s: GameState, prev: GameState, prev_json: str, rng: random.Random) -> None:
    """Round trips and hidden-information checks on a sampled step."""
    assert prev.to_json() == prev_json, "apply must not change the state it was given"
    assert GameState.from_json(s.to_json()) == s, "JSON round trip"
    assert from_diagram(to_diagram(s)).key() == s.key(), "diagram round trip"
    assert sorted(s.squares_with(ROCK)) == list(s.layout.rocks())
    for sd in to_act(s):
        for a in legal_actions(s, sd):
            text = format_action(a)
            assert parse_action(text, s, sd) == a, f"notation round trip of {text!r}"
            assert action_from_dict(a.to_dict()) == a
    for viewer in (RAPTOR, SCIENTIST, None):
        v = view(s, viewer)
        assert view(hidden_variant(s, viewer, rng), viewer) == v, f"{viewer} view leaks"
        if viewer is not None:
            assert v.hand == s.hands[viewer]
            opp = viewer.other
            hidden_pick = (s.picks[opp] is not None and s.revealed is None
                           and not (opp is SCIENTIST and s.observation))
            assert v.my_pick == s.picks[viewer]
            if hidden_pick:
                assert v.shown_pick is None
        else:
            assert v.hand is None and v.deck is None and v.my_pick is None
            assert v.shown_pick is None


def play_game(seed: int, *, deep_every: int = DEEP_EVERY,
              replay_every: int = REPLAY_EVERY) -> Ending:
    """Play one seeded random game, checking as it goes. Raises AssertionError with the seed,
    step and diagram on the first broken invariant."""
    opts = options_for(seed)
    rng = random.Random(seed)
    check_rng = random.Random(seed + 7_777_777)
    s = new_game(seed, **opts)
    log = []
    step = 0
    while not s.is_over and s.round <= MAX_ROUNDS:
        side = min(to_act(s))
        action = rng.choice(legal_actions(s, side))
        deep = check_rng.randrange(deep_every) == 0
        prev_json = s.to_json() if deep else ""
        try:
            nxt = apply(s, side, action)
            check_step(nxt, s, side, action)
            if deep:
                check_deep(nxt, s, prev_json, check_rng)
        except AssertionError as exc:
            raise AssertionError(f"seed {seed} {opts} step {step}: {side} "
                                 f"{format_action(action)}: {exc}\n{to_diagram(s)}") from exc
        log.append((side, action))
        s = nxt
        step += 1
    if seed % replay_every == 0:
        assert replay(seed, opts, log) == s, f"seed {seed}: replay differs from the game"
    return Ending(seed, s.winner and s.winner.value, s.reason and s.reason.value, s.round,
                  step)


def play_games(seeds: list[int]) -> list[Ending]:
    return [play_game(seed) for seed in seeds]


def run_parallel(seeds: range) -> tuple[list[Ending], float, int]:
    """Play ``seeds`` over up to 4 worker processes. Returns (endings, seconds, workers)."""
    workers = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                         else (os.cpu_count() or 1)))
    chunks = [list(seeds[i::workers * 8]) for i in range(workers * 8)]
    t0 = time.perf_counter()
    if workers == 1:
        results = [play_games(c) for c in chunks]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.map(play_games, chunks)
    endings = sorted((e for r in results for e in r), key=lambda e: e.seed)
    return endings, time.perf_counter() - t0, workers


def report(endings: list[Ending], seconds: float, workers: int) -> str:
    by_reason = Counter(f"{e.winner} {e.reason}" if e.winner else "unfinished" for e in endings)
    rounds = sorted(e.rounds for e in endings)
    steps = sum(e.steps for e in endings)
    long = sum(r > 300 for r in rounds)
    lines = [f"{len(endings)} games, {steps} steps in {seconds:.1f} s on {workers} processes",
             "endings: " + ", ".join(f"{k} {v}" for k, v in sorted(by_reason.items())),
             f"rounds: median {rounds[len(rounds) // 2]}, p90 {rounds[int(len(rounds) * .9)]}, "
             f"max {rounds[-1]}; games past 300 rounds: {long}"]
    return "\n".join(lines)


@pytest.mark.soak
def test_random_play_2000_games_keep_every_invariant():
    endings, seconds, workers = run_parallel(range(1, 2001))
    assert len(endings) == 2000
    assert [e.seed for e in endings] == list(range(1, 2001))
    unfinished = [e.seed for e in endings if e.winner is None]
    assert unfinished == [], f"games still running after {MAX_ROUNDS} rounds: {unfinished}"
    reasons = Counter(e.reason for e in endings)
    assert set(reasons) == {r.value for r in Reason}, f"every ending is reached: {reasons}"
    print("\n" + report(endings, seconds, workers))


def test_random_play_is_deterministic():
    assert play_game(12345, deep_every=10_000, replay_every=1) == play_game(
        12345, deep_every=10_000, replay_every=1)


@pytest.mark.slow
def test_random_play_10000_games_report():
    endings, seconds, workers = run_parallel(range(1, 10_001))
    assert all(e.winner is not None for e in endings)
    print("\n" + report(endings, seconds, workers))
