"""Forged clicks on Raptor Race's controls: every custom id is hostile input. A click is
resolved from storage and checked — the match (of the race), its server, channel and card
message, the clicker's seat and turn, the card's version, the values against the roll on
the table — and a bad one gets one ephemeral answer, saying what is legal where there is
something to choose, and changes nothing."""

from __future__ import annotations

import pytest

from bot import texts
from engine.race import Phase
from tests.discord.conftest import World
from tests.discord.race_helpers import play_decision, race_card, table
from tests.fakediscord import Outcome


def refused(out: Outcome, user) -> str:
    """The one answer of a refused click: ephemeral, to its clicker, nothing public."""
    (reply,) = out.replies
    assert reply.visibility == "ephemeral" and reply.user_id == user.id
    assert [r for r in out.records if r.visibility == "public"] == []
    return reply.content


@pytest.fixture
async def race(world: World, monkeypatch):
    m = await table(world, monkeypatch, [world.alice, world.bob])
    people = [world.alice, world.bob]
    return m, people[m.state.seat], people[1 - m.state.seat]


async def unchanged(world: World, m) -> None:
    after = await world.service.get_match(m.id)
    assert after.version == m.version and after.state == m.state


async def test_a_spectator_or_the_player_waiting_changes_nothing(world: World, race):
    m, acting, waiting = race
    carol = world.fake.add_user("carol")
    card = race_card(world)
    keep = f"race:m:{m.id}:v:{m.version}:keep"
    out = await carol.forge_click(keep, message=card, values=["0"])
    assert refused(out, carol) == texts.NOT_YOUR_MATCH
    out = await carol.click(custom_id=f"{keep}:all", message=card)
    assert refused(out, carol) == texts.NOT_YOUR_MATCH
    out = await waiting.forge_click(keep, message=card, values=["0"])
    assert refused(out, waiting) == (f"It's not your turn: seat {m.state.seat + 1} is "
                                     "setting dice aside.")
    await unchanged(world, m)


@pytest.mark.parametrize("values", [["4"], ["9"], ["0", "0"], ["a"], ["x"], ["-1"],
                                    ["0", "1", "2", "3", "4"], ["00"], [""]])
async def test_keep_values_that_name_no_die_rolled_are_refused_with_the_legal_keeps(
        world: World, race, values):
    m, acting, _ = race
    card = race_card(world)
    out = await acting.forge_click(f"race:m:{m.id}:v:{m.version}:keep", message=card,
                                   values=values)
    said = refused(out, acting)
    dice = "".join(f.value for f in m.state.rolled)
    assert said.startswith(f"That is no choice of the dice rolled now (`{dice}`)")
    assert f"Legal now: `keep {dice}`" in said or f"`keep {dice}`" in said
    await unchanged(world, m)


async def test_ids_of_no_race_control_or_of_another_message_are_refused(world: World, race):
    m, acting, _ = race
    card = race_card(world)
    elsewhere = world.fake.add_channel("elsewhere")
    aside = (await acting.slash("race status", in_channel=elsewhere)).reply
    v = m.version
    cases = [
        (f"race:m:{m.id}:v:{v}:keep:all", aside, True),   # not in the race's channel
        (f"race:m:99:v:{v}:keep:all", card, True),          # no such match
        (f"race:m:{'9' * 20}:v:{v}:keep:all", card, True),  # no id storage can hold
        (f"race:m:{m.id}:v:{v}:keep:some", card, True),     # no control has this id
        (f"raptor:m:{m.id}:v:{v}:end", card, True),         # another game's control
        (f"race:m:{m.id}:r:{m.state.turn}:pick:1", card, True),  # Raptor's, on a race
    ]
    for custom_id, message, carried in cases:
        out = await acting.forge_click(custom_id, message=message, carried=carried)
        assert refused(out, acting) == texts.NOT_THIS_MESSAGE, custom_id
    # an id the card does not carry (a version still to come) reaches the same checks
    out = await acting.forge_click(f"race:m:{m.id}:v:{v + 5}:keep:all", message=card,
                                   carried=False)
    assert "out of date" in refused(out, acting)
    await unchanged(world, m)


async def test_a_stale_card_and_an_illegal_step_change_nothing(world: World, race):
    m, acting, _ = race
    old = race_card(world)
    m = await play_decision(world, acting)  # keep all: the move begins, the card moves on
    assert m.state.phase is Phase.MOVE
    out = await acting.forge_click(f"race:m:{m.id}:v:{m.version - 1}:keep:all", message=old)
    assert "out of date" in refused(out, acting)
    card = race_card(world)
    out = await acting.forge_click(f"race:m:{m.id}:v:{m.version}:do", message=card,
                                   values=["G>E12"])
    said = refused(out, acting)
    assert "'G>E12' is not legal now" in said and "legal: " in said
    out = await acting.forge_click(f"race:m:{m.id}:v:{m.version}:keep", message=card,
                                   values=["0"])
    assert "out of date" in refused(out, acting)  # no rolling in the move
    await unchanged(world, m)
