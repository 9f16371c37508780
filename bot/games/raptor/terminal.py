"""Terminal mode: play one side against the AI by typing action notation.

``python -m bot play [--side raptor|scientist|random] [--level easy|medium|hard] [--seed S]
[--environment jungle|savannah] [--setup quick|manual] [--out DIR] [--budget S]``

The match runs through the same match service, SQLite storage (``DIR/play.sqlite3``) and
renderer as the bot. After every round the path of the latest board PNG is printed. Type
``?`` for your legal actions, ``board`` (``b``) to see the board again, ``rules`` and
``cards`` for the rules in short and the card texts (a page of at most 23 lines at a time:
``rules 2``, ``cards 2`` for the next), ``resign`` (or ``quit``, ``q``,
``exit``) to resign and stop, after a confirmation; the end of input (Ctrl-D, or the end of
piped input) resigns without asking, and says so. On a terminal the line is edited with the
standard library's :mod:`readline` where the platform has it (the arrows recall earlier
entries, Tab completes the legal actions); without it, plain lines are read.

The screen is kept to what changed: after your own action, one line; the board with the
counters beside it when the opponent has played, and on request; the AI's actions of a turn
in one line; every automatic end of a turn or of a card effect with its reason (the
engine's ``ap_lost`` and ``effect_lost`` events). The prompt names what is being decided:
``raptor 3 AP>`` (action points left), ``raptor Recovery ×2 (1 left)>`` (a card effect and
the units it still allows). Text is wrapped at word boundaries to the terminal's width
(``COLUMNS``).

The AI's card stays hidden until both cards are revealed, as on Discord. A ``--seed`` you
give is shown at the start; a fresh seed is shown only when the match ends or you stop (it
fixes every hand and deck order), with the command that deals the same game again. Ctrl-C
stops at once (exit status 130), printing the seed and the board image's path too. The
terminal cannot resume a match: a stopped one (Ctrl-C, SIGTERM) ends there without a result,
reason ``stopped`` (:meth:`bot.match.MatchService.stop`), and so does one a killed process
left unfinished, when the next ``play`` starts in its folder.

``--lang en|zh-TW`` (default: the environment's locale) chooses the language of every line
and of the board image; the notation typed and shown is the same in both, and the Chinese
words of ``engine.notation.CHINESE_ALIASES`` (``咬 F3``, ``C2 麻醉 D2``, ``結束``) are
accepted for the actions in either, and full-width forms as Chinese input methods type them
(``出３``, ``？``, ``ｑｕｉｔ``: :func:`engine.notation.half_width`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import engine
from engine import Side
from engine.diagram import CHARS, HEADER
from engine.geometry import COLS, ROWS, sq
from engine.messages import Text
from engine.notation import half_width
from engine.state import Phase

from ...i18n import Translator, from_environment, translator
from ...match import ActResult, MatchService, ServiceError
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
    HELP_WORDS,
    RESIGN_WORDS,
    RESIGNED,
    Prompt,
    actions_text,
    beside,
    completions,
    display_len,
    page_text,
    restore_terminal,
    shown_path,
    stdin_read,
    terminal_echo,
    terminal_mode,
    terminal_width,
    words_text,
)
from ...storage.db import SqliteDatabase
from ...texts import LEVEL_WORDS
from . import PLUGIN as RAPTOR_GAME
from . import SIDE_WORDS, texts
from . import sides as rs
from .demo import EN, resolution

LEGEND = Text("legend: M mother · B baby · b sleeping baby (z: put to sleep this round) · "
              "S scientist (A: made its aggressive action this round) · s frightened "
              "scientist (f: frightened this round) · * fire · # rock · o exit")
CONFIRM_RESIGN = Text("Really resign? Your opponent wins. Resign (y/N)? ")


HELP = Text("Type an action in notation (e.g. 'G2-G5', 'kill F3', 'play 5', 'end'; Tab "
            "completes it, the arrows recall earlier entries), {help} for your legal "
            "actions, 'board' (or 'b') for the board, 'rules' (then 'rules 2') for the rules "
            "in short, 'cards' (then 'cards 2') for what every card does, 'undo' to take back "
            "your last action-point move, {resign} to resign and stop.",
            help=words_text(HELP_WORDS), resign=words_text(RESIGN_WORDS))
BOARD_WORDS = ("board", "b")
#: The phases as the board's status line names them ("round 3 · card pick").
PHASE_WORDS = {
    Phase.SETUP_MOTHER: Text("setup mother"), Phase.SETUP_BABIES: Text("setup babies"),
    Phase.SETUP_SCIENTISTS: Text("setup scientists"), Phase.PICK: Text("pick"),
    Phase.EFFECT: Text("effect"), Phase.AP: Text("ap"),
    Phase.MOTHER_RETURN: Text("mother return"), Phase.OVER: Text("over"),
}
#: The words the prompt understands besides notation, for Tab completion.
COMMAND_WORDS = ("board", "cards", "help", "resign", "rules", "undo", "quit")


def _plain(text: str) -> str:
    """Discord's markdown (``**bold**``, ``*italic*``, ```code```) as plain terminal text."""
    return text.replace("**", "").replace("*", "").replace("`", "'")


def rules_text(_: Translator = EN) -> str:
    """The rules in short as ``/raptor rules`` gives them on Discord (in ``_``'s language),
    with the terminal's own how-to (:data:`HELP`) in place of Discord's (the summary's last
    paragraph, in every language)."""
    summary = _plain(_.text(texts.RULES_SUMMARY)).rsplit("\n\n", 1)[0]
    return summary + "\n\n" + _.text(HELP)


def cards_text(_: Translator = EN) -> str:
    """Both sides' nine cards with their effects (R9, R10), in ``_``'s language."""
    return "\n\n".join(_plain(_.text(texts.card_reference(side)))
                         for side in (Side.RAPTOR, Side.SCIENTIST))


def effect_lines(events: Sequence[engine.Event], _: Translator = EN) -> list[str]:
    """A line for every card effect that ended by itself with units of the card unused (the
    engine's ``effect_lost`` event, R5.4), which would otherwise pass in silence: one that
    found nothing to act on, or one cut short (Recovery ×2 after one wake), with why."""
    out = []
    for e in events:
        if e.kind != "effect_lost":
            continue
        name = engine.card_name(e.side, e.value2)
        most = engine.card(e.side, e.value2).most
        if e.value >= most:
            out.append(_("The {side}'s {name} finds nothing to act on: {why}.",
                         side=SIDE_WORDS[e.side], name=name, why=_.text(e.text)))
        else:
            out.append(_("The {side}'s {name} ends after {done} of {most}: {why}.",
                         side=SIDE_WORDS[e.side], name=name, done=most - e.value, most=most,
                         why=_.text(e.text)))
    return out


def effect_prompt(state: engine.GameState, _: Translator = EN) -> str:
    """What the prompt adds while ``state`` resolves a card effect: the card and the units
    it still allows (R5.4), ``" Recovery ×2 (1 left)"``, as ``" 3 AP"`` in the AP phase;
    empty in any other phase."""
    e = state.effect
    if state.phase is not engine.Phase.EFFECT or e is None:
        return ""
    left = engine.card(e.side, e.card).most - e.done
    return _(" {name} ({n} left)", name=engine.card_name(e.side, e.card), n=left)


def ap_lost_lines(events: Sequence[engine.Event], me: Side, _: Translator = EN) -> list[str]:
    """A line for every AP phase that ended by itself (the engine's ``ap_lost`` event: AP
    left that no action can use, and why; R5.5)."""
    out = []
    for e in events:
        if e.kind == "ap_lost":
            if e.side is me:
                out.append(_("Your turn ends: no action is possible with {n} AP: {why}.",
                             n=e.value, why=_.text(e.text)))
            else:
                out.append(_("The {side}'s turn ends: no action is possible with {n} AP: "
                             "{why}.", side=SIDE_WORDS[e.side], n=e.value, why=_.text(e.text)))
    return out


def view_text(v: engine.View, width: int | None = None, _: Translator = EN) -> str:
    """A text picture of a view: the grid (legend :data:`LEGEND`) with the public counters
    beside it when ``width`` (default: the terminal's) allows, else under it, then in a
    player's view that player's own hand. Nothing hidden from ``v``."""
    grid = [HEADER]
    for r in range(ROWS):
        grid.append(f"{r + 1}   " + " ".join(CHARS[v.board[sq(r, c)]] for c in range(COLS)))
    width = terminal_width() if width is None else width
    waiting = _(", ").join(_.text(SIDE_WORDS[s]) for s in sorted(v.to_act))
    head = [_("round {n} · {phase}", n=v.round, phase=PHASE_WORDS[v.phase])]
    if waiting:  # beside the round when it fits next to the grid, else on a line of its own
        head.append(_("waiting for {who}", who=waiting))
        if display_len(" · ".join(head)) <= width - len(grid[-1]) - 2:
            head = [" · ".join(head)]
    status = [*head,
              _("sleep tokens {sleep}/5 · escaped {escaped}/3 · captured {captured}/3",
                sleep=v.sleep_tokens, escaped=v.escaped, captured=v.captured),
              _("reserve {reserve} · fire supply {fire}", reserve=v.reserve,
                fire=v.fire_supply)]
    if v.mother_off:
        status.append(_("the mother has disappeared"))
    for side in (Side.RAPTOR, Side.SCIENTIST):
        pile = " ".join(map(str, v.discards[side])) or "-"
        status.append(_("{side} discard: {pile} · deck {deck} · hand {hand}",
                        side=SIDE_WORDS[side], pile=pile, deck=v.deck_sizes[side],
                        hand=v.hand_sizes[side]))
    if v.revealed:
        status.append(_("revealed: raptor {raptor}, scientist {scientist}",
                        raptor=v.revealed[0], scientist=v.revealed[1]))
    if v.ap is not None:
        status.append(_("{side} has {n} AP left", side=SIDE_WORDS[v.ap.side],
                        n=v.ap.remaining))
    if v.effect is not None:
        status.append(_("{side} resolves {name}", side=SIDE_WORDS[v.effect.side],
                        name=engine.card_name(v.effect.side, v.effect.card)))
    lines = beside(grid, status, width)
    if v.viewer is not None and v.hand is not None:
        # no-break spaces keep each card whole (value and name) when the line is wrapped
        cards = _(", ").join(f"{c} {_.text(engine.card_name(v.viewer, c))}".replace(
            " ", "\u00a0") for c in v.hand)
        lines.append(_("your hand: {cards}", cards=cards))
        if v.my_pick is not None and v.phase is not engine.Phase.OVER:
            lines.append(_("your pick: {card}", card=v.my_pick))
        if v.shown_pick is not None and v.viewer is Side.RAPTOR:
            lines.append(_("observation: the scientist picked {card}", card=v.shown_pick))
        elif (v.observation and v.viewer is Side.SCIENTIST and v.phase is engine.Phase.PICK
              and v.my_pick is None):
            lines.append(_("observation: you pick first, and the raptor sees your card "
                           "before picking"))
    return "\n".join(lines)


def legal_text(legal: Sequence[engine.Action], state: engine.GameState, side: Side,
               size: os.terminal_size | None = None, _: Translator = EN) -> str:
    """``side``'s legal actions for ``?``: one a line with its description when they fit in
    the terminal's height (``size``, default the terminal's), else their notation in columns
    (every line starts with two spaces, then the first action's notation)."""
    return actions_text([engine.format_action(a) for a in legal],
                                lambda i: _.text(engine.describe_action(legal[i], state, side)),
                                size=size, width=14, _=_)


def decision_line(match, side: Side, _: Translator = EN) -> str:
    """What ``side`` decides now, e.g. ``"Your move: spend your action points: 2 AP left."``
    (the Discord turn message's words, :func:`bot.texts.decision_text`)."""
    if match.state.phase is engine.Phase.PICK:
        return _("Your move: pick a card with 'play N'.")
    return _("Your move: {decision}", decision=_plain(_.text(texts.decision_text(match, side))))


def replay_line(seed: int, me: Side, level: str, environment: str, setup: str = "quick",
                _: Translator = EN, lang: str | None = None) -> str:
    """How to play the same deal again. Shown only once the match has ended or the player
    stops: the seed fixes every hand and deck order (R11 keeps it hidden while the match
    runs)."""
    manual = " --setup manual" if setup == "manual" else ""
    if lang is not None:
        manual += f" --lang {lang}"
    command = (f"python -m bot play --seed {seed} --side {me.value} --level {level} "
               f"--environment {environment}{manual}")
    return _("Seed {seed}: {command} deals this game again.", seed=seed, command=command)


def game_over_line(result: str | None, reason: str | None, me: Side,
                   _: Translator = EN) -> str:
    """The end of the match in words, e.g. ``'Game over: the scientist (AI) wins: three
    babies were captured.'`` (the wording of the demo's verdict)."""
    why = _.text(texts.REASONS.get(reason or "", (reason or "").replace("_", " ")))
    if result not in ("raptor", "scientist"):
        return _("Game over: no winner ({why}).", why=why)
    if result == me.value:
        return _("Game over: you win: {why}.", why=why)
    return _("Game over: the {side} (AI) wins: {why}.", side=SIDE_WORDS[Side(result)], why=why)


def revealed_line(raptor_card: int, scientist_card: int, _: Translator = EN) -> str:
    """The reveal and what it leads to, as in the demo's round line (R5.3)."""
    return _("Revealed: raptor {raptor}, scientist {scientist}: {resolution}.",
             raptor=raptor_card, scientist=scientist_card,
             resolution=resolution(raptor_card, scientist_card, _))


ECHO_LIMIT = 40


def _short(text: str) -> str:
    return text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT] + "…"


def refusal(text: str, exc: Exception, state: engine.GameState, side: Side,
            _: Translator = EN) -> str:
    """Why ``text`` was not played, for the terminal: the engine's or service's message (the
    engine already calls an entry that fits no notation form, e.g. ``'play 5 5 5'``,
    malformed, quotes long entries cut short and lists suggestions in their canonical
    notation, ``H1-E1``, ``M@B1``), with any other full quote of a long entry shortened to
    :data:`ECHO_LIMIT` characters; malformed entries get a pointer to ``?``."""
    said = exc.args[0] if exc.args and isinstance(exc.args[0], Text) else None
    message = _.text(said) if said is not None else (getattr(exc, "message", None) or str(exc))
    if len(text) > ECHO_LIMIT:
        message = message.replace(repr(text), repr(_short(text)))
    if isinstance(exc, engine.NotationError):
        message += _(" ('?' lists your legal actions)")
    return message


def describe_opponent(res: ActResult, _: Translator = EN) -> str:
    """The opponent's step as the human may see it: a pick is only 'picked a card'."""
    if isinstance(res.action, engine.Pick):
        return _("The {side} (AI) has picked a card.", side=SIDE_WORDS[rs.acted(res)])
    return _("The {side} (AI): {action}", side=SIDE_WORDS[rs.acted(res)],
             action=engine.format_action(res.action))


async def play(out: Path, *, side: str = "raptor", level: str = "easy", seed: int | None = None,
               environment: str = "jungle", setup: str = "quick",
               read: Callable[[str], str] = stdin_read,
               echo: Callable[[str], None] = terminal_echo, time_budget: float = 1.0,
               lang: str = "en") -> dict:
    """Run a terminal match; returns ``{"match_id", "result", "reason", "rounds"}``.
    ``read``/``echo`` are the input and output functions (tests pass their own); ``setup``
    ``"manual"`` has the player type their own placements (``M@G2``, ``B@D2``, ``S@B2``);
    ``lang`` the language of the lines and the board image (``en``, ``zh-TW``)."""
    from render import render_board

    with folder_lock(out):
        return await _play(out, render_board, side=side, level=level, seed=seed,
                           environment=environment, setup=setup, read=read, echo=echo,
                           time_budget=time_budget, lang=lang)


async def _play(out: Path, render_board: Callable, *, side: str, level: str, seed: int | None,
                environment: str, setup: str, read: Callable[[str], str],
                echo: Callable[[str], None], time_budget: float, lang: str) -> dict:
    _ = translator(lang)
    again = None if _.lang == "en" else _.lang  # the replay line keeps a chosen language

    def write_board(state: engine.GameState, verdict: str | None = None,
                    winner: Side | None = None) -> str:
        """The public board image of ``state`` to ``out/board.png`` (with ``verdict`` as its
        banner and ``winner``, for a resignation or a stop); its path as shown
        (:func:`shown_path`)."""
        png = out / "board.png"
        view = engine.view(state, None)
        png.write_bytes(render_board(view, verdict=verdict, winner=winner, tr=_.text)
                        if verdict else render_board(view, tr=_.text))
        return shown_path(png.resolve())

    db = await SqliteDatabase.open(out / "play.sqlite3")
    m = None
    try:
        service = MatchService(db, ai_time_budget=time_budget)
        m = await start_terminal_match(service, game="raptor", seat=rs.seat_wish(side),
                                       level=level, seed=seed,
                                       options={"environment": environment, "setup": setup})
        me = rs.side_in(m, TERMINAL_PLAYER)
        echo(_("You play the {side}; the AI ({level}) plays the {other}. {help}",
               side=SIDE_WORDS[me], level=LEVEL_WORDS.get(level, level),
               other=SIDE_WORDS[me.other], help=HELP))
        echo(_("Seed {seed}.", seed=seed) if seed is not None else
             _("Seed: shown when the match ends (it would give away the AI's cards now)."))
        echo(_.text(LEGEND))
        shown_round = -1
        show_board = True  # the board comes before a decision unless only the player acted

        def round_over(state: engine.GameState) -> None:
            """Once per round: the end of the last one, and the board image."""
            nonlocal shown_round
            if state.round != shown_round and state.last_round_events:
                if shown_round != -1 or state.round > 1:
                    echo(_("Round {n} is over: escaped {escaped}/3 · captured {captured}/3 · "
                           "sleep tokens {sleep}/5.", n=state.round - 1, escaped=state.escaped,
                           captured=state.captured, sleep=state.sleep_tokens))
                echo(_("Board image: {path}", path=write_board(state)))
                shown_round = state.round

        def tell(res: ActResult) -> None:
            """What a step's events tell besides its action: the reveal, an effect with
            nothing to act on, a turn that ended by itself."""
            for e in rs.events(res):
                if e.kind == "revealed":
                    echo(revealed_line(e.value, e.value2, _))
            for line in effect_lines(rs.events(res), _):
                echo(line)
            for line in ap_lost_lines(rs.events(res), me, _):
                echo(line)

        moves: list[str] = []  # the AI's actions in a row, told in one line
        person = Prompt(read, echo, _, half_width)

        def flush() -> None:
            if moves:
                echo(_("The {side} (AI): {action}", side=SIDE_WORDS[me.other],
                       action=", ".join(moves)))
                moves.clear()

        try:
            while True:
                results = await service.play_ai(m.id)
                for res in results:
                    show_board = True
                    if isinstance(res.action, engine.Pick):
                        flush()
                        if not rs.round_ended(res):
                            round_over(res.match.state)  # the AI's pick opens the next round
                        echo(describe_opponent(res, _))
                    elif not isinstance(res.action, engine.End):
                        moves.append(engine.format_action(res.action))
                    if any(e.kind in ("revealed", "effect", "effect_lost", "ap_lost")
                           for e in rs.events(res)):
                        flush()
                    tell(res)
                flush()
                m = await service.get_match(m.id)
                state = m.state
                round_over(state)
                if not m.active:
                    echo(view_text(engine.view(state, me), _=_))
                    echo(_("Final board image: {path}", path=write_board(state)))
                    echo(game_over_line(rs.result(m), m.reason, me, _))
                    echo(replay_line(m.seed, me, level, environment, setup, _, again))
                    return {"match_id": m.id, "result": rs.result(m), "reason": m.reason,
                            "rounds": state.round}
                v = engine.view(state, me)
                if me not in v.to_act:
                    continue
                legal = engine.legal_actions(state, me)
                completions[:] = [engine.format_action(a) for a in legal] + list(COMMAND_WORDS)
                if show_board:
                    echo(view_text(v, _=_))
                    echo(decision_line(m, me, _))
                    show_board = False
                ap = _(" {n} AP", n=state.ap.remaining) if state.ap is not None else ""
                prompt = f"{_.text(SIDE_WORDS[me])}{ap}{effect_prompt(state, _)}> "
                while True:
                    # full-width forms too ('？', 'ｒｕｌｅｓ', '出３'): Chinese input
                    text = await person.entry(prompt, _.text(CONFIRM_RESIGN))
                    if text is None:
                        continue
                    if text is RESIGNED:
                        await service.resign(m.id, TERMINAL_PLAYER)
                        verdict = _("{winner} wins: the {side} resigned",
                                    winner=_.text(SIDE_WORDS[me.other]).capitalize(),
                                    side=SIDE_WORDS[me])
                        echo(_("Final board image (the position you resigned in): {path}",
                               path=write_board(state, verdict, me.other)))
                        echo(_("You resigned. Bye."))
                        echo(replay_line(m.seed, me, level, environment, setup, _, again))
                        return {"match_id": m.id, "result": me.other.value,
                                "reason": "resigned", "rounds": state.round}
                    word = text.lower()
                    if word in HELP_WORDS:
                        echo(legal_text(legal, state, me, _=_))
                        continue
                    if word in BOARD_WORDS:
                        echo(view_text(v, _=_))
                        echo(_.text(LEGEND))
                        continue
                    if word == "undo":
                        try:
                            await service.undo(m.id, TERMINAL_PLAYER)
                        except ServiceError as exc:
                            echo(_("Not done. {why}", why=exc.message))
                            continue
                        echo(_("Taken back: your last action."))
                        show_board = True
                        break
                    if word.split(" ")[0] in ("rules", "cards") and (
                            word in ("rules", "cards") or word.split(" ")[-1].isdigit()):
                        echo(page_text(word, rules_text(_) if word.startswith("rules")
                                       else cards_text(_), _=_))
                        continue
                    try:
                        res = await service.act(m.id, TERMINAL_PLAYER, text)
                    except (engine.RaptorError, ServiceError) as exc:
                        echo(_("Not played: {why}", why=refusal(text, exc, state, me, _)))
                        continue
                    if isinstance(res.action, engine.Pick):
                        echo(_("You picked {card} · {name}.", card=res.action.card,
                               name=engine.card_name(me, res.action.card)))
                    else:
                        echo(_("Played: {action} — {description}",
                               action=engine.format_action(res.action),
                               description=engine.describe_action(res.action, state, me)))
                    tell(res)
                    after = res.match.state
                    # the board again only when more than the player's own step changed
                    show_board = (after.phase is not state.phase or after.round != state.round
                                  or me not in engine.to_act(after))
                    break
        except asyncio.CancelledError:  # Ctrl-C: the seed and the image, as quit tells them
            if person.waiting:
                echo("")  # the next line starts on its own, not after "raptor> "
            if m is not None:
                # a stopped match cannot be resumed: it ends, without a result, as stopped
                # (python -m bot replay shows it), rather than stay "still being played"
                with contextlib.suppress(ServiceError):
                    m = await service.stop(m.id)
                echo(_("Board image: {path}",
                       path=write_board(m.state, _.text(texts.board_verdict(m)))))
                echo(replay_line(m.seed, me, level, environment, setup, _, again))
            raise
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    """``python -m bot play``: see the module docstring. Returns the exit status."""
    from bot.ai.params import MEDIUM_WORK_SHARE  # lazy: the AI is heavy

    parser = argparse.ArgumentParser(prog="python -m bot play",
                                     description="Play Raptor against the AI in the terminal.")
    add_game_option(parser, "raptor")
    parser.add_argument("--side", choices=("raptor", "scientist", "random"), default="raptor",
                        help="the side you play (default raptor)")
    parser.add_argument("--level", choices=RAPTOR_GAME.ai_levels, default="easy",
                        help="the AI's level (default easy)")
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help="game seed (default: a fresh random one)")
    parser.add_argument("--environment", choices=("jungle", "savannah"), default="jungle",
                        help="the tiles' face (default jungle)")
    parser.add_argument("--setup", choices=("quick", "manual"), default="quick",
                        help="quick: the figurines are placed for you (at random, from the "
                             "seed); manual: you type your placements (M@G2, B@D2, S@B2) "
                             "(default quick)")
    parser.add_argument("--out", type=out_arg, default=Path("raptor-play"),
                        help="folder for the board image and the database (default ./raptor-play)")
    parser.add_argument("--budget", type=seconds_arg, default=1.0,
                        help="seconds the hard AI may think per decision, the medium AI "
                             f"{100 * MEDIUM_WORK_SHARE:g} %% of it (default 1.0)")
    add_lang_option(parser)
    args = parser.parse_args(argv)
    saved = terminal_mode()
    try:
        return run_offline(
            play(args.out, side=args.side, level=args.level, seed=args.seed,
                 environment=args.environment, setup=args.setup, read=stdin_read,
                 time_budget=args.budget, lang=args.lang or from_environment()),
            command="play", out=args.out, lang=args.lang or from_environment(),
            busy="another match is using {out} right now: choose another --out folder")
    finally:
        restore_terminal(saved)
