"""The terminal game of Ratjack: one person against AI seats, typing the game's notation.

``python -m bot play --game ratjack [--players N] [--seat K|random] [--level L] [--seed S]
[--decks D] [--out DIR] [--budget S] [--lang en|zh-TW]``

The match runs through the same match service, SQLite storage (``DIR/play.sqlite3``) and
renderer as the bot; the public table's picture is ``DIR/table.png``, written after every
turn. The screen shows the table as text (:func:`table_text`): every display in notation,
your own face-down cards and hand named to you only (and a card of another player that you
know, RJ11.2), the others' hidden cards as ``??``; then the story of every turn, public
events only (a card played face down is "a card", a look names no card). Type an action in
the notation of :mod:`engine.ratjack.notation` (``draw deck``, ``up C7``, ``discard W2``,
``flip @2``, ``p2@3``, ``+3``; Tab completes it on a terminal), ``?`` for your legal actions
in words, ``board`` for the table again, ``cards`` for the effects of the decks in play,
``resign`` (or ``quit``, ``q``, ``exit``) to resign and stop, after a confirmation; the end
of input resigns without asking. A resignation leaves the match: with two players the AI
wins; with more, the match ends there, without a result. Bad input gets one line that says
why, never a traceback. Every line is wrapped to the terminal's width (80 columns and up).

The seed is shown only once the match is over or stopped (it fixes every deck order), with
the command that deals the same game again. Ctrl-C or SIGTERM stop at once (exit status 130
or 143): the match ends there, without a result (reason ``stopped``), as does one a killed
process left unfinished when the next ``play`` starts in its folder.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.messages import Text
from engine.ratjack import (
    DECK_PAIRS,
    Phase,
    RatjackError,
    State,
    View,
    effect_of,
    format_action,
    seat_name,
    view,
)
from engine.ratjack.cards import DEFAULT_DECKS, EFFECTS, effect_title, format_face, kind_of
from engine.ratjack.rules import MAX_SEATS, MIN_SEATS

from ...i18n import Translator, from_environment, translator
from ...match import Match, MatchService, ServiceError
from ...offline import TERMINAL_PLAYER
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
    EN,
    HELP_WORDS,
    RESIGN_WORDS,
    RESIGNED,
    Prompt,
    completions,
    page_text,
    restore_terminal,
    shown_path,
    stdin_read,
    terminal_echo,
    terminal_mode,
    terminal_width,
    words_text,
    wrapped,
)
from ...storage.db import SqliteDatabase
from ...texts import LEVEL_WORDS, ai_name, plain
from . import PLUGIN as RATJACK_GAME
from .shared import add_decks_option, verdict
from .texts import (
    action_text,
    match_result_text,
    round_end_text,
    seat_label,
    story,
    story_between,
    your_decision,
)

BOARD_WORDS = ("board", "b", "table")
CARDS_WORDS = ("cards",)
#: The words the prompt understands besides notation, for Tab completion.
COMMAND_WORDS = ("board", "cards", "help", "resign", "quit")
CONFIRM_RESIGN = Text("Really resign? You leave the match. Resign (y/N)? ")


HELP = Text("Type an action in notation ('draw deck', 'up C7', 'discard W2', 'flip @2', "
            "'p2@3', '+3'; Tab completes it), {help} for your legal actions, 'board' for the "
            "table, 'cards' (then 'cards 2') for what each card does, {resign} to resign and "
            "stop.", help=words_text(HELP_WORDS), resign=words_text(RESIGN_WORDS))
LEGEND = Text("legend: @2 a card's place · ~ face down · ?? a card you do not know · [+3] "
              "bonus tokens on it · {p2} who has seen it besides its owner ({*} everyone) · "
              "> to decide")


# --------------------------------------------------------------------------- the screen
def _seen(seen: frozenset[int]) -> str:
    if not seen:
        return ""
    if -1 in seen:
        return "{*}"
    return "{" + ",".join(seat_name(q) for q in sorted(seen)) + "}"


def _slot(x: Any) -> str:
    chips = ("[" + " ".join(format_face(f) for f in x.chips) + "]") if x.chips else ""
    if x.up:
        return f"{x.card}{chips}"
    return f"~{x.card or '??'}{_seen(x.seen)}{chips}"


def table_text(v: View, names: Sequence[Any], width: int | None = None,
               _: Translator = EN) -> str:
    """The table as ``v``'s viewer sees it, as text wrapped to ``width`` (default: the
    terminal's): the round, the deck, the discard pile, the reserve, then every player's VP,
    total, hand and display (legend :data:`LEGEND`). Cards the viewer does not know are
    ``??``: nothing hidden from ``v`` shows."""
    width = terminal_width() if width is None else width
    pile = list(v.discard[-8:])
    lines = [_("Round {n}, turn {t} · deck {deck} · discard pile ({count}, top last): {pile}",
               n=v.round, t=v.turn, deck=v.deck_size, count=len(v.discard),
               pile=(("… " if len(v.discard) > len(pile) else "") + " ".join(pile)) or "-"),
             _("Bonus tokens in the reserve: {chips}",
               chips=" ".join(format_face(f) for f in v.reserve) or "-")]
    for q in range(v.seats):
        mark = ">" if q in v.to_act else " "
        name = _.text(names[q])
        if v.forfeited[q]:
            lines.append(_("{mark} {player}: {vp} VP · left the match", mark=mark,
                           player=name, vp=v.vp[q]))
            continue
        if v.out[q]:
            lines.append(_("{mark} {player}: {vp} VP · out this round", mark=mark,
                           player=name, vp=v.vp[q]))
            continue
        hand = " ".join(h.card or "??" for h in v.hands[q]) or "-"
        lines.append(_("{mark} {player}: {vp} VP · total {total} · hand {hand}", mark=mark,
                       player=name, vp=v.vp[q], total=v.totals[q], hand=hand))
        cards = "  ".join(f"@{i + 1} {_slot(x)}" for i, x in enumerate(v.displays[q]))
        lines.append("    " + (cards or _("(no cards)")))
    if v.extra_turns:
        lines.append(_.plural("{player} has {n} extra turn to come.",
                              "{player} has {n} extra turns to come.", v.extra_turns,
                              player=_.text(names[v.current])))
    return wrapped("\n".join(lines), width)


def hand_text(v: View, _: Translator = EN) -> str:
    """The viewer's own cards with their effects (RJ11.2): their hand, the card Weasel 3
    had them draw. Private to ``v.viewer``."""
    lines = [_("Your hand:")]
    for h in v.hands[v.viewer]:
        lines.append(_("  {card} {effect}: {text}", card=h.card, effect=effect_title(h.card),
                       text=effect_of(h.card).text))
    if v.drawn is not None:
        lines.append(_("You drew {card} with Weasel 3: choose the opponent who gets it face "
                       "down.", card=v.drawn))
    return "\n".join(lines)


def cards_text(decks: str, _: Translator = EN) -> str:
    """What each card of the decks in play does (RJ5-RJ7), one effect a line: ``R/B7 ·
    Rat 7: ...`` (Red and Blue Rats share their effects)."""
    lines = []
    letters = DECK_PAIRS[decks]
    for kind in dict.fromkeys(kind_of(letter + "1") for letter in letters):
        same = [letter for letter in letters if kind_of(letter + "1") is kind]
        for e in EFFECTS:
            if e.kind is kind:
                lines.append(_("{cards} · {effect}: {text}", cards="/".join(same) + str(e.value),
                               effect=effect_title(f"{same[0]}{e.value}"), text=e.text))
    return "\n".join(lines)


def legal_text(v: View, names: Sequence[Any], _: Translator = EN) -> str:
    """The viewer's legal actions, one a line: its notation and what it does (their own
    cards named, RJ11.2)."""
    written = [format_action(a) for a in v.legal]
    column = max(map(len, written), default=0) + 2
    return "\n".join(f"  {w:<{column}}{_.text(action_text(v, a, names))}"
                     for w, a in zip(written, v.legal, strict=True))


def refusal(exc: Exception, _: Translator = EN) -> str:
    """Why an entry was not played: the engine's or the service's sentence, in ``_``'s
    language."""
    message = getattr(exc, "message", None)
    said = message if message is not None else (exc.args[0] if exc.args else str(exc))
    return _("Not played: {why}", why=_.text(said) if isinstance(said, Text) else str(said))


def replay_line(seed: int, players: int, seat: int, level: str, decks: str,
                _: Translator = EN, lang: str | None = None) -> str:
    """How to deal the same game again. Shown only once the match is over or stopped: the
    seed fixes every deck order (RJ11.2)."""
    extra = f" --lang {lang}" if lang is not None else ""
    command = (f"python -m bot play --game ratjack --seed {seed} --players {players} "
               f"--seat {seat + 1} --level {level} --decks {decks}{extra}")
    return _("Seed {seed}: {command} deals this game again.", seed=seed, command=command)


def seat_names(levels: Sequence[str | None], me: int) -> list[Text]:
    """The players as the terminal names them, by seat: ``p1 (you)`` for the person at
    ``me``, ``p2 AI (easy)`` for an AI seat (``levels``: each seat's AI level)."""
    return [Text("{seat} (you)", seat=seat_name(q)) if q == me
            else seat_label(q, ai_name(level or "")) for q, level in enumerate(levels)]


# --------------------------------------------------------------------------- the game
async def play(out: Path, *, players: int = 2, seat: int | None = 0, level: str = "easy",
               seed: int | None = None, decks: str = DEFAULT_DECKS,
               read: Callable[[str], str] = stdin_read,
               echo: Callable[[str], None] = terminal_echo, time_budget: float = 1.0,
               lang: str = "en") -> dict:
    """Run a terminal match; returns ``{"match_id", "winners", "reason", "rounds", "vp"}``.
    ``seat``: the person's seat (0-based; None: drawn); ``read``/``echo``: the input and
    output functions (tests pass their own); ``lang``: the language of the lines and of
    the table's picture."""
    with folder_lock(out):
        return await _play(out, players=players, seat=seat, level=level, seed=seed,
                           decks=decks, read=read, echo=echo, time_budget=time_budget,
                           _=translator(lang))


async def _play(out: Path, *, players: int, seat: int | None, level: str, seed: int | None,
                decks: str, read: Callable[[str], str], echo: Callable[[str], None],
                time_budget: float, _: Translator) -> dict:
    from render.ratjack import render_table  # heavy: loaded when needed

    again = None if _.lang == "en" else _.lang  # the replay line keeps a chosen language
    png = out / "table.png"
    db = await SqliteDatabase.open(out / "play.sqlite3")
    m: Match | None = None
    me = 0
    names: list[Text] = []
    person = Prompt(read, echo, _, lambda text: unicodedata.normalize("NFKC", text))

    def write_table(match: Match) -> str:
        """The public table's picture of ``match`` (its verdict when it ended outside the
        game), as ``out/table.png``; its path as shown."""
        image_names = [_.text(n) for n in names]
        png.write_bytes(render_table(view(match.state, None), names=image_names, tr=_.text,
                                     verdict=verdict(match, _.text)))
        return shown_path(png.resolve())

    def tell(before: State, after: State) -> None:
        """The story from ``before`` to ``after`` (public events), a sentence a line, and a
        round's result when one ended (RJ9.7)."""
        for sentence in story_between(before, after, names):
            echo("  " + _.text(sentence))
        if after.round != before.round or (after.phase is Phase.OVER
                                           and before.phase is not Phase.OVER):
            if after.last_round is not None:
                echo(plain(_.text(round_end_text(after.last_round, names))))

    try:
        service = MatchService(db, ai_time_budget=time_budget)
        m = await start_terminal_match(service, game=RATJACK_GAME.name, seat=seat, level=level,
                                       options={"decks": decks}, seats=players, seed=seed)
        me = m.seat_of(TERMINAL_PLAYER)
        names = seat_names([p.ai for p in m.players], me)
        echo(_.plural("You play {seat}; the AI ({level}) plays {n} other seat. {help}",
                      "You play {seat}; the AI ({level}) plays the {n} other seats. {help}",
                      players - 1, seat=seat_name(me), level=LEVEL_WORDS.get(level, level),
                      help=HELP))
        echo(_("Seed {seed}.", seed=seed) if seed is not None else
               _("Seed: shown when the match ends (it would give away every card now)."))
        echo(_.text(LEGEND))
        echo(_("The table's picture: {path}", path=write_table(m)))
        shown = m.state  # what the screen has told so far
        for sentence in story(shown.events, names):
            echo("  " + _.text(sentence))
        show_table = True
        try:
            while True:
                if await service.play_ai(m.id):
                    m = await service.get_match(m.id)
                    tell(shown, m.state)
                    shown = m.state
                    show_table = True
                if not m.active:
                    echo(table_text(view(m.state, me), names, _=_))
                    echo(_("The table's picture: {path}", path=write_table(m)))
                    echo(plain(_.text(match_result_text(m, names))))
                    echo(replay_line(m.seed, players, me, level, decks, _, again))
                    return _summary(m)
                v = view(m.state, me)
                if me not in v.to_act:
                    continue
                completions[:] = [format_action(a) for a in v.legal] + list(COMMAND_WORDS)
                if show_table:
                    echo(table_text(v, names, _=_))
                    write_table(m)
                    show_table = False
                echo(hand_text(v, _))
                echo(_("Your decision: {decision}.", decision=your_decision(v)))
                while True:
                    text = await person.entry(f"{seat_name(me)}> ", _.text(CONFIRM_RESIGN))
                    if text is None:
                        continue
                    if text is RESIGNED:
                        return await _resign(service, m, names, echo, write_table, tell, _,
                                             replay_line(m.seed, players, me, level, decks,
                                                         _, again))
                    word = text.lower()
                    if word in HELP_WORDS:
                        echo(legal_text(v, names, _))
                        continue
                    if word in BOARD_WORDS:
                        echo(table_text(v, names, _=_))
                        echo(_.text(LEGEND))
                        continue
                    if word.split(" ")[0] in CARDS_WORDS and (
                            word in CARDS_WORDS or word.split(" ")[-1].isdigit()):
                        echo(page_text(word, cards_text(decks, _), _=_))
                        continue
                    if not word:
                        continue
                    try:
                        res = await service.act(m.id, TERMINAL_PLAYER, text)
                    except (RatjackError, ServiceError) as exc:
                        echo(refusal(exc, _))
                        continue
                    tell(shown, res.match.state)
                    shown = res.match.state
                    m = res.match
                    if res.match.state.turn != v.turn or res.match.state.round != v.round:
                        show_table = True
                    break
        except asyncio.CancelledError:  # Ctrl-C, SIGTERM: the seed and the picture
            if person.waiting:
                echo("")  # the next line starts on its own, not after the prompt
            if m is not None:
                with contextlib.suppress(ServiceError):
                    m = await service.stop(m.id)  # it cannot be resumed: it ends, stopped
                echo(_("The table's picture: {path}", path=write_table(m)))
                echo(replay_line(m.seed, players, me, level, decks, _, again))
            raise
    finally:
        await db.close()


async def _resign(service: MatchService, m: Match, names: Sequence[Any],
                  echo: Callable[[str], None], write_table: Callable[[Match], str],
                  tell: Callable[[State, State], None], _: Translator, replay: str) -> dict:
    """The person resigns (RJ8.4): they leave the match; with two players the AI wins, with
    more the match ends there without a result (the AI seats are not played on). Then the
    table's picture, the result and ``replay`` (:func:`replay_line`)."""
    before = m.state
    m = await service.resign(m.id, TERMINAL_PLAYER)
    tell(before, m.state)
    if m.active:
        m = await service.stop(m.id)
    echo(_("The table's picture: {path}", path=write_table(m)))
    echo(plain(_.text(match_result_text(m, names))))
    echo(_("You resigned. Bye."))
    echo(replay)
    return _summary(m)


def _summary(m: Match) -> dict:
    return {"match_id": m.id, "winners": sorted(m.winners), "reason": m.reason,
            "rounds": m.state.round, "vp": list(m.state.vp)}


def _seat_arg(text: str) -> int | None:
    """``--seat``: 1 to 4, or ``random`` (None)."""
    if text.lower() == "random":
        return None
    if text.isdigit() and 1 <= int(text) <= MAX_SEATS:
        return int(text) - 1
    raise argparse.ArgumentTypeError(f"{text!r}: a seat is 1 to {MAX_SEATS}, or random")


def main(argv: list[str] | None = None) -> int:
    """``python -m bot play --game ratjack``: see the module docstring. Returns the exit
    status."""
    parser = argparse.ArgumentParser(prog="python -m bot play --game ratjack",
                                     description="Play Ratjack against AI players in the "
                                                 "terminal.")
    add_game_option(parser, "ratjack")
    parser.add_argument("--players", type=int, choices=range(MIN_SEATS, MAX_SEATS + 1),
                        default=2, help="number of players, you and the AI (default 2)")
    parser.add_argument("--seat", type=_seat_arg, default=0, metavar="K|random",
                        help="your seat, 1 first to play in seat order, or random "
                             "(default 1)")
    parser.add_argument("--level", choices=RATJACK_GAME.ai_levels, default="easy",
                        help="the AI's level (default easy)")
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help="game seed (default: a fresh random one)")
    add_decks_option(parser)
    parser.add_argument("--out", type=out_arg, default=Path("ratjack-play"),
                        help="folder for the table's picture and the database (default "
                             "./ratjack-play)")
    parser.add_argument("--budget", type=seconds_arg, default=1.0,
                        help="seconds the hard AI may think per decision (default 1.0)")
    add_lang_option(parser)
    args = parser.parse_args(argv)
    if args.seat is not None and args.seat >= args.players:
        parser.error(f"--seat {args.seat + 1}: there are {args.players} players")
    saved = terminal_mode()
    try:
        return run_offline(
            play(args.out, players=args.players, seat=args.seat, level=args.level,
                 seed=args.seed, decks=args.decks, read=stdin_read, time_budget=args.budget,
                 lang=args.lang or from_environment()),
            command="play", out=args.out, lang=args.lang or from_environment(),
            busy="another match is using {out} right now: choose another --out folder")
    finally:
        restore_terminal(saved)
