"""The settable clock the match service is given in tests (shared by the match and Discord
suites)."""

from __future__ import annotations

T0 = 1_700_000_000.0  # seconds since the epoch: the tests' "now" at the start


class FakeClock:
    """A settable clock for the match service: ``clock()`` returns ``clock.now``."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
