"""Helpers for the race engine's tests: positions from diagrams, actions by notation, states
along seeded random races, and the invariants every reachable position keeps."""

from __future__ import annotations

import random
import textwrap
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import engine.race as R
from engine.race import Face, Phase, RaceState, Raptor
from engine.race.components import CARDS, FOOTPRINT_DICE
from engine.race.track import space_name


def position(text: str) -> RaceState:
    """The state of a diagram (:func:`engine.race.from_diagram`), indentation removed."""
    return R.from_diagram(textwrap.dedent(text))


def acts(state: RaceState, seat: int | None = None) -> list[str]:
    """The notation of every legal action of ``seat`` (default: the seat to play), in the
    engine's order; no two share a notation."""
    seat = state.seat if seat is None else seat
    out = [R.format_action(a) for a in R.legal_actions(state, seat)]
    assert len(out) == len(set(out)), f"two legal actions share a notation: {out}"
    return out


def play(state: RaceState, *texts: str) -> RaceState:
    """Apply actions typed in notation, each by the seat to play."""
    for text in texts:
        state = R.apply(state, state.seat, R.parse_action(text, state, state.seat))
    return state


def where(state: RaceState) -> dict[str, str]:
    """Each raptor's space by letter: ``{"B": "D4", ...}``."""
    return {r.value: space_name[sp] for r, sp in zip(R.RAPTORS, state.raptors, strict=True)}


def with_rolls(state: RaceState, *rolls: str) -> RaceState:
    """``state`` with the first seed (from 0) whose next rolls show ``rolls`` (footprint
    dice as letters, in any order): a scenario can then play a rulebook example's rolls
    with the engine's own seeded dice."""
    for seed in range(200_000):
        n, ok = state.rolls, True
        for roll in rolls:
            faces, _ = R.roll_dice(seed, n, len(roll), False)
            if sorted(f.value for f in faces) != sorted(roll):
                ok = False
                break
            n += 1
        if ok:
            return replace(state, seed=seed)
    raise AssertionError(f"no seed rolls {rolls}")


def random_race(seed: int, seats: int, board: str, rng: random.Random | None = None
                ) -> Iterator[RaceState]:
    """Every state of a seeded race played with random legal actions, the new game first."""
    rng = rng or random.Random(seed)
    state = R.new_game(seed, seats, board)
    yield state
    while not state.is_over:
        state = R.apply(state, state.seat, rng.choice(R.legal_actions(state, state.seat)))
        yield state


def sampled_states(games: int, every: int) -> list[RaceState]:
    """Every ``every``-th state of ``games`` random races (2-5 seats, both boards)."""
    out = []
    for seed in range(games):
        for i, state in enumerate(random_race(seed, 2 + seed % 4,
                                              ("desert", "jungle")[seed % 2])):
            if i % every == 0 or state.is_over:
                out.append(state)
    return out


def check_invariants(state: RaceState) -> None:
    """What every reachable position keeps (RR1-RR5), asserted."""
    t = state.track
    assert len(set(state.raptors)) == 5, "five raptors on distinct spaces"
    for sp in state.raptors:
        assert t.on_track(sp) and sp not in t.obstacles, f"{space_name[sp]} is not free"
    beyond = [r for r, sp in zip(R.RAPTORS, state.raptors, strict=True) if t.crossed(sp)]
    assert beyond == ([state.winner] if state.is_over else []), "only the winner crossed"
    assert len(set(state.cards)) == state.seats and set(state.cards) <= set(CARDS)
    assert len(state.rolled) + len(state.kept) == FOOTPRINT_DICE
    used = Counter(state.used)
    assert not used - Counter(state.kept), "only dice of the result are used"
    if state.phase is Phase.ROLL:
        assert state.rolled and not state.used and state.pending is None
        assert state.arrows_used == 0
    if state.phase is Phase.MOVE:
        assert not state.rolled and (state.left or state.pending is not None)
        assert state.arrow_aside == t.arrows
    if t.arrows:
        assert state.arrow_die in (0, 1, 2)
        assert 0 <= state.arrows_used <= state.arrow_die, "arrows never negative"
    else:
        assert state.arrow_die is None and state.arrows_used == 0
    assert state.seat not in state.forfeited or state.is_over
    if state.pending is not None:
        assert state.raptors[state.pending.index] in t.boosters
    assert all(isinstance(f, Face) for f in state.rolled + state.kept + state.used)
    assert state.phase is not Phase.OVER or isinstance(state.winner, Raptor)


__all__ = ["acts", "check_invariants", "play", "position", "random_race", "sampled_states",
           "where", "with_rolls"]
