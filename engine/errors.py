"""Errors raised by the engine.

All derive from :class:`RaptorError`, itself a :class:`ValueError`, so callers may catch
the whole family at once or a specific kind:

- :class:`NotationError` — the text is not valid action notation (malformed input).
- :class:`IllegalActionError` — a well-formed action that the rules do not allow now.
- :class:`AmbiguousActionError` — the text matches more than one legal action.
- :class:`WrongTurnError` — that side has nothing to decide now (wrong side or wrong phase).
- :class:`DiagramError` — a position diagram that cannot be read.
- :class:`OptionError` — an unknown game option (environment, layout, setup) or side.
- :class:`RecordError` — a saved state this engine cannot read (another schema version).
"""

from __future__ import annotations


class RaptorError(ValueError):
    """Base of every engine error. Messages quote the input and say what is legal."""


class NotationError(RaptorError):
    """Text that is not valid action notation."""


class IllegalActionError(RaptorError):
    """An action that is not among ``legal_actions`` for that side now."""


class AmbiguousActionError(RaptorError):
    """Input that matches more than one legal action."""


class WrongTurnError(RaptorError):
    """The side acted while it has nothing to decide (other side's turn, or game over)."""


class DiagramError(RaptorError):
    """A text diagram that cannot be turned into a position."""


class OptionError(RaptorError):
    """An argument outside what the function accepts: an unknown environment, layout, setup
    or side (:func:`engine.new_game`, :func:`engine.legal_actions`, ...), or the public view
    where a player's is needed (:func:`engine.sample_state`)."""


class RecordError(RaptorError):
    """A saved state (:meth:`engine.GameState.from_record`) this engine cannot read."""
