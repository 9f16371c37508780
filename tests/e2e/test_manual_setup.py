"""A manual-setup match (R4): every placement made with the turn message's menus."""

from __future__ import annotations

import random

import engine
import render
from engine import Phase, Side
from tests.e2e.players import World

R = Side.RAPTOR


async def test_manual_setup_placements_through_the_menus(world: World) -> None:
    rng = random.Random(5)
    table = await world.new_table(raptor="alice", scientist="bob", setup="manual")
    match = await table.match()
    assert match.state.phase is Phase.SETUP_MOTHER
    turn = table.turn_message(match)
    assert turn is not None and table.raptor.user.mention in turn.content
    assert "place the mother" in turn.content
    # the first placement: one menu with every legal space for the mother
    options = [o["value"] for o in turn.select_menu("Choose an action")["options"]]
    legal = [engine.format_action(a) for a in engine.legal_actions(match.state, R)]
    assert options == legal

    phases = []
    while match.state.phase is not Phase.PICK:
        phases.append(match.state.phase)
        await table.play_decision(rng, act_share=0.0)  # only menus, no typing
        match = await table.match()
    assert phases[0] is Phase.SETUP_MOTHER and Phase.SETUP_BABIES in phases
    assert phases[-1] is Phase.SETUP_SCIENTISTS
    assert len(phases) == 10  # 1 mother, 5 babies, 4 scientists (R4)
    placed = [a for _, _, a in await world.observer.action_log(table.match_id)]
    assert len(placed) == 10
    assert all(type(a).__name__.startswith("Place") for a in placed)

    # setup done: the setup's card becomes its record, then round 1's card with the board
    # and its "Pick your card"
    summary = table.newest(table.raptor, lambda m: "setup done" in m.content)
    assert summary is not None and summary.visibility == "public"
    for action in placed:
        assert f"`{engine.format_action(action)}`" in summary.content
    assert summary.attachments == []
    card = table.raptor.round_message()
    assert card is not None
    assert card.attachments[0].data == render.render_board(engine.view(match.state, None))
    # and the match goes on with picks
    await table.play_decision(rng, act_share=0.0)
    assert (await table.match()).state.phase is Phase.PICK
