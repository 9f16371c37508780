"""Pillow pictures of a game: the public board (:func:`render_board`) and a player's private
hand (:func:`render_hand`). Pure functions of an :class:`engine.View`; PNG bytes out. The
animation of a finished match is :func:`render.replay.render_replay` (public views in, GIF
out); ``python -m render replay RECORD --out DIR`` draws a match record's rounds.

Usage::

    from render import render_board, render_hand
    png = render_board(engine.view(state, None))          # public: post it in the channel
    mine = render_hand(engine.view(state, Side.RAPTOR))   # private: ephemeral to that player

What the board shows (828 x 756 px; readable when Discord shrinks it to ~400 px):

- the grid of R2.2 with coordinates A-M / 1-6 on all four sides, tile borders, the
  environment's look (jungle greens, savannah ochres), rocks, and the four exits as
  half-circles with an outward chevron in columns A and M;
- raptors are purple and round: the mother a large spiked disc marked "M" with a badge
  giving her sleep tokens; a standing baby a small disc marked "b"; a sleeping baby lies flat,
  pale, with "zZ" (asleep this round looks the same);
- scientists are standing figures in white coats; a frightened one lies on its side, greyed,
  with an amber "!" badge (red crosses mean kills and captures); fire tokens are flames;
- highlights of the last round (:func:`default_events`): arrows for moves (amber: raptor, cyan:
  scientist; dashed amber: Mother's Call), a thick cyan arrow for a jeep, a dashed red line
  and a target for a shot, light-blue frames for babies put to sleep (dashed: gas), red
  crosses where a scientist was killed or a baby captured, orange frames round new fires, grey
  smoke rings where fire was put out, a ringed exit for an escape, frames for reinforcements,
  frightened / stood-up scientists, woken babies, and the mother's return (dashed: where she
  disappeared);
- a status line (round, phase, who must act and their AP; the winner and reason at the end)
  and a panel with each side's counters, hand and deck sizes, discard pile and this round's
  card (or last round's during the pick).
"""

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
from .hand import HandContent, hand_content, hand_image, render_hand

__all__ = [
    "BOARD_IMAGE_SIZE", "GRID_BOX", "HEADER_BOX", "PANEL_BOX", "HandContent", "board_image",
    "default_events", "hand_content", "hand_image", "render_board", "render_hand", "square_box",
    "square_centre", "static_layer",
]
