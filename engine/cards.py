"""Card names and effect texts (R9, R10), for the hand image and the rules summary.

An effect's first unit is mandatory where possible and the rest optional (R5.4), so "1 or 2"
and "1 to 3" mean: at least one if the position allows it."""

from __future__ import annotations

from .state import Side

RAPTOR_CARDS = {
    1: ("Mother's Call & Shuffle",
        "Move 1 active baby to a free space of the mother's tile along free, fire-free "
        "spaces. Then shuffle deck and discard pile (this card too) into a new deck."),
    2: ("Disappearance & Observation",
        "The mother leaves the board; after the scientist's AP you put her on any free "
        "space. Next round the scientist picks first and shows you the card."),
    3: ("Fear", "Frighten 1 active scientist: it lies down and cannot act until it stands "
        "up again (1 AP, from the next round on)."),
    4: ("Mother's Call ×2", "Move 1 or 2 different active babies to free spaces of the "
        "mother's tile along free, fire-free spaces. No shuffle."),
    5: ("Recovery ×2", "1 or 2 times: remove a sleep token from the mother or wake a sleeping "
        "baby anywhere."),
    6: ("Disappearance & Observation", "As card 2."),
    7: ("Recovery ×3", "1 to 3 times: remove a sleep token from the mother or wake a "
        "sleeping baby anywhere."),
    8: ("Fear ×2", "Frighten 1 or 2 active scientists: each lies down and cannot act until "
        "it stands up again (1 AP, from the next round on)."),
    9: ("No effect", "Nothing happens; a high card for action points."),
}
SCIENTIST_CARDS = {
    1: ("Sleeping Gas & Shuffle",
        "Put 1 active baby to sleep on a tile with, or next to a tile with, an active "
        "scientist. Then shuffle deck and discard pile (this card too) into a new deck."),
    2: ("Reinforcements", "Place 1 or 2 scientists from the reserve on free long-edge spaces."),
    3: ("Jeep ×2", "1 or 2 jeep moves: an active scientist drives straight as far as wanted, "
        "removing the fires it drives onto; it stops before rocks, figurines, exits and the "
        "edge."),
    4: ("Sleeping Gas ×2", "Put 1 or 2 active babies to sleep, each on a tile with, or next "
        "to a tile with, an active scientist."),
    5: ("Fire ×2", "Place 2 fire tokens, each next to an active scientist or a fire."),
    6: ("Reinforcements", "As card 2."),
    7: ("Fire ×3", "Place 3 fire tokens, each next to an active scientist or a fire."),
    8: ("Jeep ×4", "1 to 4 jeep moves: an active scientist drives straight as far as wanted, "
        "removing the fires it drives onto; it stops before rocks, figurines, exits and the "
        "edge."),
    9: ("No effect", "Nothing happens; a high card for action points."),
}


def card_name(side: Side, card: int) -> str:
    """The card's title, e.g. ``card_name(Side.RAPTOR, 4) == "Mother's Call ×2"``."""
    return (RAPTOR_CARDS if Side(side) is Side.RAPTOR else SCIENTIST_CARDS)[card][0]


def card_text(side: Side, card: int) -> str:
    """What the card's effect does when it is the lower card (R9, R10)."""
    return (RAPTOR_CARDS if Side(side) is Side.RAPTOR else SCIENTIST_CARDS)[card][1]
