"""Ratings for any number of players: OpenSkill's Plackett-Luce model (the ``openskill``
package, a Weng-Lin Bayesian model of the TrueSkill family that rates free-for-all results
with ties), one rating per player, server and game.

A player's skill is a normal belief ``(mu, sigma)``, :data:`START` for a new player. After a
rated match every rated player's belief moves by the places of all of them (1 for first,
tied players sharing a place). What the bot shows is :func:`shown`: the conservative
estimate ``mu - 3 sigma`` on a familiar scale, 1500 for a new player, rising as the bot
grows sure of a skill (so a lucky first game does not top a leaderboard).

Which matches are rated is :mod:`bot.match.results`' decision. Raptor's matches rated by Elo
before the bot had this model are rated again by it, in the order they finished
(:func:`rate_history`, run once by the schema's migration 10); their Elo figures stay in the
history (``elo_ratings``, and each player's ``rating_before``/``rating_after``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

if TYPE_CHECKING:
    # the module, not the package: the package's backends run the schema's migrations,
    # which import this module (:func:`rate_history`)
    from ..storage.base import Transaction

#: The model (its defaults: mu 25, sigma 25/3, beta 25/6).
MODEL = PlackettLuce()
#: Points of the shown rating per point of ``mu - 3 sigma``.
SCALE = 50.0
#: The shown rating of ``mu - 3 sigma = 0`` (a new player).
BASE = 1500.0


@dataclass(frozen=True)
class Skill:
    """A player's skill belief: mean ``mu`` and standard deviation ``sigma``."""

    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The rating shown for this skill (:func:`shown`)."""
        return shown(self.mu, self.sigma)


#: A new player's skill.
START = Skill(MODEL.mu, MODEL.sigma)


def shown(mu: float, sigma: float) -> float:
    """The rating shown for the skill ``(mu, sigma)``: ``BASE + SCALE * (mu - 3 sigma)``,
    1500 for a new player. Unrounded: round it only for display."""
    return BASE + SCALE * (mu - 3.0 * sigma)


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The players' skills after a match in which player ``i`` with ``skills[i]`` finished
    at ``places[i]`` (1 for first; equal places are a tie).

    Raises:
        ValueError: fewer than two players, or not one place per player.
    """
    if len(skills) < 2 or len(places) != len(skills):
        raise ValueError("a rated match has two players or more, each with a place")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(team[0].mu, team[0].sigma) for team in after]


def standing(place: int, places: Sequence[int]) -> str:
    """How a player at ``place`` among ``places`` counts in the win/draw/loss tallies:
    ``"win"`` (first, alone), ``"draw"`` (first, tied) or ``"loss"`` (any other place)."""
    if place != 1:
        return "loss"
    return "draw" if sum(1 for p in places if p == 1) > 1 else "win"


def reranked(places: Sequence[int]) -> list[int]:
    """``places`` of a subset of a match's players as places among themselves (1, 1, 3...),
    e.g. the people of a table whose AI seats are not rated: ``[2, 4, 4] -> [1, 2, 2]``."""
    return [1 + sum(1 for other in places if other < mine) for mine in places]


async def rate_history(tx: Transaction) -> None:
    """Inside ``tx``: give every player of the rated matches in ``results`` their OpenSkill
    rating per server and game, the matches rated in the order they finished (then by match
    number), into an empty ``ratings`` table; the matches' ``rating_before`` and
    ``rating_after`` keep the figures of the model that rated them (Elo)."""
    rows = await tx.fetchall(
        "SELECT r.match_id, r.game, r.guild_id, r.finished_at, p.seat, p.user_id, p.place "
        "FROM results r JOIN match_players p ON p.match_id = r.match_id "
        "WHERE r.rated = 1 AND p.place IS NOT NULL "
        "ORDER BY r.finished_at, r.match_id, p.seat")
    matches: dict[int, list[tuple]] = {}
    for row in rows:
        matches.setdefault(row["match_id"], []).append(tuple(row))
    table: dict[tuple[int, str, int], list] = {}  # (guild, game, user) -> [skill, g, w, d, l, t]
    for players in matches.values():
        _, game, guild, finished, *_ = players[0]
        users = [p[5] for p in players]
        if len(set(users)) < 2 or len(set(users)) != len(users):
            continue
        places = reranked([p[6] for p in players])
        entries = [table.setdefault((guild, game, user), [START, 0, 0, 0, 0, finished])
                   for user in users]
        after = rate([e[0] for e in entries], places)
        for entry, skill, place in zip(entries, after, places, strict=True):
            entry[0] = skill
            entry[1] += 1
            entry[{"win": 2, "draw": 3, "loss": 4}[standing(place, places)]] += 1
            entry[5] = finished
    await tx.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rating, games, wins, draws, "
        "losses, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(guild, game, user, skill.mu, skill.sigma, skill.shown, games, wins, draws, losses,
          updated)
         for (guild, game, user), (skill, games, wins, draws, losses, updated)
         in sorted(table.items())])
