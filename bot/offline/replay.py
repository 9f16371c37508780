"""``python -m bot replay --db FILE [--match N] --out DIR [--limit MIB]``: a finished
match of a bot's database, of any game, as ``DIR/match-N.txt`` (its record in its game's
format, Raptor's ``docs/RECORD.md``) and ``DIR/match-N.gif`` (its animation, drawn by its
game's offline modes; Raptor: a frame per round; at most ``--limit`` MiB, 10 by
default, frames scaled down or dropped to fit and said so). ``--match`` defaults to the
database's most recently finished match. A match in progress is refused (its hands are
secret); so are a missing database, an unknown match, an empty ``--out`` (``.`` is the current
folder) and files ``match-N.*`` already in ``--out`` (another database's match N, perhaps:
``--force`` overwrites them), in one line each, writing nothing. Exit status as
``python -m engine``'s (:data:`engine.cli.EXIT_STATUS`): 2 for every usage error.

The database is only read (:meth:`bot.storage.db.SqliteDatabase.open_read_only`): a read-only file
or folder is fine, nothing is created beside it, and a database of an older schema is migrated in a
copy in memory, never in the file.

The players are named by their user ids (the database holds no names); the server by its id
(a match of the demo or the terminal: "offline", the person at the terminal "terminal player").
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

from engine.cli import EXIT_STATUS
from render.animation import DEFAULT_BYTE_LIMIT, ReplayError

from .. import games
from ..match import MatchService, NotFoundError, ServiceError, replays
from ..ops.check import file_schema_version
from ..storage import DatabaseTooNewError
from ..storage.db import SqliteDatabase, read_problem
from ..storage.db_url import is_postgres_url
from ..storage.schema import SCHEMA_VERSION
from . import OFFLINE_GUILD
from .common import out_arg

PROG = "python -m bot replay"


class WouldOverwrite(Exception):
    """A file of the match is already in the output folder (``args[0]``, its path)."""


async def write_match(db_path: Path, out: Path, number: int | None, *,
                      byte_limit: int = DEFAULT_BYTE_LIMIT, force: bool = False
                      ) -> tuple[Path, Path, str | None]:
    """Write match ``number`` (None: the newest finished) of the database ``db_path`` into
    ``out``; returns the record's and the animation's paths and the animation's note.
    Files of that match already in ``out`` are overwritten only with ``force``.

    Raises:
        ServiceError: no finished match, an unknown one, or one in progress.
        WouldOverwrite: ``out/match-N.txt`` or ``.gif`` exists and ``force`` is False
            (nothing was written).
        ReplayError: the match ended before its first round, or ``byte_limit`` too small.
    """
    db = await SqliteDatabase.open_read_only(db_path)
    try:
        service = MatchService(db)
        if number is None:
            match = await service.newest_finished()
            if match is None:
                raise ServiceError(f"{db_path} holds no finished match yet")
        else:
            match = await service.get_match(number)
            match = await replays.finished_match(service, match.guild_id, match.channel_id,
                                                 number)
        record, gif = out / f"match-{match.id}.txt", out / f"match-{match.id}.gif"
        there = [p for p in (record, gif) if p.exists()]
        if there and not force:
            raise WouldOverwrite(there[0])
        offline = match.guild_id == OFFLINE_GUILD
        names = [(f"AI ({p.ai})" if p.ai else "terminal player" if offline
                  else f"user {p.user_id}") for p in match.players]
        server = "offline" if offline else f"server {match.guild_id}"
        text = await replays.record_text(service, match, server=server, players=names)
        anim = await games.plugin(match.game).offline().replay_animation(
            service, match, byte_limit=byte_limit)
    finally:
        await db.close()
    out.mkdir(parents=True, exist_ok=True)
    record.write_text(text, encoding="utf-8")
    gif.write_bytes(anim.data)
    return record, gif, anim.note


def _unreadable(db_path: Path) -> str | None:
    """Why ``db_path`` is not a bot database this command can read, found read-only (an export
    never creates, migrates or writes the file it is given); None when it is one."""
    problem = read_problem(db_path)
    if problem is not None:
        return f"cannot read {db_path}: {problem}"
    if not db_path.exists():
        return f"{db_path}: no such file"
    if not db_path.is_file():
        return f"{db_path} is a folder, not the bot's database file"
    try:
        version = file_schema_version(db_path)
    except sqlite3.DatabaseError:
        return f"{db_path} is not a SQLite database"
    if not version:
        return f"{db_path} is not the bot's database: it holds no Raptor tables"
    if version > SCHEMA_VERSION:
        return str(DatabaseTooNewError(str(db_path), version, SCHEMA_VERSION))
    return None


def _mebibytes(text: str) -> float:
    """``--limit``: a positive number of MiB (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of MiB") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError("the limit must be a positive number of MiB")
    return value


def main(argv: list[str] | None = None) -> int:
    """``python -m bot replay``: see the module docstring. Returns the exit status."""
    parser = argparse.ArgumentParser(prog=PROG,
                                     description="Write a finished match's record and "
                                                 "animation from the bot's database, as "
                                                 "OUT/match-N.txt and OUT/match-N.gif.",
                                     epilog=f"{EXIT_STATUS}.")
    parser.add_argument("--db", required=True, help="the bot's SQLite database file")
    parser.add_argument("--match", type=int, help="match number (default: the newest "
                                                  "finished match)")
    parser.add_argument("--out", type=out_arg, required=True,
                        help="output folder (not empty: '.' is the current one)")
    parser.add_argument("--force", action="store_true",
                        help="overwrite match-N.txt and match-N.gif already in the folder "
                             "(default: refuse, and write nothing)")
    parser.add_argument("--limit", type=_mebibytes, default=DEFAULT_BYTE_LIMIT / 2**20,
                        help="largest animation in MiB (default 10)")
    args = parser.parse_args(argv)
    if is_postgres_url(args.db):
        print(f"{PROG}: --db is the bot's SQLite file; a match of a PostgreSQL database is "
              "replayed in Discord with /raptor replay", file=sys.stderr)
        return 2
    args.db = Path(args.db)
    reason = _unreadable(args.db)
    if reason is not None:
        print(f"{PROG}: {reason}", file=sys.stderr)
        return 2
    try:
        record, gif, note = asyncio.run(write_match(args.db, args.out, args.match,
                                                    byte_limit=int(args.limit * 2**20),
                                                    force=args.force))
    except WouldOverwrite as exc:
        print(f"{PROG}: {exc.args[0]} already exists (perhaps another database's match): "
              "--force overwrites it; nothing was written", file=sys.stderr)
        return 2
    except NotFoundError:
        print(f"{PROG}: {args.db} has no match #{args.match}", file=sys.stderr)
        return 2
    except ServiceError as exc:
        print(f"{PROG}: {exc.message}", file=sys.stderr)
        return 2
    except ReplayError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except (OSError, sqlite3.DatabaseError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {record} (the match record) and {gif} (its animation).")
    if note:
        print(note)
    return 0
