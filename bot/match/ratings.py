"""Elo ratings for finished matches.

Every player starts at :data:`START_RATING` (1500) in each server; after a rated match both
ratings move by ``K * (score - expected)`` with :data:`K_FACTOR` = 32, where ``score`` is 1 for
a win, 0.5 for a draw, 0 for a loss and ``expected = 1 / (1 + 10 ** ((other - own) / 400))``.
Ratings are kept unrounded (floats); round them only for display.

Which matches are rated is decided in :mod:`bot.match.results`: matches against the AI and
matches without a result (abandoned, ended by a moderator) do not change ratings.
"""

from __future__ import annotations

START_RATING = 1500.0
K_FACTOR = 32.0


def expected_score(rating: float, opponent: float) -> float:
    """The probability-like score (0..1) that a player rated ``rating`` is expected to make
    against one rated ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def elo_update(rating_a: float, rating_b: float, score_a: float,
               k: float = K_FACTOR) -> tuple[float, float]:
    """New ratings ``(a, b)`` after a game in which player A scored ``score_a``.

    Args:
        rating_a, rating_b: the ratings before the game.
        score_a: 1.0 (A won), 0.5 (draw) or 0.0 (A lost).
        k: the K-factor.

    Returns:
        The two new ratings; their sum equals the sum before (Elo is zero-sum).

    Raises:
        ValueError: ``score_a`` is not 0, 0.5 or 1.
    """
    if score_a not in (0.0, 0.5, 1.0):
        raise ValueError(f"score must be 0, 0.5 or 1, got {score_a!r}")
    delta = k * (score_a - expected_score(rating_a, rating_b))
    return rating_a + delta, rating_b - delta
