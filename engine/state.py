"""Game state: a lean, immutable-by-convention value with pydantic JSON at the boundary.

The rules module builds new states with :meth:`GameState.copy`; nothing mutates a state
after it is returned to a caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from .errors import OptionError, RecordError
from .geometry import BOARD_SQUARES, CELLS, SQUARE_NAMES, Layout, check_environment, square
from .messages import Text

SCHEMA_VERSION = 1


class Side(StrEnum):
    """The two players."""

    RAPTOR = "raptor"
    SCIENTIST = "scientist"

    @property
    def other(self) -> Side:
        return Side.SCIENTIST if self is Side.RAPTOR else Side.RAPTOR

    def __repr__(self) -> str:
        return f"Side.{self.name}"


RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST


class Phase(StrEnum):
    """Explicit phases of a game (R4, R5, R9.2)."""

    SETUP_MOTHER = "setup_mother"        # raptor places the mother (R4.1)
    SETUP_BABIES = "setup_babies"        # raptor places the five babies (R4.1)
    SETUP_SCIENTISTS = "setup_scientists"  # scientist places four scientists (R4.2)
    PICK = "pick"                        # simultaneous secret pick (R5.1, R5.2)
    EFFECT = "effect"                    # lower card's effect, unit by unit (R5.4)
    AP = "ap"                            # higher card's action points (R5.5)
    MOTHER_RETURN = "mother_return"      # raptor puts the mother back (R9.2)
    OVER = "over"                        # a victory condition holds (R5.7, R6)


_PHASE_OVER = Phase.OVER


class Reason(StrEnum):
    """Why a game ended (R6)."""

    BABIES_ESCAPED = "babies_escaped"          # R6.1: 3 babies escaped
    NO_SCIENTISTS = "no_scientists"            # R6.1: no scientist left on the board
    MOTHER_ASLEEP = "mother_asleep"            # R6.2: 5 sleep tokens
    BABIES_CAPTURED = "babies_captured"        # R6.2: 3 babies captured


#: The sides' names at the start of a line or in a title ("Raptor wins: ...").
SIDE_NAMES: dict[Side, Text] = {Side.RAPTOR: Text("Raptor"), Side.SCIENTIST: Text("Scientist")}
#: Each end of a game in words (R6), as a winner's line says it ("Scientist wins: three
#: babies were captured"); every program that tells an ending reads this table.
REASON_WORDS: dict[Reason, Text] = {
    Reason.BABIES_ESCAPED: Text("three babies escaped"),
    Reason.NO_SCIENTISTS: Text("no scientist is left on the board"),
    Reason.MOTHER_ASLEEP: Text("the mother holds five sleep tokens"),
    Reason.BABIES_CAPTURED: Text("three babies were captured"),
}


class Piece(StrEnum):
    """The figurines (R1.1, R1.2), as events name them (:attr:`Event.piece`)."""

    MOTHER = "mother"
    BABY = "baby"
    SCIENTIST = "scientist"


#: The phases of the setup (R4.1, R4.2), before round 1.
SETUP_PHASES = frozenset({Phase.SETUP_MOTHER, Phase.SETUP_BABIES, Phase.SETUP_SCIENTISTS})


# Board cell codes.
VOID = 0           # not part of the board (columns A and M except exits)
EMPTY = 1
ROCK = 2
FIRE = 3
EXIT = 4
MOTHER = 5
BABY = 6           # active (standing) baby
BABY_ASLEEP = 7
BABY_ASLEEP_NEW = 8    # put to sleep this round (R7.4)
SCIENTIST_ACTIVE = 9
SCIENTIST_USED = 10    # active, has made its aggressive action this round (R8.6)
SCIENTIST_FRIGHTENED = 11
SCIENTIST_FRIGHTENED_NEW = 12  # frightened this round (R8.2)

BABY_CODES = frozenset({BABY, BABY_ASLEEP, BABY_ASLEEP_NEW})
SLEEPING_BABY_CODES = frozenset({BABY_ASLEEP, BABY_ASLEEP_NEW})
SCIENTIST_CODES = frozenset({SCIENTIST_ACTIVE, SCIENTIST_USED, SCIENTIST_FRIGHTENED,
                             SCIENTIST_FRIGHTENED_NEW})
ACTIVE_SCIENTIST_CODES = frozenset({SCIENTIST_ACTIVE, SCIENTIST_USED})
FIGURINE_CODES = BABY_CODES | SCIENTIST_CODES | {MOTHER}

CELL_NAMES = {
    VOID: "void", EMPTY: "empty", ROCK: "rock", FIRE: "fire", EXIT: "exit", MOTHER: "mother",
    BABY: "baby", BABY_ASLEEP: "baby_asleep", BABY_ASLEEP_NEW: "baby_asleep_new",
    SCIENTIST_ACTIVE: "scientist", SCIENTIST_USED: "scientist_used",
    SCIENTIST_FRIGHTENED: "scientist_frightened",
    SCIENTIST_FRIGHTENED_NEW: "scientist_frightened_new",
}
CELL_CODES = {v: k for k, v in CELL_NAMES.items()}

FIRE_TOKENS = 10
SLEEP_TOKENS = 5
SCIENTISTS = 10


class Event(NamedTuple):
    """Something that happened, public by construction (no hidden card values).

    ``kind`` is one of: ``placed``, ``picked``, ``shown``, ``revealed``, ``tie``, ``effect``,
    ``moved``, ``called``, ``escaped``, ``disappeared``, ``returned``, ``frightened``,
    ``stood``, ``slept``, ``woken``, ``healed``, ``captured``, ``shot``, ``killed``,
    ``fire_placed``, ``fire_out``, ``jeep``, ``reinforced``, ``effect_lost`` (a card effect
    ended by itself: ``value`` units of card ``value2`` that nothing can use, ``text`` why, as
    for ``ap_lost``; R5.4), ``ap``, ``ap_lost`` (the AP
    phase ended by itself: ``value`` AP left that no action can use, ``text`` why, a
    :class:`~engine.messages.Text` stored as ``"message"``: its id and parameters; a state
    saved before that has the English sentence as ``"text"``, read back as a plain str),
    ``shuffled``, ``drew``, ``round_end``, ``game_over``. ``at``/``to`` are squares,
    ``cells`` a path or group of squares, ``value``/``value2`` numbers (revealed card values
    raptor/scientist, AP, counts), ``piece`` a figurine name (``mother``, ``baby``, ``scientist``).
    """

    kind: str
    side: Side | None = None
    at: int | None = None
    to: int | None = None
    cells: tuple[int, ...] = ()
    value: int | None = None
    value2: int | None = None
    piece: str | None = None
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.side is not None:
            out["side"] = self.side.value
        for name in ("at", "to"):
            v = getattr(self, name)
            if v is not None:
                out[name] = SQUARE_NAMES[v]
        if self.cells:
            out["cells"] = [SQUARE_NAMES[c] for c in self.cells]
        for name in ("value", "value2", "piece"):
            v = getattr(self, name)
            if v is not None:
                out[name] = v
        if isinstance(self.text, Text):  # a sentence (ap_lost): its message id and params
            out["message"] = self.text.to_dict()
        elif self.text is not None:
            out["text"] = self.text
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(
            kind=d["kind"],
            side=Side(d["side"]) if "side" in d else None,
            at=square(d["at"]) if "at" in d else None,
            to=square(d["to"]) if "to" in d else None,
            cells=tuple(square(c) for c in d.get("cells", ())),
            value=d.get("value"), value2=d.get("value2"), piece=d.get("piece"),
            text=Text.from_dict(d["message"]) if "message" in d else d.get("text"),
        )


#: The layouts of a game (R2.6) and its setups (R4.1-R4.2 by the players, R4.4 quick).
LAYOUTS = ("random", "standard")
SETUPS = ("manual", "quick")


@dataclass(frozen=True, slots=True)
class Options:
    """How a game was created (see :func:`engine.new_game`)."""

    environment: str = "jungle"
    layout: str = "random"
    setup: str = "manual"

    def check(self) -> Options:
        """This value, once each option is known (R1.3, R2.6, R4.4).

        Raises:
            OptionError: an unknown environment, layout or setup (quoted).
        """
        check_environment(self.environment)
        if self.layout not in LAYOUTS:
            raise OptionError(f"layout must be 'random' or 'standard', got {self.layout!r}")
        if self.setup not in SETUPS:
            raise OptionError(f"setup must be 'manual' or 'quick', got {self.setup!r}")
        return self


def as_side(value: object) -> Side:
    """``value`` as a :class:`Side` (a Side or its value, ``"raptor"`` / ``"scientist"``).

    Raises:
        OptionError: anything else (quoted).
    """
    if value.__class__ is Side:
        return value  # type: ignore[return-value]
    try:
        return Side(value)
    except ValueError:
        raise OptionError(f"a side is 'raptor' or 'scientist', got {value!r}") from None


class EffectState(NamedTuple):
    """A card effect being resolved (R5.4): who, which card, how many units done, and the
    babies already called this effect (squares they were called to, for R9.4)."""

    side: Side
    card: int
    done: int = 0
    called: tuple[int, ...] = ()


class APState(NamedTuple):
    """An AP phase (R5.5): who, how many AP remain, whether the mother has moved (R7.2)."""

    side: Side
    remaining: int
    mother_moved: bool = False


_SLOTS = (
    "seed", "options", "layout", "board", "phase", "round", "sleep_tokens", "mother_off",
    "escaped", "captured", "killed", "reserve", "hands", "decks", "discards", "picks",
    "revealed", "observation", "observe_next", "shuffles", "effect", "ap", "winner", "reason",
    "events", "round_events", "last_round_events", "_legal",
)


class GameState:
    """The whole position. Treat as immutable; :func:`engine.apply` returns new ones.

    Fields (all public, read-only by convention):
        seed (int), options (:class:`Options`), layout (:class:`Layout`),
        board (list[int], 78 cell codes, index ``row*13+col``), phase (:class:`Phase`),
        round (int, 0 during setup), sleep_tokens (0-5, on the mother), mother_off (bool,
        R9.2), escaped / captured / killed / reserve (int), hands / decks / discards
        (dict Side -> tuple[int, ...]; a hand is sorted, a deck is top card first),
        picks (dict Side -> int | None; a picked card still on the table),
        revealed (tuple (raptor card, scientist card) once both are revealed this round,
        else None), observation (bool, R5.2 applies this round),
        observe_next (bool), shuffles (int, seeded shuffles so far), effect
        (:class:`EffectState` | None), ap (:class:`APState` | None), winner
        (:class:`Side` | None), reason (:class:`Reason` | None), events (tuple of
        :class:`Event` from the last step), round_events (this round so far),
        last_round_events (the previous complete round).
    """

    __slots__ = _SLOTS

    def copy(self) -> GameState:
        """A copy sharing immutable parts; board list and per-side dicts duplicated, the
        legal-action cache cleared."""
        new = GameState.__new__(GameState)
        new.seed = self.seed
        new.options = self.options
        new.layout = self.layout
        new.board = self.board[:]
        new.phase = self.phase
        new.round = self.round
        new.sleep_tokens = self.sleep_tokens
        new.mother_off = self.mother_off
        new.escaped = self.escaped
        new.captured = self.captured
        new.killed = self.killed
        new.reserve = self.reserve
        new.hands = self.hands.copy()
        new.decks = self.decks.copy()
        new.discards = self.discards.copy()
        new.picks = self.picks.copy()
        new.revealed = self.revealed
        new.observation = self.observation
        new.observe_next = self.observe_next
        new.shuffles = self.shuffles
        new.effect = self.effect
        new.ap = self.ap
        new.winner = self.winner
        new.reason = self.reason
        new.events = self.events
        new.round_events = self.round_events
        new.last_round_events = self.last_round_events
        new._legal = {}
        return new

    # --- convenience queries ---
    def squares_with(self, *codes: int) -> list[int]:
        """Squares whose cell code is one of ``codes``, in index order."""
        wanted = set(codes)
        return [i for i, c in enumerate(self.board) if c in wanted]

    @property
    def mother(self) -> int | None:
        """The mother's square, or ``None`` while she is off the board."""
        try:
            return self.board.index(MOTHER)
        except ValueError:
            return None

    @property
    def fire_supply(self) -> int:
        """Fire tokens in the scientist's supply (R10.5): 10 minus those on the board."""
        return FIRE_TOKENS - self.board.count(FIRE)

    @property
    def is_over(self) -> bool:
        return self.phase is _PHASE_OVER

    # --- serialisation ---
    def to_record(self) -> StateRecord:
        """The pydantic record of this state (lossless)."""
        return StateRecord(
            schema_version=SCHEMA_VERSION,
            seed=self.seed,
            options=OptionsRecord(**{k: getattr(self.options, k)
                                     for k in ("environment", "layout", "setup")}),
            layout=LayoutRecord(tiles=[f"{f}/{t}" for f, t in self.layout.tiles],
                                exits=[SQUARE_NAMES[e] for e in self.layout.exits]),
            board={SQUARE_NAMES[i]: CELL_NAMES[c] for i, c in enumerate(self.board)
                   if c not in (VOID, EMPTY, EXIT)},
            phase=self.phase.value, round=self.round, sleep_tokens=self.sleep_tokens,
            mother_off=self.mother_off, escaped=self.escaped, captured=self.captured,
            killed=self.killed, reserve=self.reserve,
            hands={s.value: list(v) for s, v in self.hands.items()},
            decks={s.value: list(v) for s, v in self.decks.items()},
            discards={s.value: list(v) for s, v in self.discards.items()},
            picks={s.value: v for s, v in self.picks.items()},
            revealed=None if self.revealed is None else list(self.revealed),
            observation=self.observation, observe_next=self.observe_next,
            shuffles=self.shuffles,
            effect=None if self.effect is None else EffectRecord(
                side=self.effect.side.value, card=self.effect.card, done=self.effect.done,
                called=[SQUARE_NAMES[c] for c in self.effect.called]),
            ap=None if self.ap is None else APRecord(
                side=self.ap.side.value, remaining=self.ap.remaining,
                mother_moved=self.ap.mother_moved),
            winner=None if self.winner is None else self.winner.value,
            reason=None if self.reason is None else self.reason.value,
            events=[e.to_dict() for e in self.events],
            round_events=[e.to_dict() for e in self.round_events],
            last_round_events=[e.to_dict() for e in self.last_round_events],
        )

    def to_json(self) -> str:
        """Compact JSON (pydantic), with ``schema_version``. Inverse: :meth:`from_json`."""
        return self.to_record().model_dump_json(exclude_defaults=False)

    @classmethod
    def from_record(cls, rec: StateRecord) -> GameState:
        """Rebuild a state from its record.

        Raises:
            RecordError: a record of another schema version (a ValueError too).
        """
        if rec.schema_version != SCHEMA_VERSION:
            raise RecordError(f"state schema version {rec.schema_version} is not supported "
                             f"(this engine reads version {SCHEMA_VERSION})")
        layout_tiles = []
        for item in rec.layout.tiles:
            face, turns = item.split("/")
            layout_tiles.append((face, int(turns)))
        layout = Layout(rec.options.environment, tuple(layout_tiles),
                        tuple(square(e) for e in rec.layout.exits))  # type: ignore[arg-type]
        board = [VOID] * CELLS
        for q in BOARD_SQUARES:
            board[q] = EMPTY
        for e in layout.exits:
            board[e] = EXIT
        for name, code in rec.board.items():
            board[square(name)] = CELL_CODES[code]
        s = cls.__new__(cls)
        s.seed = rec.seed
        s.options = Options(rec.options.environment, rec.options.layout, rec.options.setup)
        s.layout = layout
        s.board = board
        s.phase = Phase(rec.phase)
        s.round = rec.round
        s.sleep_tokens = rec.sleep_tokens
        s.mother_off = rec.mother_off
        s.escaped, s.captured, s.killed, s.reserve = (rec.escaped, rec.captured, rec.killed,
                                                      rec.reserve)
        s.hands = {Side(k): tuple(v) for k, v in rec.hands.items()}
        s.decks = {Side(k): tuple(v) for k, v in rec.decks.items()}
        s.discards = {Side(k): tuple(v) for k, v in rec.discards.items()}
        s.picks = {Side(k): v for k, v in rec.picks.items()}
        s.revealed = None if rec.revealed is None else tuple(rec.revealed)
        s.observation, s.observe_next, s.shuffles = (rec.observation, rec.observe_next,
                                                     rec.shuffles)
        s.effect = None if rec.effect is None else EffectState(
            Side(rec.effect.side), rec.effect.card, rec.effect.done,
            tuple(square(c) for c in rec.effect.called))
        s.ap = None if rec.ap is None else APState(Side(rec.ap.side), rec.ap.remaining,
                                                   rec.ap.mother_moved)
        s.winner = None if rec.winner is None else Side(rec.winner)
        s.reason = None if rec.reason is None else Reason(rec.reason)
        s.events = tuple(Event.from_dict(e) for e in rec.events)
        s.round_events = tuple(Event.from_dict(e) for e in rec.round_events)
        s.last_round_events = tuple(Event.from_dict(e) for e in rec.last_round_events)
        s._legal = {}
        return s

    @classmethod
    def from_json(cls, text: str | bytes) -> GameState:
        """Inverse of :meth:`to_json`.

        Raises:
            pydantic.ValidationError: malformed JSON or fields.
            RecordError: another schema version.
        """
        return cls.from_record(StateRecord.model_validate_json(text))

    def key(self) -> tuple:
        """Everything that defines the position (events excluded), for comparisons."""
        return (self.seed, self.options, self.layout, tuple(self.board), self.phase, self.round,
                self.sleep_tokens, self.mother_off, self.escaped, self.captured, self.killed,
                self.reserve, tuple(sorted(self.hands.items())),
                tuple(sorted(self.decks.items())), tuple(sorted(self.discards.items())),
                tuple(sorted(self.picks.items())), self.revealed, self.observation,
                self.observe_next, self.shuffles, self.effect, self.ap, self.winner, self.reason)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (self.key() == other.key() and self.events == other.events
                and self.round_events == other.round_events
                and self.last_round_events == other.last_round_events)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<GameState round={self.round} phase={self.phase.value} "
                f"winner={self.winner and self.winner.value}>")


def blank_board(layout: Layout) -> list[int]:
    """A board with only rocks and exits from ``layout`` (R2)."""
    board = [VOID] * CELLS
    for s in BOARD_SQUARES:
        board[s] = EMPTY
    for e in layout.exits:
        board[e] = EXIT
    for r in layout.rocks():
        board[r] = ROCK
    return board


# --- pydantic records (the JSON boundary) ---
class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OptionsRecord(_Rec):
    environment: str
    layout: str
    setup: str


class LayoutRecord(_Rec):
    tiles: list[str]
    exits: list[str]


class EffectRecord(_Rec):
    side: str
    card: int
    done: int
    called: list[str]


class APRecord(_Rec):
    side: str
    remaining: int
    mother_moved: bool


class StateRecord(_Rec):
    """JSON form of :class:`GameState`. ``board`` maps squares to non-empty cell names."""

    schema_version: int
    seed: int
    options: OptionsRecord
    layout: LayoutRecord
    board: dict[str, str]
    phase: str
    round: int
    sleep_tokens: int
    mother_off: bool
    escaped: int
    captured: int
    killed: int
    reserve: int
    hands: dict[str, list[int]]
    decks: dict[str, list[int]]
    discards: dict[str, list[int]]
    picks: dict[str, int | None]
    revealed: list[int] | None
    observation: bool
    observe_next: bool
    shuffles: int
    effect: EffectRecord | None
    ap: APRecord | None
    winner: str | None
    reason: str | None
    events: list[dict[str, Any]] = Field(default_factory=list)
    round_events: list[dict[str, Any]] = Field(default_factory=list)
    last_round_events: list[dict[str, Any]] = Field(default_factory=list)
