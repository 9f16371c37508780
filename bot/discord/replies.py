"""Answering an interaction: acknowledging it (defer), replying, refusing (ephemeral), and
the error policy: a refusal of the match service or the engine becomes an ephemeral answer
that says what to do; anything unexpected is logged (without its text, which might quote a
player's input) with a short apology.

Languages: a reply's ``content`` may be a :class:`~engine.messages.Text` (a
sentence of the catalog with its parameters); :func:`say` and :func:`fail` write it in the
reader's language — an ephemeral answer in the user's (:func:`bot.discord.languages.
reader_language`), a public one in the server's (:func:`~bot.discord.languages.
public_language`). A plain ``str`` is sent as it is.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord
from discord import app_commands

from engine.messages import Text

from .. import games, texts
from ..i18n import ENGLISH, resolve, tr
from ..match import ServiceError
from . import languages
from .shutdown import Gate

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
BOARD_FILE = "board.png"
HAND_FILE = "hand.png"


def pings(*user_ids: int) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly these users (and nobody else)."""
    return discord.AllowedMentions(everyone=False, roles=False,
                                   users=[discord.Object(u) for u in user_ids])


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Acknowledge with a "thinking" state; the first follow-up replaces it (public or
    ephemeral as given here)."""
    if interaction.response.is_done():
        return
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    interaction.extras["raptor_defer"] = "ephemeral" if ephemeral else "public"


async def defer_update(interaction: discord.Interaction) -> None:
    """Acknowledge a component click without a new message (the clicked message may then be
    edited with ``edit_original_response``)."""
    if interaction.response.is_done():
        return
    await interaction.response.defer()
    interaction.extras["raptor_defer"] = "update"


def present(**kw: Any) -> dict[str, Any]:
    """The keyword arguments that are not None."""
    return {k: v for k, v in kw.items() if v is not None}


async def reader_lang(interaction: discord.Interaction) -> str:
    """The language of an ephemeral answer to ``interaction.user`` (their setting, else
    their client's locale)."""
    service = getattr(interaction.client, "service", None)
    if service is None:
        return resolve(interaction.locale)
    return await languages.reader_language(service, interaction)


async def public_lang(interaction: discord.Interaction) -> str:
    """The language of a public answer in ``interaction``'s server."""
    service = getattr(interaction.client, "service", None)
    if service is None:
        return resolve(interaction.guild_locale) if interaction.guild_id else ENGLISH
    return await languages.public_language(service, interaction.guild_id, interaction)


async def localise(interaction: discord.Interaction, content: Any, *, ephemeral: bool) -> Any:
    """``content`` in the language of its readers, when it is a Text (else unchanged)."""
    if not isinstance(content, Text):
        return content
    lang = await (reader_lang(interaction) if ephemeral else public_lang(interaction))
    return tr(content, lang)


async def private(interaction: discord.Interaction, content: Any) -> Any:
    """``content`` for an ephemeral message to ``interaction.user`` (their language)."""
    return await localise(interaction, content, ephemeral=True)


async def public(interaction: discord.Interaction, content: Any) -> Any:
    """``content`` for a public message in ``interaction``'s server (its language)."""
    return await localise(interaction, content, ephemeral=False)


async def say(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool,
              png: bytes | None = None, filename: str = BOARD_FILE,
              view: discord.ui.View | None = None,
              embeds: Sequence[discord.Embed] | None = None,
              allowed_mentions: discord.AllowedMentions | None = None
              ) -> discord.Message | None:
    """Answer an interaction (its response if not acknowledged yet, else a follow-up).
    Returns the follow-up message, or None when it was the response itself. ``content``: a
    str, or a Text written in the readers' language (see the module's note)."""
    content = await localise(interaction, content, ephemeral=ephemeral)
    file = discord.File(io.BytesIO(png), filename=filename) if png is not None else None
    kw = present(content=content, file=file, view=view, embeds=list(embeds) if embeds else None,
                 allowed_mentions=allowed_mentions or NO_PINGS)
    if not interaction.response.is_done():
        await interaction.response.send_message(ephemeral=ephemeral, **kw)
        return None
    return await interaction.followup.send(ephemeral=ephemeral, **kw)


async def fail(interaction: discord.Interaction, text: str | Text) -> None:
    """An ephemeral refusal or error for the user who interacted (a Text in their language).
    After a public "thinking" defer, the placeholder is deleted first so the refusal is not
    public."""
    text = await localise(interaction, text, ephemeral=True)
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        return
    if interaction.extras.get("raptor_defer") == "public":
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            pass
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)


def is_refusal(exc: BaseException) -> bool:
    """Whether ``exc`` refuses a request for a reason the user is told: the match
    service's, or a game's (bad notation, an illegal action: :func:`bot.games.refusals`)."""
    return isinstance(exc, ServiceError) or isinstance(exc, games.refusals())


def error_text(exc: Exception) -> str | Text:
    """What to tell the user about a refused request: the service's sentence, or the game's
    message (which quotes the input and lists the closest legal actions); a Text when the
    sentence is in the catalog."""
    if isinstance(exc, ServiceError):
        return exc.message
    if is_refusal(exc):
        said = exc.args[0] if exc.args and isinstance(exc.args[0], Text) else str(exc)
        return Text("That didn't work: {why}", why=said)
    return Text("Something went wrong on my side; the error was logged. Please try again.")


async def command_error(interaction: discord.Interaction,
                        error: app_commands.AppCommandError, group: str) -> None:
    """An application command's error: a refusal of the service or the engine as an
    ephemeral answer, anything else logged (without its text) with a short apology; a failed
    check was answered by the check itself. ``group``: the command group, for the log."""
    if isinstance(error, app_commands.CheckFailure):
        return
    original = getattr(error, "original", error)
    if is_refusal(original):
        await fail(interaction, error_text(original))
        return
    log.error("/%s %s failed (user %d)", group, interaction.command and
              interaction.command.name, interaction.user.id, exc_info=original)
    try:
        await fail(interaction, error_text(RuntimeError()))
    except discord.HTTPException:
        pass


class Gated(Protocol):
    """An object whose handlers pass a :class:`bot.discord.shutdown.Gate` first."""

    gate: Gate


def guarded(handler: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Pass the gate first (while the bot stops, answer :data:`bot.texts.STOPPING` and do
    nothing), then turn service / engine refusals into ephemeral answers and log anything
    unexpected (without its message text, which might quote a player's input)."""

    @functools.wraps(handler)
    async def wrapper(self: Gated, interaction: discord.Interaction, *args: Any,
                      **kwargs: Any) -> None:
        if not self.gate.admit():  # stopping (bot.discord.shutdown): change nothing
            with contextlib.suppress(discord.HTTPException):
                await fail(interaction, texts.STOPPING)
            return
        try:
            await handler(self, interaction, *args, **kwargs)
        except discord.HTTPException as exc:
            log.warning("%s: Discord refused a request (status %s, code %s)",
                        handler.__name__, exc.status, exc.code)
        except Exception as exc:
            if is_refusal(exc):
                await fail(interaction, error_text(exc))
                return
            log.exception("%s failed (user %d)", handler.__name__, interaction.user.id)
            try:
                await fail(interaction, error_text(RuntimeError()))
            except discord.HTTPException:
                pass

    return wrapper
