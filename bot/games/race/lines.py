"""What the race's offline modes (the demo, the terminal game) print and log: the players by
seat, a line per turn, the result, all in a :class:`~bot.i18n.Translator`'s language. The
sentences come from :mod:`bot.games.race.texts` (Discord's markup taken out); the notation
is the same in every language.

Nothing here reads a card before the race is over (RR9.2): a turn's line tells the rolls,
the dice set aside and the steps, all public (RR9.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import engine.race as race
from engine.game import Seat
from engine.messages import Text
from engine.race import Keep, LogEntry, RaceState
from engine.race.track import row_of

from ...i18n import Translator
from ...match.models import Match
from ...texts import LEVEL_WORDS, plain
from . import texts


def offline_player(match: Match, seat: Seat, me: Seat | None = None) -> Text:
    """A seat's player in the offline modes: ``"seat 2 (you)"``, ``"seat 3 (AI hard)"``."""
    level = match.ai_of(seat)
    if seat == me or level is None:
        return Text("seat {n} (you)", n=seat + 1)
    return Text("seat {n} (AI {level})", n=seat + 1,
                level=LEVEL_WORDS.get(level, level))


def namer(me: Seat | None = None) -> texts.Who:
    """:data:`bot.games.race.texts.Who` for the offline modes (:func:`offline_player`)."""
    return lambda match, seat: offline_player(match, seat, me)


def roll_text(state: RaceState) -> str:
    """What the roll now on the table showed: the footprint dice just rolled and, when the
    arrows die was rolled with them, ``/n`` its arrows (``GGPY/1``, as records write it)."""
    arrows = "" if state.arrow_die is None or state.arrow_aside else f"/{state.arrow_die}"
    return texts.dice_text(state.rolled) + arrows


def leaders(state: RaceState, _: Translator) -> str:
    """The raptors on the highest row and that row: ``"Green (row 6)"``, ``"Green, Blue
    (row 6)"``, or the raptor beyond the finish line."""
    group = race.placing(state.raptors, state.winner)[0]
    names = Text.joined(", ", [texts.raptor_name(r) for r in group])
    if state.winner is not None:
        return _("{raptors} (across the line)", raptors=names)
    return _("{raptors} (row {row})", raptors=names,
             row=row_of(state.space_of(group[0])))


@dataclass
class TurnLog:
    """The decisions of the turn under way, told as one line when it ends (:meth:`add`,
    then :meth:`line`), in ``tr``'s language."""

    tr: Translator
    rolls: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    turn: int | None = None
    seat: Seat | None = None
    noted: list[list[str]] = field(default_factory=list)  # the list each decision went to

    def add(self, before: RaceState, seat: Seat, action: LogEntry | None,
            after: RaceState) -> bool:
        """Note ``seat``'s ``action`` (None: its forfeit, RR3.6) that led from ``before`` to
        ``after``; True when the turn it was played in is over (a new turn began, or the
        race ended): :meth:`line` then tells it."""
        if self.turn is None:
            self.turn, self.seat = before.turn, before.seat
        if action is None:
            self._note(self.moves, self.tr("seat {n} leaves the race", n=seat + 1))
        elif type(action) is Keep:
            self._note(self.rolls, f"{roll_text(before)}: {race.format_action(action)}")
        else:
            self._note(self.moves, race.format_action(action))
        return after.turn != self.turn or after.is_over

    def _note(self, into: list[str], text: str) -> None:
        into.append(text)
        self.noted.append(into)

    def undo(self) -> None:
        """Forget the last decision noted (it was taken back)."""
        if self.noted:
            self.noted.pop().pop()

    def line(self, match: Match, after: RaceState, me: Seat | None = None) -> str:
        """The finished turn in one line (and a fresh log for the next one):
        ``Turn   3 · seat 2 (AI hard): GGPT: keep GT; OY: keep O · G>C4, +Y>D6 · leading:
        Green (row 6)``: the rolls and what was set aside after each, then the steps."""
        _ = self.tr
        who = offline_player(match, self.seat, me)
        text = _("Turn {n:3d} · {player}: {rolls} · {moves} · leading: {leaders}",
                 n=self.turn, player=who, rolls="; ".join(self.rolls) or "-",
                 moves=", ".join(self.moves) or "-", leaders=leaders(after, _))
        self.rolls, self.moves, self.noted, self.turn, self.seat = [], [], [], None, None
        return text


def result_lines(match: Match, _: Translator, me: Seat | None = None) -> list[str]:
    """The end of the race in plain lines: who won and which raptor crossed the line, the
    raptors' order, every player's place, points and card (:func:`texts.result_text`)."""
    return plain(_.text(texts.result_text(match, namer(me)))).split("\n")


__all__ = ["TurnLog", "leaders", "namer", "offline_player", "plain", "result_lines",
           "roll_text"]
