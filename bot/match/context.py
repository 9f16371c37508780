"""What every match service shares: the stores over one database, the clock and the
timeouts, and the lookups that turn a missing row into :class:`NotFoundError`."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..storage import Database
from .challenge_store import ChallengeStore
from .claim_store import ClaimStore, ClaimTarget, process_owner
from .match_store import MatchStore
from .models import Challenge, Match, NotFoundError
from .result_store import ResultStore
from .settings_store import SettingsStore
from .shards import Shards
from .table_store import TableStore


@dataclass
class MatchContext:
    """The stores over ``db``, the ``clock`` (Unix seconds), the default ``turn_timeout``,
    the ``challenge_timeout`` and the ``table_timeout`` (how long a table may stay open
    without starting), in seconds, > 0; ``owner``, this process's name in claims
    (:mod:`bot.match.claim_store`), and ``claim_lease``, how long a claim holds (seconds);
    ``shards``, the servers this process serves (:mod:`bot.match.shards`); ``max_practices``
    and ``max_challenges``, the caps per member (:mod:`bot.match.starting`,
    :mod:`bot.match.challenges`).

    Raises:
        ValueError: a timeout that is not a positive finite number, or a cap below 1.
    """

    db: Database
    turn_timeout: float = 86400.0
    challenge_timeout: float = 600.0
    clock: Callable[[], float] = time.time
    owner: str = field(default_factory=process_owner)
    claim_lease: float = 60.0
    shards: Shards = field(default_factory=Shards)
    max_practices: int = 3
    max_challenges: int = 5
    table_timeout: float = 1800.0
    matches: MatchStore = field(init=False)
    challenges: ChallengeStore = field(init=False)
    results: ResultStore = field(init=False)
    settings: SettingsStore = field(init=False)
    claims: ClaimStore = field(init=False)
    tables: TableStore = field(init=False)

    def __post_init__(self) -> None:
        for name in ("turn_timeout", "challenge_timeout", "claim_lease", "table_timeout"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
            setattr(self, name, float(value))
        for name in ("max_practices", "max_challenges"):
            value = getattr(self, name)
            if not (isinstance(value, int) and value >= 1):
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        self.matches = MatchStore(self.db)
        self.challenges = ChallengeStore(self.db)
        self.results = ResultStore(self.db)
        self.settings = SettingsStore(self.db)
        self.claims = ClaimStore(self.db)
        self.tables = TableStore(self.db)

    async def claim(self, target: ClaimTarget, row_id: int, now: float | None = None, *,
                    renew: bool = True) -> bool:
        """Claim a row for this process for :attr:`claim_lease` seconds from ``now``
        (default: the clock), renewing its own claim unless ``renew`` is False; whether
        this call claimed it (:meth:`ClaimStore.claim`)."""
        return await self.claims.claim(target, row_id, self.owner,
                                       self.clock() if now is None else now, self.claim_lease,
                                       renew=renew)

    async def release(self, target: ClaimTarget, row_id: int) -> None:
        """Give up this process's claim on a row."""
        await self.claims.release(target, row_id, self.owner)

    async def match(self, match_id: int) -> tuple[Match, float]:
        """The match and the turn timeout that applies to it (seconds).

        Raises:
            NotFoundError: no such match.
        """
        loaded = await self.matches.load(match_id)
        if loaded is None:
            raise NotFoundError("That match doesn't exist: check the match number.")
        match, own = loaded
        return match, own or self.turn_timeout

    async def challenge(self, challenge_id: int) -> Challenge:
        """The challenge with that id.

        Raises:
            NotFoundError: no such challenge.
        """
        ch = await self.challenges.get(challenge_id)
        if ch is None:
            raise NotFoundError("That challenge no longer exists: start a new one.")
        return ch

    async def guild_timeout(self, guild_id: int) -> float:
        """The server's turn timeout in seconds (its own, else the default)."""
        own = await self.settings.guild_timeout(guild_id)
        return self.turn_timeout if own is None else own
