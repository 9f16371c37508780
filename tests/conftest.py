"""Session-wide checks: when ``RAPTOR_TEST_REQUIRE_POSTGRES=1`` (``.ci/run``), a run in which
a selected PostgreSQL case was skipped or did not pass, or no server was given, fails.

And two fixtures: :func:`demo_seed_1`, the offline demo of seed 1, played once per run;
:func:`warm_render_workers`, render workers that start warm.

The suite runs on several processes (pytest-xdist, ``-n`` in pyproject.toml's addopts): the
workers run the tests and the controller sees every worker's reports, so the counts and the
verdict are made in the controller only (or in the one process of a ``-n 0`` run).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
import shutil
from multiprocessing import forkserver
from pathlib import Path

import pytest

from tests.databases import NO_POSTGRES, POSTGRES_URL, REQUIRE_POSTGRES

try:
    import fcntl
except ImportError:  # not POSIX: each process plays the shared demo itself
    fcntl = None

_postgres_cases = {"selected": 0, "passed": 0, "skipped": 0}


def is_postgres_case(nodeid: str) -> bool:
    """Whether the test ``nodeid`` is a PostgreSQL case (a ``postgresql`` parameter)."""
    return "[postgresql" in nodeid or "-postgresql" in nodeid


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_collection_finish(session: pytest.Session) -> None:
    # in a run without workers: the tests this process will run (after -m and -k)
    if not _is_worker(session.config) and not session.config.pluginmanager.hasplugin("dsession"):
        _postgres_cases["selected"] = sum(is_postgres_case(i.nodeid) for i in session.items)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids: list[str]) -> None:
    # the controller: every worker collects the same tests; count them once
    _postgres_cases["selected"] = sum(is_postgres_case(i) for i in ids)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not is_postgres_case(report.nodeid):
        return
    if report.when == "call" and report.passed:
        _postgres_cases["passed"] += 1
    elif report.skipped:
        _postgres_cases["skipped"] += 1


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if _is_worker(config):
        return
    if POSTGRES_URL is None:
        terminalreporter.write_line(f"NOTE: {NO_POSTGRES}", yellow=True, bold=True)
    else:
        terminalreporter.write_line(
            f"PostgreSQL cases: {_postgres_cases['passed']} passed, "
            f"{_postgres_cases['skipped']} skipped")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _is_worker(session.config) or not REQUIRE_POSTGRES or exitstatus != 0:
        return
    cases = _postgres_cases
    if POSTGRES_URL is None or cases["skipped"] or cases["passed"] != cases["selected"]:
        print(f"\nRAPTOR_TEST_REQUIRE_POSTGRES=1 but the PostgreSQL cases did not all run "
              f"({cases}); {NO_POSTGRES if POSTGRES_URL is None else ''}")
        session.exitstatus = 1


@pytest.fixture(scope="session")
def _demo_seed_1_played(tmp_path_factory, worker_id) -> tuple[Path, dict]:
    """The folder and summary of the seed-1 demo, played once per run: under xdist in the
    folder the run's workers share (the parent of each one's basetemp, new for each run),
    by the first worker to ask for it, under a file lock; the others read its summary."""
    from bot.games.raptor.demo import play_demo

    def play(out: Path) -> dict:
        return asyncio.run(play_demo(out, seed=1, echo=lambda _: None))

    if worker_id == "master" or fcntl is None:  # one process (-n 0), or no flock
        out = tmp_path_factory.mktemp("demo-seed-1") / "demo"
        return out, play(out)
    shared = tmp_path_factory.getbasetemp().parent / "demo-seed-1"
    shared.mkdir(exist_ok=True)
    out, done = shared / "demo", shared / "summary.pickle"
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            done.write_bytes(pickle.dumps(play(out)))
        return out, pickle.loads(done.read_bytes())


@pytest.fixture
def demo_seed_1(_demo_seed_1_played, tmp_path) -> dict:
    """``python -m bot demo --seed 1`` at its defaults (the hard raptor against the easy
    scientist, a fixed amount of work per decision, so always the same match), as
    :func:`bot.games.raptor.demo.play_demo` returns it, its folder copied to ``tmp_path / "demo"``
    (the summary's paths point into the copy): the match is played once per run (a few
    seconds), and each test gets files of its own to read or change."""
    played, summary = _demo_seed_1_played
    out = tmp_path / "demo"
    shutil.copytree(played, out)

    def moved(path: Path) -> Path:
        return out / path.relative_to(played)

    return {**summary, "pngs": [moved(p) for p in summary["pngs"]],
            **{key: moved(summary[key]) for key in ("log", "record", "gif", "db")}}


@pytest.fixture(scope="session")
def warm_render_workers() -> None:
    """Start this process's forkserver of render workers (render/pool.py) with
    ``tests.warm_renders`` preloaded: the workers of every bot started in this process then
    fork from a server that has drawn boards, hands and an animation once, instead of each
    loading its imports, fonts and sprites on its first renders. The folders whose tests
    start bots in this process use it (an autouse fixture of their conftest.py). Without a
    forkserver (not Linux), or once one runs already, nothing changes."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return
    multiprocessing.get_context("forkserver").set_forkserver_preload(
        ["render", "tests.warm_renders"])
    forkserver.ensure_running()
