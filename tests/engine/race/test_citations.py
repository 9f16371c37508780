"""The race's rules of record are in the repository (docs/RACE_RULES.md): every RR rule it
defines is cited by a test, and every RR rule cited in the code, the tests and the
benchmarks exists there (the same check as tests/test_rules_citations.py for Raptor's R
rules, whose file helpers this reuses)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_rules_citations import CITING, ROOT, python_files

RULES = ROOT / "docs" / "RACE_RULES.md"
#: A rule defined in RACE_RULES.md: a list item opening with its ID, ``- RR5.4 Blocked …``.
_DEFINED = re.compile(r"^- (RR\d+\.\d+) ", re.M)
#: A citation: ``RR5.4`` in text; in a test's name ``RR5_4`` (``test_RR5_4_…``).
_CITED = re.compile(r"(?<![A-Za-z0-9])RR(\d+)\.(\d+)(?!\d)")
_CITED_IN_NAME = re.compile(r"(?<![A-Za-z0-9])RR(\d+)_(\d+)(?!\d)")


def defined_rules() -> set[str]:
    return set(_DEFINED.findall(RULES.read_text(encoding="utf-8")))


def citations(path: Path, *, names_too: bool) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = {f"RR{a}.{b}" for a, b in _CITED.findall(text)}
    if names_too:
        found |= {f"RR{a}.{b}" for a, b in _CITED_IN_NAME.findall(text)}
    return found


def test_the_rules_document_defines_RR1_to_RR9_with_its_rulings():
    rules = defined_rules()
    assert {r.split(".")[0] for r in rules} == {f"RR{n}" for n in (1, 2, 3, 4, 5, 6, 7, 9)}
    assert {"RR1.5", "RR2.7", "RR3.7", "RR5.8", "RR7.3", "RR9.5"} <= rules
    assert len(rules) == 42  # 39 published and ruled on, and the rulings RR2.7, RR3.7, RR9.5


def test_every_rr_rule_cited_in_code_and_tests_is_defined():
    rules = defined_rules()
    unknown = {}
    for path in python_files(*CITING):
        if path.name == Path(__file__).name:  # this module's examples of the syntax
            continue
        missing = citations(path, names_too=path.is_relative_to(ROOT / "tests")) - rules
        if missing:
            unknown[str(path.relative_to(ROOT))] = sorted(missing)
    assert unknown == {}


def test_every_rr_rule_is_cited_by_at_least_one_test():
    cited: set[str] = set()
    for path in python_files("tests"):
        if path.name != Path(__file__).name:
            cited |= citations(path, names_too=True)
    assert sorted(defined_rules() - cited) == []


def test_citations_are_read_from_names_and_text():
    assert _CITED.findall("Implements RR5.4, RR10.3.") == [("5", "4"), ("10", "3")]
    assert _CITED_IN_NAME.findall("def test_RR4_2_RR5_6_example():") == [("4", "2"),
                                                                         ("5", "6")]
    assert _CITED.findall("R5.4 or XRR5.4 or RR5.45") == [("5", "45")]
