"""Speed of the board image (run by hand: ``python benchmarks/bench_render.py``).

Plays seeded random games with the engine, keeps varied mid-game positions, and prints:
the median time of ``render_board`` (static layer already cached, as when a match is shown
again and again), the median time of just encoding the finished image as the palette PNG it
sends (:func:`render.png.palette_png`: the floor) and, side by side, as the RGB PNG it sent
before (:func:`render.png.png_bytes`), with both files' sizes and how far the palette's
pixels are from the drawn ones; the ratio render / encode, the time of a first render of a
layout (static layer not cached yet) and of ``render_hand``; then English and Traditional
Chinese side by side (the same positions, interleaved: board and hand, with the text masks
cached as in a running bot, and with that cache cleared before each image) and the size of the
shipped CJK font subset. ``--levels`` also compares zlib levels of both. Targets: board
≤ 60 ms median, ≤ 1.5 x the encode time, file ≤ 400 KB; zh-TW within 10 % of English; the
font subset ≤ 2 MB.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageChops, ImageStat  # noqa: E402

import engine  # noqa: E402
from engine import Phase, Side  # noqa: E402
from render import board_image, render_board, render_hand, static_layer  # noqa: E402
from render.png import (  # noqa: E402
    PALETTE_ZLIB_LEVEL,
    ZLIB_LEVEL,
    palette_image,
    palette_png,
    png_bytes,
)
from render.text import CJK_BOLD_FONT, CJK_FONT, text_mask  # noqa: E402


def positions(games: int, per_game: int, seed: int = 1) -> list[engine.GameState]:
    """``per_game`` positions from the middle of each of ``games`` seeded random games."""
    out = []
    for g in range(games):
        env = "jungle" if g % 2 == 0 else "savannah"
        s = engine.new_game(seed * 1000 + g, environment=env, layout="random", setup="quick")
        rng = random.Random(seed * 1000 + g)
        states = []
        while s.phase is not Phase.OVER and len(states) < 400:
            side = sorted(engine.to_act(s))[0]
            s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
            if s.round >= 3 and s.phase in (Phase.PICK, Phase.EFFECT, Phase.AP,
                                            Phase.MOTHER_RETURN):
                states.append(s)
        step = max(1, len(states) // per_game)
        out.extend(states[::step][:per_game])
    return out


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:6.2f} ms  (min {min(values) * 1000:.2f}, " \
           f"max {max(values) * 1000:.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--per-game", type=int, default=10)
    ap.add_argument("--levels", action="store_true",
                    help="also compare zlib levels and a 256-colour palette PNG")
    args = ap.parse_args()
    states = positions(args.games, args.per_game)
    views = [engine.view(s, None) for s in states]
    print(f"{len(views)} positions from {args.games} random games; zlib level {ZLIB_LEVEL} "
          f"(RGB), {PALETTE_ZLIB_LEVEL} (palette)")

    cold, seen = [], set()
    for v in views:
        if v.layout in seen:
            continue
        seen.add(v.layout)
        static_layer.cache_clear()
        t = time.perf_counter()
        render_board(v)
        cold.append(time.perf_counter() - t)
    print(f"first render of a layout (static layer built): {ms(cold)}  [{len(cold)} layouts]")
    for v in views:  # warm-up: every layout's static layer cached
        render_board(v)

    render_t, encode_t, rgb_t, draw_t, sizes, rgb_sizes = [], [], [], [], [], []
    render_cpu, encode_cpu, rgb_cpu = [], [], []
    for _ in range(3):
        for v in views:
            t0, c0 = time.perf_counter(), time.process_time()
            data = render_board(v)
            t1, c1 = time.perf_counter(), time.process_time()
            im = board_image(v)
            t2 = time.perf_counter()
            c2 = time.process_time()
            palette_png(im)
            t3, c3 = time.perf_counter(), time.process_time()
            rgb = png_bytes(im)
            t4, c4 = time.perf_counter(), time.process_time()
            render_t.append(t1 - t0)
            draw_t.append(t2 - t1)
            encode_t.append(t3 - t2)
            rgb_t.append(t4 - t3)
            render_cpu.append(c1 - c0)
            encode_cpu.append(c3 - c2)
            rgb_cpu.append(c4 - c3)
            sizes.append(len(data))
            rgb_sizes.append(len(rgb))
    med_r, med_e = statistics.median(render_t), statistics.median(encode_t)
    print(f"render_board (palette PNG): {ms(render_t)}  [{len(render_t)} renders]")
    print(f"  drawing only            : {ms(draw_t)}")
    print(f"  encode only (floor), new: {ms(encode_t)}  palette PNG")
    print(f"                       old: {ms(rgb_t)}  RGB PNG")
    print(f"ratio render / encode     : {med_r / med_e:.2f}")
    cr, ce = statistics.median(render_cpu), statistics.median(encode_cpu)
    print(f"CPU time (process_time)   : render median {cr * 1000:.2f} ms, encode median "
          f"{ce * 1000:.2f} ms (RGB {statistics.median(rgb_cpu) * 1000:.2f} ms), ratio "
          f"{cr / ce:.2f}  (less sensitive to other processes)")
    print(f"PNG size, new (palette)   : median {statistics.median(sizes) / 1024:.1f} KB, "
          f"max {max(sizes) / 1024:.1f} KB")
    print(f"          old (RGB)       : median {statistics.median(rgb_sizes) / 1024:.1f} KB, "
          f"max {max(rgb_sizes) / 1024:.1f} KB; new / old median "
          f"{statistics.median(n / o for n, o in zip(sizes, rgb_sizes, strict=True)):.2f}")
    fidelity(views)
    print(f"targets: <= 60 ms {'OK' if med_r <= 0.060 else 'MISSED'}, "
          f"<= 1.5x encode {'OK' if med_r <= 1.5 * med_e else 'MISSED'}, "
          f"<= 400 KB {'OK' if max(sizes) <= 400 * 1024 else 'MISSED'}"
          f"   (load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")

    hand_t = []
    for s in states[:50]:
        hv = engine.view(s, Side.RAPTOR)
        t = time.perf_counter()
        render_hand(hv)
        hand_t.append(time.perf_counter() - t)
    print(f"render_hand               : {ms(hand_t)}")
    languages(states, views)

    if args.levels:
        ims = [board_image(v) for v in views[:30]]
        for level in (0, 1, 2, 3, 6, 9):
            ts, ss = [], []
            for im in ims:
                t = time.process_time()
                ss.append(len(png_bytes(im, level=level)))
                ts.append(time.process_time() - t)
            print(f"  RGB zlib level {level}: encode (CPU) {ms(ts)}, size median "
                  f"{statistics.median(ss) / 1024:.1f} KB")
        for level in (1, 2, 3, 4, 5, 6, 7):
            ts, ss = [], []
            for im in ims:
                t = time.process_time()
                ss.append(len(png_bytes(palette_image(im), level=level)))
                ts.append(time.process_time() - t)
            print(f"  palette zlib level {level}: encode (CPU) {ms(ts)}, size median "
                  f"{statistics.median(ss) / 1024:.1f} KB")
        ts, ss = [], []
        for im in ims:
            buf = io.BytesIO()
            t = time.process_time()
            palette_image(im).save(buf, "PNG", compress_level=PALETTE_ZLIB_LEVEL,
                                   optimize=False)
            ts.append(time.process_time() - t)
            ss.append(buf.tell())
        print(f"  palette, Pillow's encoder at level {PALETTE_ZLIB_LEVEL} (CPU): {ms(ts)}, size "
              f"median {statistics.median(ss) / 1024:.1f} KB")


def fidelity(views: list[engine.View]) -> None:
    """How far the palette PNG's pixels are from the drawn ones (per pixel, the largest
    difference of its channels, in levels of 255), over the first 30 positions."""
    means, over8, over16, worst, colours = [], [], [], [], []
    for v in views[:30]:
        im = board_image(v)
        got = Image.open(io.BytesIO(palette_png(im))).convert("RGB")
        diff = ImageChops.difference(im, got)
        means.append(max(ImageStat.Stat(diff).mean))
        r, g, b = diff.split()
        hist = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
        n = im.width * im.height
        over8.append(sum(hist[9:]) / n)
        over16.append(sum(hist[17:]) / n)
        worst.append(max(i for i, c in enumerate(hist) if c))
        colours.append(len(im.getcolors(1 << 20)))
    print(f"palette vs drawn pixels   : {statistics.median(colours):.0f} colours drawn (median) "
          f"-> 256; mean difference per channel median {statistics.median(means):.2f} (max "
          f"{max(means):.2f}); pixels > 8 levels off median {statistics.median(over8):.2%} "
          f"(max {max(over8):.2%}), > 16 {statistics.median(over16):.2%} (max "
          f"{max(over16):.2%}); largest {max(worst)}")


def languages(states: list[engine.GameState], views: list[engine.View]) -> None:
    """English and zh-TW images of the same positions, interleaved, side by side."""
    from bot.i18n import translator

    trs = {"en": str, "zh-TW": translator("zh-TW").text}
    hands = [engine.view(s, Side.RAPTOR if i % 2 else Side.SCIENTIST)
             for i, s in enumerate(states[:50])]
    print("English vs Traditional Chinese (same positions, interleaved; CPU time):")
    for cold in (False, True):
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(1 if cold else 3):
            for v, h in zip(views, hands * (len(views) // len(hands) + 1), strict=False):
                for lang, tr in trs.items():
                    for kind, fn, arg in (("board", render_board, v), ("hand", render_hand, h)):
                        if cold:
                            text_mask.cache_clear()
                        t = time.process_time()  # CPU time: less sensitive to the load
                        fn(arg, tr=tr)
                        times.setdefault((kind, lang), []).append(time.process_time() - t)
        label = "text masks uncached" if cold else "text masks cached"
        for kind in ("board", "hand"):
            en = statistics.median(times[(kind, "en")])
            zh = statistics.median(times[(kind, "zh-TW")])
            verdict = "OK" if zh <= 1.10 * en else "MISSED"
            print(f"  {kind:5} ({label:19}): en {en * 1000:6.2f} ms, zh-TW {zh * 1000:6.2f} ms, "
                  f"zh-TW / en {zh / en:.2f}  (target <= 1.10: {verdict})")
    size = CJK_FONT.stat().st_size + CJK_BOLD_FONT.stat().st_size
    print(f"CJK font subset (regular + bold): {size / 1024:.0f} KB "
          f"(target <= 2 MB: {'OK' if size <= 2 * 1024 * 1024 else 'MISSED'})")


if __name__ == "__main__":
    main()
