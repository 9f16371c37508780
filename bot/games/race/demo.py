"""The race's offline demo: a whole race of AI seats through the real stack, no Discord.

``python -m bot demo --game race [--players N] [--seed S] [--board desert|jungle]
[--level L] [--out DIR] [--lang en|zh-TW] [--budget S]``

Every seat is the AI at one level (:data:`DEFAULT_LEVEL` by default: seats of one level
make a contested race), each decision with a fixed amount of work
(:data:`DEFAULT_ITERATIONS` positions of the hard search), so a seed gives the same race on
any machine; ``--budget`` puts the AI on the clock instead.

The race runs through the same :class:`~bot.match.MatchService`, SQLite storage (a file in
DIR) and renderer the bot uses. It writes ``DIR/start.png`` (the start, the first roll
made), ``DIR/turn-NNN.png`` after every turn (the track with that turn's steps and its dice
used, :func:`render.race.replay.replay_frame`), ``DIR/final.png`` (the finish with the
placing and the points), a text log ``DIR/demo.log`` (every decision in notation, a line
per turn, written as the race goes; at the end the result with every card, and the final
diagram), the race record ``DIR/match.txt`` (``docs/RACE_RECORD.md``), its animation
``DIR/replay.gif`` (a frame per turn), the database ``DIR/demo.sqlite3`` and an empty
``DIR/.lock`` (:func:`~bot.offline.common.folder_lock`); it prints one line per turn and
the result. The Top-3 cards are printed and logged only once the race is over (RR9.2).

``--lang en|zh-TW`` (default: the environment's locale) writes the lines, the log and the
images in that language; the notation is the same in both.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path

import engine.race as race
from engine.race import RaceState

from ...i18n import Translator, from_environment, translator
from ...match import Match, MatchService, replays
from ...offline import OFFLINE_GUILD
from ...offline.common import (
    add_game_option,
    add_lang_option,
    console_echo,
    folder_lock,
    out_arg,
    run_offline,
    seconds_arg,
    seed_arg,
)
from ...storage.db import SqliteDatabase
from ...texts import LEVEL_WORDS, plain
from . import PLUGIN as RACE_GAME
from . import texts
from .ai import DEFAULT_NODES
from .history import race_animation
from .lines import TurnLog, namer, result_lines

#: Every seat's AI level: seats of one level make a contested race.
DEFAULT_LEVEL = "hard"
#: The seats of the demo's race.
DEFAULT_PLAYERS = 4
#: The AI's fixed work per decision (``iterations`` of its ``choose_action``): the hard
#: search's default number of positions, so the same seed gives the same race anywhere.
DEFAULT_ITERATIONS = DEFAULT_NODES
DEFAULT_SEED = 1
DEMO_CHANNEL = 1
#: The AI seats' user ids, by seat.
AI_USERS = (101, 102, 103, 104, 105)


async def play_demo(out: Path, *, seed: int = DEFAULT_SEED, players: int = DEFAULT_PLAYERS,
                    level: str = DEFAULT_LEVEL, board: str = "desert",
                    time_budget: float | None = None,
                    iterations: int | None = DEFAULT_ITERATIONS,
                    echo: Callable[[str], None] = print, lang: str = "en") -> dict:
    """Play one race of AI seats into ``out`` (created if needed) and return a summary:
    ``match_id``, ``turns``, ``places`` and ``scores`` (by seat), ``reason``, ``pngs``
    (the start, then one per turn), ``final`` (final.png), ``log``, ``record``, ``gif``,
    ``animation`` (:class:`render.animation.Animation`), ``db`` (paths), ``seconds``.

    ``time_budget``: seconds per decision on the clock; without it the AI does
    ``iterations`` of fixed work per decision. ``lang``: the language of the lines, the
    log and the images.

    Raises:
        OSError: ``out`` cannot be written.
        BlockingIOError: another run is writing into ``out``.
    """
    with folder_lock(out):
        return await _play_demo(out, seed=seed, players=players, level=level, board=board,
                                time_budget=time_budget,
                                iterations=None if time_budget is not None else iterations,
                                echo=echo, _=translator(lang))


async def start_demo_match(service: MatchService, *, seed: int, players: int, level: str,
                           board: str) -> Match:
    """The demo's race in ``service``: ``players`` AI seats at ``level`` on ``board``,
    dealt and rolled by ``seed``; drive it with :meth:`~bot.match.MatchService.play_ai`."""
    return await service.start_ai_match(
        OFFLINE_GUILD, DEMO_CHANNEL, game=RACE_GAME.name, levels=[level] * players,
        ai_user_ids=list(AI_USERS[:players]), options={"board": board}, seed=seed)


def _clear(out: Path) -> Path:
    """Remove what an earlier demo left in ``out``; the database's path."""
    db_path = out / "demo.sqlite3"
    for stale in [db_path, out / "final.png", out / "start.png", out / "demo.log",
                  out / "match.txt", out / "replay.gif", *out.glob("turn-*.png")]:
        stale.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    return db_path


async def _play_demo(out: Path, *, seed: int, players: int, level: str, board: str,
                     time_budget: float | None, iterations: int | None,
                     echo: Callable[[str], None], _: Translator) -> dict:
    from render.animation import frames
    from render.png import png_bytes  # the renderer is heavy: loaded when the demo runs
    from render.race import render_track
    from render.race.replay import replay_frame

    tr = _.text  # the images' language
    db_path = _clear(out)
    t0 = time.perf_counter()
    db = await SqliteDatabase.open(db_path)
    stack = contextlib.ExitStack()
    try:
        service = MatchService(db, ai_time_budget=time_budget or 2.0, ai_iterations=iterations)
        match = await start_demo_match(service, seed=seed, players=players, level=level,
                                       board=board)
        log_path = out / "demo.log"
        log = stack.enter_context(log_path.open("w", encoding="utf-8"))

        def write_log(*lines: str) -> None:
            log.write("".join(line + "\n" for line in lines))

        words = {"seed": seed, "n": players, "level": LEVEL_WORDS.get(level, level),
                 "board": texts.board_name(match)}
        write_log(_("Raptor Race offline demo: seed {seed}, {n} AI seats ({level}), {board}",
                    **words),
                  _("match {id}, database {db}", id=match.id, db=db_path.name),
                  plain(_.text(texts.match_start_line(match, namer()))), "")
        log.flush()
        echo(_("Raptor Race demo: {n} AI seats ({level}), {board}, seed {seed}", **words))
        state: RaceState = match.state
        pngs = [out / "start.png"]
        pngs[0].write_bytes(png_bytes(replay_frame(race.view(state, None), first=True,
                                                   tr=tr)))
        turns = TurnLog(_)
        while True:
            results = await service.play_ai(match.id, max_steps=1)
            if not results:
                break
            for res in results:
                after: RaceState = res.match.state
                write_log(_("[turn {n}] seat {seat}: {notation}", n=state.turn,
                            seat=res.seat + 1, notation=race.format_action(res.action)))
                if turns.add(state, res.seat, res.action, after):
                    line = turns.line(res.match, after)
                    write_log(line, "")
                    log.flush()  # an interrupted demo keeps the log of the turns played
                    echo(line)
                    png = out / f"turn-{state.turn:03d}.png"
                    png.write_bytes(png_bytes(replay_frame(race.view(after, None), tr=tr)))
                    pngs.append(png)
                state = after
        final = await service.get_match(match.id)
        state = final.state
        final_png = out / "final.png"
        final_png.write_bytes(render_track(race.view(state, None), tr=tr))
        for line in result_lines(final, _):
            echo(line)
        write_log(*result_lines(final, _), "",
                  _("Final position, every card shown: the race is over."),
                  race.to_diagram(state))
        log.close()
        record_path, gif_path, animation = await _write_replay(service, final, out, tr)
        seconds = time.perf_counter() - t0
        names = f"{pngs[1].name} … {pngs[-1].name}" if len(pngs) > 2 else pngs[-1].name
        echo(_.plural("Wrote start.png, {n} track image after each turn ({names}), final.png, "
                      "{log}, {record} (the race record), {gif} ({frames}) and {db} to {out} "
                      "in {seconds:.1f} s.",
                      "Wrote start.png, {n} track images after each turn ({names}), "
                      "final.png, {log}, {record} (the race record), {gif} ({frames}) and "
                      "{db} to {out} in {seconds:.1f} s.", len(pngs) - 1, names=names,
                      log=log_path.name, record=record_path.name, gif=gif_path.name,
                      frames=frames(animation.frames), db=db_path.name,
                      out=os.path.join(out, ""), seconds=seconds))
        return {"match_id": final.id, "turns": state.turn,
                "places": tuple(p.place for p in final.players),
                "scores": tuple(p.score for p in final.players), "reason": final.reason,
                "pngs": pngs, "final": final_png, "log": log_path, "db": db_path,
                "record": record_path, "gif": gif_path, "animation": animation,
                "seconds": seconds}
    finally:
        stack.close()
        await db.close()


async def _write_replay(service: MatchService, match: Match, out: Path,
                        tr: Callable) -> tuple[Path, Path, object]:
    """Write the finished race's record ``out/match.txt`` (read back to check it) and its
    animation ``out/replay.gif``; returns both paths and the animation."""
    players = [plain(tr(texts.player(match, s))) for s in range(match.seats)]
    text = await replays.record_text(service, match, server="offline", players=players)
    record_path = out / "match.txt"
    record_path.write_text(text, encoding="utf-8")
    race.read_record(text)  # the record replays to its end, or this raises
    animation = await race_animation(service, match, tr=tr)
    gif_path = out / "replay.gif"
    gif_path.write_bytes(animation.data)
    return record_path, gif_path, animation


def main(argv: list[str] | None = None) -> int:
    """``python -m bot demo --game race``: see the module docstring. Returns the exit
    status."""
    parser = argparse.ArgumentParser(prog="python -m bot demo --game race",
                                     description="Play a whole Raptor Race of AI seats "
                                                 "offline.")
    add_game_option(parser, "race")
    game = RACE_GAME.game
    parser.add_argument("--players", type=int, choices=range(game.min_seats,
                                                             game.max_seats + 1),
                        default=DEFAULT_PLAYERS, metavar=f"{game.min_seats}-{game.max_seats}",
                        help=f"how many AI seats race (default {DEFAULT_PLAYERS})")
    parser.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                        help=f"race seed (default {DEFAULT_SEED})")
    parser.add_argument("--board", choices=("desert", "jungle"), default="desert",
                        help="the side of the board (default desert)")
    parser.add_argument("--level", choices=RACE_GAME.ai_levels, default=DEFAULT_LEVEL,
                        help=f"every seat's AI level (default {DEFAULT_LEVEL})")
    parser.add_argument("--out", type=out_arg, default=Path("race-demo"),
                        help="output folder (default ./race-demo)")
    parser.add_argument("--budget", type=seconds_arg, default=None,
                        help="seconds per decision of the AI, on the clock (default: a "
                             f"fixed amount of work, {DEFAULT_ITERATIONS} positions of the "
                             "hard search, so that a seed gives the same race on any "
                             "machine)")
    add_lang_option(parser)
    args = parser.parse_args(argv)
    return run_offline(
        play_demo(args.out, seed=args.seed, players=args.players, level=args.level,
                  board=args.board, time_budget=args.budget,
                  lang=args.lang or from_environment(), echo=console_echo()),
        command="demo", out=args.out, lang=args.lang or from_environment(),
        busy="another demo is writing to {out} right now: wait for it or choose another --out "
             "folder")
