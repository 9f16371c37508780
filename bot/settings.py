"""Process settings, read from environment variables and an optional ``.env`` file.

Every setting has exactly one environment variable (listed in ``ENV_VARS`` and documented in
``.env.example`` and docs/SETTINGS.md). A real environment variable wins over the same name in
``.env``; an empty value counts as unset, so a copied ``.env.example`` with blank lines works.

Use ``load_settings()`` rather than constructing ``Settings`` directly: it turns pydantic's
validation report into a ``SettingsError`` whose message names each bad variable and the form
it should take, which the entry point prints without a traceback.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
from pathlib import Path
from typing import Annotated, Literal

from dotenv import dotenv_values
from dotenv.parser import parse_stream
from pydantic import (
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from .storage.db_url import is_postgres_url

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]

DEFAULT_ENV_FILE = ".env"
#: Upper bounds: beyond them a value is a typo, not a wish (a year, a week, a minute).
MAX_TURN_TIMEOUT_HOURS = 24 * 365
#: Lower bound of a turn: a minute (less would end matches before anyone could answer).
MIN_TURN_TIMEOUT_HOURS = 1 / 60
MAX_SHARDS = 4096  # far beyond any bot of this kind; catches a typo
#: RAPTOR_SHARD_IDS as written: numbers separated by commas or spaces.
_SHARD_LIST = re.compile(r"\s*\d+(?:\s*,\s*\d+|\s+\d+)*\s*")
MAX_CHALLENGE_TIMEOUT_MINUTES = 60 * 24 * 7
MAX_AI_TIME_BUDGET = 60.0
#: Upper bound of a per-member cap (practices, open challenges): beyond it a cap is a typo.
MAX_PER_MEMBER = 100
#: Upper bound of the replays drawn at once (each holds a render worker for a second or two).
MAX_REPLAYS_AT_ONCE = 16


class SettingsError(ValueError):
    """One or more settings are malformed.

    ``str(error)`` is a human-readable message, one line per bad variable, e.g.
    ``RAPTOR_DEV_GUILD_ID must be a positive whole number (a Discord server id), got 'abc'``.
    ``problems`` holds those lines as a tuple.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


class Settings(BaseSettings):
    """All configuration of one bot process.

    Attributes:
        discord_token: The bot token (``DISCORD_TOKEN``); ``None`` when unset. Only needed to
            connect to Discord; the offline demo and terminal play run without it.
        database_url: a PostgreSQL database (``RAPTOR_DATABASE_URL``,
            ``postgresql://user:password@host:port/database``) instead of the SQLite file:
            for several processes (shards) or machines sharing one database.
        shard_count: Discord shards of the whole bot (``RAPTOR_SHARD_COUNT``), the same in
            every process; None: not sharded (one process, one gateway connection).
        shard_ids: The shards this process runs (``RAPTOR_SHARD_IDS``, e.g. ``0,1``); None:
            all of ``shard_count``.
        db_path: SQLite database file (``RAPTOR_DB_PATH``), relative to the working directory
            unless absolute.
        dev_guild_id: For development, the one Discord server (``RAPTOR_DEV_GUILD_ID``)
            where the slash commands are synced, at once and instead of globally; ``None``
            for a global sync.
        log_level: ``DEBUG``, ``INFO``, ``WARNING`` or ``ERROR`` (``RAPTOR_LOG_LEVEL``),
            accepted in any letter case.
        turn_timeout_hours: Hours a player has for each turn (a card pick, a card's effect,
            the action points, a placement) before the match times out
            (``RAPTOR_TURN_TIMEOUT_HOURS``), from 1/60 (a minute) to 8760 (a year), in servers that
            did not set their own (``/raptor-admin timeout``).
        challenge_timeout_minutes: Minutes an unanswered challenge stays open
            (``RAPTOR_CHALLENGE_TIMEOUT_MINUTES``), > 0 and at most 10080 (a week).
        table_timeout_minutes: Minutes a table (a lobby) stays open without being started
            (``RAPTOR_TABLE_TIMEOUT_MINUTES``), > 0 and at most 10080 (a week).
        ai_time_budget: Seconds of thinking per AI decision (``RAPTOR_AI_TIME_BUDGET``), > 0
            and at most 60.
        max_practices: Practice games against the AI one member may have in progress at once
            (``RAPTOR_MAX_PRACTICES_PER_MEMBER``), 1 to 100: each holds a thread and the AI's
            thinking.
        max_challenges: Open (unanswered) challenges one member may have sent at once
            (``RAPTOR_MAX_CHALLENGES_PER_MEMBER``), 1 to 100: each is a public message that
            pings someone.
        max_replays: Replay animations the bot draws at once (``RAPTOR_MAX_REPLAYS``), 1 to
            16; one of them per member. A finished match's animation is drawn once and kept.
    """

    model_config = SettingsConfigDict(
        env_file=DEFAULT_ENV_FILE,
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
        populate_by_name=True,
        allow_inf_nan=False,
        frozen=True,
    )

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    db_path: Path = Field(default=Path("raptor.sqlite3"), validation_alias="RAPTOR_DB_PATH")
    database_url: SecretStr | None = Field(default=None, validation_alias="RAPTOR_DATABASE_URL")
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARDS,
                                    validation_alias="RAPTOR_SHARD_COUNT")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, validation_alias="RAPTOR_SHARD_IDS")
    dev_guild_id: int | None = Field(default=None, gt=0, validation_alias="RAPTOR_DEV_GUILD_ID")
    log_level: LogLevel = Field(default="INFO", validation_alias="RAPTOR_LOG_LEVEL")
    turn_timeout_hours: float = Field(
        default=24.0, ge=MIN_TURN_TIMEOUT_HOURS, le=MAX_TURN_TIMEOUT_HOURS,
        validation_alias="RAPTOR_TURN_TIMEOUT_HOURS"
    )
    challenge_timeout_minutes: float = Field(
        default=10.0, gt=0, le=MAX_CHALLENGE_TIMEOUT_MINUTES,
        validation_alias="RAPTOR_CHALLENGE_TIMEOUT_MINUTES",
    )
    table_timeout_minutes: float = Field(
        default=30.0, gt=0, le=MAX_CHALLENGE_TIMEOUT_MINUTES,
        validation_alias="RAPTOR_TABLE_TIMEOUT_MINUTES",
    )
    ai_time_budget: float = Field(
        default=2.0, gt=0, le=MAX_AI_TIME_BUDGET, validation_alias="RAPTOR_AI_TIME_BUDGET"
    )
    max_practices: int = Field(default=3, ge=1, le=MAX_PER_MEMBER,
                               validation_alias="RAPTOR_MAX_PRACTICES_PER_MEMBER")
    max_challenges: int = Field(default=5, ge=1, le=MAX_PER_MEMBER,
                                validation_alias="RAPTOR_MAX_CHALLENGES_PER_MEMBER")
    max_replays: int = Field(default=2, ge=1, le=MAX_REPLAYS_AT_ONCE,
                             validation_alias="RAPTOR_MAX_REPLAYS")

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("database_url", mode="after")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not is_postgres_url(value.get_secret_value()):
            raise ValueError("not a postgresql:// URL")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shard_ids(cls, value: object) -> object:
        if isinstance(value, str):  # "0,1" or "0 1" (not "1,,2" or "0,")
            if not _SHARD_LIST.fullmatch(value):
                raise ValueError("not a list of shard numbers")
            return tuple(int(p) for p in re.findall(r"\d+", value))
        return value

    @field_validator("shard_ids", mode="after")
    @classmethod
    def _shard_ids_fit(cls, value: tuple[int, ...] | None,
                       info: ValidationInfo) -> tuple[int, ...] | None:
        if value is None:
            return value
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("RAPTOR_SHARD_COUNT is not set")
        if not value or len(set(value)) != len(value) or any(i >= count for i in value):
            raise ValueError("each id once, below the shard count")
        return value

    @model_validator(mode="after")
    def _some_shards_need_postgres(self) -> Settings:
        if (self.shard_ids is not None and self.shard_count is not None
                and len(self.shard_ids) < self.shard_count and self.database_url is None):
            raise ValueError(
                f"RAPTOR_SHARD_IDS runs {len(self.shard_ids)} of the {self.shard_count} shards, "
                "so other processes run the rest: they must share a PostgreSQL database "
                "(RAPTOR_DATABASE_URL), not this process's SQLite file (leave RAPTOR_SHARD_IDS "
                "unset to run every shard here)")
        return self

    @field_validator("db_path", mode="after")
    @classmethod
    def _db_path_not_blank(cls, value: Path) -> Path:
        if str(value).strip() in ("", "."):
            raise ValueError("empty path")
        return value


# Field name -> (environment variable, the form its value must take).
ENV_VARS: dict[str, tuple[str, str]] = {
    "discord_token": ("DISCORD_TOKEN", "the bot token from the Discord developer portal"),
    "db_path": ("RAPTOR_DB_PATH", "a file path for the SQLite database"),
    "database_url": ("RAPTOR_DATABASE_URL", "a PostgreSQL URL, "
                     "postgresql://user:password@host:port/database"),
    "shard_count": ("RAPTOR_SHARD_COUNT",
                    f"a whole number of shards from 1 to {MAX_SHARDS} (all processes alike)"),
    "shard_ids": ("RAPTOR_SHARD_IDS", "this process's shard numbers, each once, from 0 to "
                  "RAPTOR_SHARD_COUNT - 1, e.g. 0,1 (RAPTOR_SHARD_COUNT must be set)"),
    "dev_guild_id": ("RAPTOR_DEV_GUILD_ID", "a positive whole number (a Discord server id)"),
    "log_level": ("RAPTOR_LOG_LEVEL", "one of DEBUG, INFO, WARNING, ERROR"),
    "turn_timeout_hours": (
        "RAPTOR_TURN_TIMEOUT_HOURS",
        "a number of hours from 1/60 (a minute, 0.0167) to 8760 (a year)"
    ),
    "challenge_timeout_minutes": (
        "RAPTOR_CHALLENGE_TIMEOUT_MINUTES",
        "a number of minutes greater than 0, at most 10080 (a week)",
    ),
    "table_timeout_minutes": (
        "RAPTOR_TABLE_TIMEOUT_MINUTES",
        "a number of minutes greater than 0, at most 10080 (a week)",
    ),
    "ai_time_budget": (
        "RAPTOR_AI_TIME_BUDGET", "a number of seconds greater than 0, at most 60"
    ),
    "max_practices": ("RAPTOR_MAX_PRACTICES_PER_MEMBER",
                      f"a whole number from 1 to {MAX_PER_MEMBER}"),
    "max_challenges": ("RAPTOR_MAX_CHALLENGES_PER_MEMBER",
                       f"a whole number from 1 to {MAX_PER_MEMBER}"),
    "max_replays": ("RAPTOR_MAX_REPLAYS", f"a whole number from 1 to {MAX_REPLAYS_AT_ONCE}"),
}

class _OwnReport(logging.Filter):
    """Drops python-dotenv's "could not parse statement" lines, which name no file and come
    once per reading: :func:`setting_warnings` reports each bad line once, with the file."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "could not parse statement" not in str(record.msg)


logging.getLogger("dotenv.main").addFilter(_OwnReport())

_BY_ENV_NAME = {env.lower(): (env, form) for env, form in ENV_VARS.values()}
_SECRET_FIELDS = {"DISCORD_TOKEN", "RAPTOR_DATABASE_URL"}  # values never echoed

#: Variables of the test suite (``RAPTOR_TEST_DATABASE_URL``...): not the bot's, not warned of.
TEST_PREFIX = "RAPTOR_TEST_"


def _describe(error: ValidationError) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    for item in error.errors():
        if not item["loc"]:  # a rule across settings: its own sentence
            cause = (item.get("ctx") or {}).get("error")
            problems.append(str(cause) if cause is not None else item["msg"])
            continue
        key = str(item["loc"][0])
        env, form = ENV_VARS.get(key) or _BY_ENV_NAME.get(key.lower()) or (key, "valid")
        if env in seen:  # a union type reports one error per member; one line is enough
            continue
        seen.add(env)
        if env in _SECRET_FIELDS:
            problems.append(f"{env} must be {form}")
        else:
            problems.append(f"{env} must be {form}, got {item['input']!r}")
    return problems


def _given_names(env_file: str | Path | None) -> set[str]:
    """The ``RAPTOR_…`` names set in the environment or in ``env_file``, as written."""
    names = {k for k in os.environ if k.upper().startswith("RAPTOR_")
             and not k.upper().startswith(TEST_PREFIX)}
    path = Path(env_file) if env_file is not None else None
    if path is not None and path.is_file():
        try:
            names |= {k for k in dotenv_values(path) if k.upper().startswith("RAPTOR_")}
        except UnicodeDecodeError:
            pass  # load_settings reports the file
    return names


def overridden_settings(env_file: str | Path | None = DEFAULT_ENV_FILE) -> list[str]:
    """Warnings for settings given but not used because another one wins: today
    ``RAPTOR_DB_PATH`` beside ``RAPTOR_DATABASE_URL`` (the bot then uses PostgreSQL).

    Returns:
        One sentence per such setting; empty when none is."""
    names = {name.upper() for name in _given_names(env_file)}
    if {"RAPTOR_DB_PATH", "RAPTOR_DATABASE_URL"} <= names:
        return ["RAPTOR_DB_PATH is ignored: RAPTOR_DATABASE_URL is set, so the bot uses that "
                "PostgreSQL database (unset one of them)"]
    return []


def unknown_settings(env_file: str | Path | None = DEFAULT_ENV_FILE) -> list[str]:
    """Warnings for names in the environment or ``env_file`` that look like this bot's
    settings (``RAPTOR_…``) but are none of them, so are ignored: a misspelt name would
    otherwise leave its default in force without a word. Each names the closest setting.

    Returns:
        One sentence per unknown name, sorted; empty when every such name is known.
    """
    names = _given_names(env_file)
    known = sorted(env for env, _form in ENV_VARS.values())
    out = []
    for name in sorted(names):
        if name.upper() in known:
            continue
        tails = {env.removeprefix("RAPTOR_"): env for env in known}
        close = [tails[t] for t in difflib.get_close_matches(
            name.upper().removeprefix("RAPTOR_"), list(tails), n=1, cutoff=0.6)]
        out.append(f"{name} is not a setting of this bot, so it is ignored"
                   + (f"; did you mean {close[0]}?" if close else "."))
    return out


def env_file_warnings(env_file: str | Path | None = DEFAULT_ENV_FILE) -> list[str]:
    """Warnings for the lines of ``env_file`` that are not ``NAME=value`` (nor blank or a
    comment): they are ignored, like unknown names, so the bot still starts.

    Returns:
        One sentence per bad line, in file order, e.g. ``.env line 32 is not NAME=value:
        ignored``; one for an ``env_file`` that is a folder (ignored as well: the settings
        then come from the environment alone); empty without such lines, without the file,
        or for a file that is not UTF-8 (:func:`load_settings` reports that one).
    """
    path = Path(env_file) if env_file is not None else None
    if path is not None and path.is_dir():
        return [f"{env_file} is a folder, not a file of NAME=value lines: ignored (the "
                "settings come from the environment alone)"]
    if path is None or not path.is_file():
        return []
    try:
        with path.open(encoding="utf-8") as stream:
            bad = [b.original.line for b in parse_stream(stream) if b.error]
    except UnicodeDecodeError:
        return []
    return [f"{env_file} line {line} is not NAME=value: ignored" for line in bad]


def setting_warnings(env_file: str | Path | None = DEFAULT_ENV_FILE) -> list[str]:
    """Every warning about the settings, as ``python -m bot`` and ``check`` print them:
    :func:`env_file_warnings`, :func:`unknown_settings`, then :func:`overridden_settings`."""
    return (env_file_warnings(env_file) + unknown_settings(env_file)
            + overridden_settings(env_file))


def load_settings(env_file: str | Path | None = DEFAULT_ENV_FILE) -> Settings:
    """Read the settings from the environment and, if it exists, ``env_file``.

    Args:
        env_file: A dotenv file read after the environment (real variables win); a relative
            path is taken from the working directory. ``None`` reads the environment only.

    Returns:
        The validated, immutable ``Settings``.

    Raises:
        SettingsError: a variable is set to something of the wrong form (the message names
            every such variable, the expected form and, except for secrets, the value given),
            or ``env_file`` is not UTF-8 text.
    """
    try:
        return Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as error:
        raise SettingsError(_describe(error)) from None
    except UnicodeDecodeError:
        raise SettingsError([f"{env_file} must be a UTF-8 text file of NAME=value lines "
                             "(save it as UTF-8, not UTF-16 or 'Unicode')"]) from None
