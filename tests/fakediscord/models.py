"""Plain data records kept by the fake Discord: messages, attachments, acks, problems.

Everything a test asserts on is one of these dataclasses.  They hold raw Discord JSON
(``embeds``, ``components``) next to a few convenience helpers, so a test can either poke at
the raw payload or ask ``record.button("Accept")``.
"""

from __future__ import annotations

import copy
import io
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

DISCORD_EPOCH_MS = 1420070400000

Visibility = Literal["public", "ephemeral", "dm"]

# Component type numbers (https://discord.com/developers/docs/components/reference)
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)

# Message flags
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class HarnessError(AssertionError):
    """Raised when a test asks the harness for something a real Discord user could not do
    (click a disabled button, pick an option that isn't offered, use a command that was never
    synced ...) or when the bot misbehaves (never acknowledges an interaction)."""


class Snowflakes:
    """Generates increasing, time-based Discord snowflakes."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


@dataclass
class Attachment:
    """A file uploaded by the bot (``files[n]`` multipart part)."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(PNG_MAGIC)

    def image(self) -> Any:
        """Decode the bytes with Pillow (``PIL.Image.Image``); raises if it isn't an image."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        size = self.png_size()
        if size is not None:  # a corrupt PNG header: just omit the size
            payload["width"], payload["height"] = size
        return payload

    def png_size(self) -> tuple[int, int] | None:
        """Width and height from the PNG's IHDR chunk (no decoding: this runs for every
        message payload, and decoding a board took ~13 ms of the shared event loop), or None
        if the bytes don't start like a PNG. ``image()`` decodes the whole picture."""
        data = self.data
        if len(data) < 24 or not data.startswith(PNG_MAGIC) or data[12:16] != b"IHDR":
            return None
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Walk a component tree depth first (action rows, v2 containers/sections/labels)."""
    for comp in components or []:
        yield comp
        yield from iter_components(comp.get("components") or [])
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, dict):
                yield from iter_components([child])


def _embed_text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title") or "", embed.get("description") or ""]
    for fld in embed.get("fields") or []:
        parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
    footer = embed.get("footer") or {}
    parts.append(footer.get("text") or "")
    author = embed.get("author") or {}
    parts.append(author.get("name") or "")
    return "\n".join(p for p in parts if p)


@dataclass
class Record:
    """One message as Discord would show it.

    The same class serves two purposes:

    * an entry of the event log (``fake.records``, an outcome's ``records``): a snapshot taken
      when the message was created (``edit=False``) or edited (``edit=True``);
    * the *current* state of a message (``fake.messages()``, ``fake.last_message()``):
      there ``edit`` tells whether it was ever edited and ``seq`` is its creation order.

    ``visibility`` is ``"public"`` (everyone in channel ``channel_id``), ``"ephemeral"`` (only
    ``user_id``, the user who triggered the interaction, sees it) or ``"dm"`` (a direct message
    to ``user_id``).  ``interaction_id`` is the interaction this event answered (``None`` for
    plain channel posts/DMs); ``origin_interaction_id`` the interaction whose response or
    follow-up created the message.  ``source`` says which API produced the event:
    ``interaction_response`` (callback type 4), ``component_update`` (callback type 7),
    ``followup``, ``edit_original``, ``webhook_edit``, ``channel_post``, ``channel_edit``.
    """

    seq: int
    message_id: int
    channel_id: int
    visibility: Visibility
    user_id: int | None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    edit: bool = False
    interaction_id: int | None = None
    origin_interaction_id: int | None = None
    source: str = ""
    author_id: int = 0
    guild_id: int | None = None
    webhook_id: int | None = None
    deleted: bool = False
    loading: bool = False
    reference_id: int | None = None
    thread_id: int | None = None  # the thread started from this message
    pinged: tuple[int, ...] = ()  # users this creation notified (mentions allowed to ping)
    time: float = 0.0
    created_time: float = 0.0
    edited_time: float | None = None
    message_type: int = 0
    interaction_metadata: dict[str, Any] | None = None
    tts: bool = False
    # the request's ``allowed_mentions`` as sent (None: absent, Discord then parses all)
    allowed_mentions: dict[str, Any] | None = None
    # the bot process whose request made this event (tests' X-Test-Process header), if any
    process: str | None = None

    # ----------------------------------------------------------------- convenience
    @property
    def id(self) -> int:
        return self.message_id

    @property
    def ephemeral(self) -> bool:
        return self.visibility == "ephemeral"

    @property
    def text(self) -> str:
        """Content plus the text of all embeds (title, description, fields, footer)."""
        parts = [self.content or ""] + [_embed_text(e) for e in self.embeds]
        parts += [c.get("content", "") for c in self.walk() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def visible_to(self, user: Any) -> bool:
        """Whether ``user`` (id or object with ``.id``) can see this message."""
        if self.visibility == "public":
            return True
        return self.user_id == _as_id(user)

    def walk(self) -> list[dict[str, Any]]:
        """All components, flattened."""
        return list(iter_components(self.components))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk() if c.get("type") == BUTTON]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.walk() if c.get("type") in SELECT_TYPES]

    @property
    def labels(self) -> list[str]:
        """Labels of all buttons, in order."""
        return [b.get("label") or "" for b in self.buttons]

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> dict | None:
        for b in self.buttons:
            if custom_id is not None and b.get("custom_id") == custom_id:
                return b
            if label is not None and custom_id is None and b.get("label") == label:
                return b
        return None

    def select_menu(self, key: str) -> dict | None:
        """The select menu whose placeholder or custom_id is ``key``."""
        for s in self.selects:
            if key in (s.get("custom_id"), s.get("placeholder")):
                return s
        return None

    @property
    def mentioned(self) -> set[int]:
        """The users this version of the message mentions *and* notifies: ``<@id>`` in the
        content or in a Components V2 text display, as far as ``allowed_mentions`` lets them
        (absent: all users; ``parse`` with ``"users"``: all; else the ``users`` listed)."""
        texts = [self.content or ""] + [c.get("content", "") for c in self.walk()
                                        if c.get("type") == 10]
        ids = {int(m) for t in texts for m in re.findall(r"<@!?(\d+)>", t)}
        am = self.allowed_mentions
        if am is None or "users" in (am.get("parse") or []):
            return ids
        return ids & {int(u) for u in am.get("users") or []}

    @property
    def files(self) -> dict[str, bytes]:
        return {a.filename: a.data for a in self.attachments}

    def snapshot(self, **changes: Any) -> Record:
        rec = copy.deepcopy(self)
        for key, value in changes.items():
            setattr(rec, key, value)
        return rec

    def __repr__(self) -> str:
        who = "" if self.visibility == "public" else f" user={self.user_id}"
        extra = " edit" if self.edit else ""
        return (
            f"<Record #{self.seq} {self.visibility}{who} msg={self.message_id}{extra}"
            f" content={self.content[:60]!r} embeds={len(self.embeds)}"
            f" buttons={self.labels} files={[a.filename for a in self.attachments]}>"
        )


@dataclass
class Ack:
    """The first callback a bot sent for an interaction (or a rejected late one)."""

    interaction_id: int
    interaction_type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    callback_type: int  # 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal
    latency: float  # seconds from INTERACTION_CREATE dispatch to the callback POST arriving
    user_id: int
    name: str  # command path or component custom_id
    late: bool = False  # arrived after the ack deadline: Discord answered 10062 Unknown interaction
    ephemeral: bool = False
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None


@dataclass
class UnknownRoute:
    method: str
    path: str
    query: str
    body: str


@dataclass
class Rejection:
    """A request the fake refused with a 4xx because Discord would have refused it too."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: list[str] = field(default_factory=list)


@dataclass
class RequestLog:
    method: str
    path: str
    status: int
    duration: float
    process: str | None = None  # the bot process that sent it (tests' X-Test-Process header)


def _as_id(obj: Any) -> int | None:
    if obj is None:
        return None
    if isinstance(obj, int):
        return obj
    if isinstance(obj, str):
        return int(obj)
    return int(obj.id)
