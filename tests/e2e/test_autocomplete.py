"""``/raptor act`` autocomplete offers only legal actions of the user who types, at most 25
(Discord's limit), compared at every decision of a few rounds with ``engine.legal_actions``
on the stored state; and a chosen suggestion, typed back, is accepted."""

from __future__ import annotations

import random

import engine
from engine import Phase, Side
from tests.e2e.players import World

R, S = Side.RAPTOR, Side.SCIENTIST
MAX_CHOICES = 25


def squash(text: str) -> str:
    return "".join(text.lower().split())


async def test_autocomplete_offers_exactly_the_legal_actions(world: World) -> None:
    rng = random.Random(77)
    carol = world.user("carol")
    table = await world.new_table()
    phases: set[Phase] = set()
    capped = typed_checks = 0
    while True:
        match = await table.match()
        if not match.active or match.state.round > 4:
            break
        st = match.state
        phases.add(st.phase)
        for player in table.players:
            choices = await player.autocomplete("")
            values = [c["value"] for c in choices]
            if player.side not in engine.to_act(st):
                assert choices == [], (player, st.phase)
                continue
            legal = [engine.format_action(a) for a in engine.legal_actions(st, player.side)]
            assert len(values) == len(set(values)) == min(len(legal), MAX_CHOICES)
            assert set(values) <= set(legal)
            assert all(len(c["name"]) <= 100 for c in choices)
            capped += len(legal) > MAX_CHOICES
            if st.phase is Phase.PICK:
                # only the player's own cards (R11): never the opponent's
                assert sorted(values) == [f"play {c}" for c in sorted(st.hands[player.side])]
            # typing narrows the list to legal actions that contain what was typed
            want = rng.choice(legal)
            typed = want[: max(1, len(want) // 2)]
            narrowed = await player.autocomplete(typed)
            got = [c["value"] for c in narrowed]
            assert set(got) <= set(legal) and len(got) <= MAX_CHOICES
            assert all(squash(typed) in squash(c["value"]) or squash(typed) in squash(c["name"])
                       for c in narrowed)
            matching = [n for n in legal if squash(typed) in squash(n)]
            if len(matching) <= MAX_CHOICES:
                assert set(matching) <= set(got)
            typed_checks += 1
        # someone who is not playing is offered nothing
        assert await carol.autocomplete("raptor act", "action", "", in_channel=table.channel) == []
        # the deciding player takes one of the suggestions by typing it back (every third
        # decision; the others go through the controls)
        if rng.random() < 0.34:
            found = await table.next_decision(rng, match)
            assert found is not None
            who, _ = found
            offered = [c["value"] for c in await who.autocomplete("")]
            choice = rng.choice(offered)
            out = await who.act(choice)
            assert out.reply.visibility == "ephemeral"
            after = await table.match()
            assert after.version == match.version + 1
            log = await world.observer.action_log(table.match_id)
            assert engine.format_action(log[-1][2]) == choice
        else:
            await table.play_decision(rng, match=match, act_share=0.0)
    assert {Phase.PICK, Phase.EFFECT, Phase.AP} <= phases
    assert capped > 0, "no decision had more than 25 legal actions"
    assert typed_checks > 10
