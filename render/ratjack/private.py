"""A player's private view (RJ11.2: only that player may see it): their hand, their own hidden
cards, and every other card they know (a hidden card they looked at or gave away, a card
Weasel 1 passed, Weasel 3's drawn card), each with its effect's text; and the round's cards
they have not seen, for counting.

:func:`private_content` takes from a view exactly what the picture shows; it holds private
information, so the picture and the content are for ``view.viewer`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.messages import Text
from engine.ratjack import Phase, View, round_cards, seat_name

from ..board import Tr, encode_png
from ..text import draw_text, wrap
from . import theme as T
from .cards import effect_row
from .table import drawable

COLUMN_GAP = 16
COLUMN_W = (T.WIDTH - 2 * T.PAD - COLUMN_GAP) // 2
ROW_GAP = 12
SECTION_H = 40


class PrivateContent(NamedTuple):
    """Everything :func:`private_image` draws; private to ``viewer``."""

    viewer: int
    name: str
    round: int
    deciding: bool
    prompt: Text | None
    hand: tuple[str, ...]
    hidden: tuple[tuple[int, str], ...]           # (place, card) of the viewer's hidden cards
    known: tuple[tuple[str | Text, str], ...]     # (where, card) of others' cards it knows
    drawn: str | None
    unseen: tuple[str, ...]


def private_content(v: View, *, names: Sequence[str] | None = None) -> PrivateContent:
    """What the private image of ``v`` shows.

    Raises:
        ValueError: a spectator's view.
    """
    if v.viewer is None:
        raise ValueError("the private view needs a player's view (view(state, seat)), not "
                         "the spectator's")
    me = v.viewer

    def name(q: int) -> str:
        given = names[q] if names is not None and q < len(names) else ""
        return given if given and drawable(given) else seat_name(q)

    hidden = tuple((i + 1, x.card) for i, x in enumerate(v.displays[me]) if not x.up)
    known: list[tuple[str, str]] = []
    for q in range(v.seats):
        if q == me:
            continue
        for i, x in enumerate(v.displays[q]):
            if not x.up and x.card is not None:
                known.append((f"{name(q)} @{i + 1}", x.card))
        for h in v.hands[q]:
            if h.card is not None:
                known.append((tr_hand(name(q)), h.card))
    return PrivateContent(
        me, name(me), v.round, me in v.to_act and v.phase is not Phase.OVER,
        v.pending.prompt if v.pending is not None and v.pending.chooser == me else None,
        tuple(h.card for h in v.hands[me]), hidden, tuple(known), v.drawn,
        tuple(c for c in round_cards(v.decks) if c not in set(v.known())))


def tr_hand(player: str) -> Text:
    """Where a known hand card is: ``"p2's hand"``."""
    return Text("{player}'s hand", player=player)


def _rows(items: Sequence[tuple[str, str | None]], tr: Tr) -> list[Image.Image]:
    return [effect_row(card, COLUMN_W, tr=tr, tag=tag) for card, tag in items]


def private_image(v: View | PrivateContent, *, names: Sequence[str] | None = None,
                  tr: Tr = str) -> Image.Image:
    """The picture of :func:`render_private` as a Pillow RGB image."""
    c = v if isinstance(v, PrivateContent) else private_content(v, names=names)
    sections: list[tuple[str, list[Image.Image]]] = [
        (tr(Text("Your hand")), _rows([(card, None) for card in c.hand], tr))]
    if c.drawn is not None:
        sections.append((tr(Text("Drawn by Weasel 3: choose the opponent who gets it")),
                         _rows([(c.drawn, tr(Text("drawn")))], tr)))
    sections.append((tr(Text("Your hidden cards (they count 0 while face down)")),
                     _rows([(card, f"@{place}") for place, card in c.hidden], tr)))
    if c.known:
        sections.append((tr(Text("Other players' cards you know")),
                         _rows([(card, tr(where) if isinstance(where, Text) else where)
                                for where, card in c.known], tr)))
    unseen = tr(Text("Cards you have not seen ({n}): {cards}", n=len(c.unseen),
                     cards=" ".join(c.unseen) or "-"))
    unseen_lines = wrap(unseen, T.SMALL_SIZE, T.WIDTH - 2 * T.PAD)
    height = T.HEADER_H + 8
    for _, rows in sections:
        height += SECTION_H
        pairs = [rows[k:k + 2] for k in range(0, len(rows), 2)]
        height += sum(max(r.height for r in pair) + ROW_GAP for pair in pairs) or 36
    height += 16 + 24 * len(unseen_lines) + 12
    im = Image.new("RGB", (T.WIDTH, height), T.FRAME)
    d = ImageDraw.Draw(im)
    d.line((0, T.HEADER_H - 1, T.WIDTH, T.HEADER_H - 1), fill=T.FRAME_LINE, width=2)
    title = tr(Text("{player}'s cards", player=c.name))
    w = draw_text(im, (T.PAD, T.HEADER_H / 2), title, T.TITLE_SIZE, T.TEXT, bold=True,
                  anchor="lm")
    draw_text(im, (T.PAD + w + 14, T.HEADER_H / 2), tr(Text("private")), T.LABEL_SIZE,
              T.TEXT_DIM, anchor="lm")
    status = (tr(c.prompt) if c.prompt is not None else
              tr(Text("Your decision")) if c.deciding else tr(Text("Round {n}", n=c.round)))
    draw_text(im, (T.WIDTH - T.PAD, T.HEADER_H / 2), status, T.LABEL_SIZE,
              T.TURN_MARK if c.deciding else T.TEXT, bold=True, anchor="rm")
    y = T.HEADER_H + 8
    for label, rows in sections:
        draw_text(im, (T.PAD, y + SECTION_H / 2), label, T.LABEL_SIZE, T.TEXT_DIM,
                  anchor="lm")
        y += SECTION_H
        if not rows:
            draw_text(im, (T.PAD, y + 14), tr(Text("(none)")), T.LABEL_SIZE, T.TEXT_DIM,
                      anchor="lm")
            y += 36
        for k in range(0, len(rows), 2):
            pair = rows[k:k + 2]
            for j, row in enumerate(pair):
                im.paste(row, (T.PAD + j * (COLUMN_W + COLUMN_GAP), y), row)
            y += max(r.height for r in pair) + ROW_GAP
    y += 16
    for line in unseen_lines:
        draw_text(im, (T.PAD, y), line, T.SMALL_SIZE, T.TEXT_DIM)
        y += 24
    return im


def render_private(v: View | PrivateContent, *, names: Sequence[str] | None = None,
                   tr: Tr = str) -> bytes:
    """A player's private view as PNG bytes (960 px wide; the height grows with the cards):
    their hand, their hidden cards (with their places), the other cards they know and where
    they lie, each card with its face and effect text, and the round's cards they have not
    seen. Private to ``v.viewer`` (RJ11.2): send it to that player only (ephemeral or DM).

    Raises:
        ValueError: a spectator's view.
    """
    return encode_png(private_image(v, names=names, tr=tr))


def render_card(card: str, *, tr: Tr = str, width: int = T.WIDTH // 2) -> bytes:
    """One card's face with its effect's text, as PNG bytes (for help and for a zoom)."""
    row = effect_row(card, width, tr=tr)
    im = Image.new("RGB", (width + 2 * T.PAD, row.height + 2 * T.PAD), T.FRAME)
    im.paste(row, (T.PAD, T.PAD), row)
    return encode_png(im)
