"""A minimal Discord gateway (v10) on the fake's aiohttp server, for bots in other processes.

A real discord.py client pointed at the fake (``Route.BASE`` = ``server.api_base``,
``DiscordWebSocket.DEFAULT_GATEWAY`` = ``server.gateway_url``) opens one websocket per shard:

* ``GET /api/v10/gateway`` and ``/gateway/bot`` answer the websocket URL (and ``shards``,
  :attr:`GatewayHub.recommended_shards`, with generous session start limits);
* on connect the fake sends HELLO (op 10, ``heartbeat_interval``); each heartbeat (op 1) is
  answered with a HEARTBEAT_ACK (op 11);
* IDENTIFY (op 2) names the shard (``shard: [id, count]``, default ``[0, 1]``): the fake
  answers READY (``shard``, ``session_id``, ``resume_gateway_url``, the shard's guilds as
  unavailable) then one GUILD_CREATE per guild with ``(guild_id >> 22) % count == id``;
* RESUME (op 6) is answered with INVALID_SESSION (op 9, not resumable): the client
  identifies again; REQUEST_GUILD_MEMBERS (op 8) with one GUILD_MEMBERS_CHUNK;
  PRESENCE_UPDATE (op 3) is recorded.

Frames are plain JSON text (discord.py asks for ``compress=zlib-stream`` in the URL but reads
text frames as they come; it only decompresses binary frames). Dispatches (op 0) carry a
sequence number ``s`` increasing per connection. A guild's events go only to the connection
of its shard, DM events to shard 0, as on Discord.

Each connection remembers the process that opened it (the :data:`PROCESS_HEADER` a test's bot
process adds to its requests, see ``tests/e2e/shard_process.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscordServer

log = logging.getLogger("tests.fakediscord.gateway")

GATEWAY_PATH = "/gateway"
#: The request header naming the bot process (tests' own: Discord has no such header).
PROCESS_HEADER = "X-Test-Process"
#: Where such a process reports how many interactions it is handling (the fake's own route).
BUSY_PATH = "/_test/processes/{name}/busy"
HEARTBEAT_INTERVAL_MS = 5000

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, REQUEST_MEMBERS = 0, 1, 2, 3, 6, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
INTENT_MEMBERS, INTENT_GUILD_MESSAGES, INTENT_DM_MESSAGES = 1 << 1, 1 << 9, 1 << 12


def guild_shard(guild_id: int | None, shard_count: int) -> int:
    """The shard of ``shard_count`` that carries a guild's events: Discord's formula,
    ``(guild_id >> 22) % shard_count``; a DM's (no guild): shard 0. The fake keeps its own
    copy of the rule rather than the bot's ``bot.match.shards.shard_of``, so that a test
    through the fake would catch the bot getting it wrong."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(eq=False)
class GatewayConnection:
    """One websocket: which shard it identified as, what it was sent."""

    ws: web.WebSocketResponse
    number: int
    process: str | None = None  # the PROCESS_HEADER of the upgrade request
    shard: tuple[int, int] | None = None  # (id, count) once identified
    session_id: str | None = None
    intents: int = 0
    token: str | None = None
    seq: int = 0
    heartbeats: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)  # (s, event name) sent
    presences: list[dict[str, Any]] = field(default_factory=list)
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # READY + GUILD_CREATEs sent

    @property
    def shard_id(self) -> int | None:
        return None if self.shard is None else self.shard[0]

    def __repr__(self) -> str:
        return (f"<GatewayConnection #{self.number} shard={self.shard} "
                f"process={self.process!r} seq={self.seq}>")


class GatewayHub:
    """The gateway side of a :class:`~.server.FakeDiscordServer`: its websocket connections
    and the routing of dispatches to them."""

    recommended_shards = 1

    def __init__(self, server: FakeDiscordServer) -> None:
        self.server = server
        self.connections: list[GatewayConnection] = []  # identified, open
        self.history: list[GatewayConnection] = []  # every connection ever opened
        self._numbers = itertools.count(1)
        self.changed = asyncio.Condition()

    # ------------------------------------------------------------------ REST
    def _url_payload(self) -> dict[str, Any]:
        return {"url": self.server.gateway_url}

    async def get_gateway(self, request: web.Request) -> web.Response:
        from .server import _json_response

        return _json_response(self._url_payload())

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        from .server import _json_response

        limits = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 16}
        return _json_response({**self._url_payload(), "shards": self.recommended_shards,
                               "session_start_limit": limits})

    # ------------------------------------------------------------------ routing
    def connection_for(self, guild_id: int | None) -> GatewayConnection | None:
        """The open connection that carries ``guild_id``'s events (a DM's: shard 0)."""
        for conn in self.connections:
            if conn.shard is None:
                continue
            sid, count = conn.shard
            if guild_shard(guild_id, count) == sid:
                return conn
        return None

    def dispatch(self, event: str, payload: dict[str, Any], *,
                 guild_id: int | None = None) -> GatewayConnection | None:
        """Send ``event`` to the connection of the guild's shard (``guild_id``, else the
        payload's ``guild_id``; none: shard 0). Message events honour the intents the
        connection identified with. Returns the connection, or None when no connection
        carries that guild (or it does not want the event)."""
        if guild_id is None and payload.get("guild_id") is not None:
            guild_id = int(payload["guild_id"])
        conn = self.connection_for(guild_id)
        if conn is None:
            return None
        if event.startswith("MESSAGE_"):
            wanted = INTENT_GUILD_MESSAGES if guild_id is not None else INTENT_DM_MESSAGES
            if not conn.intents & wanted:
                return None
        self._send_dispatch(conn, event, payload)
        return conn

    def _send_dispatch(self, conn: GatewayConnection, event: str, data: dict[str, Any]) -> None:
        conn.seq += 1
        conn.events.append((conn.seq, event))
        self._send(conn, {"op": DISPATCH, "d": data, "s": conn.seq, "t": event})

    @staticmethod
    def _send(conn: GatewayConnection, frame: dict[str, Any]) -> None:
        conn.queue.put_nowait(json.dumps(frame))

    async def wait_for_shards(self, shard_ids: list[int], *, timeout: float) -> None:
        """Wait until a connection identified (and was sent its guilds) for each shard."""
        async def all_ready() -> None:
            while True:
                ready = {c.shard_id for c in self.connections if c.ready.is_set()}
                if set(shard_ids) <= ready:
                    return
                async with self.changed:
                    await self.changed.wait()

        await asyncio.wait_for(all_ready(), timeout)

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    # ------------------------------------------------------------------ the websocket
    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        conn = GatewayConnection(ws, next(self._numbers),
                                 process=request.headers.get(PROCESS_HEADER))
        self.history.append(conn)
        writer = asyncio.create_task(self._writer(conn), name=f"fake-gateway-{conn.number}")
        self._send(conn, {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS},
                          "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._received(conn, json.loads(msg.data))
        finally:
            if conn in self.connections:
                self.connections.remove(conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
            await self._notify()
        return ws

    async def _writer(self, conn: GatewayConnection) -> None:
        """Send the connection's frames in order (dispatches are queued from sync code)."""
        while True:
            frame = await conn.queue.get()
            if frame is None or conn.ws.closed:
                return
            try:
                await conn.ws.send_str(frame)
            except ConnectionError:
                return

    async def _received(self, conn: GatewayConnection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            conn.heartbeats += 1
            self._send(conn, {"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            self._send(conn, {"op": INVALID_SESSION, "d": False, "s": None, "t": None})
        elif op == PRESENCE:
            conn.presences.append(data or {})
        elif op == REQUEST_MEMBERS:
            self._members_chunk(conn, data or {})
        else:
            log.warning("fake gateway: unknown op %s from %r", op, conn)

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        server = self.server
        sid, count = (data.get("shard") or [0, 1])
        conn.shard, conn.token = (int(sid), int(count)), data.get("token")
        conn.intents = int(data.get("intents") or 0)
        conn.session_id = f"fake-session-{conn.number}"
        for other in list(self.connections):  # a shard identifying again replaces itself
            if other.shard == conn.shard:
                self.connections.remove(other)
        self.connections.append(conn)
        mine = [g for g in server.guilds.values() if g.shard(count) == sid]
        self._send_dispatch(conn, "READY", server.ready_payload(
            shard=(sid, count), guild_ids=[g.id for g in mine], session_id=conn.session_id))
        members = bool(conn.intents & INTENT_MEMBERS)
        for guild in mine:
            self._send_dispatch(conn, "GUILD_CREATE",
                                server.guild_payload(all_members=members, guild_id=guild.id))
        conn.ready.set()
        await self._notify()

    def _members_chunk(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        server = self.server
        gid = int(data.get("guild_id") or 0)
        users = [u for u in server.users.values() if server.is_member(u.id, gid)]
        wanted = {int(u) for u in data.get("user_ids") or []}
        if wanted:
            users = [u for u in users if u.id in wanted]
        query = data.get("query") or ""
        users = [u for u in users if u.name.lower().startswith(query.lower())]
        if data.get("limit"):
            users = users[:int(data["limit"])]
        self._send_dispatch(conn, "GUILD_MEMBERS_CHUNK", {
            "guild_id": str(gid), "members": [server.member_payload(u.id, guild_id=gid)
                                              for u in users],
            "chunk_index": 0, "chunk_count": 1, "not_found": [], "nonce": data.get("nonce")})

    async def close(self) -> None:
        """Close every open websocket (the server is stopping)."""
        for conn in list(self.history):
            if not conn.ws.closed:
                with contextlib.suppress(Exception):
                    await conn.ws.close()
