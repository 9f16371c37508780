"""The step-through viewer of a finished match, of any game: an ephemeral message showing
one frame of its replay (Raptor: the board after a round) with its caption (that round's
story), and ⏮ ◀ ▶ ⏭ buttons.

The buttons are :class:`discord.ui.DynamicItem` s whose ``custom_id`` carries the game, the
match and the frame they lead to (``<game>:replay:<m>:<frame>:<key>``, key
``first|prev|next|last`` keeping the four ids of a message distinct), so they work after a
restart: every click (:meth:`bot.discord.clicks.Clicks.replay_step`) reloads the match from
the database, checks it is a finished match of this game and server and the clicked message
an ephemeral one there, and edits the message to that frame. Only public positions are drawn
(the game's :meth:`~bot.discord.presentation.GameUI.replay`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from ..i18n import ENGLISH, tr
from ..match import Match
from .components import GAME, NUMBER, clicks_of
from .presentation import ui_of

KEYS = (("first", "⏮"), ("prev", "◀"), ("next", "▶"), ("last", "⏭"))


def viewer_buttons(m: Match, index: int, total: int) -> discord.ui.View:
    """The four buttons for frame ``index`` (0-based) of ``total``; the ones leading
    nowhere are disabled."""
    targets = {"first": 0, "prev": max(0, index - 1), "next": min(total - 1, index + 1),
               "last": total - 1}
    view = discord.ui.View(timeout=None)
    for key, _emoji in KEYS:
        button = ReplayStepButton(m.game, m.id, targets[key], key)
        button.item.disabled = targets[key] == index
        view.add_item(button)
    return view


async def viewer_page(client: Any, match: Match, index: int, lang: str = ENGLISH
                      ) -> tuple[str, bytes, discord.ui.View, int]:
    """(text, PNG, buttons, index) of frame ``index`` of the finished ``match``: the frame
    and its caption, both in ``lang`` (the viewer's language: the message is ephemeral).

    Raises:
        ServiceError: the match ended before there was anything to show.
    """
    replay = await ui_of(match.game).replay(client.service, match)
    total = len(replay.frames)
    index = max(0, min(index, total - 1))
    png = await client.flow.images.replay_frame(match, replay, index, lang)
    text = tr(replay.caption(index, total), lang)
    return text[:2000], png, viewer_buttons(match, index, total), index


class ReplayStepButton(discord.ui.DynamicItem[discord.ui.Button],
                       template=rf"{GAME}:replay:(?P<mid>{NUMBER}):(?P<to>{NUMBER}):"
                                r"(?P<key>first|prev|next|last)"):
    """⏮ ◀ ▶ ⏭ of the step-through viewer: shows frame ``to`` of match ``mid``."""

    def __init__(self, game: str, match_id: int, to: int, key: str) -> None:
        emoji = dict(KEYS)[key]
        super().__init__(discord.ui.Button(emoji=emoji, style=discord.ButtonStyle.secondary,
                                           custom_id=f"{game}:replay:{match_id}:{to}:{key}"))
        self.game, self.match_id, self.to, self.key = game, match_id, to, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> ReplayStepButton:
        return cls(match["game"], int(match["mid"]), int(match["to"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks_of(interaction).replay_step(interaction, self.game, self.match_id,
                                                 self.to)
