"""The rules of record are in the repository (``docs/RULES.md``): every rule ID the code and
the tests cite exists there, and every rule it defines is cited by at least one test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"
#: Where rule IDs are cited (source, tests, benchmarks).
CITING = ("engine", "bot", "render", "tests", "benchmarks")

#: A rule defined in RULES.md: a list item opening with its ID, ``- R7.2 Move the mother …``.
_DEFINED = re.compile(r"^- (R\d+\.\d+) ", re.M)
#: A citation: ``R7.2`` in text; in a test's name ``R7_2`` (``test_R7_2_…``).
_CITED = re.compile(r"(?<![A-Za-z0-9])R(\d+)\.(\d+)(?!\d)")
_CITED_IN_NAME = re.compile(r"(?<![A-Za-z0-9])R(\d+)_(\d+)(?!\d)")


def defined_rules() -> set[str]:
    return set(_DEFINED.findall(RULES.read_text(encoding="utf-8")))


def python_files(*folders: str) -> list[Path]:
    return sorted(p for f in folders for p in (ROOT / f).rglob("*.py"))


def citations(path: Path, *, names_too: bool) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = {f"R{a}.{b}" for a, b in _CITED.findall(text)}
    if names_too:
        found |= {f"R{a}.{b}" for a, b in _CITED_IN_NAME.findall(text)}
    return found


def test_the_rules_document_defines_every_section_R1_to_R11():
    rules = defined_rules()
    assert {r.split(".")[0] for r in rules} == {f"R{n}" for n in range(1, 12)}
    assert {"R2.7", "R7.2", "R8.5", "R10.3", "R11.2"} <= rules
    assert len(rules) == 53


def test_the_rules_document_has_the_rulings_of_record():
    text = RULES.read_text(encoding="utf-8")
    assert text.count("**Ruling:**") == 7  # R2.7 is its own ruling, written in prose
    assert "Wound:" in text and "**Observation:**" in text


def test_every_rule_id_cited_in_code_and_tests_is_defined():
    rules = defined_rules()
    unknown = {}
    for path in python_files(*CITING):
        if path.name == Path(__file__).name:  # this module's examples of the syntax
            continue
        missing = citations(path, names_too=path.is_relative_to(ROOT / "tests")) - rules
        if missing:
            unknown[str(path.relative_to(ROOT))] = sorted(missing)
    assert unknown == {}


def test_every_rule_is_cited_by_at_least_one_test():
    cited: set[str] = set()
    for path in python_files("tests"):
        if path.name != Path(__file__).name:  # this module's own examples do not count
            cited |= citations(path, names_too=True)
    assert sorted(defined_rules() - cited) == []


def test_citations_are_read_from_names_and_text():
    assert _CITED.findall("Implements R7.2, R10.3.") == [("7", "2"), ("10", "3")]
    assert _CITED_IN_NAME.findall("def test_R5_2_R11_2_shown():") == [("5", "2"), ("11", "2")]
    assert _CITED.findall("PR7.2 or R7.25") == [("7", "25")]  # an unknown rule, not R7.2
