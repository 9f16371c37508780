"""The public table of a Ratjack game (RJ11.1): every player's display, face-down cards as
backs with their chips, hand sizes, totals and VP, the deck count, the discard pile's top, the
reserve, whose turn it is and any pending choice.

:func:`table_content` takes from a view exactly what the table shows, and only public
fields: a hidden or hand card is named only when everyone knows it (RJ11.2: it went face
down in view of all, it came from the discard pile) or the game is over (RJ9.7). So every
seat's view of a position, and the spectator's, give the same picture, byte for byte, and
no redeal of hidden cards changes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.messages import Text
from engine.ratjack import DECK_PAIRS, EVERYONE, Chip, Phase, RoundEnd, View, seat_name
from engine.ratjack.cards import DECK_BY_LETTER, LIMIT, WINNING_VP, effect_title, format_face

from ..board import Tr, encode_png
from ..text import draw_text, is_cjk, text_mask, text_width
from . import theme as T
from .cards import card_back, card_face, chip, chip_row, name_tag, shape_icon


class SlotContent(NamedTuple):
    """A display card as the table shows it: ``card`` None for a hidden card nobody may name
    publicly; ``seen`` who has seen a hidden card (public; -1 everyone)."""

    card: str | None
    up: bool
    chips: tuple[int, ...]
    seen: tuple[int, ...]


class PlayerContent(NamedTuple):
    name: str
    vp: int
    total: int
    hand: tuple[str | None, ...]
    out: bool
    forfeited: bool
    display: tuple[SlotContent, ...]


class TableContent(NamedTuple):
    """Everything :func:`table_image` draws (public by construction; a cache key for the
    public image)."""

    seats: int
    decks: str
    round: int
    phase: Phase
    current: int
    to_act: tuple[int, ...]
    deck_size: int
    discard: tuple[str, ...]
    reserve: tuple[int, ...]
    players: tuple[PlayerContent, ...]
    pending: tuple[str, int, int, str, int | None] | None  # card, resolver, chooser, prompt
                                                           # id, a chip picked (all public)
    prompt: Text | None
    extra_turns: int
    winners: tuple[int, ...]
    last_round: tuple[int, RoundEnd, tuple[int, ...]] | None
    round_begun: bool


@lru_cache(maxsize=4096)
def _drawable_char(ch: str) -> bool:
    """Whether the images' fonts have a glyph for ``ch`` (its mask differs from the mask of
    a character no font has, the same font drawing both)."""
    if ch.isspace():
        return True
    probe = "\ufffe" if is_cjk(ch) else "\u0378"
    return text_mask(ch, T.NAME_SIZE).tobytes() != text_mask(probe, T.NAME_SIZE).tobytes()


def drawable(name: str) -> bool:
    """Whether every character of a player's ``name`` can be drawn (the CJK font is a subset
    of the catalog's characters: a name may hold others)."""
    return all(_drawable_char(ch) for ch in name)


def _public(seen: frozenset[int], over: bool) -> bool:
    return over or EVERYONE in seen


def table_content(v: View, *, names: Sequence[str] | None = None) -> TableContent:
    """What the table image of ``v`` shows (public only, see the module docstring);
    ``names``: the players' names by seat (default, and for a name the images' fonts cannot
    write, ``p1`` .. ``p4``)."""
    over = v.phase is Phase.OVER
    players = []
    for q in range(v.seats):
        name = names[q] if names is not None and q < len(names) and names[q] else ""
        if not name or not drawable(name):  # a name the fonts cannot write: the seat's
            name = seat_name(q)
        display = tuple(
            SlotContent(x.card if x.up or _public(x.seen, over) else None, x.up, x.chips,
                        tuple(sorted(x.seen)) if not x.up else ())
            for x in v.displays[q])
        hand = tuple(h.card if _public(h.seen, over) else None for h in v.hands[q])
        players.append(PlayerContent(name, v.vp[q], v.totals[q], hand, v.out[q],
                                     v.forfeited[q], display))
    pending = None
    prompt = None
    if v.pending is not None:
        p = v.pending
        chips = [a.face for a in p.picks if isinstance(a, Chip)]
        pending = (p.card, p.seat, p.chooser, p.prompt.msgid, chips[0] if chips else None)
        prompt = p.prompt
    last = None
    if v.last_round is not None:
        last = (v.last_round.round, v.last_round.end, v.last_round.gains)
    return TableContent(
        v.seats, v.decks, v.round, v.phase, v.current, tuple(sorted(v.to_act)), v.deck_size,
        v.discard, v.reserve, tuple(players), pending, prompt, v.extra_turns, v.winners, last,
        [e.kind for e in v.events] == ["round"])


def table_size(seats: int) -> tuple[int, int]:
    """The table image's (width, height) for ``seats`` players."""
    return T.WIDTH, T.HEADER_H + T.CENTRE_H + seats * T.ROW_H + T.FOOTER_H


def row_top(seat: int) -> int:
    """The y of the top of ``seat``'s row."""
    return T.HEADER_H + T.CENTRE_H + seat * T.ROW_H


def card_width(n: int) -> int:
    """The width of each card of a display of ``n`` cards (they shrink to fit the row)."""
    room = T.WIDTH - T.LEFT_W - 2 * T.PAD
    if n <= 0:
        return T.CARD_W
    return max(T.MIN_CARD_W, min(T.CARD_W, int((room + T.CARD_GAP) / n - T.CARD_GAP)))


def card_box(seat: int, place: int, n: int) -> tuple[int, int, int, int]:
    """The pixel box of the card at ``place`` (1-based) of ``seat``'s display of ``n``
    cards."""
    w = card_width(n)
    h = int(round(w * T.CARD_H / T.CARD_W))
    x = T.LEFT_W + T.PAD + (place - 1) * (w + T.CARD_GAP)
    y = row_top(seat) + 30
    return x, y, x + w, y + h


@lru_cache(maxsize=8)
def static_layer(seats: int) -> Image.Image:
    """The frame of a table of ``seats`` players: background, the lines between the header,
    the centre and the rows. Shared: copy it before drawing."""
    im = Image.new("RGB", table_size(seats), T.FRAME)
    d = ImageDraw.Draw(im)
    w = T.WIDTH
    d.line((0, T.HEADER_H - 1, w, T.HEADER_H - 1), fill=T.FRAME_LINE, width=2)
    for q in range(seats + 1):
        y = row_top(q)
        d.line((0, y - 1, w, y - 1), fill=T.FRAME_LINE, width=2)
    d.line((T.LEFT_W, T.HEADER_H + 12, T.LEFT_W, T.HEADER_H + T.CENTRE_H - 12),
           fill=T.FRAME_LINE, width=2)
    return im


def _who(c: TableContent, seat: int) -> str:
    return c.players[seat].name


def _status(c: TableContent, tr: Tr) -> tuple[str, str]:
    """(what is happening, who is to act) for the header."""
    if c.phase is Phase.OVER:
        winners = Text.joined(", ", [_who(c, q) for q in c.winners])
        return tr(Text.plural("Game over: {winners} wins", "Game over: {winners} win",
                              len(c.winners), winners=winners)), ""
    head = Text("Round {n}", n=c.round)
    player = _who(c, c.current)
    if c.phase is Phase.DRAW:
        doing = Text("{player} draws a card", player=player)
    elif c.phase is Phase.ACTION:
        doing = Text("{player} plays a card: up, down or discard", player=player)
    elif c.phase is Phase.FLIP:
        doing = Text("{player} may flip a hidden card", player=player)
    else:
        card, seat, chooser, _, picked = c.pending
        effect = effect_title(card)
        if chooser != seat:  # Weasel 12: the opponent places the chip picked (RJ7.12)
            doing = Text("{player} resolves {effect}: {chooser} puts {chip} on one of their "
                         "cards", player=player, effect=effect, chooser=_who(c, chooser),
                         chip=format_face(picked))
        else:
            doing = Text("{player} resolves {effect}: {prompt}", player=player, effect=effect,
                         prompt=c.prompt)
    who = Text.joined(", ", [_who(c, q) for q in c.to_act])
    return tr(Text("{head} · {doing}", head=head, doing=doing)), tr(who)


def _fit(text: str, sizes: Sequence[int], width: int, bold: bool = True) -> int:
    for s in sizes:
        if text_width(text, s, bold) <= width:
            return s
    return sizes[-1]


def _header(im: Image.Image, d: ImageDraw.ImageDraw, c: TableContent, tr: Tr,
            verdict: str | None = None) -> None:
    left, who = _status(c, tr)
    y = T.HEADER_H / 2
    if verdict:  # a match ended outside the game: the verdict in the game-over banner
        left = verdict
    if c.phase is Phase.OVER or verdict:
        d.rectangle((0, 0, T.WIDTH, T.HEADER_H - 2), fill=T.OVER_BG)
        size = _fit(left, (30, 28, 26, 24, 22), T.WIDTH - 2 * T.PAD)
        draw_text(im, (T.WIDTH / 2, y), left, size, T.OVER_TEXT, bold=True, anchor="mm")
        return
    right = tr(Text("To act: {who}", who=who))
    rw = text_width(right, T.LABEL_SIZE, True)
    size = _fit(left, (T.TITLE_SIZE, 26, 24, 22, 20, 18, 16), T.WIDTH - 3 * T.PAD - rw - 24)
    draw_text(im, (T.PAD, y), left, size, T.TEXT, bold=True, anchor="lm")
    x1 = T.WIDTH - T.PAD
    d.rounded_rectangle((x1 - rw - 20, y - 19, x1, y + 19), radius=10, fill=T.BANNER)
    draw_text(im, (x1 - 10, y), right, T.LABEL_SIZE, T.TEXT_DARK, bold=True, anchor="rm")


def _centre(im: Image.Image, d: ImageDraw.ImageDraw, c: TableContent, tr: Tr) -> None:
    """The deck (a back and its count), the discard pile (its top card, its size and the
    cards under it) and the reserve's chips."""
    top = T.HEADER_H + 12
    # the deck, in the label column
    back = card_back(T.CARD_W, T.CARD_H)
    im.paste(back, (T.PAD, top + 8), back)
    draw_text(im, (T.PAD + T.CARD_W + 12, top + 24), tr(Text("Deck")), T.LABEL_SIZE,
              T.TEXT_DIM)
    draw_text(im, (T.PAD + T.CARD_W + 12, top + 48), str(c.deck_size), T.TITLE_SIZE + 6,
              T.TEXT, bold=True)
    # the discard pile
    x = T.LEFT_W + T.PAD
    draw_text(im, (x, top + 2), tr(Text.plural("Discard pile ({n} card)",
                                               "Discard pile ({n} cards)", len(c.discard))),
              T.SMALL_SIZE, T.TEXT_DIM)
    if c.discard:
        face = card_face(c.discard[-1], T.CARD_W, T.CARD_H)
        im.paste(face, (x, top + 24), face)
        under = list(reversed(c.discard[:-1]))[:8]
        ux = x + T.CARD_W + 10
        for k, card in enumerate(under):
            small = card_face(card, 34, 47)
            im.paste(small, (ux + k * 38, top + 24), small)
        if under:
            draw_text(im, (ux, top + 78), tr(Text("under it, from the top")), T.SMALL_SIZE,
                      T.TEXT_DIM)
    else:
        d.rounded_rectangle((x, top + 24, x + T.CARD_W, top + 24 + T.CARD_H), radius=8,
                            outline=T.FRAME_LINE, width=2)
    # the reserve
    rx = T.WIDTH - T.PAD - 6 * (T.CHIP_D + 4)
    draw_text(im, (rx, top + 2), tr(Text("Token reserve")), T.SMALL_SIZE, T.TEXT_DIM)
    for k, face in enumerate(c.reserve):
        piece = chip(face)
        im.paste(piece, (rx + k * (T.CHIP_D + 4), top + 28), piece)
    if not c.reserve:
        draw_text(im, (rx, top + 40), tr(Text("(empty)")), T.SMALL_SIZE, T.TEXT_DIM)
    if c.extra_turns:
        draw_text(im, (rx, top + 78), tr(Text.plural(
            "{player}: {n} extra turn", "{player}: {n} extra turns", c.extra_turns,
            player=_who(c, c.current))), T.SMALL_SIZE, T.TURN_MARK, bold=True)


def _vp_pips(d: ImageDraw.ImageDraw, x: float, y: float, vp: int) -> None:
    for k in range(max(WINNING_VP, vp)):
        colour = T.VP_ON if k < vp else T.VP_OFF
        d.polygon(_star(x + 11 + k * 26, y, 11), fill=colour)


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    import math
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def _row(im: Image.Image, d: ImageDraw.ImageDraw, c: TableContent, q: int, tr: Tr) -> None:
    p = c.players[q]
    y0 = row_top(q)
    acting = q in c.to_act and c.phase is not Phase.OVER
    on_turn = q == c.current and c.phase is not Phase.OVER
    bg = T.OUT_BG if p.out else (T.TURN_BG if on_turn else T.ROW_BG)
    d.rectangle((0, y0 + 1, T.WIDTH, y0 + T.ROW_H - 2), fill=bg)
    if acting:
        d.rectangle((0, y0 + 1, 7, y0 + T.ROW_H - 2), fill=T.TURN_MARK)
    # the label column
    x = T.PAD
    name_size = _fit(p.name, (T.NAME_SIZE, 24, 22, 20, 18), T.LEFT_W - 2 * T.PAD)
    draw_text(im, (x, y0 + 12), p.name, name_size, T.TEXT, bold=True)
    _vp_pips(d, x, y0 + 56, p.vp)
    draw_text(im, (x + max(WINNING_VP, p.vp) * 26 + 6, y0 + 56), tr(Text("{n} VP", n=p.vp)),
              T.SMALL_SIZE, T.TEXT_DIM, anchor="lm")
    if p.forfeited or p.out:
        status = Text("left the match") if p.forfeited else Text("out this round")
        draw_text(im, (x, y0 + 86), tr(status), T.LABEL_SIZE, T.LIMIT_WARN, bold=True)
        return
    colour = T.EXACT if p.total == LIMIT else (T.LIMIT_WARN if p.total > LIMIT else T.TEXT)
    draw_text(im, (x, y0 + 86), tr(Text("Total {n}", n=p.total)), T.LABEL_SIZE + 2, colour,
              bold=True)
    hx = x + draw_text(im, (x, y0 + 142), tr(Text("Hand")), T.SMALL_SIZE, T.TEXT_DIM,
                       anchor="lm") + 8
    for k, card in enumerate(p.hand):
        piece = card_face(card, 30, 42) if card is not None else card_back(30, 42)
        im.paste(piece, (hx + k * 34, y0 + 121), piece)
    # the display
    n = len(p.display)
    if not n:
        draw_text(im, (T.LEFT_W + T.PAD, y0 + 70), tr(Text("(no cards)")), T.LABEL_SIZE,
                  T.TEXT_DIM, anchor="lm")
    for place, x_ in enumerate(p.display, start=1):
        x0, cy0, x1, cy1 = card_box(q, place, n)
        w, h = x1 - x0, cy1 - cy0
        draw_text(im, ((x0 + x1) / 2, y0 + 16), f"@{place}", T.SMALL_SIZE, T.TEXT_DIM,
                  anchor="mm")
        if x_.up:
            piece = card_face(x_.card, w, h)
            im.paste(piece, (x0, cy0), piece)
        else:
            piece = card_back(w, h)
            im.paste(piece, (x0, cy0), piece)
            if x_.card is not None:  # a hidden card everyone knows: named on its back
                tag = name_tag(x_.card, T.SMALL_SIZE if w >= 56 else T.SMALL_SIZE - 4)
                im.paste(tag, (int(x0 + (w - tag.width) / 2), cy0 + 8), tag)
            elif x_.seen:  # someone looked: an eye and who
                _seen_mark(im, d, x0, cy1, w, x_.seen, c)
        if x_.chips:
            row = chip_row(x_.chips, w + T.CARD_GAP)
            im.paste(row, (x0 - T.CARD_GAP // 2, cy1 + 2 - T.CHIP_D // 3), row)


def _seen_mark(im: Image.Image, d: ImageDraw.ImageDraw, x0: int, y1: int, w: int,
               seen: tuple[int, ...], c: TableContent) -> None:
    """A small eye on a hidden card someone besides its owner has seen, with their seats."""
    cx, cy = x0 + w / 2, y1 - 18
    d.ellipse((cx - 14, cy - 8, cx + 14, cy + 8), fill=(250, 250, 240), outline=T.CARD_EDGE)
    d.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=T.CARD_EDGE)
    size = T.SMALL_SIZE - 3
    names = [_who(c, q) for q in seen if q >= 0]
    who = " ".join(names)
    if text_width(who, size, True) > w - 4:  # the names do not fit: the seats
        who = " ".join(seat_name(q) for q in seen if q >= 0)
    if who:
        draw_text(im, (cx, cy - 22), who, size, T.TEXT, bold=True, anchor="mm")


def _footer(im: Image.Image, d: ImageDraw.ImageDraw, c: TableContent, tr: Tr) -> None:
    """The last round's result while the next has just begun; else the decks' legend."""
    y = table_size(c.seats)[1] - T.FOOTER_H / 2
    if c.last_round is not None and (c.round_begun or c.phase is Phase.OVER):
        number, end, gains = c.last_round
        got = Text.joined(", ", [Text("{player} +{n} VP", player=_who(c, q), n=g)
                                 for q, g in enumerate(gains) if g])
        how = {RoundEnd.EXACTLY_25: Text("exactly 25"),
               RoundEnd.LAST_STANDING: Text("the last player standing"),
               RoundEnd.NONE_LEFT: Text("no one left"),
               RoundEnd.DECK_EMPTY: Text("the deck ran out"),
               RoundEnd.GAME_OVER: Text("3 VP reached"),
               RoundEnd.FORFEIT: Text("one player left in the match")}[end]
        text = (Text("Round {n} ended ({how}): {got}", n=number, how=how, got=got)
                if any(gains) else Text("Round {n} ended ({how}): no VP", n=number, how=how))
        size = _fit(tr(text), (T.LABEL_SIZE, 18, 16), T.WIDTH - 2 * T.PAD)
        draw_text(im, (T.PAD, y), tr(text), size, T.TEXT, bold=True, anchor="lm")
        return
    x = T.PAD
    for letter in DECK_PAIRS[c.decks]:
        icon = shape_icon(letter, 18)
        x += draw_text(im, (x, y), letter, T.LABEL_SIZE, T.DECK_LOOKS[letter].ink, bold=True,
                       anchor="lm") + 4
        im.paste(icon, (x, int(y - 9)), icon)
        x += 24 + draw_text(im, (x + 24, y), tr(DECK_BY_LETTER[letter].name), T.LABEL_SIZE,
                            T.TEXT_DIM, anchor="lm") + 22
    hint = tr(Text("Reach exactly 25, never more · {n} VP win", n=WINNING_VP))
    draw_text(im, (T.WIDTH - T.PAD, y), hint, T.SMALL_SIZE, T.TEXT_DIM, anchor="rm")


def table_image(v: View | TableContent, *, names: Sequence[str] | None = None,
                tr: Tr = str, verdict: str | None = None) -> Image.Image:
    """The picture of :func:`render_table` as a Pillow RGB image, drawn from
    ``table_content(v, names=names)`` only (or from ``v`` when it already is one);
    ``verdict``: how a match ended outside the game (a resignation, a stop), shown in the
    game-over banner in place of the status line."""
    c = v if isinstance(v, TableContent) else table_content(v, names=names)
    if verdict:  # the match is over: no one is to act any more
        c = c._replace(to_act=(), current=-1, extra_turns=0)
    im = static_layer(c.seats).copy()
    d = ImageDraw.Draw(im)
    _header(im, d, c, tr, verdict)
    _centre(im, d, c, tr)
    for q in range(c.seats):
        _row(im, d, c, q, tr)
    _footer(im, d, c, tr)
    return im


def render_table(v: View | TableContent, *, names: Sequence[str] | None = None,
                 tr: Tr = str, verdict: str | None = None) -> bytes:
    """The public table of a view as PNG bytes (960 px wide; 600-944 px high for 2-4
    players, :func:`table_size`): the status line (round, what is happening, who is to act),
    the deck's count, the discard pile's top card (and the cards under it), the reserve's
    chips, and per player a row with their name, VP, total, hand size and display: face-up
    cards with their faces, hidden cards as backs (an eye and the seats of who has looked),
    chips under their cards, each card's place (``@2``) above it.

    Only public fields of ``v`` are read (RJ11.1): any seat's view and the spectator's give
    the same bytes. ``names``: the players' names by seat (default ``p1`` .. ``p4``);
    ``tr``: the language of the texts (:data:`render.board.Tr`; ``str`` is English);
    ``verdict``: see :func:`table_image`."""
    return encode_png(table_image(v, names=names, tr=tr, verdict=verdict))
