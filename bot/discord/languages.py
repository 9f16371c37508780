"""Languages on Discord: the application commands' localisations, and whose language a
message is written in.

- :class:`CommandTranslator` gives discord.py the zh-TW names, descriptions, option names,
  option descriptions and choice names of the ``/raptor`` and ``/raptor-admin`` commands
  when it syncs them (``tree.set_translator``), from the catalog's entries of context
  :data:`CONTEXT` (``python -m bot.i18n.catalogs`` extracts them from the commands
  themselves: :func:`bot.discord.command_strings.command_messages`). The groups keep
  their names (``/raptor``, ``/raptor-admin``) in every language, as the docs and other
  players call them; their subcommands are localised. zh-TW and zh-CN clients get the
  Traditional Chinese (see :func:`bot.i18n.resolve`), other locales Discord's default,
  English.
- :func:`reader_language`: an ephemeral reply or a DM is in the user's language — their
  choice (``/raptor settings language``), else their client's ``interaction.locale``.
- :func:`public_language`: a public message or the public board image is in the server's
  language — a moderator's choice (``/raptor-admin language``), else Discord's
  ``interaction.guild_locale`` (remembered per server for posts outside an interaction,
  e.g. a timeout), else English.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from .. import i18n
from ..i18n import ENGLISH, LANGUAGES, resolve

#: The catalog's context (gettext ``msgctxt``) of the application commands' strings.
CONTEXT = "application command"
#: The value of the language settings that follows Discord.
AUTO = "auto"
#: The user setting's key (``user_settings``).
LANGUAGE_KEY = "language"
#: The choices of the language settings (a language's name is written in itself).
LANGUAGE_CHOICES = [app_commands.Choice(name="Discord's language", value=AUTO),
                    *(app_commands.Choice(name=i18n.LANGUAGE_NAMES[lang], value=lang)
                      for lang in LANGUAGES)]

_Loc = app_commands.TranslationContextLocation


class CommandTranslator(app_commands.Translator):
    """The zh-TW localisations of the application commands (see the module's note)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if context.location is _Loc.group_name or resolve(locale) == ENGLISH:
            return None
        text = i18n.catalog(resolve(locale)).pgettext(CONTEXT, string.message)
        return text if text != string.message else None


def language_choice(value: str | None) -> str | None:
    """A stored language setting as a catalog language, or None (follow Discord)."""
    return value if value in LANGUAGES else None


async def reader_language(service: Any, interaction: discord.Interaction) -> str:
    """The language of an ephemeral reply or a DM to ``interaction.user``: their own
    choice, else their Discord client's locale (:func:`bot.i18n.resolve`)."""
    if interaction.locale is not None:
        _user_locales[interaction.user.id] = interaction.locale.value
    chosen = language_choice(await service.get_user_setting(interaction.user.id,
                                                            LANGUAGE_KEY, None))
    return chosen or resolve(interaction.locale)


#: The last client locale Discord gave for each user (for their DMs outside interactions).
_user_locales: dict[int, str] = {}


async def user_language(service: Any, user_id: int, locale: Any = None) -> str:
    """A user's language outside an interaction (their hand by DM after the other player's
    click): their choice, else ``locale``, else the client locale seen last in one of their
    interactions, else English."""
    chosen = language_choice(await service.get_user_setting(user_id, LANGUAGE_KEY, None))
    return chosen or resolve(locale if locale is not None else _user_locales.get(user_id))


#: The last ``guild_locale`` Discord gave for each server (for posts outside interactions).
_guild_locales: dict[int, str] = {}


async def public_language(service: Any, guild_id: int | None,
                          interaction: discord.Interaction | None = None) -> str:
    """The language of a public message in server ``guild_id``: the moderators' choice,
    else the server's Discord locale (``interaction.guild_locale``, or the last one seen),
    else English."""
    if guild_id is None:
        return resolve(interaction.locale) if interaction is not None else ENGLISH
    if interaction is not None and interaction.guild_locale is not None:
        _guild_locales[guild_id] = interaction.guild_locale.value
    chosen = language_choice(await service.guild_language(guild_id))
    return chosen or resolve(_guild_locales.get(guild_id))
