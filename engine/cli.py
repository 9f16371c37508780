"""What every command line of the project shares, whatever the game: the range of a seed
(the seeded chance of every game, RNG state as a whole number) and the exit statuses.

Game-neutral: ``python -m engine``, ``python -m render`` and ``python -m bot`` (its demo,
terminal and replay commands, for every game) read their seeds with :func:`seed_arg` and
say :data:`EXIT_STATUS` in their ``--help``.
"""

from __future__ import annotations

import argparse

#: The largest seed: the bot stores seeds as SQLite INTEGERs (signed 64 bits).
MAX_SEED = 2**63 - 1

#: The exit statuses of the offline commands, as their ``--help`` says them.
EXIT_STATUS = ("Exit status: 0 done; 2 a usage error (a bad option, or a file refused in one "
               "line); 1 the reader of stdout went away; 130 after Ctrl-C")


def seed_arg(text: str) -> int:
    """argparse type: a whole number 0 .. :data:`MAX_SEED`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"the seed must be between 0 and {MAX_SEED}")
    return value


__all__ = ["EXIT_STATUS", "MAX_SEED", "seed_arg"]
