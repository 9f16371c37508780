"""The card table (R9, R10): for each side and value its name, its text, its effect's units and
its flags. Every other part of the engine, the bot and the renderer reads it.

An effect's first unit is mandatory where possible and the rest optional (R5.4), so "1 or 2"
and "1 to 3" mean: at least one if the position allows it. ``least`` is the number of units
that are a must when the position allows them, ``most`` the number the card allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .messages import Text
from .state import Side

#: The values of each side's nine cards (R1.1, R1.2).
CARD_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9)


class Unit(StrEnum):
    """What one unit of a card's effect does (R9, R10)."""

    CALL = "call"              # R9.1, R9.4: Mother's Call, one baby per unit
    DISAPPEAR = "disappear"    # R9.2: the mother leaves the board (no unit to choose)
    FEAR = "fear"              # R9.3, R9.6: frighten one active scientist
    RECOVER = "recover"        # R9.5: remove a sleep token or wake a sleeping baby
    GAS = "gas"                # R10.1, R10.4: put one active baby to sleep
    REINFORCE = "reinforce"    # R10.2: one scientist from the reserve onto a long edge
    JEEP = "jeep"              # R10.3: one jeep move
    FIRE = "fire"              # R10.5: one fire token
    NONE = "none"              # R9.7, R10.6: no effect


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the table.

    Attributes:
        side: whose card it is; value: 1-9.
        name: its title (``"Mother's Call ×2"``); text: its effect as printed, which for a
            repeated card is ``"As card 2."`` (see :attr:`same_as` and :func:`effect_text`).
        unit: what each unit of its effect does; most: how many units it allows; least:
            how many are a must where the position allows them (R5.4).
        shuffles: resolving it shuffles deck, discard pile and this card into a new deck
            (R9.1, R10.1). disappears: the mother leaves the board (R9.2, then R5.2).
        same_as: the value of the card whose effect it repeats (6 repeats 2), or None.
        rule: the rule of ``docs/RULES.md`` that defines it.
    """

    side: Side
    value: int
    name: str
    text: str
    unit: Unit
    most: int
    least: int
    shuffles: bool = False
    disappears: bool = False
    same_as: int | None = None
    rule: str = ""


_R, _S = Side.RAPTOR, Side.SCIENTIST

#: Every card, raptor 1-9 then scientist 1-9 (names and texts are catalog message ids).
CARD_TABLE: tuple[Card, ...] = (
    Card(_R, 1, Text("Mother's Call & Shuffle"),
         Text("Move 1 active baby to a free space of the mother's tile along free, "
              "fire-free spaces. Then shuffle deck and discard pile (this card too) "
              "into a new deck."),
         Unit.CALL, 1, 1, shuffles=True, rule="R9.1"),
    Card(_R, 2, Text("Disappearance & Observation"),
         Text("The mother leaves the board; after the scientist's AP you put her on "
              "any free space. Next round the scientist picks first and shows you the "
              "card."),
         Unit.DISAPPEAR, 0, 0, disappears=True, rule="R9.2"),
    Card(_R, 3, Text("Fear"),
         Text("Frighten 1 active scientist: it lies down and cannot act until it "
              "stands up again (1 AP, from the next round on)."),
         Unit.FEAR, 1, 1, rule="R9.3"),
    Card(_R, 4, Text("Mother's Call ×2"),
         Text("Move 1 or 2 different active babies to free spaces of the mother's "
              "tile along free, fire-free spaces. No shuffle."),
         Unit.CALL, 2, 1, rule="R9.4"),
    Card(_R, 5, Text("Recovery ×2"),
         Text("1 or 2 times: remove a sleep token from the mother or wake a sleeping "
              "baby anywhere."),
         Unit.RECOVER, 2, 1, rule="R9.5"),
    Card(_R, 6, Text("Disappearance & Observation"),
         Text("As card 2."),
         Unit.DISAPPEAR, 0, 0, disappears=True, same_as=2, rule="R9.2"),
    Card(_R, 7, Text("Recovery ×3"),
         Text("1 to 3 times: remove a sleep token from the mother or wake a sleeping "
              "baby anywhere."),
         Unit.RECOVER, 3, 1, rule="R9.5"),
    Card(_R, 8, Text("Fear ×2"),
         Text("Frighten 1 or 2 active scientists: each lies down and cannot act until "
              "it stands up again (1 AP, from the next round on)."),
         Unit.FEAR, 2, 1, rule="R9.6"),
    Card(_R, 9, Text("No effect"),
         Text("Nothing happens; a high card for action points."),
         Unit.NONE, 0, 0, rule="R9.7"),
    Card(_S, 1, Text("Sleeping Gas & Shuffle"),
         Text("Put 1 active baby to sleep on a tile with, or next to a tile with, an "
              "active scientist. Then shuffle deck and discard pile (this card too) "
              "into a new deck."),
         Unit.GAS, 1, 1, shuffles=True, rule="R10.1"),
    Card(_S, 2, Text("Reinforcements"),
         Text("Place 1 or 2 scientists from the reserve on free long-edge spaces."),
         Unit.REINFORCE, 2, 1, rule="R10.2"),
    Card(_S, 3, Text("Jeep ×2"),
         Text("1 or 2 jeep moves: an active scientist drives straight as far as "
              "wanted, removing the fires it drives onto; it stops before rocks, "
              "figurines, exits and the edge."),
         Unit.JEEP, 2, 1, rule="R10.3"),
    Card(_S, 4, Text("Sleeping Gas ×2"),
         Text("Put 1 or 2 active babies to sleep, each on a tile with, or next to a "
              "tile with, an active scientist."),
         Unit.GAS, 2, 1, rule="R10.4"),
    Card(_S, 5, Text("Fire ×2"),
         Text("Place 2 fire tokens, each next to an active scientist or a fire."),
         Unit.FIRE, 2, 2, rule="R10.5"),
    Card(_S, 6, Text("Reinforcements"),
         Text("As card 2."),
         Unit.REINFORCE, 2, 1, same_as=2, rule="R10.2"),
    Card(_S, 7, Text("Fire ×3"),
         Text("Place 3 fire tokens, each next to an active scientist or a fire."),
         Unit.FIRE, 3, 3, rule="R10.5"),
    Card(_S, 8, Text("Jeep ×4"),
         Text("1 to 4 jeep moves: an active scientist drives straight as far as "
              "wanted, removing the fires it drives onto; it stops before rocks, "
              "figurines, exits and the edge."),
         Unit.JEEP, 4, 1, rule="R10.3"),
    Card(_S, 9, Text("No effect"),
         Text("Nothing happens; a high card for action points."),
         Unit.NONE, 0, 0, rule="R10.6"),
)

#: The table by ``(side, value)`` (a Side hashes and compares as its value).
CARD_BY_KEY: dict[tuple[Side, int], Card] = {(c.side, c.value): c for c in CARD_TABLE}

#: (side, value) -> (unit, most units, units mandatory when possible): the table's effect
#: columns as the tuples engine code read before the table existed (R9, R10, R5.4).
EFFECTS: dict[tuple[Side, int], tuple[Unit, int, int]] = {
    (c.side, c.value): (c.unit, c.most, c.least) for c in CARD_TABLE}


def card(side: Side, value: int) -> Card:
    """The card ``value`` (1-9) of ``side`` (a :class:`Side` or its value).

    Raises:
        KeyError: no such card.
    """
    return CARD_BY_KEY[(side, value)]


def card_name(side: Side, value: int) -> str:
    """The card's title, e.g. ``card_name(Side.RAPTOR, 4) == "Mother's Call ×2"``."""
    return card(side, value).name


def card_text(side: Side, value: int) -> str:
    """The card's effect text as printed (R9, R10); a repeated card reads ``"As card 2."``."""
    return card(side, value).text


def effect_text(side: Side, value: int) -> str:
    """What the card's effect does, a repeated card's spelled out (6 is card 2's text)."""
    c = card(side, value)
    return card(side, c.same_as).text if c.same_as is not None else c.text
