"""The same decision delivered twice at once (a double click, or two typed commands racing):
it is applied once — one action record, version + 1 — and the other interaction gets an
ephemeral "already done"-style answer (or changes nothing)."""

from __future__ import annotations

import asyncio
import random

from bot.games.raptor import texts
from engine import End, Phase, Pick, Side, format_action
from engine.raptor_game import side_of
from tests.databases import saves_held_together
from tests.e2e.players import Table, World
from tests.fakediscord import Outcome

R, S = Side.RAPTOR, Side.SCIENTIST


async def log_length(table: Table) -> int:
    return len(await table.world.observer.action_log(table.match_id))


def answers(outcomes: tuple[Outcome, Outcome], user_id: int) -> list[str]:
    """The ephemeral answers the clicker got, in both interactions."""
    return [r.content for out in outcomes for r in out.replies
            if r.visibility == "ephemeral" and r.user_id == user_id]


async def test_a_double_click_on_a_card_picks_once(world: World) -> None:
    table = await world.new_table()
    alice = table.raptor
    before = await table.match()
    n = await log_length(table)
    hand = await alice.open_hand()
    card = before.state.hands[R][1]
    both = await alice.click_twice(texts.card_label(R, card), message=hand)

    after = await table.match()
    assert after.version == before.version + 1 and after.state.picks[R] == card
    assert await log_length(table) == n + 1
    created = [r for out in both for r in out.records if r.visibility == "public"
               and not r.edit]
    assert [r.content for r in created] == []  # the pick is folded into the card
    shown = table.newest(alice, lambda m: "Pick your card" in m.labels)  # the match card
    assert shown is not None
    assert shown.content.count(f"{alice.user.mention} (raptor) ✅") == 1
    said = answers(both, alice.id)
    assert any(f"You picked **{texts.card_label(R, card)}**" in t for t in said), said
    refusals = [t for t in said if "You picked" not in t]
    assert all("lready" in t for t in refusals), said  # "already picked" / "Already done"


async def test_a_double_select_and_a_double_end_apply_once(world: World) -> None:
    rng = random.Random(4)
    table = await world.new_table()
    seen = {"select": 0, "end": 0}
    decisions = 0
    while min(seen.values()) == 0 and decisions < 80:
        match = await table.match()
        found = await table.next_decision(rng, match)
        assert found is not None, "the match ended before both cases came up"
        who, action = found
        turn = table.turn_message(match)
        menu = turn.select_menu("Choose an action") if turn else None
        ends = [b for b in turn.buttons if b["custom_id"].endswith(":end")] if turn else []
        kind = None
        if ends and not seen["end"] and seen["select"]:
            kind, action = "end", End()  # the player decides to stop here
        elif (menu is not None and not isinstance(action, End | Pick) and not seen["select"]
              and any(o["value"] == format_action(action) for o in menu["options"])):
            kind = "select"
        if kind is None:
            await table.play_decision(rng, match=match)
            decisions += 1
            continue
        n = await log_length(table)
        if kind == "end":
            both = await who.click_twice(ends[0]["label"], message=turn)
        else:
            both = tuple(await asyncio.gather(
                who.user.select(menu["custom_id"], values=[format_action(action)], message=turn),
                who.user.select(menu["custom_id"], values=[format_action(action)], message=turn)))
            for out in both:
                table.track(out)
        after = await table.match()
        assert after.version == match.version + 1, kind
        log = await table.world.observer.action_log(table.match_id)
        assert len(log) == n + 1 and log[-1][1:] == (who.seat, action)
        said = answers(both, who.id)
        assert len(said) == 1 and ("out of date" in said[0] or "lready" in said[0]), said
        seen[kind] += 1
        decisions += 1
    assert min(seen.values()) == 1, seen


async def test_the_same_command_typed_twice_at_once_applies_once(world: World) -> None:
    table = await world.new_table()
    bob = table.scientist
    before = await table.match()
    card = before.state.hands[S][0]
    n = await log_length(table)
    both = await asyncio.gather(bob.act(f"play {card}"), bob.act(f"play {card}"))
    after = await table.match()
    assert after.version == before.version + 1 and after.state.picks[S] == card
    assert await log_length(table) == n + 1
    said = sorted(answers(tuple(both), bob.id))
    assert len(said) == 2 and "You picked" in said[1] and "lready" in said[0], said
    assert after.state.phase is Phase.PICK


async def test_both_players_type_their_pick_at_the_same_moment_and_both_are_stored(
        world: World) -> None:
    table = await world.new_table()
    alice, bob = table.raptor, table.scientist
    before = await table.match()
    r_card = before.state.hands[R][0]
    s_card = next(c for c in before.state.hands[S] if c != r_card)  # not a tie (R5.3)
    n = await log_length(table)
    assert world.db is not None
    # both commands load the match before either saves: one save loses the version check
    async with saves_held_together(world.db) as changed:
        both = tuple(await asyncio.gather(alice.act(f"play {r_card}"),
                                          bob.act(f"play {s_card}")))
    assert sorted(changed) == [0, 1]
    after = await table.match()
    log = await table.world.observer.action_log(table.match_id)
    assert sorted((side_of(seat), a.card) for _, seat, a in log[n:]) == [(R, r_card),
                                                                          (S, s_card)]
    assert after.version == before.version + 2
    assert after.state.revealed == (r_card, s_card)  # both picks revealed together (R5.1)
    assert answers(both, alice.id) == [
        f"You picked **{texts.card_label(R, r_card)}** for round 1."]
    assert answers(both, bob.id) == [
        f"You picked **{texts.card_label(S, s_card)}** for round 1."]
