"""What Ratjack's offline modes share (the demo, the terminal game, the replays): the turns
of a match, the players' names on its images, the verdict of a match ended outside the
game, the ``--decks`` option."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.messages import Text
from engine.ratjack import DECK_PAIRS, RATJACK, Phase, State, view
from engine.ratjack.cards import DEFAULT_DECKS

from ...match import Match
from ...texts import ai_name
from .texts import REASONS, seat_label


def add_decks_option(parser: argparse.ArgumentParser) -> None:
    """``--decks``: the pair of decks of every round (RJ2.1), the game's one option."""
    parser.add_argument("--decks", choices=tuple(DECK_PAIRS), default=DEFAULT_DECKS,
                        help="the pair of decks of every round: r red rats, b blue rats, "
                             f"c raccoons, w weasels (default {DEFAULT_DECKS})")


def is_turn_end(before: State, after: State) -> bool:
    """Whether the step from ``before`` to ``after`` ended a turn (RJ3.2, an extra turn
    counting as a turn of its own, RJ5.3) or the game."""
    return ((after.round, after.turn) != (before.round, before.turn)
            or after.phase is Phase.OVER)


def turn_states(seed: int, seats: int, options: Mapping[str, str],
                log: Iterable[tuple[int, Any]]) -> list[State]:
    """The states of a match at its start and at the end of every turn (the next turn
    begun, or the game over), its last one the final state: the match replayed from its
    seed and its log of ``(seat, action)`` (an action of None: that seat's forfeit)."""
    s = RATJACK.new_game(seed, seats, options)
    out = [s]
    for seat, action in log:
        before = s
        s = RATJACK.forfeit(s, seat) if action is None else RATJACK.apply(s, seat, action)
        if is_turn_end(before, s):
            out.append(s)
    if out[-1] is not s:
        out.append(s)
    return out


def image_names(match: Match, tr: Callable[[Any], str] = str) -> list[str]:
    """The players' names on the images of ``match``'s table: ``p2 AI (hard)`` for an AI
    seat, the seat alone (``p1``) for a person, whose name the database does not hold."""
    return [tr(seat_label(p.seat, ai_name(p.ai))) if p.ai else f"p{p.seat + 1}"
            for p in match.players]


def verdict(match: Match, tr: Callable[[Any], str] = str) -> str | None:
    """The banner of the last frame of a match that ended outside the game (stopped, ended
    by a moderator, ...), without names; None when the game itself ended."""
    if match.active or match.state.phase is Phase.OVER:
        return None
    reason = match.reason or ""
    return tr(Text("Match over: {why}", why=REASONS.get(reason, reason.replace("_", " "))))


def animation_views(states: Sequence[State]) -> list:
    """The public views of ``states`` (RJ11.1), the frames' positions."""
    return [view(s, None) for s in states]
