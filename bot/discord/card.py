"""The live match card: one public message per round of a match that holds whose move it is,
the AP left, the deadline, the board image, this round's log so far and the controls, edited
in place at every step.

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
the round starts, else one short message. Nothing is ever asked of the AI.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections import OrderedDict
from dataclasses import dataclass, replace

import discord

import engine
from engine import Phase, Side
from engine.messages import Text

from .. import texts
from ..games.raptor import sides as rs
from ..i18n import ENGLISH, tr
from ..match import Match, MatchService
from . import components
from .hands import Hands
from .images import Images
from .links import jump_url
from .post_store import ControlPost, PostKind
from .posts import Posts
from .replies import BOARD_FILE, NO_PINGS, pings

log = logging.getLogger(__name__)

COLOURS = {Side.RAPTOR: discord.Colour.orange(), Side.SCIENTIST: discord.Colour.blue()}
EMBED_TEXT = 4096  # Discord: characters of an embed description
#: Cards whose board's digest is remembered, the most recently shown (a card beyond them, or
#: after a restart, gets its board sent again at its next edit).
SHOWN_BOARDS = 1024


@dataclass(frozen=True)
class CardNotes:
    """What the bot remembers with a card (the text of its post-store row), so that a
    restarted bot pings and deals exactly as the old one would have: the card's round, the
    sides that had to decide at its last edit, those pinged and those dealt their hand by DM
    in that round. Text form: ``"3|raptor|scientist|raptor,scientist"``."""

    round: int
    acting: frozenset[Side] = frozenset()
    pinged: frozenset[Side] = frozenset()
    dealt: frozenset[Side] = frozenset()

    @classmethod
    def parse(cls, text: str) -> CardNotes:
        """Read the notes back (a bare round number, or anything unreadable, gives empty
        sets)."""
        head, *rest = text.split("|")
        sets = [frozenset(Side(v) for v in part.split(",") if v in ("raptor", "scientist"))
                for part in (*rest, "", "", "")[:3]]
        return cls(int(head) if head.isdigit() else 0, *sets)

    def __str__(self) -> str:
        parts = (",".join(sorted(side.value for side in group))
                 for group in (self.acting, self.pinged, self.dealt))
        return "|".join((str(self.round), *parts))


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
        lang = await self.posts.language(m.guild_id)
        current = await self.card(m.id)
        notes = CardNotes.parse(current.text) if current is not None else None
        same_round = notes is not None and (notes.round == m.state.round or not m.active)
        before = notes if same_round and notes is not None else CardNotes(m.state.round)
        due = await self.due_pings(m, before)
        card_id: int | None = None
        if current is not None and same_round:
            if await self._edit(m, current, lang):
                card_id = current.message_id
                if due:
                    await self.posts.post(m.channel_id, Text.joined(" ", [
                        texts.ping_text(m, side) for side in due]),
                        allowed_mentions=pings(*(rs.user(m, s) for s in due)),
                        guild_id=m.guild_id)
            else:
                await self.posts.store.forget(current.message_id)  # deleted: a new one
                current = None
        if card_id is None:
            if current is not None:
                await self._close(m, current, notes.round if notes is not None else 0, lang)
            await self._retire_legacy(m)
            msg = await self._post(m, due, lang)
            card_id = msg.id if msg is not None else None
        if card_id is None:
            return
        after = CardNotes(m.state.round, frozenset(engine.to_act(m.state)),
                          before.pinged | frozenset(due), before.dealt)
        if current is None or current.message_id != card_id or str(after) != current.text:
            await self.posts.store.remember(m.id, PostKind.CARD, m.channel_id, card_id,
                                            str(after))
        # the hands by DM once the card is recorded (their jump links point at it)
        dealt = await self._deal(m, before.dealt)
        if dealt != before.dealt:
            await self.posts.store.remember(m.id, PostKind.CARD, m.channel_id, card_id,
                                            str(replace(after, dealt=dealt)))
        await self._update_line(m, card_id, lang)

    async def _update_line(self, m: Match, card_id: int, lang: str = ENGLISH) -> None:
        """Edit the match's line in its thread's parent channel (round, whose move, a link
        to the card; the result at the end) when it changed."""
        for line in await self.posts.store.get(m.id, PostKind.LINE):
            text = tr(texts.parent_line(m, jump_url(m.guild_id, m.channel_id, card_id)), lang)
            if text != line.text:
                await self.posts.edit(line.channel_id, line.message_id, content=text,
                                      view=None, allowed_mentions=NO_PINGS)
                await self.posts.store.remember(m.id, PostKind.LINE, line.channel_id,
                                                line.message_id, text)

    async def due_pings(self, m: Match, notes: CardNotes) -> list[Side]:
        """The people to ping now: the sides played by a person to whom the turn just passed
        (they must decide now and did not have to at the card's last edit in this round,
        ``notes``), except the last person who acted (they are looking) and anyone pinged
        already this round."""
        if not m.active:
            return []
        acting = frozenset(engine.to_act(m.state))
        humans = [s for s in sorted(acting - notes.acting) if not rs.ai(m, s)]
        if not humans:
            return []
        last = await self._last_actor(m)
        return [s for s in humans if rs.user(m, s) != last and s not in notes.pinged]

    async def _last_actor(self, m: Match) -> int | None:
        """The user id of the last person (not the AI) who made a decision in the match, or
        who started it."""
        for _, seat, action in reversed(await self.service.action_log(m.id)):
            if action is not None and not m.ai_of(seat):  # None: a forfeit, no decision
                return m.user_of(seat)
        return self._starter.get(m.id)

    async def _deal(self, m: Match, dealt: frozenset[Side]) -> frozenset[Side]:
        """While picking, DM each person who must pick now their hand, once per round (if
        they asked for it, ``/raptor settings dm_hand``); returns the sides dealt so far
        this round."""
        if not m.active or m.state.phase is not Phase.PICK:
            return dealt
        for side in sorted(engine.to_act(m.state)):
            if not rs.ai(m, side) and side not in dealt:
                dealt |= {side}
                await self.hands.dm_hand_if_wanted(m, side)
        return dealt

    # ------------------------------------------------------------------ the message
    def controls(self, m: Match, lang: str = ENGLISH) -> discord.ui.View | None:
        """The card's controls now: Pick your card while a person picks, else the menus of
        the person who decides, none when the match is over or the AI decides."""
        if not m.active:
            return None
        sides = [s for s in sorted(engine.to_act(m.state)) if not rs.ai(m, s)]
        if not sides:
            return None
        if m.state.phase is Phase.PICK:
            return components.round_view(m.id, m.state.round, lang)
        return components.turn_view(m, sides[0], lang)

    def _embed(self, m: Match, lang: str) -> discord.Embed:
        sides = sorted(engine.to_act(m.state)) if m.active else []
        colour = COLOURS[sides[0]] if len(sides) == 1 else discord.Colour.dark_green()
        embed = discord.Embed(description=tr(texts.card_log(m), lang)[:EMBED_TEXT], colour=colour)
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed

    def _content(self, m: Match, lang: str) -> str:
        if not m.active:
            return tr(Text("{heading} — {over}", heading=texts.card_heading(m),
                           over=texts.CARD_OVER), lang)
        return tr(texts.card_text(m, m.deadline_at), lang)

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

    async def _post(self, m: Match, due: list[Side], lang: str) -> discord.Message | None:
        view = self.controls(m, lang)
        kw = {"view": view} if view is not None else {}
        channel = self.posts.messageable(m.channel_id)
        png = await self.images.board(m, lang)
        try:
            msg = await channel.send(
                self._content(m, lang), embed=self._embed(m, lang),
                file=discord.File(io.BytesIO(png), filename=BOARD_FILE),
                allowed_mentions=pings(*(rs.user(m, s) for s in due)) if due else NO_PINGS,
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
        """The card of the finished round ``old`` becomes its record: the summary, no
        controls, no image (the next card shows the board)."""
        await self.posts.store.forget(card.message_id)
        self._showing(card.message_id, None)
        if old == m.state.round - 1:
            text = texts.card_record(m, old, m.state.last_round_events)
        else:
            text = Text("**{title} · Round {n}**", title=texts.match_title(m), n=old)
        await self.posts.edit(card.channel_id, card.message_id, content=tr(text, lang)[:2000],
                              embed=None,
                              attachments=[], view=None, allowed_mentions=NO_PINGS)

    async def _retire_legacy(self, m: Match) -> None:
        """Messages with controls posted by a version of the bot before the card (turn and
        round messages) lose their controls."""
        for post in await self.posts.store.take(m.id, PostKind.TURN):
            await self.posts.retire_turn_post(post.channel_id, post.message_id, post.text, None)
        await self.posts.retire_posts(m.id, PostKind.ROUND, texts.CARD_BELOW, m.guild_id)
