"""Whether the bot may post a match in a channel: Send Messages, Attach Files and Embed
Links. A command or click that would lead to posts checks first and tells the user which
permission a server admin must grant."""

from __future__ import annotations

import logging

import discord

from .. import texts
from .replies import fail

log = logging.getLogger(__name__)

REQUIRED_PERMISSIONS = ("send_messages", "attach_files", "embed_links")


def missing_permissions(perms: discord.Permissions | None) -> list[str]:
    """The permissions of :data:`REQUIRED_PERMISSIONS` that ``perms`` lacks."""
    if perms is None:
        return []
    return [p for p in REQUIRED_PERMISSIONS if not getattr(perms, p)]


def channel_permissions(client: discord.Client, interaction: discord.Interaction,
                        channel_id: int) -> discord.Permissions | None:
    """The bot's permissions in ``channel_id``: from the interaction when it happens there,
    else from the cached channel (None if unknown)."""
    if interaction.channel_id == channel_id and interaction.guild_id is not None:
        return interaction.app_permissions
    channel = client.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    if channel is None or guild is None or guild.me is None:
        return None
    return channel.permissions_for(guild.me)  # type: ignore[union-attr]


async def check_permissions(client: discord.Client, interaction: discord.Interaction,
                            channel_id: int | None = None) -> bool:
    """False (after telling the user which permission a server admin must grant) when the
    bot cannot post a match in the channel (default: the interaction's)."""
    if channel_id is None:
        channel_id = interaction.channel_id or 0
    missing = missing_permissions(channel_permissions(client, interaction, channel_id))
    if missing:
        log.warning("channel %d: missing permissions %s", channel_id, ", ".join(missing))
        await fail(interaction, texts.missing_permissions_text(missing))
        return False
    return True
