"""Pillow pictures of a game: the public board (:func:`render_board`) and a player's private
hand (:func:`render_hand`). Pure functions of an :class:`engine.View`; PNG bytes out."""

from .board import (
    BOARD_IMAGE_SIZE,
    GRID_BOX,
    HEADER_BOX,
    PANEL_BOX,
    board_image,
    default_events,
    render_board,
    square_box,
    square_centre,
    static_layer,
)
from .hand import hand_image, render_hand

__all__ = [
    "BOARD_IMAGE_SIZE", "GRID_BOX", "HEADER_BOX", "PANEL_BOX", "board_image", "default_events",
    "hand_image", "render_board", "render_hand", "square_box", "square_centre", "static_layer",
]
