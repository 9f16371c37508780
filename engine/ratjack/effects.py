"""How each of the 36 effects is carried out (RJ5-RJ7): a script of steps per effect.

A step is either :class:`Auto` (done at once: a draw, a flip of the top of the discard pile)
or :class:`Choose` (a decision of RJ11.4: its options as actions, who makes it, what it
does once chosen). The rules (:mod:`.rules`) run a :class:`~.state.Frame` through its script:
auto steps run, a choice waits for its chooser. A choice with a single option is still a
decision here; the bot may make it automatically (RJ11.4).

The needs of :data:`~.cards.EFFECTS` guarantee that every step of a fully resolvable effect
has an option (the random-play tests check that no effect is ever cut short). The functions
whose names start with ``_`` change the working copy of a state the rules are building; no
state returned to a caller is ever changed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple

from ..messages import Text
from .actions import Action, Chip, Discard, Opponent, Target, seat_name
from .cards import Kind, kind_of, value_of
from .predicates import chip_of_face, chip_place, face, fully_resolvable, opponents
from .state import EVERYONE, Event, EventKind, Frame, HandCard, Slot, State

ALL = frozenset({EVERYONE})


class StepKind(StrEnum):
    """What a decision of an effect picks (RJ11.4)."""

    CHIP = "chip"            # a bonus token, by face
    CARD = "card"            # a card, by owner and place
    OPPONENT = "opponent"    # an opponent
    HAND = "hand"            # one of the chooser's hand cards (Raccoon 10)


Options = Callable[[State, Frame], list[Action]]
Do = Callable[[State, Frame, Action], None]


class Choose(NamedTuple):
    """A decision: ``options(state, frame)`` lists it; ``do(state, frame, action)`` carries
    out its part once chosen (None: only remembered, in the frame's picks); ``chooser``
    names who decides (None: the resolver, RJ4.5); ``prompt`` says what to choose."""

    what: StepKind
    options: Options
    prompt: Text
    do: Do | None = None
    chooser: Callable[[State, Frame], int] | None = None


class Auto(NamedTuple):
    """A step done without a decision."""

    do: Callable[[State, Frame], None]


Step = Choose | Auto


def chance(seed: int, *labels: object) -> random.Random:
    """The chance stream of one shuffle or toss (RJ2.2): its own generator, seeded from the
    game's seed and the labels (``"deck", 3``), so no draw of one stream moves another."""
    return random.Random(f"ratjack:{seed}:" + ":".join(str(x) for x in labels))


# --------------------------------------------------------------------------- options
def reserve_chips(s: State, f: Frame) -> list[Action]:
    """Every chip in the reserve, by face."""
    return [Chip(face(s, c)) for c in sorted(s.reserve)]


def _chips_on(s: State, seats: list[int]) -> list[Action]:
    return [Chip(face(s, c)) for q in seats for x in s.displays[q] for c in x.chips]


def _cards(s: State, seats: list[int], keep: Callable[[Slot], bool]) -> list[Action]:
    return [Target(q, i + 1) for q in seats for i, x in enumerate(s.displays[q]) if keep(x)]


def _up(x: Slot) -> bool:
    return x.up


def _down(x: Slot) -> bool:
    return not x.up


def _any(x: Slot) -> bool:
    return True


def own(keep: Callable[[Slot], bool]) -> Options:
    return lambda s, f: _cards(s, [f.seat], keep)


def opp(keep: Callable[[Slot], bool]) -> Options:
    return lambda s, f: _cards(s, opponents(s, f.seat), keep)


def _own_other_visible(s: State, f: Frame) -> list[Action]:
    return [Target(f.seat, i + 1) for i, x in enumerate(s.displays[f.seat])
            if x.up and x.card != f.card]


def _any_hidden(s: State, f: Frame) -> list[Action]:
    return _cards(s, [f.seat, *opponents(s, f.seat)], _down)


def _own_but_first_target(s: State, f: Frame) -> list[Action]:
    first = next(p for p in f.picks if isinstance(p, Target))
    return [t for t in _cards(s, [f.seat], _any) if t != first]


def _chips_on_opp(s: State, f: Frame) -> list[Action]:
    return _chips_on(s, opponents(s, f.seat))


def _chips_on_own(s: State, f: Frame) -> list[Action]:
    return _chips_on(s, [f.seat])


def _chips_on_any(s: State, f: Frame) -> list[Action]:
    return _chips_on(s, [f.seat, *opponents(s, f.seat)])


def _chips_anywhere(s: State, f: Frame) -> list[Action]:
    return reserve_chips(s, f) + _chips_on_any(s, f)


def _chips_with_partner(s: State, f: Frame) -> list[Action]:
    """Weasel 8's first chip: one with a chip on another card to exchange with (RJ7.8)."""
    seats = [f.seat, *opponents(s, f.seat)]
    holders = {(q, i) for q in seats for i, x in enumerate(s.displays[q]) if x.chips}
    if len(holders) < 2:
        return []
    return _chips_on(s, seats)


def _chips_elsewhere(s: State, f: Frame) -> list[Action]:
    """Weasel 8's second chip: one on another card than the first's (RJ7.8)."""
    where = chip_place(s, chip_of_face(s, f.picks[-1].face))
    return [Chip(face(s, c)) for q in [f.seat, *opponents(s, f.seat)]
            for i, x in enumerate(s.displays[q]) if (q, i) != where for c in x.chips]


def _opponents(s: State, f: Frame) -> list[Action]:
    return [Opponent(q) for q in opponents(s, f.seat)]


def _opponents_with_cards(s: State, f: Frame) -> list[Action]:
    return [Opponent(q) for q in opponents(s, f.seat) if s.displays[q]]


def _chosen_opponents_cards(s: State, f: Frame) -> list[Action]:
    return _cards(s, [f.picks[1].seat], _any)


def _hand_cards(s: State, f: Frame) -> list[Action]:
    return [Discard(h.card) for h in s.hands[f.seat]]


# --------------------------------------------------------------------------- changes
def _event(s: State, kind: EventKind, seat: int | None = None, card: str | None = None,
           target: str | None = None, value: int | None = None) -> None:
    s.events.append(Event(kind.value, seat, card, target, value))


def _where(s: State, t: Action) -> tuple[int, int]:
    """The (seat, 0-based index) of a :class:`Target`."""
    return t.seat, t.place - 1


def _lift_chip(s: State, chip: int) -> None:
    """Take ``chip`` off its card, or out of the reserve."""
    place = chip_place(s, chip)
    if place is None:
        s.reserve.remove(chip)
    else:
        q, i = place
        x = s.displays[q][i]
        s.displays[q][i] = x._replace(chips=tuple(c for c in x.chips if c != chip))


def _put_chip(s: State, chip: int, seat: int, index: int) -> None:
    """Move ``chip`` onto the card at ``index`` of ``seat``'s display (RJ4.6)."""
    _lift_chip(s, chip)
    x = s.displays[seat][index]
    s.displays[seat][index] = x._replace(chips=(*x.chips, chip))


def _to_reserve(s: State, chip: int) -> None:
    _lift_chip(s, chip)
    s.reserve.append(chip)
    s.reserve.sort()


def _release_chips(s: State, x: Slot) -> None:
    """A card left the displays: its chips return to the reserve (RJ4.7)."""
    s.reserve.extend(x.chips)
    s.reserve.sort()


def _flip_up(s: State, seat: int, index: int) -> None:
    x = s.displays[seat][index]
    s.displays[seat][index] = x._replace(up=True, seen=frozenset())
    _event(s, EventKind.REVEALED, seat, x.card, f"{seat_name(seat)}@{index + 1}")


def _flip_down(s: State, seat: int, index: int) -> None:
    """Face down in view of all: everyone knows it (RJ11.2: Rat 10, Weasel 5)."""
    x = s.displays[seat][index]
    s.displays[seat][index] = x._replace(up=False, seen=ALL)


def _handed_over(seen: frozenset[int], giver: int, taker: int) -> frozenset[int]:
    """Who, besides its new holder ``taker``, knows a card ``giver`` passed on unseen
    (RJ11.2: its former owner, Raccoon 2; the card given, Weasel 1)."""
    return (seen | {giver}) - {taker}


def _deck_to_discard(s: State, n: int) -> None:
    """The top ``n`` cards of the deck onto the discard pile, one at a time (RJ4.8)."""
    for _ in range(n):
        card = s.deck.pop()
        s.discard.append(card)
        _event(s, EventKind.DECK_DISCARD, None, card)


def trigger(s: State, seat: int, card: str) -> None:
    """``card``, just turned face up in ``seat``'s display by a flip (the discard action or
    Rat 6), triggers: its effect resolves if fully resolvable, and is skipped entirely if not
    (RJ4.4, RJ4.9)."""
    if fully_resolvable(s, seat, card):
        _event(s, EventKind.TRIGGER, seat, card)
        s.stack.append(Frame(card, seat))
    else:
        _event(s, EventKind.SKIPPED, seat, card)


# --- placing chips: a chip chosen, then a card (RJ4.6)
def _place_last_chip(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    _put_chip(s, chip_of_face(s, f.picks[-2].face), seat, index)


# --- Rats (RJ5)
def _rat2(s: State, f: Frame) -> None:
    card = s.discard.pop()
    s.displays[f.seat].append(Slot(card, False, (), ALL))
    _event(s, EventKind.DRAW_DISCARD, f.seat, card, "down")


def _rat3(s: State, f: Frame) -> None:
    s.extra_turns += 1
    _event(s, EventKind.EXTRA_TURN, f.seat)


def _rat5(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    x = s.displays[seat][index]
    s.displays[seat][index] = x._replace(seen=x.seen | {f.seat})


def _rat6(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    card = s.displays[seat][index].card
    _flip_up(s, seat, index)
    trigger(s, seat, card)


def _rat7(s: State, f: Frame, t: Action) -> None:
    me, mine = _where(s, f.picks[-2])
    them, theirs = _where(s, t)
    a, b = s.displays[me][mine], s.displays[them][theirs]
    s.displays[me][mine], s.displays[them][theirs] = b, a


def _rat10(s: State, f: Frame, t: Action) -> None:
    _flip_down(s, *_where(s, t))


def _rat11(s: State, f: Frame) -> None:
    _deck_to_discard(s, 2)


def _reveal(s: State, f: Frame, t: Action) -> None:
    _flip_up(s, *_where(s, t))


# --- Raccoons (RJ6)
def _raccoon1(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    x = s.displays[seat].pop(index)
    _release_chips(s, x)
    s.discard.append(x.card)


def _raccoon2(s: State, f: Frame, t: Action) -> None:
    me, mine = _where(s, f.picks[-2])
    them, theirs = _where(s, t)
    a, b = s.displays[me][mine], s.displays[them][theirs]
    s.displays[me][mine] = b._replace(up=True, seen=frozenset())
    s.displays[them][theirs] = a._replace(up=False, seen=_handed_over(a.seen, me, them))


def _raccoon3(s: State, f: Frame) -> None:
    for h in s.hands[f.seat]:
        s.displays[f.seat].append(Slot(h.card, False, (), h.seen))
    s.hands[f.seat] = [HandCard(s.deck.pop())]
    _event(s, EventKind.DECK_DRAW, f.seat, None, "hand")


def _raccoon4(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    x = s.displays[seat].pop(index)
    s.displays[f.seat].append(x._replace(up=True, seen=frozenset()))
    _event(s, EventKind.REVEALED, f.seat, x.card, f"{seat_name(f.seat)}@"
           f"{len(s.displays[f.seat])}")


def _raccoon5(s: State, f: Frame) -> None:
    s.displays[f.seat].append(Slot(s.deck.pop(), False))
    _event(s, EventKind.DECK_DRAW, f.seat, None, "display")


def _raccoon9(s: State, f: Frame) -> None:
    card = s.discard.pop()
    s.displays[f.seat].append(Slot(card, True))
    _event(s, EventKind.DRAW_DISCARD, f.seat, card, "up")


def _raccoon10_draw(s: State, f: Frame) -> None:
    s.hands[f.seat].append(HandCard(s.deck.pop()))
    _event(s, EventKind.DECK_DRAW, f.seat, None, "hand")


def _raccoon10_discard(s: State, f: Frame, a: Action) -> None:
    hand = s.hands[f.seat]
    s.hands[f.seat] = [h for h in hand if h.card != a.card]
    s.discard.append(a.card)


def _raccoon12(s: State, f: Frame) -> None:
    top = [s.discard.pop() for _ in range(3)]
    deck = s.deck + top
    chance(s.seed, "shuffle", s.round, s.shuffles).shuffle(deck)
    s.shuffles += 1
    s.deck = deck
    _event(s, EventKind.SHUFFLED, f.seat, None, None, 3)


# --- Weasels (RJ7)
def _weasel1(s: State, f: Frame, a: Action) -> None:
    me, them = f.seat, a.seat
    mine, theirs = s.hands[me], s.hands[them]
    s.hands[me] = [HandCard(h.card, _handed_over(h.seen, them, me)) for h in theirs]
    s.hands[them] = [HandCard(h.card, _handed_over(h.seen, me, them)) for h in mine]


def _chip_to_reserve(s: State, f: Frame, a: Action) -> None:
    _to_reserve(s, chip_of_face(s, a.face))


def _weasel3_draw(s: State, f: Frame) -> None:
    s.drawn = s.deck.pop()
    _event(s, EventKind.DECK_DRAW, f.seat, None, "look")


def _weasel3_place(s: State, f: Frame, a: Action) -> None:
    s.displays[a.seat].append(Slot(s.drawn, False, (), frozenset({f.seat})))
    s.drawn = None


def _weasel5(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    if s.displays[seat][index].up:
        _flip_down(s, seat, index)
    else:
        _flip_up(s, seat, index)


def _weasel6(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    x = s.displays[seat].pop(index)
    s.displays[f.seat].append(x)


def _weasel7(s: State, f: Frame, a: Action) -> None:
    old = chip_of_face(s, f.picks[-2].face)
    new = chip_of_face(s, a.face)
    seat, index = chip_place(s, old)
    _to_reserve(s, old)
    _put_chip(s, new, seat, index)  # RJ7.7 Ruling: on the same card


def _weasel8(s: State, f: Frame, a: Action) -> None:
    first, second = chip_of_face(s, f.picks[-2].face), chip_of_face(s, a.face)
    p1, p2 = chip_place(s, first), chip_place(s, second)
    _put_chip(s, first, *p2)
    _put_chip(s, second, *p1)


def _weasel9(s: State, f: Frame) -> None:
    _deck_to_discard(s, 3)


def _weasel11(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    x = s.displays[seat].pop(index)
    _release_chips(s, x)
    s.discard.append(x.card)
    _event(s, EventKind.DISCARD, seat, x.card, "hidden")


def _weasel12(s: State, f: Frame, t: Action) -> None:
    seat, index = _where(s, t)
    _put_chip(s, chip_of_face(s, f.picks[0].face), seat, index)


# --------------------------------------------------------------------------- prompts
P_RESERVE = Text("Choose a bonus token from the reserve")
P_OWN_VISIBLE = Text("Choose one of your visible cards")
P_OWN_CARD = Text("Choose one of your cards")
P_OWN_HIDDEN = Text("Choose one of your hidden cards")
P_OPP_HIDDEN = Text("Choose an opponent's hidden card")
P_OPP_VISIBLE = Text("Choose an opponent's visible card")
P_OPP_CARD = Text("Choose an opponent's card")
P_OPPONENT = Text("Choose an opponent")

_K = Kind
C, CARD, OPP, HAND = StepKind.CHIP, StepKind.CARD, StepKind.OPPONENT, StepKind.HAND

#: The script of each effect, by (kind, value): RJ5 Rats, RJ6 Raccoons, RJ7 Weasels.
SCRIPTS: dict[tuple[Kind, int], tuple[Step, ...]] = {
    (_K.RAT, 1): (Choose(C, reserve_chips, P_RESERVE),
                  Choose(CARD, own(_up), P_OWN_VISIBLE, _place_last_chip)),
    (_K.RAT, 2): (Auto(_rat2),),
    (_K.RAT, 3): (Auto(_rat3),),
    (_K.RAT, 4): (Choose(C, reserve_chips, P_RESERVE),
                  Choose(CARD, opp(_down), P_OPP_HIDDEN, _place_last_chip)),
    (_K.RAT, 5): (Choose(CARD, opp(_down), P_OPP_HIDDEN, _rat5),),
    (_K.RAT, 6): (Choose(CARD, own(_down), P_OWN_HIDDEN, _rat6),),
    (_K.RAT, 7): (Choose(CARD, _own_other_visible, Text("Choose another visible card of "
                                                         "yours"), None),
                  Choose(CARD, opp(_up), P_OPP_VISIBLE, _rat7)),
    (_K.RAT, 8): (Choose(C, reserve_chips, P_RESERVE),
                  Choose(CARD, own(_any), P_OWN_CARD, _place_last_chip)),
    (_K.RAT, 9): (Choose(C, _chips_on_opp, Text("Choose a bonus token on an opponent's "
                                                "card")),
                  Choose(CARD, own(_any), P_OWN_CARD, _place_last_chip)),
    (_K.RAT, 10): (Choose(CARD, opp(_up), P_OPP_VISIBLE, _rat10),),
    (_K.RAT, 11): (Auto(_rat11),),
    (_K.RAT, 12): (Choose(CARD, opp(_down), P_OPP_HIDDEN, _reveal),),
    (_K.RACCOON, 1): (Choose(CARD, opp(_up), P_OPP_VISIBLE, _raccoon1),),
    (_K.RACCOON, 2): (Choose(CARD, own(_down), P_OWN_HIDDEN),
                      Choose(CARD, opp(_up), P_OPP_VISIBLE, _raccoon2)),
    (_K.RACCOON, 3): (Auto(_raccoon3),),
    (_K.RACCOON, 4): (Choose(CARD, opp(_down), P_OPP_HIDDEN, _raccoon4),),
    (_K.RACCOON, 5): (Auto(_raccoon5),),
    (_K.RACCOON, 6): (Choose(C, reserve_chips, P_RESERVE),
                      Choose(CARD, own(_any), P_OWN_CARD, _place_last_chip),
                      Choose(C, reserve_chips, P_RESERVE),
                      Choose(CARD, _own_but_first_target, Text("Choose another card of "
                                                               "yours"), _place_last_chip)),
    (_K.RACCOON, 7): (Choose(CARD, own(_down), P_OWN_HIDDEN, _reveal),
                      Choose(CARD, opp(_down), P_OPP_HIDDEN, _reveal)),
    (_K.RACCOON, 8): (Choose(C, reserve_chips, P_RESERVE),
                      Choose(CARD, own(_any), P_OWN_CARD, _place_last_chip),
                      Choose(C, reserve_chips, P_RESERVE),
                      Choose(CARD, opp(_any), P_OPP_CARD, _place_last_chip)),
    (_K.RACCOON, 9): (Auto(_raccoon9),),
    (_K.RACCOON, 10): (Auto(_raccoon10_draw),
                       Choose(HAND, _hand_cards, Text("Choose a hand card to discard"),
                              _raccoon10_discard)),
    (_K.RACCOON, 11): (Choose(C, reserve_chips, P_RESERVE),
                       Choose(CARD, opp(_any), P_OPP_CARD, _place_last_chip)),
    (_K.RACCOON, 12): (Auto(_raccoon12),),
    (_K.WEASEL, 1): (Choose(OPP, _opponents, P_OPPONENT, _weasel1),),
    (_K.WEASEL, 2): (Choose(C, _chips_on_any, Text("Choose a bonus token on a card"),
                            _chip_to_reserve),),
    (_K.WEASEL, 3): (Auto(_weasel3_draw),
                     Choose(OPP, _opponents, P_OPPONENT, _weasel3_place)),
    (_K.WEASEL, 4): (Choose(C, reserve_chips, P_RESERVE),
                     Choose(CARD, _any_hidden, Text("Choose a hidden card"), _place_last_chip)),
    (_K.WEASEL, 5): (Choose(CARD, own(_any), P_OWN_CARD, _weasel5),),
    (_K.WEASEL, 6): (Choose(CARD, opp(_up), P_OPP_VISIBLE, _weasel6),),
    (_K.WEASEL, 7): (Choose(C, _chips_on_own, Text("Choose a bonus token on one of your "
                                                   "cards")),
                     Choose(C, reserve_chips, P_RESERVE, _weasel7)),
    (_K.WEASEL, 8): (Choose(C, _chips_with_partner, Text("Choose a bonus token on a card")),
                     Choose(C, _chips_elsewhere, Text("Choose a bonus token on another card"),
                            _weasel8)),
    (_K.WEASEL, 9): (Auto(_weasel9),),
    (_K.WEASEL, 10): (Choose(C, _chips_on_own, Text("Choose a bonus token on one of your "
                                                    "cards"), _chip_to_reserve),),
    (_K.WEASEL, 11): (Choose(CARD, own(_down), P_OWN_HIDDEN, _weasel11),),
    (_K.WEASEL, 12): (Choose(C, _chips_anywhere, Text("Choose a bonus token (in the reserve "
                                                      "or on a card)")),
                      Choose(OPP, _opponents_with_cards, P_OPPONENT),
                      Choose(CARD, _chosen_opponents_cards,
                             Text("Choose one of your cards for the bonus token"), _weasel12,
                             chooser=lambda s, f: f.picks[1].seat)),
}


def script(card: str) -> tuple[Step, ...]:
    """The steps of ``card``'s effect."""
    return SCRIPTS[(kind_of(card), value_of(card))]


def chooser(s: State, f: Frame) -> int:
    """Who makes the next decision of frame ``f``: its resolver, or Weasel 12's chosen
    opponent (RJ4.5, RJ11.4)."""
    step = script(f.card)[f.step]
    assert isinstance(step, Choose)
    return f.seat if step.chooser is None else step.chooser(s, f)


__all__ = ["Auto", "Choose", "SCRIPTS", "Step", "StepKind", "chance", "chooser", "script",
           "trigger"]
