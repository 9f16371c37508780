"""The README and docs/: every relative link leads to a file that exists and, with a
``#fragment``, to a heading of that page; the README stays a page one skims (its sections in
order, no paragraph over six lines)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs import ROOT, anchors, headings, section, slug

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCED = re.compile(r"^\s*```.*?^\s*```", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_MD_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML_LINK = re.compile(r"""<(?:img|a)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.IGNORECASE)


def links(text: str) -> list[str]:
    """The targets of a page's links and images (Markdown and HTML), outside code."""
    prose = _CODE_SPAN.sub("", _FENCED.sub("", text))
    return _MD_LINK.findall(prose) + _HTML_LINK.findall(prose)


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of ``page`` that lead nowhere (or out of ``root``), each with why."""
    text = page.read_text(encoding="utf-8")
    out = []
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            out.append(f"{target}: no such file")
        elif not file.is_relative_to(root):
            out.append(f"{target}: outside the repository")
        elif fragment and file.suffix == ".md" and fragment not in anchors(
                file.read_text(encoding="utf-8")):
            out.append(f"{target}: {file.name} has no heading with that anchor")
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page):
    assert broken(page) == []


def test_the_link_check_sees_a_missing_file_or_heading(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other\n\n## Before going live: `check`\n")
    page.write_text("# Page\n\n## Ça va\n\n[a](other.md#before-going-live-check) [b](#ça-va)"
                    " [c](gone.md) [d](other.md#nowhere) `[e](in-code.md)`\n"
                    '<img src="gone.png" width="9"> [f](https://example.com/x)\n'
                    "```\n[g](fenced.md)\n```\n")
    assert broken(page, tmp_path) == ["gone.md: no such file",
                            "other.md#nowhere: other.md has no heading with that anchor",
                            "gone.png: no such file"]


def test_anchors_are_made_as_github_makes_them():
    assert slug("Before going live: `python -m bot check`") == (
        "before-going-live-python--m-bot-check")
    assert slug("怎麼玩（中文說明）") == "怎麼玩中文說明"
    assert slug("`RAPTOR_DEV_GUILD_ID`: commands in one server at once") == (
        "raptor_dev_guild_id-commands-in-one-server-at-once")
    assert anchors("## Tests\n\n```\n## not a heading\n```\n\n## Tests\n") == {"tests", "tests-1"}


README = ROOT / "README.md"
SECTIONS = ["Invite it", "Play", "Practise against the AI", "Languages", "Deploy", "Operate",
            "Develop"]


def test_the_readme_answers_one_question_per_section_in_this_order():
    text = README.read_text(encoding="utf-8")
    assert [title for level, title in headings(text) if level == 2] == SECTIONS
    # its two commands open it, before any section
    fences = [i for i, line in enumerate(text.splitlines()) if line.startswith("```")]
    assert len(fences) >= 4 and fences[3] < 60
    assert "## " not in "\n".join(text.splitlines()[:fences[3]])


def test_no_paragraph_of_the_readme_runs_over_six_lines():
    """A list item counts as a paragraph; tables and code do not."""
    long = []
    for block in re.split(r"\n\s*\n", _FENCED.sub("", README.read_text(encoding="utf-8"))):
        if block.lstrip().startswith("|"):
            continue
        items: list[list[str]] = [[]]
        for line in block.strip("\n").splitlines():
            if re.match(r"\s*([-*]|\d+\.) ", line):
                items.append([])
            items[-1].append(line)
        long += [item[0] for item in items if len(item) > 6]
    assert long == []


def test_a_section_reads_down_to_the_next_heading_of_its_level():
    doc = ROOT / "docs" / "OFFLINE.md"
    demo = section(doc, "The demo")
    assert demo.startswith("``` .venv/bin/python -m bot demo")
    assert "Play in the terminal" not in demo
    with pytest.raises(KeyError):
        section(doc, "No such heading")
