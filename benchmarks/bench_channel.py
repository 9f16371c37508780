"""How loud a match is in Discord: full matches through the fake Discord, counted as the
people there see them.

usage: .venv/bin/python benchmarks/bench_channel.py [--seeds 1 2 3 4] [--quiet] [--json FILE]
       .venv/bin/python benchmarks/bench_channel.py --against OLD [--seeds 1 2 3 4]

Run it from the root of the checkout to measure (it imports the bot, the fake Discord and
the e2e players from there), e.g. from an older checkout: ``cd OLD && python
NEW/benchmarks/bench_channel.py``; ``--against OLD`` does that and runs this checkout too,
each in a fresh process, and prints their image figures side by side.

For each seed it plays one human-vs-human match (alice the raptor, hand by DM; bob the
scientist, hand by DM but with his DMs closed) and one practice match (carol the scientist
against the easy AI, hand by DM), every decision made with the controls or typed
(``tests/e2e/players.py``, the easy AI thinking on the player's own view), and prints per
round, then in total and per round on average:

- ``match``  public messages created in the match's channel (``Match.channel_id``: the
  match's thread once matches get threads),
- ``parent`` public messages created in the channel the challenge was made in, when that
  is not the match's channel (``other`` counts public messages anywhere else: another
  thread of that channel, say),
- ``img``    images posted publicly (attachments uploaded with a new message, or newly
  uploaded by an edit; totals say how many came by edits, and how many were the same bytes
  as the image the message showed before),
- ``KiB``    their bytes: what every reader of the channel downloads (per viewer),
- ``ping``   pings per player: a public message created mentioning that user, or an edit
  that adds the mention, as far as the request's ``allowed_mentions`` lets Discord notify
  (totals also say how many came right after that player's own action),
- ``priv``   private messages created per player (DMs and ephemeral messages).

Then, for the private side, per match: how many times the closed-DMs notice was shown, how
many hand messages list the cards as text (besides the image and the buttons), how many DM
hands still carry live card buttons once the match is over, how many DM events name a
``/raptor`` command (none runs in a DM), and how many DM hands carry no jump link back to
the match.

Records are attributed to the round the match was in when the action that caused them was
made; the challenge, its acceptance and the match start are round 0. Figures are counts of
what the fake recorded, so the same seeds give the same figures on the same code.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))  # the checkout to measure: run from its root

import engine  # noqa: E402
from bot import texts  # noqa: E402
from engine import Side  # noqa: E402
from tests.e2e.players import Player, Table, World  # noqa: E402
from tests.fakediscord import FakeChannel, Record  # noqa: E402

WORLD_SEED = 7_100_000  # match seeds: WORLD_SEED + 1000 * seed, ...


@dataclass
class Tally:
    """Counts for one round (or a whole match)."""

    match: int = 0
    parent: int = 0
    other: int = 0
    images: int = 0
    edit_images: int = 0  # of ``images``: uploaded by an edit (a card's new board)
    image_bytes: int = 0  # bytes of ``images``: what every viewer of the channel downloads
    same_images: int = 0  # of ``images``: the same bytes as the message's image before
    pings: Counter[str] = field(default_factory=Counter)
    own: int = 0  # pings of the player whose own action caused them
    private: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.match += other.match
        self.parent += other.parent
        self.other += other.other
        self.images += other.images
        self.edit_images += other.edit_images
        self.image_bytes += other.image_bytes
        self.same_images += other.same_images
        self.pings.update(other.pings)
        self.own += other.own
        self.private.update(other.private)


class Counting:
    """Reads the fake's record log in order and tallies each record into a round."""

    def __init__(self, world: World, parent_id: int, names: dict[int, str]) -> None:
        self.world = world
        self.parent_id = parent_id
        self.names = names  # user id -> name, for the humans of the match
        self.seen = 0  # records read so far
        self.pinged: dict[int, set[int]] = {}  # message id -> users it notified so far
        self.uploaded: dict[int, set[int]] = {}  # message id -> attachment ids so far
        self.shown: dict[int, dict[str, bytes]] = {}  # message id -> its files' bytes so far
        self.rounds: dict[int, Tally] = defaultdict(Tally)
        self.private: str = ""  # the private side's checks (:func:`private_checks`)

    def take(self, round_no: int, match_channel: int, actor: int | None = None) -> None:
        """Tally the records made since the last call into ``round_no``; ``actor``: the
        user whose action caused them."""
        records = self.world.fake.records
        for rec in records[self.seen:]:
            self.count(self.rounds[round_no], rec, match_channel, actor)
        self.seen = len(records)

    def count(self, t: Tally, rec: Record, match_channel: int, actor: int | None) -> None:
        if rec.visibility != "public":
            if not rec.edit and rec.user_id in self.names:
                t.private[self.names[rec.user_id]] += 1
            return
        if not rec.edit:
            if rec.channel_id == match_channel:
                t.match += 1
            elif rec.channel_id == self.parent_id:
                t.parent += 1
            else:
                t.other += 1
        before = self.uploaded.get(rec.message_id, set())
        now = {a.id for a in rec.attachments}
        t.images += len(now - before)
        if rec.edit:
            t.edit_images += len(now - before)
        shown = self.shown.get(rec.message_id, {})
        for a in rec.attachments:
            if a.id not in before:
                t.image_bytes += a.size
                t.same_images += shown.get(a.filename) == a.data
        self.uploaded[rec.message_id] = now
        self.shown[rec.message_id] = {a.filename: a.data for a in rec.attachments}
        notified = rec.mentioned
        for uid in notified - self.pinged.get(rec.message_id, set()):
            if uid in self.names:
                t.pings[self.names[uid]] += 1
                t.own += uid == actor
        self.pinged[rec.message_id] = notified


async def play_match(folder: Path, seed: int) -> tuple[Counting, int, list[str]]:
    """alice (raptor, DM hand) vs bob (scientist, DM hand, DMs closed)."""
    async with World.open(folder, seed=WORLD_SEED + 1000 * seed) as world:
        for name in ("alice", "bob"):
            await world.user(name).slash("raptor settings", dm_hand=True)
        world.fake.set_dms_closed(world.user("bob"), True)
        parent = world.fake.channel.id
        names = {world.user("alice").id: "alice", world.user("bob").id: "bob"}
        counting = Counting(world, parent, names)
        counting.seen = len(world.fake.records)  # the settings replies are not the match's
        table = await world.new_table(raptor="alice", scientist="bob")
        rng = random.Random(seed)
        match = await table.match()
        counting.take(0, match.channel_id)
        while match.active:
            round_no = match.state.round
            await table.play_decision(rng, match=match)
            seat = (await world.observer.action_log(table.match_id))[-1][1]
            counting.take(round_no, match.channel_id, match.user_of(seat))
            match = await table.match()
        counting.private = private_checks(world, names)
        return counting, match.state.round, ["alice", "bob"]


async def play_practice(folder: Path, seed: int) -> tuple[Counting, int, list[str]]:
    """carol (scientist, DM hand) against the easy AI."""
    async with World.open(folder, seed=WORLD_SEED + 1000 * seed + 500) as world:
        carol = world.user("carol")
        await carol.slash("raptor settings", dm_hand=True)
        parent = world.fake.channel.id
        counting = Counting(world, parent, {carol.id: "carol"})
        counting.seen = len(world.fake.records)
        table = Table(world, world.fake.channel)
        table.scientist = Player(table, carol, Side.SCIENTIST)
        table.raptor = table.scientist  # the AI's side: never asked to decide here
        world.tables.append(table)
        out = await table.scientist.slash("raptor practice", side="scientist", level="easy")
        assert out.acknowledged, out.records
        match = await world.observer.active_match(parent)
        if match is None:  # the match may have moved to a thread of the channel
            match = next(m for m in await world.observer.active_matches()
                         if m.seats_of(carol.id))
        table.match_id = match.id
        if match.channel_id != parent:  # played in a thread: the player acts there
            table.channel = FakeChannel(world.fake, world.fake.server.channels[match.channel_id])
            for r in world.fake.records:
                if not r.edit and r.channel_id == match.channel_id:
                    table.message_ids.append(r.message_id)
        counting.take(0, match.channel_id)
        rng = random.Random(seed)
        carol_side = table.scientist
        while match.active:
            round_no = match.state.round
            if Side.SCIENTIST not in engine.to_act(match.state):
                raise RuntimeError(f"match {match.id}: the AI did not act ({match.state.phase})")
            action = carol_side.think(match, seed=rng.randrange(1 << 30))
            via = "act" if rng.random() < 0.25 else "controls"
            await carol_side.play(action, via=via, match=match)  # the AI answers in it
            counting.take(round_no, match.channel_id, carol.id)
            after = await table.match()
            if after.version <= match.version:
                raise RuntimeError(f"carol's {engine.format_action(action)} was not stored")
            match = after
        counting.private = private_checks(world, {carol.id: "carol"})
        return counting, match.state.round, ["carol"]


def private_checks(world: World, names: dict[int, str]) -> str:
    """The private side of a finished match, as counts (see the module docstring)."""
    fake = world.fake
    private = [r for r in fake.records if r.visibility != "public" and r.user_id in names]
    created = [r for r in private if not r.edit]
    hands = [r for r in created if "your hand**" in r.content]
    dm_hands = [r for r in hands if r.visibility == "dm"]
    notices = sum(1 for r in created if texts.DM_CLOSED in r.content)
    listed = sum(1 for r in hands if "\n• **" in r.content)
    live = sum(1 for r in dm_hands if any(":pick:" in (c.get("custom_id") or "")
                                          for c in fake.message(r.id).walk()))
    commands = sum(1 for r in private if r.visibility == "dm" and "/raptor" in r.content)
    unlinked = sum(1 for r in dm_hands if "discord.com/channels/" not in r.content)
    return (f"private: closed-DMs notices {notices}; hands listing the cards as text {listed} "
            f"of {len(hands)}; DM hands left with live buttons {live} of {len(dm_hands)}; DM "
            f"events naming a /raptor command {commands}; DM hands without a jump link "
            f"{unlinked}")


def per_player(counter: Counter[str], players: list[str]) -> str:
    return " ".join(f"{counter[p]:>2}" for p in players)


def report(title: str, counting: Counting, rounds: int, players: list[str], *,
           quiet: bool) -> Tally:
    total = Tally()
    who = "/".join(players)
    if not quiet:
        print(f"\n{title}: {rounds} rounds")
        print(f"{'round':>5} {'match':>5} {'parent':>6} {'other':>5} {'img':>4} {'KiB':>5} "
              f"  ping {who:<12} priv {who}")
    for round_no in sorted(counting.rounds):
        t = counting.rounds[round_no]
        total.add(t)
        if not quiet:
            print(f"{round_no:>5} {t.match:>5} {t.parent:>6} {t.other:>5} {t.images:>4} "
                  f"{t.image_bytes / 1024:>5.0f}   "
                  f"     {per_player(t.pings, players):<12}      {per_player(t.private, players)}")
    played = [t for r, t in counting.rounds.items() if r > 0]
    n = max(1, len(played))
    worst = max(played, key=lambda t: t.match, default=Tally())
    print(f"{title}: {rounds} rounds · total: match {total.match}, parent {total.parent}, "
          f"other {total.other}, images {total.images} ({total.edit_images} by edits, "
          f"{total.same_images} unchanged; {total.image_bytes / 1024:.0f} KiB), pings "
          f"{dict((p, total.pings[p]) for p in players)} ({total.own} right after the "
          f"player's own action), private "
          f"{dict((p, total.private[p]) for p in players)}")
    pings = sum(total.pings[p] for p in players) / len(players)
    priv = sum(total.private[p] for p in players) / len(players)
    print(f"  per round: match {total.match / n:.1f} (max {worst.match}), parent "
          f"{total.parent / n:.1f}, images {total.images / n:.1f} (by edits "
          f"{total.edit_images / n:.1f}; max "
          f"{max((t.images for t in played), default=0)}; "
          f"{total.image_bytes / 1024 / n:.0f} KiB), pings per player {pings / n:.1f} "
          f"(max {max((t.pings[p] for t in played for p in players), default=0)}), private "
          f"per player {priv / n:.1f}")
    print(f"  {counting.private}")
    return total


KINDS = ("human vs human", "practice")


async def main(seeds: list[int], quiet: bool) -> dict[str, dict[str, float]]:
    """Play and report every seed; returns the per-round figures of each kind (sums over
    the matches divided by the rounds played)."""
    sums: dict[str, list[float]] = defaultdict(list)
    for seed in seeds:
        for kind, play in zip(KINDS, (play_match, play_practice), strict=True):
            with tempfile.TemporaryDirectory() as tmp:
                counting, rounds, players = await play(Path(tmp), seed)
            total = report(f"seed {seed} · {kind}", counting, rounds, players, quiet=quiet)
            n = max(1, sum(1 for r in counting.rounds if r > 0))
            sums[kind].append(n)
            sums[kind + " match"].append(total.match)
            sums[kind + " parent"].append(total.parent)
            sums[kind + " images"].append(total.images)
            sums[kind + " edit images"].append(total.edit_images)
            sums[kind + " same images"].append(total.same_images)
            sums[kind + " image bytes"].append(total.image_bytes)
            sums[kind + " pings"].append(sum(total.pings.values()) / len(players))
            sums[kind + " own"].append(total.own / len(players))
            sums[kind + " private"].append(sum(total.private.values()) / len(players))
    print("\nall seeds, per round (sum over matches / rounds played):")
    figures: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        n = sum(sums[kind])
        f = {name: sum(sums[f"{kind} {name}"]) / n
             for name in ("match", "parent", "images", "edit images", "same images",
                          "image bytes", "pings", "own", "private")}
        f["rounds"] = n
        figures[kind] = f
        print(f"  {kind:<15} rounds {int(n):>3} · match {f['match']:.1f} · "
              f"parent {f['parent']:.1f} · images {f['images']:.1f} (by edits "
              f"{f['edit images']:.1f}, unchanged {f['same images']:.1f}; "
              f"{f['image bytes'] / 1024:.0f} KiB) · pings per player {f['pings']:.1f} (after "
              f"their own action {f['own']:.1f}) · private per player {f['private']:.1f}")
    return figures


def against(root: str, seeds: list[int]) -> None:
    """Old (the checkout ``root``) and new (this one), each played in a fresh process from
    its own root, then their per-round image figures side by side."""
    import json
    import subprocess

    here = Path(__file__).resolve().parents[1]
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, code in (("old", Path(root).resolve()), ("new", here)):
            out = Path(tmp) / f"{name}.json"
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--quiet",
                            "--seeds", *map(str, seeds), "--json", str(out)], cwd=code,
                           check=True, stdout=subprocess.DEVNULL)
            runs[name] = json.loads(out.read_text())
    print(f"old: {Path(root).resolve()}\nnew: {here}\nper round, seeds {seeds}:")
    print(f"  {'':<15} {'':>3}  {'images':>13}  {'by edits':>13}  {'unchanged':>13}  "
          f"{'KiB per viewer':>15}  {'KiB per image':>13}")
    for kind in KINDS:
        o, n = runs["old"][kind], runs["new"][kind]
        kib = {name: r["image bytes"] / 1024 / max(r["images"], 1e-9)
               for name, r in (("old", o), ("new", n))}
        print(f"  {kind:<15} {int(n['rounds']):>3}  {_pair(o, n, 'images'):>13}  "
              f"{_pair(o, n, 'edit images'):>13}  {_pair(o, n, 'same images'):>13}  "
              f"{_pair(o, n, 'image bytes', 1024, '.0f'):>15}  "
              f"{kib['old']:.0f} → {kib['new']:.0f}")


def _pair(old: dict[str, float], new: dict[str, float], key: str, scale: float = 1.0,
          fmt: str = ".1f") -> str:
    return f"{old[key] / scale:{fmt}} → {new[key] / scale:{fmt}}"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--quiet", action="store_true", help="totals only, no per-round rows")
    parser.add_argument("--json", metavar="FILE", help="also write the per-round figures here")
    parser.add_argument("--against", metavar="ROOT",
                        help="old (the checkout ROOT) and new side by side, each in a fresh "
                             "process")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.seeds)
    else:
        figures = asyncio.run(main(args.seeds, args.quiet))
        if args.json:
            import json

            Path(args.json).write_text(json.dumps(figures))
