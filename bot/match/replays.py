"""Finished matches shared again: which match a request names, its text record
(``docs/RECORD.md``) and the public views of its animation. Discord-free: the Discord layer
(``/raptor replay``, ``/raptor record``) and ``python -m bot replay`` call it.

Only a finished match is shared (its seed and hands no longer matter, R11.2); a match in
progress, a match of another server and an unknown number are refused with
:class:`InvalidRequestError` / :class:`NotFoundError` messages a player can act on.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import engine
from engine import Side
from engine.game import RecordHeader
from engine.messages import Text
from engine.raptor_game import side_of
from engine.record import Ending, ending_banner, round_states

from .. import games
from ..i18n import ENGLISH, tr
from .models import EndReason, InvalidRequestError, Match, NotFoundError
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


async def match_actions(service: MatchService, match: Match) -> list[tuple[int, Any]]:
    """The effective steps ``(seat, action)`` of ``match`` (undone ones left out; a seat's
    forfeit has the action None), in order."""
    return [(seat, action) for _, seat, action in await service.action_log(match.id)]


def record_header(match: Match, *, server: str, players: Sequence[str]) -> RecordHeader:
    """What the platform writes in the record of the finished ``match``: its event (the
    game's title and the match's number), ``server``, date, ``players`` by seat, and how it
    ended when that was outside the game (with the seats that won)."""
    title = tr(games.plugin(match.game).title, ENGLISH)
    ending = match.reason.value if isinstance(match.reason, EndReason) else None
    return RecordHeader(event=f"{title} match #{match.id}", server=server,
                        date=time.strftime("%Y-%m-%d", time.gmtime(match.created_at)),
                        players=tuple(players), ending=ending,
                        winners=match.winners if ending is not None else frozenset())


async def record_text(service: MatchService, match: Match, *, server: str,
                      players: Sequence[str]) -> str:
    """The text record of the finished ``match`` (its game's record format), its header
    naming ``server`` and the ``players`` by seat."""
    rules = games.plugin(match.game).game
    return rules.write_record(match.seed, match.seats, match.options,
                              await match_actions(service, match),
                              record_header(match, server=server, players=players))


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
