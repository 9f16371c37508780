"""The components of Raptor Race, once each (RR1): the five raptors, the dice faces and the
twenty Top-3 cards. Every other module reads these tables.

- :class:`Raptor`: the five raptors in *colour order* (RR1.2), each a one-letter value.
- :class:`Face`: the faces of a footprint die (RR1.3): one per raptor colour and the T-Rex.
- :data:`FOOTPRINT_FACES`, :data:`ARROW_FACES`: the six faces of each die (RR1.3, RR1.4).
- :data:`CARDS`: card number -> its three raptors in slots 1, 2, 3 (RR1.5).
- :data:`SLOT_POINTS`, :data:`TOP3_BONUS`: what a card scores (RR7.1).
"""

from __future__ import annotations

from enum import StrEnum

from ..messages import N_


class Raptor(StrEnum):
    """A raptor, by the letter of its colour (RR1.2); members are in colour order."""

    BLUE = "B"
    GREEN = "G"
    ORANGE = "O"
    PURPLE = "P"
    YELLOW = "Y"

    @property
    def index(self) -> int:
        """0-4 in colour order."""
        return _RAPTOR_INDEX[self]

    @property
    def colour(self) -> str:
        """The colour's English name, a message id (``"blue"``)."""
        return RAPTOR_COLOURS[self]

    def __repr__(self) -> str:
        return f"Raptor.{self.name}"


#: The raptors in colour order (RR1.2).
RAPTORS: tuple[Raptor, ...] = tuple(Raptor)
_RAPTOR_INDEX = {r: i for i, r in enumerate(RAPTORS)}
#: Each raptor's colour, a message id for the catalog (RR1.2).
RAPTOR_COLOURS: dict[Raptor, str] = {
    Raptor.BLUE: N_("blue"), Raptor.GREEN: N_("green"), Raptor.ORANGE: N_("orange"),
    Raptor.PURPLE: N_("purple"), Raptor.YELLOW: N_("yellow"),
}
#: Each raptor's name as a label (``"Blue"``), a message id (RR1.2).
RAPTOR_NAMES: dict[Raptor, str] = {
    Raptor.BLUE: N_("Blue"), Raptor.GREEN: N_("Green"), Raptor.ORANGE: N_("Orange"),
    Raptor.PURPLE: N_("Purple"), Raptor.YELLOW: N_("Yellow"),
}


class Face(StrEnum):
    """A face of a footprint die (RR1.3): a raptor's colour, or the red T-Rex footprint."""

    B = "B"
    G = "G"
    O = "O"  # noqa: E741 - the letter of orange
    P = "P"
    Y = "Y"
    T = "T"

    @property
    def raptor(self) -> Raptor | None:
        """The raptor a colour face moves forward (RR5.3); None for the T-Rex."""
        return None if self is Face.T else Raptor(self.value)

    @property
    def order(self) -> int:
        """Its place in the canonical order: the colours in colour order, then the T-Rex."""
        return _FACE_ORDER[self]

    def __repr__(self) -> str:
        return f"Face.{self.name}"


#: The six faces of each of the four footprint dice, one each (RR1.3).
FOOTPRINT_FACES: tuple[Face, ...] = (Face.B, Face.G, Face.O, Face.P, Face.Y, Face.T)
_FACE_ORDER = {f: i for i, f in enumerate(FOOTPRINT_FACES)}
#: The footprint dice of a game (RR1.3, RR3.2).
FOOTPRINT_DICE = 4
#: The six faces of the arrows die, as numbers of arrows (RR1.4).
ARROW_FACES: tuple[int, ...] = (0, 0, 1, 1, 2, 2)


def face_of(raptor: Raptor) -> Face:
    """The colour face of ``raptor``'s die (RR5.3)."""
    return Face(raptor.value)


def sorted_faces(faces) -> tuple[Face, ...]:
    """``faces`` in the canonical order (colours in colour order, then ``T``): how a
    selection of dice is written (``keep OOT``)."""
    return tuple(sorted(faces, key=_FACE_ORDER.__getitem__))


def _card_table() -> dict[int, tuple[Raptor, Raptor, Raptor]]:
    """RR1.5: card ``5(m-1)+c+1`` is the raptors (c, c+m, c+2m) mod 5 in colour order, for
    step m = 1..4 and first colour c = 0..4."""
    return {5 * (m - 1) + c + 1: (RAPTORS[c], RAPTORS[(c + m) % 5], RAPTORS[(c + 2 * m) % 5])
            for m in range(1, 5) for c in range(5)}


#: The twenty Top-3 cards: number -> (slot 1, slot 2, slot 3) (RR1.5).
CARDS: dict[int, tuple[Raptor, Raptor, Raptor]] = _card_table()
#: The card numbers, ascending.
CARD_NUMBERS: tuple[int, ...] = tuple(sorted(CARDS))
#: Points of slot 1, 2, 3 and the place its raptor must reach at least (RR7.1).
SLOT_POINTS: tuple[tuple[int, int], ...] = ((10, 1), (8, 2), (5, 3))
#: Points when the card's three raptors are the top three in any order (RR7.1).
TOP3_BONUS = 3


def card_letters(number: int) -> str:
    """The card's raptors as letters, slot 1 first (``"BGO"`` for card 1).

    Raises:
        KeyError: not a card number (1-20).
    """
    return "".join(r.value for r in CARDS[number])
