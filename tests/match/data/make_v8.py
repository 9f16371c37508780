"""Make ``v8.sqlite3``: a database at schema version 8 written by the bot's own code, and
``v8_expected.json``: what that file holds, in terms a later schema must still find.

Run in a checkout of commit 97a1901 (schema version 8, matches with two fixed sides
``raptor``/``scientist``), with that checkout's virtual environment::

    .venv/bin/python make_v8.py [OUTDIR]     # default OUTDIR: the current folder

It writes only through that checkout's public API (:class:`bot.db.Database`,
:class:`bot.match.MatchService`), with a fake clock, a fixed match seed source and a fixed
claim owner, so the same commit makes the same bytes; only the rows of the Discord layer's
tables (``control_posts``, ``private_posts``, ``match_notices``) are inserted with plain SQL
in one transaction, with the columns and kinds of ``bot/discord/post_store.py`` and the
texts the bot writes there (``bot.texts``; the kinds written at this commit: card, line,
draw). Players' decisions are random legal actions (``engine.legal_actions``) drawn from a
seeded ``random.Random``; the AI plays at the easy level (seeded from the match seed). Kept
as the record of how the fixture was made: the tests read the files, they do not run this.

``v8_expected.json`` is read back from the finished file with plain SQL: every match (its
players by side with their AI level, status, result, reason, version, log length, times,
draw offer, claim, and its whole action log as ``[seq, side, kind, action JSON text]``),
the results (rated, each side's Elo before and after), ratings, challenges, settings and
posts. The file is left in rollback-journal mode (``journal_mode = DELETE``) and vacuumed:
one file, no ``-wal``.

What it makes (user ids: alice 1001, bob 1002, carol 1003, dave 1004, eve 1005; the bot
9999), in server 7001 (turn timeout 3600 s, threads on) and server 7002 (threads off,
language zh-TW); the match ids are given in the order the matches are created:

1. 7001: alice (raptor) v bob, challenge accepted, played to its end by the rules; rated.
2. 7001: alice (scientist) v carol, savannah, carol resigns; rated.
3. 7001: carol's rematch of 2 (sides swapped), a few actions, alice offers a draw and
   carol accepts it; rated. Its end is never announced: a sweep claimed it (``claimed_by``,
   ``claim_until`` set) and its process "died"; its draw offer post is left recorded.
4. 7002: dave (raptor) v the AI (easy), played to its end; unrated practice.
5. 7002: bob v carol, manual setup, a few placements, ended by a moderator (no result).
6. 7001: bob v carol, a few actions, then one player's turn times out (``process_timers``
   with the clock moved on; a half-time reminder first): a rated forfeit.
7. 7001: alice v eve, in the simultaneous card pick when both players go idle: abandoned
   (no result, unrated; reminded first).
8. 7001: bob (scientist) v alice, active, moved into thread 71101, a few actions, one undo
   record, a pending deadline and reminder time, bob's standing draw offer; posts: its
   live card, its line in the parent channel, the draw offer; alice's DM hand (private
   post); bob's DM notices (``dm_failed``, ``dm_closed_told``).
9. 7002: dave (scientist) v the AI (easy), active, waiting for dave; posts: its card,
   dave's DM hand (heading in zh-TW).
10. 7002: alice v dave, a few actions, dave resigns; rated in 7002 (alice has ratings in
    both servers); ended moments ago, its end not yet announced nor claimed.

Challenges: the accepted ones of the human matches (their message ids recorded), one
pending with a recorded message (carol to eve), one declined (bob to dave), one cancelled
(carol to bob), one expired by the timers (eve to alice, its message recorded).
Settings: both servers' rows, 7002's language, user settings (alice and dave ``dm_hand``
true, bob and dave ``language`` zh-TW, carol ``dm_hand`` false and ``language`` en).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import sqlite3
import sys

import engine
from bot import texts
from bot.db import SCHEMA_VERSION, Database
from bot.games.raptor import texts as raptor_texts
from bot.i18n import tr
from bot.match import InvalidRequestError, Match, MatchService
from engine.messages import Text

ALICE, BOB, CAROL, DAVE, EVE = 1001, 1002, 1003, 1004, 1005
BOT = 9999
G1, G2 = 7001, 7002
START = 1_700_000_000.0  # the fake clock's first reading (Unix seconds)
STEP = 5.0  # seconds the fake clock moves on per decision
OWNER = "fixture-host:4242:0a0b0c"  # the claim owner of this "process"
MSG = 1_180_000_000_000_000_000  # Discord-sized message ids start here
DISCORD = "https://discord.com/channels"  # bot.discord.links: a jump URL's start


def card_notes(m: Match, *, dealt: tuple[engine.Side, ...]) -> str:
    """A live card's post text as ``bot.discord.card.CardNotes`` writes it: round, the sides
    to act, those pinged, those dealt their hand by DM (``"3|raptor|scientist|raptor"``)."""
    groups = (engine.to_act(m.state), (), dealt)
    return "|".join((str(m.state.round),
                     *(",".join(sorted(s.value for s in g)) for g in groups)))


def draw_offer(m: Match, side: engine.Side) -> str:
    """A draw offer's post text as ``bot.discord.posts.Posts.post_draw_offer`` writes it
    (in English)."""
    return tr(Text("🤝 {player} offers a draw in {title}. {opponent}, do you accept? "
                   "(The offer lapses with the next move.)",
                   player=raptor_texts.player(m, side), title=raptor_texts.match_title(m),
                   opponent=texts.mention(m.players[side.other])), "en")


class FakeClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Maker:
    def __init__(self, svc: MatchService, clock: FakeClock, rng: random.Random) -> None:
        self.svc = svc
        self.clock = clock
        self.rng = rng
        self.next_msg = MSG

    def message_id(self) -> int:
        self.next_msg += 1_000_003
        return self.next_msg

    async def human_step(self, match_id: int) -> bool:
        """One random legal decision for the first human side to act; False if none."""
        m = await self.svc.get_match(match_id)
        if not m.active:
            return False
        humans = m.idle_humans()
        if not humans:
            return False
        side = humans[0]
        action = self.rng.choice(engine.legal_actions(m.state, side))
        self.clock.advance(STEP)
        await self.svc.act(match_id, m.players[side], action, side=side,
                           expected_version=m.version)
        return True

    async def ai_steps(self, match_id: int) -> None:
        self.clock.advance(STEP)
        await self.svc.play_ai(match_id)

    async def play(self, match_id: int, *, steps: int | None = None) -> None:
        """Play random human decisions (and the AI's turns) until the match ends, or for
        ``steps`` human decisions."""
        done = 0
        while steps is None or done < steps:
            await self.ai_steps(match_id)
            if not await self.human_step(match_id):
                break
            done += 1
        await self.ai_steps(match_id)

    async def challenge(self, guild: int, channel: int, challenger: int, challenged: int,
                        **kw: object) -> int:
        self.clock.advance(30)
        ch = await self.svc.create_challenge(guild, channel, challenger, challenged, **kw)
        self.clock.advance(2)
        await self.svc.set_challenge_message(ch.id, self.message_id())
        return ch.id

    async def accepted(self, guild: int, channel: int, challenger: int, challenged: int,
                       **kw: object) -> int:
        cid = await self.challenge(guild, channel, challenger, challenged, **kw)
        self.clock.advance(40)
        return (await self.svc.accept_challenge(cid, challenged)).id

    async def announced(self, match_id: int) -> None:
        self.clock.advance(1)
        assert await self.svc.end_announced(match_id)


async def make(path: str) -> None:
    clock = FakeClock(START)
    seeds = random.Random(8_001)
    svc_db = await Database.open(path)
    svc = MatchService(svc_db, clock=clock, seed_source=lambda: seeds.getrandbits(63),
                       owner=OWNER, turn_timeout=86400.0, challenge_timeout=600.0)
    mk = Maker(svc, clock, random.Random(8_115))
    try:
        # ---------------------------------------------------------------- settings
        await svc.set_guild_timeout(G1, 3600)
        await svc.set_guild_threads(G1, True)
        await svc.set_guild_threads(G2, False)
        await svc.set_guild_language(G2, "zh-TW")
        await svc.set_user_setting(ALICE, "dm_hand", True)
        await svc.set_user_setting(DAVE, "dm_hand", True)
        await svc.set_user_setting(DAVE, "language", "zh-TW")
        await svc.set_user_setting(BOB, "language", "zh-TW")
        clock.advance(60)
        await svc.set_user_setting(CAROL, "dm_hand", False)
        await svc.set_user_setting(CAROL, "language", "en")

        # 1: alice (raptor) v bob, played to the end by the rules
        m1 = await mk.accepted(G1, 71001, ALICE, BOB, side="raptor")
        await mk.play(m1)
        assert (await svc.get_match(m1)).status == "finished"
        await mk.announced(m1)

        # 2: alice (scientist) v carol, savannah, carol resigns
        m2 = await mk.accepted(G1, 71002, ALICE, CAROL, side="scientist",
                               environment="savannah")
        await mk.play(m2, steps=14)
        clock.advance(20)
        await svc.resign(m2, CAROL)
        await mk.announced(m2)

        # 3: carol's rematch of 2, a draw by agreement (end never announced: see below)
        clock.advance(30)
        ch3 = await svc.rematch(m2, CAROL)
        await svc.set_challenge_message(ch3.id, mk.message_id())
        clock.advance(25)
        m3 = (await svc.accept_challenge(ch3.id, ALICE)).id
        await mk.play(m3, steps=9)
        clock.advance(15)
        await svc.offer_draw(m3, ALICE)
        clock.advance(15)
        await svc.accept_draw(m3, CAROL)

        # 4: dave v the AI (easy), played to the end
        clock.advance(300)
        m4 = (await svc.start_practice(G2, 72001, DAVE, side="raptor", level="easy",
                                       ai_user_id=BOT)).id
        await mk.play(m4)
        assert (await svc.get_match(m4)).status == "finished"
        await mk.announced(m4)

        # 5: bob v carol, manual setup, ended by a moderator
        m5 = await mk.accepted(G2, 72002, BOB, CAROL, side="raptor", setup="manual")
        await mk.play(m5, steps=4)
        clock.advance(120)
        await svc.end_by_moderator(m5)
        await mk.announced(m5)

        # a declined and a cancelled challenge
        ch_declined = await mk.challenge(G2, 72003, BOB, DAVE, side="random")
        clock.advance(45)
        await svc.decline_challenge(ch_declined, DAVE)
        ch_cancelled = await mk.challenge(G1, 71003, CAROL, BOB, side="scientist")
        clock.advance(20)
        await svc.cancel_challenge(ch_cancelled, CAROL)

        # 6: bob v carol, one player's turn times out; 7: alice v eve, both idle in the pick
        m6 = await mk.accepted(G1, 71003, BOB, CAROL, side="raptor")
        await mk.play(m6, steps=10)
        while len((await svc.get_match(m6)).idle_humans()) != 1:
            await mk.human_step(m6)
        m7 = await mk.accepted(G1, 71004, ALICE, EVE, side="scientist")
        await mk.play(m7, steps=6)
        while len((await svc.get_match(m7)).idle_humans()) != 2:
            await mk.human_step(m7)
        ch_expired = await mk.challenge(G1, 71005, EVE, ALICE, side="raptor")
        six, seven = await svc.get_match(m6), await svc.get_match(m7)
        clock.now = max(six.remind_at, seven.remind_at) + 1
        reminders = await svc.process_timers()
        clock.now = max(six.deadline_at, seven.deadline_at) + 1
        forfeits = await svc.process_timers()
        timers = sorted(str(e.kind) for e in reminders + forfeits)
        assert timers == ["challenge_expired", "forfeit", "forfeit", "reminder",
                          "reminder"], timers
        assert (await svc.get_match(m6)).reason == "timeout"
        assert (await svc.get_match(m7)).reason == "abandoned"
        await mk.announced(m6)
        await mk.announced(m7)

        # 8: bob (scientist) v alice, active in a thread, an undo, a draw offer
        clock.advance(3600)
        m8 = await mk.accepted(G1, 71001, BOB, ALICE, side="scientist")
        clock.advance(3)
        await svc.move_to_thread(m8, 71101)
        undone = False
        for _ in range(400):
            await mk.human_step(m8)
            m = await svc.get_match(m8)
            if not undone and m.state.phase is engine.Phase.AP:
                clock.advance(STEP)
                try:
                    await svc.undo(m8, m.players[m.state.ap.side])
                    undone = True
                except InvalidRequestError:
                    pass
            if undone and m.log_length >= 40:
                break
        assert undone
        while not (await svc.get_match(m8)).idle_humans():
            await mk.human_step(m8)
        clock.advance(30)
        await svc.offer_draw(m8, BOB)

        # 9: dave (scientist) v the AI, active, waiting for dave
        clock.advance(90)
        m9 = (await svc.start_practice(G2, 72001, DAVE, side="scientist", level="easy",
                                       ai_user_id=BOT)).id
        await mk.play(m9, steps=12)
        assert (await svc.get_match(m9)).idle_humans() == [engine.Side.SCIENTIST]

        # a pending challenge, its message recorded
        await mk.challenge(G1, 71002, CAROL, EVE, side="random", setup="manual")

        # the end of 3 was never announced: a sweep claimed it, its process died
        due = await svc.endings_to_announce()
        assert [m.id for m in due] == [m3], [m.id for m in due]

        # 10: alice v dave in 7002, dave resigns; ended moments ago, not announced yet
        m10 = await mk.accepted(G2, 72003, ALICE, DAVE, side="raptor")
        await mk.play(m10, steps=7)
        clock.advance(10)
        await svc.resign(m10, DAVE)

        # the Discord layer's rows (bot/discord/post_store.py), plain SQL, with the texts
        # the bot would have written (bot.texts; 7001 in English, 7002 in zh-TW)
        eight, nine, three = [await svc.get_match(m) for m in (m8, m9, m3)]
        card8, card9 = mk.message_id(), mk.message_id()
        posts = [
            (card8, m8, "card", 71101, card_notes(eight, dealt=(engine.Side.RAPTOR,))),
            (mk.message_id(), m8, "line", 71001,
             tr(raptor_texts.parent_line(eight, f"{DISCORD}/{G1}/71101/{card8}"), "en")),
            (mk.message_id(), m8, "draw", 71101, draw_offer(eight, engine.Side.SCIENTIST)),
            (card9, m9, "card", 72001, card_notes(nine, dealt=(engine.Side.SCIENTIST,))),
            (mk.message_id(), m3, "draw", 71002, draw_offer(three, engine.Side.RAPTOR)),
        ]
        private = [
            (mk.message_id(), m8, ALICE, 81001,
             tr(raptor_texts.hand_heading(eight, engine.Side.RAPTOR), "en")),
            (mk.message_id(), m9, DAVE, 81004,
             tr(raptor_texts.hand_heading(nine, engine.Side.SCIENTIST), "zh-TW")),
        ]
        async with svc.db.transaction() as tx:
            for row in posts:
                await tx.execute("INSERT INTO control_posts (message_id, match_id, kind, "
                                 "channel_id, text) VALUES (?, ?, ?, ?, ?)", row)
            for row in private:
                await tx.execute("INSERT INTO private_posts (message_id, match_id, user_id, "
                                 "channel_id, text) VALUES (?, ?, ?, ?, ?)", row)
            for row in ((m8, BOB, "dm_failed"), (m8, BOB, "dm_closed_told"),
                        (m6, CAROL, "dm_failed")):
                await tx.execute("INSERT INTO match_notices (match_id, user_id, notice) "
                                 "VALUES (?, ?, ?)", row)
        assert await svc.db.schema_version() == SCHEMA_VERSION == 8
        assert ch_expired and ch_declined and ch_cancelled
    finally:
        await svc_db.close()


def compact(path: str) -> None:
    """One file, no -wal: back to the rollback journal, then VACUUM."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        assert con.execute("PRAGMA journal_mode = DELETE").fetchone()[0] == "delete"
        con.execute("VACUUM")
    finally:
        con.close()
    for tail in ("-wal", "-shm"):
        assert not os.path.exists(path + tail), path + tail


def rows(con: sqlite3.Connection, sql: str) -> list[dict]:
    return [dict(r) for r in con.execute(sql)]


def expected(path: str) -> dict:
    """What the file holds, per match with its players by side, read with plain SQL."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        matches = []
        for r in con.execute("SELECT * FROM matches ORDER BY id"):
            log = [[e["seq"], e["side"], e["kind"], e["action"]] for e in con.execute(
                "SELECT seq, side, kind, action FROM match_log WHERE match_id = ? "
                "ORDER BY seq", (r["id"],))]
            matches.append({
                "id": r["id"], "guild_id": r["guild_id"], "channel_id": r["channel_id"],
                "status": r["status"], "result": r["result"], "reason": r["reason"],
                "version": r["version"], "log_length": r["log_length"],
                "players": {side: {"user_id": r[f"{side}_user_id"], "ai": r[f"{side}_ai"]}
                            for side in ("raptor", "scientist")},
                "options": json.loads(r["options"]),
                "deadline_at": r["deadline_at"], "remind_at": r["remind_at"],
                "reminded": bool(r["reminded"]), "draw_offered_by": r["draw_offered_by"],
                "rematch_of": r["rematch_of"], "created_at": r["created_at"],
                "updated_at": r["updated_at"], "last_activity": r["last_activity"],
                "end_announced_at": r["end_announced_at"], "claimed_by": r["claimed_by"],
                "claim_until": r["claim_until"], "log": log,
            })
        results = [{
            "match_id": r["match_id"], "guild_id": r["guild_id"], "result": r["result"],
            "reason": r["reason"], "rated": bool(r["rated"]), "finished_at": r["finished_at"],
            "players": {side: {"user_id": r[f"{side}_user_id"],
                               "rating_before": r[f"{side}_rating_before"],
                               "rating_after": r[f"{side}_rating_after"]}
                        for side in ("raptor", "scientist")},
        } for r in con.execute("SELECT * FROM results ORDER BY match_id")]
        challenges = [{
            "id": r["id"], "guild_id": r["guild_id"], "channel_id": r["channel_id"],
            "status": r["status"], "challenger_id": r["challenger_id"],
            "challenged_id": r["challenged_id"], "side": r["side"],
            "environment": r["environment"], "setup": r["setup"],
            "message_id": r["message_id"], "created_at": r["created_at"],
            "expires_at": r["expires_at"], "match_id": r["match_id"],
            "rematch_of": r["rematch_of"], "claimed_by": r["claimed_by"],
            "claim_until": r["claim_until"],
        } for r in con.execute("SELECT * FROM challenges ORDER BY id")]
        users = rows(con, "SELECT * FROM user_settings ORDER BY user_id, key")
        for u in users:
            u["value"] = json.loads(u["value"])
        return {
            "schema_version": con.execute("PRAGMA user_version").fetchone()[0],
            "matches": matches,
            "results": results,
            "ratings": rows(con, "SELECT * FROM ratings ORDER BY guild_id, user_id"),
            "challenges": challenges,
            "guild_settings": [dict(g, threads=None if g["threads"] is None
                                    else bool(g["threads"]))
                               for g in rows(con, "SELECT * FROM guild_settings "
                                                  "ORDER BY guild_id")],
            "guild_languages": rows(con, "SELECT * FROM guild_languages ORDER BY guild_id"),
            "user_settings": users,
            "control_posts": rows(con, "SELECT * FROM control_posts ORDER BY message_id"),
            "private_posts": rows(con, "SELECT * FROM private_posts ORDER BY message_id"),
            "match_notices": rows(con, "SELECT * FROM match_notices "
                                       "ORDER BY match_id, user_id, notice"),
        }
    finally:
        con.close()


def counts(path: str) -> dict[str, int]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = "
                                            "'table' ORDER BY name")]
        return {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables}
    finally:
        con.close()


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    path = os.path.join(out, "v8.sqlite3")
    for tail in ("", "-wal", "-shm"):
        if os.path.exists(path + tail):
            os.remove(path + tail)
    asyncio.run(make(path))
    compact(path)
    data = expected(path)
    with open(os.path.join(out, "v8_expected.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for table, n in counts(path).items():
        print(f"{table:15} {n:5}")
    for m in data["matches"]:
        who = " ".join(f"{side} {p['user_id']}" + (f"/{p['ai']}" if p["ai"] else "")
                       for side, p in m["players"].items())
        print(f"match {m['id']:2} guild {m['guild_id']} {m['status']:8} "
              f"{m['reason'] or '-':18} result {m['result'] or '-':9} {who} "
              f"log {m['log_length']}")
    with open(path, "rb") as f:
        print("sha256", hashlib.sha256(f.read()).hexdigest(), os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
