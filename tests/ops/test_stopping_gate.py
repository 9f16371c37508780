"""While the bot stops, a new interaction changes nothing and gets an ephemeral "stopping"
answer; an autocomplete offers nothing (``bot.shutdown.Gate``). Through the real client
against the fake Discord, in this process."""

from __future__ import annotations

from bot import texts
from engine import Side
from tests.e2e.players import World


async def test_interactions_during_a_stop_are_answered_and_change_nothing(tmp_path):
    async with World.open(tmp_path) as world:
        table = await world.new_table(raptor="alice", scientist="bob")
        alice, bob = table.raptor, table.scientist
        before = await table.match()
        log_before = await world.observer.action_log(table.match_id)
        round_message = alice.round_message()
        assert round_message is not None
        assert await alice.autocomplete("") != []  # open: suggestions

        world.bot.gate.close()  # what RaptorBot.close does first on SIGTERM

        clicked = await alice.click("Pick your card", message=round_message)
        assert [(r.visibility, r.user_id, r.content) for r in clicked.replies] == [
            ("ephemeral", alice.id, texts.STOPPING)]
        typed = await bob.act("play 1")
        assert [(r.visibility, r.user_id, r.content) for r in typed.replies] == [
            ("ephemeral", bob.id, texts.STOPPING)]
        challenge = await world.user("carol").slash("raptor challenge",
                                                    in_channel=world.fake.add_channel("other"),
                                                    user=world.user("dave"))
        assert [(r.visibility, r.content) for r in challenge.replies] == [
            ("ephemeral", texts.STOPPING)]
        assert await alice.autocomplete("") == []  # nothing offered

        after = await table.match()
        assert (after.version, after.state) == (before.version, before.state)
        assert await world.observer.action_log(table.match_id) == log_before
        assert await world.observer.pending_challenges(world.fake.channel.id) == []
        assert world.bot.gate.in_flight == 0
        assert before.state.phase is not None and Side.RAPTOR in before.players
