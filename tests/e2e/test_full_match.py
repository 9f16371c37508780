"""A whole match played only through Discord, then audited for hidden information (R11).

alice (raptor) challenges bob (scientist) with ``/raptor challenge``; bob clicks Accept; then
each decision is "thought" by the easy AI on the deciding player's own view of the stored
match (``engine.view(state, side)``) and made the way a person would: "Pick your card" and a
card button, the turn message's select menus (directly, or through a figurine / area menu)
and End turn — or, one time in four, typed with ``/raptor act``. After every decision the
stored match must have moved by exactly that decision (see ``Table.play_decision``).

alice gets her hand by DM (``/raptor settings dm_hand:True``) and bob in ephemeral messages,
so both private channels are audited. The match is played once per module (it takes a
while: every turn message carries a freshly rendered board), and the tests below look at the
recording from different angles.
"""

from __future__ import annotations

import io
import logging
import random
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio
from PIL import Image

import engine
import render
from bot.games.raptor import sides as rs
from bot.games.raptor import texts
from bot.match import Match
from engine import Phase, Side
from tests.e2e.audit import AuditReport, audit
from tests.e2e.conftest import check_acks
from tests.e2e.players import Table, World

pytestmark = pytest.mark.asyncio(loop_scope="module")

R, S = Side.RAPTOR, Side.SCIENTIST


class _LogLines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}")


@dataclass
class Played:
    world: World
    table: Table
    final: Match
    report: AuditReport
    log_lines: list[str]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Played]:
    root = logging.getLogger()
    saved_level = root.level
    lines = _LogLines()
    root.addHandler(lines)
    root.setLevel(logging.INFO)  # what the bot logs by default (RAPTOR_LOG_LEVEL=INFO)
    try:
        async with World.open(tmp_path_factory.mktemp("full"), seed=7_000_017) as world:
            alice = world.user("alice")
            out = await alice.slash("raptor settings", dm_hand=True)
            assert "Hand by DM: **on**" in out.content
            table = await world.new_table(raptor="alice", scientist="bob")
            final = await table.play_until_over(random.Random(11), act_share=0.25)
            report = audit(table)
            yield Played(world, table, final, report, list(lines.lines))
            check_acks(world)
            world.fake.assert_clean()
    finally:
        root.removeHandler(lines)
        root.setLevel(saved_level)


async def test_the_match_reaches_a_winner(played: Played) -> None:
    world, table, final = played.world, played.table, played.final
    assert not final.active and final.status == "finished"
    assert final.state.is_over and rs.result(final) == final.state.winner.value
    assert final.reason == final.state.reason.value
    assert final.state.round >= 3 and table.decisions >= 20
    # the stored log replays to the stored state: nothing was applied twice or skipped
    replayed = await world.observer.replayed_state(table.match_id)
    assert replayed.to_json() == final.state.to_json()
    log = await world.observer.action_log(table.match_id)
    assert len(log) == table.decisions

    # the result is announced publicly: its first line names the winner and how, with a
    # Rematch button; the last card shows the final board
    result = table.newest(table.raptor, lambda m: "is over" in m.content and m.labels)
    assert result is not None and result.visibility == "public"
    winner = table.player(final.state.winner)
    first = result.content.splitlines()[0]
    assert f"{winner.user.mention} ({winner.side.value}) wins" in first
    assert texts.REASONS[final.reason] in first
    assert result.labels == ["Rematch"]
    card = table.newest(table.raptor, lambda m: bool(m.attachments))
    assert card is not None and card.components == [] and "the match is over" in card.content
    assert card.attachments[0].data == render.render_board(engine.view(final.state, None))
    # the parent channel holds one line for the match: the result and a link to the card
    assert table.parent is not None
    (line,) = world.fake.public_messages(table.parent)
    assert line.components == [] and first in line.content
    assert f"/{table.channel.id}/{card.id})" in line.content
    # the end is marked announced once posted: no later timer pass posts it again
    stored = await world.observer.get_match(table.match_id)
    assert stored.end_announced_at is not None and stored.end_announced_at >= final.updated_at
    assert await world.observer.endings_to_announce(now=time.time() + 3600) == []


def round_of(table: Table, seq: int) -> int:
    """The round the match was in right after the record ``seq`` was made."""
    for step in table.timeline:
        if step.seq >= seq:
            return step.match.state.round
    return table.timeline[-1].match.state.round


async def test_a_round_is_quiet_in_the_thread(played: Played) -> None:
    """A quiet thread: per round in the match's thread, at most 2 new public messages
    (the card and a ping), at most 1 posted board image, at most 1 ping per player."""
    world, table = played.world, played.table
    created = [r for r in world.fake.records if r.channel_id == table.channel.id
               and r.visibility == "public" and not r.edit]
    result = created[-1]
    assert result.labels == ["Rematch"]
    messages: Counter[int] = Counter()
    images: Counter[int] = Counter()
    pings: Counter[tuple[int, int]] = Counter()
    for r in created[:-1]:
        rnd = round_of(table, r.seq)
        messages[rnd] += 1
        images[rnd] += bool(r.attachments)
        for user in r.pinged:
            pings[rnd, user] += 1
    rounds = played.final.state.round
    assert sorted(messages) == list(range(1, rounds + 1))
    assert max(messages.values()) <= 2 and max(images.values()) == 1, (messages, images)
    assert max(pings.values()) == 1, pings
    assert set(result.pinged) <= {table.raptor.id, table.scientist.id}
    # the cards are edited in place: many more edits than cards
    edits = [r for r in world.fake.records if r.channel_id == table.channel.id and r.edit]
    assert len(edits) > 3 * rounds


async def test_no_public_control_is_left_once_the_match_is_over(played: Played) -> None:
    world, table = played.world, played.table
    mid = table.match_id
    prefixes = (f"raptor:m:{mid}:v:", f"raptor:m:{mid}:r:")
    live = [(r.content, r.labels) for r in world.fake.public_messages()
            if any((c.get("custom_id") or "").startswith(prefixes) for c in r.walk())]
    assert live == []


async def test_board_images_decode_and_follow_the_game(played: Played) -> None:
    world, final = played.world, played.final
    boards = []
    seen: set[int] = set()
    for r in world.fake.records:
        for a in r.attachments:
            if r.visibility == "public" and a.id not in seen:
                seen.add(a.id)
                assert a.filename == "board.png"
                boards.append(a.data)
    assert len(boards) >= final.state.round + 1  # the start, and at least one per round
    for data in boards:
        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.format == "PNG" and image.size == render.BOARD_IMAGE_SIZE
    assert len(set(boards)) >= final.state.round  # the pictures change as the game goes
    summaries = [r for r in world.fake.public_messages() if "summary**" in r.content]
    assert len(summaries) == final.state.round - 1  # each round's card became its record
    assert all(r.attachments == [] and r.components == [] for r in summaries)
    cards = [r for r in world.fake.records if r.visibility == "public" and not r.edit
             and r.attachments]  # one new card, with the board, per round
    assert len(cards) == final.state.round
    pictures = [r.attachments[0].data for r in cards]
    assert all(a != b for a, b in zip(pictures, pictures[1:], strict=False))


async def test_nothing_hidden_reaches_the_wrong_eyes(played: Played) -> None:
    report = played.report
    assert report.findings == []
    # the audit looked at a real amount of traffic
    rounds = played.final.state.round
    assert report.public >= 4 * rounds and report.private >= 2 * rounds
    assert report.hand_checks >= 50 and report.face_down_checks >= rounds
    assert report.boards >= rounds + 1  # byte-identical to the public render
    assert report.hands >= 2 * rounds  # alice's DMs and bob's ephemerals, each its own render


async def test_face_down_picks_stay_secret_until_the_reveal(played: Played) -> None:
    """Round by round: from a pick to the reveal, the picked card's label appears in no
    public message and in nothing shown to the opponent (except, under observation, the
    scientist's card shown to the raptor, R5.2)."""
    world, table = played.world, played.table
    steps = table.timeline
    checked = observed = 0
    for before, after in zip(steps, steps[1:], strict=False):
        st = after.match.state
        for side in (R, S):
            card = st.picks[side]
            if card is None or st.revealed is not None:
                continue
            label = texts.card_label(side, card)
            shown_to_opponent = side is S and st.observation
            opponent = table.player(side.other).id
            for r in world.fake.records:
                if not before.seq < r.seq <= after.seq:
                    continue
                if r.visibility == "public" or (r.user_id == opponent
                                                and not shown_to_opponent):
                    assert label not in r.text, (label, r)
                    checked += 1
                    observed += shown_to_opponent
    assert checked > 0 and observed > 0


async def test_the_hand_images_are_private(played: Played) -> None:
    world, table = played.world, played.table
    alice, bob = table.raptor, table.scientist
    hands = [(r.visibility, r.user_id) for r in world.fake.records
             for a in r.attachments if a.filename == "hand.png"]
    assert ("dm", alice.id) in hands and ("ephemeral", bob.id) in hands
    assert set(hands) <= {("dm", alice.id), ("ephemeral", alice.id), ("ephemeral", bob.id)}
    # the card buttons live only in private messages of their player
    for r in world.fake.records:
        for c in r.walk():
            if ":pick:" in (c.get("custom_id") or ""):
                assert r.visibility in ("dm", "ephemeral"), r


async def test_log_lines_hold_no_card_and_no_seed(played: Played) -> None:
    final, lines = played.final, played.log_lines
    assert any("picked a card" in line for line in lines)  # the capture worked
    labels = {texts.card_label(sd, c) for sd in (R, S) for c in range(1, 10)}
    for line in lines:
        assert str(final.seed) not in line, line
        assert not any(label in line for label in labels), line
        assert "play " not in line.lower(), line


async def test_every_kind_of_control_was_used(played: Played) -> None:
    table = played.table
    phases = {step.match.state.phase for step in table.timeline}
    assert {Phase.PICK, Phase.EFFECT, Phase.AP} <= phases
    assert sum(table.used.values()) == table.decisions
    for kind in ("card button", "action menu", "group menu", "end button", "act"):
        assert table.used[kind] > 0, table.used
