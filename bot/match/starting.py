"""Starting matches: against the AI (practice), AI against AI (demos), and the one step that
stores a new match (an accepted challenge uses it too).

The seed (``secrets.randbits(63)``) fixes every deck order, so it is hidden information: it
is never logged, never put in a message, and is left out of ``repr(Match)``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable

import engine
from engine import Side
from engine.messages import Text

from ..storage import IntegrityViolation, Transaction
from . import deadlines
from .context import MatchContext
from .models import (
    CHALLENGE_SIDES,
    ENVIRONMENTS,
    SETUPS,
    SIDES,
    ChannelBusyError,
    InvalidRequestError,
    Match,
)

log = logging.getLogger(__name__)

_random = secrets.SystemRandom()


def new_seed() -> int:
    """A fresh, unpredictable 63-bit match seed."""
    return secrets.randbits(63)


def draw_side(wish: str) -> Side:
    """The side of a wish (``"raptor"``, ``"scientist"``, or ``"random"``: drawn with a
    system RNG)."""
    return Side(wish if wish != "random" else _random.choice(("raptor", "scientist")))


def check_options(side: str, environment: str, setup: str) -> None:
    """Raises InvalidRequestError for a side, environment (R1.3) or setup (R4) that does
    not exist."""
    if side not in CHALLENGE_SIDES:
        raise InvalidRequestError(Text("Unknown side {side}: choose {choices}.",
                                       side=repr(side), choices=", ".join(CHALLENGE_SIDES)))
    if environment not in ENVIRONMENTS:
        raise InvalidRequestError(Text("Unknown environment {environment}: choose jungle or "
                                       "savannah.", environment=repr(environment)))
    if setup not in SETUPS:
        raise InvalidRequestError(Text("Unknown setup {setup}: choose quick or manual.",
                                       setup=repr(setup)))


def ai_levels() -> tuple[str, ...]:
    """The AI's levels (``bot.ai.LEVELS``)."""
    from bot import ai  # lazy: the AI is heavy and optional for storage users

    return tuple(ai.LEVELS)


def check_level(level: str) -> None:
    """Raises InvalidRequestError for an AI level that does not exist."""
    levels = ai_levels()
    if level not in levels:
        raise InvalidRequestError(Text("Unknown AI level {level}: choose one of {choices}.",
                                       level=repr(level), choices=", ".join(levels)))


#: What a transaction's member lock counts (:meth:`bot.storage.Transaction.lock_member`).
LOCK_PRACTICES, LOCK_CHALLENGES = 1, 2

BUSY = ("This channel already has a match in progress: wait for it to finish, or play in "
        "another channel.")

AfterInsert = Callable[[Transaction, int], Awaitable[None]]
BeforeInsert = Callable[[Transaction], Awaitable[None]]


def practices_full_text(going: int) -> Text:
    """The refusal of a practice game to a member who has ``going`` (the cap, or more) in
    progress already."""
    return Text.plural("You have {n} practice game in progress, as many as a member may have "
                       "at once: finish or resign it first.",
                       "You have {n} practice games in progress, as many as a member may "
                       "have at once: finish or resign one first.", going)


class MatchStarter:
    """Creates matches. ``seed_source`` returns a new match seed (default :func:`new_seed`;
    a predictable one reveals every deck order: tests only)."""

    def __init__(self, ctx: MatchContext, seed_source: Callable[[], int] | None = None) -> None:
        self.ctx = ctx
        self.seed_source = seed_source or new_seed

    async def start_practice(self, guild_id: int, channel_id: int, user_id: int, *,
                             side: str = "random", level: str = "easy",
                             environment: str = "jungle", setup: str = "quick",
                             ai_user_id: int, seed: int | None = None) -> Match:
        """A match between ``user_id`` (playing ``side``) and the AI at ``level`` (the AI's
        side has ``ai_user_id``, the bot's user id). The AI may have to act first
        (:meth:`~bot.match.play.PlayService.play_ai`). Practice matches are not rated.

        Args:
            seed: a fixed match seed, for offline play only (a known seed reveals every deck
                order); by default a fresh secret one.

        Raises:
            InvalidRequestError: a bad option or AI level, or ``user_id`` plays the most
                practice matches a member may play at once already (``max_practices`` of
                the context, counted in the transaction that stores the new one).
            ChannelBusyError: the channel has an active match.
        """
        check_options(side, environment, setup)
        check_level(level)
        human = draw_side(side)
        players = {human: user_id, human.other: ai_user_id}
        ai: dict[Side, str | None] = {human: None, human.other: level}
        cap = self.ctx.max_practices

        async def room_for_one(tx: Transaction) -> None:
            await tx.lock_member(LOCK_PRACTICES, user_id)  # starts at once count in turn
            going = await self.ctx.matches.practices_of(tx, user_id)
            if going >= cap:
                raise InvalidRequestError(practices_full_text(going))

        return await self.create(guild_id, channel_id, players, ai, environment, setup,
                                 seed=seed, before_insert=room_for_one)

    async def start_ai_match(self, guild_id: int, channel_id: int, *,
                             levels: dict[Side, str], ai_user_ids: dict[Side, int],
                             environment: str = "jungle", setup: str = "quick",
                             seed: int | None = None) -> Match:
        """A match where the AI plays both sides (demos, tests): ``levels`` and
        ``ai_user_ids`` give each side's AI level and user id. Not rated.

        Args:
            seed: a fixed match seed (demos); by default a fresh secret one.

        Raises:
            InvalidRequestError: a bad option or AI level.
            ChannelBusyError: the channel has an active match.
        """
        check_options("random", environment, setup)
        for side in SIDES:
            check_level(levels[side])
        ai: dict[Side, str | None] = {side: levels[side] for side in SIDES}
        players = {side: ai_user_ids[side] for side in SIDES}
        return await self.create(guild_id, channel_id, players, ai, environment, setup,
                                 seed=seed)

    async def create(self, guild_id: int, channel_id: int, players: dict[Side, int],
                     ai: dict[Side, str | None], environment: str, setup: str, *,
                     rematch_of: int | None = None, seed: int | None = None,
                     before_insert: BeforeInsert | None = None,
                     after_insert: AfterInsert | None = None) -> Match:
        """Store a new active match (a new game of ``engine.new_game``, random layout);
        ``before_insert(tx)`` (a check that may raise) and ``after_insert(tx, match_id)``
        run in the same transaction.

        Raises:
            ChannelBusyError: the channel has an active match (checked inside the
                transaction, which the ``matches_one_active_per_channel`` index enforces).
        """
        seed = self.seed_source() if seed is None else int(seed)
        state = engine.new_game(seed, environment=environment, layout="random", setup=setup)
        now = self.ctx.clock()
        timeout = await self.ctx.guild_timeout(guild_id)
        deadline, remind = deadlines.timing(None, state, ai, now, timeout, None, None)
        async with self.ctx.db.transaction() as tx:
            if await self.ctx.matches.channel_has_active(tx, channel_id):
                raise ChannelBusyError(BUSY)
            if before_insert is not None:
                await before_insert(tx)
            try:
                match_id = await self.ctx.matches.insert(
                    tx, guild_id=guild_id, channel_id=channel_id, players=players, ai=ai,
                    seed=seed, state=state, now=now, deadline=deadline, remind=remind,
                    rematch_of=rematch_of)
            except IntegrityViolation as exc:
                # PostgreSQL: another connection's match in this channel was committed
                # after our check (SQLite's writers take turns, so there it cannot happen)
                if exc.breaks_unique("matches_one_active_per_channel", "matches.channel_id"):
                    raise ChannelBusyError(BUSY) from None
                raise
            if after_insert is not None:
                await after_insert(tx, match_id)
        log.info("match %d started in channel %d", match_id, channel_id)
        return (await self.ctx.match(match_id))[0]

