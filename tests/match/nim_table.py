"""The toy game (``tests/toy_game.py``, secret Nim, 2 to 4 seats) hosted by the match layer,
for its tests of tables of more than two seats: the plug-in, the toy AI, a fixture that
registers the game, and a helper that plays a match out."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest

from bot import games
from bot.games.base import GamePlugin
from bot.match import Match, MatchService
from engine.messages import Text
from tests.toy_game import NIM, NimError, Take


class NimPlugin(GamePlugin):
    """Secret Nim on the platform (no Discord presentation, no AI module: the service under
    test gets :func:`take_one` as its chooser)."""

    game = NIM
    title = Text("Secret Nim")
    ai_levels = ("easy",)
    ai_module = "tests.toy_game"
    errors = (NimError,)
    ui_module = "tests.toy_game"


def take_one(view, *, level, seed, time_budget):
    """The toy AI: one stone (the last seat left takes the rest, as it must)."""
    return Take(view.pile) if len(view.out) == len(view.cards) - 1 else Take(1)


@pytest.fixture
def nim() -> Iterator[None]:
    """Secret Nim registered as the game ``"nim"`` for the test."""
    games.register(NimPlugin())
    yield
    games.unregister("nim")


async def play_out(svc: MatchService, match_id: int, takes: Mapping[int, int]) -> Match:
    """Play the match to its end: each person's seat takes ``takes[user]`` stones when it
    may (else what it must), the AI seats through :meth:`MatchService.play_ai`."""
    m = await svc.get_match(match_id)
    while m.active:
        await svc.play_ai(m.id)
        m = await svc.get_match(m.id)
        if not m.active:
            break
        [seat] = m.to_act()
        legal = NIM.legal_actions(m.state, seat)
        wish = Take(min(takes[m.user_of(seat)], m.state.pile))
        action = wish if wish in legal else legal[0]
        m = (await svc.act(m.id, m.user_of(seat), NIM.format_action(action),
                           seat=seat)).match
    return m
