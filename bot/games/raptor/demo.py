"""The offline demo: a full AI-vs-AI match through the real stack, no Discord token needed.

``python -m bot demo [--seed S] [--level L | --raptor L --scientist L] [--budget S] [--out DIR]
[--environment E]``

By default the raptor is the AI's ``hard`` level and the scientist its ``easy`` one
(:data:`DEFAULT_LEVELS`: a pairing whose matches are contested, see
``benchmarks/RESULTS.md``), each with a fixed amount of work per decision
(:data:`DEFAULT_ITERATIONS`), so a seed gives the same match on any machine; ``--budget``
puts the AI on the clock instead.

The match runs through the same :class:`~bot.match.MatchService`, SQLite storage (a file in
DIR) and renderer the bot uses. It writes ``DIR/start.png`` (the starting position),
``DIR/after-round-NNN.png`` after every round (the public board image, as the bot posts it:
"After round N", with that round's highlights), ``DIR/final.png``, a text log
``DIR/demo.log`` (every action in notation, per round, written as the match goes; at the end
the final position with hands and deck order, as the game is over), the match record
``DIR/match.txt`` (``docs/RECORD.md``; ``python -m engine replay`` checks it), its
animation ``DIR/replay.gif`` (a frame per round, :func:`render.replay.render_replay`), the
database ``DIR/demo.sqlite3`` and an empty ``DIR/.lock`` (:func:`folder_lock`); it prints
one line per round and the result. Nothing here is hidden from anybody: both sides are the
AI.

``--lang en|zh-TW`` (default: the environment's locale, ``LANG``/``LC_ALL``/``LC_MESSAGES``)
writes the console lines, the log and the images in that language; the notation in the log
is the same in both.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
from engine import Side
from engine.messages import Text
from engine.predicates import ap_total, scientists_on_board
from engine.raptor_game import SEAT_SIDES, side_of

from ...i18n import Translator, from_environment, translator
from ...match import ActResult, Match, MatchService
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
from ...texts import LEVEL_WORDS
from . import PLUGIN as RAPTOR_GAME
from . import SIDE_WORDS
from . import sides as rs
from .texts import REASONS

#: The demo's levels by side: a pairing of levels whose matches are contested
#: (benchmarks/bench_demo.py: each side's win share over 50 seeds, in benchmarks/RESULTS.md).
DEFAULT_LEVELS = {Side.RAPTOR: "hard", Side.SCIENTIST: "easy"}
#: The searching levels' fixed work per decision in the demo (``iterations`` of
#: bot.ai.choose_action), the same match on any machine: 40 playouts, past which the hard
#: raptor's search decides the same (benchmarks/RESULTS.md, "The AI made faster").
DEFAULT_ITERATIONS = 40
DEMO_CHANNEL = 1
AI_USERS = {Side.RAPTOR: 101, Side.SCIENTIST: 102}
#: The environments and AI levels as the lines name them (the options stay English).
ENVIRONMENT_WORDS = {"jungle": Text("jungle"), "savannah": Text("savannah")}
EN = translator("en")


def _status(state: engine.GameState, _: Translator = EN) -> str:
    return _("escaped {escaped}/3 · captured {captured}/3 · sleep {sleep}/5 · scientists on "
             "board {scientists}", escaped=state.escaped, captured=state.captured,
             sleep=state.sleep_tokens, scientists=scientists_on_board(state.board))


def round_line(number: int, steps: list[ActResult], _: Translator = EN) -> str:
    """One line for a finished round: the revealed cards, who resolved what, the AP spent."""
    state = steps[-1].match.state
    revealed = next((e for r in steps for e in rs.events(r) if e.kind == "revealed"), None)
    if revealed is None:  # setup
        status = _status(state, _)  # (a translator among the arguments would hide the plural
        return _.plural("Setup: {n} placement · {status}",  # from the catalog's extraction)
                        "Setup: {n} placements · {status}", len(steps), status=status)
    rv, sv = revealed.value, revealed.value2
    return _("Round {n:3d}: raptor {raptor} vs scientist {scientist}: {resolution} · {status}",
             n=number, raptor=rv, scientist=sv, resolution=resolution(rv, sv, _),
             status=_status(state, _))


def resolution(raptor_card: int, scientist_card: int, _: Translator = EN) -> str:
    """What two revealed cards lead to (R5.3), e.g. ``'raptor resolves Fear ×2, scientist
    gets 3 AP'`` or ``'tie, nothing happens'``."""
    rv, sv = raptor_card, scientist_card
    if rv == sv:
        return _("tie, nothing happens")
    low = Side.RAPTOR if rv < sv else Side.SCIENTIST
    return _("{low} resolves {name}, {high} gets {n} AP", low=SIDE_WORDS[low],
             name=engine.card_name(low, min(rv, sv)), high=SIDE_WORDS[low.other],
             n=ap_total((rv, sv)))


async def play_demo(out: Path, *, seed: int = 1, level: str | None = None,
                    levels: dict[Side, str] | None = None, environment: str = "jungle",
                    time_budget: float | None = None,
                    iterations: int | None = DEFAULT_ITERATIONS,
                    echo: Callable[[str], None] = print, lang: str = "en") -> dict:
    """Play one AI-vs-AI match into ``out`` (created if needed) and return a summary dict:
    ``match_id``, ``rounds``, ``winner``, ``reason``, ``pngs`` (paths), ``log`` (path),
    ``record`` (path of match.txt), ``gif`` (path of replay.gif), ``animation``
    (:class:`render.animation.Animation`), ``db`` (path), ``seconds``. ``lang``: the language
    of the lines, the log and the images (``en`` or ``zh-TW``).

    ``level`` sets both sides' AI level, ``levels`` each side's (default
    :data:`DEFAULT_LEVELS`). ``time_budget``: seconds per decision on the clock; without
    it the searching levels do ``iterations`` of fixed work per decision.

    Raises:
        OSError: ``out`` cannot be written.
        BlockingIOError: another run is writing into ``out``.
    """
    from render import render_board

    if levels is None:
        levels = ({Side.RAPTOR: level, Side.SCIENTIST: level} if level is not None
                  else dict(DEFAULT_LEVELS))
    with folder_lock(out):
        return await _play_demo(out, render_board, seed=seed, levels=levels,
                                environment=environment, time_budget=time_budget,
                                iterations=None if time_budget is not None else iterations,
                                echo=echo, _=translator(lang))


async def start_demo_match(service: MatchService, *, seed: int, levels: dict[Side, str],
                           environment: str) -> Match:
    """The demo's match in ``service``: the AI at ``levels`` (by side) on both seats, the
    ``environment``, the quick setup (R4), dealt by ``seed``; drive it with
    :meth:`~bot.match.MatchService.play_ai`."""
    return await service.start_ai_match(
        OFFLINE_GUILD, DEMO_CHANNEL, game=RAPTOR_GAME.name,
        levels=[levels[side] for side in SEAT_SIDES],
        ai_user_ids=[AI_USERS[side] for side in SEAT_SIDES],
        options={"environment": environment, "setup": "quick"}, seed=seed)


async def _play_demo(out: Path, render_board: Callable, *, seed: int, levels: dict[Side, str],
                     environment: str, time_budget: float | None, iterations: int | None,
                     echo: Callable[[str], None], _: Translator) -> dict:
    tr = _.text  # the images' language
    db_path = out / "demo.sqlite3"
    for stale in [db_path, out / "final.png", out / "start.png", out / "demo.log",
                  out / "match.txt", out / "replay.gif",
                  *out.glob("round-*.png"), *out.glob("after-round-*.png")]:
        stale.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    t0 = time.perf_counter()
    db = await SqliteDatabase.open(db_path)
    pngs: list[Path] = []
    stack = contextlib.ExitStack()
    try:
        service = MatchService(db, ai_time_budget=time_budget or 2.0, ai_iterations=iterations)
        match = await start_demo_match(service, seed=seed, levels=levels,
                                       environment=environment)
        log_path = out / "demo.log"
        log = stack.enter_context(log_path.open("w", encoding="utf-8"))

        def write_log(*lines: str) -> None:
            log.write("".join(line + "\n" for line in lines))

        words = {"raptor": LEVEL_WORDS.get(levels[Side.RAPTOR], levels[Side.RAPTOR]),
                 "scientist": LEVEL_WORDS.get(levels[Side.SCIENTIST], levels[Side.SCIENTIST]),
                 "environment": ENVIRONMENT_WORDS.get(environment, environment)}
        write_log(_("Raptor offline demo: seed {seed}, raptor {raptor}, scientist {scientist}, "
                    "{environment}", seed=seed, **words),
                  _("match {id}, database {db}", id=match.id, db=db_path.name), "")
        log.flush()
        echo(_("Raptor demo: AI ({raptor}) vs AI ({scientist}), {environment}, seed {seed}",
               seed=seed, **words))
        (out / "start.png").write_bytes(render_board(engine.view(match.state, None), tr=tr))
        round_steps: list[ActResult] = []
        number = match.state.round
        while True:
            results = await service.play_ai(match.id, max_steps=1)
            if not results:
                break
            for res in results:
                round_steps.append(res)
                notation = engine.format_action(res.action)
                write_log(_("[round {n}] {side}: {notation}", n=number,
                            side=SIDE_WORDS[rs.acted(res)], notation=notation))
                if rs.round_ended(res) or res.game_over:
                    state = res.match.state
                    line = round_line(number, round_steps, _)
                    write_log(line, "")
                    log.flush()  # an interrupted demo keeps the log of the rounds played
                    echo(line)
                    png = out / f"after-round-{number:03d}.png"
                    png.write_bytes(render_board(engine.view(state, None), tr=tr))
                    pngs.append(png)
                    round_steps = []
                    number = state.round
        final = await service.get_match(match.id)
        state = final.state
        (out / "final.png").write_bytes(render_board(engine.view(state, None), tr=tr))
        if rs.result(final) in ("raptor", "scientist"):
            verdict = _("The {side} player wins in round {n}: {reason}.",
                        side=SIDE_WORDS[Side(rs.result(final))], n=state.round,
                        reason=REASONS.get(final.reason, final.reason))
        else:
            verdict = _("The match ended without a winner ({reason}).",
                        reason=REASONS.get(final.reason, final.reason))
        echo(verdict)
        write_log(verdict, "", _("Final position, hands and decks shown: the game is over."),
                  engine.to_diagram(state))
        log.close()
        record_path, gif_path, animation = await _write_replay(service, final, out, levels, tr)
        seconds = time.perf_counter() - t0
        from render.animation import frames  # the renderer is loaded with the first image

        names = (f"{pngs[0].name} … {pngs[-1].name}" if len(pngs) > 1
                 else ", ".join(p.name for p in pngs))
        echo(_.plural("Wrote start.png, {n} board image after each round ({names}), final.png, "
                      "{log}, {record} (the match record), {gif} ({frames}) and {db} to {out} "
                      "in {seconds:.1f} s.",
                      "Wrote start.png, {n} board images after each round ({names}), "
                      "final.png, {log}, {record} (the match record), {gif} ({frames}) and {db} "
                      "to {out} in {seconds:.1f} s.", len(pngs), names=names,
                      log=log_path.name, record=record_path.name, gif=gif_path.name,
                      frames=frames(animation.frames), db=db_path.name,
                      out=os.path.join(out, ""), seconds=seconds))
        return {"match_id": final.id, "rounds": state.round, "winner": rs.result(final),
                "reason": final.reason, "pngs": pngs, "log": log_path, "db": db_path,
                "record": record_path, "gif": gif_path, "animation": animation,
                "seconds": seconds}
    finally:
        stack.close()
        await db.close()


async def _write_replay(service: MatchService, match, out: Path, levels: dict[Side, str],
                        tr: Callable[[Any], str] = str) -> tuple[Path, Path, Any]:
    """Write the finished ``match``'s record ``out/match.txt`` and animation
    ``out/replay.gif``; returns both paths and the :class:`render.animation.Animation`."""
    from render.replay import render_replay

    actions = [(side_of(seat), action)
               for _, seat, action in await service.action_log(match.id)]
    text = engine.write_record(
        match.seed, rs.options(match), actions, result=rs.result(match), reason=match.reason,
        event=f"Raptor offline demo, match #{match.id}", server="offline",
        date=time.strftime("%Y-%m-%d", time.gmtime(match.created_at)),
        raptor=f"AI ({levels[Side.RAPTOR]})", scientist=f"AI ({levels[Side.SCIENTIST]})")
    record_path = out / "match.txt"
    record_path.write_text(text, encoding="utf-8")
    record = engine.read_record(text)
    animation = render_replay([engine.view(s, None) for s in record.round_states()], tr=tr)
    gif_path = out / "replay.gif"
    gif_path.write_bytes(animation.data)
    return record_path, gif_path, animation


def main(argv: list[str] | None = None) -> int:
    """``python -m bot demo``: see the module docstring. Returns the exit status."""
    from bot.ai.params import MEDIUM_WORK_SHARE  # lazy: the AI is heavy

    parser = argparse.ArgumentParser(prog="python -m bot demo",
                                     description="Play a full AI-vs-AI match offline.")
    add_game_option(parser, "raptor")
    parser.add_argument("--seed", type=seed_arg, default=1, help="game seed (default 1)")
    parser.add_argument("--level", choices=RAPTOR_GAME.ai_levels, default=None,
                        help="AI level for both sides, where --raptor or --scientist do "
                             "not set one (default: raptor "
                             f"{DEFAULT_LEVELS[Side.RAPTOR]}, scientist "
                             f"{DEFAULT_LEVELS[Side.SCIENTIST]})")
    parser.add_argument("--raptor", choices=RAPTOR_GAME.ai_levels, default=None,
                        help=f"the raptor's AI level (default {DEFAULT_LEVELS[Side.RAPTOR]})")
    parser.add_argument("--scientist", choices=RAPTOR_GAME.ai_levels, default=None,
                        help="the scientist's AI level (default "
                             f"{DEFAULT_LEVELS[Side.SCIENTIST]})")
    parser.add_argument("--out", type=out_arg, default=Path("raptor-demo"),
                        help="output folder (default ./raptor-demo)")
    parser.add_argument("--environment", choices=("jungle", "savannah"), default="jungle",
                        help="board environment (default jungle)")
    parser.add_argument("--budget", type=seconds_arg, default=None,
                        help="seconds per decision of the hard level, on the clock (the "
                             f"medium level takes {100 * MEDIUM_WORK_SHARE:g} %% of it; default: a "
                             f"fixed amount of work, {DEFAULT_ITERATIONS} playouts, so that a "
                             "seed gives the same match on any machine)")
    add_lang_option(parser)
    args = parser.parse_args(argv)
    levels = {side: getattr(args, side.value) or args.level or DEFAULT_LEVELS[side]
              for side in (Side.RAPTOR, Side.SCIENTIST)}
    return run_offline(
        play_demo(args.out, seed=args.seed, levels=levels, environment=args.environment,
                  time_budget=args.budget, lang=args.lang or from_environment(),
                  echo=console_echo()),
        command="demo", out=args.out, lang=args.lang or from_environment(),
        busy="another demo is writing to {out} right now: wait for it or choose another --out "
             "folder")


