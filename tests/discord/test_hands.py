# ruff: noqa: F811 - the fixtures of tests/match/conftest.py, imported by name
"""A hand message's text and image: the hand once — the image, and the card list
as text only when the image cannot be made; in a DM a jump link and no command."""

from __future__ import annotations

import logging

from bot import texts
from bot.discord.hands import Hands
from bot.discord.links import jump_url
from bot.discord.post_store import PostStore
from bot.games.raptor import texts as raptor_texts
from engine import Side
from engine.raptor_game import SIDE_SEATS
from tests.match.conftest import (  # noqa: F401 - fixtures
    CHANNEL,
    GUILD,
    backend,
    clock,
    db,
    db_path,
    db_target,
    start_match,
    svc,
)

S = Side.SCIENTIST


class _Images:
    def __init__(self, fail: bool) -> None:
        self.fail = fail

    async def private(self, match, seat, lang="en") -> bytes:
        if self.fail:
            raise OSError("the render pool is gone")
        return b"\x89PNG fake hand"


async def test_the_card_list_only_when_the_image_fails(svc, caplog):
    m = await start_match(svc)
    store = PostStore(svc.db)
    await store.remember(m.id, "round", CHANNEL, 555, "Round 1")
    cards = [raptor_texts.card_label(S, c) for c in m.state.hands[S]]

    text, png = await Hands(None, svc, _Images(fail=False), store)._hand(
        m, SIDE_SEATS[S], in_dm=True)
    assert png == b"\x89PNG fake hand"
    jump = texts.to_match(raptor_texts.match_title(m), jump_url(GUILD, CHANNEL, 555))
    assert text == (f"**Match #{m.id} · your hand** (scientist, round 1) · {jump}\n"
                    f"{raptor_texts.hand_text(m, S, listed=False).split(chr(10), 1)[1]}\n"
                    "Pick a card with the buttons below.")
    assert all(c not in text for c in cards)

    with caplog.at_level(logging.ERROR, logger="bot.discord.hands"):
        text, png = await Hands(None, svc, _Images(fail=True), store)._hand(
            m, SIDE_SEATS[S], in_dm=False)
    assert png is None and all(f"**{c}**" in text for c in cards)
    assert text.endswith("(or `/raptor act play <n>`).")
    assert "hand image failed" in caplog.text
