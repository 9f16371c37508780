"""How matches are played in Discord: the parts of the Discord layer below the commands,
put together once per bot (``bot.flow``).

==========================================  ==============================================
:mod:`bot.discord.replies`                  acknowledging, replying, refusing; error policy
:mod:`bot.discord.permissions`              may the bot post in a channel
:mod:`bot.discord.images`                   board and hand images (render pool, caches)
:mod:`bot.discord.posts`                    public messages and their bookkeeping
:mod:`bot.discord.post_store`               the recorded control posts (SQL)
:mod:`bot.discord.narration`                narrating a match: start, AI, results
:mod:`bot.discord.card`                     the live match card of each round, pings
:mod:`bot.discord.threads`                  a thread per match, or why not
:mod:`bot.discord.hands`                    a player's hand, ephemeral or by DM
:mod:`bot.discord.links`                    jump links to a match's public message
:mod:`bot.discord.clicks`                   one click handler per button meaning
:mod:`bot.discord.ownership`                does a click belong to its control's object
:mod:`bot.discord.timer_task`               reminders, forfeits, expiries as they fall due
==========================================  ==============================================

Everything about a match is reloaded from the database on each interaction; what the parts
keep in memory is only caches (images, the render workers' layers),
so a restarted bot answers every old control correctly.
"""

from __future__ import annotations

import discord

from ..match import MatchService
from .card import Cards
from .clicks import Clicks
from .hands import Hands
from .images import MAX_REPLAYS, Images
from .narration import Narrator
from .post_store import PostStore
from .posts import Posts
from .shutdown import Gate
from .threads import Threads
from .timer_task import TimerTask


class Flow:
    """The Discord side of every match, for ``client`` (the bot) over ``service``; clicks
    pass ``gate`` first (:mod:`bot.discord.shutdown`); ``max_replays``: replay animations
    drawn at once (:class:`~bot.discord.images.Images`)."""

    def __init__(self, client: discord.Client, service: MatchService, gate: Gate, *,
                 max_replays: int = MAX_REPLAYS) -> None:
        self.images = Images(max_replays=max_replays)
        self.post_store = PostStore(service.db)
        self.hands = Hands(client, service, self.images, self.post_store)
        self.posts = Posts(client, service, self.post_store, self.images, self.hands)
        self.cards = Cards(service, self.posts, self.images, self.hands)
        self.threads = Threads(service, self.posts)
        self.narrator = Narrator(service, self.posts, self.images, self.cards, self.threads,
                                 poke=self.poke)
        self.timers = TimerTask(client, service, self.narrator, self.posts)
        self.clicks = Clicks(client, service, self.posts, self.narrator, self.hands, gate)

    def start(self) -> None:
        """Start the timer task."""
        self.timers.start()

    async def stop(self) -> None:
        """Stop the timer task, then the render workers (a timer's post may be rendering)."""
        await self.timers.stop()
        self.images.close()

    def poke(self) -> None:
        """Deadlines changed: the timer task looks again now."""
        self.timers.poke()
