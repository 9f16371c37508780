"""Entry point: ``python -m bot [demo|play|check|backup|replay|migrate-to] [args...]``.

* no subcommand: connect to Discord and serve the slash commands (needs ``DISCORD_TOKEN``);
* ``demo``: an offline AI-vs-AI match through the real stack (``bot.offline.demo``);
* ``play``: a match in the terminal (``bot.offline.terminal``);
* ``check``: validate the settings and the database before a deployment (``bot.ops.check``);
* ``backup FILE``: a consistent copy of the live database (``bot.ops.backup``);
* ``replay --db FILE [--match N] --out DIR``: a finished match's record and animation
  (``bot.offline.replay``);
* ``migrate-to URL``: copy the SQLite database into an empty PostgreSQL one
  (``bot.ops.migrate_to``).

Arguments after the command go to that command's own parser (``python -m bot demo -h``).
Exit status (:data:`EXIT_STATUS`, in ``--help``): 0 success (the bot: also after a stop by
SIGTERM or Ctrl-C), 2 a usage or configuration problem said in one line (as argparse's own
usage errors, and as ``python -m engine`` and ``python -m render``), 1 a failure while
running (a full disk, a folder in use, a part that is not available, a reader gone from
stdout), 130 after a Ctrl-C (143 after SIGTERM in ``demo`` and ``play``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

NO_TOKEN_MESSAGE = """\
DISCORD_TOKEN is not set, so the bot cannot connect to Discord.
Set it as an environment variable or put DISCORD_TOKEN=... in a .env file in this directory
(see .env.example and the README section "Invite it").
To try the game without Discord, watch the offline demo:  python -m bot demo
or play against the AI in this terminal:  python -m bot play"""

EXIT_STATUS = ("Exit status: 0 done; 2 a usage or configuration problem, said in one line; 1 "
               "a failure while running (a full disk, a folder in use, a part not available) "
               "or the reader of stdout gone; 130 after Ctrl-C (143 after SIGTERM in demo and "
               "play).")

SUBCOMMANDS = {
    "demo": ("bot.offline.demo", "play an offline AI-vs-AI match and write images and a log"),
    "play": ("bot.offline.terminal", "play a match in this terminal"),
    "check": ("bot.ops.check", "check the settings and the database, then exit"),
    "backup": ("bot.ops.backup", "copy the live database to a new file (safe while the bot runs)"),
    "replay": ("bot.offline.replay", "write a finished match's record and animation from a "
               "database"),
    "migrate-to": ("bot.ops.migrate_to", "copy the SQLite database into an empty PostgreSQL "
                   "database"),
}


def _import_part(module: str):
    """Import ``module`` or return ``None`` when that module itself does not exist."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name == module:
            return None
        raise


def _run_bot() -> int:
    from bot.ops.check import CheckError, database_reason, settings_or_reason, write_reason

    try:
        settings = settings_or_reason()  # warnings on stderr, as check prints them
    except CheckError as error:  # every bad setting on one line, as check says it
        print(f"python -m bot: {error}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(NO_TOKEN_MESSAGE, file=sys.stderr)
        return 2
    reason = None if settings.database_url is not None else (
        database_reason(settings.db_path) or write_reason(settings.db_path))
    if reason is not None:  # the volume, the file: a configuration problem, not worth a restart
        print(f"python -m bot: {reason}", file=sys.stderr)
        return 2
    app = _import_part("bot.discord.app")
    if app is None:
        print("The Discord bot (bot.discord.app) is not available yet in this version.",
              file=sys.stderr)
        return 1
    return int(app.run(settings) or 0)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default ``sys.argv[1:]``), run the chosen command, return its status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        usage="%(prog)s [-h] [COMMAND [ARGS ...]]",
        description="Raptor board game bot. With no command, connect to Discord: that needs "
                    "the bot's token in DISCORD_TOKEN, an environment variable or a line "
                    "DISCORD_TOKEN=... in a .env file in this folder (see .env.example and the "
                    "README). The offline commands demo and play need no token.",
        epilog=f"'python -m bot COMMAND --help' shows a command's options. {EXIT_STATUS}",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, help_text) in SUBCOMMANDS.items():
        commands.add_parser(name, help=help_text, add_help=False)
    args, rest = parser.parse_known_args(argv)

    if args.command is None:
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        return _run_bot()

    module_name, _help = SUBCOMMANDS[args.command]
    module = _import_part(module_name)
    if module is None:
        print(f"'{args.command}' is not available yet ({module_name}).", file=sys.stderr)
        return 1
    return int(module.main(rest) or 0)


def entry(argv: Sequence[str] | None = None) -> int:
    """:func:`main` as the process runs it: a Ctrl-C that the command's own handling does
    not catch (while the command's modules load, or as it ends) exits with status 130 and
    "Stopped." on stderr rather than a traceback."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # a reader gone from stdout (`| head`): quietly, as demo and play
        from .offline.common import silence_stdout

        silence_stdout()  # no traceback as the buffer empties
        return 1


if __name__ == "__main__":
    sys.exit(entry())
