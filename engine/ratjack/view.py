"""Per-seat views (RJ11.1, RJ11.2) and sampling a full state consistent with a view.

A :class:`View` is the only thing that leaves the engine for a player, a spectator, the
renderer or an AI. It holds what RJ11.1 makes public and, for a player, what RJ11.2 lets
them know: their own hand and hidden cards, a hidden card they have seen (Rat 5's look,
Weasel 3's draw, Raccoon 2's former owner, a card that went face down in view of all), a
hand card they know (taken from the discard pile, or given by Weasel 1). No one's view holds
the deck order or the seed; once the game is over everything in hands and displays is shown
(RJ9.7).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from ..messages import Text
from .actions import Action
from .cards import round_cards
from .effects import StepKind
from .errors import OptionError
from .predicates import face, total
from .rules import legal_actions, pending_step, to_act
from .state import EVERYONE, Event, Frame, HandCard, Phase, Reason, RoundResult, Slot, State


class CardView(NamedTuple):
    """A display card as one viewer sees it: ``card`` None when it is face down and unknown
    to the viewer; ``chips`` the faces of its chips (public, RJ11.1); ``seen`` who besides
    its owner knows it (public: every look is a public action)."""

    card: str | None
    up: bool
    chips: tuple[int, ...]
    seen: frozenset[int]


class HandView(NamedTuple):
    """A hand card as one viewer sees it (``card`` None: unknown to them)."""

    card: str | None
    seen: frozenset[int]


@dataclass(frozen=True, slots=True)
class Pending:
    """The effect decision waiting (RJ11.1 'any pending choice'): the effect's ``card``, its
    resolver ``seat``, the ``chooser``, what is chosen and the prompt, the picks so far."""

    card: str
    seat: int
    chooser: int
    what: StepKind
    prompt: Text
    picks: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class View:
    """What ``viewer`` may know (None: a spectator, the public view).

    Attributes:
        viewer, seats, decks: who it is for, the seat count, the deck pair (RJ2.1).
        round, turn, current, phase, to_act: where the game stands.
        vp, forfeited, out, totals: by seat (RJ1.3, RJ8, RJ4.1).
        chips: this round's face of each chip by id (RJ1.2); reserve: the reserve's faces.
        deck_size, discard: the deck's size and the whole discard pile, bottom first.
        hands, displays: by seat, as :class:`HandView` / :class:`CardView`.
        gone_sizes: cards that left the round with each eliminated player (RJ8.3).
        extra_turns: turns the player on turn has earned (RJ5.3).
        stack: the effects being resolved (public frames); pending: the decision waiting.
        drawing: a Weasel 3 card is drawn and not yet placed; drawn: that card, for its
            drawer only (RJ7.3).
        legal: the viewer's legal actions now (empty for a spectator).
        events: this round's public events; last_round: the last round's result (RJ9.7);
            last_gain: the seats of the latest VP gain (who begins the next round, RJ9.6).
        winners, reason: once over.
    """

    viewer: int | None
    seats: int
    decks: str
    round: int
    turn: int
    current: int
    phase: Phase
    to_act: frozenset[int]
    vp: tuple[int, ...]
    forfeited: tuple[bool, ...]
    out: tuple[bool, ...]
    totals: tuple[int, ...]
    chips: tuple[int, ...]
    reserve: tuple[int, ...]
    deck_size: int
    discard: tuple[str, ...]
    hands: tuple[tuple[HandView, ...], ...]
    displays: tuple[tuple[CardView, ...], ...]
    gone_sizes: tuple[int, ...]
    extra_turns: int
    stack: tuple[Frame, ...]
    pending: Pending | None
    drawing: bool
    drawn: str | None
    legal: tuple[Action, ...]
    events: tuple[Event, ...]
    last_round: RoundResult | None
    last_gain: tuple[int, ...]
    winners: tuple[int, ...]
    reason: Reason | None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def known(self) -> list[str]:
        """Every card of this round the viewer knows the place of (discard pile, visible
        and known hidden cards, known hand cards, Weasel 3's drawn card)."""
        out = list(self.discard)
        out += [x.card for d in self.displays for x in d if x.card is not None]
        out += [h.card for hand in self.hands for h in hand if h.card is not None]
        if self.drawn is not None:
            out.append(self.drawn)
        return out


def knows(s: State, viewer: int | None, holder: int, seen: frozenset[int]) -> bool:
    """Whether ``viewer`` (None: a spectator) knows a card ``holder`` holds face down or in
    hand, with ``seen`` its knowers besides the holder (RJ11.2); everything once over."""
    if s.phase is Phase.OVER or EVERYONE in seen:
        return True
    return viewer is not None and (viewer == holder or viewer in seen)


def _card_view(s: State, viewer: int | None, seat: int, x: Slot) -> CardView:
    chips = tuple(face(s, c) for c in x.chips)
    if x.up:
        return CardView(x.card, True, chips, frozenset())
    return CardView(x.card if knows(s, viewer, seat, x.seen) else None, False, chips, x.seen)


def _hand_view(s: State, viewer: int | None, seat: int, h: HandCard) -> HandView:
    return HandView(h.card if knows(s, viewer, seat, h.seen) else None, h.seen)


def view(s: State, seat: int | None) -> View:
    """The view of ``s`` for ``seat`` (None: a spectator). Implements RJ11.1 and RJ11.2.

    Raises:
        OptionError: ``seat`` is neither None nor a seat of this game.
    """
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < s.seats):
        raise OptionError(Text("no seat {seat} in a game of {n}", seat=repr(seat), n=s.seats))
    step = pending_step(s)
    pending = None
    if step is not None:
        f = s.stack[-1]
        pending = Pending(f.card, f.seat, next(iter(to_act(s))), step.what, step.prompt,
                          f.picks)
    drawer = s.stack[-1].seat if s.drawn is not None and s.stack else None
    return View(
        viewer=seat, seats=s.seats, decks=s.decks, round=s.round, turn=s.turn,
        current=s.current, phase=s.phase, to_act=to_act(s), vp=tuple(s.vp),
        forfeited=tuple(s.forfeited), out=tuple(s.out),
        totals=tuple(total(s, q) for q in range(s.seats)),
        chips=tuple(face(s, c) for c in range(len(s.signs))),
        reserve=tuple(face(s, c) for c in s.reserve), deck_size=len(s.deck),
        discard=tuple(s.discard),
        hands=tuple(tuple(_hand_view(s, seat, q, h) for h in s.hands[q])
                    for q in range(s.seats)),
        displays=tuple(tuple(_card_view(s, seat, q, x) for x in s.displays[q])
                       for q in range(s.seats)),
        gone_sizes=tuple(len(g) for g in s.gone), extra_turns=s.extra_turns,
        stack=tuple(s.stack), pending=pending, drawing=s.drawn is not None,
        drawn=s.drawn if seat is not None and seat == drawer else None,
        legal=tuple(legal_actions(s, seat)) if seat is not None else (),
        events=tuple(s.events), last_round=s.last_round, last_gain=s.last_gain,
        winners=s.winners, reason=s.reason)


def sample_state(v: View, rng: random.Random) -> State:
    """A full state consistent with a player's view: every card unknown to the viewer (others'
    hands, hidden cards they have not seen, the deck order, the cards gone with eliminated
    players, another's Weasel 3 card) drawn at random from the cards it does not know, and a
    fresh seed for the shuffles to come. For the AI's determinization (RJ11.2).

    Raises:
        OptionError: a spectator's view (``v.viewer is None``).
    """
    if v.viewer is None:
        raise OptionError(Text("sampling a state needs a player's view, not a spectator's"))
    known = v.known()
    pool = [c for c in round_cards(v.decks) if c not in set(known)]
    rng.shuffle(pool)
    signs = tuple(1 if f > 0 else -1 for f in v.chips)
    chip_by_face = {f: i for i, f in enumerate(v.chips)}
    s = State.__new__(State)
    s.seed = rng.getrandbits(48)
    s.seats, s.decks, s.round, s.turn = v.seats, v.decks, v.round, v.turn
    s.current, s.phase = v.current, v.phase
    s.vp, s.forfeited, s.out = list(v.vp), list(v.forfeited), list(v.out)
    s.signs = signs
    s.reserve = sorted(chip_by_face[f] for f in v.reserve)
    s.discard = list(v.discard)
    s.hands = [[HandCard(h.card if h.card is not None else pool.pop(), h.seen) for h in hand]
               for hand in v.hands]
    s.displays = [[Slot(x.card if x.card is not None else pool.pop(), x.up,
                        tuple(chip_by_face[f] for f in x.chips), x.seen) for x in d]
                  for d in v.displays]
    s.drawn = v.drawn if v.drawn is not None else (pool.pop() if v.drawing else None)
    s.gone = [[pool.pop() for _ in range(n)] for n in v.gone_sizes]
    s.deck = pool
    if len(s.deck) != v.deck_size:
        raise AssertionError("the view's cards do not add up to the round's")
    s.extra_turns, s.stack, s.shuffles = v.extra_turns, list(v.stack), 0
    s.last_gain = v.last_gain
    s.events, s.last_round = list(v.events), v.last_round
    s.winners, s.reason = v.winners, v.reason
    s._legal = None
    return s
