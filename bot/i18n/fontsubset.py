"""Make the images' CJK fonts: ``python -m bot.i18n.fontsubset [--source-dir DIR]``.

Writes ``render/fonts/RaptorCJK-Regular.otf`` and ``RaptorCJK-Bold.otf``: Noto Sans CJK TC
Regular and Bold (Debian's ``fonts-noto-cjk``: ``apt-get install -y fonts-noto-cjk``) cut
down with fontTools to the
characters the images can draw in Chinese — every character of every zh-TW message of the
catalog (but emoji, which only Discord's clients draw), printable ASCII and the few signs
the English texts use (``×``, ``→``, ``·``, …).
Re-run it after the catalog changes (``tests/render/test_cjk_font.py`` fails until then).

The font is under the SIL Open Font License 1.1 (``render/fonts/OFL.txt``); a subset is a
Modified Version, so it is renamed (family "Raptor CJK") as the licence asks of derived
fonts, and keeps the original's copyright and licence notices in its name table.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

from babel.messages.pofile import read_po

from . import TRADITIONAL_CHINESE
from .catalogs import ROOT, po_path

SOURCE_DIR = Path("/usr/share/fonts/opentype/noto")
SOURCE_NAME = "Noto Sans CJK TC"  # the Traditional Chinese face of each collection
FONTS = ROOT / "render" / "fonts"
WEIGHTS = ("Regular", "Bold")
FAMILY = "Raptor CJK"
#: Drawn by the images besides the catalog's characters.
EXTRA = "".join(chr(c) for c in range(0x20, 0x7F)) + "×→←–—−·…½‘’“”•/0123456789"


def catalog_characters(lang: str = TRADITIONAL_CHINESE) -> set[str]:
    """Every character of every translated message of ``lang``'s catalog."""
    with po_path(lang).open("rb") as f:
        po = read_po(f)
    out: set[str] = set()
    for m in po:
        if not m.id:
            continue
        for s in (m.string if isinstance(m.string, tuple) else (m.string,)):
            out.update(s or "")
    return {ch for ch in out if ch.isprintable() and not is_emoji(ch)}


#: The joiners and variation selectors of emoji sequences (🏳️ is 🏳 and U+FE0F).
EMOJI_JOINERS = frozenset("\u200d\ufe0e\ufe0f")


def is_emoji(ch: str) -> bool:
    """An emoji, pictograph or other symbol (⏰, 🏆, 🦖, ✔, ↪; Unicode category So), or a
    joiner of an emoji sequence (:data:`EMOJI_JOINERS`): in Discord messages only, which the
    readers' clients draw; no image draws one, and Noto Sans CJK has few."""
    return unicodedata.category(ch) == "So" or ch in EMOJI_JOINERS


def characters() -> str:
    """The characters the subset holds, sorted."""
    return "".join(sorted(catalog_characters() | set(EXTRA)))


def make_subset(source: Path, target: Path, weight: str) -> tuple[int, int]:
    """Write the subset of ``source`` (a collection or one face) to ``target``, named
    ``Raptor CJK <weight>``; returns (characters, bytes)."""
    from fontTools import subset
    from fontTools.ttLib import TTCollection, TTFont

    if source.suffix.lower() in (".ttc", ".otc"):
        faces = TTCollection(str(source)).fonts
        font = next(f for f in faces if f["name"].getDebugName(1) == SOURCE_NAME)
    else:
        font = TTFont(str(source))
    chars = characters()
    options = subset.Options()
    options.layout_features = ["kern", "liga", "locl", "vert", "palt"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 14]
    options.hinting = False
    options.desubroutinize = True
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[ord(c) for c in chars])
    sub.subset(font)
    name = font["name"]
    for rec in list(name.names):
        if rec.nameID in (1, 4, 16):
            name.setName(FAMILY if rec.nameID != 4 else f"{FAMILY} {weight}", rec.nameID,
                         rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID in (3, 6):
            name.setName(f"RaptorCJK-{weight}", rec.nameID, rec.platformID, rec.platEncID,
                         rec.langID)
        elif rec.nameID == 5:
            name.setName(str(rec) + "; subset of Noto Sans CJK TC for the Raptor bot",
                         rec.nameID, rec.platformID, rec.platEncID, rec.langID)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [f"RaptorCJK-{weight}"]
        top = cff.topDictIndex[0]
        top.FamilyName, top.FullName = FAMILY, f"{FAMILY} {weight}"
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(target))
    return len(chars), target.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.fontsubset",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", type=Path, default=SOURCE_DIR,
                        help="the folder of NotoSansCJK-Regular.ttc and NotoSansCJK-Bold.ttc "
                             f"(default {SOURCE_DIR})")
    args = parser.parse_args(argv)
    for weight in WEIGHTS:
        source = args.source_dir / f"NotoSansCJK-{weight}.ttc"
        if not source.exists():
            print(f"{source} not found: apt-get install -y fonts-noto-cjk", file=sys.stderr)
            return 2
        target = FONTS / f"RaptorCJK-{weight}.otf"
        n, size = make_subset(source, target, weight)
        print(f"{target.relative_to(ROOT)}: {n} characters, {size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
