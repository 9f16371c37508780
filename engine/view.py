"""Per-player views (R11) and sampling a full state consistent with a view.

A :class:`View` is the only thing that should leave the engine for a player, a spectator,
the renderer or an AI: the opponent's hand, every deck order and an unrevealed pick of the
opponent are not in it (R11.2). The game's seed is not in it either, since it fixes the
deck orders.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import CARD_VALUES
from .errors import OptionError
from .geometry import Layout
from .rules import to_act
from .state import (
    MOTHER,
    APState,
    EffectState,
    Event,
    GameState,
    Options,
    Phase,
    Reason,
    Side,
    as_side,
)


@dataclass(frozen=True, slots=True)
class View:
    """What ``viewer`` may know (``viewer is None``: the public, spectator view).

    Attributes:
        viewer: the side this view is for, or None (public).
        options, layout: how the game was set up (public).
        board: 78 cell codes (see :mod:`engine.state`), all public (R11.1).
        phase, round, to_act: the phase, the round number and who must decide now.
        sleep_tokens, mother_off, escaped, captured, killed, reserve, fire_supply: counters.
        discards: both discard piles, in the order played (public, R11.1).
        deck_sizes, hand_sizes: per side (public, R11.1).
        hand: the viewer's hand (sorted) or None in the public view.
        deck: the viewer's deck *contents*, sorted (the order is unknown to everyone).
        picked: per side, whether that side has a card face down on the table.
        my_pick: the viewer's own picked card, or None.
        shown_pick: under observation, the scientist's pick shown to the raptor (R5.2);
            only in the raptor's and the scientist's views.
        revealed: (raptor card, scientist card) once both are revealed this round.
        observation: R5.2 applies this round; observe_next: it applies next round.
        effect, ap: the effect being resolved / the AP phase in progress.
        winner, reason: the outcome once the game is over.
        events, round_events, last_round_events: public events (see :class:`Event`).
    """

    viewer: Side | None
    options: Options
    layout: Layout
    board: tuple[int, ...]
    phase: Phase
    round: int
    to_act: frozenset[Side]
    sleep_tokens: int
    mother_off: bool
    escaped: int
    captured: int
    killed: int
    reserve: int
    fire_supply: int
    discards: dict[Side, tuple[int, ...]]
    deck_sizes: dict[Side, int]
    hand_sizes: dict[Side, int]
    hand: tuple[int, ...] | None
    deck: tuple[int, ...] | None
    picked: dict[Side, bool]
    my_pick: int | None
    shown_pick: int | None
    revealed: tuple[int, int] | None
    observation: bool
    observe_next: bool
    effect: EffectState | None
    ap: APState | None
    winner: Side | None
    reason: Reason | None
    events: tuple[Event, ...]
    round_events: tuple[Event, ...]
    last_round_events: tuple[Event, ...]

    @property
    def mother(self) -> int | None:
        """The mother's square, or None while she is off the board."""
        return self.board.index(MOTHER) if MOTHER in self.board else None


def view(state: GameState, side: Side | None) -> View:
    """The view of ``state`` for ``side`` (``None``: public). Implements R11.

    Raises:
        OptionError: ``side`` is not a :class:`Side` or None.
    """
    viewer = None if side is None else as_side(side)
    shown = None
    if viewer is not None and state.observation and state.revealed is None:
        shown = state.picks[Side.SCIENTIST]  # R5.2: shown to the raptor; the scientist knows
    on_table = {sd: state.picks[sd] is not None for sd in (Side.RAPTOR, Side.SCIENTIST)}
    return View(
        viewer=viewer,
        options=state.options,
        layout=state.layout,
        board=tuple(state.board),
        phase=state.phase,
        round=state.round,
        to_act=to_act(state),
        sleep_tokens=state.sleep_tokens,
        mother_off=state.mother_off,
        escaped=state.escaped,
        captured=state.captured,
        killed=state.killed,
        reserve=state.reserve,
        fire_supply=state.fire_supply,
        discards=dict(state.discards),
        deck_sizes={sd: len(d) for sd, d in state.decks.items()},
        hand_sizes={sd: len(h) for sd, h in state.hands.items()},
        hand=None if viewer is None else state.hands[viewer],
        deck=None if viewer is None else tuple(sorted(state.decks[viewer])),
        picked=on_table,
        my_pick=None if viewer is None else state.picks[viewer],
        shown_pick=shown,
        revealed=state.revealed,
        observation=state.observation,
        observe_next=state.observe_next,
        effect=state.effect,
        ap=state.ap,
        winner=state.winner,
        reason=state.reason,
        events=state.events,
        round_events=state.round_events,
        last_round_events=state.last_round_events,
    )


def sample_state(v: View, rng: random.Random) -> GameState:
    """A full state consistent with a player's view: the unknown cards of the opponent (hand,
    deck order, unrevealed pick) and the viewer's own deck order are drawn at random, and the
    seed for future shuffles is fresh. For determinization by an AI.

    Raises:
        OptionError: a public view (``viewer is None``).
    """
    if v.viewer is None:
        raise OptionError("sample_state needs a player's view, not the public one")
    me, opp = v.viewer, v.viewer.other
    s = GameState.__new__(GameState)
    s.seed = rng.getrandbits(48)
    s.options = v.options
    s.layout = v.layout
    s.board = list(v.board)
    s.phase = v.phase
    s.round = v.round
    s.sleep_tokens = v.sleep_tokens
    s.mother_off = v.mother_off
    s.escaped, s.captured, s.killed, s.reserve = v.escaped, v.captured, v.killed, v.reserve
    s.revealed = v.revealed
    s.observation = v.observation
    s.observe_next = v.observe_next
    s.shuffles = 0
    s.effect, s.ap, s.winner, s.reason = v.effect, v.ap, v.winner, v.reason
    s.events, s.round_events, s.last_round_events = v.events, v.round_events, v.last_round_events
    s._legal = {}
    s.discards = dict(v.discards)
    s.hands, s.decks, s.picks = {}, {}, {}
    # the viewer: hand and pick known, deck contents known, order unknown
    deck = list(v.deck or ())
    rng.shuffle(deck)
    s.hands[me] = tuple(v.hand or ())
    s.decks[me] = tuple(deck)
    s.picks[me] = v.my_pick
    # the opponent: pick known if revealed or shown, else drawn from the unknown cards
    opp_index = 0 if opp is Side.RAPTOR else 1
    known_pick = None
    if v.picked[opp]:
        if v.revealed is not None:
            known_pick = v.revealed[opp_index]
        elif opp is Side.SCIENTIST and v.shown_pick is not None:
            known_pick = v.shown_pick
    pool = [c for c in CARD_VALUES if c not in v.discards[opp] and c != known_pick]
    rng.shuffle(pool)
    if v.picked[opp]:
        s.picks[opp] = known_pick if known_pick is not None else pool.pop()
    else:
        s.picks[opp] = None
    h = v.hand_sizes[opp]
    s.hands[opp] = tuple(sorted(pool[:h]))
    s.decks[opp] = tuple(pool[h:])
    return s
