"""Self-test of the fake Discord harness with a small toy bot.

The toy bot uses the same discord.py features the Raptor bot will: an app command group,
autocomplete, ephemeral replies, deferral + follow-up with a PNG file, a DynamicItem button,
a select menu, a modal, DMs with a fallback, a user option and channel posts.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import DM, FakeDiscord, HarnessError, fake_discord

MOVES = ["A1", "B2", "C3", "D4", "E2", "E4", "E5", "F6"]


def tiny_png(color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 3), color).save(buf, format="PNG")
    return buf.getvalue()


class CountButton(discord.ui.DynamicItem[discord.ui.Button], template=r"toy:(?P<n>[0-9]+)"):
    """A counter that survives restarts: its state lives in the custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"toy:{n}",
                                           style=discord.ButtonStyle.primary))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str]) -> CountButton:
        return cls(int(match["n"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        meta = interaction.message.interaction_metadata if interaction.message else None
        if meta is not None and meta.user.id != interaction.user.id:
            await interaction.response.send_message("That's not your counter.", ephemeral=True)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.n + 1))
        view.add_item(discord.ui.Button(label="Frozen", disabled=True, custom_id="toy:frozen"))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class PickView(discord.ui.View):
    @discord.ui.select(placeholder="Pick a move", options=[
        discord.SelectOption(label=f"Move {m}", value=m) for m in MOVES[:4]])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You picked {select.values[0]}",
                                                ephemeral=True)


class AskModal(discord.ui.Modal, title="Tell me"):
    answer = discord.ui.TextInput(label="Answer", custom_id="answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"You said {self.answer.value}", ephemeral=True)


toy = app_commands.Group(name="toy", description="Toy commands")


@toy.command(description="Ephemeral pong")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong", ephemeral=True)


@toy.command(description="Echo a move")
@app_commands.describe(text="A move")
async def echo(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(f"echo: {text}")


@echo.autocomplete("text")
async def echo_complete(interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current.upper())]


@toy.command(description="Defer, then post a picture with a counter")
async def post(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0.05)  # "rendering"
    view = discord.ui.View(timeout=None)
    view.add_item(CountButton(0))
    embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
    await interaction.followup.send("board", embed=embed, view=view,
                                    file=discord.File(io.BytesIO(tiny_png()), "board.png"))


@toy.command(description="Pick a move from a menu")
async def pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Choose:", view=PickView(), ephemeral=True)


@toy.command(description="DM me")
async def dm(interaction: discord.Interaction) -> None:
    try:
        await interaction.user.send("psst, a secret")
    except discord.Forbidden as exc:
        if exc.code != 50007:
            raise
        await interaction.response.send_message("Your DMs are closed.", ephemeral=True)
    else:
        await interaction.response.send_message("Check your DMs.", ephemeral=True)


@toy.command(description="Hug someone")
async def hug(interaction: discord.Interaction, user: discord.Member) -> None:
    await interaction.response.send_message(f"{interaction.user.mention} hugs {user.mention} "
                                            f"({user.display_name})")


@toy.command(description="Post an announcement into a channel")
async def announce(interaction: discord.Interaction, channel: discord.TextChannel) -> None:
    target = interaction.client.get_channel(channel.id)
    try:
        await target.send("Announcement!")
    except discord.Forbidden as exc:
        await interaction.response.send_message(f"I can't post there ({exc.code}).",
                                                ephemeral=True)
    else:
        await interaction.response.send_message("Posted.", ephemeral=True)


@toy.command(description="Ask with a modal")
async def ask(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(AskModal())


@toy.command(description="Embeds an image it forgot to upload")
async def broken(interaction: discord.Interaction) -> None:
    embed = discord.Embed(title="Board").set_image(url="attachment://missing.png")
    await interaction.response.send_message(embed=embed)


@toy.command(description="Answers too late")
async def slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(0.3)
    await interaction.response.send_message("finally")


@toy.command(description="Render in a worker thread, then answer")
async def render(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True, ephemeral=True)
    await asyncio.to_thread(time.sleep, 0.3)  # longer than the harness's idle window
    await interaction.followup.send("rendered")  # inherits the defer's ephemerality
    await interaction.followup.send("and one for everyone")


async def turn_timer(channel: discord.abc.Messageable) -> None:
    await asyncio.sleep(60)
    await channel.send("time is up")


@toy.command(description="Start a long background timer")
async def timer(interaction: discord.Interaction) -> None:
    asyncio.create_task(turn_timer(interaction.channel))
    await interaction.response.send_message("timer started")


class ToyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.tree.add_command(toy)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CountButton)
        await self.tree.sync()


# --------------------------------------------------------------------------- tests


@pytest.fixture
async def fakediscord() -> AsyncIterator[FakeDiscord]:
    """Same as tests.fakediscord.fixture.fakediscord: a started FakeDiscord, no client yet."""
    async with FakeDiscord() as fake:
        yield fake


async def test_slash_ephemeral_only_for_caller(fakediscord: FakeDiscord) -> None:
    fake = fakediscord
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await fake.start_client(ToyBot())
    assert [c["name"] for c in fake.synced_commands()] == ["toy"]

    out = await alice.slash("toy ping")
    assert out.content == "pong"
    assert out.reply.visibility == "ephemeral" and out.reply.user_id == alice.id
    assert out.ack.callback_type == 4 and out.ack.ephemeral
    assert fake.ephemerals(alice)[-1].content == "pong"
    assert fake.ephemerals(bob) == [] and fake.messages(visible_to=bob) == []
    assert fake.public_messages() == []


async def test_autocomplete_and_echo(fakediscord: FakeDiscord) -> None:
    fake = fakediscord
    alice = fake.add_user("alice")
    await fake.start_client(ToyBot())
    choices = await alice.autocomplete("toy echo", "text", "e")
    assert [c["value"] for c in choices] == ["E2", "E4", "E5"]
    assert fake.acks[-1].callback_type == 8
    out = await alice.slash("toy echo", text="E2")
    assert out.reply.visibility == "public" and out.content == "echo: E2"
    with pytest.raises(HarnessError):
        await alice.slash("toy echo")  # missing required option
    with pytest.raises(HarnessError):
        await alice.slash("toy nope")


async def test_deferred_followup_png_and_dynamic_button() -> None:
    async with fake_discord(ToyBot(), users=["alice", "bob"]) as fake:
        alice, bob = fake.users["alice"], fake.users["bob"]
        out = await alice.slash("toy post")
        assert out.ack.callback_type == 5
        (reply,) = out.replies
        assert reply.visibility == "public" and reply.source == "followup"
        (att,) = reply.attachments
        assert att.filename == "board.png" and att.is_png
        assert att.image().size == (4, 3)
        assert reply.labels == ["Count 0"]
        assert reply.embeds[0]["image"]["url"] == "attachment://board.png"
        assert "Board" in reply.text

        click = await alice.click("Count 0")
        assert click.ack.callback_type == 7
        (edit,) = click.replies
        assert edit.edit and edit.message_id == reply.message_id
        assert edit.content == "count=1" and edit.labels == ["Count 1", "Frozen"]
        assert fake.message(reply.message_id).attachments[0].is_png  # file kept on edit

        with pytest.raises(HarnessError, match="disabled"):
            await alice.click("Frozen")

        # Someone else clicking is refused by the item's interaction_check.
        refused = await bob.click("Count 1")
        assert refused.reply.visibility == "ephemeral" and refused.reply.user_id == bob.id
        assert refused.content == "That's not your counter."
        assert fake.last_message(visible_to=alice).content == "count=1"


async def test_dynamic_button_survives_restart() -> None:
    async with fake_discord(ToyBot(), users=["alice"]) as fake:
        alice = fake.users["alice"]
        posted = (await alice.slash("toy post")).reply
        await fake.stop_client()
        with pytest.raises(HarnessError, match="no client"):
            await alice.click("Count 0")
        await fake.start_client(ToyBot())  # a brand-new bot instance, same fake Discord
        out = await alice.click("Count 0")
        assert out.reply.message_id == posted.message_id and out.content == "count=1"


async def test_select_menu_and_modal(fakediscord: FakeDiscord) -> None:
    fake = fakediscord
    alice = fake.add_user("alice")
    await fake.start_client(ToyBot())
    menu = await alice.slash("toy pick")
    assert menu.reply.ephemeral and menu.reply.selects[0]["placeholder"] == "Pick a move"
    out = await alice.select("Pick a move", values=["C3"])
    assert out.content == "You picked C3" and out.reply.ephemeral
    out = await alice.select("Pick a move", values=["Move D4"])  # by label works too
    assert out.content == "You picked D4"
    with pytest.raises(HarnessError):
        await alice.select("Pick a move", values=["Z9"])

    shown = await alice.slash("toy ask")
    assert shown.ack.callback_type == 9 and shown.modal["title"] == "Tell me"
    answered = await alice.submit_modal(answer="forty-two")
    assert answered.content == "You said forty-two"


async def test_dm_and_closed_dm_fallback(fakediscord: FakeDiscord) -> None:
    fake = fakediscord
    alice, bob = fake.add_user("alice"), fake.add_user("bob", dms_closed=True)
    await fake.start_client(ToyBot())
    out = await alice.slash("toy dm")
    assert [r.visibility for r in out] == ["dm", "ephemeral"]
    assert fake.dms(alice)[0].content == "psst, a secret"
    out = await bob.slash("toy dm")
    assert out.content == "Your DMs are closed." and fake.dms(bob) == []
    assert fake.rejections[-1].code == 50007

    # commands work from the DM channel as well
    out = await alice.slash("toy ping", in_channel=DM)
    assert out.reply.user_id == alice.id


async def test_user_and_channel_options(fakediscord: FakeDiscord) -> None:
    fake = fakediscord
    alice, bob = fake.add_user("alice"), fake.add_user("bob", global_name="Bobby")
    closed = fake.add_channel("read-only", bot_can_send=False)
    await fake.start_client(ToyBot())
    out = await alice.slash("toy hug", user=bob)
    assert out.content == f"{alice.mention} hugs {bob.mention} (Bobby)"

    out = await alice.slash("toy announce", channel=fake.channel)
    assert [r.source for r in out] == ["channel_post", "interaction_response"]
    assert fake.public_messages(fake.channel)[-1].content == "Announcement!"
    out = await alice.slash("toy announce", channel=closed)
    assert out.content == "I can't post there (50013)."
    assert fake.public_messages(closed) == []


async def test_double_click_and_latency(fakediscord: FakeDiscord) -> None:
    fake = fakediscord
    alice = fake.add_user("alice")
    await fake.start_client(ToyBot())
    await alice.slash("toy post")
    first, second = await alice.click_twice("Count 0")
    assert first.interaction_id != second.interaction_id
    assert first.acknowledged and second.acknowledged
    edits = [r for r in fake.records if r.edit]
    assert len(edits) == 2 and {e.content for e in edits} == {"count=1"}
    # gather() works too
    await asyncio.gather(alice.click("Count 1"), alice.click("Count 1"))
    assert len(fake.acks) == 5
    assert all(a.latency < 3.0 and not a.late for a in fake.acks)
    assert fake.unknown_routes == []


async def test_problems_are_reported() -> None:
    fake = FakeDiscord(ack_deadline=0.2, strict=False)
    async with fake:
        alice = fake.add_user("alice")
        bot = ToyBot()
        await fake.start_client(bot)
        with pytest.raises(HarnessError, match="late"):
            await alice.slash("toy slow")
        assert fake.acks[-1].late and fake.acks[-1].latency >= 0.2
        with pytest.raises(discord.NotFound):
            await bot.http.request(discord.http.Route("GET", "/nope/{x}", x=1))
        assert [u.path for u in fake.unknown_routes] == ["/api/v10/nope/1"]
        await alice.slash("toy broken")
        problems = fake.problems()
        assert any("late ack" in p for p in problems)
        assert any("unknown route" in p for p in problems)
        assert any("attachment://missing.png" in p for p in problems)
        with pytest.raises(HarnessError):
            fake.assert_clean()
    assert discord.http.Route.BASE.startswith("https://discord.com")


async def test_waits_for_worker_threads_but_not_for_timers(fakediscord: FakeDiscord) -> None:
    fake = fakediscord
    alice = fake.add_user("alice")
    await fake.start_client(ToyBot())
    out = await alice.slash("toy render")
    assert [(r.content, r.visibility) for r in out.replies] == [
        ("rendered", "ephemeral"), ("and one for everyone", "public")]
    started = time.monotonic()
    out = await alice.slash("toy timer")  # the 60 s timer task is "parked": don't wait for it
    assert out.content == "timer started" and time.monotonic() - started < 2
    # the timer task is cancelled when the fake stops


def test_record_mentioned_follows_allowed_mentions() -> None:
    """``Record.mentioned``: who Discord would notify for one version of a message (used by
    ``benchmarks/bench_channel.py`` to count pings)."""
    from tests.fakediscord import Record

    def rec(content: str, am: dict | None, components: list | None = None) -> Record:
        return Record(seq=1, message_id=9, channel_id=1, visibility="public", user_id=None,
                      content=content, components=components or [], allowed_mentions=am)

    text = "<@11> and <@!12>, then <@13>"
    assert rec(text, None).mentioned == {11, 12, 13}  # absent: Discord parses all
    assert rec(text, {"parse": ["users"]}).mentioned == {11, 12, 13}
    assert rec(text, {"parse": []}).mentioned == set()  # AllowedMentions.none()
    assert rec(text, {"parse": [], "users": ["12", "99"]}).mentioned == {12}
    v2 = [{"type": 17, "components": [{"type": 10, "content": "your move, <@14>"}]}]
    assert rec("", {"parse": [], "users": ["14"]}, v2).mentioned == {14}
