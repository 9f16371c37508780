"""The live match card: one public message per card of a match (its game's
:meth:`~bot.discord.presentation.GameUI.card_key`: Raptor's round) that holds whose move it
is, what to decide, the deadline, the public image, the story so far and the controls,
edited in place at every step. The frame is the platform's; what fills it is the game's
(:mod:`bot.discord.presentation`).

Shape of the card (a message with an embed and the board attached)::

    content   "**Match #7 · Round 3** — @a (raptor) ✅ · @b (scientist) ⏳ — pick your card
               Time runs out <t:…:R>."               (or "@b (scientist), your move: …")
    embed     this round's story so far (cards, the effect and its choices, the actions),
              the score line; image attachment://board.png (the public board, R11.1)
    controls  [Pick your card] while a person picks, the decision's menus and End / Undo
              (:func:`bot.discord.components.turn_view`), none once the match is over

When a round ends its card becomes the round's record (the summary, without controls or
image) and a new card starts below it; so a round adds one card and at most one ping message
to the channel, and one board image. The card's message id is recorded in the post store
(:class:`~bot.discord.post_store.PostKind` ``CARD``, its text the :class:`CardNotes`), so a
restarted bot edits the same message and pings as the old one would have; its controls are
DynamicItems, and a stale one (an older version or round) is answered ephemerally by
:mod:`bot.discord.clicks`.

Every reader of the thread downloads each board sent, so an edit sends the board again only
when its bytes changed: an edit without ``attachments`` keeps the message's file, and the
embed's ``attachment://board.png`` still names it.

Pings (:meth:`Cards.due_pings`): a person is pinged when the turn passes to them and they were
not the last person to act, at most once per round — through the new card's creation when
the round starts, else one short message; in a game whose turns come round several times
under one card (:attr:`~bot.discord.presentation.GameUI.turns_come_round`), once each time
the turn passes to them. Nothing is ever asked of the AI.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections import OrderedDict
from dataclasses import dataclass, replace

import discord

from engine.game import Seat
from engine.messages import Text

from .. import texts
from ..i18n import ENGLISH, tr
from ..match import Match, MatchService
from .hands import Hands
from .images import Images
from .links import jump_url
from .post_store import ControlPost, PostKind
from .posts import Posts
from .presentation import ui_of
from .replies import BOARD_FILE, NO_PINGS, pings

log = logging.getLogger(__name__)

EMBED_TEXT = 4096  # Discord: characters of an embed description
#: Cards whose board's digest is remembered, the most recently shown (a card beyond them, or
#: after a restart, gets its board sent again at its next edit).
SHOWN_BOARDS = 1024


#: The seats' words in notes written before cards named seats (Raptor's sides).
_LEGACY_SEATS = {"raptor": 0, "scientist": 1}


@dataclass(frozen=True)
class CardNotes:
    """What the bot remembers with a card (the text of its post-store row), so that a
    restarted bot pings and deals exactly as the old one would have: the card's key (its
    game's :meth:`~bot.discord.presentation.GameUI.card_key`), the seats that had to decide
    at its last edit, those pinged and those dealt their private view by DM under this card.
    Text form: ``"3|0|1|0,1"`` (notes of an older bot name Raptor's sides instead:
    ``"3|raptor|scientist|raptor,scientist"``)."""

    key: int
    acting: frozenset[Seat] = frozenset()
    pinged: frozenset[Seat] = frozenset()
    dealt: frozenset[Seat] = frozenset()

    @classmethod
    def parse(cls, text: str) -> CardNotes:
        """Read the notes back (a bare key, or anything unreadable, gives empty sets)."""
        head, *rest = text.split("|")
        sets = [frozenset(int(v) if v.isdigit() else _LEGACY_SEATS[v]
                          for v in part.split(",") if v.isdigit() or v in _LEGACY_SEATS)
                for part in (*rest, "", "", "")[:3]]
        return cls(int(head) if head.isdigit() else 0, *sets)

    def __str__(self) -> str:
        parts = (",".join(str(seat) for seat in sorted(group))
                 for group in (self.acting, self.pinged, self.dealt))
        return "|".join((str(self.key), *parts))


class Cards:
    """Keeps each match's live card up to date (one lock per match: edits never cross)."""

    def __init__(self, service: MatchService, posts: Posts, images: Images,
                 hands: Hands) -> None:
        self.service = service
        self.posts = posts
        self.images = images
        self.hands = hands
        self._locks: dict[int, asyncio.Lock] = {}
        self._starter: dict[int, int] = {}  # match -> the user who started it (just acted)
        # card message id -> digest of the board it shows (bounded: SHOWN_BOARDS)
        self._shown: OrderedDict[int, bytes] = OrderedDict()

    def started_by(self, match_id: int, user_id: int) -> None:
        """``user_id`` started the match (accepted the challenge, asked for practice): they
        just acted, so the first card does not ping them."""
        self._starter[match_id] = user_id

    async def card(self, match_id: int) -> ControlPost | None:
        """The match's live card as recorded, or None."""
        found = await self.posts.store.get(match_id, PostKind.CARD)
        return found[-1] if found else None

    async def refresh(self, match_id: int) -> Match:
        """Bring the match's card up to the stored match (reloaded here, so the newest state
        is shown whatever order the callers come in): edit it in place, or — a new round,
        or no card yet — turn the old card into the round's record and post a new one.
        Pings who is due (:meth:`due_pings`). Returns the match shown."""
        lock = self._locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            match = await self.service.get_match(match_id)
            await self._refresh(match)
        if not match.active:
            self._locks.pop(match_id, None)
            self._starter.pop(match_id, None)
        return match

    async def _refresh(self, m: Match) -> None:
        ui = ui_of(m.game)
        lang = await self.posts.language(m.guild_id)
        current = await self.card(m.id)
        notes = CardNotes.parse(current.text) if current is not None else None
        key = ui.card_key(m)
        same_card = notes is not None and (notes.key == key or not m.active)
        before = notes if same_card and notes is not None else CardNotes(key)
        if ui.turns_come_round:  # pinged and dealt again when their turn comes round
            before = replace(before, pinged=before.pinged & before.acting,
                             dealt=before.dealt & before.acting)
        due = await self.due_pings(m, before)
        card_id: int | None = None
        if current is not None and same_card:
            if await self._edit(m, current, lang):
                card_id = current.message_id
                if due:
                    await self.posts.post(m.channel_id, Text.joined(" ", [
                        ui.ping_text(m, seat) for seat in due]),
                        allowed_mentions=pings(*(m.user_of(seat) for seat in due)),
                        guild_id=m.guild_id)
            else:
                await self.posts.store.forget(current.message_id)  # deleted: a new one
                current = None
        if card_id is None:
            if current is not None:
                await self._close(m, current, notes.key if notes is not None else 0, lang)
            await self._retire_legacy(m)
            msg = await self._post(m, due, lang)
            card_id = msg.id if msg is not None else None
        if card_id is None:
            return
        after = CardNotes(key, m.waiting_for(), before.pinged | frozenset(due), before.dealt)
        if current is None or current.message_id != card_id or str(after) != current.text:
            await self.posts.store.remember(m.id, PostKind.CARD, m.channel_id, card_id,
                                            str(after))
        # the private views by DM once the card is recorded (their jump links point at it)
        dealt = await self._deal(m, before.dealt)
        if dealt != before.dealt:
            await self.posts.store.remember(m.id, PostKind.CARD, m.channel_id, card_id,
                                            str(replace(after, dealt=dealt)))
        await self._update_line(m, card_id, lang)

    async def _update_line(self, m: Match, card_id: int, lang: str = ENGLISH) -> None:
        """Edit the match's line in its thread's parent channel (progress, whose move, a
        link to the card; the result at the end) when it changed."""
        for line in await self.posts.store.get(m.id, PostKind.LINE):
            text = tr(ui_of(m.game).parent_line(m, jump_url(m.guild_id, m.channel_id,
                                                             card_id)), lang)
            if text != line.text:
                await self.posts.edit(line.channel_id, line.message_id, content=text,
                                      view=None, allowed_mentions=NO_PINGS)
                await self.posts.store.remember(m.id, PostKind.LINE, line.channel_id,
                                                line.message_id, text)

    async def due_pings(self, m: Match, notes: CardNotes) -> list[Seat]:
        """The people to ping now: the seats played by a person to whom the turn just passed
        (they must decide now and did not have to at the card's last edit, ``notes``),
        except the last person who acted (they are looking) and anyone pinged already under
        this card."""
        if not m.active:
            return []
        humans = [seat for seat in sorted(m.waiting_for() - notes.acting)
                  if not m.ai_of(seat)]
        if not humans:
            return []
        last = await self._last_actor(m)
        return [seat for seat in humans
                if m.user_of(seat) != last and seat not in notes.pinged]

    async def _last_actor(self, m: Match) -> int | None:
        """The user id of the last person (not the AI) who made a decision in the match, or
        who started it."""
        for _, seat, action in reversed(await self.service.action_log(m.id)):
            if action is not None and not m.ai_of(seat):  # None: a forfeit, no decision
                return m.user_of(seat)
        return self._starter.get(m.id)

    async def _deal(self, m: Match, dealt: frozenset[Seat]) -> frozenset[Seat]:
        """DM each person whose private view the game deals now
        (:meth:`~bot.discord.presentation.GameUI.deal_seats`: Raptor's pickers) that view,
        once per card (if they asked for it, ``settings dm_hand``); returns the seats dealt
        so far under this card."""
        for seat in sorted(ui_of(m.game).deal_seats(m)):
            if not m.ai_of(seat) and seat not in dealt:
                dealt |= {seat}
                await self.hands.dm_hand_if_wanted(m, seat)
        return dealt

    # ------------------------------------------------------------------ the message
    def controls(self, m: Match, lang: str = ENGLISH) -> discord.ui.View | None:
        """The card's controls now (its game's), none once the match is over."""
        return ui_of(m.game).controls(m, lang) if m.active else None

    def _embed(self, m: Match, lang: str) -> discord.Embed:
        ui = ui_of(m.game)
        colour = ui.card_colour(m) if m.active else discord.Colour.dark_green()
        embed = discord.Embed(description=tr(ui.card_story(m), lang)[:EMBED_TEXT],
                              colour=colour)
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed

    def _content(self, m: Match, lang: str) -> str:
        ui = ui_of(m.game)
        if not m.active:
            return tr(Text("{heading} — {over}", heading=ui.card_heading(m),
                           over=ui.card_over()), lang)
        return tr(ui.card_content(m, m.deadline_at), lang)

    def _showing(self, message_id: int, png: bytes | None) -> None:
        """Remember that card ``message_id`` shows the board ``png`` (None: no board)."""
        self._shown.pop(message_id, None)
        if png is not None:
            self._shown[message_id] = hashlib.blake2b(png, digest_size=16).digest()
            while len(self._shown) > SHOWN_BOARDS:
                self._shown.popitem(last=False)

    def _shows(self, message_id: int, png: bytes) -> bool:
        """Whether card ``message_id`` is known to show exactly the board ``png``."""
        return self._shown.get(message_id) == hashlib.blake2b(png, digest_size=16).digest()

    async def _post(self, m: Match, due: list[Seat], lang: str) -> discord.Message | None:
        view = self.controls(m, lang)
        kw = {"view": view} if view is not None else {}
        channel = self.posts.messageable(m.channel_id)
        png = await self.images.board(m, lang)
        try:
            msg = await channel.send(
                self._content(m, lang), embed=self._embed(m, lang),
                file=discord.File(io.BytesIO(png), filename=BOARD_FILE),
                allowed_mentions=pings(*(m.user_of(seat) for seat in due)) if due else NO_PINGS,
                **kw)
        except discord.HTTPException as exc:
            log.warning("match %d: could not post its card in channel %d (status %s, code "
                        "%s)", m.id, m.channel_id, exc.status, exc.code)
            return None
        self._showing(msg.id, png)
        return msg

    async def _edit(self, m: Match, card: ControlPost, lang: str) -> bool:
        """Edit the card in place; its board is sent again only when it changed (an edit
        without ``attachments`` keeps the file it has)."""
        png = await self.images.board(m, lang)
        kw = {}
        if not self._shows(card.message_id, png):
            kw["attachments"] = [discord.File(io.BytesIO(png), filename=BOARD_FILE)]
        done = await self.posts.edit(card.channel_id, card.message_id,
                                     content=self._content(m, lang), embed=self._embed(m, lang),
                                     view=self.controls(m, lang), allowed_mentions=NO_PINGS,
                                     **kw)
        self._showing(card.message_id, png if done else None)
        return done

    async def _close(self, m: Match, card: ControlPost, old: int, lang: str) -> None:
        """The card of the finished key ``old`` becomes its record: the game's summary, no
        controls, no image (the next card shows the board)."""
        await self.posts.store.forget(card.message_id)
        self._showing(card.message_id, None)
        text = ui_of(m.game).card_closed(m, old)
        await self.posts.edit(card.channel_id, card.message_id, content=tr(text, lang)[:2000],
                              embed=None,
                              attachments=[], view=None, allowed_mentions=NO_PINGS)

    async def _retire_legacy(self, m: Match) -> None:
        """Messages with controls posted by a version of the bot before the card (turn and
        round messages) lose their controls."""
        for post in await self.posts.store.take(m.id, PostKind.TURN):
            await self.posts.retire_turn_post(post.channel_id, post.message_id, post.text, None)
        await self.posts.retire_posts(m.id, PostKind.ROUND, texts.CARD_BELOW, m.guild_id)
