"""A whole match in two languages: lin's Discord client is in Traditional Chinese
(zh-TW), bob's in English, the server's in English. Every ephemeral message and DM to lin is
Chinese, every one to bob English, every public message English; then a moderator makes the
server Chinese and the next public messages are Chinese, while bob's private ones stay
English; the commands were registered with their zh-TW localisations."""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import tr
from engine import Side
from tests.e2e.players import World
from tests.fakediscord import Record

pytestmark = pytest.mark.asyncio(loop_scope="function")

CJK = re.compile(r"[\u4e00-\u9fff]")
#: English words that only a sentence of ours would hold (not notation, not a mention).
ENGLISH = re.compile(r"\b(the|you|your|round|pick|card|match|with|is|of)\b", re.I)


def text_of(m: Record) -> str:
    """What a reader sees: content, embeds, component labels and placeholders."""
    parts = [m.content]
    for e in m.embeds:
        parts += [e.get("title") or "", e.get("description") or ""]
    parts += [b.get("label") or "" for b in m.buttons]
    for sel in m.selects:
        parts.append(sel.get("placeholder") or "")
        parts += [o.get("label", "") + " " + o.get("description", "") for o in sel["options"]]
    return "\n".join(p for p in parts if p)


def chinese(text: str) -> bool:
    return bool(CJK.search(text))


async def test_a_whole_match_with_a_chinese_and_an_english_player(tmp_path):
    async with World.open(tmp_path, seed=7_000_031) as world:
        fake = world.fake
        lin = fake.add_user("lin", locale="zh-TW")
        bob = world.user("bob")
        out = await world.user("bob").slash("raptor settings", dm_hand=False)
        assert out.reply.content.startswith("Hand by DM: **off**")
        table = await world.new_table(raptor="lin", scientist="bob")
        final = await table.play_until_over(random.Random(5), act_share=0.25,
                                            max_rounds=40)
        assert not final.active or final.state.round >= 40

        lin_private = fake.ephemerals(lin) + fake.dms(lin)
        bob_private = fake.ephemerals(bob) + fake.dms(bob)
        assert len(lin_private) >= 5 and len(bob_private) >= 5
        for m in lin_private:
            assert chinese(text_of(m)), f"to lin, not Chinese: {text_of(m)[:200]!r}"
            assert not ENGLISH.search(m.content), f"English left for lin: {m.content[:200]!r}"
        for m in bob_private:
            assert not chinese(text_of(m)), f"to bob, not English: {text_of(m)[:200]!r}"
        public = fake.public_messages()
        assert len(public) >= 5
        for m in public:
            assert not chinese(text_of(m)), f"public, not English: {text_of(m)[:200]!r}"
        hands = [r for r in fake.records if r.user_id == lin.id and r.visibility != "public"
                 and r.attachments]
        assert hands and all(r.attachments[0].is_png for r in hands)  # lin's hand images
        for r in fake.records:  # every private event to either player, edits included
            if r.visibility != "public" and r.user_id == lin.id and r.content:
                assert chinese(r.content), r.content[:200]
            if r.visibility != "public" and r.user_id == bob.id:
                assert not chinese(text_of(r)), r.content[:200]

        # the server goes Chinese: public messages follow, bob's own replies stay English
        mod = fake.add_user("mod", admin=True)
        await mod.slash("raptor-admin language", language="zh-TW")
        seen = len(fake.public_messages())
        table2 = await world.new_table(raptor="bob", scientist="lin")
        await table2.play_until_over(random.Random(6), act_share=0.25, max_rounds=2)
        later = fake.public_messages()[seen:]
        assert later and all(chinese(text_of(m)) for m in later), [
            text_of(m)[:80] for m in later if not chinese(text_of(m))]
        card_texts = [r.content for r in fake.records if r.visibility == "public" and r.content
                      and "⏳" in r.content and r.channel_id == table2.channel.id]
        assert card_texts and not [c for c in card_texts if "(raptor)" in c
                                   or "(scientist)" in c or "pick your card" in c], card_texts
        status = await bob.slash("raptor status", in_channel=table2.channel)  # its thread
        assert not chinese(text_of(status.reply)) and "Round" in status.reply.content

        # the commands carry their zh-TW names
        raptor = next(c for c in fake.synced_commands() if c["name"] == "raptor")
        names = {o["name"]: (o.get("name_localizations") or {}).get("zh-TW")
                 for o in raptor["options"]}
        assert names["hand"] == "手牌" and names["challenge"] == "挑戰"
        assert tr("x", "zh-TW") == "x"
        assert {table.raptor.side, table.scientist.side} == {Side.RAPTOR, Side.SCIENTIST}
