"""The facts of Ratjack, each in one table: the four decks (RJ1.1), the six bonus chips
(RJ1.2), the pairs of decks a match may use (RJ2.1) and the 36 effects (RJ5-RJ7) with what
each one needs to be fully resolvable (RJ4.2), as data.

Every other part (the rules, the refusal reasons, the renderer's card faces, the AI) reads
these tables; a card's value, deck and effect are written nowhere else.

A card is named by its deck letter and value: ``"C7"`` (RJ1.1). Red and Blue Rats are the
same effects (:data:`Kind.RAT`), so 48 cards carry 36 effects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from ..messages import Text


class Kind(StrEnum):
    """The three kinds of effects (RJ5 Rats, RJ6 Raccoons, RJ7 Weasels)."""

    RAT = "rat"
    RACCOON = "raccoon"
    WEASEL = "weasel"


@dataclass(frozen=True, slots=True)
class Deck:
    """One deck of twelve cards valued 1-12 (RJ1.1): its ``letter`` (``R``, ``B``, ``C``,
    ``W``), the ``kind`` of its effects and its ``name`` (a catalog message)."""

    letter: str
    kind: Kind
    name: Text


#: The four decks (RJ1.1), in the order the rules list them.
DECKS: tuple[Deck, ...] = (
    Deck("R", Kind.RAT, Text("Red Rats")),
    Deck("B", Kind.RAT, Text("Blue Rats")),
    Deck("C", Kind.RACCOON, Text("Raccoons")),
    Deck("W", Kind.WEASEL, Text("Weasels")),
)
DECK_BY_LETTER: dict[str, Deck] = {d.letter: d for d in DECKS}
#: The card values of a deck (RJ1.1).
VALUES: tuple[int, ...] = tuple(range(1, 13))

#: The pairs of decks a match may be played with, by option value (RJ2.1); the first is the
#: default (the rulebook's first-game advice).
DECK_PAIRS: dict[str, tuple[str, str]] = {
    "rb": ("R", "B"), "rc": ("R", "C"), "rw": ("R", "W"), "cw": ("C", "W"),
}
DEFAULT_DECKS = "rb"

#: The six bonus chips by id (0-5): the size of each; a chip shows ``+size`` or ``-size``
#: (RJ1.2 Ruling), the toss of each round deciding the sign (RJ2.2). Within a round the
#: showing faces all differ, so a chip is named by its face (``+3``, ``-10``).
CHIP_SIZES: tuple[int, ...] = (1, 2, 3, 4, 5, 10)
CHIP_IDS: tuple[int, ...] = tuple(range(len(CHIP_SIZES)))

#: The total a display must not exceed, and the total that wins a round (RJ9.1).
LIMIT = 25
#: Victory points that win the game (RJ9.5).
WINNING_VP = 3


def card_name(letter: str, value: int) -> str:
    """``card_name("C", 7) == "C7"`` (RJ1.1)."""
    return f"{letter}{value}"


def deck_of(card: str) -> Deck:
    """The deck of ``card`` (``"C7"`` -> Raccoons).

    Raises:
        KeyError: not a card name.
    """
    return DECK_BY_LETTER[card[0]]


def value_of(card: str) -> int:
    """The printed value of ``card`` (``"C7"`` -> 7)."""
    return int(card[1:])


def kind_of(card: str) -> Kind:
    """The kind of effect of ``card`` (``"B3"`` -> :data:`Kind.RAT`)."""
    return DECK_BY_LETTER[card[0]].kind


#: Every card name of the four decks, R1 .. W12.
ALL_CARDS: tuple[str, ...] = tuple(card_name(d.letter, v) for d in DECKS for v in VALUES)
_CARD_SET = frozenset(ALL_CARDS)


def is_card(text: str) -> bool:
    """Whether ``text`` is exactly a card name (``"C7"``)."""
    return text in _CARD_SET


def round_cards(decks: str) -> tuple[str, ...]:
    """The 24 cards of a round with the deck pair ``decks`` (RJ2.1), in table order.

    Raises:
        KeyError: not a deck pair of :data:`DECK_PAIRS`.
    """
    letters = DECK_PAIRS[decks]
    return tuple(c for c in ALL_CARDS if c[0] in letters)


def chip_face(chip: int, sign: int) -> int:
    """The showing face of chip ``chip`` tossed to ``sign`` (+1 or -1)."""
    return sign * CHIP_SIZES[chip]


def format_face(face: int) -> str:
    """A chip's face as written: ``+3``, ``-10`` (ASCII signs, so it can be typed)."""
    return f"{face:+d}"


class Need(StrEnum):
    """One thing an effect needs to be fully resolvable (RJ4.2), judged for the player who
    resolves it with the effect's card face up in their display (RJ4.3: it counts among
    their cards and visible cards). Each need comes with a count in :attr:`Effect.needs`."""

    CHIP = "chip"                          # chips in the reserve
    OPP_HIDDEN = "opp_hidden"              # an opponent's hidden card
    OPP_VISIBLE = "opp_visible"            # an opponent's visible card
    OPP_CARD = "opp_card"                  # an opponent's card, either kind
    OWN_HIDDEN = "own_hidden"              # a hidden card of yours
    OTHER_VISIBLE = "other_visible"        # a visible card of yours besides the effect's
    OWN_CARDS = "own_cards"                # cards in your display (the effect's included)
    DISCARD = "discard"                    # cards in the discard pile
    DECK = "deck"                          # cards in the draw deck
    CHIP_ON_OPP_CARD = "chip_on_opp_card"  # a chip on an opponent's card
    CHIP_ON_CARD = "chip_on_card"          # a chip on any card in a display
    CHIP_ON_OWN_CARD = "chip_on_own_card"  # a chip on one of your cards
    CHIPS_ON_TWO_CARDS = "chips_on_two_cards"  # chips on two different cards
    OPPONENT = "opponent"                  # an opponent (RJ4.5)
    HIDDEN_CARD = "hidden_card"            # a hidden card, yours or an opponent's
    CHIP_ANYWHERE = "chip_anywhere"        # a chip, in the reserve or on a card


#: How a refusal says what is missing: the need's words for a count ``n`` (the needs that
#: come with counts above 1 in :data:`EFFECTS` have a sentence for them).
NEED_TEXTS: dict[Need, Callable[[int], Text]] = {
    Need.CHIP: lambda n: (Text("a bonus token in the reserve") if n == 1 else
                          Text("{n} bonus tokens in the reserve", n=n)),
    Need.OPP_HIDDEN: lambda n: Text("an opponent's hidden card"),
    Need.OPP_VISIBLE: lambda n: Text("an opponent's visible card"),
    Need.OPP_CARD: lambda n: Text("an opponent's card"),
    Need.OWN_HIDDEN: lambda n: Text("a hidden card of yours"),
    Need.OTHER_VISIBLE: lambda n: Text("another visible card of yours"),
    Need.OWN_CARDS: lambda n: (Text("a card in your display") if n == 1 else
                               Text("{n} cards in your display", n=n)),
    Need.DISCARD: lambda n: (Text("a card in the discard pile") if n == 1 else
                             Text("{n} cards in the discard pile", n=n)),
    Need.DECK: lambda n: (Text("a card in the deck") if n == 1 else
                          Text("{n} cards in the deck", n=n)),
    Need.CHIP_ON_OPP_CARD: lambda n: Text("a bonus token on an opponent's card"),
    Need.CHIP_ON_CARD: lambda n: Text("a bonus token on a card"),
    Need.CHIP_ON_OWN_CARD: lambda n: Text("a bonus token on one of your cards"),
    Need.CHIPS_ON_TWO_CARDS: lambda n: Text("bonus tokens on two different cards"),
    Need.OPPONENT: lambda n: Text("an opponent"),
    Need.HIDDEN_CARD: lambda n: Text("a hidden card"),
    Need.CHIP_ANYWHERE: lambda n: Text("a bonus token"),
}


def need_text(need: Need, n: int) -> Text:
    """What a refusal says is missing, e.g. ``"2 chips in the reserve"``."""
    return NEED_TEXTS[need](n)


@dataclass(frozen=True, slots=True)
class Effect:
    """One of the 36 effects (RJ5-RJ7).

    Attributes:
        kind, value: whose effect it is (``Kind.RAT``, 7 for Red and Blue 7).
        text: the effect in a sentence, as the card face and the help show it (a catalog
            message id).
        needs: what it needs to be fully resolvable (RJ4.2), ``(need, count)`` pairs; empty
            for an effect that always is.
        rule: the rule of ``docs/RATJACK_RULES.md`` that defines it (``"RJ5.7"``).
    """

    kind: Kind
    value: int
    text: Text
    needs: tuple[tuple[Need, int], ...]
    rule: str


_RAT, _RAC, _WEA = Kind.RAT, Kind.RACCOON, Kind.WEASEL
N = Need

#: The 36 effects: Rats 1-12 (RJ5), Raccoons 1-12 (RJ6), Weasels 1-12 (RJ7).
EFFECTS: tuple[Effect, ...] = (
    Effect(_RAT, 1, Text("Place a bonus token on one of your visible cards."),
           ((N.CHIP, 1),), "RJ5.1"),
    Effect(_RAT, 2, Text("Put the top card of the discard pile face down in your display."),
           ((N.DISCARD, 1),), "RJ5.2"),
    Effect(_RAT, 3, Text("When this turn ends, play another full turn."), (), "RJ5.3"),
    Effect(_RAT, 4, Text("Place a bonus token on an opponent's hidden card."),
           ((N.CHIP, 1), (N.OPP_HIDDEN, 1)), "RJ5.4"),
    Effect(_RAT, 5, Text("Secretly look at one opponent's hidden card."),
           ((N.OPP_HIDDEN, 1),), "RJ5.5"),
    Effect(_RAT, 6, Text("Flip one of your hidden cards face up; its effect triggers."),
           ((N.OWN_HIDDEN, 1),), "RJ5.6"),
    Effect(_RAT, 7, Text("Swap one of your other visible cards with an opponent's visible "
                         "card; neither triggers."),
           ((N.OTHER_VISIBLE, 1), (N.OPP_VISIBLE, 1)), "RJ5.7"),
    Effect(_RAT, 8, Text("Place a bonus token on one of your cards."), ((N.CHIP, 1),),
           "RJ5.8"),
    Effect(_RAT, 9, Text("Move a bonus token from an opponent's card onto one of your "
                         "cards."),
           ((N.CHIP_ON_OPP_CARD, 1),), "RJ5.9"),
    Effect(_RAT, 10, Text("Turn an opponent's visible card face down."),
           ((N.OPP_VISIBLE, 1),), "RJ5.10"),
    Effect(_RAT, 11, Text("Discard the top two cards of the deck."), ((N.DECK, 2),),
           "RJ5.11"),
    Effect(_RAT, 12, Text("Turn an opponent's hidden card face up without triggering it."),
           ((N.OPP_HIDDEN, 1),), "RJ5.12"),
    Effect(_RAC, 1, Text("Put an opponent's visible card on the discard pile."),
           ((N.OPP_VISIBLE, 1),), "RJ6.1"),
    Effect(_RAC, 2, Text("Trade one of your hidden cards for an opponent's visible card: "
                         "yours goes to them face down, theirs comes to you face up "
                         "without triggering."),
           ((N.OWN_HIDDEN, 1), (N.OPP_VISIBLE, 1)), "RJ6.2"),
    Effect(_RAC, 3, Text("Put your hand card face down in your display, then draw a card."),
           ((N.DECK, 1),), "RJ6.3"),
    Effect(_RAC, 4, Text("Take an opponent's hidden card into your display face up without "
                         "triggering it."),
           ((N.OPP_HIDDEN, 1),), "RJ6.4"),
    Effect(_RAC, 5, Text("Put the top card of the deck face down in your display."),
           ((N.DECK, 1),), "RJ6.5"),
    Effect(_RAC, 6, Text("Place one bonus token on each of two different cards of yours."),
           ((N.CHIP, 2), (N.OWN_CARDS, 2)), "RJ6.6"),
    Effect(_RAC, 7, Text("Turn one of your hidden cards and one opponent's hidden card face "
                         "up; neither triggers."),
           ((N.OWN_HIDDEN, 1), (N.OPP_HIDDEN, 1)), "RJ6.7"),
    Effect(_RAC, 8, Text("Place a bonus token on one of your cards and another on an "
                         "opponent's card."),
           ((N.CHIP, 2), (N.OPP_CARD, 1)), "RJ6.8"),
    Effect(_RAC, 9, Text("Put the top card of the discard pile face up in your display "
                         "without triggering it."),
           ((N.DISCARD, 1),), "RJ6.9"),
    Effect(_RAC, 10, Text("Draw a card, then discard one of your two hand cards."),
           ((N.DECK, 1),), "RJ6.10"),
    Effect(_RAC, 11, Text("Place a bonus token on any card of an opponent."),
           ((N.CHIP, 1), (N.OPP_CARD, 1)), "RJ6.11"),
    Effect(_RAC, 12, Text("Shuffle the top three cards of the discard pile into the deck."),
           ((N.DISCARD, 3),), "RJ6.12"),
    Effect(_WEA, 1, Text("Exchange your hand card with an opponent's."), ((N.OPPONENT, 1),),
           "RJ7.1"),
    Effect(_WEA, 2, Text("Return a bonus token from any card to the reserve."),
           ((N.CHIP_ON_CARD, 1),), "RJ7.2"),
    Effect(_WEA, 3, Text("Draw a card, look at it, and put it face down at the end of an "
                         "opponent's display."),
           ((N.DECK, 1), (N.OPPONENT, 1)), "RJ7.3"),
    Effect(_WEA, 4, Text("Place a bonus token on any hidden card, yours or an opponent's."),
           ((N.CHIP, 1), (N.HIDDEN_CARD, 1)), "RJ7.4"),
    Effect(_WEA, 5, Text("Turn one of your cards (this one too) to its other side without "
                         "triggering it."), (), "RJ7.5"),
    Effect(_WEA, 6, Text("Take an opponent's visible card into your display face up "
                         "without triggering it."),
           ((N.OPP_VISIBLE, 1),), "RJ7.6"),
    Effect(_WEA, 7, Text("Exchange a bonus token on one of your cards with one from the "
                         "reserve."),
           ((N.CHIP_ON_OWN_CARD, 1), (N.CHIP, 1)), "RJ7.7"),
    Effect(_WEA, 8, Text("Exchange two bonus tokens lying on two different cards."),
           ((N.CHIPS_ON_TWO_CARDS, 1),), "RJ7.8"),
    Effect(_WEA, 9, Text("Discard the top three cards of the deck."), ((N.DECK, 3),),
           "RJ7.9"),
    Effect(_WEA, 10, Text("Return a bonus token on one of your cards to the reserve."),
           ((N.CHIP_ON_OWN_CARD, 1),), "RJ7.10"),
    Effect(_WEA, 11, Text("Put one of your hidden cards on the discard pile."),
           ((N.OWN_HIDDEN, 1),), "RJ7.11"),
    Effect(_WEA, 12, Text("Pick a bonus token (in the reserve or on a card) and an "
                          "opponent, who puts it on one of their own cards."),
           ((N.CHIP_ANYWHERE, 1), (N.OPP_CARD, 1)), "RJ7.12"),
)

EFFECT_BY_KEY: dict[tuple[Kind, int], Effect] = {(e.kind, e.value): e for e in EFFECTS}


def effect_of(card: str) -> Effect:
    """The effect of ``card`` (``"B7"`` and ``"R7"`` share Rat 7's).

    Raises:
        KeyError: not a card name.
    """
    return EFFECT_BY_KEY[(kind_of(card), value_of(card))]


def effect_title(card: str) -> Text:
    """The effect's short name, e.g. ``"Rat 7"`` for ``R7`` and ``B7``."""
    kind, value = kind_of(card), value_of(card)
    if kind is Kind.RAT:
        return Text("Rat {n}", n=value)
    if kind is Kind.RACCOON:
        return Text("Raccoon {n}", n=value)
    return Text("Weasel {n}", n=value)
