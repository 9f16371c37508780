"""Raptor Race on Discord, end to end through the fake Discord: a practice race against AI
seats to the finish, a race of four people (pings to the player to play only, refusals to the
others, a seat that runs out of time and stays ranked, RR3.6) in English and in Traditional
Chinese, the secret card shown to its holder alone (RR9.2), and the scoring laid out per
player (RR7)."""

from __future__ import annotations

import pytest

import engine.race as race
from bot.discord.presentation import ui_of
from bot.games.race import texts as race_texts
from bot.i18n import tr
from engine.messages import Text
from engine.race import CARDS, Phase
from tests.discord.conftest import World
from tests.discord.race_helpers import ids, play_decision, race_card, table

MAX_DECISIONS = 400


async def test_a_practice_race_against_the_ai_to_the_finish(world: World) -> None:
    fake, alice = world.fake, world.alice
    bot_id = fake.bot_user.id
    await alice.slash("race settings", dm_hand=True)
    out = await alice.slash("race practice", players=3, level="easy", board="jungle")
    start = out.reply
    assert start.visibility == "public" and start.content.startswith(
        "**Race #1** — a new practice race: ")
    m = await world.match()
    me = m.seat_of(alice.id)
    assert m.game == "race" and m.seats == 3 and m.options == {"board": "jungle"}
    assert [p.ai for p in m.players].count("easy") == 2 and m.players[me].human
    assert all(p.user_id == bot_id for p in m.players if p.ai)
    assert f"{alice.mention} (seat {me + 1})" in start.content and "Jungle" in start.content
    # the AI played up to alice's turn; the card asks her, and pings nobody (she started it)
    assert m.state.seat == me and m.state.phase is Phase.ROLL
    card = race_card(world)
    assert card.content.startswith(f"**Race #1 · turn {m.state.turn}** — {alice.mention} "
                                   f"(seat {me + 1}), your turn: set aside one or more of "
                                   "the dice rolled")
    keep = card.select_menu(f"race:m:1:v:{m.version}:keep")
    faces = [o["description"] for o in keep["options"] if o["value"] != "a"]
    assert faces == [f.value for f in m.state.rolled]
    assert keep["max_values"] == len(keep["options"])
    assert card.labels[-2:] == ["Keep all", "Your Top-3 card"]
    assert card.files["board.png"].startswith(b"\x89PNG")
    # the secret card, to alice alone
    out = await alice.click("Your Top-3 card")
    (hand,) = out.replies
    mine = m.state.cards[me]
    assert hand.visibility == "ephemeral" and hand.user_id == alice.id
    assert hand.content.startswith(f"**Your Top-3 card** (#{mine}, Race #1, seat {me + 1}):")
    first = race.RAPTOR_NAMES[CARDS[mine][0]]
    assert f"1. **{first}** — 10 points if it is first" in hand.content
    assert hand.files["hand.png"].startswith(b"\x89PNG")
    # and by DM, once, when the race began (alice asked for it), whoever played first
    dms = [r for r in fake.dms(alice) if r.content.startswith("**Your Top-3 card**")]
    assert [r.content.split("\n")[:2] for r in dms] == [hand.content.split("\n")[:2]]
    assert dms[0].files["hand.png"] == hand.files["hand.png"]

    turns_played = 0
    for n in range(MAX_DECISIONS):
        m = await world.service.get_match(m.id)
        if not m.active:
            break
        assert m.state.seat == me  # the AI seats play on their own
        before = m.state.turn
        m = await play_decision(world, alice, keep_first=n % 3 == 0, typed=n % 5 == 4)
        turns_played += m.state.turn != before or not m.active
    assert not m.active and m.state.is_over and turns_played >= 2
    public = fake.public_messages(fake.channel)
    # each card of a finished turn became its record (the turns the AI played after it
    # included), without image or controls
    records = [r for r in public if r.content.startswith("**Race #1 · turn")]
    assert records and all(not r.files and not r.components for r in records)
    assert any("'s turn: `" in r.content for r in records)
    result = public[-1]
    lines = result.content.split("\n")
    assert lines[0].startswith("🏁 **Race #1 is over: ")
    assert lines[1].startswith("The finish: ")
    scores = race.card_scores(m.state)
    for seat in range(3):
        card_no = m.state.cards[seat]
        line = next(x for x in lines[2:] if f"card #{card_no}:" in x)
        assert f"**{scores[seat].total}** point" in line and f"bonus {scores[seat].bonus}" in line
        assert line.startswith(f"**{m.players[seat].place}.** ")
    assert result.labels == ["Rematch"]
    assert [r.pinged for r in fake.records if not r.edit and r.pinged] == []  # alice started
    assert fake.problems() == []


def written(lang: str, text: Text) -> str:
    """``text`` as a reader of ``lang`` reads it."""
    return tr(text, lang)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
async def test_four_people_race_with_pings_refusals_and_a_timeout(world: World, monkeypatch,
                                                                  lang: str) -> None:
    fake = world.fake
    locale = "en-US" if lang == "en" else "zh-TW"
    if lang != "en":
        await world.service.set_guild_language(fake.guild_id, lang)
    people = [world.alice, world.bob, fake.add_user("carol", locale=locale),
              fake.add_user("dave", locale=locale)]
    if lang != "en":
        for user in people[:2]:
            await user.slash("race settings", language=lang)
    m = await table(world, monkeypatch, people, board="jungle")
    assert [p.user_id for p in m.players] == [u.id for u in people]
    assert all(p.human for p in m.players) and not m.practice
    first = m.state.first
    start = fake.public_messages(fake.channel)[0]
    ui = ui_of("race")
    said = Text("{line}\n{help}", line=ui.start_line(m), help=ui.start_help(m))
    assert start.content.startswith(written(lang, said))
    assert lang == "en" or written(lang, said) != written("en", said)
    if lang == "en":
        assert start.content.startswith("**Race #1** — a new race: ")
    card = race_card(world)
    assert people[first].mention in card.content
    # the first card pings the first player unless they started the race
    assert card.pinged == (() if first == 0 else (people[first].id,))

    # a player whose turn it is not is refused, and nothing changes
    other = people[(first + 1) % 4]
    version = m.version
    out = await other.click(custom_id=f"race:m:{m.id}:v:{version}:keep:all")
    (refusal,) = out.replies
    assert refusal.visibility == "ephemeral" and refusal.content == written(lang, Text(
        "It's not your turn: {doing}.", doing=Text("{seat} is setting dice aside",
                                                   seat=Text("seat {n}", n=first + 1))))
    assert (await world.match()).version == version
    # autocomplete: the player to play gets the legal keeps, the others nothing
    choices = await people[first].autocomplete("race act", "action", "keep")
    assert choices and all(c["value"].startswith("keep ") for c in choices)
    assert await other.autocomplete("race act", "action", "keep") == []

    pings: list[tuple[int, ...]] = []
    left = None
    for n in range(MAX_DECISIONS):
        m = await world.service.get_match(m.id)
        if not m.active:
            break
        if m.state.turn == 4 and left is None and m.state.phase is Phase.ROLL:
            left = m.state.seat  # this seat's time runs out: it leaves, the race goes on
            world.clock.advance(12 * 3600)  # half the turn's time: a reminder to them alone
            events = await world.bot.flow.timers.run_once()
            assert [e.kind for e in events] == ["reminder"]
            reminder = fake.public_messages(fake.channel)[-1]
            assert reminder.content == written(lang, race_texts.reminder_text(
                m, [people[left].id]))
            assert lang != "en" or reminder.content.startswith(
                f"⏰ {people[left].mention}, Race #1 is waiting for your turn: set aside")
            assert reminder.pinged == (people[left].id,)
            world.clock.advance(12 * 3600)
            events = await world.bot.flow.timers.run_once()
            assert [e.kind for e in events] == ["seat_left"]
            after = await world.service.get_match(m.id)
            assert after.active and left in after.state.forfeited
            assert after.state.seat != left and after.players[left].left == "timeout"
            assert any(people[left].mention in r.content and "⏰" in r.content
                       for r in fake.public_messages(fake.channel)[-3:])
            continue
        seen = len(fake.records)
        user = people[m.state.seat]
        after = await play_decision(world, user, keep_first=n % 4 == 1, typed=n % 6 == 5)
        pinged = [r.pinged for r in fake.records[seen:] if not r.edit and r.pinged]
        if after.active:  # the turn passed: its new card pings the next player, alone
            nxt = people[after.state.seat]
            passed = after.state.turn != m.state.turn and nxt is not user
            assert pinged == ([(nxt.id,)] if passed else [])
            assert not passed or race_card(world).pinged == (nxt.id,)
            pings += pinged
    final = await world.service.get_match(m.id)
    assert not final.active and final.state.is_over
    assert left is not None and left in final.state.forfeited
    # the one who left is pinged no more
    assert pings and all(p != (people[left].id,) for p in pings[-3:])
    result = fake.public_messages(fake.channel)[-1]
    lines = result.content.split("\n")
    assert len(lines) == 2 + 4  # headline, the finish, a line per player
    outcome = race.outcome(final.state)
    for seat in range(4):
        line = next(x for x in lines[2:] if people[seat].mention in x)
        assert line.startswith(f"**{outcome.places[seat]}.** ")
        assert f"#{final.state.cards[seat]}" in line
    left_word = written(lang, Text("left the race"))
    assert left_word in next(x for x in lines[2:] if people[left].mention in x)
    assert final.players[left].place == outcome.places[left]  # ranked all the same (RR3.6)
    assert lines[0] == written(lang, race_texts.result_headline(final, race_texts.seated))
    if lang != "en":
        assert lines[0] != written("en", race_texts.result_headline(final, race_texts.seated))
    assert fake.problems() == []


async def test_the_card_and_its_controls_stay_public_and_carry_the_race_ids(world: World,
                                                                            monkeypatch):
    m = await table(world, monkeypatch, [world.alice, world.bob])
    card = race_card(world)
    assert all(i.startswith(f"race:m:{m.id}:") for i in ids(card))
    hand = world.fake.ephemerals(world.alice)
    assert hand == []  # nothing private was sent unasked


async def test_a_player_who_resigns_stays_ranked_and_the_race_is_replayed(world: World
                                                                         ) -> None:
    fake, alice = world.fake, world.alice
    await alice.slash("race practice", players=2, level="easy", board="desert")
    m = await world.match()
    me = m.seat_of(alice.id)
    out = await alice.slash("race resign")
    assert out.reply.visibility == "ephemeral" and out.reply.content.startswith(
        "Really leave Race #1? The race goes on without you")
    await alice.click("Resign")
    # the AI seat plays on alone to the finish (RR3.6, RR3.7); alice's card still scores
    m = await world.service.get_match(m.id)
    assert not m.active and m.state.is_over and m.state.forfeited == (me,)
    outcome = race.outcome(m.state)
    assert m.players[me].place == outcome.places[me] and m.players[me].left == "resigned"
    public = fake.public_messages(fake.channel)
    assert any(r.content.startswith(f"🏳️ {alice.mention} (seat {me + 1}) resigned and leaves "
                                    "Race #1") for r in public)
    mine = next(x for x in public[-1].content.split("\n") if alice.mention in x)
    assert mine.endswith("(left the race)") and f"card #{m.state.cards[me]}:" in mine

    out = await alice.slash("race replay")
    gif, viewer = out.replies
    assert gif.visibility == "public" and gif.content.startswith("🎬 **Replay of Race #1**: ")
    assert gif.files["race-match-1.gif"].startswith(b"GIF8")
    assert viewer.visibility == "ephemeral" and viewer.content.startswith(
        "**Race #1 · the start (1/")
    (to_last,) = [i for i in ids(viewer) if i.startswith("race:replay:1:") and
                  i.endswith(":last")]
    out = await alice.click(custom_id=to_last)
    (last,) = out.replies
    assert f"**Race #1 · turn {m.state.turn} (" in last.content
    out = await alice.slash("race record")
    record = race.read_record(out.reply.files["race-match-1.txt"].decode())
    assert record.final == m.state
    # a rematch: the same table, alice one seat on
    await alice.click("Rematch")
    again = await world.match()
    assert again.id == 2 and again.seats == 2 and again.seat_of(alice.id) == (me + 1) % 2
    assert fake.problems() == []


async def test_a_moderator_ends_a_race_without_a_result(world: World, monkeypatch) -> None:
    fake = world.fake
    mod = fake.add_user("mod", admin=True)
    m = await table(world, monkeypatch, [world.alice, world.bob])
    out = await mod.slash("raptor-admin end")
    assert out.reply.content.startswith("End Race #1 (") and out.reply.labels == ["End match"]
    await mod.click("End match", message=out.reply)
    m = await world.service.get_match(m.id)
    assert not m.active and not m.state.is_over
    public = fake.public_messages(fake.channel)
    assert public[-1].content.startswith(
        "**Race #1 is over** without a result: a moderator ended it.")
    assert "card #" not in public[-1].content  # no card is shown: nothing was scored
    card = next(r for r in reversed(public) if r.files)  # the last card, its controls gone
    assert card.content == ("**Race #1 · stopped in turn 1** — the race is over: the track as "
                            "it ended, and the result below.")
    assert card.labels == [] and card.files["board.png"].startswith(b"\x89PNG")
    assert fake.problems() == []


async def test_a_race_in_its_thread_keeps_one_line_in_the_channel(world: World) -> None:
    fake, alice = world.fake, world.alice
    await world.service.set_guild_threads(fake.guild_id, True)
    await alice.slash("race practice", players=2, level="easy")
    (thread,) = fake.threads()
    m = await world.service.active_match(thread.id)
    assert m is not None and m.game == "race"
    card = race_card(world, thread)
    assert card.content.startswith(f"**Race #{m.id} · turn ")
    assert thread.name.startswith("Race #1 · Desert")
    (line,) = [r for r in fake.public_messages(fake.channel) if "go to the race's card" in
               r.content]
    assert line.content.startswith(f"**Race #1** · {texts_player_list(m)} · Desert\nTurn ")
    assert fake.problems() == []


def texts_player_list(m) -> str:
    return ", ".join(tr(race_texts.seated(m, s)) for s in range(m.seats))


async def test_a_practice_race_in_traditional_chinese(world: World) -> None:
    fake = world.fake
    zh = "zh-TW"
    await world.service.set_guild_language(fake.guild_id, zh)
    mei = fake.add_user("mei", locale=zh)
    await mei.slash("race practice", players=4, level="medium", board="desert")
    m = await world.match()
    me = m.seat_of(mei.id)
    card = race_card(world)
    assert card.content.startswith(tr(race_texts.card_head(m, m.deadline_at,
                                                           race_texts.seated), zh))
    assert "輪到你" in card.content and card.labels[-2:] == ["全部保留", "你的前三名卡"]
    out = await mei.click(custom_id=[i for i in ids(card) if i.endswith(":hand")][0])
    (hand,) = out.replies
    assert hand.content == tr(race_texts.own_card_text(m, me), zh)
    assert hand.content.startswith(f"**你的前三名卡**（#{m.state.cards[me]}，第 1 場競速，")
    # typed in Chinese words: 保留全部 is "keep all"
    dice = " ".join(f.value for f in m.state.rolled)
    out = await mei.slash("race act", action="保留全部")
    assert out.reply.content == (f"完成：`keep {dice.replace(' ', '')}`——保留 {dice}：結束擲骰")
    for n in range(MAX_DECISIONS):
        m = await world.service.get_match(m.id)
        if not m.active:
            break
        await play_decision(world, mei, keep_first=n % 2 == 0, typed=n % 7 == 6)
    assert m.state.is_over
    result = fake.public_messages(fake.channel)[-1]
    assert result.content == tr(race_texts.result_text(m, race_texts.seated), zh)
    assert result.content.startswith("🏁 **第 1 場競速結束：") and "加分" in result.content
    assert result.labels == ["再戰"]
    assert fake.problems() == []


async def test_undo_takes_back_a_step_or_the_last_setting_aside(world: World) -> None:
    alice = world.alice
    await alice.slash("race practice", players=2, level="easy", board="desert")
    m = await world.match()
    rolled = m.state.rolled
    await alice.click(custom_id=f"race:m:{m.id}:v:{m.version}:keep:all")
    moving = await world.match()
    assert moving.state.phase is Phase.MOVE and moving.state.kept == rolled
    await alice.click(custom_id=f"race:m:{m.id}:v:{moving.version}:undo")
    back = await world.match()
    assert back.state.phase is Phase.ROLL and back.state.rolled == rolled  # no new roll
    assert race_card(world).select_menu(f"race:m:{m.id}:v:{back.version}:keep") is not None
    moving = await play_decision(world, alice)
    stepped = await play_decision(world, alice)
    # one die of four used: the turn goes on
    assert stepped.state.turn == moving.state.turn and len(stepped.state.used) == 1
    await alice.click(custom_id=f"race:m:{m.id}:v:{stepped.version}:undo")
    again = await world.match()
    assert again.state.used == () and again.state.raptors == moving.state.raptors
    assert world.fake.problems() == []
