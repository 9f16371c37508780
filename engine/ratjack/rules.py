"""The rules: new games, rounds, who acts, legal actions, applying an action, forfeits and
replay.

One source of legality: :func:`legal_actions` enumerates; :func:`apply` accepts exactly
those and leaves its argument unchanged (it works on a :meth:`~.state.State.copy`). Chance
comes from the game's seed only, each shuffle and toss from its own stream
(:func:`.effects.chance`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..messages import Text
from .actions import Action, Discard, Down, Draw, Flip, NoFlip, Source, Up, format_action, seat_name
from .cards import CHIP_IDS, DECK_PAIRS, DEFAULT_DECKS, LIMIT, WINNING_VP, round_cards
from .effects import ALL, Auto, Choose, chance, chooser, script, trigger
from .errors import IllegalActionError, OptionError, WrongTurnError
from .predicates import fully_resolvable, in_round, next_seat, opponents, total
from .state import (
    Event,
    EventKind,
    Frame,
    HandCard,
    Phase,
    Reason,
    RoundEnd,
    RoundResult,
    Slot,
    State,
)

MIN_SEATS, MAX_SEATS = 2, 4  # RJ2.4


# --------------------------------------------------------------------------- new game
def new_game(seed: int, seats: int = 2, decks: str = DEFAULT_DECKS) -> State:
    """A new game for ``seats`` players (RJ2.4) with the deck pair ``decks`` (RJ2.1), its
    first round set up (RJ2.2) and begun by a player drawn from the seed (RJ2.3).

    Raises:
        OptionError: a seat count outside 2-4 or an unknown deck pair.
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or not (
            MIN_SEATS <= seats <= MAX_SEATS):
        raise OptionError(Text("Ratjack is played by 2 to 4 players, not {n}", n=seats))
    if decks not in DECK_PAIRS:
        raise OptionError(Text("the decks are one of {pairs}, not {decks}",
                               pairs=", ".join(DECK_PAIRS), decks=repr(decks)))
    s = State.__new__(State)
    s.seed, s.seats, s.decks = int(seed), seats, decks
    s.round = s.turn = 0
    s.current, s.phase = 0, Phase.DRAW
    s.vp, s.forfeited, s.out = [0] * seats, [False] * seats, [False] * seats
    s.signs, s.reserve = (1,) * len(CHIP_IDS), []
    s.deck, s.discard = [], []
    s.hands, s.displays, s.gone = ([[] for _ in range(seats)] for _ in range(3))
    s.extra_turns, s.stack, s.drawn, s.shuffles = 0, [], None, 0
    s.last_gain, s.events, s.last_round, s.winners, s.reason = (), [], None, (), None
    s._legal = None
    _new_round(s, chance(s.seed, "first").randrange(seats))
    return s


def _new_round(s: State, starter: int) -> None:
    """Set up the next round afresh (RJ2.2, RJ9.6): 24 cards shuffled into the deck, the six
    chips tossed into the reserve, one card face down in each display and one in each hand,
    the next card face up on the discard pile; every player still in the match back in."""
    s.round += 1
    s.turn = 0
    deck = list(round_cards(s.decks))
    chance(s.seed, "deck", s.round).shuffle(deck)
    toss = chance(s.seed, "chips", s.round)
    s.signs = tuple(toss.choice((1, -1)) for _ in CHIP_IDS)
    s.reserve = list(CHIP_IDS)
    s.deck = deck
    s.discard = []
    s.out = list(s.forfeited)
    s.hands = [[] for _ in range(s.seats)]
    s.displays = [[] for _ in range(s.seats)]
    s.gone = [[] for _ in range(s.seats)]
    players = [(starter + k) % s.seats for k in range(s.seats)]
    players = [q for q in players if not s.out[q]]
    for q in players:
        s.displays[q].append(Slot(s.deck.pop(), False))
    for q in players:
        s.hands[q].append(HandCard(s.deck.pop()))
    s.discard.append(s.deck.pop())
    s.extra_turns, s.stack, s.drawn, s.shuffles = 0, [], None, 0
    s.events = [Event(EventKind.ROUND.value, starter, s.discard[-1], None, s.round)]
    _start_turn(s, starter)


def _start_turn(s: State, seat: int) -> None:
    s.current = seat
    s.turn += 1
    s.phase = Phase.DRAW


# --------------------------------------------------------------------------- who acts
def to_act(s: State) -> frozenset[int]:
    """The seat that must decide now (one at a time): the player on turn, or the chooser of
    the pending effect decision (Weasel 12's opponent, RJ11.4); none once over."""
    if s.phase is Phase.OVER:
        return frozenset()
    if s.phase is Phase.EFFECT:
        return frozenset((chooser(s, s.stack[-1]),))
    return frozenset((s.current,))


def legal_actions(s: State, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now, in a fixed order (empty when it has nothing to
    decide). Implements RJ3.1 (draw), RJ3.2 (up only when fully resolvable, RJ4.2; down;
    discard, then flip or not) and RJ11.4 (an effect's pending choice)."""
    cached = s._legal
    if cached is not None and cached[0] == seat:
        return list(cached[1])
    out = _legal(s, seat) if seat in to_act(s) else []
    s._legal = (seat, tuple(out))
    return out


def _legal(s: State, seat: int) -> list[Action]:
    phase = s.phase
    if phase is Phase.DRAW:
        out: list[Action] = [Draw(Source.DECK)]
        if s.discard:
            out.append(Draw(Source.DISCARD))
        return out
    if phase is Phase.ACTION:
        hand = [h.card for h in s.hands[seat]]
        ups: list[Action] = [Up(c) for c in hand if fully_resolvable(s, seat, c, playing=True)]
        return ups + [Down(c) for c in hand] + [Discard(c) for c in hand]
    if phase is Phase.FLIP:
        return [Flip(i + 1) for i, x in enumerate(s.displays[seat]) if not x.up] + [NoFlip()]
    if phase is Phase.EFFECT:
        f = s.stack[-1]
        step = script(f.card)[f.step]
        assert isinstance(step, Choose)
        return step.options(s, f)
    return []


def pending_step(s: State) -> Choose | None:
    """The effect decision waiting now (its kind and prompt), or None."""
    if s.phase is not Phase.EFFECT:
        return None
    f = s.stack[-1]
    step = script(f.card)[f.step]
    return step if isinstance(step, Choose) else None


# --------------------------------------------------------------------------- apply
def apply(s: State, seat: int, action: Action) -> State:
    """The state after ``seat`` plays ``action``; ``s`` is left unchanged.

    Raises:
        WrongTurnError: ``seat`` has nothing to decide now.
        IllegalActionError: ``action`` is not among :func:`legal_actions` (the message lists
            them).
    """
    acting = to_act(s)
    if seat not in acting:
        if s.phase is Phase.OVER:
            raise WrongTurnError(Text("the game is over"))
        raise WrongTurnError(Text("{seat} has nothing to decide now: waiting for {who}",
                                  seat=_seat_label(seat),
                                  who=", ".join(seat_name(q) for q in sorted(acting))))
    legal = legal_actions(s, seat)
    if action not in legal:
        raise IllegalActionError(Text("{action} is not legal now; legal: {legal}",
                                      action=_describe(action),
                                      legal=", ".join(format_action(a) for a in legal)))
    n = s.copy()
    t = type(action)
    if t is Draw:
        _draw(n, seat, action.source)
    elif t is Up:
        _up(n, seat, action.card)
    elif t is Down:
        _down(n, seat, action.card)
    elif t is Discard and n.phase is Phase.ACTION:
        _discard(n, seat, action.card)
    elif t is Flip:
        _flip(n, seat, action.place)
    elif t is NoFlip:
        _event(n, EventKind.NO_FLIP, seat)
        _end_turn(n)
    else:
        _choose(n, seat, action)
    n._legal = None
    return n


def _seat_label(seat: object) -> str:
    return seat_name(seat) if isinstance(seat, int) and not isinstance(seat, bool) else repr(
        seat)


def _describe(action: object) -> str:
    try:
        return repr(format_action(action))  # type: ignore[arg-type]
    except ValueError:
        return repr(action)


def _event(s: State, kind: EventKind, seat: int | None = None, card: str | None = None,
           target: str | None = None, value: int | None = None) -> None:
    s.events.append(Event(kind.value, seat, card, target, value))


def _draw(s: State, seat: int, source: Source) -> None:
    """RJ3.1: the top card of the deck (known to the drawer only) or of the discard pile
    (seen by everyone, RJ11.1)."""
    if source is Source.DECK:
        s.hands[seat].append(HandCard(s.deck.pop()))
        _event(s, EventKind.DRAW_DECK, seat)
    else:
        card = s.discard.pop()
        s.hands[seat].append(HandCard(card, ALL))
        _event(s, EventKind.DRAW_DISCARD, seat, card, "hand")
    s.phase = Phase.ACTION


def _take_from_hand(s: State, seat: int, card: str) -> HandCard:
    hand = s.hands[seat]
    for i, h in enumerate(hand):
        if h.card == card:
            return hand.pop(i)
    raise AssertionError(card)


def _up(s: State, seat: int, card: str) -> None:
    """RJ3.2 up: face up at the end of the display, then its effect resolves."""
    _take_from_hand(s, seat, card)
    s.displays[seat].append(Slot(card, True))
    _event(s, EventKind.UP, seat, card)
    s.stack.append(Frame(card, seat))
    _advance(s)


def _down(s: State, seat: int, card: str) -> None:
    """RJ3.2 down: face down at the end of the display; no effect. Which of the two hand
    cards went down is not public (RJ11.1), so whoever knew one of them no longer knows
    where it is (RJ11.2 Ruling)."""
    _take_from_hand(s, seat, card)
    s.displays[seat].append(Slot(card, False))
    s.hands[seat] = [HandCard(h.card) for h in s.hands[seat]]
    _event(s, EventKind.DOWN, seat)
    _end_turn(s)


def _discard(s: State, seat: int, card: str) -> None:
    """RJ3.2 discard: face up on the discard pile; then the flip, if there is a hidden card
    to flip (a decision with the single option 'no flip' is made at once, RJ11.4)."""
    _take_from_hand(s, seat, card)
    s.discard.append(card)
    _event(s, EventKind.DISCARD, seat, card)
    if any(not x.up for x in s.displays[seat]):
        s.phase = Phase.FLIP
    else:
        _end_turn(s)


def _flip(s: State, seat: int, place: int) -> None:
    """RJ3.2, RJ4.4: the hidden card at ``place`` turns face up and its effect triggers."""
    index = place - 1
    x = s.displays[seat][index]
    s.displays[seat][index] = x._replace(up=True, seen=frozenset())
    _event(s, EventKind.FLIP, seat, x.card, f"@{place}")
    trigger(s, seat, x.card)
    _advance(s)


def _choose(s: State, seat: int, action: Action) -> None:
    """An effect's decision (RJ11.4): remembered in the frame, its part carried out."""
    index = len(s.stack) - 1
    f = s.stack[index]
    step = script(f.card)[f.step]
    f = f._replace(step=f.step + 1, picks=(*f.picks, action))
    s.stack[index] = f
    card = action.card if isinstance(action, Discard) else None
    _event(s, EventKind.CHOICE, seat, card, format_action(action))
    if step.do is not None:
        step.do(s, f, action)
    _advance(s)


def _advance(s: State) -> None:
    """Run the effects on the stack until a decision is needed or they are all resolved; then
    the turn ends (RJ3.2)."""
    while s.stack:
        f = s.stack[-1]
        steps = script(f.card)
        if f.step >= len(steps):
            s.stack.pop()
            _effect_resolved(s, f)
            if s.phase is Phase.OVER:
                return
            continue
        step = steps[f.step]
        if isinstance(step, Auto):
            s.stack[-1] = f = f._replace(step=f.step + 1)
            step.do(s, f)
            continue
        if not step.options(s, f):  # the needs guarantee an option: never expected
            _event(s, EventKind.CUT_SHORT, f.seat, f.card)
            s.stack[-1] = f._replace(step=len(steps))
            continue
        s.phase = Phase.EFFECT
        s._legal = None
        return
    _end_turn(s)


# --------------------------------------------------------------------------- elimination
def _effect_resolved(s: State, f: Frame) -> None:
    """RJ8.1: once an effect has resolved, each opponent over 25 is eliminated and its
    resolver gains 1 VP for each (Weasel 12 included); 3 VP end the game at once (RJ9.5)."""
    for q in opponents(s, f.seat):
        if total(s, q) > LIMIT:
            _eliminate(s, q, by=f.seat)
            s.vp[f.seat] += 1
            s.last_gain = (f.seat,)
            _event(s, EventKind.VP, f.seat, None, "push", 1)
    if s.vp[f.seat] >= WINNING_VP:
        _finish_round(s, RoundEnd.GAME_OVER)


def _eliminate(s: State, seat: int, by: int | None) -> None:
    """RJ8.3: the hand and display leave the round unrevealed, their chips return to the
    reserve; the player sits out the round."""
    for x in s.displays[seat]:
        s.reserve.extend(x.chips)
        s.gone[seat].append(x.card)
    s.gone[seat].extend(h.card for h in s.hands[seat])
    s.reserve.sort()
    s.displays[seat], s.hands[seat] = [], []
    s.out[seat] = True
    _event(s, EventKind.ELIMINATED, seat, None, None, by)


# --------------------------------------------------------------------------- turn and round
def _end_turn(s: State) -> None:
    """The end of a turn: RJ8.2 (over 25: out), RJ9.1 (the round may end), then an extra
    turn (RJ5.3) or the next player in seat order (RJ2.3)."""
    s.phase = Phase.DRAW
    p = s.current
    if not s.out[p] and total(s, p) > LIMIT:
        _eliminate(s, p, by=None)
    if _round_ends(s):
        return
    if s.extra_turns and not s.out[p]:
        s.extra_turns -= 1
        _start_turn(s, p)
    else:
        s.extra_turns = 0
        _start_turn(s, next_seat(s, p))


def _round_ends(s: State) -> bool:
    """RJ9.1-RJ9.4: the first of (a) players at exactly 25, (b) one or no player left, (c) an
    empty deck (the highest total; ties all gain, RJ9.3) ends the round; True if it did."""
    alive = in_round(s)
    at_limit = [q for q in alive if total(s, q) == LIMIT]
    if at_limit:
        end, gainers = RoundEnd.EXACTLY_25, at_limit
    elif len(alive) == 1:
        end, gainers = RoundEnd.LAST_STANDING, alive
    elif not alive:
        end, gainers = RoundEnd.NONE_LEFT, []
    elif not s.deck:
        best = max(total(s, q) for q in alive)
        end, gainers = RoundEnd.DECK_EMPTY, [q for q in alive if total(s, q) == best]
    else:
        return False
    for q in gainers:
        s.vp[q] += 1
        _event(s, EventKind.VP, q, None, end.value, 1)
    if gainers:
        s.last_gain = tuple(gainers)
    _finish_round(s, end)
    return True


def _finish_round(s: State, end: RoundEnd) -> None:
    """The round is over: everything is shown (RJ9.7); 3 VP end the game, the winners
    sharing it (RJ9.5); else the next round begins (RJ9.6)."""
    _event(s, EventKind.ROUND_END, None, None, end.value)
    gains = [0] * s.seats
    for e in s.events:
        if e.kind == EventKind.VP:
            gains[e.seat] += e.value
    s.last_round = RoundResult(
        s.round, end, tuple(gains), tuple(total(s, q) for q in range(s.seats)),
        tuple(tuple(h.card for h in s.hands[q]) for q in range(s.seats)),
        tuple(tuple(s.displays[q]) for q in range(s.seats)), s.signs, tuple(s.events))
    winners = tuple(q for q in range(s.seats) if s.vp[q] >= WINNING_VP)
    if winners:
        _game_over(s, winners, Reason.THREE_VP)
        return
    _new_round(s, _starter(s, s.current))


def _starter(s: State, ended_by: int) -> int:
    """RJ9.6: the player who last gained a VP begins; of several, the first in turn order
    from ``ended_by`` (whose turn ended the round). **Ruling** (RJ9.6): if none of them is
    still in the match, or no one has gained yet, the next player after ``ended_by``."""
    order = [(ended_by + k) % s.seats for k in range(s.seats)]
    for q in order:
        if q in s.last_gain and not s.forfeited[q]:
            return q
    for q in order[1:] + order[:1]:
        if not s.forfeited[q]:
            return q
    raise AssertionError("no player left in the match")


def _game_over(s: State, winners: tuple[int, ...], reason: Reason) -> None:
    if s.drawn is not None:  # a Weasel 3 card never placed goes back to the deck
        s.deck.append(s.drawn)
    s.phase = Phase.OVER
    s.stack, s.drawn, s.extra_turns = [], None, 0
    s.winners, s.reason = winners, reason
    s._legal = None


# --------------------------------------------------------------------------- forfeit
def forfeit(s: State, seat: int) -> State:
    """The state after ``seat`` leaves the match (RJ8.4): eliminated at once and for good, no
    one scoring for it; if one player is left in the match, they win. If it was that seat's
    turn, the turn ends (RJ9.1 is checked as at any turn's end); if it was choosing in Weasel
    12, that effect ends without the chip moving (**Ruling** RJ8.4). ``s`` is unchanged; a
    seat already gone, or a finished game, gives ``s`` back.

    Raises:
        OptionError: not a seat of this game.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.seats:
        raise OptionError(Text("no seat {seat} in a game of {n}", seat=repr(seat), n=s.seats))
    if s.phase is Phase.OVER or s.forfeited[seat]:
        return s
    n = s.copy()
    acting = to_act(s)
    n.forfeited[seat] = True
    _event(n, EventKind.FORFEIT, seat)
    if not n.out[seat]:
        if n.drawn is not None and n.current == seat:  # Weasel 3's card leaves with them
            n.gone[seat].append(n.drawn)
            n.drawn = None
        _eliminate(n, seat, by=None)
    left = [q for q in range(n.seats) if not n.forfeited[q]]
    if len(left) == 1:
        _event(n, EventKind.ROUND_END, None, None, RoundEnd.FORFEIT.value)
        n.last_round = RoundResult(
            n.round, RoundEnd.FORFEIT, (0,) * n.seats,
            tuple(total(n, q) for q in range(n.seats)),
            tuple(tuple(h.card for h in n.hands[q]) for q in range(n.seats)),
            tuple(tuple(n.displays[q]) for q in range(n.seats)), n.signs, tuple(n.events))
        _game_over(n, (left[0],), Reason.LAST_IN_MATCH)
        return n
    if n.current == seat:
        n.stack, n.extra_turns = [], 0
        _end_turn(n)
    elif n.phase is Phase.EFFECT:
        if seat in acting:
            n.stack.pop()  # Weasel 12's chooser left: the effect ends there
        _advance(n)  # a choice the leaving player's cards offered ends the effect there
    n._legal = None
    return n


# --------------------------------------------------------------------------- replay
def replay(seed: int, seats: int, decks: str,
           log: Iterable[tuple[int, Action | None]]) -> State:
    """The state reached from ``new_game(seed, seats, decks)`` by the ``(seat, action)``
    pairs of ``log``; an action of None is that seat's forfeit (RJ8.4).

    Raises:
        OptionError: bad ``seats`` or ``decks``.
        WrongTurnError, IllegalActionError: an action not legal at its point.
    """
    s = new_game(seed, seats, decks)
    for seat, action in log:
        s = forfeit(s, seat) if action is None else apply(s, seat, action)
    return s
