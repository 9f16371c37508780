"""Raptor's replays: the public views after each round of a finished match, the frames of
its animation and of the step-through viewer (R5.6, public only: R11.1)."""

from __future__ import annotations

import engine
from engine import Side
from engine.raptor_game import side_of
from engine.record import Ending, ending_banner, round_states

from ...match import Match, MatchService
from ...match.replays import match_actions


async def replay_views(service: MatchService, match: Match
                       ) -> tuple[list[engine.View], str | None, Side | None]:
    """The public views after each round of the finished Raptor ``match`` (the animation's
    frames, :func:`render.replay.render_replay`), and the verdict and winner of its last
    frame when it ended outside the game (else None, None)."""
    actions = [(side_of(seat), action) for seat, action in await match_actions(service, match)]
    states = round_states(match.seed, engine.Options(**match.options), actions)
    views = [engine.view(s, None) for s in states]
    if states and states[-1].is_over:
        return views, None, None
    winner = (side_of(next(iter(match.winners))) if len(match.winners) == 1 else None)
    result = ("draw" if match.draw else winner.value if winner is not None else None)
    reason = match.reason or Ending.ENDED_BY_MODERATOR
    return views, ending_banner(result, reason), winner
