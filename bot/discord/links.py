"""Jump links: the URL of a match's current public message, for the private messages that
refer to the match (a DM hand, its retirement, a stale click's answer in a DM), so that a
player can get back to the match in one tap.
"""

from __future__ import annotations

from ..match import Match
from .post_store import PostKind, PostStore

DISCORD = "https://discord.com/channels"

# The public control posts a link may point at, best first: the match's live card
# (bot.discord.card), else — a match begun by a version of the bot before the card — its
# turn message or its round message ("Pick your card").
LINK_KINDS: tuple[PostKind, ...] = (PostKind.CARD, PostKind.TURN, PostKind.ROUND)


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """Discord's jump URL of a message (or of a channel when ``message_id`` is None);
    ``guild_id`` None for a DM channel (``@me``)."""
    url = f"{DISCORD}/{guild_id if guild_id is not None else '@me'}/{channel_id}"
    return url if message_id is None else f"{url}/{message_id}"


async def match_link(store: PostStore, match: Match) -> str:
    """The jump URL of ``match``'s current public control post as recorded in ``store``
    (:data:`LINK_KINDS`, best first), or of the match's channel when none is recorded (the
    moment between two posts, a match that is over)."""
    post = await store.latest(match.id, LINK_KINDS)
    if post is None:
        return jump_url(match.guild_id, match.channel_id)
    return jump_url(match.guild_id, post.channel_id, post.message_id)
