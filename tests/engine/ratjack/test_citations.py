"""The Ratjack rules of record are in the repository (``docs/RATJACK_RULES.md``): every RJ
rule ID the code and the tests cite exists there, and every rule it defines is cited by at
least one test (the helpers are those of ``tests/test_rules_citations.py``)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.ratjack import EFFECTS
from tests.test_rules_citations import CITING, ROOT, python_files

RULES = ROOT / "docs" / "RATJACK_RULES.md"
#: A rule defined in RATJACK_RULES.md: ``- RJ5.7 **7** Exchange ...``.
_DEFINED = re.compile(r"^- (RJ\d+\.\d+) ", re.M)
#: A citation: ``RJ5.7`` in text; in a test's name ``RJ5_7`` (``test_RJ5_7_...``).
_CITED = re.compile(r"(?<![A-Za-z0-9])RJ(\d+)\.(\d+)(?!\d)")
_CITED_IN_NAME = re.compile(r"(?<![A-Za-z0-9])RJ(\d+)_(\d+)(?!\d)")
THIS = Path(__file__).name


def defined_rules() -> set[str]:
    return set(_DEFINED.findall(RULES.read_text(encoding="utf-8")))


def citations(path: Path, *, names_too: bool) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = {f"RJ{a}.{b}" for a, b in _CITED.findall(text)}
    if names_too:
        found |= {f"RJ{a}.{b}" for a, b in _CITED_IN_NAME.findall(text)}
    return found


def test_the_rules_define_sections_rj1_to_rj11_and_the_36_effects():
    rules = defined_rules()
    assert {r.split(".")[0] for r in rules} == {f"RJ{n}" for n in range(1, 12)} - {"RJ10"}
    assert {f"RJ{k}.{v}" for k in (5, 6, 7) for v in range(1, 13)} <= rules
    assert {e.rule for e in EFFECTS} == {f"RJ{k}.{v}" for k in (5, 6, 7) for v in range(1, 13)}
    assert len(rules) == 72


def test_every_rj_rule_cited_in_code_docs_and_tests_is_defined():
    rules = defined_rules()
    unknown = {}
    for path in [*python_files(*CITING), *sorted((ROOT / "docs").glob("*.md"))]:
        if path.name == THIS:
            continue
        missing = citations(path, names_too=path.is_relative_to(ROOT / "tests")) - rules
        if missing:
            unknown[str(path.relative_to(ROOT))] = sorted(missing)
    assert unknown == {}


def test_every_rj_rule_is_cited_by_at_least_one_test():
    cited: set[str] = set()
    for path in python_files("tests"):
        if path.name != THIS:
            cited |= citations(path, names_too=True)
    assert sorted(defined_rules() - cited) == []


def test_every_effect_has_its_own_test_named_after_its_rule():
    names: set[str] = set()
    for path in python_files("tests/engine/ratjack"):
        names |= {f"RJ{a}.{b}" for a, b in re.findall(r"def test_RJ(\d+)_(\d+)_",
                                                      path.read_text(encoding="utf-8"))}
    assert {e.rule for e in EFFECTS} <= names


def test_citations_are_read_from_names_and_text():
    assert _CITED.findall("Implements RJ5.7, RJ11.2.") == [("5", "7"), ("11", "2")]
    assert _CITED_IN_NAME.findall("def test_RJ5_2_RJ11_2_shown():") == [("5", "2"), ("11", "2")]
    assert _CITED.findall("XRJ5.7 or RJ5.71") == [("5", "71")]
