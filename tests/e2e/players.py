"""People playing Raptor through Discord: a thin layer over ``tests/fakediscord``.

Everything here acts the way a person would: it types slash commands, clicks the buttons and
picks options from the select menus the bot posted (found by their labels, placeholders and
option values), and reads what it was shown. Nothing calls the match service to change a
match; the database is only *read*, by a separate connection, to let a simulated player
"think" about its own view (``engine.view(state, side)``) and to check what happened.

Shapes::

    async with World.open(tmp_path) as world:      # fake Discord + the real bot on SQLite
        table = await world.new_table(raptor="alice", scientist="bob")   # a match in #general
        alice, bob = table.raptor, table.scientist  # Player objects
        await alice.pick_card(7)                    # "Pick your card", then "7 · Recovery ×3"
        await bob.act("play 1")                     # /raptor act action:play 1
        await bob.play(engine.parse_action("gas D3", ...))  # through the turn message's menus
        await table.play_until_over(rng)            # easy-AI decisions, made with the controls

A :class:`Table` is one match in one channel with its two players; it records, after every
action, the stored game state together with the fake Discord's record counter, so what was
posted can later be compared with the position it was posted in (``Table.timeline``).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bot.match.starting
import engine
from bot.ai import choose_action
from bot.discord.app import RaptorBot, create_bot
from bot.games.raptor import sides as rs
from bot.games.raptor import texts
from bot.i18n import resolve, tr
from bot.match import Match, MatchService
from bot.settings import Settings
from bot.storage.db import SqliteDatabase
from engine import Action, End, Pick, Side
from engine.geometry import TILE_NAMES, TILE_OF, square
from engine.messages import Text
from engine.raptor_game import SIDE_SEATS
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, HarnessError, Outcome, Record

R, S = Side.RAPTOR, Side.SCIENTIST
SQUARE_RE = re.compile(r"\b([A-M][1-6])\b")
GROUP_PLACEHOLDER = "Choose a figurine or an area"
ACTION_PLACEHOLDER = "Choose an action"


def make_settings(db_path: Path, **overrides: Any) -> Settings:
    """Bot settings for a test: the database file, a tiny AI budget, long timeouts."""
    values: dict[str, Any] = {"db_path": str(db_path), "ai_time_budget": 0.05,
                              "turn_timeout_hours": 24.0, "challenge_timeout_minutes": 10.0}
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def seed_sequence(base: int) -> Callable[[], int]:
    """A stand-in for ``bot.match.starting.new_seed``: reproducible match seeds base, base+1, ..."""
    counter = iter(range(base, base + 1_000_000))
    return lambda: next(counter)


# --------------------------------------------------------------------------- the world


class World:
    """A fake Discord guild with the real Raptor bot logged in, on one SQLite file.

    ``observer`` is a second, independent connection to the same file (a
    :class:`MatchService` used only for reading), so the bot can be stopped and restarted
    while the test keeps looking at the stored matches.
    """

    def __init__(self, fake: FakeDiscord, db_path: Path | None, settings: Settings | None,
                 observer: MatchService, observer_db: SqliteDatabase) -> None:
        self.fake = fake
        self.db_path = db_path
        self.settings = settings
        self.observer = observer
        self.observer_db = observer_db
        self.bot: RaptorBot | None = None
        self.db: SqliteDatabase | None = None
        self.tables: list[Table] = []
        self.restarts = 0
        # After every action, read the stored match into the table's timeline (for audits).
        # A load benchmark turns this off to keep memory and database reads down.
        self.keep_timeline = True

    @classmethod
    @asynccontextmanager
    async def open(cls, folder: Path, *, seed: int = 7_000_001, fake: FakeDiscord | None = None,
                   **settings: Any) -> AsyncIterator[World]:
        """Start the fake Discord and the bot (``settings`` override :func:`make_settings`).
        Match seeds are ``seed, seed + 1, ...`` in creation order."""
        db_path = folder / "raptor.sqlite3"
        conf = make_settings(db_path, **settings)
        saved_seed = bot.match.starting.new_seed
        bot.match.starting.new_seed = seed_sequence(seed)
        observer_db = await SqliteDatabase.open(db_path)
        try:
            async with (fake or FakeDiscord()) as fk:
                world = cls(fk, db_path, conf, MatchService(observer_db), observer_db)
                try:
                    await world.start_bot()
                    yield world
                finally:
                    await world.stop_bot()
        finally:
            bot.match.starting.new_seed = saved_seed
            await observer_db.close()

    @classmethod
    def observing(cls, fake: FakeDiscord, db: SqliteDatabase) -> World:
        """A world whose bot runs elsewhere (processes connected to ``fake``'s gateway, see
        ``tests/e2e/shard_process.py``): ``db`` only observes; no bot is started here."""
        return cls(fake, None, None, MatchService(db), db)

    async def start_bot(self) -> RaptorBot:
        """A brand-new bot instance on a new connection to the database file."""
        assert self.db_path is not None and self.settings is not None, "the bot runs elsewhere"
        self.db = await SqliteDatabase.open(self.db_path)
        self.bot = await create_bot(self.settings, self.db)
        await self.fake.start_client(self.bot)
        return self.bot

    async def stop_bot(self) -> None:
        """Close the client (as on a shutdown) and its database connection."""
        if self.bot is not None:
            await self.fake.stop_client()
            self.bot = None
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def restart_bot(self) -> RaptorBot:
        await self.stop_bot()
        self.restarts += 1
        return await self.start_bot()

    def user(self, name: str) -> FakeUser:
        """The guild member called ``name`` (added on first use)."""
        return self.fake.users.get(name) or self.fake.add_user(name)

    async def new_table(self, *, raptor: str = "alice", scientist: str = "bob",
                        channel: FakeChannel | None = None, setup: str = "quick",
                        environment: str = "jungle") -> Table:
        """``raptor`` challenges ``scientist`` in ``channel`` (default #general) asking for
        the raptor side; ``scientist`` clicks Accept. Returns the table of the new match,
        whose ``channel`` is then the match's thread when the bot started one (``parent``
        the channel)."""
        chan = channel or self.fake.channel
        table = Table(self, chan)
        table.raptor = Player(table, self.user(raptor), R)
        table.scientist = Player(table, self.user(scientist), S)
        self.tables.append(table)
        out = await table.raptor.challenge(table.scientist, side="raptor", setup=setup,
                                           environment=environment)
        challenge = next((r for r in out.replies for b in r.buttons
                          if (b.get("custom_id") or "").endswith(":accept")), None)
        assert challenge is not None and challenge.visibility == "public", out.records
        accept = next(b for b in challenge.buttons
                      if (b.get("custom_id") or "").endswith(":accept"))
        accepted = await table.scientist.click(custom_id=accept["custom_id"], message=challenge)
        thread = next((t for t in self.fake.threads(chan) if t.id == challenge.message_id),
                      None)
        if thread is not None:  # the match plays in a thread started from the challenge
            table.parent, table.channel = chan, thread
            table.track(accepted)
        match = await self.observer.active_match(table.channel.id)
        assert match is not None, "accepting the challenge started no match"
        assert (rs.user(match, R), rs.user(match, S)) == (table.raptor.id, table.scientist.id)
        table.match_id = match.id
        table.note(match)
        return table


# --------------------------------------------------------------------------- a table


@dataclass
class Step:
    """One entry of a table's timeline: after the fake's record ``seq``, the stored match
    was ``match`` (its state is the position every record up to ``seq`` was made in)."""

    seq: int
    match: Match


@dataclass(eq=False)
class Table:
    world: World
    channel: FakeChannel
    raptor: Player = field(init=False)
    scientist: Player = field(init=False)
    match_id: int = 0
    parent: FakeChannel | None = None  # the channel the match's thread hangs from, if any
    timeline: list[Step] = field(default_factory=list)
    message_ids: list[int] = field(default_factory=list)  # messages created in the channel
    decisions: int = 0
    used: Counter[str] = field(default_factory=Counter)  # which controls made the decisions

    @property
    def fake(self) -> FakeDiscord:
        return self.world.fake

    def player(self, side: Side) -> Player:
        return self.raptor if side is R else self.scientist

    @property
    def players(self) -> tuple[Player, Player]:
        return self.raptor, self.scientist

    async def match(self) -> Match:
        """The match as stored now (read through the observer connection)."""
        return await self.world.observer.get_match(self.match_id)

    def note(self, match: Match) -> None:
        self.timeline.append(Step(self.fake.server.seq, match))

    def track(self, out: Outcome) -> None:
        """Remember the messages an action created in this channel."""
        for r in out.records:
            if not r.edit and r.channel_id == self.channel.id and r.message_id not in (
                    self.message_ids[-8:]):
                self.message_ids.append(r.message_id)

    def find(self, records: Iterable[Record], label: str) -> Record | None:
        for r in records:
            if label in r.labels:
                return r
        return None

    def newest(self, who: Player, test: Callable[[Record], bool]) -> Record | None:
        """The newest message of this channel that ``who`` can see and ``test`` accepts
        (current state, i.e. after edits)."""
        messages = self.fake.server.messages
        for mid in reversed(self.message_ids):
            msg = messages.get(mid)
            if msg is None or msg.deleted or msg.loading or not msg.visible_to(who.id):
                continue
            if test(msg):
                return msg
        return None

    def turn_message(self, match: Match) -> Record | None:
        """The public message carrying the controls for the stored version of the match."""
        prefix = f"raptor:m:{match.id}:v:{match.version}:"
        return self.newest(self.raptor, lambda m: m.visibility == "public" and any(
            (c.get("custom_id") or "").startswith(prefix) for c in m.walk()))

    # -------------------------------------------------------------- playing a whole match
    async def next_decision(self, rng: random.Random, match: Match | None = None
                            ) -> tuple[Player, Action] | None:
        """Who decides next and what (the easy AI on that player's own view), or None when
        the match is over. Under a simultaneous pick the order of the two picks is random."""
        match = match or await self.match()
        if not match.active:
            return None
        sides = sorted(engine.to_act(match.state))
        side = rng.choice(sides)
        who = self.player(side)
        return who, who.think(match, seed=rng.randrange(1 << 30))

    async def play_decision(self, rng: random.Random, *, act_share: float = 0.25,
                            match: Match | None = None) -> Outcome | None:
        """Make the next decision of the match with the controls (or, with probability
        ``act_share``, by typing it with ``/raptor act``); checks that exactly that decision
        was stored. None when the match is over."""
        before = match or await self.match()
        found = await self.next_decision(rng, before)
        if found is None:
            return None
        who, action = found
        via = "act" if rng.random() < act_share else "controls"
        out = await who.play(action, via=via, match=before)
        after = await self.match()
        log = await self.world.observer.action_log(self.match_id)
        assert after.version == before.version + 1, (
            f"{who.name} played {engine.format_action(action)} via {via}: version "
            f"{before.version} -> {after.version}")
        assert log[-1][1:] == (who.seat, action), (log[-1], who.seat, action)
        self.decisions += 1
        return out

    async def play_until_over(self, rng: random.Random, *, max_rounds: int | None = None,
                              act_share: float = 0.25) -> Match:
        """Play decisions until the match ends (or round ``max_rounds`` is over)."""
        while True:
            match = await self.match()
            if not match.active or (max_rounds is not None and match.state.round > max_rounds):
                return match
            await self.play_decision(rng, act_share=act_share, match=match)


# --------------------------------------------------------------------------- a player


@dataclass(eq=False)
class Player:
    table: Table
    user: FakeUser
    side: Side

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def seat(self) -> int:
        """The seat of this player's side (:data:`engine.raptor_game.SIDE_SEATS`)."""
        return SIDE_SEATS[self.side]

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def fake(self) -> FakeDiscord:
        return self.table.fake

    def __repr__(self) -> str:
        return f"<Player {self.name} ({self.side.value})>"

    @property
    def lang(self) -> str:
        """The language of this player's private messages (their Discord client's)."""
        return resolve(self.user.info.locale)

    # -------------------------------------------------------------- raw actions
    async def _done(self, out: Outcome) -> Outcome:
        self.table.track(out)
        if self.table.match_id and self.table.world.keep_timeline:
            self.table.note(await self.table.match())
        return out

    async def slash(self, command: str, **options: Any) -> Outcome:
        return await self._done(await self.user.slash(command, in_channel=self.table.channel,
                                                      **options))

    async def click(self, label: str | None = None, *, message: Any,
                    custom_id: str | None = None) -> Outcome:
        return await self._done(await self.user.click(label, custom_id=custom_id,
                                                      message=message))

    async def click_twice(self, label: str, *, message: Any) -> tuple[Outcome, Outcome]:
        first, second = await self.user.click_twice(label, message=message)
        await self._done(first)
        await self._done(second)
        return first, second

    async def select(self, key: str, value: str, *, message: Any) -> Outcome:
        return await self._done(await self.user.select(key, values=[value], message=message))

    async def autocomplete(self, typed: str = "") -> list[dict[str, Any]]:
        return await self.user.autocomplete("raptor act", "action", typed,
                                            in_channel=self.table.channel)

    # -------------------------------------------------------------- commands
    async def challenge(self, other: Player, **options: Any) -> Outcome:
        return await self.slash("raptor challenge", user=other.user, **options)

    async def act(self, notation: str) -> Outcome:
        """``/raptor act action:<notation>``."""
        return await self.slash("raptor act", action=notation)

    # -------------------------------------------------------------- the card pick
    def round_message(self) -> Record | None:
        """The newest message of the channel with a "Pick your card" button."""
        return self.table.newest(self, lambda m: any(
            (b.get("custom_id") or "").endswith(":hand") for b in m.buttons))

    async def open_hand(self) -> Record:
        """Click "Pick your card" on the newest round message; returns the ephemeral hand."""
        msg = self.round_message()
        if msg is None:
            raise HarnessError(f"{self.name} sees no 'Pick your card' button")
        button = next(b for b in msg.buttons if (b.get("custom_id") or "").endswith(":hand"))
        out = await self.click(custom_id=button["custom_id"], message=msg)
        hand = out.reply
        assert hand is not None and hand.visibility == "ephemeral" and hand.user_id == self.id, (
            out.records)
        return hand

    async def pick_card(self, card: int) -> Outcome:
        """Open the hand and click the button of ``card`` ("7 · Recovery ×3")."""
        hand = await self.open_hand()
        label = tr(texts.card_label(self.side, card), self.lang)
        if label not in hand.labels:
            raise HarnessError(f"{self.name}'s hand shows no button {label!r}: "
                               f"{hand.labels} {hand.content[:300]!r}")
        return await self.click(label, message=hand)

    # -------------------------------------------------------------- other decisions
    def think(self, match: Match, *, seed: int = 0) -> Action:
        """The easy AI's choice from this player's own view of the stored match."""
        return choose_action(engine.view(match.state, self.side), level="easy", seed=seed)

    async def play(self, action: Action, *, via: str = "controls",
                   match: Match | None = None) -> Outcome:
        """Make ``action`` with the controls (``via="controls"``) or by typing it
        (``via="act"``)."""
        used = self.table.used
        if via == "act":
            used["act"] += 1
            return await self.act(engine.format_action(action))
        if isinstance(action, Pick):
            used["card button"] += 1
            return await self.pick_card(action.card)
        match = match or await self.table.match()
        turn = self.table.turn_message(match)
        if turn is None:
            raise HarnessError(f"{self.name}: no turn message for version {match.version}")
        assert self.user.mention in turn.content, (self.name, turn.content)
        if isinstance(action, End):
            end = next(b for b in turn.buttons if (b.get("custom_id") or "").endswith(":end"))
            used["end button"] += 1
            return await self.click(end["label"], message=turn)
        return await self.choose(engine.format_action(action), turn, match)

    async def choose(self, notation: str, turn: Record, match: Match) -> Outcome:
        """Find ``notation`` among the options of the turn message (directly, or in the
        ephemeral menu of a figurine / area, page by page) and select it."""
        direct = turn.select_menu(ACTION_PLACEHOLDER) or _select_like(turn, r":do$")
        if direct is not None:
            self.table.used["action menu"] += 1
            return await self.select(direct["custom_id"], notation, message=turn)
        groups = turn.select_menu(GROUP_PLACEHOLDER) or _select_like(turn, r":grp$")
        if groups is None:
            raise HarnessError(f"turn message without a menu: {turn!r}")
        keys = [o["value"] for o in groups["options"]]
        for key in _likely_groups(notation, keys):
            out = await self.select(groups["custom_id"], key, message=turn)
            menu = out.reply
            assert menu is not None and menu.visibility == "ephemeral", out.records
            assert menu.user_id == self.id
            while True:
                menu = self.fake.message(menu.message_id)
                for sel in menu.selects:
                    if any(o["value"] == notation for o in sel["options"]):
                        self.table.used["group menu"] += 1
                        return await self.select(sel["custom_id"], notation, message=menu)
                next_page = tr(Text("Next ▶"), self.lang)
                if next_page not in menu.labels:
                    break
                await self.click(next_page, message=menu)
        raise AssertionError(f"{notation!r} is offered by none of the groups {keys}")


def _select_like(message: Record, pattern: str) -> dict | None:
    """The select menu of ``message`` whose custom_id matches ``pattern`` (a turn message
    written in another language than the placeholders above)."""
    return next((sel for sel in message.selects
                 if re.search(pattern, sel.get("custom_id") or "")), None)


def _likely_groups(notation: str, keys: list[str]) -> list[str]:
    """The group options in the order a person would try them: a square named first in the
    notation (the figurine that acts), then the tiles of the squares it names, then the
    rest."""
    squares = SQUARE_RE.findall(notation.upper())
    order: list[str] = [s for s in squares if s in keys]
    for name in squares:
        tile = TILE_OF[square(name)]
        area = TILE_NAMES[tile] if tile >= 0 else "exits"
        if area in keys and area not in order:
            order.append(area)
    return order + [k for k in keys if k not in order]


__all__ = ["Player", "Step", "Table", "World", "make_settings", "seed_sequence"]
