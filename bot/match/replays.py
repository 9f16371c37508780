"""Finished matches shared again: which match a request names, its text record
(``docs/RECORD.md``) and the public views of its animation. Discord-free: the Discord layer
(``/raptor replay``, ``/raptor record``) and ``python -m bot replay`` call it.

Only a finished match is shared (its seed and hands no longer matter, R11.2); a match in
progress, a match of another server and an unknown number are refused with
:class:`InvalidRequestError` / :class:`NotFoundError` messages a player can act on.
"""

from __future__ import annotations

import time

import engine
from engine import Side
from engine.messages import Text
from engine.record import Ending, ending_banner, round_states

from .models import InvalidRequestError, Match, NotFoundError
from .service import MatchService


async def finished_match(service: MatchService, guild_id: int, channel_id: int,
                         number: int | None = None) -> Match:
    """The finished match ``number`` of server ``guild_id``, or this channel's last finished
    match when ``number`` is None.

    Raises:
        NotFoundError: no such match in this server (another server's match is not named),
            or no finished match in the channel.
        InvalidRequestError: the match is still being played.
    """
    if number is None:
        match = await service.last_finished(channel_id)
        if match is None:
            raise NotFoundError("No match has finished in this channel yet: name one from "
                                "`/raptor history`, e.g. `/raptor replay match:12`.")
        return match
    try:
        match = await service.get_match(number)
    except NotFoundError:
        match = None
    if match is None or match.guild_id != guild_id:
        raise NotFoundError(Text("There is no match #{n} in this server: `/raptor history` "
                                 "lists yours.", n=number))
    if match.active:
        raise InvalidRequestError(Text("Match #{n} is still being played: its replay and "
                                       "record come once it is over (until then its hands are "
                                       "secret).", n=number))
    return match


async def match_actions(service: MatchService, match: Match) -> list[tuple[Side, engine.Action]]:
    """The effective decisions of ``match`` (undone ones left out), in order."""
    return [(side, action) for _, side, action in await service.action_log(match.id)]


async def record_text(service: MatchService, match: Match, *, server: str, raptor: str,
                      scientist: str) -> str:
    """The text record of the finished ``match`` (:func:`engine.write_record`), its header
    naming ``server`` and the players."""
    return engine.write_record(
        match.seed, match.options, await match_actions(service, match),
        result=match.result, reason=match.reason, event=f"Raptor match #{match.id}",
        server=server, date=time.strftime("%Y-%m-%d", time.gmtime(match.created_at)),
        raptor=raptor, scientist=scientist)


async def replay_views(service: MatchService, match: Match
                       ) -> tuple[list[engine.View], str | None, Side | None]:
    """The public views after each round of the finished ``match`` (the animation's
    frames, :func:`render.replay.render_replay`), and the verdict and winner of its last
    frame when it ended outside the game (else None, None)."""
    states = round_states(match.seed, match.options, await match_actions(service, match))
    views = [engine.view(s, None) for s in states]
    if states and states[-1].is_over:
        return views, None, None
    winner = Side(match.result) if match.result in ("raptor", "scientist") else None
    reason = match.reason or Ending.ENDED_BY_MODERATOR
    return views, ending_banner(match.result, reason), winner
