"""Pillow pictures of a Raptor Race: the public track with the dice of the turn
(:func:`render_track`), the dice alone (:func:`render_dice`) and a seat's own Top-3 card
(:func:`render_card`). Pure functions of an :class:`engine.race.RaceView` and keyword
options (``tr``: how texts are written; ``names``: the players by seat); PNG bytes out.

Usage::

    from render.race import render_card, render_track
    png = render_track(engine.race.view(state, None), names=("Ann", "Bo", "AI (hard)"))
    mine = render_card(engine.race.view(state, seat))  # private: to that seat only
"""

from .card import CARD_IMAGE_SIZE, card_image, render_card
from .track import (
    DICE_IMAGE_SIZE,
    dice_image,
    image_size,
    render_dice,
    render_track,
    space_box,
    space_centre,
    static_layer,
    status_line,
    track_image,
)

__all__ = [
    "CARD_IMAGE_SIZE", "DICE_IMAGE_SIZE", "card_image", "dice_image", "image_size",
    "render_card", "render_dice", "render_track", "space_box", "space_centre",
    "static_layer", "status_line", "track_image",
]
