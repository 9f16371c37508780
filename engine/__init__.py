"""The rules of Raptor as a pure, deterministic library.

The rule IDs (R1-R11) cited throughout are those of ``docs/RULES.md``, the rules of record
(in this repository).

Public API::

    new_game(seed, *, environment, layout, setup) -> GameState
    to_act(state) -> frozenset[Side]
    legal_actions(state, side) -> list[Action]
    apply(state, side, action) -> GameState
    view(state, side | None) -> View
    parse_action(text, state, side) -> Action;  format_action(action) -> str
    to_diagram(state) -> str;  from_diagram(text) -> GameState
    replay(seed, options, actions) -> GameState
    write_record(seed, options, actions, ...) -> str;  read_record(text) -> MatchRecord
    GameState.to_json() / GameState.from_json(text)
    card(side, value) -> Card;  CARD_TABLE;  card_name / card_text / effect_text

Where each piece of knowledge lives: the rules' computations (wound cost, fire group, jeep
stops, shot blocking, gas range, fire spots, walks, calls, AP, victory) in
:mod:`engine.predicates`; the cards in :mod:`engine.cards`; the board in
:mod:`engine.geometry`; the byte-lane tricks behind the fast paths in :mod:`engine.bits`;
legality and ``apply`` in :mod:`engine.rules`; refusal reasons in :mod:`engine.explain`.
"""

from .actions import (
    ACTION_TYPES,
    Action,
    CallBaby,
    Capture,
    End,
    Frighten,
    Gas,
    Heal,
    Jeep,
    Kill,
    MoveBaby,
    MoveMother,
    MoveScientist,
    Pick,
    PlaceBaby,
    PlaceFire,
    PlaceMother,
    PlaceScientist,
    PutOut,
    Reinforce,
    Shoot,
    SleepBaby,
    Stand,
    Wake,
    action_from_dict,
)
from .cards import (
    CARD_TABLE,
    CARD_VALUES,
    EFFECTS,
    Card,
    Unit,
    card,
    card_name,
    card_text,
    effect_text,
)
from .diagram import from_diagram, to_diagram
from .errors import (
    AmbiguousActionError,
    DiagramError,
    IllegalActionError,
    NotationError,
    OptionError,
    RaptorError,
    RecordError,
    WrongTurnError,
)
from .geometry import Layout, square, square_name
from .notation import describe_action, format_action, parse_action
from .record import (
    Ending,
    MatchRecord,
    MatchRecordError,
    UnfinishedMatchError,
    read_record,
    write_record,
)
from .rules import apply, legal_actions, new_game, replay, to_act
from .state import (
    REASON_WORDS,
    SCHEMA_VERSION,
    SIDE_NAMES,
    Event,
    GameState,
    Options,
    Phase,
    Piece,
    Reason,
    Side,
)
from .view import View, sample_state, view

__all__ = [
    "ACTION_TYPES", "Action", "AmbiguousActionError", "CARD_TABLE", "CARD_VALUES", "CallBaby",
    "Capture", "Card", "DiagramError", "EFFECTS", "End", "Ending", "Event", "Frighten",
    "GameState", "Gas", "Heal", "IllegalActionError", "Jeep", "Kill", "Layout", "MatchRecord",
    "MatchRecordError", "MoveBaby", "MoveMother", "MoveScientist", "NotationError",
    "OptionError", "Options", "Phase", "Pick", "Piece", "PlaceBaby", "PlaceFire", "PlaceMother",
    "PlaceScientist", "PutOut", "REASON_WORDS", "RaptorError", "Reason", "RecordError",
    "Reinforce", "SCHEMA_VERSION", "SIDE_NAMES", "Shoot", "Side", "SleepBaby", "Stand",
    "UnfinishedMatchError", "Unit",
    "View", "Wake", "WrongTurnError", "action_from_dict", "apply", "card", "card_name",
    "card_text", "describe_action", "effect_text", "format_action", "from_diagram",
    "legal_actions", "new_game", "parse_action", "read_record", "replay", "sample_state",
    "square", "square_name", "to_act", "to_diagram", "view", "write_record",
]
