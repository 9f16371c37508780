"""The step-through viewer of a finished match: an ephemeral message showing the
board after one round with that round's story, and ⏮ ◀ ▶ ⏭ buttons.

The buttons are :class:`discord.ui.DynamicItem` s whose ``custom_id`` carries the match and
the round they lead to (``raptor:replay:<m>:<round>:<key>``, key ``first|prev|next|last``
keeping the four ids of a message distinct), so they work after a restart: every click
(:meth:`bot.discord.clicks.Clicks.replay_step`) reloads the match from the database, checks
it is a finished match of this server and the clicked message an ephemeral one there, and
edits the message to that round. Only public views are drawn (R11.1).
"""

from __future__ import annotations

import re
from typing import Any

import discord

import engine
from engine.messages import Text

from .. import texts
from ..i18n import ENGLISH, tr
from ..match import Match, ServiceError, replays
from .components import NUMBER, clicks_of

KEYS = (("first", "⏮"), ("prev", "◀"), ("next", "▶"), ("last", "⏭"))


def frame_round(view: engine.View) -> int:
    """The round a replay frame shows."""
    if view.phase is engine.Phase.PICK:
        return view.round - 1
    return view.round


def viewer_buttons(match_id: int, index: int, total: int) -> discord.ui.View:
    """The four buttons for frame ``index`` (0-based) of ``total``; the ones leading
    nowhere are disabled."""
    targets = {"first": 0, "prev": max(0, index - 1), "next": min(total - 1, index + 1),
               "last": total - 1}
    view = discord.ui.View(timeout=None)
    for key, _emoji in KEYS:
        button = ReplayStepButton(match_id, targets[key], key)
        button.item.disabled = targets[key] == index
        view.add_item(button)
    return view


async def viewer_page(client: Any, match: Match, index: int, lang: str = ENGLISH
                      ) -> tuple[str, bytes, discord.ui.View, int]:
    """(text, PNG, buttons, index) of frame ``index`` of the finished ``match``: the board
    after that round (a replay frame) and the round's story, both in ``lang`` (the viewer's
    language: the message is ephemeral)."""
    views, verdict, winner = await replays.replay_views(client.service, match)
    if not views:
        raise ServiceError(Text("Match #{id} ended before its first round: there is nothing "
                                "to step through.", id=match.id))
    index = max(0, min(index, len(views) - 1))
    v = views[index]
    last = index == len(views) - 1
    png = await client.flow.images.replay_frame(match, v, index=index, total=len(views),
                                                final=last,
                                                verdict=verdict, winner=winner, lang=lang)
    events = v.last_round_events if v.phase is engine.Phase.PICK else v.round_events
    text = Text("**{title} · round {n} ({index}/{total})**\n{story}\n{score}",
                title=texts.match_title(match), n=frame_round(v), index=index + 1,
                total=len(views), story=texts.story_text(events), score=texts.score_line(v))
    return tr(text, lang)[:2000], png, viewer_buttons(match.id, index, len(views)), index


class ReplayStepButton(discord.ui.DynamicItem[discord.ui.Button],
                       template=rf"raptor:replay:(?P<mid>{NUMBER}):(?P<to>{NUMBER}):"
                                r"(?P<key>first|prev|next|last)"):
    """⏮ ◀ ▶ ⏭ of the step-through viewer: shows frame ``to`` of match ``mid``."""

    def __init__(self, match_id: int, to: int, key: str) -> None:
        emoji = dict(KEYS)[key]
        super().__init__(discord.ui.Button(emoji=emoji, style=discord.ButtonStyle.secondary,
                                           custom_id=f"raptor:replay:{match_id}:{to}:{key}"))
        self.match_id, self.to, self.key = match_id, to, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> ReplayStepButton:
        return cls(int(match["mid"]), int(match["to"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).replay_step(interaction, self.match_id, self.to)
