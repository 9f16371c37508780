"""Does a click belong to the object its control names? The one check every click handler
makes (:mod:`bot.discord.clicks`) before it does anything.

A component's ``custom_id`` is input: a modified client can send any id on any message it
can see, and a client showing an older version of an edited message sends that version's
id. So the object an id names (a match, a challenge) is loaded from storage and the click
is held against where the bot shows that object's controls:

========================  =================================================================
:class:`Place`            a click fits when the clicked message is
========================  =================================================================
``CHANNEL``               in the match's server and channel (or thread): its card and the
                          card's menus, the ephemeral menus opened from them, the result's
                          Rematch
``PRIVATE``               the clicker's own message in the match's channel (ephemeral: a
                          hand, a figurine's page, the Resign confirmation): only the
                          clicker sees it
``HAND``                  ``PRIVATE``, or the clicker's DM hand of the match as recorded
                          (``private_posts``). Any other message of the clicker's DM (a hand
                          retired or already answered, another match's, the settings note)
                          offers no pick of the match: ``STALE`` for a player of it, else
                          ``FOREIGN``
``OFFER``                 the match's draw offer as recorded (``control_posts``, ``draw``)
``SERVER``                an ephemeral message anywhere in the match's server (a
                          moderator's End confirmation, the replay viewer)
========================  =================================================================

and, whatever the place, a message recorded for another match never fits. A challenge's
buttons fit only on its own message (``challenges.message_id``) in its server and channel
(in the moment between posting a challenge and recording its message nothing fits: a click
then is refused, the next one works); a table's the same, on the table's own message.

``CHANNEL`` does not ask for the very message: the handlers of those controls never edit a
public message they were clicked on, and the record of the card's messages may be lost (a
bot from before it was kept, tests/e2e/test_stale_controls.py), while its old controls must
still answer "out of date".

The answer is a :class:`Fit`: ``FITS``; ``STALE`` for the match's own channel message that no
longer carries the control (a draw offer that lapsed) and for a DM hand no longer recorded:
the handler says "out of date";
``FOREIGN`` for everything else: :data:`bot.texts.NOT_THIS_MESSAGE`. Ids that storage cannot
hold are refused before any query (:func:`storable`).
"""

from __future__ import annotations

from enum import Enum

import discord

from ..match import Challenge, Match, Table
from .post_store import PostKind, PostStore

#: The largest id storage holds (SQLite INTEGER, PostgreSQL BIGINT): a larger one names
#: nothing and would raise OverflowError in the database driver.
MAX_STORED_ID = 2**63 - 1


def storable(*ids: int) -> bool:
    """Whether every id is one storage can hold (1 to :data:`MAX_STORED_ID`)."""
    return all(0 < i <= MAX_STORED_ID for i in ids)


class Place(Enum):
    """Where the bot shows a match's control (see the module's table)."""

    CHANNEL = "channel"
    PRIVATE = "private"
    HAND = "hand"
    OFFER = "offer"
    SERVER = "server"


class Fit(Enum):
    """How a click fits the object its control names."""

    FITS = "fits"
    STALE = "stale"  # the object's own message, whose control is gone: out of date
    FOREIGN = "foreign"  # not where the bot shows that object's controls


class Ownership:
    """The check, over the records of the bot's messages (``store``)."""

    def __init__(self, store: PostStore) -> None:
        self.store = store

    async def match_fit(self, interaction: discord.Interaction, match: Match,
                        place: Place) -> Fit:
        """How a click on ``interaction.message`` fits a control of ``match`` shown at
        ``place``."""
        message = interaction.message
        if message is None:
            return Fit.FOREIGN
        recorded = await self.store.post(message.id)
        if recorded is not None and recorded.match_id != match.id:
            return Fit.FOREIGN
        private = message.flags.ephemeral
        if interaction.guild_id is None:  # the clicker's DM with the bot: a DM hand
            if place is not Place.HAND or recorded is not None:
                return Fit.FOREIGN
            mine = await self.store.private_post(message.id)
            if mine is None:  # retired, answered, or never recorded: no pick is offered there
                player = match.seat_of(interaction.user.id) is not None
                return Fit.STALE if player else Fit.FOREIGN
            fits = mine.match_id == match.id and mine.user_id == interaction.user.id
            return Fit.FITS if fits else Fit.FOREIGN
        if interaction.guild_id != match.guild_id:
            return Fit.FOREIGN
        if place is Place.SERVER:
            return Fit.FITS if private else Fit.FOREIGN
        if interaction.channel_id != match.channel_id:
            return Fit.FOREIGN
        if place in (Place.PRIVATE, Place.HAND):
            return Fit.FITS if private else Fit.FOREIGN
        if place is Place.OFFER:
            if recorded is not None:
                return Fit.FITS if recorded.kind is PostKind.DRAW else Fit.FOREIGN
            # a public message of this channel not (or no longer) recorded: an offer that
            # lapsed or was answered meanwhile
            return Fit.FOREIGN if private else Fit.STALE
        return Fit.FITS

    @staticmethod
    def own_message_fit(interaction: discord.Interaction, posted: Challenge | Table) -> Fit:
        """How a click on ``interaction.message`` fits a control of ``posted`` (a challenge
        or a table): only on its own message, in its server and channel."""
        message = interaction.message
        fits = (message is not None and posted.message_id == message.id
                and interaction.guild_id == posted.guild_id
                and interaction.channel_id == posted.channel_id)
        return Fit.FITS if fits else Fit.FOREIGN
