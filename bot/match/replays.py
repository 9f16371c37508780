"""Finished matches shared again, of any game: which match a request names, its decisions
and its text record (in its game's format; Raptor's ``docs/RECORD.md``). Discord-free: the
Discord layer (``/<game> replay``, ``/<game> record``) and ``python -m bot replay`` call it;
each game draws its own replay from :func:`match_actions`.

Only a finished match is shared (its seed and hands no longer matter, R11.2); a match in
progress, a match of another server and an unknown number are refused with
:class:`InvalidRequestError` / :class:`NotFoundError` messages a player can act on.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from engine.game import RecordHeader
from engine.messages import Text

from .. import games
from ..i18n import ENGLISH, tr
from .models import EndReason, InvalidRequestError, Match, NotFoundError
from .service import MatchService


async def finished_match(service: MatchService, guild_id: int, channel_id: int,
                         number: int | None = None, *, game: str | None = None) -> Match:
    """The finished match ``number`` of server ``guild_id`` (of ``game`` when given), or
    this channel's last finished match when ``number`` is None.

    Raises:
        NotFoundError: no such match in this server (another server's match, or another
            game's, is not named), or no finished match in the channel.
        InvalidRequestError: the match is still being played.
    """
    group = game or "raptor"  # the command group the sentences name
    if number is None:
        match = await service.last_finished(channel_id)
        if match is None or (game is not None and match.game != game):
            raise NotFoundError(Text("No match has finished in this channel yet: name one "
                                     "from `/{group} history`, e.g. `/{group} replay "
                                     "match:12`.", group=group))
        return match
    try:
        match = await service.get_match(number)
    except NotFoundError:
        match = None
    if match is None or match.guild_id != guild_id or (game is not None
                                                       and match.game != game):
        raise NotFoundError(Text("There is no match #{n} in this server: `/{group} history` "
                                 "lists yours.", n=number, group=group))
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
