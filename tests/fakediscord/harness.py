"""Drive a real discord.py client against the local fake Discord.

Typical use (see ``tests/fakediscord/README.md`` for more)::

    async with FakeDiscord() as fake:
        alice = fake.add_user("alice")
        bob = fake.add_user("bob")
        await fake.start_client(MyBot())          # login, setup_hook, READY, GUILD_CREATE
        out = await alice.slash("raptor challenge", user=bob, side="raptor")
        assert out.reply.visibility == "public"
        await bob.click("Accept")
        assert fake.ephemerals(alice) == []

How it works
------------
* ``discord.http.Route.BASE`` (used for REST *and* interaction webhooks) is pointed at the
  fake server for the lifetime of the ``FakeDiscord``.
* In-process, the gateway websocket is never opened (a bot in another process connects to
  the fake's gateway instead: ``tests/fakediscord/gateway.py``, and person actions then go
  over it, see :meth:`FakeDiscord._dispatch_remote`).  After ``client.login()`` (which runs
  ``setup_hook``) the harness feeds READY and GUILD_CREATE straight into
  ``client._connection.parsers`` and waits for ``client.wait_until_ready()``.  A tiny stand-in
  for ``client.ws`` answers ``change_presence`` and member chunk requests.
* A person's action builds the INTERACTION_CREATE payload Discord would send and hands it to
  ``client._connection.parse_interaction_create``.  Every asyncio task created while doing
  so - and, transitively, every task *those* tasks create - is tracked through a context
  variable and a loop task factory.  The action returns once the interaction was
  acknowledged and all tracked tasks finished, or once the only tasks left are "parked"
  (sleeping / waiting on an event, e.g. a game timer) and the fake saw no HTTP traffic for
  ``idle`` seconds.  View timeout timers and ``delete_after`` timers are ignored.
* Log records of level ERROR (e.g. discord.py's "Ignoring exception in command") are
  captured into ``fake.errors``; with ``strict=True`` (default) leaving the ``async with``
  block raises if there were errors, unknown routes, invalid requests or late acks.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord
from discord.http import Route

from .models import (
    BUTTON,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    Ack,
    Attachment,
    HarnessError,
    Record,
    iter_components,
)
from .server import (
    ALL_PERMISSIONS,
    ChannelInfo,
    DiscordError,
    FakeDiscordServer,
    GuildInfo,
    InteractionInfo,
    UserInfo,
)

log = logging.getLogger("tests.fakediscord")

# --------------------------------------------------------------------------- task tracking


class _Tracker:
    """Collects the tasks spawned (transitively) while handling one dispatch."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.tasks: list[asyncio.Task[Any]] = []

    def pending(self) -> list[asyncio.Task[Any]]:
        return [t for t in self.tasks if not t.done() and not _is_timer_task(t)]


_TRACKER: contextvars.ContextVar[_Tracker | None] = contextvars.ContextVar(
    "fakediscord_tracker", default=None)


def _make_task_factory(previous: Any) -> Any:
    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        if previous is not None:
            task = previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        ctx = kwargs.get("context")
        tracker = ctx.get(_TRACKER) if ctx is not None else _TRACKER.get()
        if tracker is not None:
            tracker.tasks.append(task)
        return task

    factory.__fakediscord__ = True  # type: ignore[attr-defined]
    return factory


_ASYNCIO_DIR = os.path.dirname(asyncio.__file__)
_DISCORD_DIR = os.path.dirname(discord.__file__)
# Awaiting one of these means "waiting for time or for something else to happen".
_PARKING = {"sleep", "wait", "wait_for", "Event.wait", "Condition.wait", "Queue.get",
            "Barrier.wait", "Lock.acquire", "Semaphore.acquire"}


def _await_chain(task: asyncio.Task[Any]) -> list[tuple[str, str]]:
    chain: list[tuple[str, str]] = []
    obj: Any = task.get_coro()
    for _ in range(200):
        if obj is None:
            break
        code = (getattr(obj, "cr_code", None) or getattr(obj, "gi_code", None)
                or getattr(obj, "ag_code", None))
        if code is None:
            chain.append((type(obj).__qualname__, ""))
            break
        chain.append((getattr(code, "co_qualname", code.co_name), code.co_filename))
        obj = (getattr(obj, "cr_await", None) or getattr(obj, "gi_yieldfrom", None)
               or getattr(obj, "ag_await", None))
    return chain


def _is_timer_task(task: asyncio.Task[Any]) -> bool:
    """discord.py's own timers (view timeouts, delete_after) never count as work."""
    code = getattr(task.get_coro(), "cr_code", None)
    if code is None:
        return False
    name = getattr(code, "co_qualname", code.co_name)
    return "timeout_task_impl" in name or (
        name.endswith("inner_call") and code.co_filename.startswith(_DISCORD_DIR))


def _is_parked(task: asyncio.Task[Any]) -> bool:
    for name, filename in _await_chain(task):
        if filename.startswith(_ASYNCIO_DIR) and name in _PARKING:
            return True
        if name.endswith("View.wait") or name.endswith("Modal.wait"):
            return True
    return False


def _describe(task: asyncio.Task[Any]) -> str:
    chain = " -> ".join(n for n, _ in _await_chain(task))
    return f"{task.get_name()}: {chain}"


# --------------------------------------------------------------------------- log capture


class _ErrorCapture(logging.Handler):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(level=logging.WARNING)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("tests.fakediscord"):
            return
        try:
            text = f"{record.name}: {record.getMessage()}"
            if record.exc_info and record.exc_info[1] is not None:
                text += f"\n{type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
                if self.formatter is None:
                    self.setFormatter(logging.Formatter())
                text += "\n" + self.formatter.formatException(record.exc_info)  # type: ignore
        except Exception:  # pragma: no cover
            text = repr(record)
        if record.levelno >= logging.ERROR:
            self.fake.errors.append(text)
        else:
            self.fake.warnings.append(text)


# --------------------------------------------------------------------------- gateway stub


class _GatewayStub:
    """Stands in for ``client.ws``: no socket, but presence and member chunking work."""

    open = False
    latency = 0.0
    shard_id = None

    def __init__(self, fake: FakeDiscord, client: discord.Client) -> None:
        self.fake = fake
        self.client = client
        self.presences: list[dict[str, Any]] = []

    def is_ratelimited(self) -> bool:
        return False

    async def change_presence(self, *, activity: Any = None, status: Any = None,
                              since: float = 0.0) -> None:
        self.presences.append({"activity": activity, "status": status})

    async def request_chunks(self, guild_id: int, query: str | None = None, *, limit: int,
                             user_ids: list[int] | None = None, presences: bool = False,
                             nonce: str | None = None) -> None:
        server = self.fake.server
        users = [u for u in server.users.values() if server.is_member(u.id, guild_id)]
        if user_ids:
            users = [u for u in users if u.id in user_ids]
        if query:
            users = [u for u in users if u.name.lower().startswith(query.lower())]
        if limit:
            users = users[:limit]
        payload = {
            "guild_id": str(guild_id),
            "members": [server.member_payload(u.id, guild_id=guild_id) for u in users],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": nonce,
        }
        parser = self.client._connection.parsers["GUILD_MEMBERS_CHUNK"]
        asyncio.get_running_loop().call_soon(parser, payload)

    async def close(self, code: int = 1000) -> None:
        return None


# --------------------------------------------------------------------------- outcome


@dataclass
class Outcome:
    """What one user action produced.

    ``records`` are all message events (creations and edits) recorded while the bot handled
    the action: the interaction's own replies *and* e.g. channel posts or DMs it sent along
    the way.  ``replies`` keeps only the events tied to this interaction (responses,
    follow-ups, edits of the original).  Iterating/indexing an Outcome walks ``records``.
    """

    kind: str
    name: str
    interaction_id: int
    user_id: int
    ack: Ack | None
    records: list[Record] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def replies(self) -> list[Record]:
        return [r for r in self.records if r.interaction_id == self.interaction_id]

    @property
    def reply(self) -> Record | None:
        """The first reply (or None)."""
        replies = self.replies
        return replies[0] if replies else None

    @property
    def content(self) -> str | None:
        reply = self.reply
        return reply.content if reply else None

    @property
    def acknowledged(self) -> bool:
        return self.ack is not None and not self.ack.late

    @property
    def latency(self) -> float | None:
        return self.ack.latency if self.ack else None

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback type 8)."""
        return list(self.ack.choices or []) if self.ack else []

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.ack.modal if self.ack else None

    def visible_to(self, user: Any) -> list[Record]:
        return [r for r in self.records if r.visible_to(user)]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __getitem__(self, index: int) -> Record:
        return self.records[index]


# --------------------------------------------------------------------------- people & places


@dataclass(eq=False)
class FakeChannel:
    fake: FakeDiscord
    info: ChannelInfo

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def parent_id(self) -> int | None:
        """A thread's channel (None for a channel)."""
        return self.info.parent_id

    def messages(self) -> list[Record]:
        return self.fake.public_messages(self)

    def last_message(self) -> Record | None:
        msgs = self.messages()
        return msgs[-1] if msgs else None

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name} {self.id}>"


@dataclass(eq=False)
class FakeGuild:
    """A guild of the fake (``fake.add_guild``) and its default text channel."""

    fake: FakeDiscord
    info: GuildInfo
    channel: FakeChannel

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    def shard(self, shard_count: int) -> int:
        """The shard that carries this guild: ``(id >> 22) % shard_count``."""
        return self.info.shard(shard_count)

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} {self.id}>"


DM = "dm"  # pass channel=DM to run a command in the user's DM with the bot
#: Discord's bound on an integer or number option: it refuses larger values itself.
MAX_OPTION_NUMBER = 2**53 - 1


@dataclass(eq=False)
class FakeUser:
    """A guild member who talks to the bot.  All actions return an :class:`Outcome`."""

    fake: FakeDiscord
    info: UserInfo

    # -- identity
    @property
    def id(self) -> int:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def display_name(self) -> str:
        return self.info.nick or self.info.global_name or self.info.name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} {self.id}>"

    # -- what this person sees
    def messages(self) -> list[Record]:
        return self.fake.messages(visible_to=self)

    def ephemerals(self) -> list[Record]:
        return self.fake.ephemerals(self)

    def dms(self) -> list[Record]:
        return self.fake.dms(self)

    def last_message(self) -> Record | None:
        return self.fake.last_message(visible_to=self)

    # -- actions
    async def slash(self, command: str, /, *, in_channel: Any = None,
                    options: dict[str, Any] | None = None, expect_ack: bool = True,
                    timeout: float | None = None, **kwargs: Any) -> Outcome:
        """Run ``/command`` ("group sub" paths allowed) with options as keyword arguments
        (or ``options={...}`` for names that aren't identifiers).  Users/members may be given
        as FakeUser or id, channels as FakeChannel or id, attachments as
        ``(filename, bytes)``.  ``in_channel`` (where the command is typed) defaults to the
        default text channel; pass ``in_channel=DM`` for the user's DM with the bot."""
        opts = {**(options or {}), **kwargs}
        return await self.fake._slash(self, command, opts, channel=in_channel,
                                      expect_ack=expect_ack, timeout=timeout)

    async def autocomplete(self, command: str, option: str, value: str = "", /, *,
                           in_channel: Any = None, options: dict[str, Any] | None = None,
                           timeout: float | None = None, **kwargs: Any) -> list[dict[str, Any]]:
        """Type ``value`` into ``option`` of ``/command``; returns the offered choices as
        ``[{"name": ..., "value": ...}, ...]``.  Other already-filled options go in kwargs."""
        opts = {**(options or {}), **kwargs}
        outcome = await self.fake._slash(self, command, opts, channel=in_channel, focused=option,
                                         focused_value=value, expect_ack=True, timeout=timeout)
        return outcome.choices

    async def click(self, label: str | None = None, /, *, custom_id: str | None = None,
                    message: Any = None, expect_ack: bool = True,
                    timeout: float | None = None) -> Outcome:
        """Click the button labelled ``label`` (or with ``custom_id``) on the most recent
        message this user can see that has one (or on ``message``)."""
        msg, comp = self.fake._find_component(self, BUTTON, label, custom_id, message)
        if comp.get("disabled"):
            raise HarnessError(f"{self.name} cannot click disabled button {_comp_name(comp)} "
                               f"on {msg!r}")
        if comp.get("style") in (5, 6) or not comp.get("custom_id"):
            raise HarnessError(f"button {_comp_name(comp)} is a link/premium button: clicking "
                               "it sends no interaction")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": BUTTON}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self.fake._dispatch_component(self, msg, data, expect_ack=expect_ack,
                                                   timeout=timeout)

    async def forge_click(self, custom_id: str, /, *, message: Any,
                          values: Sequence[str] | None = None, carried: bool = True,
                          expect_ack: bool = True, timeout: float | None = None) -> Outcome:
        """What a modified client can send: a click with any ``custom_id`` on ``message`` (a
        message this user can see), as a select menu choosing ``values`` when given, else as
        a button. Nothing is checked against the message's components.

        ``carried``: the interaction's ``message`` also carries that component (one row
        holding it in place of the message's own components), as if Discord relayed the
        client's copy of the message; discord.py then dispatches it like any click. With
        ``carried=False`` the message is sent as stored, so the id is on none of its
        components (what a client showing an older version of an edited message sends)."""
        msg = self.fake.server.messages.get(_id(message))
        if msg is None or msg.deleted:
            raise HarnessError(f"message {message!r} does not exist (any more)")
        if not msg.visible_to(self):
            raise HarnessError(f"{self.name} cannot see {msg!r}")
        if values is None:
            comp: dict[str, Any] = {"type": BUTTON, "style": 1, "label": "forged",
                                    "custom_id": custom_id}
            data: dict[str, Any] = {"custom_id": custom_id, "component_type": BUTTON}
        else:
            comp = {"type": STRING_SELECT, "custom_id": custom_id, "min_values": 1,
                    "max_values": 1, "options": [{"label": v[:100], "value": v[:100]}
                                                 for v in values] or
                    [{"label": "forged", "value": "forged"}]}
            data = {"custom_id": custom_id, "component_type": STRING_SELECT,
                    "values": list(values)}
        carrier = None
        if carried:
            carrier = replace(msg, components=[{"type": 1, "components": [comp]}])
        return await self.fake._dispatch_component(self, msg, data, expect_ack=expect_ack,
                                                   timeout=timeout, carrier=carrier)

    async def click_twice(self, label: str | None = None, /, **kwargs: Any
                          ) -> tuple[Outcome, Outcome]:
        """Double click: two concurrent interactions on the same message state."""
        first, second = await asyncio.gather(self.click(label, **kwargs),
                                             self.click(label, **kwargs))
        return first, second

    async def select(self, key: str | None = None, /, values: Sequence[Any] = (), *,
                     message: Any = None, expect_ack: bool = True,
                     timeout: float | None = None) -> Outcome:
        """Pick ``values`` in the select menu whose placeholder or custom_id is ``key`` (or
        the only/most recent select menu if ``key`` is None).  For string selects a value may
        be given by option value or option label; user/role/channel selects take FakeUser /
        role id / FakeChannel."""
        msg, comp = self.fake._find_component(self, "select", key, None, message)
        if comp.get("disabled"):
            raise HarnessError(f"{self.name} cannot use disabled select {_comp_name(comp)}")
        data = self.fake._select_data(comp, list(values))
        return await self.fake._dispatch_component(self, msg, data, expect_ack=expect_ack,
                                                   timeout=timeout)

    async def submit_modal(self, values: dict[str, Any] | None = None, /, *,
                           modal: Any = None, expect_ack: bool = True,
                           timeout: float | None = None, **kwargs: Any) -> Outcome:
        """Fill in and submit the most recent modal the bot showed this user (or ``modal``:
        an Outcome or the modal dict).  Text inputs are keyed by custom_id."""
        return await self.fake._submit_modal(self, {**(values or {}), **kwargs}, modal,
                                             expect_ack=expect_ack, timeout=timeout)


def _comp_name(comp: dict[str, Any]) -> str:
    return repr(comp.get("label") or comp.get("placeholder") or comp.get("custom_id"))


# --------------------------------------------------------------------------- the harness


class FakeDiscord:
    """A fake Discord guild plus the machinery to run a discord.py client against it.

    Parameters
    ----------
    guild_name, channel_name, bot_name:
        Names for the guild, its default text channel and the bot user.
    ack_deadline:
        Seconds within which the first callback must arrive (Discord: 3).  Later callbacks
        get 404 10062 Unknown interaction, like on Discord.
    idle:
        Quiet period used to decide that a bot with lingering background tasks is done.
    timeout:
        Maximum seconds an action waits for the bot before raising :class:`HarnessError`.
    strict:
        On a clean exit of ``async with``, raise if :meth:`problems` is non-empty.
    gateway_events:
        Echo the bot's own non-ephemeral messages back as MESSAGE_CREATE/UPDATE/DELETE.
    require_synced_commands:
        ``slash`` only knows commands the bot synced (PUT .../commands).  With ``False`` it
        falls back to the client's local ``CommandTree`` definitions.
    guild_locale:
        The guild's preferred locale, sent as ``guild_locale`` with every interaction in it
        (a user's own locale is ``add_user(locale=...)``); may be changed at any time.
    guild_id:
        The default guild's id (default: a new snowflake); choose it to put the guild on a
        given shard (``(guild_id >> 22) % shard_count``). More guilds: :meth:`add_guild`.
    remote_idle:
        For a bot in another process (connected over the gateway websocket): once the
        interaction was acknowledged and that process reports no interaction in flight, the
        seconds without HTTP traffic from it after which an action counts as done.
    """

    def __init__(
        self,
        *,
        guild_name: str = "Raptor Test Guild",
        channel_name: str = "general",
        bot_name: str = "RaptorBot",
        ack_deadline: float = 3.0,
        idle: float = 0.15,
        timeout: float = 10.0,
        strict: bool = True,
        gateway_events: bool = True,
        require_synced_commands: bool = True,
        guild_locale: str = "en-US",
        guild_id: int | None = None,
        remote_idle: float = 0.3,
    ) -> None:
        self.server = FakeDiscordServer(guild_name=guild_name, bot_name=bot_name,
                                        ack_deadline=ack_deadline, guild_id=guild_id)
        self.remote_idle = remote_idle
        self.idle = idle
        self.timeout = timeout
        self.strict = strict
        self.gateway_events = gateway_events
        self.require_synced_commands = require_synced_commands
        self.guild_locale = guild_locale
        self.client: discord.Client | None = None
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.bot_user = FakeUser(self, self.server.bot)
        self.channel = self.add_channel(channel_name)
        self.guilds: dict[int, FakeGuild] = {
            self.server.guild_id: FakeGuild(self, self.server.guild_of(None), self.channel)}
        self._users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self._trackers: list[_Tracker] = []
        self._active: set[_Tracker] = set()
        self._saved_base: str | None = None
        self._saved_factory: Any = None
        self._factory: Any = None
        self._log_handler: _ErrorCapture | None = None
        self._started = False
        self.gateway_stub: _GatewayStub | None = None

    # ------------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            await self.stop()
        finally:
            if exc_type is None and self.strict:
                self.assert_clean()

    async def start(self) -> None:
        """Start the server, patch discord.py's base URL, install task tracking."""
        if self._started:
            return
        await self.server.start()
        self._saved_base = Route.BASE
        Route.BASE = self.server.api_base
        loop = asyncio.get_running_loop()
        self._saved_factory = loop.get_task_factory()
        self._factory = _make_task_factory(self._saved_factory)
        loop.set_task_factory(self._factory)
        self._log_handler = _ErrorCapture(self)
        logging.getLogger().addHandler(self._log_handler)
        self._started = True

    async def stop(self) -> None:
        """Close the client (if any), cancel leftover bot tasks, stop the server, unpatch."""
        if not self._started:
            return
        try:
            if self.client is not None:
                await self.stop_client()
            leftovers = [t for tr in self._trackers for t in tr.tasks if not t.done()]
            for task in leftovers:
                task.cancel()
            if leftovers:
                await asyncio.wait(leftovers, timeout=2)
            await self.server.stop()
        finally:
            if self._saved_base is not None:
                Route.BASE = self._saved_base
            loop = asyncio.get_running_loop()
            if loop.get_task_factory() is self._factory:
                loop.set_task_factory(self._saved_factory)
            if self._log_handler is not None:
                logging.getLogger().removeHandler(self._log_handler)
            self._started = False

    async def start_client(self, client: discord.Client, *, token: str = "fake-token") -> None:
        """Log ``client`` in against the fake (runs ``setup_hook``, e.g. command sync), feed
        READY + GUILD_CREATE, wait until it is ready and its startup work has settled."""
        if not self._started:
            raise HarnessError("call `await fake.start()` (or use `async with`) first")
        if self.client is not None:
            raise HarnessError("a client is already running; await fake.stop_client() first")
        tracker = self._new_tracker("startup")
        reset = _TRACKER.set(tracker)
        try:
            await client.login(token)
        finally:
            _TRACKER.reset(reset)
        self.client = client
        self.gateway_stub = _GatewayStub(self, client)
        client.ws = self.gateway_stub  # type: ignore[assignment]
        state = client._connection
        saved_timeout = state.guild_ready_timeout
        state.guild_ready_timeout = 0.02  # don't wait 2 s for more GUILD_CREATEs
        if self.gateway_events:
            self.server.gateway = self._make_sink(client)
        reset = _TRACKER.set(tracker)
        try:
            guild_ids = list(self.guilds)  # the default guild first, then those added
            state.parsers["READY"](self.server.ready_payload(guild_ids=guild_ids))
            for gid in guild_ids:
                state.parsers["GUILD_CREATE"](self.server.guild_payload(
                    all_members=client.intents.members, guild_id=gid))
        finally:
            _TRACKER.reset(reset)
        try:
            await asyncio.wait_for(client.wait_until_ready(), timeout=self.timeout)
        finally:
            state.guild_ready_timeout = saved_timeout
        await self._settle(tracker, None, timeout=self.timeout)

    async def stop_client(self) -> None:
        """Close the running client (its HTTP session); the fake keeps all its state, so a
        new client can be started with :meth:`start_client` (restart test)."""
        client = self.client
        if client is None:
            return
        self.client = None
        self.server.gateway = None
        await client.close()

    def _make_sink(self, client: discord.Client) -> Any:
        def sink(event: str, payload: dict[str, Any]) -> None:
            if self.client is not client:
                return
            intents = client.intents
            if event.startswith("MESSAGE_"):
                in_guild = "guild_id" in payload
                if in_guild and not intents.guild_messages:
                    return
                if not in_guild and not intents.dm_messages:
                    return
            parser = client._connection.parsers.get(event)
            if parser is not None:
                parser(payload)

        return sink

    # ------------------------------------------------------------------ world building
    def add_user(self, name: str, *, id: int | None = None, global_name: str | None = None,
                 admin: bool = False, owner: bool = False, locale: str = "en-US",
                 dms_closed: bool = False, guild: Any = None) -> FakeUser:
        """Add a human member of ``guild`` (a FakeGuild or id; default: the default
        guild).  ``owner=True`` makes them the application owner (``bot.is_owner``);
        ``admin=True`` gives them the guild's Administrator role."""
        gid = None if guild is None else _id(guild)
        info = self.server.add_user(name, id=id, global_name=global_name, admin=admin,
                                    locale=locale, guild_id=gid)
        info.dms_closed = dms_closed
        if owner:
            self.server.owner_id = info.id
        user = FakeUser(self, info)
        self._users[info.id] = user
        client = self.client
        if client is not None and client.intents.members:
            home = self.server.guild_of(gid).id
            payload = {**self.server.member_payload(info.id, guild_id=home),
                       "guild_id": str(home)}
            client._connection.parsers["GUILD_MEMBER_ADD"](payload)
        return user

    def add_channel(self, name: str, *, bot_can_send: bool = True,
                    guild: Any = None) -> FakeChannel:
        """Add a text channel to ``guild`` (default: the default guild), before
        ``start_client`` or it won't be in the bot's cache.  ``bot_can_send=False`` denies
        the bot Send Messages there (posting -> 403 50013)."""
        return FakeChannel(self, self.server.add_channel(
            name, bot_can_send=bot_can_send, guild_id=None if guild is None else _id(guild)))

    def add_guild(self, name: str, *, id: int | None = None,
                  channel_name: str = "general") -> FakeGuild:
        """Add a guild with a text channel ``channel_name`` (its ``channel``); its members
        are added with ``add_user(..., guild=...)``.  ``id`` chooses its shard.  Add it before
        the bot connects (the gateway sends a shard's guilds at IDENTIFY)."""
        info = self.server.add_guild(name, id=id)
        guild = FakeGuild(self, info, self.add_channel(channel_name, guild=info.id))
        self.guilds[info.id] = guild
        return guild

    def join(self, user: Any, guild: Any, *, admin: bool = False) -> None:
        """Make ``user`` a member of another ``guild`` too (a FakeGuild or id), with that
        guild's Administrator role if ``admin``; their home guild stays the first."""
        info = self.server.users[_id(user)]
        gid = _id(guild)
        info.guild_ids.add(gid)
        if admin:
            info.role_ids.append(self.server.guild_of(gid).admin_role.id)

    def grant_command(self, user: Any, command: str, *, guild: Any = None) -> None:
        """Let ``user`` run ``/command`` in ``guild`` (default: the default guild) whatever
        its default member permissions: a server admin's override for that member in Server
        Settings -> Integrations."""
        gid = self.server.guild_id if guild is None else _id(guild)
        self.server.command_grants.setdefault((gid, command), set()).add(_id(user))

    def home_guild(self, user: Any) -> FakeGuild:
        """The guild a member was added to (the default guild for the bot)."""
        ids = self.server.users[_id(user)].guild_ids
        mine = [g for gid, g in self.guilds.items() if gid in ids]
        return mine[0] if mine else self.guilds[self.server.guild_id]

    def set_bot_can_send(self, channel: Any, allowed: bool) -> None:
        """Grant/deny the bot Send Messages in ``channel`` (sends CHANNEL_UPDATE)."""
        info = self.server.channels[_id(channel)]
        self.server.set_bot_can_send(info.id, allowed)
        if self.client is not None:
            self.client._connection.parsers["CHANNEL_UPDATE"](self.server.channel_payload(info))

    def set_bot_can_create_threads(self, channel: Any, allowed: bool) -> None:
        """Grant/deny the bot Create Public Threads in ``channel`` (starting one -> 403
        50013; sends CHANNEL_UPDATE)."""
        info = self.server.channels[_id(channel)]
        self.server.set_bot_can_create_threads(info.id, allowed)
        if self.client is not None:
            self.client._connection.parsers["CHANNEL_UPDATE"](self.server.channel_payload(info))

    def archive_thread(self, thread: Any, *, archived: bool = True,
                       locked: bool = False) -> None:
        """Archive (or unarchive) a thread as Discord does after its auto-archive duration
        without activity (``locked``: a moderator also locked it): edits and deletions of its
        messages then fail with 400 50083 "Thread is archived"; the bot's next public message
        there unarchives it (not when locked). Sends THREAD_UPDATE."""
        self.server.archive_thread(_id(thread), archived=archived, locked=locked)

    def threads(self, channel: Any = None) -> list[FakeChannel]:
        """The threads started so far (in ``channel``, if given), oldest first."""
        parent = None if channel is None else _id(channel)
        return [FakeChannel(self, t) for t in self.server.threads(parent)]

    def set_dms_closed(self, user: Any, closed: bool = True) -> None:
        """Make DMs to ``user`` fail with 403 50007 "Cannot send messages to this user"."""
        self.server.users[_id(user)].dms_closed = closed

    def user(self, user_id: int) -> FakeUser:
        return self._users[user_id]

    @property
    def users(self) -> dict[str, FakeUser]:
        """Human users by name."""
        return {u.name: u for u in self._users.values() if u is not self.bot_user}

    @property
    def guild_id(self) -> int:
        return self.server.guild_id

    @property
    def app_id(self) -> int:
        return self.server.app_id

    @property
    def admin_role_id(self) -> int:
        return self.server.admin_role.id

    # ------------------------------------------------------------------ recordings
    @property
    def records(self) -> list[Record]:
        """Event log: every message creation and edit, in order."""
        return self.server.records

    @property
    def acks(self) -> list[Ack]:
        """First callback of every interaction, with ``latency`` in seconds."""
        return self.server.acks

    @property
    def unknown_routes(self) -> list[Any]:
        return self.server.unknown_routes

    @property
    def rejections(self) -> list[Any]:
        """Every 4xx the fake answered (includes intended 403s such as closed DMs)."""
        return self.server.rejections

    @property
    def deletions(self) -> list[Record]:
        return self.server.deletions

    @property
    def modals(self) -> list[dict[str, Any]]:
        return self.server.modals

    @property
    def requests(self) -> list[Any]:
        return self.server.requests

    def messages(self, *, visible_to: Any = None, channel: Any = None,
                 include_deleted: bool = False) -> list[Record]:
        """Current state of messages (latest edit), oldest first.  ``visible_to`` keeps
        public messages plus that user's ephemerals and DMs; ``channel`` filters by channel.
        Deferred messages still "thinking" are left out."""
        uid = _id(visible_to) if visible_to is not None else None
        cid = _id(channel) if channel is not None else None
        result = []
        for msg in self.server.messages.values():
            if msg.loading or (msg.deleted and not include_deleted):
                continue
            if uid is not None and not msg.visible_to(uid):
                continue
            if cid is not None and msg.channel_id != cid:
                continue
            result.append(msg)
        result.sort(key=lambda m: m.seq)
        return result

    def public_messages(self, channel: Any = None) -> list[Record]:
        """Public messages, in ``channel`` if given (default: all guild channels)."""
        return [m for m in self.messages(channel=channel) if m.visibility == "public"]

    def ephemerals(self, user: Any) -> list[Record]:
        uid = _id(user)
        return [m for m in self.messages() if m.visibility == "ephemeral" and m.user_id == uid]

    def dms(self, user: Any) -> list[Record]:
        uid = _id(user)
        return [m for m in self.messages() if m.visibility == "dm" and m.user_id == uid]

    def last_message(self, *, visible_to: Any = None, channel: Any = None) -> Record | None:
        msgs = self.messages(visible_to=visible_to, channel=channel)
        return msgs[-1] if msgs else None

    def message(self, message_id: int) -> Record:
        """Current state of one message."""
        return self.server.messages[message_id]

    def synced_commands(self, guild: bool = False) -> list[dict[str, Any]]:
        """Commands the bot synced globally (or to the guild with ``guild=True``)."""
        return self.server.command_payloads(self.guild_id if guild else None)

    def problems(self) -> list[str]:
        """Things that indicate a bot bug: unknown routes, requests Discord would reject as
        invalid (400/413; not 50083 "Thread is archived", a state the bot learns only by
        trying, like a 403), callbacks after the deadline, follow-ups on unknown/expired
        tokens, embeds referencing ``attachment://`` files that weren't uploaded, fake
        server crashes and ERROR log records."""
        out = [f"unknown route {u.method} {u.path}" for u in self.unknown_routes]
        for r in self.rejections:
            if (r.status in (400, 413) and r.code != 50083) or r.code in (10062, 10015):
                out.append(f"rejected {r.method} {r.path}: {r.status} {r.code} {r.message} "
                           f"{r.errors}")
        out += [f"late ack ({a.latency:.2f}s) for {a.name}" for a in self.acks if a.late]
        out += [f"fake server error: {e}" for e in self.server.server_errors]
        out += [f"dangling attachment:// reference: {e}"
                for e in self.server.dangling_attachment_refs]
        out += [f"logged error: {e}" for e in self.errors]
        return out

    def assert_clean(self) -> None:
        problems = self.problems()
        if problems:
            raise HarnessError("fake discord saw problems:\n  " + "\n  ".join(problems))

    # ------------------------------------------------------------------ dispatch machinery
    def _new_tracker(self, label: str) -> _Tracker:
        tracker = _Tracker(label)
        # forget finished tasks/trackers so long runs don't accumulate them
        if len(self._trackers) > 100:
            for old in self._trackers:
                old.tasks = [t for t in old.tasks if not t.done()]
            self._trackers = [t for t in self._trackers if t.tasks or t.label == "startup"]
        self._trackers.append(tracker)
        return tracker

    def _require_client(self) -> discord.Client:
        if self.client is None:
            raise HarnessError("no client is running (await fake.start_client(bot))")
        return self.client

    def _resolve_channel(self, user: FakeUser, channel: Any) -> ChannelInfo:
        if channel is None:  # the default channel of the user's guild
            return self.home_guild(user).channel.info
        if channel == DM:
            return self.server.dm_channel_for(user.id)
        return self.server.channels[_id(channel)]

    def _interaction_payload(self, info: InteractionInfo, user: FakeUser, data: dict[str, Any],
                             message: Record | None) -> dict[str, Any]:
        server = self.server
        chan = server.channels[info.channel_id]
        gid = chan.guild_id or server.guild_id
        payload: dict[str, Any] = {
            "id": str(info.id),
            "application_id": str(server.app_id),
            "type": info.type,
            "data": data,
            "token": info.token,
            "version": 1,
            "locale": user.info.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": server.attachment_size_limit,
            "app_permissions": str(server.permissions(server.bot.id, chan.id)),
            "channel_id": str(chan.id),
            "channel": server.channel_payload(chan, for_user=None if chan.is_dm else user.id),
            "authorizing_integration_owners": {"0": str(gid)},
            "context": 1 if chan.is_dm else 0,
        }
        if chan.is_dm:
            payload["user"] = user.info.payload()
        else:
            payload["guild_id"] = str(gid)
            payload["guild"] = {"id": str(gid), "locale": self.guild_locale,
                                "features": []}
            payload["guild_locale"] = self.guild_locale
            payload["member"] = server.member_payload(user.id, channel_id=chan.id)
        if message is not None:
            payload["message"] = server.message_payload(message)
        return payload

    @property
    def remote(self) -> bool:
        """Whether the bot runs in other processes: no client in this one, and gateway
        connections are open (interactions then go over the websocket of the guild's
        shard)."""
        return self.client is None and bool(self.server.gateway_hub.connections)

    async def _dispatch(self, user: FakeUser, *, kind: str, itype: int, name: str,
                        channel: ChannelInfo, data: dict[str, Any], message: Record | None,
                        expect_ack: bool, timeout: float | None,
                        carrier: Record | None = None) -> Outcome:
        remote = self.remote
        client = None if remote else self._require_client()
        server = self.server
        info = server.new_interaction(type=itype, user_id=user.id, channel_id=channel.id,
                                      name=name,
                                      message_id=message.message_id if message else None)
        payload = self._interaction_payload(info, user, data, carrier or message)
        tracker = self._new_tracker(f"{kind} {name} by {user.name}")
        seq0 = server.seq
        errors0 = len(self.errors)
        self._active.add(tracker)
        try:
            if remote:
                await self._dispatch_remote(info, payload, tracker.label,
                                            timeout=timeout or self.timeout)
            else:
                assert client is not None
                reset = _TRACKER.set(tracker)
                try:
                    info.dispatched_at = server.now()
                    client._connection.parse_interaction_create(payload)  # type: ignore
                finally:
                    _TRACKER.reset(reset)
                await self._settle(tracker, info, timeout=timeout or self.timeout)
        finally:
            self._active.discard(tracker)
        outcome = Outcome(
            kind=kind,
            name=name,
            interaction_id=info.id,
            user_id=user.id,
            ack=info.ack,
            records=[r for r in server.records_after(seq0)
                     if r.interaction_id in (None, info.id)],
            errors=self.errors[errors0:],
        )
        if expect_ack and not outcome.acknowledged:
            why = "late" if info.ack else "never"
            raise HarnessError(
                f"the bot {why} acknowledged {kind} {name!r} by {user.name} (the user sees "
                f"'This interaction failed'). Errors: {outcome.errors or 'none logged'}")
        return outcome

    async def _dispatch_remote(self, info: InteractionInfo, payload: dict[str, Any],
                               label: str, *, timeout: float) -> None:
        """Send INTERACTION_CREATE over the gateway connection of the guild's shard (a DM:
        shard 0), then wait until the bot acknowledged it and the process that did is done:
        it handles no interaction (as it last reported, ``server.busy_of``) and sent no HTTP
        request for ``remote_idle`` seconds (or the ack deadline passed without an ack)."""
        server = self.server
        info.dispatched_at = server.now()
        conn = server.gateway_hub.dispatch("INTERACTION_CREATE", payload,
                                           guild_id=info.guild_id)
        if conn is None:
            raise HarnessError(f"{label}: no gateway connection carries guild {info.guild_id}")
        info.shard, info.connection = conn.shard_id, conn.number
        loop = asyncio.get_running_loop()
        start = loop.time()
        while True:
            await asyncio.sleep(0.01)
            now = loop.time()
            if info.ack is not None:
                who = info.responders[0] if info.responders else None
                if now - server.last_activity_of(who) >= self.remote_idle and (
                        server.inflight_of(who) == 0 and server.busy_of(who) == 0):
                    return
            elif now - info.dispatched_at > server.ack_deadline + 0.25:
                return
            if now - start > timeout:
                raise HarnessError(f"{label}: the bot process was still sending requests "
                                   f"after {timeout}s")

    def _busy_elsewhere(self, tracker: _Tracker) -> bool:
        for other in self._active:
            if other is tracker:
                continue
            if any(not _is_parked(t) for t in other.pending()):
                return True
        return False

    async def _settle(self, tracker: _Tracker, info: InteractionInfo | None, *,
                      timeout: float) -> None:
        """Wait until the bot finished reacting to one dispatch (see module docstring)."""
        server = self.server
        loop = asyncio.get_running_loop()
        start = loop.time()
        while True:
            await asyncio.sleep(0.005)
            now = loop.time()
            pending = tracker.pending()
            acked = info is None or info.ack is not None
            quiet = server.inflight == 0 and now - server.last_activity >= self.idle
            if not pending and server.inflight == 0:
                if acked or quiet:
                    break
            elif acked and quiet and all(_is_parked(t) for t in pending) and (
                    not self._busy_elsewhere(tracker)):
                break
            if info is not None and not acked and now - info.dispatched_at > (
                    server.ack_deadline + 0.25):
                break
            if now - start > timeout:
                desc = "\n  ".join(_describe(t) for t in pending) or "(none)"
                raise HarnessError(
                    f"{tracker.label}: the bot was still busy after {timeout}s; pending "
                    f"tasks:\n  {desc}")
        # let call_soon'd gateway deliveries run
        await asyncio.sleep(0)

    # ------------------------------------------------------------------ slash commands
    def _find_command(self, root: str, client: discord.Client | None,
                      guild_id: int | None = None) -> tuple[dict[str, Any], bool]:
        guild_id = guild_id or self.guild_id
        for cmd in self.server.command_payloads(guild_id):
            if cmd["name"] == root and cmd.get("type", 1) == 1:
                return cmd, True
        for cmd in self.server.command_payloads(None):
            if cmd["name"] == root and cmd.get("type", 1) == 1:
                return cmd, False
        if not self.require_synced_commands and client is not None:
            tree = getattr(client, "tree", None) or client._connection._command_tree
            if tree is not None:
                guild = discord.Object(guild_id)
                for guild_scope, obj in ((True, guild), (False, None)):
                    local = tree.get_command(root, guild=obj)
                    if local is not None:
                        payload = local.to_dict(tree)
                        payload.setdefault("id", str(self.server.ids.next()))
                        return payload, guild_scope
        synced = [c["name"] for c in self.server.command_payloads(None)] + [
            c["name"] for c in self.server.command_payloads(guild_id)]
        raise HarnessError(f"no synced slash command {root!r}; the bot synced: {synced}")

    async def _slash(self, user: FakeUser, command: str, opts: dict[str, Any], *,
                     channel: Any, expect_ack: bool, timeout: float | None,
                     focused: str | None = None, focused_value: str = "") -> Outcome:
        client = None if self.remote else self._require_client()
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise HarnessError("empty command")
        chan = self._resolve_channel(user, channel)
        cmd, guild_scope = self._find_command(parts[0], client, chan.guild_id)
        if chan.is_dm:
            contexts = cmd.get("contexts")
            if guild_scope or cmd.get("dm_permission") is False or (
                    contexts is not None and 1 not in contexts):
                raise HarnessError(f"/{parts[0]} is not available in DMs")
        required = cmd.get("default_member_permissions")
        granted = user.id in self.server.command_grants.get((chan.guild_id or 0, parts[0]),
                                                            ())
        if required is not None and not chan.is_dm and not granted:
            # Discord hides a command from members without its default permissions ("0":
            # administrators only); a person without them cannot run it
            have = self.server.permissions(user.id, chan.id)
            if have & int(required) != int(required) or (int(required) == 0 and have
                                                          != ALL_PERMISSIONS):
                raise HarnessError(f"{user.name} cannot use /{parts[0]}: it needs permissions "
                                   f"{required} and they have {have}")
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if guild_scope:
            data["guild_id"] = str(chan.guild_id)
        defs = cmd.get("options") or []
        target: list[dict[str, Any]] = []
        data["options"] = target
        for part in parts[1:]:
            sub = next((o for o in defs if o.get("type") in (1, 2) and o["name"] == part), None)
            if sub is None:
                names = [o["name"] for o in defs if o.get("type") in (1, 2)]
                raise HarnessError(f"/{command}: no subcommand {part!r}; choose from {names}")
            entry: dict[str, Any] = {"name": part, "type": sub["type"], "options": []}
            target.append(entry)
            target = entry["options"]
            defs = sub.get("options") or []
        subs = [o["name"] for o in defs if o.get("type") in (1, 2)]
        if subs:
            raise HarnessError(f"/{command} is incomplete; choose one of {subs}")
        resolved: dict[str, dict[str, Any]] = {}
        by_name = {o["name"]: o for o in defs}
        for name, value in opts.items():
            if name not in by_name:
                raise HarnessError(f"/{command} has no option {name!r}; options: "
                                   f"{list(by_name)}")
            if name == focused:
                continue
            odef = by_name[name]
            if value is None:
                continue
            target.append({"name": name, "type": odef["type"],
                           "value": self._option_value(odef, value, resolved, chan,
                                                       lenient=focused is not None)})
        if focused is not None:
            if focused not in by_name:
                raise HarnessError(f"/{command} has no option {focused!r}")
            if not by_name[focused].get("autocomplete"):
                raise HarnessError(f"option {focused!r} of /{command} has no autocomplete")
            target.append({"name": focused, "type": by_name[focused]["type"],
                           "value": focused_value, "focused": True})
        else:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in opts]
            if missing:
                raise HarnessError(f"/{command}: missing required options {missing}")
        if resolved:
            data["resolved"] = resolved
        return await self._dispatch(
            user, kind="autocomplete" if focused else "slash", itype=4 if focused else 2,
            name=" ".join(parts), channel=chan, data=data, message=None,
            expect_ack=expect_ack, timeout=timeout)

    def _option_value(self, odef: dict[str, Any], value: Any, resolved: dict[str, Any],
                      chan: ChannelInfo, *, lenient: bool) -> Any:
        otype = odef["type"]
        name = odef["name"]
        server = self.server
        if otype in (3, 4, 10):
            if otype == 3:
                value = str(value)
            elif otype == 4:
                if isinstance(value, bool) or int(value) != value:
                    raise HarnessError(f"option {name!r} needs an integer, got {value!r}")
                value = int(value)
            else:
                value = float(value)
            choices = odef.get("choices") or []
            if choices and not lenient:
                values = [c["value"] for c in choices]
                if value not in values:
                    by_label = {c["name"]: c["value"] for c in choices}
                    if str(value) in by_label:
                        value = by_label[str(value)]
                    else:
                        raise HarnessError(f"option {name!r}: {value!r} is not one of the "
                                           f"choices {choices}")
            if not lenient:
                if otype == 3:
                    lo, hi = odef.get("min_length", 0), odef.get("max_length", 6000)
                    if not lo <= len(value) <= hi:
                        raise HarnessError(f"option {name!r}: length must be {lo}..{hi}")
                else:
                    lo, hi = odef.get("min_value"), odef.get("max_value")
                    if (lo is not None and value < lo) or (hi is not None and value > hi):
                        raise HarnessError(f"option {name!r}: {value} not in {lo}..{hi}")
                    if abs(value) > MAX_OPTION_NUMBER:
                        raise HarnessError(f"option {name!r}: {value} is beyond Discord's "
                                           f"±{MAX_OPTION_NUMBER}")
            return value
        if otype == 5:
            if not isinstance(value, bool):
                raise HarnessError(f"option {name!r} needs a bool")
            return value
        if otype in (6, 9) and not (otype == 9 and _id(value) in server.roles):
            uid = _id(value)
            if uid not in server.users:
                raise HarnessError(f"option {name!r}: unknown user {value!r}")
            resolved.setdefault("users", {})[str(uid)] = server.users[uid].payload()
            if server.is_member(uid, chan.guild_id) and not chan.is_dm:
                member = server.member_payload(uid, with_user=False, channel_id=chan.id)
                resolved.setdefault("members", {})[str(uid)] = member
            return str(uid)
        if otype in (8, 9):
            rid = _id(value)
            if rid not in server.roles:
                raise HarnessError(f"option {name!r}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(rid)] = server.roles[rid].payload()
            return str(rid)
        if otype == 7:
            cinfo = server.channels.get(_id(value))
            if cinfo is None or cinfo.is_dm:
                raise HarnessError(f"option {name!r}: unknown guild channel {value!r}")
            types = odef.get("channel_types")
            if types and cinfo.type not in types:
                raise HarnessError(f"option {name!r}: channel type must be in {types}")
            cp = server.channel_payload(cinfo, for_user=None)
            cp["permissions"] = str(server.permissions(server.bot.id, cinfo.id))
            resolved.setdefault("channels", {})[str(cinfo.id)] = cp
            return str(cinfo.id)
        if otype == 11:
            if isinstance(value, Attachment):
                filename, blob = value.filename, value.data
            else:
                filename, blob = value
            att = server._new_attachment((filename, bytes(blob), ""), {}, chan.id)
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
            return str(att.id)
        raise HarnessError(f"option type {otype} is not supported by the harness")

    # ------------------------------------------------------------------ components
    def _find_component(self, user: FakeUser, kind: Any, key: str | None,
                        custom_id: str | None, message: Any) -> tuple[Record, dict[str, Any]]:
        if message is not None:
            msg = self.server.messages.get(_id(message))
            if msg is None or msg.deleted:
                raise HarnessError(f"message {message!r} does not exist (any more)")
            if not msg.visible_to(user):
                raise HarnessError(f"{user.name} cannot see {msg!r}")
            candidates = [msg]
        else:
            candidates = list(reversed(self.messages(visible_to=user)))
        for msg in candidates:
            for comp in iter_components(msg.components):
                if kind == BUTTON:
                    if comp.get("type") != BUTTON:
                        continue
                    if custom_id is not None:
                        if comp.get("custom_id") == custom_id:
                            return msg, comp
                    elif key is not None and comp.get("label") == key:
                        return msg, comp
                    elif key is None and custom_id is None:
                        raise HarnessError("click() needs a label or custom_id")
                elif comp.get("type") in SELECT_TYPES:
                    if key is None or key in (comp.get("custom_id"), comp.get("placeholder")):
                        return msg, comp
        what = "button" if kind == BUTTON else "select menu"
        wanted = custom_id if custom_id is not None else key
        seen = [(m.message_id, m.labels, [s.get("placeholder") or s.get("custom_id")
                                          for s in m.selects])
                for m in candidates[:5]]
        raise HarnessError(f"{user.name} sees no {what} {wanted!r}. Recent messages "
                           f"(id, buttons, selects): {seen}")

    def _select_data(self, comp: dict[str, Any], values: list[Any]) -> dict[str, Any]:
        ctype = comp["type"]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise HarnessError(f"select {_comp_name(comp)} takes {lo}..{hi} values, "
                               f"got {len(values)}")
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": ctype}
        server = self.server
        if ctype == STRING_SELECT:
            options = comp.get("options") or []
            out = []
            for v in values:
                match = next((o for o in options if o.get("value") == v), None) or next(
                    (o for o in options if o.get("label") == v), None)
                if match is None:
                    raise HarnessError(f"select {_comp_name(comp)} has no option {v!r}; "
                                       f"options: {[o.get('value') for o in options]}")
                out.append(match["value"])
            if len(set(out)) != len(out):
                raise HarnessError("the same option can't be selected twice")
            data["values"] = out
            return data
        resolved: dict[str, dict[str, Any]] = {}
        out = []
        for v in values:
            vid = _id(v)
            if vid in server.users and ctype in (5, 7):
                resolved.setdefault("users", {})[str(vid)] = server.users[vid].payload()
                if server.users[vid].in_guild:
                    resolved.setdefault("members", {})[str(vid)] = server.member_payload(
                        vid, with_user=False)
            elif vid in server.roles and ctype in (6, 7):
                resolved.setdefault("roles", {})[str(vid)] = server.roles[vid].payload()
            elif vid in server.channels and ctype == 8:
                cp = server.channel_payload(server.channels[vid])
                cp["permissions"] = str(server.permissions(server.bot.id, vid))
                resolved.setdefault("channels", {})[str(vid)] = cp
            else:
                raise HarnessError(f"{v!r} can't be picked in select {_comp_name(comp)}")
            out.append(str(vid))
        data["values"] = out
        data["resolved"] = resolved
        return data

    async def _dispatch_component(self, user: FakeUser, msg: Record, data: dict[str, Any], *,
                                  expect_ack: bool, timeout: float | None,
                                  carrier: Record | None = None) -> Outcome:
        """A component interaction on ``msg``; its payload's ``message`` is ``carrier``
        when given (a forged click, :meth:`FakeUser.forge_click`), else ``msg``."""
        chan = self.server.channels[msg.channel_id]
        kind = "click" if data["component_type"] == BUTTON else "select"
        return await self._dispatch(user, kind=kind, itype=3, name=data["custom_id"],
                                    channel=chan, data=data, message=msg,
                                    expect_ack=expect_ack, timeout=timeout, carrier=carrier)

    async def _submit_modal(self, user: FakeUser, values: dict[str, Any], modal: Any, *,
                            expect_ack: bool, timeout: float | None) -> Outcome:
        if isinstance(modal, Outcome):
            modal = modal.modal
        if modal is None:
            mine = [m for m in self.server.modals if m["user_id"] == user.id]
            if not mine:
                raise HarnessError(f"the bot showed {user.name} no modal")
            modal = mine[-1]
        source = next((i for i in self.server.interactions.values()
                       if i.id == modal.get("interaction_id")), None)
        if source is None:
            raise HarnessError("can't tell which interaction opened this modal")
        used: set[str] = set()

        def fill(comp: dict[str, Any]) -> dict[str, Any] | None:
            ctype = comp.get("type")
            if ctype == 1:
                kids = [k for k in (fill(c) for c in comp.get("components") or []) if k]
                return {"type": 1, "components": kids}
            if ctype == 18:
                inner = fill(comp.get("component") or {})
                return {"type": 18, "component": inner} if inner else None
            cid = comp.get("custom_id")
            if cid is None:
                return None
            if ctype == TEXT_INPUT:
                value = values.get(cid, comp.get("value") or "")
                if not value and comp.get("required", True):
                    raise HarnessError(f"modal field {cid!r} is required")
                lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
                if value and not lo <= len(str(value)) <= hi:
                    raise HarnessError(f"modal field {cid!r}: length must be {lo}..{hi}")
                used.add(cid)
                return {"type": TEXT_INPUT, "custom_id": cid, "value": str(value)}
            if ctype == STRING_SELECT:
                chosen = values.get(cid, [])
                used.add(cid)
                return {"type": STRING_SELECT, "custom_id": cid,
                        "values": self._select_data(comp, list(chosen))["values"]}
            return None

        components = [c for c in (fill(c) for c in modal.get("components") or []) if c]
        unknown = set(values) - used
        if unknown:
            raise HarnessError(f"modal {modal.get('custom_id')!r} has no fields {unknown}")
        data = {"custom_id": modal["custom_id"], "components": components}
        message = self.server.messages.get(source.message_id or 0)
        chan = self.server.channels[source.channel_id]
        return await self._dispatch(user, kind="modal", itype=5, name=modal["custom_id"],
                                    channel=chan, data=data, message=message,
                                    expect_ack=expect_ack, timeout=timeout)


def _id(obj: Any) -> int:
    if isinstance(obj, int):
        return obj
    if isinstance(obj, str):
        return int(obj)
    if isinstance(obj, Record):
        return obj.message_id
    return int(obj.id)


__all__ = ["DM", "DiscordError", "FakeChannel", "FakeDiscord", "FakeGuild", "FakeUser",
           "Outcome"]
