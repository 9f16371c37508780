"""The offline demo of Ratjack: a full match of AI seats through the real stack, no Discord
token needed.

``python -m bot demo --game ratjack [--players N] [--seed S] [--level L] [--decks D]
[--budget S] [--out DIR] [--lang en|zh-TW]``

Every seat is the AI at ``--level`` (default :data:`DEFAULT_LEVEL`), with a fixed amount of
work per decision (:data:`DEFAULT_ITERATIONS` determinizations of the hard level), so a seed
gives the same match on any machine; ``--budget`` puts the AI on the clock instead.

The match runs through the same :class:`~bot.match.MatchService`, SQLite storage (a file in
DIR) and renderer the bot uses. It writes ``DIR/start.png`` (the table as the match begins),
``DIR/after-turn-NNN.png`` after every turn (the public table: face-down cards as backs),
``DIR/final.png``, a text log ``DIR/demo.log`` (every turn's decisions in notation and its
story, every round's result, written as the match goes), the match record ``DIR/match.txt``
(``docs/RATJACK_RECORD.md``; ``python -m engine`` reads it back), its animation
``DIR/replay.gif`` (a frame per turn, :func:`render.ratjack.render_animation`, the same as
``python -m bot replay`` draws), the database ``DIR/demo.sqlite3`` and an empty
``DIR/.lock`` (:func:`~bot.offline.common.folder_lock`); it prints one line per turn, each
round's result and the match's. Every seat is the AI, so nothing here is hidden from a
person; still the console, the log and the images show only what the table sees (RJ11.1),
and a round's cards once it is over (RJ9.7).

``--lang`` (default: the environment's locale) writes the console lines, the log and the
images in that language; the notation is the same in both.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path

from engine.ratjack import State, format_action, seat_name, view
from engine.ratjack.cards import DEFAULT_DECKS
from engine.ratjack.rules import MAX_SEATS, MIN_SEATS

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
from . import PLUGIN as RATJACK_GAME
from .shared import add_decks_option, image_names, is_turn_end
from .texts import (
    match_result_text,
    round_end_text,
    standings_text,
    story_between,
)

DEFAULT_PLAYERS = 3
DEFAULT_LEVEL = "hard"
#: The hard level's fixed work per decision in the demo (``iterations`` of
#: :func:`bot.games.ratjack.ai.choose_action`): the same match on any machine.
DEFAULT_ITERATIONS = 8
DEMO_CHANNEL = 1
#: The AI seats' user ids, by seat.
AI_USERS = (101, 102, 103, 104)


def turn_line(before: State, after: State, names: list[str], _: Translator) -> str:
    """The console's line for a turn: its round and number, then what happened from
    ``before`` (the turn's start) to ``after`` (its end), public events only."""
    told = " ".join(_.text(t) for t in story_between(before, after, names))
    return _("Round {n}, turn {t}: {story}", n=before.round, t=before.turn, story=told)


def round_lines(after: State, names: list[str], _: Translator) -> str | None:
    """The result of the round the step to ``after`` ended (RJ9.7: every card of the players
    still in it shown), or None when no round ended."""
    result = after.last_round
    if result is None:
        return None
    return plain(_.text(round_end_text(result, names)))


async def start_demo_match(service: MatchService, *, seed: int, players: int, level: str,
                           decks: str) -> Match:
    """The demo's match in ``service``: the AI at ``level`` on each of ``players`` seats, the
    deck pair ``decks``, dealt by ``seed``; drive it with
    :meth:`~bot.match.MatchService.play_ai`."""
    return await service.start_ai_match(
        OFFLINE_GUILD, DEMO_CHANNEL, game=RATJACK_GAME.name, levels=[level] * players,
        ai_user_ids=list(AI_USERS[:players]), options={"decks": decks}, seed=seed)


async def play_demo(out: Path, *, players: int = DEFAULT_PLAYERS, seed: int = 1,
                    level: str = DEFAULT_LEVEL, decks: str = DEFAULT_DECKS,
                    time_budget: float | None = None,
                    iterations: int | None = DEFAULT_ITERATIONS,
                    echo: Callable[[str], None] = print, lang: str = "en") -> dict:
    """Play one match of AI seats into ``out`` (created if needed) and return a summary:
    ``match_id``, ``rounds``, ``turns``, ``winners`` (seats), ``reason``, ``vp``, ``pngs``
    (paths after each turn), ``log``, ``record``, ``gif`` (paths), ``animation``
    (:class:`render.animation.Animation`), ``db`` (path), ``seconds``. ``lang``: the language
    of the lines, the log and the images.

    ``time_budget``: seconds per decision on the clock; without it the hard level does
    ``iterations`` determinizations per decision.

    Raises:
        OSError: ``out`` cannot be written.
        BlockingIOError: another run is writing into ``out``.
    """
    with folder_lock(out):
        return await _play_demo(out, players=players, seed=seed, level=level, decks=decks,
                                time_budget=time_budget,
                                iterations=None if time_budget is not None else iterations,
                                echo=echo, _=translator(lang))


async def _play_demo(out: Path, *, players: int, seed: int, level: str, decks: str,
                     time_budget: float | None, iterations: int | None,
                     echo: Callable[[str], None], _: Translator) -> dict:
    from render.animation import frames
    from render.ratjack import render_animation, render_table  # heavy: loaded when needed

    tr = _.text
    db_path = out / "demo.sqlite3"
    for stale in [db_path, out / "final.png", out / "start.png", out / "demo.log",
                  out / "match.txt", out / "replay.gif", *out.glob("after-turn-*.png")]:
        stale.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    t0 = time.perf_counter()
    db = await SqliteDatabase.open(db_path)
    pngs: list[Path] = []
    stack = contextlib.ExitStack()
    try:
        service = MatchService(db, ai_time_budget=time_budget or 2.0, ai_iterations=iterations)
        match = await start_demo_match(service, seed=seed, players=players, level=level,
                                       decks=decks)
        names = image_names(match, tr)
        log_path = out / "demo.log"
        log = stack.enter_context(log_path.open("w", encoding="utf-8"))

        def write_log(*lines: str) -> None:
            log.write("".join(line + "\n" for line in lines))

        level_word = LEVEL_WORDS.get(level, level)
        write_log(_("Ratjack offline demo: seed {seed}, {n} players, AI ({level}), decks "
                    "{decks}", seed=seed, n=players, level=level_word, decks=decks),
                  _("match {id}, database {db}", id=match.id, db=db_path.name), "")
        echo(_("Ratjack demo: {n} AI players ({level}), decks {decks}, seed {seed}",
               n=players, level=level_word, decks=decks, seed=seed))

        def table(state: State) -> bytes:
            return render_table(view(state, None), names=names, tr=tr)

        (out / "start.png").write_bytes(table(match.state))
        views = [view(match.state, None)]
        turn_start = match.state
        decisions: list[tuple[int, str]] = []
        while True:
            results = await service.play_ai(match.id, max_steps=1)
            if not results:
                break
            res = results[0]
            before = match.state
            match = res.match
            decisions.append((res.seat, format_action(res.action)))
            if not is_turn_end(before, match.state):
                continue
            state = match.state
            line = turn_line(turn_start, state, names, _)
            write_log(_("[round {n}, turn {t}] {decisions}", n=turn_start.round,
                        t=turn_start.turn, decisions="; ".join(
                            f"{seat_name(q)}: {notation}" for q, notation in decisions)),
                      line)
            echo(line)
            if state.round != turn_start.round or res.game_over:
                result = round_lines(state, names, _)
                if result is not None:
                    write_log(result)
                    echo(result)
            write_log("")
            log.flush()  # an interrupted demo keeps the log of the turns played
            png = out / f"after-turn-{len(pngs) + 1:03d}.png"
            png.write_bytes(table(state))
            pngs.append(png)
            views.append(view(state, None))
            turn_start = state
            decisions = []
        final = await service.get_match(match.id)
        (out / "final.png").write_bytes(table(final.state))
        verdict = plain(_.text(match_result_text(final, names)))
        echo(verdict)
        write_log(verdict, "", plain(_.text(standings_text(final))))
        log.close()
        text = await replays.record_text(service, final, server="offline",
                                         players=names)
        record_path = out / "match.txt"
        record_path.write_text(text, encoding="utf-8")
        animation = render_animation(views, names=names, tr=tr)
        gif_path = out / "replay.gif"
        gif_path.write_bytes(animation.data)
        seconds = time.perf_counter() - t0
        shown = (f"{pngs[0].name} … {pngs[-1].name}" if len(pngs) > 1
                 else ", ".join(p.name for p in pngs))
        echo(_.plural("Wrote start.png, {n} table image after each turn ({names}), final.png, "
                      "{log}, {record} (the match record), {gif} ({frames}) and {db} to {out} "
                      "in {seconds:.1f} s.",
                      "Wrote start.png, {n} table images after each turn ({names}), "
                      "final.png, {log}, {record} (the match record), {gif} ({frames}) and "
                      "{db} to {out} in {seconds:.1f} s.", len(pngs), names=shown,
                      log=log_path.name, record=record_path.name, gif=gif_path.name,
                      frames=frames(animation.frames), db=db_path.name,
                      out=os.path.join(out, ""), seconds=seconds))
        return {"match_id": final.id, "rounds": final.state.round, "turns": len(pngs),
                "winners": sorted(final.winners), "reason": final.reason,
                "vp": list(final.state.vp), "pngs": pngs, "log": log_path, "db": db_path,
                "record": record_path, "gif": gif_path, "animation": animation,
                "seconds": seconds}
    finally:
        stack.close()
        await db.close()


def main(argv: list[str] | None = None) -> int:
    """``python -m bot demo --game ratjack``: see the module docstring. Returns the exit
    status."""
    parser = argparse.ArgumentParser(prog="python -m bot demo --game ratjack",
                                     description="Play a full Ratjack match of AI players "
                                                 "offline.")
    add_game_option(parser, "ratjack")
    parser.add_argument("--players", type=int, choices=range(MIN_SEATS, MAX_SEATS + 1),
                        default=DEFAULT_PLAYERS,
                        help=f"number of players, all AI (default {DEFAULT_PLAYERS})")
    parser.add_argument("--seed", type=seed_arg, default=1, help="game seed (default 1)")
    parser.add_argument("--level", choices=RATJACK_GAME.ai_levels, default=DEFAULT_LEVEL,
                        help=f"the AI's level for every seat (default {DEFAULT_LEVEL})")
    add_decks_option(parser)
    parser.add_argument("--out", type=out_arg, default=Path("ratjack-demo"),
                        help="output folder (default ./ratjack-demo)")
    parser.add_argument("--budget", type=seconds_arg, default=None,
                        help="seconds per decision of the hard level, on the clock (default: "
                             f"a fixed amount of work, {DEFAULT_ITERATIONS} determinizations, "
                             "so that a seed gives the same match on any machine)")
    add_lang_option(parser)
    args = parser.parse_args(argv)
    return run_offline(
        play_demo(args.out, players=args.players, seed=args.seed, level=args.level,
                  decks=args.decks, time_budget=args.budget,
                  lang=args.lang or from_environment(), echo=console_echo()),
        command="demo", out=args.out, lang=args.lang or from_environment(),
        busy="another demo is writing to {out} right now: wait for it or choose another --out "
             "folder")
