"""The ratings a rated match should give, computed with openskill's Plackett-Luce model
directly (independently of :mod:`bot.match.ratings`): the model's defaults, and the shown
rating ``1500 + 50 * (mu - 3 sigma)`` the bot documents."""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()
#: A new player's (mu, sigma): the model's defaults, 25 and 25/3.
NEW = (25.0, 25.0 / 3.0)


def shown(mu: float, sigma: float) -> float:
    """The documented shown rating of ``(mu, sigma)``."""
    return 1500.0 + 50.0 * (mu - 3.0 * sigma)


def after(places: Sequence[int], before: Sequence[tuple[float, float]] | None = None
          ) -> list[tuple[float, float]]:
    """Each player's ``(mu, sigma)`` after a match they finished at ``places`` (1 first,
    equal places tied), from ``before`` (default: new players)."""
    start = before if before is not None else [NEW] * len(places)
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in start]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def shown_after(places: Sequence[int], before: Sequence[tuple[float, float]] | None = None
                ) -> list[float]:
    """Each player's shown rating after the match of :func:`after`."""
    return [shown(mu, sigma) for mu, sigma in after(places, before)]
