"""The race's terminal mode: one person races against AI seats, typing the race's notation.

``python -m bot play --game race [--players N] [--seat K|random] [--level L]
[--board desert|jungle] [--seed S] [--out DIR] [--budget S] [--lang en|zh-TW]``

The race runs through the same match service and SQLite storage (``DIR/play.sqlite3``) as
the bot; the track image of the position is written to ``DIR/track.png`` after every turn
(its path is printed once). The screen shows the track as text (the rules' grid, RR2.6,
with the raptors' letters) and beside it whose turn it is, the dice, the last turn's steps
and the player's own Top-3 card, which only they see (RR9.2); each AI turn in one line. The
prompt says what is decided: ``rolled BGGT>`` (set dice aside, ``keep GT``), ``dice GOY>``
(use a die of the result, ``O>B4``, ``TG>C2``, ``O-``), ``booster under G>`` (``+Y>D6``).
Type ``?`` (``help``) for the legal actions with what each does, ``track`` (``t``) for the
track, ``card`` (``c``) for your card, ``undo`` to take back your last step, ``resign``
(``quit``, ``q``, ``exit``) to leave the race after a confirmation: the AI seats then race
on to the finish, and your card still scores (RR3.6); the end of input (Ctrl-D, the end of
piped input) leaves it without asking. A refusal is one line and changes nothing.

A ``--seed`` you give is shown at the start; a fresh seed is shown only when the race ends
or you stop (it fixes every card and roll), with the command that deals the same race
again. Ctrl-C or SIGTERM stops at once (:func:`~bot.offline.common.run_offline`): the race
ends there without a result, reason ``stopped``, and so does one a killed process left
unfinished when the next ``play`` starts in its folder.

``--lang en|zh-TW`` (default: the environment's locale) chooses the language of every
line; the notation is the same in both, and the Chinese words of
``engine.race.notation.CHINESE_ALIASES`` (``保留 橙橙暴``, ``橙>B4``) and full-width forms
are read too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

import engine.race as race
from engine.game import Seat
from engine.messages import Text
from engine.race import RaceState
from engine.race.diagram import grid

from ...i18n import Translator, from_environment, translator
from ...match import Match, MatchService, ServiceError
from ...offline import TERMINAL_PLAYER, console
from ...offline.common import (
    add_game_option,
    add_lang_option,
    folder_lock,
    out_arg,
    run_offline,
    seconds_arg,
    seed_arg,
    start_terminal_match,
)
from ...offline.console import (
    HELP_WORDS,
    RESIGN_WORDS,
    YES_WORDS,
    beside,
    completions,
    read_line,
    restore_terminal,
    shown_path,
    stdin_read,
    terminal_echo,
    terminal_mode,
    terminal_width,
    wrapped,
)
from ...storage.db import SqliteDatabase
from ...texts import LEVEL_WORDS, plain
from . import PLUGIN as RACE_GAME
from . import texts
from .lines import TurnLog, offline_player, result_lines, roll_text

EN = translator("en")
DEFAULT_PLAYERS = 3
TRACK_WORDS = ("track", "t", "board", "b")
CARD_WORDS = ("card", "c")
#: The words the prompt understands besides notation, for Tab completion.
COMMAND_WORDS = ("card", "help", "resign", "track", "undo", "quit")
CONFIRM_RESIGN = Text("Leave the race? The AI seats race on; your card still scores. (y/N) ")
LEGEND = Text("+ booster · ^ tree · # rock · s start space · . plain space · B G O P Y the "
              "raptors (Blue, Green, Orange, Purple, Yellow)")
HELP = Text("Type your decision in notation: 'keep GT' sets dice aside ('keep all', and "
            "'a' for the arrows die too), 'O>B4' moves the orange raptor with its die, "
            "'TG>C2' the green one back with a T-Rex die, 'O-' uses a die that can move "
            "nothing, '+Y>D6' gives a booster's step (a part only one action fits may be "
            "left out: 'O', 'B4'). {help} lists your legal actions, 'track' (or 't') shows "
            "the track, 'card' (or 'c') your Top-3 card, 'undo' takes back your last step, "
            "{resign} leaves the race.", help=repr("?"), resign=repr("resign"))
#: The narrowest room beside the grid for the status lines (else they go under it).
MIN_STATUS_WIDTH = 30
#: Entries quoted back in a refusal are cut to this many characters.
ECHO_LIMIT = 40


def _normal(text: str) -> str:
    """What was typed, full-width forms as ordinary ones and runs of spaces as one."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def card_line(state: RaceState, seat: Seat, _: Translator) -> str:
    """PRIVATE to ``seat`` (RR9.2): ``"your card #14: 1 Purple · 2 Green · 3 Yellow (10, 8,
    5 points; +3 for all three)"``."""
    card = state.cards[seat]
    slots = " · ".join(f"{n + 1} {_.text(texts.raptor_name(r))}"
                       for n, r in enumerate(race.CARDS[card]))
    return _("your card #{card}: {slots}", card=card, slots=slots)


def status_lines(match: Match, me: Seat, _: Translator) -> list[str]:
    """The lines beside the track: the turn and who plays, the seats in the order of play,
    the dice of the turn, a pending booster, the last turn's steps, and ``me``'s own card
    (PRIVATE to ``me``)."""
    state: RaceState = match.state
    lines = []
    if state.is_over:
        lines.append(_("turn {n} · the race is over", n=state.turn))
    else:
        lines.append(_("turn {n} · {player} to play", n=state.turn,
                       player=offline_player(match, state.seat, me)))
    seats = []
    for s in range(state.seats):
        word = (_("you") if s == me else _("left") if s in state.forfeited
                else _("AI"))
        seats.append(f"{s + 1} {word}")
    lines.append(_("seats: {seats}", seats=" · ".join(seats)))
    if state.phase is race.Phase.ROLL:
        lines.append(_("rolled: {dice}", dice=roll_text(state)))
        if state.kept:
            lines.append(_("set aside: {dice}", dice=texts.dice_text(state.kept)))
    elif state.phase is race.Phase.MOVE:
        lines.append(_("result: {dice} · used: {used}", dice=texts.dice_text(state.kept),
                       used=texts.dice_text(state.used)))
        if state.arrow_die is not None:
            lines.append(_.plural("{n} arrow left", "{n} arrows left", state.arrows_left))
        if state.pending is not None:
            lines.append(_("booster under {raptor}: another raptor steps forward",
                           raptor=state.pending.value))
    if state.steps:
        lines.append(_("this turn: {steps}", steps=", ".join(_step(s) for s in state.steps)))
    if state.last_seat is not None and not state.steps:
        lines.append(_("last turn, seat {n}: {steps}", n=state.last_seat + 1,
                       steps=", ".join(_step(s) for s in state.last_steps) or "-"))
    lines.append(card_line(state, me, _))
    return lines


def _step(step: race.Step) -> str:
    """A step as notation-like text: ``G>C4``, ``TB>B3``, ``+Y>D6``, ``O-``."""
    if step.raptor is None:
        return f"{step.by}-"
    by = step.by if step.by != step.raptor.value else ""
    return f"{by}{step.raptor.value}>{race.space_name[step.to]}"


def track_text(match: Match, me: Seat, width: int | None = None,
               _: Translator = EN) -> str:
    """The track as text (the rules' grid with the raptors' letters, and a raptor that
    crossed the line above it), with :func:`status_lines` beside it when ``width``
    (default: the terminal's) allows, else under it. Holds ``me``'s own card: for ``me``
    only."""
    state: RaceState = match.state
    rows = grid(state.track, state.raptors)
    width = terminal_width() if width is None else width
    room = width - max(map(len, rows)) - 2
    status = status_lines(match, me, _)
    if room >= MIN_STATUS_WIDTH:  # beside the grid, each line wrapped to the room left
        status = [part for line in status for part in wrapped(line, room).split("\n")]
    return "\n".join(beside(rows, status, width))


def prompt_text(state: RaceState, _: Translator) -> str:
    """What the prompt says is decided: ``rolled BGGT> ``, ``dice GOY> ``, ``booster under
    G> ``."""
    if state.phase is race.Phase.ROLL:
        return _("rolled {dice}> ", dice=roll_text(state))
    if state.pending is not None:
        return _("booster under {raptor}> ", raptor=state.pending.value)
    return _("dice {dice}> ", dice=texts.dice_text(state.left))


def legal_text(legal: Sequence[race.Action], state: RaceState, _: Translator,
               size: os.terminal_size | None = None) -> str:
    """The legal actions for ``?``: one a line with what it does when they fit in the
    terminal's height (``size``, default the terminal's), else their notation in columns."""
    return console.actions_text([race.format_action(a) for a in legal],
                                lambda i: _.text(race.describe_action(legal[i], state)),
                                size=size, width=12, _=_)


def refusal(text: str, exc: Exception, _: Translator) -> str:
    """Why ``text`` was not played, in one line: the engine's or the service's reason (it
    quotes the entry, says what is legal and reads nothing hidden, RR9.2), a long entry
    cut short; a malformed entry gets a pointer to ``?``."""
    said = exc.args[0] if exc.args and isinstance(exc.args[0], Text) else None
    message = _.text(said) if said is not None else (getattr(exc, "message", None) or str(exc))
    message = plain(_.text(message))
    if len(text) > ECHO_LIMIT:
        message = message.replace(repr(text), repr(text[:ECHO_LIMIT] + "…"))
    message = " ".join(message.split())
    if isinstance(exc, race.NotationError):
        message += _(" ('?' lists your legal actions)")
    return message


def replay_line(seed: int, me: Seat, players: int, level: str, board: str,
                _: Translator, lang: str | None = None) -> str:
    """How to race the same race again: shown only once it is over or stopped (the seed
    fixes every card and roll, RR9.2)."""
    extra = f" --lang {lang}" if lang else ""
    command = (f"python -m bot play --game race --seed {seed} --players {players} "
               f"--seat {me + 1} --level {level} --board {board}{extra}")
    return _("Seed {seed}: {command} deals this race again.", seed=seed, command=command)


def place_line(match: Match, me: Seat, _: Translator) -> str:
    """The player's own place once the race is over: ``You win!``, ``You share first
    place.``, ``You finish 3rd of 4`` (as ``place 3 of 4``)."""
    place = match.players[me].place
    if place is None:
        return _("The race ended without a result.")
    shared = sum(1 for p in match.players if p.place == place) > 1
    if place == 1:
        return _("You share first place.") if shared else _("You win!")
    return _("Your place: {place} of {n}.", place=place, n=match.seats)


async def play(out: Path, *, players: int = DEFAULT_PLAYERS, seat: Seat | None = 0,
               level: str = "easy", board: str = "desert", seed: int | None = None,
               read: Callable[[str], str] = stdin_read,
               echo: Callable[[str], None] = terminal_echo, time_budget: float = 1.0,
               lang: str = "en") -> dict:
    """Run a terminal race; returns ``{"match_id", "seat", "places", "scores", "reason",
    "turns"}``. ``seat``: the person's seat from 0 (None: drawn); ``read``/``echo`` the
    input and output functions (tests pass their own); ``lang`` the language of the lines
    (``en``, ``zh-TW``)."""
    with folder_lock(out):
        return await _play(out, players=players, seat=seat, level=level, board=board,
                           seed=seed, read=read, echo=echo, time_budget=time_budget,
                           _=translator(lang))


async def _play(out: Path, *, players: int, seat: Seat | None, level: str, board: str,
                seed: int | None, read: Callable[[str], str], echo: Callable[[str], None],
                time_budget: float, _: Translator) -> dict:
    from render.race import render_track  # the renderer is heavy: loaded when play starts

    again = None if _.lang == "en" else _.lang  # the replay line keeps a chosen language
    png = out / "track.png"

    def write_track(state: RaceState) -> None:
        png.write_bytes(render_track(race.view(state, None), tr=_.text))

    db = await SqliteDatabase.open(out / "play.sqlite3")
    m = None
    me = 0
    try:
        service = MatchService(db, ai_time_budget=time_budget)
        m = await start_terminal_match(service, game=RACE_GAME.name, seat=seat, level=level,
                                       options={"board": board}, seats=players, seed=seed)
        me = m.seat_of(TERMINAL_PLAYER)
        state: RaceState = m.state
        echo(_("Raptor Race on the {board}: you are seat {seat} of {n}; the AI ({level}) "
               "plays the other seats. Seat {first} plays first.",
               board=texts.board_name(m), seat=me + 1, n=players,
               level=LEVEL_WORDS.get(level, level), first=state.first + 1))
        echo(_.text(HELP))
        echo(_("Seed {seed}.", seed=seed) if seed is not None else
             _("Seed: shown when the race ends (it would give away the cards and the "
               "rolls now)."))
        echo(_.text(LEGEND))
        write_track(state)
        echo(_("The track image after each turn: {path}", path=shown_path(png.resolve())))
        turns = TurnLog(_)
        show_track = True
        at_prompt = False  # a stop while waiting for a line leaves the cursor after the prompt

        async def ai_turns() -> Match:
            """Let the AI seats play until the person decides or the race ends; a line
            for each AI turn, and the track image after each turn."""
            nonlocal state, show_track
            results = await service.play_ai(m.id)
            for res in results:
                after: RaceState = res.match.state
                if turns.add(state, res.seat, res.action, after):
                    echo(turns.line(res.match, after, me))
                    write_track(after)
                state = after
                show_track = True
            return await service.get_match(m.id)

        try:
            while True:
                m = await ai_turns()
                state = m.state
                if not m.active:
                    echo(track_text(m, me, _=_))
                    for line in result_lines(m, _, me):
                        echo(line)
                    echo(place_line(m, me, _))
                    echo(replay_line(m.seed, me, players, level, board, _, again))
                    return _summary(m, me)
                if me not in race.to_act(state):
                    continue
                legal = race.legal_actions(state, me)
                completions[:] = [race.format_action(a) for a in legal] + list(COMMAND_WORDS)
                if show_track:
                    echo(track_text(m, me, _=_))
                    echo(_("Your turn: {decision}.",
                           decision=plain(_.text(texts.decision_text(state)))))
                    show_track = False
                try:
                    at_prompt = True
                    text = _normal(await read_line(read, prompt_text(state, _)))
                    at_prompt = False
                except EOFError:
                    at_prompt = False
                    echo(_("End of input: you leave the race."))
                    text = "resign!"
                word = text.lower()
                if word in RESIGN_WORDS:
                    try:
                        at_prompt = True
                        answer = _normal(await read_line(read, _.text(CONFIRM_RESIGN))).lower()
                        at_prompt = False
                    except EOFError:
                        at_prompt = False
                        echo(_("End of input: you leave the race."))
                        answer = "y"
                    if answer:
                        console.forget_last()
                    if answer not in YES_WORDS:
                        echo(_("Not left: race on."))
                        continue
                    word = "resign!"
                if word == "resign!":
                    m = await service.resign(m.id, TERMINAL_PLAYER)
                    if turns.add(state, me, None, m.state):
                        turns.line(m, m.state, me)  # the person saw their own turn
                    state = m.state
                    echo(_("You left the race: the AI seats race on to the finish, and your "
                           "card still scores."))
                    continue
                if word in HELP_WORDS:
                    echo(legal_text(legal, state, _))
                    continue
                if word in TRACK_WORDS:
                    echo(track_text(m, me, _=_))
                    echo(_.text(LEGEND))
                    continue
                if word in CARD_WORDS:
                    echo(plain(_.text(texts.own_card_text(m, me))))
                    continue
                if word == "undo":
                    try:
                        m = await service.undo(m.id, TERMINAL_PLAYER)
                    except ServiceError as exc:
                        echo(_("Not done. {why}", why=plain(_.text(exc.message))))
                        continue
                    turns.undo()
                    state = m.state
                    echo(_("Taken back: your last step."))
                    show_track = True
                    continue
                try:
                    res = await service.act(m.id, TERMINAL_PLAYER, text)
                except (race.RaceError, ServiceError) as exc:
                    echo(_("Not played: {why}", why=refusal(text, exc, _)))
                    continue
                after = res.match.state
                echo(_("Played: {action} — {description}",
                       action=race.format_action(res.action),
                       description=race.describe_action(res.action, state)))
                if turns.add(state, me, res.action, after):
                    turns.line(res.match, after, me)  # the person saw their own turn
                    write_track(after)
                # the track again once the rolling is over, and for a booster's step
                show_track = after.phase is not state.phase or after.pending is not None
                state = after
        except asyncio.CancelledError:  # Ctrl-C or SIGTERM: the seed, as the end tells it
            if at_prompt:
                echo("")  # the next line starts on its own, not after the prompt
            if m is not None:
                # a stopped race cannot be resumed: it ends, without a result, as stopped
                with contextlib.suppress(ServiceError):
                    m = await service.stop(m.id)
                echo(replay_line(m.seed, me, players, level, board, _, again))
            raise
    finally:
        await db.close()


def _summary(m: Match, me: Seat) -> dict:
    return {"match_id": m.id, "seat": me, "places": tuple(p.place for p in m.players),
            "scores": tuple(p.score for p in m.players), "reason": m.reason,
            "turns": m.state.turn}


def _seat_arg(text: str) -> int | None:
    """``--seat``: a seat number from 1, or ``random`` (None)."""
    if text.lower() == "random":
        return None
    if text.isdigit() and int(text) >= 1:
        return int(text) - 1
    raise argparse.ArgumentTypeError(f"{text!r}: a seat number from 1, or 'random'")


def main(argv: list[str] | None = None) -> int:
    """``python -m bot play --game race``: see the module docstring. Returns the exit
    status."""
    parser = argparse.ArgumentParser(prog="python -m bot play --game race",
                                     description="Race against AI seats in the terminal.")
    add_game_option(parser, "race")
    game = RACE_GAME.game
    parser.add_argument("--players", type=int, choices=range(game.min_seats,
                                                             game.max_seats + 1),
                        default=DEFAULT_PLAYERS, metavar=f"{game.min_seats}-{game.max_seats}",
                        help=f"how many seats race, yours included (default "
                             f"{DEFAULT_PLAYERS})")
    parser.add_argument("--seat", type=_seat_arg, default=0, metavar="K|random",
                        help="your seat in the order of play, from 1, or random (default 1; "
                             "who plays first is drawn)")
    parser.add_argument("--level", choices=RACE_GAME.ai_levels, default="easy",
                        help="the AI's level (default easy)")
    parser.add_argument("--board", choices=("desert", "jungle"), default="desert",
                        help="the side of the board (default desert)")
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help="race seed (default: a fresh random one)")
    parser.add_argument("--out", type=out_arg, default=Path("race-play"),
                        help="folder for the track image and the database (default "
                             "./race-play)")
    parser.add_argument("--budget", type=seconds_arg, default=1.0,
                        help="seconds the AI may think per decision (default 1.0)")
    add_lang_option(parser)
    args = parser.parse_args(argv)
    if args.seat is not None and args.seat >= args.players:
        parser.error(f"--seat {args.seat + 1}: a race of {args.players} has seats 1 to "
                     f"{args.players}")
    saved = terminal_mode()
    try:
        return run_offline(
            play(args.out, players=args.players, seat=args.seat, level=args.level,
                 board=args.board, seed=args.seed, read=stdin_read, time_budget=args.budget,
                 lang=args.lang or from_environment()),
            command="play", out=args.out, lang=args.lang or from_environment(),
            busy="another match is using {out} right now: choose another --out folder")
    finally:
        restore_terminal(saved)
