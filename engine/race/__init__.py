"""The rules of Raptor Race as a pure, deterministic library.

The rule IDs (RR1-RR9) cited throughout are those of ``docs/RACE_RULES.md``, the rules of
record. Imports nothing of the bot or the renderer; of the rest of the engine only the
platform's contract (:mod:`engine.game`) and translatable text (:mod:`engine.messages`).

Public API::

    new_game(seed, seats, board) -> RaceState
    to_act(state) -> frozenset[int];  legal_actions(state, seat) -> list[Action]
    apply(state, seat, action) -> RaceState;  forfeit(state, seat) -> RaceState | None
    view(state, seat | None) -> RaceView;  sample_state(view, rng) -> RaceState
    parse_action(text, state, seat) -> Action;  format_action(action) -> str
    outcome(state) -> Outcome | None;  card_scores(state);  placing(raptors, winner)
    replay(seed, seats, board, log) -> RaceState
    write_record(seed, seats, board, log, header) -> str;  read_record(text) -> RaceRecord
    to_diagram(state | view) -> str;  from_diagram(text) -> RaceState
    RaceState.to_json() / RaceState.from_json(text)
    RACE: the engine.game.Game object

Where each piece of knowledge lives: the raptors, dice faces and cards in
:mod:`.components`; the tracks in :mod:`.track`; where a step may end, compulsory arrows and
the selections of dice in :mod:`.predicates`; legality and ``apply`` in :mod:`.rules`; the
placing and the scores in :mod:`.scoring`; what a seat may see in :mod:`.view`.
"""

from .actions import (
    Action,
    Boost,
    Forfeit,
    Keep,
    LogEntry,
    Move,
    NoStep,
    action_from_dict,
    action_from_notation,
    action_to_dict,
    format_action,
)
from .components import (
    ARROW_FACES,
    CARDS,
    FOOTPRINT_FACES,
    RAPTOR_NAMES,
    RAPTORS,
    Face,
    Raptor,
    card_letters,
)
from .diagram import from_diagram, to_diagram
from .errors import (
    AmbiguousActionError,
    IllegalActionError,
    NotationError,
    OptionError,
    RaceError,
    RaceRecordError,
    StateError,
    UnfinishedRaceError,
    WrongTurnError,
)
from .game import RACE, RaceGame
from .notation import describe_action, parse_action
from .record import RaceRecord, read_record, write_record
from .rules import apply, forfeit, legal_actions, new_game, replay, roll_dice, to_act
from .scoring import CardScore, best_score, card_scores, outcome, placing, score_in_order
from .state import Phase, RaceState, Reason, Step
from .track import TRACKS, Board, Track, space, space_name, track
from .view import RaceView, sample_state, view

__all__ = [
    "ARROW_FACES", "Action", "AmbiguousActionError", "Board", "Boost", "CARDS", "CardScore",
    "FOOTPRINT_FACES", "Face", "Forfeit", "IllegalActionError", "Keep", "LogEntry", "Move",
    "NoStep", "NotationError", "OptionError", "Phase", "RACE", "RAPTORS", "RAPTOR_NAMES",
    "RaceError", "RaceGame", "RaceRecord", "RaceRecordError", "RaceState", "RaceView",
    "Raptor", "Reason", "StateError", "Step", "TRACKS", "Track", "UnfinishedRaceError",
    "WrongTurnError", "action_from_dict", "action_from_notation", "action_to_dict", "apply",
    "best_score", "card_letters", "card_scores", "describe_action", "forfeit",
    "format_action", "from_diagram", "legal_actions", "new_game", "outcome", "parse_action",
    "placing", "read_record", "replay", "roll_dice", "sample_state", "score_in_order",
    "space", "space_name", "to_act", "to_diagram", "track", "view", "write_record",
]
