"""Pillow pictures of a Ratjack game, pure functions of an :class:`engine.ratjack.View` plus
keyword options, PNG bytes out:

- :func:`render_table` — the public table (every display, backs for hidden cards, chips,
  deck, discard pile, reserve, VP, whose turn); the same bytes from every seat's view;
- :func:`render_private` — one player's hand, hidden cards and the cards they know, with the
  effects' texts (private to that player);
- :func:`render_card` — one card's face and effect text;
- :func:`render_animation` — a match as a GIF, a frame per turn (:mod:`.replay`).

The four decks differ by letter and shape as well as by colour (:mod:`.theme`). Texts are
English or, through ``tr``, any language of the catalog (as :mod:`render.board`).
"""

from .private import PrivateContent, private_content, private_image, render_card, render_private
from .replay import animation_frames, render_animation
from .table import (
    TableContent,
    card_box,
    render_table,
    row_top,
    static_layer,
    table_content,
    table_image,
    table_size,
)

__all__ = [
    "PrivateContent", "TableContent", "animation_frames", "card_box", "private_content",
    "private_image", "render_animation", "render_card", "render_private", "render_table",
    "row_top", "static_layer",
    "table_content", "table_image", "table_size",
]
