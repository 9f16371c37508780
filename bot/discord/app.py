"""The Discord bot: a :class:`commands.Bot` subclass wired to the match service.

``run(settings)`` is what ``python -m bot`` calls: it sets up logging, opens the database,
builds the bot and runs it until SIGTERM or Ctrl-C, which stop it gracefully
(:mod:`bot.discord.shutdown`), closing the database at the end.
``create_bot(settings, db)`` builds the same bot for tests (e.g. with the fake Discord of
``tests/fakediscord``).

Start-up (``setup_hook``): the ``/raptor`` cog is added, the dynamic components are registered,
the commands' zh-TW localisations are given (:class:`~bot.discord.languages.CommandTranslator`)
(:data:`bot.discord.components.DYNAMIC_ITEMS`), the commands are synced — to the development guild
(``copy_global_to`` + ``sync(guild=...)``) when ``RAPTOR_DEV_GUILD_ID`` is set, globally
otherwise — and the timer task of :class:`bot.discord.flow.Flow` starts. Only default intents are
used (no privileged intent).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from .. import games
from ..match import MatchService
from ..match.shards import Shards
from ..ops.check import CheckError, open_or_reason
from ..settings import Settings
from ..storage import Database
from .admin import RaptorAdminCog
from .clicks import Clicks
from .components import DYNAMIC_ITEMS, dispatch_unplaced
from .flow import Flow
from .languages import CommandTranslator
from .presentation import ui_of
from .replay_viewer import ReplayStepButton
from .shutdown import DRAIN_SECONDS, Gate, RaptorTree, serve, stop_signals

log = logging.getLogger(__name__)


def controls() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """Every control of the bot (a :class:`discord.ui.DynamicItem` each): the platform's,
    then each game's own (:attr:`~bot.discord.presentation.GameUI.dynamic_items`)."""
    return (*DYNAMIC_ITEMS, ReplayStepButton,
            *(item for name in games.on_discord() for item in ui_of(name).dynamic_items))


#: The controls of the games the bot hosts.
CONTROLS = controls()


class RaptorBot(commands.Bot):
    """The Raptor bot. Dependencies are passed in: ``settings``, an open ``db`` and the
    ``service`` (built from the settings when not given). ``flow`` posts the matches."""

    def __init__(self, settings: Settings, db: Database, *,
                 service: MatchService | None = None, **client_options: Any) -> None:
        # The bot never joins voice: discord.py's start-up warnings about the optional voice
        # libraries (PyNaCl, davey) would only alarm a server admin reading the log.
        discord.VoiceClient.warn_nacl = False
        if hasattr(discord.VoiceClient, "warn_dave"):
            discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            tree_cls=RaptorTree,
            **client_options,
        )
        self.gate = Gate()  # interactions in flight; closed when stopping (bot.discord.shutdown)
        self.settings = settings
        self.db = db
        self.service = service or build_service(settings, db)
        self.flow = Flow(self, self.service, self.gate, max_replays=settings.max_replays)

    @property
    def clicks(self) -> Clicks:
        """What the controls call (:class:`bot.discord.components.ClickTarget`)."""
        return self.flow.clicks

    async def setup_hook(self) -> None:
        for name in games.on_discord():  # each game's command group
            await self.add_cog(ui_of(name).cog(self, self.service, self.flow))
        await self.add_cog(RaptorAdminCog(self.service))
        self.add_dynamic_items(*controls())
        await self.tree.set_translator(CommandTranslator())  # zh-TW names and descriptions
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d application commands to the development guild %d",
                     len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d application commands globally", len(synced))
        self.flow.start()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a control the clicked message does not carry (an edited message, a
        crafted id), which discord.py drops, still gets its handler's answer
        (:func:`bot.discord.components.dispatch_unplaced`)."""
        await dispatch_unplaced(interaction, controls())

    async def on_ready(self) -> None:
        log.info("ready as %s (id %s) in %d servers", self.user, self.user and self.user.id,
                 len(self.guilds))

    async def close(self) -> None:
        """Stop gracefully (``bot.discord.shutdown``): no new interactions, the ones in flight
        finish, the timer loop and render workers stop, then the Discord session closes."""
        await self.gate.drain(DRAIN_SECONDS)
        await self.flow.stop()
        await super().close()


class ShardedRaptorBot(RaptorBot, commands.AutoShardedBot):
    """The Raptor bot running some of the bot's Discord shards (``RAPTOR_SHARD_COUNT``,
    ``RAPTOR_SHARD_IDS``): one gateway connection per shard, in one process."""


def shards_of(settings: Settings) -> Shards:
    """The shards this process runs (:class:`~bot.match.shards.Shards`; all when the bot is
    not sharded)."""
    if settings.shard_count is None:
        return Shards()
    ids = settings.shard_ids or tuple(range(settings.shard_count))
    return Shards(settings.shard_count, ids)


def build_service(settings: Settings, db: Database, **kwargs: Any) -> MatchService:
    """The match service configured from ``settings`` (timeouts, AI time budget, shards,
    the caps per member);
    ``kwargs`` go to :class:`MatchService` (tests: ``clock``, ``seed_source``,
    ``ai_chooser``, ``owner``, ``claim_lease``)."""
    kwargs.setdefault("shards", shards_of(settings))
    return MatchService(db, turn_timeout=settings.turn_timeout_hours * 3600.0,
                        challenge_timeout=settings.challenge_timeout_minutes * 60.0,
                        ai_time_budget=settings.ai_time_budget,
                        max_practices=settings.max_practices,
                        max_challenges=settings.max_challenges,
                        table_timeout=settings.table_timeout_minutes * 60.0, **kwargs)


async def create_bot(settings: Settings, db: Database, *,
                     service: MatchService | None = None) -> RaptorBot:
    """Build the bot (not yet logged in) on an open database: a :class:`ShardedRaptorBot`
    when ``RAPTOR_SHARD_COUNT`` is set. Tests pass their own ``service`` (e.g. with a fake
    clock or a scripted AI)."""
    if settings.shard_count is None:
        return RaptorBot(settings, db, service=service)
    shards = shards_of(settings)
    return ShardedRaptorBot(settings, db, service=service, shard_count=shards.count,
                            shard_ids=list(shards.ids))


#: The log line without colours: discord.py's own plain format.
PLAIN_LOG_FORMAT = logging.Formatter("[{asctime}] [{levelname:<8}] {name}: {message}",
                                     "%Y-%m-%d %H:%M:%S", style="{")


def configure_logging(level: str | int, *, handler: bool = True) -> None:
    """Log through ``discord.utils.setup_logging`` at ``level`` (a name such as ``"INFO"``),
    to stderr.

    Colours (ANSI codes) only when stderr is a terminal: discord.py would also colour a log
    redirected to a file or a journal when it thinks it runs in Docker, so without a terminal
    the lines use :data:`PLAIN_LOG_FORMAT`.

    discord.py's own DEBUG lines print HTTP request bodies and gateway payloads, which carry
    players' hands (ephemeral messages) and picks (button ids) — hidden information (R11) — so
    the ``discord`` loggers never go below INFO, whatever ``level`` says. ``handler=False``
    only applies that cap (tests).
    """
    numeric = logging.getLevelName(level) if isinstance(level, str) else level
    if handler:
        stream = sys.stderr
        plain = {} if stream.isatty() else {"formatter": PLAIN_LOG_FORMAT}
        discord.utils.setup_logging(level=numeric, handler=logging.StreamHandler(stream),
                                    **plain)
    logging.getLogger("discord").setLevel(max(numeric, logging.INFO))


def run(settings: Settings) -> int:
    """Run the bot until interrupted (needs ``settings.discord_token``).

    SIGTERM and SIGINT (Ctrl-C) stop it gracefully (:mod:`bot.discord.shutdown`).

    Returns:
        The process exit status: 0 after a stop (SIGTERM, Ctrl-C), 2 when the database cannot
        be opened (the reason as ``python -m bot check`` gives it), 1 when Discord refuses the
        token or cannot be reached (a one-line reason is printed to stderr instead of a
        traceback).

    Raises:
        ValueError: no token in the settings.
    """
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    configure_logging(settings.log_level)
    token = settings.discord_token.get_secret_value()

    async def main() -> None:
        async with stop_signals() as stop:
            try:
                db = await open_or_reason(settings)
            except CheckError as exc:
                raise _StartError(str(exc)) from None
            try:
                bot = await create_bot(settings, db)
                async with bot:
                    await serve(bot, token, stop)
            finally:
                await db.close()
                log.info("database closed")

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        log.info("stopped")
    except _StartError as exc:  # a configuration problem, as python -m bot check says it
        print(f"python -m bot: {exc}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print("python -m bot: Discord refused the token. Check DISCORD_TOKEN (the Bot tab of "
              "your application in the developer portal; reset it if unsure).", file=sys.stderr)
        return 1
    except (aiohttp.ClientConnectionError, OSError) as exc:
        print(f"python -m bot: cannot reach Discord ({type(exc).__name__}: {exc}). Check the "
              "network connection, or try the offline demo: python -m bot demo",
              file=sys.stderr)
        return 1
    return 0


class _StartError(RuntimeError):
    """A start-up problem explained in one sentence (no traceback for the user)."""
