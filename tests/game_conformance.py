"""What every :class:`engine.game.Game` must do, checked by seeded random play through the
protocol alone: each game's tests call :func:`play_checked` (Raptor's, the toy game's, and
the other games' own).

At every step of every game played:

- ``to_act`` names seats of the table, and each of them has legal actions;
- every legal action formats to notation that parses back to it, and its stored JSON reads
  back to it;
- ``apply`` leaves its argument unchanged (its stored JSON is the same before and after);
- the state's stored JSON reads back to a state that stores the same JSON and has the same
  seats to act;
- the game ends within ``max_steps``, and once it is over nobody is to act and ``outcome``
  ranks every seat (before that, ``outcome`` is None);
- ``replay`` of the seed and the log rebuilds the final state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.game import Game, Outcome, Seat


@dataclass(frozen=True)
class Played:
    """One game played by :func:`play_checked`: its seed, the log of ``(seat, action)``
    pairs, the final state and its outcome."""

    seed: int
    seats: int
    options: Mapping[str, str]
    log: tuple[tuple[Seat, Any], ...]
    final: Any
    outcome: Outcome


def play_checked(game: Game, seed: int, seats: int, options: Mapping[str, str], *,
                 max_steps: int = 20_000, check_every: int = 1,
                 chooser: Callable[[random.Random, list[Any]], Any] | None = None) -> Played:
    """Play one game with uniformly random legal actions (or ``chooser(rng, legal)``),
    checking the protocol's promises (module docstring) at every ``check_every``-th step;
    returns what was played.

    Raises:
        AssertionError: a promise broken, with the seed and the step in the message.
    """
    rng = random.Random(seed)
    state = game.new_game(seed, seats, options)
    log: list[tuple[Seat, Any]] = []
    for step in range(max_steps):
        where = f"{game.name} seed {seed}, {seats} seats, step {step}"
        acting = game.to_act(state)
        if not acting:
            break
        assert acting <= set(range(seats)), f"{where}: to_act {acting} outside the table"
        assert game.outcome(state) is None, f"{where}: an outcome while seats must act"
        seat = rng.choice(sorted(acting))
        legal = list(game.legal_actions(state, seat))
        assert legal, f"{where}: seat {seat} must act but has no legal action"
        check = step % check_every == 0
        if check:
            for other in acting:
                assert game.legal_actions(state, other), f"{where}: seat {other} stuck"
            for action in legal:
                text = game.format_action(action)
                assert game.parse_action(text, state, seat) == action, (
                    f"{where}: {text!r} does not parse back to {action!r}")
                assert game.action_from_json(game.action_to_json(action)) == action, (
                    f"{where}: {action!r} does not read back from its JSON")
            before = game.state_to_json(state)
        action = chooser(rng, legal) if chooser is not None else rng.choice(legal)
        after = game.apply(state, seat, action)
        log.append((seat, action))
        if check:
            assert game.state_to_json(state) == before, f"{where}: apply changed its argument"
            text = game.state_to_json(after)
            back = game.state_from_json(text)
            assert game.state_to_json(back) == text, f"{where}: the JSON does not round-trip"
            assert game.to_act(back) == game.to_act(after), f"{where}: to_act after JSON"
        state = after
    else:
        raise AssertionError(f"{game.name} seed {seed}: not over after {max_steps} steps")
    assert game.is_over(state), f"{game.name} seed {seed}: nobody to act, but not over"
    outcome = game.outcome(state)
    assert outcome is not None and len(outcome.places) == seats, (
        f"{game.name} seed {seed}: the outcome {outcome!r} does not rank {seats} seats")
    replayed = game.replay(seed, seats, options, log)
    assert game.state_to_json(replayed) == game.state_to_json(state), (
        f"{game.name} seed {seed}: replay does not rebuild the final state")
    return Played(seed, seats, dict(options), tuple(log), state, outcome)
