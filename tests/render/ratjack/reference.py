"""Fixed Ratjack positions whose pictures are stored in ``tests/render/ratjack/reference/``
and the sample of ``docs/ratjack-table.png``.

The stored PNGs are only rewritten on purpose, after looking at them::

    python -m tests.render.ratjack.reference
"""

from __future__ import annotations

from pathlib import Path

from engine.ratjack import view
from render.ratjack import render_private, render_table
from tests.engine.ratjack.conftest import pos

HERE = Path(__file__).resolve().parent / "reference"
DOCS = Path(__file__).resolve().parents[3] / "docs"

FOUR = """
    players: 4
    round: 2
    vp: 1 0 1 0
    phase: action
    chips: +1 -2 +3 +4 -5 +10
    deck: B9 R8 B8
    discard: B7 R9 B1 R3
    p1 hand: R5 B11
    p1 display: B3[+3] ~R10[-5] R12 ~B2{p3}
    p2 hand: B4{*}
    p2 display: ~R2 B5[+4] R6
    p3 hand: R1
    p3 display: R11 ~B12{*}
    p4 hand: B6
    p4 display: R4 B10 ~R7
"""
NAMES = ("Alice", "Bob", "Carol", "AI (hard)")


def pictures() -> dict[str, bytes]:
    """The reference pictures by file name."""
    s = pos(FOUR)
    return {"table-4p.png": render_table(view(s, None), names=NAMES),
            "private-p1.png": render_private(view(s, 0), names=NAMES)}


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, data in pictures().items():
        (HERE / name).write_bytes(data)
        print(f"wrote {HERE / name} ({len(data)} bytes)")
    (DOCS / "ratjack-table.png").write_bytes(pictures()["table-4p.png"])
    print(f"wrote {DOCS / 'ratjack-table.png'}")


if __name__ == "__main__":
    main()
