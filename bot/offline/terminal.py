"""Terminal mode: play one side against the AI by typing action notation.

``python -m bot play [--side raptor|scientist|random] [--level easy|hard] [--seed S]
[--environment jungle|savannah] [--out DIR] [--budget S]``

The match runs through the same match service, SQLite storage (``DIR/play.sqlite3``) and
renderer as the bot. After every round the path of the latest board PNG is printed. Type
``?`` for your legal actions, ``board`` (``b``) to see the board again, ``rules`` and
``cards`` for the rules in short and the card texts, ``quit`` (``q``) to resign and stop;
the end of input (Ctrl-D, or the end of piped input) resigns too, and says so. The AI's card
stays hidden until both cards are revealed, as on Discord. A ``--seed`` you give is shown at
the start; a fresh seed is shown only when the match ends (it fixes every hand and deck order),
with the command that deals the same game again. Ctrl-C stops at once (exit status 130).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import engine
from engine import Side
from engine.diagram import CHARS, HEADER
from engine.geometry import COLS, ROWS, sq

from .. import texts
from ..db import Database
from ..match import ActResult, MatchService, ServiceError
from .demo import REASONS, folder_lock, out_arg, resolution, run_offline, seconds_arg, seed_arg

HUMAN_ID = 1
AI_ID = 2
GUILD, CHANNEL = 1, 1
HELP = ("Type an action in notation (e.g. 'G2-G5', 'kill F3', 'play 5', 'end'), '?' for "
        "your legal actions, 'board' (or 'b') for the board, 'rules' for the rules in short, "
        "'cards' for what every card does, 'undo' to take back your last action-point move, "
        "'quit' (or 'q') to resign and stop.")


def _plain(text: str) -> str:
    """Discord's markdown (``**bold**``, ``*italic*``, ```code```) as plain terminal text."""
    return text.replace("**", "").replace("*", "").replace("`", "'")


def rules_text() -> str:
    """The rules in short and how to play here, as ``/raptor rules`` gives them on Discord."""
    summary = _plain(texts.RULES_SUMMARY)
    summary = summary[:summary.index("Playing here")].rstrip()
    return summary + "\n\n" + HELP


def cards_text() -> str:
    """Both sides' nine cards with their effects (R9, R10)."""
    return "\n\n".join(_plain(texts.card_reference(side)) for side in (Side.RAPTOR,
                                                                          Side.SCIENTIST))


def effect_lines(events) -> list[str]:
    """A line for a card effect that found nothing to act on (an ``effect`` event followed
    by the AP phase, with at most card 1's shuffle between), which would otherwise pass in
    silence (R5.4)."""
    out = []
    kinds = [e.kind for e in events]
    for i, e in enumerate(events):
        if e.kind != "effect":
            continue
        after = [k for k in kinds[i + 1:] if k != "shuffled"]
        if after and after[0] == "ap":
            out.append(f"The {e.side.value}'s {engine.card_name(e.side, e.value)} finds "
                       "nothing on the board to act on.")
    return out


def view_text(v: engine.View) -> str:
    """A text picture of a view: the grid (legend as in :mod:`engine.diagram`), the public
    counters and, in a player's view, that player's own hand. Nothing hidden from ``v``."""
    lines = [HEADER]
    for r in range(ROWS):
        lines.append(f"{r + 1}   " + " ".join(CHARS[v.board[sq(r, c)]] for c in range(COLS)))
    lines.append("legend: M mother · B baby · b sleeping baby (z: put to sleep this round) · "
                 "S scientist (A: made its aggressive action this round) · s frightened "
                 "scientist (f: frightened this round) · * fire · # rock · o exit")
    lines.append(f"round {v.round} · {v.phase.value.replace('_', ' ')} · waiting for "
                 f"{', '.join(sorted(s.value for s in v.to_act)) or 'nobody'}")
    lines.append(f"sleep tokens {v.sleep_tokens}/5 · escaped {v.escaped}/3 · captured "
                 f"{v.captured}/3 · reserve {v.reserve} · fire supply {v.fire_supply}"
                 + (" · the mother has disappeared" if v.mother_off else ""))
    for side in (Side.RAPTOR, Side.SCIENTIST):
        pile = " ".join(map(str, v.discards[side])) or "-"
        lines.append(f"{side.value} discard: {pile} · deck {v.deck_sizes[side]} · hand "
                     f"{v.hand_sizes[side]}")
    if v.revealed:
        lines.append(f"revealed: raptor {v.revealed[0]}, scientist {v.revealed[1]}")
    if v.ap is not None:
        lines.append(f"{v.ap.side.value} has {v.ap.remaining} AP left")
    if v.effect is not None:
        lines.append(f"{v.effect.side.value} resolves "
                     f"{engine.card_name(v.effect.side, v.effect.card)}")
    if v.viewer is not None and v.hand is not None:
        cards = ", ".join(f"{c} {engine.card_name(v.viewer, c)}" for c in v.hand)
        lines.append(f"your hand: {cards}")
        if v.my_pick is not None:
            lines.append(f"your pick: {v.my_pick}")
        if v.shown_pick is not None and v.viewer is Side.RAPTOR:
            lines.append(f"observation: the scientist picked {v.shown_pick}")
        elif (v.observation and v.viewer is Side.SCIENTIST and v.phase is engine.Phase.PICK
              and v.my_pick is None):
            lines.append("observation: you pick first, and the raptor sees your card "
                         "before picking")
    return "\n".join(lines)


def replay_line(seed: int, me: Side, level: str, environment: str) -> str:
    """How to play the same deal again. Shown only once the match has ended: the seed fixes
    every hand and deck order (R11 keeps it hidden while the match runs)."""
    return (f"Seed {seed}: python -m bot play --seed {seed} --side {me.value} --level {level} "
            f"--environment {environment} deals this game again.")


def game_over_line(result: str | None, reason: str | None, me: Side) -> str:
    """The end of the match in words, e.g. ``'Game over: the scientist (AI) wins: three
    babies were captured.'`` (the wording of the demo's verdict)."""
    why = REASONS.get(reason or "", (reason or "").replace("_", " "))
    if result not in ("raptor", "scientist"):
        return f"Game over: no winner ({why})."
    who = "you win" if result == me.value else f"the {result} (AI) wins"
    return f"Game over: {who}: {why}."


def revealed_line(raptor_card: int, scientist_card: int) -> str:
    """The reveal and what it leads to, as in the demo's round line (R5.3)."""
    return (f"Revealed: raptor {raptor_card}, scientist {scientist_card}: "
            f"{resolution(raptor_card, scientist_card)}.")


ECHO_LIMIT = 40


def _short(text: str) -> str:
    return text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT] + "…"


def refusal(text: str, exc: Exception, state: engine.GameState, side: Side) -> str:
    """Why ``text`` was not played, for the terminal: the engine's or service's message (the
    engine already calls an entry that fits no notation form, e.g. ``'play 5 5 5'``,
    malformed, quotes long entries cut short and lists suggestions in their canonical
    notation, ``H1-E1``, ``M@B1``), with any other full quote of a long entry shortened to
    :data:`ECHO_LIMIT` characters; malformed entries get a pointer to ``?``."""
    message = getattr(exc, "message", None) or str(exc)
    if len(text) > ECHO_LIMIT:
        message = message.replace(repr(text), repr(_short(text)))
    if isinstance(exc, engine.NotationError):
        message += " ('?' lists your legal actions)"
    return message


def describe_opponent(res: ActResult) -> str:
    """The opponent's step as the human may see it: a pick is only 'picked a card'."""
    if isinstance(res.action, engine.Pick):
        return f"The {res.side.value} (AI) has picked a card."
    return f"The {res.side.value} (AI): {engine.format_action(res.action)}"


class _RawLines:
    """Lines from a file descriptor read with :func:`os.read`, never through ``sys.stdin``.

    The input thread may still be blocked in a read when the program ends (Ctrl-C); reading
    the raw descriptor means it holds no lock of ``sys.stdin``'s buffered reader then, which
    would abort the interpreter at shutdown ("could not acquire lock for <stdin>").
    Text is decoded as UTF-8 (undecodable bytes replaced)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = b""
        self.ended = False

    def readline(self) -> str:
        """The next line without its line break.

        Raises:
            EOFError: end of input and nothing pending.
        """
        while b"\n" not in self.pending and not self.ended:
            chunk = os.read(self.fd, 65536)
            if chunk:
                self.pending += chunk
            else:
                self.ended = True
        if b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
        elif self.pending:
            line, self.pending = self.pending, b""
        else:
            raise EOFError
        return line.decode("utf-8", "replace").rstrip("\r")


_stdin_lines: _RawLines | None = None


def stdin_read(prompt: str) -> str:
    """The default ``read`` of :func:`play`: on a terminal :func:`input` (line editing);
    otherwise (piped input) the prompt is written to stdout and the line read from file
    descriptor 0 directly (see :class:`_RawLines`).

    Raises:
        EOFError: end of input.
    """
    global _stdin_lines
    if sys.stdin is not None and sys.stdin.isatty():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    if _stdin_lines is None:
        _stdin_lines = _RawLines(0)
    return _stdin_lines.readline()


async def _read_line(read: Callable[[str], str], prompt: str) -> str:
    """Call ``read(prompt)`` on a daemon thread, so Ctrl-C stops the program at once instead
    of waiting for the line (a worker of the default executor would be waited for).

    Raises:
        EOFError: end of input.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def work() -> None:
        try:
            line = read(prompt)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting coroutine
            loop.call_soon_threadsafe(_settle, future, None, exc)
        else:
            loop.call_soon_threadsafe(_settle, future, line, None)

    threading.Thread(target=work, name="terminal-input", daemon=True).start()
    return await future


def _settle(future: asyncio.Future, value: object, exc: BaseException | None) -> None:
    if future.done():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(value)


async def play(out: Path, *, side: str = "raptor", level: str = "easy", seed: int | None = None,
               environment: str = "jungle", read: Callable[[str], str] = stdin_read,
               echo: Callable[[str], None] = print, time_budget: float = 1.0) -> dict:
    """Run a terminal match; returns ``{"match_id", "result", "reason", "rounds"}``.
    ``read``/``echo`` are the input and output functions (tests pass their own)."""
    from render import render_board

    with folder_lock(out):
        return await _play(out, render_board, side=side, level=level, seed=seed,
                           environment=environment, read=read, echo=echo,
                           time_budget=time_budget)


async def _play(out: Path, render_board: Callable, *, side: str, level: str, seed: int | None,
                environment: str, read: Callable[[str], str], echo: Callable[[str], None],
                time_budget: float) -> dict:
    def write_board(state: engine.GameState, verdict: str | None = None) -> Path:
        """The public board image of ``state`` to ``out/board.png`` (with ``verdict`` as its
        banner, for a resignation); its absolute path."""
        png = out / "board.png"
        view = engine.view(state, None)
        png.write_bytes(render_board(view, verdict=verdict, winner=me.other) if verdict
                        else render_board(view))
        return png.resolve()

    db = await Database.open(out / "play.sqlite3")
    try:
        service = MatchService(db, ai_time_budget=time_budget)
        old = await service.active_match(CHANNEL)
        if old is not None:
            await service.resign(old.id, old.players[Side.RAPTOR] if old.ai[Side.RAPTOR] is None
                                 else old.players[Side.SCIENTIST])
        m = await service.start_practice(GUILD, CHANNEL, HUMAN_ID, side=side, level=level,
                                         environment=environment, ai_user_id=AI_ID, seed=seed)
        me = m.side_of(HUMAN_ID)
        echo(f"You play the {me.value}; the AI ({level}) plays the {me.other.value}. {HELP}")
        echo(f"Seed {seed}." if seed is not None else
             "Seed: shown when the match ends (it would give away the AI's cards now).")
        shown_round = -1

        def round_over(state: engine.GameState) -> None:
            """Once per round: the end of the last one, and the board image."""
            nonlocal shown_round
            if state.round != shown_round and state.last_round_events:
                if shown_round != -1 or state.round > 1:
                    echo(f"Round {state.round - 1} is over: escaped {state.escaped}/3 · "
                         f"captured {state.captured}/3 · sleep tokens {state.sleep_tokens}/5.")
                echo(f"Board image: {write_board(state)}")
                shown_round = state.round

        while True:
            for res in await service.play_ai(m.id):
                if isinstance(res.action, engine.Pick) and not res.round_ended:
                    round_over(res.match.state)  # the AI's pick opens the next round
                echo(describe_opponent(res))
                for e in res.events:
                    if e.kind == "revealed":
                        echo(revealed_line(e.value, e.value2))
                for line in effect_lines(res.events):
                    echo(line)
            m = await service.get_match(m.id)
            state = m.state
            round_over(state)
            if not m.active:
                png = write_board(state)
                echo(view_text(engine.view(state, me)))
                echo(f"Final board image: {png}")
                echo(game_over_line(m.result, m.reason, me))
                echo(replay_line(m.seed, me, level, environment))
                return {"match_id": m.id, "result": m.result, "reason": m.reason,
                        "rounds": state.round}
            v = engine.view(state, me)
            if me not in v.to_act:
                continue
            echo(view_text(v))
            while True:
                try:
                    text = (await _read_line(read, f"{me.value}> ")).strip()
                except EOFError:
                    echo("End of input: you resign.")
                    text = "quit"
                if text.lower() in ("quit", "exit", "q"):
                    await service.resign(m.id, HUMAN_ID)
                    verdict = f"{me.other.value.capitalize()} wins: the {me.value} resigned"
                    echo(f"Final board image (the position you resigned in): "
                         f"{write_board(state, verdict)}")
                    echo("You resigned. Bye.")
                    echo(replay_line(m.seed, me, level, environment))
                    return {"match_id": m.id, "result": me.other.value, "reason": "resigned",
                            "rounds": state.round}
                if text.lower() in ("?", "help", "list", "moves"):
                    legal = engine.legal_actions(state, me)
                    echo("\n".join(f"  {engine.format_action(a):<14} "
                                   f"{engine.describe_action(a, state, me)}" for a in legal))
                    continue
                if text.lower() in ("board", "b"):
                    echo(view_text(v))
                    continue
                if text.lower() == "undo":
                    try:
                        await service.undo(m.id, HUMAN_ID)
                    except ServiceError as exc:
                        echo(f"Not done. {exc.message}")
                        continue
                    echo("Taken back: your last action.")
                    break
                if text.lower() == "rules":
                    echo(rules_text())
                    continue
                if text.lower() == "cards":
                    echo(cards_text())
                    continue
                try:
                    res = await service.act(m.id, HUMAN_ID, text)
                except (engine.RaptorError, ServiceError) as exc:
                    echo(f"Not played: {refusal(text, exc, state, me)}")
                    continue
                if isinstance(res.action, engine.Pick):
                    echo(f"You picked {res.action.card} · "
                         f"{engine.card_name(me, res.action.card)}.")
                else:
                    echo(f"Played: {engine.format_action(res.action)} — "
                         f"{engine.describe_action(res.action, state, me)}")
                for e in res.events:
                    if e.kind == "revealed":
                        echo(revealed_line(e.value, e.value2))
                for line in effect_lines(res.events):
                    echo(line)
                break
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    """``python -m bot play``: see the module docstring. Returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m bot play",
                                     description="Play Raptor against the AI in the terminal.")
    parser.add_argument("--side", choices=("raptor", "scientist", "random"), default="raptor",
                        help="the side you play (default raptor)")
    parser.add_argument("--level", choices=("easy", "hard"), default="easy",
                        help="the AI's level (default easy)")
    parser.add_argument("--seed", type=seed_arg, default=None,
                        help="game seed (default: a fresh random one)")
    parser.add_argument("--environment", choices=("jungle", "savannah"), default="jungle",
                        help="the tiles' face (default jungle)")
    parser.add_argument("--out", type=out_arg, default=Path("raptor-play"),
                        help="folder for the board image and the database (default ./raptor-play)")
    parser.add_argument("--budget", type=seconds_arg, default=1.0,
                        help="seconds the hard AI may think per decision (default 1.0)")
    args = parser.parse_args(argv)
    return run_offline(
        play(args.out, side=args.side, level=args.level, seed=args.seed,
             environment=args.environment, read=stdin_read, time_budget=args.budget),
        command="play", out=args.out,
        busy="another match is using {out} right now: choose another --out folder")
