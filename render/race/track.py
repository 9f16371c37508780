"""The race's public picture as a PNG: the track (RR2) with the raptors, the status line,
and a panel with the dice of the turn (RR4, RR5) and a legend of the raptors.

:func:`render_track` is a pure function of a :class:`engine.race.RaceView` and keyword
options; it reads only what RR9.1 makes public (never a card, even of a seat's own view:
:mod:`render.race.card` draws that), so a seat's view and the public view of a position
give the same picture. The track's static layer (lanes, rows, boosters, obstacles, start
and finish) is drawn once per board and label language and cached; each picture copies it
and adds the raptors, this turn's steps and the panel. :func:`render_dice` draws the dice
panel alone.

Texts: the caller passes ``tr``, how a :class:`~engine.messages.Text` is written (``str``
for English, a catalog's renderer for Traditional Chinese: ``bot.i18n.translator(lang).text``),
and ``names``, the players by seat (default "Seat N").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.messages import Text
from engine.race import RAPTOR_NAMES, RAPTORS, Face, Phase, RaceView
from engine.race.track import LANES, TRACKS, Board, Obstacle, lane_of, row_of

from ..png import png_bytes
from ..text import draw_text, drawable, wrap
from . import sprites
from . import theme as T

#: How an image writes its texts (see the module docstring).
Tr = Callable[[Text], str]

TRACK_LEFT = T.MARGIN
TRACK_W = 5 * T.CELL
PANEL_LEFT = TRACK_LEFT + TRACK_W + T.MARGIN
WIDTH = PANEL_LEFT + T.PANEL_W
BEYOND_TOP = T.HEADER_H + T.MARGIN
FINISH_TOP = BEYOND_TOP + T.BEYOND_H
TRACK_TOP = FINISH_TOP + T.FINISH_H

#: The size of :func:`dice_image` (width, height).
DICE_IMAGE_SIZE = (T.PANEL_W, 300)
FINISH = Text("Finish")
START = Text("Start")


def image_size(board: Board | str) -> tuple[int, int]:
    """The track image's size in pixels (width, height) for ``board``."""
    return WIDTH, TRACK_TOP + TRACKS[Board(board)].rows * T.CELL + T.MARGIN


def space_box(board: Board | str, sp: int) -> tuple[int, int, int, int]:
    """The pixel box ``(x0, y0, x1, y1)`` (exclusive ends) of space ``sp`` in the track
    image of ``board``; a space beyond the finish line (RR2.2) lies in the strip above it.

    Raises:
        ValueError: not a space of that track.
    """
    t = TRACKS[Board(board)]
    if not t.on_track(sp):
        raise ValueError(f"space {sp} is not on the {t.board.value} track")
    x0 = TRACK_LEFT + lane_of(sp) * T.CELL
    if t.crossed(sp):
        top = BEYOND_TOP + (T.BEYOND_H - T.CELL) // 2
        return x0, top, x0 + T.CELL, top + T.CELL
    y0 = TRACK_TOP + (t.rows - 1 - row_of(sp)) * T.CELL
    return x0, y0, x0 + T.CELL, y0 + T.CELL


def space_centre(board: Board | str, sp: int) -> tuple[float, float]:
    x0, y0, x1, y1 = space_box(board, sp)
    return (x0 + x1) / 2, (y0 + y1) / 2


# --------------------------------------------------------------------------- static layer
@lru_cache(maxsize=8)
def static_layer(board: Board | str, start: str = "Start") -> Image.Image:
    """The track of ``board`` without raptors (cached; callers copy it): lanes, row
    numbers, lane letters, the start row with its label ``start`` (already translated),
    the chequered finish line and the strip beyond it, boosters and obstacles."""
    t = TRACKS[Board(board)]
    colours = T.BOARDS[t.board.value]
    im = Image.new("RGB", image_size(board), T.FRAME)
    d = ImageDraw.Draw(im)
    bottom = TRACK_TOP + t.rows * T.CELL
    for lane in range(5):
        x0 = TRACK_LEFT + lane * T.CELL
        d.rectangle((x0, TRACK_TOP, x0 + T.CELL - 1, bottom - 1),
                    fill=colours["lane_a" if lane % 2 == 0 else "lane_b"])
        draw_text(im, (x0 + T.CELL / 2, BEYOND_TOP - T.MARGIN / 2), LANES[lane],
                  T.LABEL_SIZE, T.TEXT, bold=True, anchor="mm")
        draw_text(im, (x0 + T.CELL / 2, bottom + T.MARGIN / 2), LANES[lane], T.LABEL_SIZE,
                  T.TEXT, bold=True, anchor="mm")
    start_y = TRACK_TOP + (t.rows - 1) * T.CELL
    d.rectangle((TRACK_LEFT, start_y, TRACK_LEFT + TRACK_W - 1, bottom - 1),
                fill=colours["start"])
    for row in range(t.rows):
        y = TRACK_TOP + (t.rows - 1 - row) * T.CELL
        d.line((TRACK_LEFT, y, TRACK_LEFT + TRACK_W - 1, y), fill=colours["grid"], width=1)
        draw_text(im, (TRACK_LEFT - 6, y + T.CELL / 2), str(row), T.SMALL_SIZE, T.TEXT_DIM,
                  anchor="rm")
        draw_text(im, (TRACK_LEFT + TRACK_W + 6, y + T.CELL / 2), str(row), T.SMALL_SIZE,
                  T.TEXT_DIM, anchor="lm")
    for lane in range(1, 5):
        x = TRACK_LEFT + lane * T.CELL
        d.line((x, TRACK_TOP, x, bottom - 1), fill=colours["grid"], width=1)
    draw_text(im, (TRACK_LEFT + TRACK_W / 2, start_y + T.CELL - 3), start, T.SMALL_SIZE,
              T.FRAME_LINE, anchor="mb")
    square = T.FINISH_H // 2
    for i in range(TRACK_W // square):
        for j in range(2):
            d.rectangle((TRACK_LEFT + i * square, FINISH_TOP + j * square,
                         TRACK_LEFT + (i + 1) * square - 1, FINISH_TOP + (j + 1) * square - 1),
                        fill=T.CHEQUER[(i + j) % 2])
    d.rectangle((TRACK_LEFT, BEYOND_TOP, TRACK_LEFT + TRACK_W - 1, FINISH_TOP - 1),
                fill=T.FRAME_LINE)
    mark = round(T.CELL * 0.8)
    pad = (T.CELL - mark) // 2
    for sp in t.boosters:
        x0, y0, _, _ = space_box(board, sp)
        im.paste(sprites.booster(mark), (x0 + pad, y0 + pad), sprites.booster(mark))
    for sp, kind in t.obstacles.items():
        x0, y0, _, _ = space_box(board, sp)
        pic = sprites.tree(mark) if kind is Obstacle.TREE else sprites.rock(mark)
        im.paste(pic, (x0 + pad, y0 + pad), pic)
    return im


# --------------------------------------------------------------------------- the picture
def seat_label(seat: int, names: Sequence[str] | None, tr: Tr = str) -> str:
    """How the images name ``seat``: its name in ``names`` (made drawable), else "Seat N"."""
    if names is not None and seat < len(names) and names[seat]:
        return drawable(" ".join(names[seat].split()))
    return tr(Text("Seat {n}", n=seat + 1))


def status_line(view: RaceView, *, tr: Tr = str, names: Sequence[str] | None = None) -> str:
    """The line above the track: the turn and what the seat to play is doing, or the end."""
    if view.is_over:
        return tr(Text("{raptor} crossed the finish line", raptor=Text(RAPTOR_NAMES[
            view.winner])))
    who = seat_label(view.seat, names, tr)
    if view.phase is Phase.ROLL:
        doing = Text("{player} sets dice aside", player=who)
    elif view.pending is not None:
        doing = Text("{player} uses the booster", player=who)
    else:
        doing = Text("{player} moves the raptors", player=who)
    return tr(Text("Turn {n}: {doing}", n=view.turn, doing=doing))


def _steps_shown(view: RaceView):
    return view.steps if view.steps or view.is_over else view.last_steps


def _draw_steps(im: Image.Image, view: RaceView) -> None:
    """This turn's steps (the last turn's while a new one has rolled nothing yet) as
    arrows from where each raptor was to where it went."""
    d = ImageDraw.Draw(im)
    for step in _steps_shown(view):
        if step.raptor is None:
            continue
        (x0, y0), (x1, y1) = (space_centre(view.board, step.frm),
                              space_centre(view.board, step.to))
        d.line((x0, y0, x1, y1), fill=T.HIGHLIGHT, width=5)
        d.ellipse((x0 - 6, y0 - 6, x0 + 6, y0 + 6), fill=T.HIGHLIGHT)


def _draw_raptors(im: Image.Image, view: RaceView) -> None:
    size = round(T.CELL * 0.84)
    pad = (T.CELL - size) // 2
    for r, sp in zip(RAPTORS, view.raptors, strict=True):
        x0, y0, x1, y1 = space_box(view.board, sp)
        if r is view.pending:
            ImageDraw.Draw(im).ellipse((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=T.HIGHLIGHT,
                                       width=4)
        pic = sprites.raptor(r, size)
        im.paste(pic, (x0 + pad, y0 + pad), pic)


def track_image(view: RaceView, *, tr: Tr = str, names: Sequence[str] | None = None,
                show_steps: bool = True, caption: str | None = None) -> Image.Image:
    """The picture of :func:`render_track`, as a Pillow RGB image."""
    im = static_layer(view.board, tr(START)).copy()
    if view.winner is None:  # the strip beyond the line is labelled while it is empty
        draw_text(im, (TRACK_LEFT + TRACK_W / 2, BEYOND_TOP + T.BEYOND_H / 2), tr(FINISH),
                  T.LABEL_SIZE, T.TEXT_DIM, bold=True, anchor="mm")
    if show_steps:
        _draw_steps(im, view)
    _draw_raptors(im, view)
    line = status_line(view, tr=tr, names=names) if caption is None else caption
    lines = wrap(line, T.HEADER_SIZE, WIDTH - 2 * T.MARGIN)[:2]
    size = T.HEADER_SIZE if len(lines) == 1 else T.LABEL_SIZE
    for i, text in enumerate(wrap(line, size, WIDTH - 2 * T.MARGIN)[:2]):
        draw_text(im, (T.MARGIN / 2, 8 + i * (size + 6)), text, size, T.TEXT, bold=True)
    _draw_panel(im, view, PANEL_LEFT, T.HEADER_H, tr=tr, names=names)
    return im


def render_track(view: RaceView, *, tr: Tr = str, names: Sequence[str] | None = None,
                 show_steps: bool = True, caption: str | None = None) -> bytes:
    """The race's public picture (module docstring) as PNG bytes.

    Args:
        view: any view of the race (a seat's or the public one: the picture is the same).
        tr: how texts are written (``str``: English).
        names: the players' names by seat (default "Seat N").
        show_steps: draw this turn's steps as arrows.
        caption: the line above the track instead of :func:`status_line` (already
            written in its language: a replay frame's, :mod:`render.race.replay`).
    """
    return png_bytes(track_image(view, tr=tr, names=names, show_steps=show_steps,
                                 caption=caption))


# --------------------------------------------------------------------------- the panel
def _heading(im: Image.Image, x: float, y: float, text: str) -> float:
    draw_text(im, (x, y), text, T.LABEL_SIZE, T.TEXT, bold=True)
    return y + T.LABEL_SIZE + 12


def _dice_row(im: Image.Image, x: float, y: float, faces: Sequence[Face], *,
              kept: bool = False, used: int = 0) -> float:
    """Dice side by side from (x, y): a frame round each when ``kept``, the first ``used``
    veiled as used. Returns the y below the row."""
    step = T.DIE + T.DIE_GAP
    per_row = max(1, (T.PANEL_W - 20) // step)
    for i, face in enumerate(faces):
        dx, dy = x + (i % per_row) * step, y + (i // per_row) * step
        if kept:
            ring = sprites.kept_ring(T.DIE + 8)
            im.paste(ring, (int(dx - 4), int(dy - 4)), ring)
        pic = sprites.die(face, T.DIE)
        im.paste(pic, (int(dx), int(dy)), pic)
        if i < used:
            veil = sprites.used_mark(T.DIE)
            im.paste(veil, (int(dx), int(dy)), veil)
    rows = (len(faces) + per_row - 1) // per_row
    return y + rows * step + 4


def _used_first(view: RaceView) -> tuple[list[Face], int]:
    """The result's dice with the used ones first (in the order used), and how many."""
    rest = list(view.kept)
    for f in view.used:
        rest.remove(f)
    return list(view.used) + rest, len(view.used)


def _draw_panel(im: Image.Image, view: RaceView, x0: int, y0: int, *, tr: Tr,
                names: Sequence[str] | None, legend: bool = True) -> None:
    """The dice of the turn (rolled, set aside, used; the arrows die), a pending booster,
    the finish once over, and (with ``legend``) the legend of the raptors."""
    x, y = x0 + 6, y0 + 10
    if view.is_over:
        y = _heading(im, x, y, tr(Text("The finish")))
        place = 1
        for group in view.placing or ():  # tied raptors share a line (RR6.2)
            draw_text(im, (x, y + 14), f"{place}.", T.LABEL_SIZE, T.TEXT, anchor="lm")
            for i, r in enumerate(group):
                pic = sprites.raptor(r, 28)
                im.paste(pic, (int(x + 34 + 34 * i), int(y)), pic)
            place += len(group)
            y += 34
        if view.scores is not None:
            y += 6
            y = _heading(im, x, y, tr(Text("Points")))
            for seat, score in enumerate(view.scores):
                who = seat_label(seat, names, tr)
                draw_text(im, (x, y), f"{who}: {score.total}", T.LABEL_SIZE, T.TEXT)
                y += T.LABEL_SIZE + 8
    elif view.phase is Phase.ROLL:
        y = _heading(im, x, y, tr(Text("Rolled")))
        y = _dice_row(im, x, y, view.rolled)
        if view.kept:
            y = _heading(im, x, y + 6, tr(Text("Set aside")))
            y = _dice_row(im, x, y, view.kept, kept=True)
    else:
        faces, used = _used_first(view)
        y = _heading(im, x, y, tr(Text("The result")))
        y = _dice_row(im, x, y, faces, kept=True, used=used)
        if view.pending is not None:
            y += 4
            for line in wrap(tr(Text("Booster under {raptor}: another raptor steps forward",
                                     raptor=view.pending.value)), T.SMALL_SIZE,
                             T.PANEL_W - 16):
                draw_text(im, (x, y), line, T.SMALL_SIZE, T.HIGHLIGHT, bold=True)
                y += T.SMALL_SIZE + 5
    if view.arrow_die is not None and not view.is_over:
        y = _heading(im, x, y + 8, tr(Text("Arrows die")))
        pic = sprites.arrows_die(view.arrow_die, T.DIE)
        if view.arrow_aside:
            ring = sprites.kept_ring(T.DIE + 8)
            im.paste(ring, (int(x - 4), int(y - 4)), ring)
        im.paste(pic, (int(x), int(y)), pic)
        if view.phase is Phase.MOVE and view.arrows_left == 0 and view.arrow_die:
            veil = sprites.used_mark(T.DIE)  # every arrow of the result spent
            im.paste(veil, (int(x), int(y)), veil)
        if view.phase is Phase.MOVE:
            note = tr(Text.plural("{n} arrow left", "{n} arrows left", view.arrows_left))
        elif view.arrow_aside:
            note = tr(Text("set aside"))
        else:
            note = tr(Text("rolled with the dice"))
        draw_text(im, (x + T.DIE + 12, y + T.DIE / 2), note, T.SMALL_SIZE, T.TEXT,
                  anchor="lm")
        y += T.DIE + 10
    if legend:
        _draw_legend(im, x, im.height - T.MARGIN - 5 * 34, tr=tr)


def _draw_legend(im: Image.Image, x: float, y: float, *, tr: Tr) -> None:
    """The raptors with their colour names (translated), shape and letter."""
    size = 28
    for r in RAPTORS:
        pic = sprites.raptor(r, size)
        im.paste(pic, (int(x), int(y)), pic)
        draw_text(im, (x + size + 10, y + size / 2), tr(Text(RAPTOR_NAMES[r])), T.LABEL_SIZE,
                  T.TEXT, anchor="lm")
        y += 34


def dice_image(view: RaceView, *, tr: Tr = str) -> Image.Image:
    """The dice panel alone (the dice of the turn and the arrows die), RGB."""
    im = Image.new("RGB", DICE_IMAGE_SIZE, T.FRAME)
    _draw_panel(im, view, 0, 0, tr=tr, names=None, legend=False)
    return im


def render_dice(view: RaceView, *, tr: Tr = str) -> bytes:
    """The dice of the current turn (RR4, RR5.1): rolled, set aside, used, and the arrows
    die, as PNG bytes."""
    return png_bytes(dice_image(view, tr=tr))


__all__ = ["DICE_IMAGE_SIZE", "FINISH", "START", "Tr", "WIDTH", "dice_image", "image_size",
           "render_dice", "render_track", "seat_label", "space_box", "space_centre",
           "static_layer", "status_line", "track_image"]
