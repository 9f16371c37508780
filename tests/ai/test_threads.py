"""The AI in parallel threads, as the bot runs it (``asyncio.to_thread``, one search per
match): the memos every search shares (``evaluation._SCORE_MEMO``, ``_DIST_CACHE``,
``easy._POLICY_MEMO``) forget their older half while other threads read and fill them, and
no search fails or decides otherwise for it."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

import engine
from bot.ai import choose_action, easy, evaluation
from engine import Phase
from tests.ai.helpers import random_positions


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Threads switch every 10 microseconds (instead of every 5 ms), so that a race between two
    dict operations of two threads shows at once."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def test_remember_forgets_safely_while_other_threads_fill_the_memo(busy_switching):
    memo: dict = {}
    size = 64
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def fill(t: int) -> None:
        start.wait()
        try:
            for i in range(50_000):
                assert evaluation.remember(memo, (t, i), i, size) == i
        except BaseException as e:  # noqa: BLE001 - the test reports what a thread raised
            errors.append(e)

    threads = [threading.Thread(target=fill, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    # what is kept is right, and the memo stays within its size (plus one entry per other
    # thread: each checks the size, then stores, without a lock)
    assert size // 2 <= len(memo) <= size + 3
    assert all(value == key[1] for key, value in memo.items())


def test_parallel_hard_searches_decide_as_one_at_a_time(busy_switching, monkeypatch):
    # small memos, so that the searches forget their older halves again and again
    monkeypatch.setattr(evaluation, "SCORE_MEMO_SIZE", 256)
    monkeypatch.setattr(evaluation, "DIST_MEMO_SIZE", 64)
    monkeypatch.setattr(easy, "MEMO_SIZE", 128)
    found = [(s, side) for s, side in random_positions(range(2), stride=9)
             if s.phase in (Phase.PICK, Phase.AP)]
    views = [engine.view(s, side) for s, side in found][:8]
    assert len(views) == 8

    def decide(i: int) -> engine.Action:
        return choose_action(views[i], level="hard", seed=i, iterations=8)

    alone = [decide(i) for i in range(len(views))]
    with ThreadPoolExecutor(6) as pool:  # six practices deciding at once
        together = list(pool.map(decide, range(len(views))))
    assert together == alone
