"""Command line for the engine.

``python -m engine selfplay --games N --seed S``: random legal play; prints results by victory
condition, rounds per game, decisions and games per second.
``python -m engine show --seed S [--environment E] [--layout L] [--setup quick|manual]``:
prints a new game's diagram (on stdout, readable by ``engine.from_diagram``) and a legend of
its grid characters (on stderr).
``python -m engine replay RECORD``: checks a match record (``docs/RECORD.md``; ``-`` reads
stdin) by replaying it, and prints one line per round and the ending in words; a record it
refuses gets one line naming the line and the reason. The engine draws no images (it imports
nothing of the renderer): ``python -m render replay RECORD --out DIR`` writes them.

Exit status (:data:`engine.cli.EXIT_STATUS`, as ``python -m bot`` and ``python -m render``): 0 done,
2 a usage error (a bad option, or a file refused in one line: a record that cannot be read or is
refused), 1 the reader of stdout went away (``| head``), 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shlex
import statistics
import sys
import time
from collections import Counter

from . import apply, legal_actions, new_game, to_act, to_diagram
from .cli import EXIT_STATUS, MAX_SEED, seed_arg
from .diagram import LEGEND
from .geometry import ENVIRONMENTS
from .messages import Text
from .record import Ending, MatchRecord, MatchRecordError, ending_banner, read_record, rounds_played
from .state import LAYOUTS, REASON_WORDS, SETUPS, SIDE_NAMES, Reason, Side


def selfplay(games: int, seed: int, max_rounds: int = 5000) -> dict:
    """Play ``games`` random legal games (quick setup) from seeds ``seed..seed+games-1``.

    Returns:
        A dict with ``endings`` (Counter of the endings in words, :func:`win_text`'s
        ``"Scientist wins: three babies were captured"``, or ``"unfinished"``), ``rounds``
        (list, one per game), ``decisions`` (int) and ``seconds`` (float).
    """
    endings: Counter[str] = Counter()
    rounds: list[int] = []
    decisions = 0
    t0 = time.perf_counter()
    for g in range(seed, seed + games):
        s = new_game(g, setup="quick")
        rng = random.Random(g)
        while not s.is_over and s.round <= max_rounds:
            side = min(to_act(s))
            s = apply(s, side, rng.choice(legal_actions(s, side)))
            decisions += 1
        endings[str(win_text(s.winner, s.reason)) if s.is_over else "unfinished"] += 1
        rounds.append(s.round)
    return {"endings": endings, "rounds": rounds, "decisions": decisions,
            "seconds": time.perf_counter() - t0}


def games_arg(text: str) -> int:
    """argparse type: a positive whole number of games."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("--games must be at least 1")
    return value


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (130 after Ctrl-C, 1 when the reader of
    stdout went away, e.g. ``| head``: quietly, as ``python -m bot demo`` and ``play`` do)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # no traceback as the buffer empties
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


SHOW_NOTICE = ("This diagram shows hidden information: both hands and both deck orders "
               "(the 'hand' and 'deck' lines), which no player sees in a game.\n")


def _main(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine", description="The Raptor rules engine's command line.",
        epilog=f"'python -m engine COMMAND --help' shows a command's options. {EXIT_STATUS}.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sp = sub.add_parser(
        "selfplay", help="random legal play: endings, rounds per game, speed",
        description="Play random legal games (quick setup) from seeds S, S+1, ... and print "
                    "how they ended (by victory condition), the rounds per game and the "
                    "engine's speed in decisions and games per second.")
    sp.add_argument("--games", type=games_arg, default=100, help="how many games (default 100)")
    sp.add_argument("--seed", type=seed_arg, default=1,
                    help="seed of the first game; game i uses seed S+i (default 1)")
    sh = sub.add_parser(
        "show", help="print a new game's diagram, hands and decks included",
        description="Print a new game's position as a text diagram on stdout (readable back "
                    "by engine.from_diagram; the format is in engine/diagram.py) and a legend "
                    "of its characters on stderr. The diagram shows hidden information: both "
                    "hands and both deck orders.")
    sh.add_argument("--seed", type=seed_arg, default=1,
                    help="game seed: fixes the layout, hands and decks (default 1)")
    sh.add_argument("--environment", choices=ENVIRONMENTS, default="jungle",
                    help="the tiles' face (default jungle)")
    sh.add_argument("--layout", choices=LAYOUTS, default="random",
                    help="random: tiles and exits placed from the seed; standard: the "
                         "rulebook's first-game layout (default random)")
    sh.add_argument("--setup", choices=SETUPS, default="quick",
                    help="quick: the figurines placed at random from the seed; manual: an "
                         "empty board waiting for the placements (default quick)")
    rp = sub.add_parser(
        "replay", help="check a match record and print its rounds",
        description="Read a match record (docs/RECORD.md), replay it with the engine and "
                    "print one line per round and the ending, or the line it refuses and "
                    "why. The engine draws no images: python -m render replay RECORD --out "
                    "DIR writes them.", epilog=f"{EXIT_STATUS}.")
    rp.add_argument("record", help="the record file, or - for stdin")
    rp.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.record, args.out)
    if args.command == "show":
        sys.stdout.write(to_diagram(new_game(args.seed, environment=args.environment,
                                             layout=args.layout, setup=args.setup)))
        sys.stdout.flush()
        sys.stderr.write(SHOW_NOTICE + LEGEND)
        return 0
    if args.seed + args.games - 1 > MAX_SEED:
        sp.error(f"the last game's seed ({args.seed} + {args.games} - 1) would be above "
                 f"{MAX_SEED}: lower --seed or --games")
    r = selfplay(args.games, args.seed)
    rounds = r["rounds"]
    games = "game" if args.games == 1 else "games"
    print(f"{args.games} {games} from seed {args.seed}, random legal play")
    for ending, n in r["endings"].most_common():
        print(f"  {ending:<52} {n:6d}  {100 * n / args.games:5.1f} %")
    print(f"rounds per game: median {statistics.median(rounds):.0f}, mean "
          f"{statistics.fmean(rounds):.0f}, max {max(rounds)}; over 300: "
          f"{sum(1 for x in rounds if x > 300)}")
    print(f"{r['decisions']} decisions in {r['seconds']:.2f} s: "
          f"{r['decisions'] / r['seconds']:,.0f} decisions/s, "
          f"{args.games / r['seconds']:.1f} games/s")
    return 0


#: The first bytes of every SQLite database file (the bot's database, ``demo.sqlite3``).
SQLITE_HEADER = b"SQLite format 3\x00"


def load_record(path: str) -> MatchRecord:
    """Read and check the record in file ``path`` (``-``: stdin).

    Raises:
        OSError: the file cannot be read.
        MatchRecordError: the record is refused (see :func:`engine.read_record`); a SQLite
            database (the bot's or the demo's), with the command that writes its records.
    """
    if path == "-":
        text = sys.stdin.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
        if data.startswith(SQLITE_HEADER):
            raise MatchRecordError(0, "", "this is a database (the bot's or the demo's), not a "
                                   f"match record: python -m bot replay --db {shlex.quote(path)} "
                                   "--out DIR writes the record and animation of its newest "
                                   "finished match (--match N for another)")
        text = data.decode("utf-8", errors="replace")
    return read_record(text)


def round_summaries(record: MatchRecord) -> list[str]:
    """One line per round of a checked record, then its ending."""
    out = []
    for s in record.round_states():
        # a state after its round ended (a new round's pick not begun) tells that round; the
        # game's end or a match stopped during a round, the round it is in
        number = rounds_played(s)
        events = s.round_events if number == s.round else s.last_round_events
        revealed = next((e for e in events if e.kind == "revealed"), None)
        cards = (f"raptor {revealed.value} vs scientist {revealed.value2}" if revealed
                 else "no cards revealed")
        out.append(f"round {number}: {cards} · escaped {s.escaped}/3 · captured "
                   f"{s.captured}/3 · sleep {s.sleep_tokens}/5 · killed {s.killed}")
    out.append(str(ending_line(record)))
    return out


def win_text(winner: Side, reason: Reason) -> Text:
    """A game won under the rules (R6), in words: ``"Scientist wins: three babies were
    captured"``; never the internal names (``babies_captured``)."""
    return Text("{winner} wins: {reason}", winner=SIDE_NAMES[winner], reason=REASON_WORDS[reason])


def ending_line(record: MatchRecord) -> Text:
    """How a checked record's match ended, in words, and after how many rounds: ``"Scientist
    wins: three babies were captured, after 13 rounds: the record checks"``, ``"No result:
    the player stopped the match, after 1 round: the record checks"``."""
    if isinstance(record.reason, Ending):
        outcome = ending_banner(record.result, record.reason)
    else:
        outcome = win_text(Side(record.result), record.reason)
    return Text.plural("{outcome}, after {n} round: the record checks",
                       "{outcome}, after {n} rounds: the record checks", record.rounds,
                       outcome=outcome)


def replay_command(path: str, out: str | None) -> int:
    """``python -m engine replay``: see the module docstring. Returns the exit status."""
    if out is not None:
        print("engine replay: the engine draws no images; python -m render replay RECORD "
              "--out DIR checks the record and writes them", file=sys.stderr)
        return 2
    try:
        record = load_record(path)
    except OSError as exc:
        print(f"engine replay: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except MatchRecordError as exc:
        print(f"engine replay: {path}: {exc}", file=sys.stderr)
        return 2
    for line in round_summaries(record):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
