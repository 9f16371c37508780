"""Errors raised by the Raptor Race engine.

All derive from :class:`RaceError`, itself a :class:`ValueError`, so callers may catch the
whole family at once or one kind. Messages are :class:`~engine.messages.Text` (the bot
translates them), quote the input, say what would have been legal, and never name a
Top-3 card (RR9.2):

- :class:`NotationError`: the text is not race notation.
- :class:`IllegalActionError`: a well-formed action that the rules do not allow now.
- :class:`AmbiguousActionError`: the text names more than one legal action.
- :class:`WrongTurnError`: that seat has nothing to decide now (another seat's turn, a
  forfeited seat, or the race is over).
- :class:`OptionError`: an argument outside what a function accepts (a board, a seat
  count, a seat, a space name).
- :class:`StateError`: a stored state or a diagram that cannot be read.
- :class:`RaceRecordError`: a record that cannot be read or replayed (:mod:`.record`).
"""

from __future__ import annotations


class RaceError(ValueError):
    """Base of every race engine error."""


class NotationError(RaceError):
    """Text that is not race notation."""


class IllegalActionError(RaceError):
    """An action that is not among ``legal_actions`` for that seat now."""


class AmbiguousActionError(RaceError):
    """Input that matches more than one legal action."""


class WrongTurnError(RaceError):
    """The seat acted while it has nothing to decide."""


class OptionError(RaceError):
    """An unknown board, a seat count outside 2-5, a seat not at the table, a bad space."""


class StateError(RaceError):
    """A stored state (JSON) or a diagram that is not a race position."""


class RaceRecordError(RaceError):
    """A record that cannot be read, names an illegal action, or does not reach what its
    header says. ``line`` is the 1-based line number (0: the record as a whole), ``text``
    that line, ``reason`` what is wrong; the message holds all three."""

    def __init__(self, line: int, text: str, reason: str) -> None:
        self.line, self.text, self.reason = line, text, reason
        where = f"line {line}: " if line else ""
        quoted = f" ({text.strip()[:80]!r})" if text.strip() else ""
        super().__init__(f"{where}{reason}{quoted}")


class UnfinishedRaceError(RaceError):
    """A record was asked of a race still under way: its seed fixes every card and every
    roll to come (RR9.2)."""
