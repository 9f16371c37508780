"""The state of a Ratjack game: a value (the rules build new states with :meth:`State.copy`
and never change one after returning it), stored as JSON.

Cards are names (``"C7"``, RJ1.1); bonus chips are ids 0-5 into :data:`~.cards.CHIP_SIZES`
with this round's sign in :attr:`State.signs`. A display is a row of :class:`Slot` (RJ3.5), a
hand a row of :class:`HandCard`. Who knows a card that is not face up is the card's
``seen`` set (RJ11.2): the seats besides its holder who know it, or :data:`EVERYONE`.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, NamedTuple

from .actions import Action, action_from_dict
from .cards import CHIP_IDS, DECK_PAIRS, is_card
from .errors import StateError

#: The format of the stored state (``State.to_json``); another number is refused.
SCHEMA_VERSION = 1
#: In a card's ``seen`` set: every seat and the spectators know it (RJ11.2: it went face
#: down in view of all, or was taken from the discard pile).
EVERYONE = -1


class Phase(StrEnum):
    """Whose decision it is, and of what kind (RJ3, RJ11.3, RJ11.4)."""

    DRAW = "draw"        # the player on turn draws (RJ3.1)
    ACTION = "action"    # they play up, down or discard (RJ3.2)
    FLIP = "flip"        # after the discard action: flip a hidden card or not (RJ3.2)
    EFFECT = "effect"    # an effect's choice (RJ11.4): see State.stack
    OVER = "over"        # a player has 3 VP (RJ9.5), or one player is left (RJ8.4)


class RoundEnd(StrEnum):
    """How a round ended (RJ9.1)."""

    EXACTLY_25 = "exactly_25"        # (a) players at exactly 25
    LAST_STANDING = "last_standing"  # (b) one player left
    NONE_LEFT = "none_left"          # (b) no one left: no VP
    DECK_EMPTY = "deck_empty"        # (c) the highest total
    GAME_OVER = "game_over"          # a player reached 3 VP during the turn (RJ8.1, RJ9.5)
    FORFEIT = "forfeit"              # one player left in the match (RJ8.4)


class Reason(StrEnum):
    """How the game ended (the outcome's reason)."""

    THREE_VP = "three_vp"            # RJ9.5
    LAST_IN_MATCH = "last_in_match"  # RJ8.4: everyone else forfeited


class Slot(NamedTuple):
    """One card of a display (RJ3.5): the card, whether it is face up (visible), the chips on
    it (ids, in the order placed; RJ4.7) and, while face down, the seats besides its owner who
    know it (RJ11.2; :data:`EVERYONE` for all; empty once face up)."""

    card: str
    up: bool
    chips: tuple[int, ...] = ()
    seen: frozenset[int] = frozenset()


class HandCard(NamedTuple):
    """One card of a hand and the seats besides its holder who know it (RJ11.2)."""

    card: str
    seen: frozenset[int] = frozenset()


class Frame(NamedTuple):
    """An effect being resolved (RJ4): the card whose effect it is, the ``seat`` resolving it
    (RJ4.5), the index of its next ``step`` (:mod:`.effects`) and the choices made so far
    (``picks``, public, RJ11.1). Frames stack: a triggered effect (Rat 6) resolves above the
    one that triggered it (RJ8.1)."""

    card: str
    seat: int
    step: int = 0
    picks: tuple[Action, ...] = ()


class Event(NamedTuple):
    """Something that happened, public by construction (RJ11.1): it never names a card the
    table did not see.

    ``kind`` is an :class:`EventKind` value; ``seat`` who did it or whom it concerns;
    ``card`` a card everyone saw; ``target`` a choice in notation (``p2@3``, ``+3``, ``p2``)
    or a place; ``value`` a number (VP, a round, a seat who scored)."""

    kind: str
    seat: int | None = None
    card: str | None = None
    target: str | None = None
    value: int | None = None


class EventKind(StrEnum):
    """The kinds of :class:`Event`."""

    ROUND = "round"              # a round began (value: the round; seat: who starts)
    DRAW_DECK = "draw_deck"      # drew from the deck (the card is not named)
    DRAW_DISCARD = "draw_discard"  # took ``card`` from the discard pile
    UP = "up"                    # played ``card`` face up
    DOWN = "down"                # played a card face down (not named)
    DISCARD = "discard"          # put ``card`` on the discard pile from the hand
    FLIP = "flip"                # flipped own hidden ``card`` at ``target`` (discard action)
    NO_FLIP = "no_flip"
    TRIGGER = "trigger"          # ``card``'s effect triggers (RJ4.4)
    SKIPPED = "skipped"          # ``card``'s triggered effect is not fully resolvable: skipped
    CHOICE = "choice"            # a choice of an effect, ``target`` in notation
    REVEALED = "revealed"        # ``card`` at ``target`` turned face up by an effect
    DECK_DISCARD = "deck_discard"  # ``card`` from the deck onto the discard pile (RJ4.8)
    DECK_DRAW = "deck_draw"      # an effect drew a card (not named) for ``seat``
    SHUFFLED = "shuffled"        # cards of the discard pile shuffled into the deck (``value``)
    EXTRA_TURN = "extra_turn"    # ``seat`` will take another turn (RJ5.3)
    ELIMINATED = "eliminated"    # ``seat`` is out of the round; ``value``: who scored or None
    FORFEIT = "forfeit"          # ``seat`` left the match (RJ8.4)
    VP = "vp"                    # ``seat`` gains ``value`` VP; ``target`` why (RoundEnd / "push")
    ROUND_END = "round_end"      # ``target``: a :class:`RoundEnd` value
    CUT_SHORT = "cut_short"      # an effect found no option for a step (never expected)


class RoundResult(NamedTuple):
    """What a finished round showed everyone (RJ9.7): its number, how it ended, the VP each
    seat gained in it (RJ8.1 and RJ9.1), the totals, the hands and displays of the players
    still in it (eliminated players' cards stay unrevealed, RJ8.3), the chips' signs and the
    round's public events."""

    round: int
    end: RoundEnd
    gains: tuple[int, ...]
    totals: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    displays: tuple[tuple[Slot, ...], ...]
    signs: tuple[int, ...]
    events: tuple[Event, ...] = ()


class State:
    """A Ratjack game.

    Attributes:
        seed, seats, decks: the game's seed, seat count (2-4, RJ2.4) and deck pair (RJ2.1).
        round: the round (from 1); turn: turns begun this round (an extra turn counts).
        current: the seat on turn; phase: a :class:`Phase`.
        vp: victory points by seat (RJ1.3); forfeited: left the match (RJ8.4); out: not in
            this round (eliminated, RJ8, or forfeited).
        signs: this round's sign of each chip (+1/-1, RJ2.2); reserve: chip ids on no card.
        deck: the draw deck, bottom first (``deck[-1]`` is the top); discard: the discard
            pile, bottom first (``discard[-1]`` is the top).
        hands, displays: by seat; gone: the cards that left the round with an eliminated
            player, unrevealed (RJ8.3).
        extra_turns: further turns the player on turn has earned (RJ5.3).
        stack: the effects being resolved (:class:`Frame`, innermost last).
        drawn: Weasel 3's drawn card, known to its drawer only, until placed (RJ7.3).
        shuffles: Raccoon 12 shuffles this round (each its own chance stream).
        last_gain: the seats of the latest VP gain, for who starts the next round (RJ9.6).
        events: this round's public events; last_round: the previous round's result (RJ9.7).
        winners, reason: once over, who won and why.
    """

    __slots__ = ("seed", "seats", "decks", "round", "turn", "current", "phase", "vp",
                 "forfeited", "out", "signs", "reserve", "deck", "discard", "hands",
                 "displays", "gone", "extra_turns", "stack", "drawn", "shuffles", "last_gain",
                 "events", "last_round", "winners", "reason", "_legal")

    seed: int
    seats: int
    decks: str
    round: int
    turn: int
    current: int
    phase: Phase
    vp: list[int]
    forfeited: list[bool]
    out: list[bool]
    signs: tuple[int, ...]
    reserve: list[int]
    deck: list[str]
    discard: list[str]
    hands: list[list[HandCard]]
    displays: list[list[Slot]]
    gone: list[list[str]]
    extra_turns: int
    stack: list[Frame]
    drawn: str | None
    shuffles: int
    last_gain: tuple[int, ...]
    events: list[Event]
    last_round: RoundResult | None
    winners: tuple[int, ...]
    reason: Reason | None

    def copy(self) -> State:
        """A copy whose lists may be changed without touching this state (slots, hand cards,
        frames and events are immutable tuples and are shared)."""
        s = State.__new__(State)
        s.seed, s.seats, s.decks, s.round, s.turn = (self.seed, self.seats, self.decks,
                                                     self.round, self.turn)
        s.current, s.phase = self.current, self.phase
        s.vp, s.forfeited, s.out = list(self.vp), list(self.forfeited), list(self.out)
        s.signs, s.reserve = self.signs, list(self.reserve)
        s.deck, s.discard = list(self.deck), list(self.discard)
        s.hands = [list(h) for h in self.hands]
        s.displays = [list(d) for d in self.displays]
        s.gone = [list(g) for g in self.gone]
        s.extra_turns, s.stack, s.drawn = self.extra_turns, list(self.stack), self.drawn
        s.shuffles, s.last_gain = self.shuffles, self.last_gain
        s.events, s.last_round = list(self.events), self.last_round
        s.winners, s.reason = self.winners, self.reason
        s._legal = None
        return s

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready data (hidden information included: storage only)."""
        return {
            "schema": SCHEMA_VERSION, "seed": self.seed, "seats": self.seats,
            "decks": self.decks, "round": self.round, "turn": self.turn,
            "current": self.current, "phase": self.phase.value, "vp": list(self.vp),
            "forfeited": list(self.forfeited), "out": list(self.out),
            "signs": list(self.signs), "reserve": list(self.reserve),
            "deck": list(self.deck), "discard": list(self.discard),
            "hands": [[_hand_dict(h) for h in hand] for hand in self.hands],
            "displays": [[_slot_dict(x) for x in d] for d in self.displays],
            "gone": [list(g) for g in self.gone], "extra_turns": self.extra_turns,
            "stack": [{"card": f.card, "seat": f.seat, "step": f.step,
                       "picks": [a.to_dict() for a in f.picks]} for f in self.stack],
            "drawn": self.drawn, "shuffles": self.shuffles, "last_gain": list(self.last_gain),
            "events": [_event_dict(e) for e in self.events],
            "last_round": None if self.last_round is None else _round_dict(self.last_round),
            "winners": list(self.winners),
            "reason": None if self.reason is None else self.reason.value,
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as compact JSON text."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Any) -> State:
        """The state of :meth:`to_dict`'s output.

        Raises:
            StateError: not a Ratjack state of this schema (the message says what is wrong).
        """
        try:
            if d["schema"] != SCHEMA_VERSION:
                raise StateError(f"a Ratjack state of schema {d['schema']!r}; this engine "
                                 f"reads schema {SCHEMA_VERSION}")
            s = cls.__new__(cls)
            s.seed = _int(d["seed"])
            s.seats = _int(d["seats"])
            if not 2 <= s.seats <= 4:
                raise ValueError("seats")
            s.decks = str(d["decks"])
            if s.decks not in DECK_PAIRS:
                raise ValueError("decks")
            s.round, s.turn, s.current = _int(d["round"]), _int(d["turn"]), _int(d["current"])
            s.phase = Phase(d["phase"])
            s.vp = [_int(v) for v in d["vp"]]
            s.forfeited = [bool(v) for v in d["forfeited"]]
            s.out = [bool(v) for v in d["out"]]
            s.signs = tuple(_sign(v) for v in d["signs"])
            s.reserve = [_chip(c) for c in d["reserve"]]
            s.deck = [_card(c) for c in d["deck"]]
            s.discard = [_card(c) for c in d["discard"]]
            s.hands = [[_hand(h) for h in hand] for hand in d["hands"]]
            s.displays = [[_slot(x) for x in disp] for disp in d["displays"]]
            s.gone = [[_card(c) for c in g] for g in d["gone"]]
            s.extra_turns = _int(d["extra_turns"])
            s.stack = [Frame(_card(f["card"]), _int(f["seat"]), _int(f["step"]),
                             tuple(action_from_dict(a) for a in f["picks"]))
                       for f in d["stack"]]
            s.drawn = None if d["drawn"] is None else _card(d["drawn"])
            s.shuffles = _int(d["shuffles"])
            s.last_gain = tuple(_int(v) for v in d["last_gain"])
            s.events = [_event(e) for e in d["events"]]
            s.last_round = None if d["last_round"] is None else _round(d["last_round"])
            s.winners = tuple(_int(v) for v in d["winners"])
            s.reason = None if d["reason"] is None else Reason(d["reason"])
            s._legal = None
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"not a Ratjack state: {exc!r}") from None
        n = s.seats
        if not (len(s.vp) == len(s.forfeited) == len(s.out) == len(s.hands)
                == len(s.displays) == len(s.gone) == n) or len(s.signs) != len(CHIP_IDS):
            raise StateError("not a Ratjack state: its lists do not match its seat count")
        return s

    @classmethod
    def from_json(cls, text: str | bytes) -> State:
        """The state of :meth:`to_json`'s text.

        Raises:
            StateError: not JSON, or not a Ratjack state.
        """
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise StateError(f"not JSON: {exc}") from None
        return cls.from_dict(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<Ratjack state: round {self.round}, p{self.current + 1} {self.phase.value}, "
                f"VP {self.vp}>")


# --------------------------------------------------------------------------- JSON helpers
def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{v!r} is not a whole number")
    return v


def _sign(v: Any) -> int:
    if v not in (1, -1) or isinstance(v, bool):
        raise ValueError(f"{v!r} is not a sign")
    return v


def _chip(v: Any) -> int:
    if _int(v) not in CHIP_IDS:
        raise ValueError(f"{v!r} is not a chip")
    return v


def _card(v: Any) -> str:
    if not isinstance(v, str) or not is_card(v):
        raise ValueError(f"{v!r} is not a card")
    return v


def _seen(v: Any) -> frozenset[int]:
    return frozenset(_int(x) for x in v)


def _slot_dict(x: Slot) -> dict[str, Any]:
    return {"card": x.card, "up": x.up, "chips": list(x.chips), "seen": sorted(x.seen)}


def _slot(d: Any) -> Slot:
    return Slot(_card(d["card"]), bool(d["up"]), tuple(_chip(c) for c in d["chips"]),
                _seen(d["seen"]))


def _hand_dict(h: HandCard) -> dict[str, Any]:
    return {"card": h.card, "seen": sorted(h.seen)}


def _hand(d: Any) -> HandCard:
    return HandCard(_card(d["card"]), _seen(d["seen"]))


def _event_dict(e: Event) -> list[Any]:
    return [e.kind, e.seat, e.card, e.target, e.value]


def _event(v: Any) -> Event:
    kind, seat, card, target, value = v
    EventKind(kind)
    return Event(kind, None if seat is None else _int(seat),
                 None if card is None else _card(card),
                 None if target is None else str(target), None if value is None else _int(value))


def _round_dict(r: RoundResult) -> dict[str, Any]:
    return {"round": r.round, "end": r.end.value, "gains": list(r.gains),
            "totals": list(r.totals), "hands": [list(h) for h in r.hands],
            "displays": [[_slot_dict(x) for x in d] for d in r.displays],
            "signs": list(r.signs), "events": [_event_dict(e) for e in r.events]}


def _round(d: Any) -> RoundResult:
    return RoundResult(_int(d["round"]), RoundEnd(d["end"]),
                       tuple(_int(v) for v in d["gains"]), tuple(_int(v) for v in d["totals"]),
                       tuple(tuple(_card(c) for c in h) for h in d["hands"]),
                       tuple(tuple(_slot(x) for x in disp) for disp in d["displays"]),
                       tuple(_sign(v) for v in d["signs"]),
                       tuple(_event(e) for e in d["events"]))
