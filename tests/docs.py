"""Reading the repository's Markdown (README.md, docs/*.md) in tests: a section under one
heading, and the anchors GitHub gives the headings of a page."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def headings(text: str) -> list[tuple[int, str]]:
    """The ``(level, title)`` of each ATX heading (``## Title``) outside fenced code."""
    out: list[tuple[int, str]] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            out.append((len(m.group(1)), m.group(2)))
    return out


def slug(title: str) -> str:
    """The anchor GitHub gives a heading: its text without Markdown marks, lower case, every
    character but letters, digits, ``_``, ``-`` and spaces dropped (punctuation, full-width
    brackets, backticks), then spaces made hyphens: ``Before going live: `python -m bot
    check``` is ``before-going-live-python--m-bot-check``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link keeps its words
    text = text.lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LMN")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a page; a repeated one gets ``-1``, ``-2``, … as on GitHub."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for _, title in headings(text):
        base = slug(title)
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return out


def section(path: Path, title: str) -> str:
    """The text under heading ``title`` of the Markdown file ``path``, down to the next heading
    of the same or a higher level (its subsections included), joined into one line per
    paragraph's words (Markdown wraps lines anywhere).

    Raises:
        KeyError: ``path`` has no such heading.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    fenced, start, level = False, None, 0
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else _HEADING.match(line)
        if m is None:
            continue
        if start is None and m.group(2) == title:
            start, level = i + 1, len(m.group(1))
        elif start is not None and len(m.group(1)) <= level:
            return " ".join(" ".join(lines[start:i]).split())
    if start is None:
        raise KeyError(f"{path.name} has no heading {title!r}")
    return " ".join(" ".join(lines[start:]).split())
