"""The rules of Ratjack as a pure, deterministic library (2-4 players, cards face up and face
down, never over 25).

The rule IDs (RJ1-RJ11) cited throughout are those of ``docs/RATJACK_RULES.md``, the rules
of record. The platform reaches the game through :data:`RATJACK` (an
:class:`engine.game.Game`).

Public API::

    new_game(seed, seats, decks) -> State
    to_act(state) -> frozenset[int];  legal_actions(state, seat) -> list[Action]
    apply(state, seat, action) -> State;  forfeit(state, seat) -> State
    view(state, seat | None) -> View;  sample_state(view, rng) -> State
    parse_action(text, state, seat, names=...) -> Action;  format_action(action) -> str
    to_diagram(state) -> str;  from_diagram(text) -> State
    replay(seed, seats, decks, log) -> State
    write_record(seed, seats, decks, log, header) -> str;  read_record(text) -> MatchRecord
    State.to_json() / State.from_json(text)

Where each piece of knowledge lives: the decks, chips and the 36 effects with their needs in
:mod:`.cards`; how each effect is carried out in :mod:`.effects`; totals, opponents and
"fully resolvable" in :mod:`.predicates`; legality, turns and rounds in :mod:`.rules`; what
each seat knows in :mod:`.view`.
"""

from .actions import (
    ACTION_TYPES,
    Action,
    Chip,
    Discard,
    Down,
    Draw,
    Flip,
    NoFlip,
    Opponent,
    Source,
    Target,
    Up,
    action_from_dict,
    format_action,
    seat_name,
)
from .cards import (
    ALL_CARDS,
    CHIP_SIZES,
    DECK_PAIRS,
    DECKS,
    EFFECTS,
    LIMIT,
    WINNING_VP,
    Deck,
    Effect,
    Kind,
    Need,
    effect_of,
    effect_title,
    round_cards,
)
from .diagram import from_diagram, to_diagram
from .effects import StepKind
from .errors import (
    AmbiguousActionError,
    IllegalActionError,
    MatchRecordError,
    NotationError,
    OptionError,
    RatjackError,
    StateError,
    UnfinishedMatchError,
    WrongTurnError,
)
from .game import RATJACK, RatjackGame, outcome
from .notation import parse_action
from .predicates import fully_resolvable, total
from .record import MatchRecord, read_record, write_record
from .rules import apply, forfeit, legal_actions, new_game, replay, to_act
from .state import EVERYONE, Event, EventKind, Phase, Reason, RoundEnd, RoundResult, State
from .view import CardView, HandView, Pending, View, sample_state, view

__all__ = [
    "ACTION_TYPES", "ALL_CARDS", "Action", "AmbiguousActionError", "CHIP_SIZES", "CardView",
    "Chip", "DECKS", "DECK_PAIRS", "Deck", "Discard", "Down", "Draw", "EFFECTS", "EVERYONE",
    "Effect", "Event", "EventKind", "Flip", "HandView", "IllegalActionError", "Kind", "LIMIT",
    "MatchRecord", "MatchRecordError", "Need", "NoFlip", "NotationError", "Opponent",
    "OptionError", "Pending", "Phase", "RATJACK", "RatjackError", "RatjackGame", "Reason",
    "RoundEnd", "RoundResult", "Source", "State", "StateError", "StepKind", "Target",
    "UnfinishedMatchError", "Up", "View", "WINNING_VP", "WrongTurnError", "action_from_dict",
    "apply", "effect_of", "effect_title", "forfeit", "format_action", "from_diagram",
    "fully_resolvable", "legal_actions", "new_game", "outcome", "parse_action",
    "read_record", "replay", "round_cards", "sample_state", "seat_name", "to_act",
    "to_diagram", "total", "view", "write_record",
]
