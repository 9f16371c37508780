"""What every game's offline modes share: their command-line arguments (``--game``,
``--lang``, ``--out``, ``--budget``, seeds), the folder lock, the console, and how an
offline command runs to its end (Ctrl-C, SIGTERM, a full disk, a folder in use, a reader
gone from the pipe: one line on stderr, never a traceback)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import math
import os
import signal
import sqlite3
import sys
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

from engine.cli import seed_arg  # seeds 0..2**63-1, the same for every command
from engine.messages import Text

from .. import games
from ..i18n import ENGLISH, LANGUAGES, from_environment, tr
from ..match import Match, MatchService
from ..settings import MAX_AI_TIME_BUDGET
from . import OFFLINE_GUILD, TERMINAL_AI, TERMINAL_CHANNEL, TERMINAL_PLAYER

__all__ = ["add_game_option", "add_lang_option", "console_echo", "folder_lock", "lang_arg",
           "out_arg", "run_offline", "seconds_arg", "seed_arg", "silence_stdout", "split_game"]

#: The game an offline command plays when none is named.
DEFAULT_GAME = "raptor"


def split_game(argv: list[str] | None, prog: str) -> tuple[str, list[str]]:
    """The game named by ``--game NAME`` (or ``--game=NAME``) in ``argv`` (default
    :data:`DEFAULT_GAME`) and the other arguments, for the game's own parser.

    Raises:
        SystemExit: (status 2, one line on stderr starting with ``prog``) an unknown game.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    game = DEFAULT_GAME
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--game" and i + 1 < len(args):
            game, i = args[i + 1], i + 2
            continue
        if arg.startswith("--game="):
            game, i = arg.split("=", 1)[1], i + 1
            continue
        rest.append(arg)
        i += 1
    if game not in games.names():
        print(f"{prog}: unknown game {game!r}: the games are "
              f"{', '.join(games.names())}", file=sys.stderr)
        raise SystemExit(2)
    return game, rest


def add_game_option(parser: argparse.ArgumentParser, game: str) -> None:
    """``--game`` in a game's own parser (:func:`split_game` has read it already): shown in
    ``--help`` with the games there are."""
    parser.add_argument("--game", choices=games.names(), default=game,
                        help=f"the game (default {DEFAULT_GAME}; each game has its own "
                             "options: --game NAME --help)")


def lang_arg(text: str) -> str:
    """argparse type: ``en`` or ``zh-TW`` (any letter case, ``zh_TW`` too)."""
    for lang in LANGUAGES:
        if text.replace("_", "-").lower() == lang.lower():
            return lang
    raise argparse.ArgumentTypeError(f"{text!r}: the languages are {', '.join(LANGUAGES)}")


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    """``--lang en|zh-TW``, by default the environment's locale (:func:`from_environment`)."""
    parser.add_argument("--lang", type=lang_arg, default=None, metavar="en|zh-TW",
                        help="language of the console lines, the log and the images "
                             f"(default: the environment's locale, now {from_environment()})")


def seconds_arg(text: str) -> float:
    """argparse type: a finite number of seconds > 0, at most the bot's own limit
    (``RAPTOR_AI_TIME_BUDGET``, :data:`bot.settings.MAX_AI_TIME_BUDGET`)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= MAX_AI_TIME_BUDGET):
        raise argparse.ArgumentTypeError(
            f"the budget must be more than 0 and at most {MAX_AI_TIME_BUDGET:g} s")
    return value


def out_arg(text: str) -> Path:
    """argparse type: an output folder path (not empty, not an existing file). An empty path
    is refused rather than read as the current folder: it is most likely an unset shell
    variable (``--out "$DIR"``), and ``.`` says the current folder plainly."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the folder name is empty: give one ('.' is the "
                                         "current folder)")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a folder")
    return path


def silence_stdout() -> None:
    """Send what is still written to stdout (and its buffer, as the process exits) to
    ``os.devnull``: the reader of a pipe has gone (``| head``), and a write or the final flush
    would raise BrokenPipeError again."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def console_echo() -> Callable[[str], None]:
    """A line printer for the demo's console (flushed: one line per round as it ends) that
    stops printing, quietly, once the reader of stdout has gone (``python -m bot demo |
    head -1``): the demo still writes all its files and ends with status 0."""
    gone = False

    def echo(line: str) -> None:
        nonlocal gone
        if gone:
            return
        try:
            print(line, flush=True)
        except BrokenPipeError:
            gone = True
            silence_stdout()

    return echo


@contextlib.contextmanager
def folder_lock(out: Path) -> Iterator[None]:
    """Hold ``out/.lock`` so two runs never write into one folder at once.

    Raises:
        BlockingIOError: another run holds the folder.
    """
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


async def start_terminal_match(service: MatchService, *, game: str, seat: int | None,
                               level: str, options: dict[str, str], seed: int | None,
                               seats: int | None = None) -> Match:
    """The terminal game's new practice of ``game``: the person at the terminal at ``seat``
    (None: drawn), the AI at ``level`` at the other seats. A match the terminal left
    unfinished (its process was killed) cannot resume: it is stopped first."""
    old = await service.active_match(TERMINAL_CHANNEL)
    if old is not None:
        await service.stop(old.id)
    return await service.start_practice(OFFLINE_GUILD, TERMINAL_CHANNEL, TERMINAL_PLAYER,
                                        game=game, seat=seat, level=level, options=options,
                                        seats=seats, ai_user_id=TERMINAL_AI, seed=seed)


def run_offline(main: Coroutine[Any, Any, Any], *, command: str, out: Path, busy: str,
                lang: str = ENGLISH) -> int:
    """Run an offline command's coroutine (the demo, the terminal mode) to its end.

    Ctrl-C or SIGTERM (the same lines, then "Stopped." in ``lang``), a folder in use by another run
    (``busy``, with ``{out}`` for the folder), files that cannot be written (a full disk included)
    and a file that is not a database each end with one line on stderr prefixed by ``command``,
    never a traceback; a reader gone from the pipe ends it quietly (the demo's :func:`console_echo`
    stops printing instead and the demo goes on).

    Returns:
        The exit status: 0 done, 1 a failure above, 130 after Ctrl-C, 143 after SIGTERM.
    """
    interrupts = 0
    status = 130  # 143 when SIGTERM stopped it

    async def interruptible() -> Any:
        # Ctrl-C (SIGINT) and SIGTERM through the loop's own signal handling: the signal wakes
        # the loop even when it lands on another thread (the terminal's input thread, the
        # database's), which asyncio.run's plain handler would only notice at the loop's next
        # event
        task = asyncio.current_task()
        assert task is not None

        def on_stop(code: int) -> None:
            nonlocal interrupts, status
            interrupts += 1
            if interrupts > 1:
                raise KeyboardInterrupt  # a second signal: stop without the clean-up
            status = code
            task.cancel()

        loop = asyncio.get_running_loop()
        for signum, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, on_stop, code)
        return await main

    try:
        asyncio.run(interruptible())
    except (KeyboardInterrupt, asyncio.CancelledError) as exc:
        if isinstance(exc, asyncio.CancelledError) and not interrupts:
            raise
        print("\n" + tr(Text("Stopped."), lang), file=sys.stderr)
        return status
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        silence_stdout()
        return 1
    except BlockingIOError:
        print(f"{command}: {busy.format(out=out)}", file=sys.stderr)
        return 1
    except (OSError, sqlite3.OperationalError) as exc:  # e.g. "database or disk is full"
        print(f"{command}: cannot write to {out}: {exc}", file=sys.stderr)
        return 1
    except sqlite3.DatabaseError as exc:  # e.g. "file is not a database"
        print(f"{command}: cannot use the database in {out}: {exc}", file=sys.stderr)
        return 1
    return 0
