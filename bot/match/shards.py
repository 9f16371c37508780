"""Which servers this process serves when the bot runs as several processes (Discord shards).

Discord assigns a server to shard ``(guild_id >> 22) % shard_count`` and sends its
interactions over that shard's gateway connection only. A process that runs shards
``shard_ids`` of ``shard_count`` therefore handles the matches of those servers: it resumes
their AI turns at start-up and withdraws their unposted challenges. Timers are not split by
shard: any process may fire any timer, claimed once (:mod:`bot.match.claim_store`), so that
the timers of a process that stopped still fire.
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a server: its id's timestamp bits (``>> 22``) modulo the shard count."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """This process's shards: ``ids`` out of ``count`` (all of them when not sharded).

    Raises:
        ValueError: a count below 1, no ids, or an id outside ``0 .. count - 1``.
    """

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"the shard count must be at least 1, got {self.count}")
        if not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids must be between 0 and {self.count - 1}, "
                             f"got {list(self.ids)}")

    @property
    def everything(self) -> bool:
        """Whether this process serves every server."""
        return set(self.ids) == set(range(self.count))

    def owns(self, guild_id: int) -> bool:
        """Whether this process's shards carry ``guild_id``'s interactions."""
        return self.everything or shard_of(guild_id, self.count) in self.ids
