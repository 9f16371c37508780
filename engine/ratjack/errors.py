"""Errors raised by the Ratjack engine.

All derive from :class:`RatjackError`, itself a :class:`ValueError` (the platform's
contract, :mod:`engine.game`). Messages are :class:`~engine.messages.Text` values (the bot
translates them); they quote the input, say what is legal, and never name a card the player
receiving them may not know (RJ11.2):

- :class:`NotationError` — the text is not action notation at all.
- :class:`IllegalActionError` — a well-formed action the rules do not allow now.
- :class:`AmbiguousActionError` — the text matches more than one legal action.
- :class:`WrongTurnError` — that seat has nothing to decide now.
- :class:`OptionError` — a seat count, an option or a seat outside what is accepted.
- :class:`StateError` — a stored state (JSON) or a diagram that cannot be read.
- :class:`MatchRecordError`, :class:`UnfinishedMatchError` — records (:mod:`.record`).
"""

from __future__ import annotations


class RatjackError(ValueError):
    """Base of every Ratjack engine error."""


class NotationError(RatjackError):
    """Text that is not Ratjack action notation."""


class IllegalActionError(RatjackError):
    """An action that is not among ``legal_actions`` for that seat now."""


class AmbiguousActionError(RatjackError):
    """Input that matches more than one legal action."""


class WrongTurnError(RatjackError):
    """A seat acted while it has nothing to decide (another seat's decision, or over)."""


class OptionError(RatjackError):
    """A seat count, option value or seat number the engine does not accept."""


class StateError(RatjackError):
    """A stored state or a position diagram that is not a Ratjack state."""


class MatchRecordError(RatjackError):
    """A record that cannot be read, names an illegal action or does not reach its stated
    ending. ``line`` is the 1-based line (0: the record as a whole), ``text`` that line,
    ``reason`` what is wrong; the message quotes all three."""

    def __init__(self, line: int, text: str, reason: str) -> None:
        self.line, self.text, self.reason = line, text, reason
        where = f"line {line}: " if line else ""
        quoted = f" ({text.strip()[:80]!r})" if text.strip() else ""
        super().__init__(f"{where}{reason}{quoted}")


class UnfinishedMatchError(RatjackError):
    """A record was asked of a match still in progress: its seed fixes the deck orders, and
    its hands and hidden cards are secret (RJ11.2) until it is over."""
