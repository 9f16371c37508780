"""Starting matches: against the AI (practice), AI against AI (demos), and the one step that
stores a new match (an accepted challenge uses it too).

The seed (``secrets.randbits(63)``) fixes every deck order, so it is hidden information: it
is never logged, never put in a message, and is left out of ``repr(Match)``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence

from engine.game import resolve_options
from engine.messages import Text

from .. import games
from ..storage import IntegrityViolation, Transaction
from . import deadlines
from .context import MatchContext
from .models import ChannelBusyError, InvalidRequestError, Match, Player

log = logging.getLogger(__name__)

_random = secrets.SystemRandom()


def new_seed() -> int:
    """A fresh, unpredictable 63-bit match seed."""
    return secrets.randbits(63)


def draw_seat(wish: int | None, seats: int) -> int:
    """The seat of a wish: ``wish`` itself, or (None) one drawn with a system RNG."""
    return wish if wish is not None else _random.randrange(seats)


def game_of(name: str) -> games.GamePlugin:
    """The registered game ``name``.

    Raises:
        InvalidRequestError: no such game.
    """
    try:
        return games.plugin(name)
    except games.UnknownGameError:
        raise InvalidRequestError(Text("Unknown game {game}: choose {choices}.",
                                       game=repr(name), choices=", ".join(games.names()))
                                  ) from None


def check_options(plugin: games.GamePlugin, options: Mapping[str, str]) -> dict[str, str]:
    """Every option of the game's new match, each the one given or its default.

    Raises:
        InvalidRequestError: an option the game does not take, or a value not among its
            choices (the sentence names them).
    """
    known = {spec.name: spec for spec in plugin.game.options}
    for name, value in options.items():
        spec = known.get(name)
        if spec is None:
            raise InvalidRequestError(Text("Unknown option {option}: {game} takes {choices}.",
                                           option=repr(name), game=plugin.title,
                                           choices=", ".join(known) or "-"))
        if value not in spec.choices:
            raise InvalidRequestError(Text("Unknown {option} {value}: choose {choices}.",
                                           option=name, value=repr(value),
                                           choices=", ".join(spec.choices)))
    return resolve_options(plugin.game.options, options)


def check_seats(plugin: games.GamePlugin, seats: int) -> None:
    """Raises InvalidRequestError for a number of seats the game is not played by."""
    game = plugin.game
    if not game.min_seats <= seats <= game.max_seats:
        raise InvalidRequestError(Text("{game} is played by {low} to {high} players, not "
                                       "{n}.", game=plugin.title, low=game.min_seats,
                                       high=game.max_seats, n=seats))


def check_level(plugin: games.GamePlugin, level: str) -> None:
    """Raises InvalidRequestError for an AI level the game's AI does not have."""
    if level not in plugin.ai_levels:
        raise InvalidRequestError(Text("Unknown AI level {level}: choose one of {choices}.",
                                       level=repr(level), choices=", ".join(plugin.ai_levels)))


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
                             game: str, seat: int | None = None, level: str = "easy",
                             options: Mapping[str, str] | None = None, seats: int | None = None,
                             ai_user_id: int, seed: int | None = None) -> Match:
        """A match between ``user_id`` (at ``seat``, None: drawn) and the AI at ``level`` at
        every other seat (those have ``ai_user_id``, the bot's user id), ``seats`` seats in
        all (default: the fewest the game is played by). The AI may have to act first
        (:meth:`~bot.match.play.PlayService.play_ai`). Practice matches are not rated.

        Args:
            seed: a fixed match seed, for offline play only (a known seed reveals every deck
                order); by default a fresh secret one.

        Raises:
            InvalidRequestError: an unknown game, option, seat or AI level, or ``user_id``
                plays the most practice matches a member may play at once already
                (``max_practices`` of the context, counted in the transaction that stores
                the new one).
            ChannelBusyError: the channel has an active match.
        """
        plugin = game_of(game)
        seats = plugin.game.min_seats if seats is None else seats
        check_seats(plugin, seats)
        opts = check_options(plugin, options or {})
        check_level(plugin, level)
        if seat is not None and not 0 <= seat < seats:
            raise InvalidRequestError(Text("There is no seat {n} in a match of {seats} "
                                           "players.", n=seat + 1, seats=seats))
        human = draw_seat(seat, seats)
        players = [Player(s, user_id) if s == human else Player(s, ai_user_id, level)
                   for s in range(seats)]
        cap = self.ctx.max_practices

        async def room_for_one(tx: Transaction) -> None:
            await tx.lock_member(LOCK_PRACTICES, user_id)  # starts at once count in turn
            going = await self.ctx.matches.practices_of(tx, user_id)
            if going >= cap:
                raise InvalidRequestError(practices_full_text(going))

        return await self.create(plugin.name, guild_id, channel_id, players, opts, seed=seed,
                                 before_insert=room_for_one)

    async def start_ai_match(self, guild_id: int, channel_id: int, *, game: str,
                             levels: Sequence[str], ai_user_ids: Sequence[int],
                             options: Mapping[str, str] | None = None,
                             seed: int | None = None) -> Match:
        """A match where the AI plays every seat (demos, tests): ``levels`` and
        ``ai_user_ids`` give each seat's AI level and user id. Not rated.

        Args:
            seed: a fixed match seed (demos); by default a fresh secret one.

        Raises:
            InvalidRequestError: an unknown game, option or AI level, or a number of seats
                the game is not played by.
            ChannelBusyError: the channel has an active match.
        """
        plugin = game_of(game)
        check_seats(plugin, len(levels))
        opts = check_options(plugin, options or {})
        for level in levels:
            check_level(plugin, level)
        players = [Player(s, ai_user_ids[s], levels[s]) for s in range(len(levels))]
        return await self.create(plugin.name, guild_id, channel_id, players, opts, seed=seed)

    async def create(self, game: str, guild_id: int, channel_id: int,
                     players: Sequence[Player], options: Mapping[str, str], *,
                     rematch_of: int | None = None, seed: int | None = None,
                     before_insert: BeforeInsert | None = None,
                     after_insert: AfterInsert | None = None) -> Match:
        """Store a new active match of ``game`` (its :meth:`~engine.game.Game.new_game`
        with the seats of ``players`` and ``options``, every option the game takes stored
        with its value); ``before_insert(tx)``
        (a check that may raise) and ``after_insert(tx, match_id)`` run in the same
        transaction.

        Raises:
            ChannelBusyError: the channel has an active match (checked inside the
                transaction, which the ``matches_one_active_per_channel`` index enforces).
        """
        rules = games.plugin(game).game
        seed = self.seed_source() if seed is None else int(seed)
        opts = resolve_options(rules.options, options)
        state = rules.new_game(seed, len(players), opts)
        now = self.ctx.clock()
        timeout = await self.ctx.guild_timeout(guild_id)
        deadline, remind = deadlines.timing(rules, None, state, [p.ai for p in players], now,
                                            timeout, None, None)
        async with self.ctx.db.transaction() as tx:
            if await self.ctx.matches.channel_has_active(tx, channel_id):
                raise ChannelBusyError(BUSY)
            if before_insert is not None:
                await before_insert(tx)
            try:
                match_id = await self.ctx.matches.insert(
                    tx, game=game, guild_id=guild_id, channel_id=channel_id, players=players,
                    seed=seed, options=opts, state_text=rules.state_to_json(state), now=now,
                    deadline=deadline, remind=remind, rematch_of=rematch_of)
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
