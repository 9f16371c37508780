"""A local fake of Discord's HTTP API (v10), just big enough for a discord.py bot.

:class:`FakeDiscordServer` is an aiohttp application bound to ``127.0.0.1`` on an ephemeral
port.  It owns the "world": one guild with roles, text channels and members, DM channels,
the application commands the bot synced, the interactions the harness dispatched and every
message the bot produced.  It records

* ``records`` - every message creation/edit as a :class:`~.models.Record` (event log),
* ``acks`` - the first callback per interaction with its latency,
* ``unknown_routes`` - requests for routes the fake doesn't implement (answered 404),
* ``rejections`` - requests refused with a Discord error (4xx),
* ``requests`` - a log of all requests.

Usually you don't use this class directly: :class:`~.harness.FakeDiscord` starts it, patches
discord.py to talk to it and drives the bot.

Implemented routes (prefix ``/api/v10``)::

    GET    users/@me, users/{id}            POST users/@me/channels (DM channel)
    GET    oauth2/applications/@me, applications/@me
    GET/PUT/POST applications/{app}/commands, GET/PATCH/DELETE .../commands/{id}
    GET/PUT/POST applications/{app}/guilds/{guild}/commands (+ /{id})
    POST   interactions/{id}/{token}/callback           (types 1, 4, 5, 6, 7, 8, 9)
    POST   webhooks/{app}/{token}                        (follow-up, ?wait=)
    GET/PATCH/DELETE webhooks/{app}/{token}/messages/{@original|id}
    GET/POST channels/{id}/messages, GET/PATCH/DELETE channels/{id}/messages/{id}
    GET    channels/{id}, POST channels/{id}/typing
    POST   channels/{id}/messages/{id}/threads          (a public thread from a message)
    PATCH  channels/{id}                                (a thread's archived / locked)
    GET    guilds/{id}, guilds/{id}/channels, guilds/{id}/roles, guilds/{id}/members/{uid}
    GET    /attachments/{channel}/{attachment}/{filename}   (file download, no prefix)

Discord quirks reproduced on purpose: JSON responses carry exactly ``Content-Type:
application/json`` (discord.py only decodes that exact value); a second callback for the same
interaction is a 400 (40060); a callback after the ack deadline (3 s) is a 404 (10062); a
follow-up before the ack is a 404 (10015); the first follow-up after a "thinking" defer
(type 5) replaces the loading message and inherits the defer's ephemerality; DMs to a user
with closed DMs are a 403 (50007); posting where the bot lacks permissions is a 403 (50013);
empty messages (50006) and malformed components/embeds (50035) are a 400. An archived
thread (:meth:`FakeDiscordServer.archive_thread`, as Discord archives one after its
``auto_archive_duration`` without activity) refuses edits and deletions of its messages with
400 50083 "Thread is archived"; a new public message of the bot in it (a post or a
follow-up) unarchives it, as Discord does for a thread that is not locked (a locked one
refuses the post, 400 50083); ``PATCH channels/{thread}`` with ``archived: false``
unarchives one that is not locked with Send Messages in Threads (locking or unlocking needs
Manage Threads). Interaction callbacks in an archived thread are not modelled.
"""

from __future__ import annotations

import asyncio
import bisect
import contextvars
import datetime
import json
import logging
import mimetypes
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .gateway import BUSY_PATH, GATEWAY_PATH, PROCESS_HEADER, GatewayHub, guild_shard
from .models import (
    ACTION_ROW,
    BUTTON,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    SELECT_TYPES,
    TEXT_INPUT,
    Ack,
    Attachment,
    Record,
    Rejection,
    RequestLog,
    Snowflakes,
    UnknownRoute,
    Visibility,
    iter_components,
)

log = logging.getLogger("tests.fakediscord.server")

API_PREFIX = "/api/v10"

# Permission bits used by the fake
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS
    | ATTACH_FILES | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS | SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT_PERMISSIONS = (
    ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | SEND_MESSAGES_IN_THREADS
    | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS
)
TEXT_CHANNEL, DM_CHANNEL, PUBLIC_THREAD = 0, 1, 11
THREAD_TYPES = frozenset({10, 11, 12})
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes: what Discord accepts

DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

#: The bot process of the request being answered (its PROCESS_HEADER), for the records.
_PROCESS: contextvars.ContextVar[str | None] = contextvars.ContextVar("fake_process",
                                                                      default=None)


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.datetime.fromtimestamp(ts, tz=datetime.UTC).isoformat()


def _wall() -> float:
    return datetime.datetime.now(tz=datetime.UTC).timestamp()


# --------------------------------------------------------------------------- world objects


def _record_seq(record: Record) -> int:
    return record.seq


@dataclass
class UserInfo:
    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    in_guild: bool = True
    dms_closed: bool = False
    joined_at: float = field(default_factory=_wall)
    guild_ids: set[int] = field(default_factory=set)  # the guilds they are a member of

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass
class RoleInfo:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    color: int = 0
    guild_id: int | None = None  # the guild of the role (its @everyone role has its id)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None,
                       "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass
class GuildInfo:
    """One guild (server) of the fake: its roles and owner; channels and members point at
    it by id."""

    id: int
    name: str
    owner_id: int
    everyone_role: RoleInfo
    bot_role: RoleInfo
    admin_role: RoleInfo

    def shard(self, shard_count: int) -> int:
        """The shard whose gateway connection carries this guild (:func:`guild_shard`)."""
        return guild_shard(self.id, shard_count)


@dataclass
class ChannelInfo:
    id: int
    name: str
    type: int = 0  # 0 guild text, 1 DM, 11 public thread
    guild_id: int | None = None
    position: int = 0
    recipient_id: int | None = None
    topic: str | None = None
    # target id -> (type 0 role / 1 member, allow, deny)
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    last_message_id: int | None = None
    parent_id: int | None = None  # a thread's channel
    owner_id: int | None = None  # who started the thread
    auto_archive_duration: int = 1440
    created_time: float = field(default_factory=_wall)
    archived: bool = False  # a thread archived (no edits in it; a post unarchives it)
    locked: bool = False  # ... and locked (only Manage Threads unarchives it)
    archive_time: float | None = None  # when ``archived`` last changed

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class InteractionInfo:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    name: str
    message_id: int | None = None  # the message a component lives on
    dispatched_at: float = 0.0
    ack: Ack | None = None
    callback_type: int | None = None
    original_message_id: int | None = None
    loading_message_id: int | None = None  # type-5 placeholder not yet filled
    defer_ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    # sent over a gateway websocket (a bot in another process): that connection's shard id
    # and number (:class:`~.gateway.GatewayConnection`); None when dispatched in-process
    shard: int | None = None
    connection: int | None = None
    # the processes (PROCESS_HEADER) that sent this interaction's callback and follow-ups
    responders: list[str | None] = field(default_factory=list)


class DiscordError(Exception):
    """Raised inside handlers; turned into Discord's error JSON."""

    def __init__(self, status: int, code: int, message: str, errors: list[str] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors or []


def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only parses JSON when Content-Type is exactly "application/json": passing
    # ``text=`` would make aiohttp append "; charset=utf-8", so send bytes.
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json"
    )


# --------------------------------------------------------------------------- validation

_NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def notified_users(content: str, allowed: dict[str, Any] | None) -> tuple[int, ...]:
    """The users a new message notifies (Discord: user mentions in ``content`` — never in
    embeds or on an edit — filtered by ``allowed_mentions``: absent, every mention; ``parse``
    with ``"users"``, every user mention; else only the ids in ``users``)."""
    mentioned = [int(m) for m in re.findall(r"<@!?(\d+)>", content or "")]
    if allowed is None or "users" in (allowed.get("parse") or []):
        return tuple(dict.fromkeys(mentioned))
    wanted = {int(u) for u in allowed.get("users") or []}
    return tuple(dict.fromkeys(u for u in mentioned if u in wanted))


# Components V2 (message flag IS_COMPONENTS_V2 = 1 << 15), as Discord documents them: no
# content, embeds, poll or stickers; at most 40 components in all (nested ones included);
# at most 4000 characters across every text display; top level and container children of
# the layout types only; a section holds 1-3 text displays and one accessory (a button or a
# thumbnail); a media gallery 1-10 items; an action row 1-5 buttons or one select.
V2_MAX_COMPONENTS = 40
V2_MAX_TEXT = 4000
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9, 10, 11, 12, 13, 14, 17)
V2_TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR,
                          CONTAINER})
V2_IN_CONTAINER = V2_TOP_LEVEL - {CONTAINER}


def validate_v2(data: dict[str, Any]) -> list[str]:
    """The problems Discord answers 400 (50035) for in a Components V2 message."""
    errors: list[str] = []
    for legacy in ("content", "embeds", "poll", "sticker_ids"):
        if data.get(legacy):
            errors.append(f"{legacy}: cannot be used with the IS_COMPONENTS_V2 flag "
                          "(MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2)")
    components = data.get("components") or []
    every = list(iter_components(components))
    if len(every) > V2_MAX_COMPONENTS:
        errors.append(f"components: Must be {V2_MAX_COMPONENTS} or fewer in total, nested "
                      f"ones included (got {len(every)}).")
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT_DISPLAY)
    if text > V2_MAX_TEXT:
        errors.append(f"components: text displays hold {text} characters; Must be "
                      f"{V2_MAX_TEXT} or fewer in total.")
    for i, comp in enumerate(components):
        if comp.get("type") not in V2_TOP_LEVEL:
            errors.append(f"components.{i}: type {comp.get('type')} can't be at the top level")
    for comp in every:
        ctype, children = comp.get("type"), comp.get("components") or []
        if ctype == CONTAINER:
            errors += [f"container: type {c.get('type')} can't be inside a container"
                       for c in children if c.get("type") not in V2_IN_CONTAINER]
        elif ctype == SECTION:
            if not 1 <= len(children) <= 3 or any(c.get("type") != TEXT_DISPLAY
                                                 for c in children):
                errors.append("section: Must hold 1 to 3 text displays.")
            if (comp.get("accessory") or {}).get("type") not in (BUTTON, THUMBNAIL):
                errors.append("section: accessory must be a button or a thumbnail.")
        elif ctype == MEDIA_GALLERY:
            items = comp.get("items") or []
            if not 1 <= len(items) <= 10:
                errors.append("media gallery: Must hold 1 to 10 items.")
            errors += ["media gallery item: needs media.url" for item in items
                       if not (item.get("media") or {}).get("url")]
        elif ctype == ACTION_ROW:
            buttons = [c for c in children if c.get("type") == BUTTON]
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if not children:
                errors.append("action row is empty")
            if len(buttons) > 5:
                errors.append("action row: Must be 5 or fewer buttons in length.")
            if selects and len(children) > 1:
                errors.append("action row: a select menu must be alone in its row")
    return errors


def validate_message(data: dict[str, Any], *, n_attachments: int, edit: bool,
                     v2: bool = False) -> list[str]:
    """Return the problems Discord would answer 400 for (empty list if fine); ``v2``: the
    message has the IS_COMPONENTS_V2 flag already (an edit)."""
    errors: list[str] = []
    v2 = v2 or bool((data.get("flags") or 0) & FLAG_COMPONENTS_V2)
    if v2:
        return validate_v2(data) + validate_components(data.get("components") or [], v2=True)
    content = data.get("content")
    if content is not None and len(str(content)) > 2000:
        errors.append("content: Must be 2000 or fewer in length.")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        errors.append("embeds: Must be 10 or fewer in length.")
    total = 0
    for i, emb in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            value = emb.get(key) or ""
            total += len(value)
            if len(value) > limit:
                errors.append(f"embeds.{i}.{key}: Must be {limit} or fewer in length.")
        fields = emb.get("fields") or []
        if len(fields) > 25:
            errors.append(f"embeds.{i}.fields: Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            name, value = str(fld.get("name", "")), str(fld.get("value", ""))
            total += len(name) + len(value)
            if not name or len(name) > 256:
                errors.append(f"embeds.{i}.fields.{j}.name: Must be 1-256 in length.")
            if not value or len(value) > 1024:
                errors.append(f"embeds.{i}.fields.{j}.value: Must be 1-1024 in length.")
        footer = (emb.get("footer") or {}).get("text") or ""
        total += len(footer)
        if len(footer) > 2048:
            errors.append(f"embeds.{i}.footer.text: Must be 2048 or fewer in length.")
    if total > 6000:
        errors.append("embeds: Embed size exceeds maximum size of 6000")
    errors += validate_components(data.get("components") or [], v2=bool(
        (data.get("flags") or 0) & FLAG_COMPONENTS_V2))
    return errors


def validate_components(components: list[dict[str, Any]], *, v2: bool) -> list[str]:
    errors: list[str] = []
    if not v2:
        if len(components) > 5:
            errors.append("components: Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != ACTION_ROW:
                errors.append(f"components.{i}: top-level components must be action rows")
                continue
            children = row.get("components") or []
            if not children:
                errors.append(f"components.{i}.components: action row is empty")
            buttons = [c for c in children if c.get("type") == BUTTON]
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if len(buttons) > 5:
                errors.append(f"components.{i}.components: Must be 5 or fewer in length.")
            if selects and len(children) > 1:
                errors.append(f"components.{i}: a select menu must be alone in its row")
    seen: set[str] = set()
    for comp in iter_components(components):
        ctype = comp.get("type")
        custom_id = comp.get("custom_id")
        if ctype in (BUTTON, TEXT_INPUT, *SELECT_TYPES):
            if ctype == BUTTON and comp.get("style") in (5, 6):
                if comp.get("style") == 5 and not comp.get("url"):
                    errors.append("link button without url")
            else:
                if not custom_id:
                    errors.append(f"component of type {ctype} needs a custom_id")
            if custom_id is not None:
                if len(custom_id) > 100:
                    errors.append(f"custom_id {custom_id!r}: Must be 100 or fewer in length.")
                if custom_id in seen:
                    errors.append(f"custom_id {custom_id!r}: Component custom id cannot be "
                                  "duplicated")
                seen.add(custom_id)
        if ctype == BUTTON:
            label = comp.get("label") or ""
            if len(label) > 80:
                errors.append(f"button label {label!r}: Must be 80 or fewer in length.")
            if not label and not comp.get("emoji"):
                errors.append("button needs a label or an emoji")
        if ctype in SELECT_TYPES:
            if len(comp.get("placeholder") or "") > 150:
                errors.append("select placeholder: Must be 150 or fewer in length.")
            if ctype == 3:
                options = comp.get("options") or []
                if not 1 <= len(options) <= 25:
                    errors.append(f"select {custom_id!r} options: Must be between 1 and 25")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    errors.append(f"select {custom_id!r}: option values must be unique")
                for o in options:
                    if not 1 <= len(o.get("label") or "") <= 100:
                        errors.append(f"select option label {o.get('label')!r}: 1-100 chars")
                    if not 1 <= len(o.get("value") or "") <= 100:
                        errors.append(f"select option value {o.get('value')!r}: 1-100 chars")
                    if len(o.get("description") or "") > 100:
                        errors.append("select option description: Must be 100 or fewer")
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not (0 <= lo <= hi <= 25):
                errors.append(f"select {custom_id!r}: invalid min_values/max_values")
    return errors


def validate_command(cmd: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    name = cmd.get("name", "")
    ctype = cmd.get("type", 1)
    if ctype == 1:
        if not _NAME_RE.match(name) or name != name.lower():
            errors.append(f"command name {name!r} is invalid (1-32 lowercase chars)")
        desc = cmd.get("description", "")
        if not 1 <= len(desc) <= 100:
            errors.append(f"command {name!r}: description must be 1-100 chars")
    errors += _validate_options(cmd.get("options") or [], name)
    return errors


def _validate_options(options: list[dict[str, Any]], where: str) -> list[str]:
    errors: list[str] = []
    if len(options) > 25:
        errors.append(f"{where}: Must be 25 or fewer options")
    seen_optional = False
    for opt in options:
        oname = opt.get("name", "")
        path = f"{where} {oname}"
        if not _NAME_RE.match(oname) or oname != oname.lower():
            errors.append(f"{path}: invalid option name")
        if not 1 <= len(opt.get("description", "")) <= 100:
            errors.append(f"{path}: description must be 1-100 chars")
        if opt.get("type") in (1, 2):
            errors += _validate_options(opt.get("options") or [], path)
            continue
        if opt.get("required"):
            if seen_optional:
                errors.append(f"{path}: required options must be placed before optional ones")
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            errors.append(f"{path}: Must be 25 or fewer choices")
        if choices and opt.get("autocomplete"):
            errors.append(f"{path}: autocomplete and choices are mutually exclusive")
    return errors


# --------------------------------------------------------------------------- the server


class FakeDiscordServer:
    """The fake Discord.  Create, then ``await start()``; ``base_url`` is then known."""

    def __init__(
        self,
        *,
        guild_name: str = "Fake Guild",
        bot_name: str = "FakeBot",
        ack_deadline: float = 3.0,
        attachment_size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT,
        guild_id: int | None = None,
    ) -> None:
        self.ids = Snowflakes()
        self.ack_deadline = ack_deadline
        self.attachment_size_limit = attachment_size_limit
        self.loop: asyncio.AbstractEventLoop | None = None
        self.base_url = ""
        self._runner: web.AppRunner | None = None

        # --- world: the default guild (``guild_id``) and any added with add_guild()
        default_id = guild_id or self.ids.next()
        self.app_id = self.ids.next()
        self.bot = UserInfo(id=self.app_id, name=bot_name, bot=True)
        self.owner_id: int = self.ids.next()  # a synthetic app owner unless set_owner() is used
        self.users: dict[int, UserInfo] = {self.bot.id: self.bot}
        self.roles: dict[int, RoleInfo] = {}
        self.channels: dict[int, ChannelInfo] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.guilds: dict[int, GuildInfo] = {}
        default = self.add_guild(guild_name, id=default_id)
        self.guild_id = default.id
        self.guild_name = guild_name
        self.everyone_role = default.everyone_role
        self.bot_role = default.bot_role
        self.admin_role = default.admin_role
        self.guild_owner_id: int = self.owner_id

        # --- state
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        # (guild id, command name) -> members allowed it whatever its default permissions
        # (a server admin's override in Server Settings -> Integrations)
        self.command_grants: dict[tuple[int, str], set[int]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self.interactions: dict[str, InteractionInfo] = {}
        self.messages: dict[int, Record] = {}
        self.attachment_blobs: dict[int, Attachment] = {}

        # --- recordings
        self.seq = 0
        self.records: list[Record] = []
        self.deletions: list[Record] = []
        self.acks: list[Ack] = []
        self.modals: list[dict[str, Any]] = []
        self.unknown_routes: list[UnknownRoute] = []
        self.rejections: list[Rejection] = []
        self.requests: list[RequestLog] = []
        self.server_errors: list[str] = []
        # Embeds pointing at attachment://name without such a file: Discord accepts the
        # message but shows no image, so the harness reports it as a problem.
        self.dangling_attachment_refs: list[str] = []

        # --- activity tracking (for the harness's "wait until the bot is done"), in all and
        # per bot process (the PROCESS_HEADER of the requests; None: no header)
        self.inflight = 0
        self.last_activity = 0.0
        self._inflight_by: dict[str | None, int] = {}
        self._activity_by: dict[str | None, float] = {}
        # process -> (report number, interactions it is handling), see busy_report()
        self._busy_by: dict[str, tuple[int, int]] = {}

        # Called as gateway(event_name, payload) for MESSAGE_CREATE/UPDATE/DELETE etc.
        # (the in-process harness); bots connected over the websocket get them through
        # ``gateway_hub`` instead (tests/fakediscord/gateway.py).
        self.gateway: Callable[[str, dict[str, Any]], None] | None = None
        self.gateway_hub = GatewayHub(self)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.last_activity = self.loop.time()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                   shutdown_timeout=0.5)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()
        self.base_url = f"http://127.0.0.1:{port}"
        log.debug("fake discord listening on %s", self.base_url)

    async def stop(self) -> None:
        await self.gateway_hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The gateway websocket (what ``DiscordWebSocket.DEFAULT_GATEWAY`` must be)."""
        return self.base_url.replace("http", "ws", 1) + GATEWAY_PATH

    def inflight_of(self, process: str | None) -> int:
        """Requests of one bot process (its PROCESS_HEADER) being answered now."""
        return self._inflight_by.get(process, 0)

    def busy_of(self, process: str | None) -> int:
        """How many interactions that process last said it was handling (0 if it never
        said: see :meth:`busy_report`)."""
        return self._busy_by.get(process or "", (0, 0))[1]

    async def busy_report(self, request: web.Request) -> web.Response:
        """``PUT /_test/processes/{name}/busy`` ``{"seq": n, "in_flight": k}``: a bot
        process of a test (``tests/e2e/shard_process.py``; not a Discord route) says it is
        handling ``k`` interactions; the report with the highest ``seq`` counts."""
        name = request.match_info["name"]
        data, _ = await self._read_body(request)
        seq, count = int(data["seq"]), int(data["in_flight"])
        if seq > self._busy_by.get(name, (0, 0))[0]:
            self._busy_by[name] = (seq, count)
        return web.Response(status=204)

    def last_activity_of(self, process: str | None) -> float:
        """When (loop time) a request of that process last began or ended."""
        return self._activity_by.get(process, 0.0)

    def now(self) -> float:
        assert self.loop is not None
        return self.loop.time()

    # ------------------------------------------------------------------ world setup API
    def add_guild(self, name: str, *, id: int | None = None) -> GuildInfo:
        """A guild with its @everyone, bot and Admin roles; the bot is a member."""
        gid = id or self.ids.next()
        if gid in self.guilds:
            raise ValueError(f"guild {gid} exists already")
        guild = GuildInfo(
            id=gid, name=name, owner_id=self.owner_id,
            everyone_role=RoleInfo(gid, "@everyone", DEFAULT_EVERYONE_PERMISSIONS,
                                   guild_id=gid),
            bot_role=RoleInfo(self.ids.next(), self.bot.name, DEFAULT_BOT_PERMISSIONS,
                              position=2, managed=True, guild_id=gid),
            admin_role=RoleInfo(self.ids.next(), "Admin", ADMINISTRATOR, position=1,
                                guild_id=gid))
        for role in (guild.everyone_role, guild.bot_role, guild.admin_role):
            self.roles[role.id] = role
        self.guilds[gid] = guild
        self.bot.role_ids.append(guild.bot_role.id)
        self.bot.guild_ids.add(gid)
        return guild

    def guild_of(self, guild_id: int | None) -> GuildInfo:
        """The guild with that id (the default guild for None)."""
        return self.guilds[self.guild_id if guild_id is None else guild_id]

    def is_member(self, user_id: int, guild_id: int | None) -> bool:
        user = self.users.get(user_id)
        gid = self.guild_id if guild_id is None else guild_id
        return user is not None and user.in_guild and gid in user.guild_ids

    def add_user(self, name: str, *, id: int | None = None, global_name: str | None = None,
                 admin: bool = False, bot: bool = False, locale: str = "en-US",
                 in_guild: bool = True, guild_id: int | None = None) -> UserInfo:
        """A member of the guild ``guild_id`` (default: the default guild)."""
        guild = self.guild_of(guild_id)
        user = UserInfo(id=id or self.ids.next(), name=name, global_name=global_name,
                        bot=bot, locale=locale, in_guild=in_guild, guild_ids={guild.id})
        if admin:
            user.role_ids.append(guild.admin_role.id)
        self.users[user.id] = user
        return user

    def add_channel(self, name: str, *, bot_can_send: bool = True,
                    guild_id: int | None = None) -> ChannelInfo:
        gid = self.guild_of(guild_id).id
        chan = ChannelInfo(id=self.ids.next(), name=name, guild_id=gid,
                           position=len([c for c in self.channels.values()
                                         if not c.is_dm and c.guild_id == gid]))
        self.channels[chan.id] = chan
        self.set_bot_can_send(chan.id, bot_can_send)
        return chan

    def set_bot_can_create_threads(self, channel_id: int, allowed: bool) -> None:
        """Deny/allow the bot Create Public Threads in a channel (member overwrite, kept
        with any other denial there)."""
        chan = self.channels[channel_id]
        t, allow, deny = chan.overwrites.get(self.bot.id, (1, 0, 0))
        deny = deny & ~CREATE_PUBLIC_THREADS if allowed else deny | CREATE_PUBLIC_THREADS
        if allow or deny:
            chan.overwrites[self.bot.id] = (t, allow, deny)
        else:
            chan.overwrites.pop(self.bot.id, None)

    def archive_thread(self, thread_id: int, *, archived: bool = True,
                       locked: bool = False) -> None:
        """Archive (or unarchive) a thread, as Discord does after its auto-archive duration
        without activity; ``locked``: archived and locked (a moderator's doing). Sends
        THREAD_UPDATE."""
        chan = self.channels[thread_id]
        assert chan.is_thread, "only a thread can be archived"
        chan.archived, chan.locked = archived, locked and archived
        chan.archive_time = _wall()
        self._emit("THREAD_UPDATE", self.channel_payload(chan))

    @staticmethod
    def _refuse_if_archived(chan: ChannelInfo) -> None:
        """Discord: a message of an archived thread is neither edited nor deleted."""
        if chan.is_thread and chan.archived:
            raise DiscordError(400, 50083, "Thread is archived")

    def _unarchive_to_post(self, chan: ChannelInfo) -> None:
        """Discord: a new message in an archived thread unarchives it, unless it is locked
        (then the post is refused)."""
        if not (chan.is_thread and chan.archived):
            return
        if chan.locked:
            raise DiscordError(400, 50083, "Thread is archived")
        self.archive_thread(chan.id, archived=False)

    def threads(self, parent_id: int | None = None) -> list[ChannelInfo]:
        """The threads (of one channel, if given), oldest first."""
        return [c for c in self.channels.values()
                if c.is_thread and (parent_id is None or c.parent_id == parent_id)]

    def set_bot_can_send(self, channel_id: int, allowed: bool) -> None:
        """Deny/allow the bot SEND_MESSAGES in a channel (member overwrite)."""
        chan = self.channels[channel_id]
        deny = SEND_MESSAGES | ATTACH_FILES | EMBED_LINKS
        if allowed:
            chan.overwrites.pop(self.bot.id, None)
        else:
            chan.overwrites[self.bot.id] = (1, 0, deny)

    def dm_channel_for(self, user_id: int) -> ChannelInfo:
        cid = self.dm_channels.get(user_id)
        if cid is None:
            chan = ChannelInfo(id=self.ids.next(), name="", type=1, recipient_id=user_id)
            self.channels[chan.id] = chan
            self.dm_channels[user_id] = chan.id
            return chan
        return self.channels[cid]

    def permissions(self, user_id: int, channel_id: int | None) -> int:
        """Computed permissions of a member in a channel (guild owner/admin get all), in the
        channel's guild (the default guild without a channel or in a DM)."""
        user = self.users[user_id]
        chan = self.channels.get(channel_id) if channel_id else None
        guild = self.guild_of(chan.guild_id if chan is not None and chan.guild_id else None)
        owner = self.guild_owner_id if guild.id == self.guild_id else guild.owner_id
        if user_id == owner:
            return ALL_PERMISSIONS
        perms = guild.everyone_role.permissions
        role_ids = [r for r in user.role_ids if self.roles[r].guild_id == guild.id]
        for rid in role_ids:
            perms |= self.roles[rid].permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        if chan is not None and chan.is_thread and chan.parent_id is not None:
            chan = self.channels.get(chan.parent_id)  # a thread has its parent's permissions
        if chan is None or chan.is_dm:
            return perms
        ow = chan.overwrites
        if guild.id in ow:
            _, allow, deny = ow[guild.id]
            perms = (perms & ~deny) | allow
        allow = deny = 0
        for rid in role_ids:
            if rid in ow:
                allow |= ow[rid][1]
                deny |= ow[rid][2]
        perms = (perms & ~deny) | allow
        if user_id in ow:
            _, allow, deny = ow[user_id]
            perms = (perms & ~deny) | allow
        return perms

    # ------------------------------------------------------------------ payload builders
    def member_payload(self, user_id: int, *, with_user: bool = True,
                       channel_id: int | None = None,
                       guild_id: int | None = None) -> dict[str, Any]:
        """The member in ``guild_id`` (default: the channel's guild, else the default
        guild): only that guild's roles."""
        user = self.users[user_id]
        if guild_id is None and channel_id is not None and channel_id in self.channels:
            guild_id = self.channels[channel_id].guild_id
        gid = self.guild_of(guild_id).id
        data: dict[str, Any] = {
            "roles": [str(r) for r in user.role_ids if self.roles[r].guild_id == gid],
            "joined_at": _iso(user.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "nick": user.nick,
            "avatar": None,
            "banner": None,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        if channel_id is not None:
            data["permissions"] = str(self.permissions(user_id, channel_id))
        return data

    def channel_payload(self, chan: ChannelInfo, *, for_user: int | None = None) -> dict[str, Any]:
        if chan.is_dm:
            assert chan.recipient_id is not None
            return {
                "id": str(chan.id),
                "type": 1,
                "last_message_id": str(chan.last_message_id) if chan.last_message_id else None,
                "recipients": [self.users[chan.recipient_id].payload()],
                "flags": 0,
            }
        data = {
            "id": str(chan.id),
            "type": chan.type,
            "guild_id": str(chan.guild_id),
            "name": chan.name,
            "position": chan.position,
            "permission_overwrites": [
                {"id": str(tid), "type": t, "allow": str(a), "deny": str(d)}
                for tid, (t, a, d) in chan.overwrites.items()
            ],
            "nsfw": False,
            "parent_id": str(chan.parent_id) if chan.parent_id else None,
            "topic": chan.topic,
            "last_message_id": str(chan.last_message_id) if chan.last_message_id else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if chan.is_thread:
            del data["permission_overwrites"], data["position"], data["topic"]
            data.update({
                "owner_id": str(chan.owner_id),
                "member_count": 1,
                "message_count": sum(1 for m in self.messages.values()
                                     if m.channel_id == chan.id and not m.deleted),
                "total_message_sent": 0,
                "thread_metadata": {"archived": chan.archived, "locked": chan.locked,
                                    "auto_archive_duration": chan.auto_archive_duration,
                                    "archive_timestamp": _iso(chan.archive_time
                                                              or chan.created_time),
                                    "create_timestamp": _iso(chan.created_time)},
            })
        if for_user is not None:
            data["permissions"] = str(self.permissions(for_user, chan.id))
        return data

    def guild_payload(self, *, full: bool = True, all_members: bool = True,
                      guild_id: int | None = None) -> dict[str, Any]:
        """GUILD_CREATE (``full``) or REST guild payload of ``guild_id`` (default: the
        default guild).  Without the privileged members intent Discord only sends the bot's
        own member, so pass ``all_members=False`` then (``member_count`` stays the real
        count)."""
        guild = self.guild_of(guild_id)
        gid = guild.id
        members = [u for u in self.users.values() if self.is_member(u.id, gid)]
        sent = members if all_members else [self.bot]
        owner = self.guild_owner_id if gid == self.guild_id else guild.owner_id
        data: dict[str, Any] = {
            "id": str(gid),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "owner_id": str(owner),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values() if r.guild_id == gid],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
        }
        if full:
            data.update({
                "unavailable": False,
                "large": False,
                "joined_at": _iso(self.bot.joined_at),
                "member_count": len(members),
                "members": [self.member_payload(u.id, guild_id=gid) for u in sent],
                "channels": [self.channel_payload(c) for c in self.channels.values()
                             if not c.is_dm and c.guild_id == gid],
                "threads": [],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            })
        return data

    def application_payload(self) -> dict[str, Any]:
        owner = self.users.get(self.owner_id) or UserInfo(id=self.owner_id, name="app-owner")
        return {
            "id": str(self.app_id),
            "name": self.bot.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": owner.payload(),
            "team": None,
            "flags": 0,
            "bot": self.bot.payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "approximate_guild_count": 1,
        }

    def ready_payload(self, *, shard: tuple[int, int] = (0, 1),
                      guild_ids: list[int] | None = None,
                      session_id: str = "fake-session") -> dict[str, Any]:
        """READY for one gateway connection: ``guild_ids`` (default: the default guild) as
        unavailable guilds, to be followed by their GUILD_CREATE."""
        guild_ids = [self.guild_id] if guild_ids is None else guild_ids
        return {
            "v": 10,
            "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False,
                     "locale": "en-US"},
            "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
            "session_id": session_id,
            "resume_gateway_url": self.gateway_url,
            "shard": list(shard),
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }

    def message_payload(self, msg: Record) -> dict[str, Any]:
        chan = self.channels.get(msg.channel_id)
        author = self.users.get(msg.author_id, self.bot)
        mention_ids = [int(m) for m in re.findall(r"<@!?(\d+)>", msg.content or "")]
        data: dict[str, Any] = {
            "id": str(msg.message_id),
            "channel_id": str(msg.channel_id),
            "type": msg.message_type,
            "content": msg.content,
            "author": author.payload(),
            "attachments": [a.to_payload() for a in msg.attachments],
            "embeds": msg.embeds,
            "components": msg.components,
            "flags": msg.flags,
            "mentions": [self.users[m].payload() for m in mention_ids if m in self.users],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": msg.tts,
            "timestamp": _iso(msg.created_time),
            "edited_timestamp": _iso(msg.edited_time),
            "reactions": [],
        }
        if chan is not None and not chan.is_dm:
            data["guild_id"] = str(chan.guild_id)
        if msg.thread_id is not None and msg.thread_id in self.channels:
            data["thread"] = self.channel_payload(self.channels[msg.thread_id])
        if msg.webhook_id:
            data["webhook_id"] = str(msg.webhook_id)
            data["application_id"] = str(self.app_id)
        if msg.interaction_metadata:
            data["interaction_metadata"] = msg.interaction_metadata
        if msg.reference_id:
            ref = self.messages.get(msg.reference_id)
            data["message_reference"] = {
                "type": 0,
                "message_id": str(msg.reference_id),
                "channel_id": str(ref.channel_id if ref else msg.channel_id),
            }
        return data

    def command_payloads(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.get(guild_id, [])

    # ------------------------------------------------------------------ interactions
    def new_interaction(self, *, type: int, user_id: int, channel_id: int, name: str,
                        message_id: int | None = None) -> InteractionInfo:
        chan = self.channels[channel_id]
        iid = self.ids.next()
        info = InteractionInfo(
            id=iid,
            token=f"itoken-{iid}",
            type=type,
            user_id=user_id,
            channel_id=channel_id,
            guild_id=None if chan.is_dm else chan.guild_id,
            name=name,
            message_id=message_id,
        )
        self.interactions[info.token] = info
        return info

    # ------------------------------------------------------------------ messages
    def records_after(self, seq: int) -> list[Record]:
        """The recorded message events with a sequence number above ``seq``, in order
        (``records`` is in sequence order: a binary search, not a scan from the start)."""
        return self.records[bisect.bisect_right(self.records, seq, key=_record_seq):]

    def _next_seq(self) -> int:
        self.seq += 1
        self.last_activity = self.now()
        return self.seq

    def _build_attachments(self, data: dict[str, Any], files: dict[int, tuple[str, bytes, str]],
                           existing: list[Attachment] | None, channel_id: int) -> list[Attachment]:
        """Resolve ``attachments`` metadata + uploaded ``files[n]`` into Attachment objects."""
        result: list[Attachment] = []
        used: set[int] = set()
        by_id = {a.id: a for a in (existing or [])}
        meta = data.get("attachments")
        for entry in meta or []:
            raw_id = int(entry.get("id"))
            if raw_id in by_id:  # keep an existing attachment
                result.append(by_id[raw_id])
            elif raw_id in files:
                result.append(self._new_attachment(files[raw_id], entry, channel_id))
                used.add(raw_id)
            else:
                raise DiscordError(400, 50035, "Invalid Form Body",
                                   [f"attachments: unknown attachment id {raw_id}"])
        if meta is None and existing:
            result = list(existing)  # edits without `attachments` keep the old files
        for idx in sorted(files):
            if idx not in used:
                result.append(self._new_attachment(files[idx], {}, channel_id))
        return result

    def _new_attachment(self, file: tuple[str, bytes, str], meta: dict[str, Any],
                        channel_id: int) -> Attachment:
        filename, data, ctype = file
        filename = meta.get("filename") or filename
        if not ctype or ctype == "application/octet-stream":
            ctype = mimetypes.guess_type(filename)[0] or ctype
        aid = self.ids.next()
        att = Attachment(
            id=aid,
            filename=filename,
            data=data,
            content_type=ctype,
            description=meta.get("description"),
            url=f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
        )
        self.attachment_blobs[aid] = att
        return att

    def _check_message(self, data: dict[str, Any], files: dict[int, Any], *,
                       edit: bool, existing: Record | None = None) -> None:
        total = sum(len(f[1]) for f in files.values())
        if total > self.attachment_size_limit:
            raise DiscordError(413, 40005, "Request entity too large")
        was_v2 = existing is not None and bool(existing.flags & FLAG_COMPONENTS_V2)
        if was_v2 and data.get("flags") is not None and not (
                int(data["flags"]) & FLAG_COMPONENTS_V2):
            raise DiscordError(400, 50035, "Invalid Form Body",
                               ["flags: the IS_COMPONENTS_V2 flag can't be removed"])
        errors = validate_message(data, n_attachments=len(files), edit=edit, v2=was_v2)
        if errors:
            raise DiscordError(400, 50035, "Invalid Form Body", errors)
        if not edit:
            has_content = bool(data.get("content")) or bool(data.get("embeds")) or bool(
                data.get("components")) or bool(files) or bool(data.get("poll")) or bool(
                data.get("sticker_ids"))
            if not has_content:
                raise DiscordError(400, 50006, "Cannot send an empty message")

    def create_message(
        self,
        *,
        channel_id: int,
        visibility: Visibility,
        user_id: int | None,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes, str]],
        source: str,
        interaction: InteractionInfo | None = None,
        loading: bool = False,
        record: bool = True,
    ) -> Record:
        chan = self.channels[channel_id]
        flags = int(data.get("flags") or 0) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2)
        if visibility == "ephemeral":
            flags |= FLAG_EPHEMERAL
        if loading:
            flags |= FLAG_LOADING
        mid = self.ids.next()
        wall = _wall()
        msg = Record(
            seq=self._next_seq(),
            message_id=mid,
            channel_id=channel_id,
            visibility=visibility,
            user_id=user_id,
            content=str(data.get("content") or ""),
            embeds=list(data.get("embeds") or []),
            components=list(data.get("components") or []),
            attachments=self._build_attachments(data, files, None, channel_id),
            flags=flags,
            edit=False,
            interaction_id=interaction.id if interaction else None,
            origin_interaction_id=interaction.id if interaction else None,
            source=source,
            author_id=self.bot.id,
            guild_id=chan.guild_id,
            webhook_id=self.app_id if interaction else None,
            loading=loading,
            time=self.now(),
            created_time=wall,
            tts=bool(data.get("tts")),
            allowed_mentions=data.get("allowed_mentions"),
            process=_PROCESS.get(),
        )
        msg.pinged = notified_users(msg.content, data.get("allowed_mentions"))
        ref = data.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            msg.reference_id = int(ref["message_id"])
            msg.message_type = 19
        if interaction is not None:
            msg.message_type = 20 if interaction.type == 2 else 0
            msg.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": self.users[interaction.user_id].payload(),
                "authorizing_integration_owners": (
                    {"0": str(interaction.guild_id)} if interaction.guild_id else {}),
                **({"name": interaction.name} if interaction.type == 2 else {}),
                **({"interacted_message_id": str(interaction.message_id)}
                   if interaction.message_id else {}),
            }
        self.messages[mid] = msg
        chan.last_message_id = mid
        if record:
            self.records.append(msg.snapshot())
            self._check_attachment_refs(msg)
            if visibility != "ephemeral":
                self._gateway("MESSAGE_CREATE", msg)
        return msg

    def edit_message(
        self,
        msg: Record,
        data: dict[str, Any],
        files: dict[int, tuple[str, bytes, str]],
        *,
        source: str,
        interaction_id: int | None,
        fill: bool = False,
    ) -> Record:
        """Apply a PATCH.  ``fill`` marks the first content of a deferred (loading) message,
        which is recorded as a creation (``edit=False``) rather than an edit."""
        content = str(data["content"] or "") if "content" in data else msg.content
        embeds = list(data["embeds"] or []) if "embeds" in data else msg.embeds
        components = list(data["components"] or []) if "components" in data else msg.components
        attachments = msg.attachments
        if "attachments" in data or files:
            attachments = self._build_attachments(data, files, msg.attachments, msg.channel_id)
        if not (content or embeds or components or attachments):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        msg.content, msg.embeds, msg.components, msg.attachments = (
            content, embeds, components, attachments)
        msg.allowed_mentions = data.get("allowed_mentions")
        if data.get("flags") is not None:
            keep = msg.flags & FLAG_EPHEMERAL
            msg.flags = keep | (int(data["flags"]) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2))
        was_loading = msg.loading
        msg.loading = False
        msg.flags &= ~FLAG_LOADING
        fill = fill or was_loading
        if fill:  # the first content of a deferred message notifies, as a new message does
            msg.pinged = notified_users(msg.content, data.get("allowed_mentions"))
        now = self.now()
        if not fill:
            msg.edit = True
            msg.edited_time = _wall()
        snap = msg.snapshot(seq=self._next_seq(), edit=not fill, interaction_id=interaction_id,
                            source=source, time=now, process=_PROCESS.get())
        self.records.append(snap)
        self._check_attachment_refs(msg)
        if msg.visibility != "ephemeral":
            self._gateway("MESSAGE_CREATE" if fill else "MESSAGE_UPDATE", msg)
        return msg

    def _check_attachment_refs(self, msg: Record) -> None:
        names = {a.filename for a in msg.attachments}
        for emb in msg.embeds:
            for key in ("image", "thumbnail", "footer", "author"):
                part = emb.get(key) or {}
                url = part.get("url") or part.get("icon_url") or ""
                if url.startswith("attachment://") and url[len("attachment://"):] not in names:
                    self.dangling_attachment_refs.append(
                        f"message {msg.message_id}: embed {key} {url} but files are "
                        f"{sorted(names)}")

    def delete_message(self, msg: Record) -> None:
        msg.deleted = True
        self.deletions.append(msg.snapshot(time=self.now()))
        self.last_activity = self.now()
        if msg.visibility != "ephemeral" and self.gateway_open:
            payload = {"id": str(msg.message_id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                payload["guild_id"] = str(msg.guild_id)
            self._emit("MESSAGE_DELETE", payload)

    @property
    def gateway_open(self) -> bool:
        """Whether a client hears gateway events (in-process sink or a websocket)."""
        return self.gateway is not None or bool(self.gateway_hub.connections)

    def _gateway(self, event: str, msg: Record) -> None:
        if not self.gateway_open:
            return
        payload = self.message_payload(msg)
        if msg.guild_id:
            payload["member"] = self.member_payload(msg.author_id, with_user=False,
                                                    guild_id=msg.guild_id)
        self._emit(event, payload)

    def _emit(self, event: str, payload: dict[str, Any]) -> None:
        """Send a gateway event: to the websocket connection of the guild's shard (see
        :class:`~.gateway.GatewayHub`), and to the in-process client if there is one."""
        if self.gateway_hub.connections:
            self.gateway_hub.dispatch(event, payload)
        sink = self.gateway
        if sink is None or self.loop is None:
            return

        def deliver() -> None:
            try:
                sink(event, payload)
            except Exception:  # pragma: no cover - a parser bug in the client
                log.exception("fake gateway: delivering %s failed", event)

        # Like the real gateway, events arrive "soon" and independently of the HTTP reply.
        self.loop.call_soon(deliver)

    # ------------------------------------------------------------------ HTTP plumbing
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == GATEWAY_PATH:  # a connection for good, not a request in flight
            return await handler(request)
        process = request.headers.get(PROCESS_HEADER)
        _PROCESS.set(process)
        self.inflight += 1
        self._inflight_by[process] = self._inflight_by.get(process, 0) + 1
        start = self.now()
        self.last_activity = self._activity_by[process] = start
        status = 500
        try:
            if request.path.startswith(API_PREFIX) and self._needs_auth(request.path):
                auth = request.headers.get("Authorization", "")
                if not auth.startswith("Bot ") or len(auth) <= 4:
                    raise DiscordError(401, 0, "401: Unauthorized")
            resp = await handler(request)
            status = resp.status
            return resp
        except DiscordError as err:
            status = err.status
            self.rejections.append(_rejection(request, err))
            log.info("fake discord %s %s -> %s %s %s", request.method, request.path, err.status,
                     err.code, err.message)
            body: dict[str, Any] = {"message": err.message, "code": err.code}
            if err.errors:
                body["errors"] = {"_errors": [{"code": "INVALID", "message": e}
                                              for e in err.errors]}
            return _json_response(body, status=err.status)
        except web.HTTPException:
            raise
        except Exception as exc:
            log.exception("fake discord crashed on %s %s", request.method, request.path)
            self.server_errors.append(f"{request.method} {request.path}: {exc!r}")
            return _json_response({"message": f"fake server error: {exc!r}", "code": 0}, 500)
        finally:
            self.inflight -= 1
            self._inflight_by[process] -= 1
            end = self.now()
            self.last_activity = self._activity_by[process] = end
            self.requests.append(RequestLog(request.method, request.path, status, end - start,
                                            request.headers.get(PROCESS_HEADER)))

    @staticmethod
    def _needs_auth(path: str) -> bool:
        rest = path[len(API_PREFIX):]
        return not (rest.startswith("/webhooks/") or rest.startswith("/interactions/"))

    def _add_routes(self, app: web.Application) -> None:
        p = API_PREFIX
        r = app.router
        r.add_get(p + "/users/@me", self.get_me)
        r.add_post(p + "/users/@me/channels", self.create_dm)
        r.add_get(p + "/users/{user_id}", self.get_user)
        r.add_get(p + "/oauth2/applications/@me", self.get_application)
        r.add_get(p + "/applications/@me", self.get_application)
        for base in ("/applications/{app_id}/commands",
                     "/applications/{app_id}/guilds/{guild_id}/commands"):
            r.add_get(p + base, self.list_commands)
            r.add_put(p + base, self.put_commands)
            r.add_post(p + base, self.upsert_command)
            r.add_get(p + base + "/permissions", self.command_permissions)
            r.add_get(p + base + "/{command_id}", self.get_command)
            r.add_patch(p + base + "/{command_id}", self.patch_command)
            r.add_delete(p + base + "/{command_id}", self.delete_command)
        r.add_post(p + "/interactions/{interaction_id}/{token}/callback", self.callback)
        r.add_post(p + "/webhooks/{app_id}/{token}", self.followup)
        r.add_get(p + "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_get)
        r.add_patch(p + "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_edit)
        r.add_delete(p + "/webhooks/{app_id}/{token}/messages/{message_id}",
                     self.webhook_delete)
        r.add_get(p + "/channels/{channel_id}", self.get_channel)
        r.add_patch(p + "/channels/{channel_id}", self.edit_channel)
        r.add_get(p + "/channels/{channel_id}/messages", self.channel_history)
        r.add_post(p + "/channels/{channel_id}/messages", self.channel_post)
        r.add_get(p + "/channels/{channel_id}/messages/{message_id}", self.channel_get_message)
        r.add_patch(p + "/channels/{channel_id}/messages/{message_id}", self.channel_edit)
        r.add_delete(p + "/channels/{channel_id}/messages/{message_id}", self.channel_delete)
        r.add_post(p + "/channels/{channel_id}/typing", self.typing)
        r.add_post(p + "/channels/{channel_id}/messages/{message_id}/threads",
                   self.start_thread)
        r.add_get(p + "/guilds/{guild_id}", self.get_guild)
        r.add_get(p + "/guilds/{guild_id}/channels", self.get_guild_channels)
        r.add_get(p + "/guilds/{guild_id}/roles", self.get_guild_roles)
        r.add_get(p + "/guilds/{guild_id}/members/{user_id}", self.get_member)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.download)
        r.add_get(p + "/gateway", self.gateway_hub.get_gateway)
        r.add_get(p + "/gateway/bot", self.gateway_hub.get_gateway_bot)
        r.add_get(GATEWAY_PATH, self.gateway_hub.websocket)
        r.add_put(BUSY_PATH, self.busy_report)
        r.add_route("*", "/{tail:.*}", self.unknown)

    async def unknown(self, request: web.Request) -> web.Response:
        body = ""
        if request.can_read_body:
            raw = await request.read()
            body = raw[:500].decode("utf-8", "replace")
        self.unknown_routes.append(
            UnknownRoute(request.method, request.path, request.query_string, body))
        log.warning("fake discord: unknown route %s %s", request.method, request.path)
        return _json_response(
            {"message": f"404: Not Found (fake discord has no route {request.method} "
                        f"{request.path})", "code": 0}, 404)

    async def _read_body(
        self, request: web.Request
    ) -> tuple[dict[str, Any], dict[int, tuple[str, bytes, str]]]:
        """JSON body, or multipart ``payload_json`` + ``files[n]``."""
        files: dict[int, tuple[str, bytes, str]] = {}
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            async for part in reader:
                if part is None:  # pragma: no cover
                    break
                name = part.name or ""  # type: ignore[union-attr]
                raw = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(raw.decode())
                    continue
                m = re.fullmatch(r"files\[(\d+)\]", name) or re.fullmatch(r"file(\d*)", name)
                if m is None:
                    raise DiscordError(400, 50035, "Invalid Form Body",
                                       [f"unexpected multipart field {name!r}"])
                idx = int(m.group(1) or 0)
                ctype = part.headers.get("Content-Type", "")  # type: ignore[union-attr]
                files[idx] = (part.filename or f"file{idx}", bytes(raw), ctype)  # type: ignore
            return payload, files
        if not request.can_read_body:
            return {}, files
        raw = await request.read()
        if not raw:
            return {}, files
        try:
            return json.loads(raw), files
        except ValueError as exc:
            raise DiscordError(400, 50109, "The request body contains invalid JSON.") from exc

    # ------------------------------------------------------------------ users / app
    async def get_me(self, request: web.Request) -> web.Response:
        return _json_response({**self.bot.payload(), "verified": True, "mfa_enabled": False,
                               "locale": "en-US", "email": None})

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(_int(request.match_info["user_id"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return _json_response(user.payload())

    async def get_application(self, request: web.Request) -> web.Response:
        return _json_response(self.application_payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        data, _ = await self._read_body(request)
        uid = _int(data.get("recipient_id"))
        if uid not in self.users or uid == self.bot.id:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        chan = self.dm_channel_for(uid)
        return _json_response(self.channel_payload(chan))

    # ------------------------------------------------------------------ commands
    def _check_app(self, request: web.Request) -> None:
        if _int(request.match_info.get("app_id")) != self.app_id:
            raise DiscordError(403, 50001, "Missing Access")

    def _command_list(self, request: web.Request) -> tuple[int | None, list[dict[str, Any]]]:
        self._check_app(request)
        gid_raw = request.match_info.get("guild_id")
        if gid_raw is None:
            return None, self.global_commands
        gid = _int(gid_raw)
        if gid not in self.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return gid, self.guild_commands.setdefault(gid, [])

    def _store_command(self, gid: int | None, cmd: dict[str, Any]) -> dict[str, Any]:
        errors = validate_command(cmd)
        if errors:
            raise DiscordError(400, 50035, "Invalid Form Body", errors)
        ctype = int(cmd.get("type", 1))
        key = (gid, ctype, cmd["name"])
        cid = self._command_ids.setdefault(key, self.ids.next())
        stored = {
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "description_localizations": None,
            "name_localizations": None,
            **cmd,
            "id": str(cid),
            "application_id": str(self.app_id),
            "type": ctype,
            "version": str(self.ids.next()),
        }
        if gid is not None:
            stored["guild_id"] = str(gid)
        return stored

    async def list_commands(self, request: web.Request) -> web.Response:
        _, cmds = self._command_list(request)
        return _json_response(cmds)

    async def put_commands(self, request: web.Request) -> web.Response:
        gid, cmds = self._command_list(request)
        data, _ = await self._read_body(request)
        if not isinstance(data, list):
            raise DiscordError(400, 50035, "Invalid Form Body", ["expected a list"])
        names = [(c.get("type", 1), c.get("name")) for c in data]
        if len(set(names)) != len(names):
            raise DiscordError(400, 50035, "Invalid Form Body",
                               ["Application command names must be unique"])
        if sum(1 for c in data if c.get("type", 1) == 1) > 100:
            raise DiscordError(400, 30032, "Maximum number of application commands reached")
        new = [self._store_command(gid, c) for c in data]
        cmds[:] = new
        self.last_activity = self.now()
        return _json_response(new)

    async def upsert_command(self, request: web.Request) -> web.Response:
        gid, cmds = self._command_list(request)
        data, _ = await self._read_body(request)
        stored = self._store_command(gid, data)
        cmds[:] = [c for c in cmds if c["id"] != stored["id"]] + [stored]
        return _json_response(stored, 201)

    def _find_command(self, request: web.Request) -> tuple[list[dict[str, Any]], dict]:
        _, cmds = self._command_list(request)
        cid = request.match_info["command_id"]
        for c in cmds:
            if c["id"] == cid:
                return cmds, c
        raise DiscordError(404, 10063, "Unknown application command")

    async def get_command(self, request: web.Request) -> web.Response:
        _, cmd = self._find_command(request)
        return _json_response(cmd)

    async def patch_command(self, request: web.Request) -> web.Response:
        cmds, cmd = self._find_command(request)
        data, _ = await self._read_body(request)
        gid = int(cmd["guild_id"]) if "guild_id" in cmd else None
        stored = self._store_command(gid, {**cmd, **data})
        cmds[cmds.index(cmd)] = stored
        return _json_response(stored)

    async def delete_command(self, request: web.Request) -> web.Response:
        cmds, cmd = self._find_command(request)
        cmds.remove(cmd)
        return web.Response(status=204)

    async def command_permissions(self, request: web.Request) -> web.Response:
        self._command_list(request)
        return _json_response([])

    # ------------------------------------------------------------------ interactions
    def _interaction(self, token: str) -> InteractionInfo | None:
        return self.interactions.get(token)

    async def callback(self, request: web.Request) -> web.Response:
        arrived = self.now()
        info = self._interaction(request.match_info["token"])
        if info is None or str(info.id) != request.match_info["interaction_id"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        info.responders.append(request.headers.get(PROCESS_HEADER))
        body, files = await self._read_body(request)
        ctype = int(body.get("type", 0))
        data = body.get("data") or {}
        if info.callback_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        allowed = {
            1: {1},
            2: {4, 5, 9},
            3: {4, 5, 6, 7, 9},
            4: {8},
            5: {4, 5, 6, 7},
        }[info.type]
        if ctype not in allowed:
            raise DiscordError(400, 50035, "Invalid Form Body",
                               [f"callback type {ctype} is invalid for interaction type "
                                f"{info.type}"])
        latency = arrived - info.dispatched_at
        ack = Ack(interaction_id=info.id, interaction_type=info.type, callback_type=ctype,
                  latency=latency, user_id=info.user_id, name=info.name)
        if latency > self.ack_deadline:
            ack.late = True
            self.acks.append(ack)
            info.ack = ack
            info.acked.set()
            raise DiscordError(404, 10062, "Unknown interaction")

        chan = self.channels[info.channel_id]
        flags = int(data.get("flags") or 0)
        resource: dict[str, Any] = {"type": ctype}
        response_message: Record | None = None
        if ctype in (4, 7):
            clicked = self.messages.get(info.message_id or 0) if ctype == 7 else None
            self._check_message(data, files, edit=(ctype == 7), existing=clicked)
        if ctype == 4:
            visibility, uid = self._visibility(chan, flags, info.user_id)
            response_message = self.create_message(
                channel_id=chan.id, visibility=visibility, user_id=uid, data=data, files=files,
                source="interaction_response", interaction=info)
            info.original_message_id = response_message.message_id
            ack.ephemeral = visibility == "ephemeral"
        elif ctype == 5:
            visibility, uid = self._visibility(chan, flags, info.user_id)
            response_message = self.create_message(
                channel_id=chan.id, visibility=visibility, user_id=uid, data={}, files={},
                source="interaction_response", interaction=info, loading=True, record=False)
            info.original_message_id = response_message.message_id
            info.loading_message_id = response_message.message_id
            info.defer_ephemeral = visibility == "ephemeral"
            ack.ephemeral = info.defer_ephemeral
        elif ctype in (6, 7):
            target = self.messages.get(info.message_id or 0)
            if target is None or target.deleted:
                raise DiscordError(404, 10008, "Unknown Message")
            info.original_message_id = target.message_id
            if ctype == 7:
                response_message = self.edit_message(target, data, files,
                                                     source="component_update",
                                                     interaction_id=info.id)
            ack.ephemeral = target.visibility == "ephemeral"
        elif ctype == 8:
            choices = data.get("choices") or []
            errors = []
            if len(choices) > 25:
                errors.append("choices: Must be 25 or fewer in length.")
            for ch in choices:
                if not 1 <= len(str(ch.get("name", ""))) <= 100:
                    errors.append(f"choice name {ch.get('name')!r}: Must be 1-100 in length.")
                if isinstance(ch.get("value"), str) and len(ch["value"]) > 100:
                    errors.append(f"choice value {ch.get('value')!r}: Must be <=100 long.")
            if errors:
                raise DiscordError(400, 50035, "Invalid Form Body", errors)
            ack.choices = choices
        elif ctype == 9:
            if not data.get("custom_id") or not data.get("title"):
                raise DiscordError(400, 50035, "Invalid Form Body",
                                   ["modal needs custom_id and title"])
            ack.modal = data
            self.modals.append({"interaction_id": info.id, "user_id": info.user_id, **data})

        info.callback_type = ctype
        info.ack = ack
        self.acks.append(ack)
        info.acked.set()
        self.last_activity = self.now()

        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        interaction: dict[str, Any] = {"id": str(info.id), "type": info.type}
        if response_message is not None:
            interaction.update({
                "response_message_id": str(response_message.message_id),
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": response_message.visibility == "ephemeral",
            })
            resource["message"] = self.message_payload(response_message)
        return _json_response({"interaction": interaction, "resource": resource})

    def _visibility(self, chan: ChannelInfo, flags: int,
                    user_id: int) -> tuple[Visibility, int | None]:
        if flags & FLAG_EPHEMERAL:
            return "ephemeral", user_id
        if chan.is_dm:
            return "dm", chan.recipient_id
        return "public", None

    def _webhook_interaction(self, request: web.Request) -> InteractionInfo:
        self._check_app(request)
        info = self._interaction(request.match_info["token"])
        if info is None or info.callback_type is None or (info.ack and info.ack.late):
            raise DiscordError(404, 10015, "Unknown Webhook")
        info.responders.append(request.headers.get(PROCESS_HEADER))
        return info

    async def followup(self, request: web.Request) -> web.Response:
        info = self._webhook_interaction(request)
        data, files = await self._read_body(request)
        if info.callback_type in (8, 9, 1):
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        self._check_message(data, files, edit=False)
        chan = self.channels[info.channel_id]
        loading = self.messages.get(info.loading_message_id or 0)
        if loading is not None and loading.loading and not loading.deleted:
            # The first follow-up after a "thinking" defer replaces the loading message and
            # keeps the defer's ephemerality, whatever flags the follow-up asks for.
            msg = self.edit_message(loading, data, files, source="followup",
                                    interaction_id=info.id, fill=True)
            info.loading_message_id = None
        else:
            visibility, uid = self._visibility(chan, int(data.get("flags") or 0), info.user_id)
            if visibility == "public":
                self._unarchive_to_post(chan)
            msg = self.create_message(channel_id=chan.id, visibility=visibility, user_id=uid,
                                      data=data, files=files, source="followup",
                                      interaction=info)
        info.followup_ids.append(msg.message_id)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return _json_response(self.message_payload(msg))
        return web.Response(status=204)

    def _webhook_message(self, request: web.Request, info: InteractionInfo) -> Record:
        mid_raw = request.match_info["message_id"]
        if mid_raw == "@original":
            mid = info.original_message_id
        else:
            mid = _int(mid_raw)
            msg = self.messages.get(mid or 0)
            if msg is None or msg.webhook_id != self.app_id:
                raise DiscordError(404, 10008, "Unknown Message")
        msg = self.messages.get(mid or 0)
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    async def webhook_get(self, request: web.Request) -> web.Response:
        info = self._webhook_interaction(request)
        return _json_response(self.message_payload(self._webhook_message(request, info)))

    async def webhook_edit(self, request: web.Request) -> web.Response:
        info = self._webhook_interaction(request)
        msg = self._webhook_message(request, info)
        if not msg.ephemeral:
            self._refuse_if_archived(self.channels[msg.channel_id])
        data, files = await self._read_body(request)
        self._check_message(data, files, edit=True, existing=msg)
        original = request.match_info["message_id"] == "@original"
        was_loading = msg.loading
        self.edit_message(msg, data, files,
                          source="edit_original" if original else "webhook_edit",
                          interaction_id=info.id)
        if was_loading and info.loading_message_id == msg.message_id:
            info.loading_message_id = None
        return _json_response(self.message_payload(msg))

    async def webhook_delete(self, request: web.Request) -> web.Response:
        info = self._webhook_interaction(request)
        msg = self._webhook_message(request, info)
        if not msg.ephemeral:
            self._refuse_if_archived(self.channels[msg.channel_id])
        self.delete_message(msg)
        return web.Response(status=204)

    # ------------------------------------------------------------------ channels
    def _channel(self, request: web.Request) -> ChannelInfo:
        chan = self.channels.get(_int(request.match_info["channel_id"]) or 0)
        if chan is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return chan

    def _channel_message(self, request: web.Request, chan: ChannelInfo) -> Record:
        msg = self.messages.get(_int(request.match_info["message_id"]) or 0)
        if msg is None or msg.deleted or msg.channel_id != chan.id or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    def _require(self, chan: ChannelInfo, needed: int) -> None:
        if chan.is_dm:
            return
        perms = self.permissions(self.bot.id, chan.id)
        if perms & VIEW_CHANNEL == 0:
            raise DiscordError(403, 50001, "Missing Access")
        if perms & needed != needed:
            raise DiscordError(403, 50013, "Missing Permissions")

    @staticmethod
    def send_bit(chan: ChannelInfo) -> int:
        """The permission posting needs: Send Messages in Threads in a thread, else Send
        Messages."""
        return SEND_MESSAGES_IN_THREADS if chan.is_thread else SEND_MESSAGES

    async def start_thread(self, request: web.Request) -> web.Response:
        """POST channels/{id}/messages/{id}/threads: a public thread from a message (type
        11; Discord: name 1-100 chars, auto_archive_duration 60/1440/4320/10080, Create
        Public Threads in the channel, not in a thread or DM, one thread per message)."""
        chan = self._channel(request)
        msg = self._channel_message(request, chan)
        data, _ = await self._read_body(request)
        if chan.is_dm or chan.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        self._require(chan, CREATE_PUBLIC_THREADS)
        name = str(data.get("name") or "")
        errors = []
        if not 1 <= len(name) <= 100:
            errors.append("name: Must be between 1 and 100 in length.")
        duration = data.get("auto_archive_duration")
        if duration is not None and duration not in ARCHIVE_DURATIONS:
            errors.append(f"auto_archive_duration: Value must be one of {ARCHIVE_DURATIONS}.")
        if errors:
            raise DiscordError(400, 50035, "Invalid Form Body", errors)
        if msg.thread_id is not None or msg.message_id in self.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this "
                               "message")
        # Discord gives a thread started from a message that message's id
        thread = ChannelInfo(id=msg.message_id, name=name, type=PUBLIC_THREAD,
                             guild_id=chan.guild_id, parent_id=chan.id, owner_id=self.bot.id,
                             auto_archive_duration=int(duration or 1440))
        self.channels[thread.id] = thread
        msg.thread_id = thread.id
        payload = self.channel_payload(thread)
        if self.gateway_open:
            self._emit("THREAD_CREATE", {**payload, "newly_created": True})
        return _json_response(payload, status=201)

    async def get_channel(self, request: web.Request) -> web.Response:
        chan = self._channel(request)
        return _json_response(self.channel_payload(chan))

    async def edit_channel(self, request: web.Request) -> web.Response:
        """PATCH channels/{id}: only a thread's ``archived`` and ``locked`` (Discord:
        unarchiving a thread that is not locked needs Send Messages in Threads, locking or
        unlocking Manage Threads; anything else is not modelled: 400 50035)."""
        chan = self._channel(request)
        data, _ = await self._read_body(request)
        other = sorted(set(data) - {"archived", "locked"})
        if not chan.is_thread or other:
            raise DiscordError(400, 50035, "Invalid Form Body",
                               [f"{k}: not modelled by the fake" for k in other])
        archived = bool(data.get("archived", chan.archived))
        locked = bool(data.get("locked", chan.locked))
        self._require(chan, self.send_bit(chan))
        if locked != chan.locked or (chan.locked and not archived):
            self._require(chan, MANAGE_THREADS)
        chan.archived, chan.locked = archived, locked
        chan.archive_time = _wall()
        payload = self.channel_payload(chan)
        self._emit("THREAD_UPDATE", payload)
        return _json_response(payload)

    async def typing(self, request: web.Request) -> web.Response:
        chan = self._channel(request)
        self._require(chan, self.send_bit(chan))
        return web.Response(status=204)

    async def channel_history(self, request: web.Request) -> web.Response:
        chan = self._channel(request)
        self._require(chan, READ_MESSAGE_HISTORY)
        limit = int(request.query.get("limit", "50"))
        msgs = [m for m in self.messages.values()
                if m.channel_id == chan.id and not m.deleted and not m.ephemeral
                and not m.loading]
        before = _int(request.query.get("before"))
        after = _int(request.query.get("after"))
        if before:
            msgs = [m for m in msgs if m.message_id < before]
        if after:
            msgs = [m for m in msgs if m.message_id > after]
        msgs.sort(key=lambda m: m.message_id, reverse=True)
        return _json_response([self.message_payload(m) for m in msgs[:limit]])

    async def channel_post(self, request: web.Request) -> web.Response:
        chan = self._channel(request)
        data, files = await self._read_body(request)
        if chan.is_dm:
            recipient = self.users.get(chan.recipient_id or 0)
            if recipient is None or recipient.dms_closed:
                raise DiscordError(403, 50007, "Cannot send messages to this user")
        else:
            needed = self.send_bit(chan) | (ATTACH_FILES if files else 0)
            self._require(chan, needed)
        self._check_message(data, files, edit=False)
        self._unarchive_to_post(chan)
        if chan.is_dm:
            msg = self.create_message(channel_id=chan.id, visibility="dm",
                                      user_id=chan.recipient_id, data=data, files=files,
                                      source="channel_post")
        else:
            msg = self.create_message(channel_id=chan.id, visibility="public", user_id=None,
                                      data=data, files=files, source="channel_post")
        return _json_response(self.message_payload(msg))

    async def channel_get_message(self, request: web.Request) -> web.Response:
        chan = self._channel(request)
        return _json_response(self.message_payload(self._channel_message(request, chan)))

    async def channel_edit(self, request: web.Request) -> web.Response:
        chan = self._channel(request)
        msg = self._channel_message(request, chan)
        if msg.author_id != self.bot.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._refuse_if_archived(chan)
        data, files = await self._read_body(request)
        self._check_message(data, files, edit=True, existing=msg)
        self.edit_message(msg, data, files, source="channel_edit", interaction_id=None)
        return _json_response(self.message_payload(msg))

    async def channel_delete(self, request: web.Request) -> web.Response:
        chan = self._channel(request)
        msg = self._channel_message(request, chan)
        self._refuse_if_archived(chan)
        self.delete_message(msg)
        return web.Response(status=204)

    # ------------------------------------------------------------------ guilds
    def _guild(self, request: web.Request) -> GuildInfo:
        guild = self.guilds.get(_int(request.match_info["guild_id"]) or 0)
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return _json_response(self.guild_payload(full=False, guild_id=guild.id))

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return _json_response([self.channel_payload(c) for c in self.channels.values()
                               if not c.is_dm and c.guild_id == guild.id])

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return _json_response([r.payload() for r in self.roles.values()
                               if r.guild_id == guild.id])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        user = self.users.get(_int(request.match_info["user_id"]) or 0)
        if user is None or not self.is_member(user.id, guild.id):
            raise DiscordError(404, 10007, "Unknown Member")
        return _json_response(self.member_payload(user.id, guild_id=guild.id))

    async def download(self, request: web.Request) -> web.Response:
        att = self.attachment_blobs.get(_int(request.match_info["attachment_id"]) or 0)
        if att is None:
            raise DiscordError(404, 0, "404: Not Found")
        return web.Response(body=att.data,
                            content_type=att.content_type or "application/octet-stream")


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _rejection(request: web.Request, err: DiscordError) -> Rejection:
    return Rejection(request.method, request.path, err.status, err.code, err.message,
                     list(err.errors))
