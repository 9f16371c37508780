"""Session-wide checks: when ``RAPTOR_TEST_REQUIRE_POSTGRES=1`` (``.ci/run``), a run in which
the PostgreSQL cases were skipped, or none ran, fails."""

from __future__ import annotations

import pytest

from tests.databases import NO_POSTGRES, POSTGRES_URL, REQUIRE_POSTGRES

_postgres_cases = {"passed": 0, "skipped": 0}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "[postgresql" not in report.nodeid and "-postgresql" not in report.nodeid:
        return
    if report.when == "call" and report.passed:
        _postgres_cases["passed"] += 1
    elif report.skipped:
        _postgres_cases["skipped"] += 1


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if POSTGRES_URL is None:
        terminalreporter.write_line(f"NOTE: {NO_POSTGRES}", yellow=True, bold=True)
    else:
        terminalreporter.write_line(
            f"PostgreSQL cases: {_postgres_cases['passed']} passed, "
            f"{_postgres_cases['skipped']} skipped")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if REQUIRE_POSTGRES and (POSTGRES_URL is None or _postgres_cases["skipped"]
                             or not _postgres_cases["passed"]) and exitstatus == 0:
        print(f"\nRAPTOR_TEST_REQUIRE_POSTGRES=1 but the PostgreSQL cases did not all run "
              f"({_postgres_cases}); {NO_POSTGRES if POSTGRES_URL is None else ''}")
        session.exitstatus = 1
