"""Record behaviour outputs of a checkout into OUT (run from the checkout root with its venv).

usage: .venv/bin/python benchmarks/record_behaviour.py OUT [demos] [selfplay] [e2e] [terminal]

Run it from the repository root before a change that must not change behaviour and again
after it, into two folders, then `diff -r -x "_*" BEFORE AFTER` (the `_*` folders hold the raw
outputs). Wall-clock figures (" in 0.2 s", "decisions in N s") differ from run to run.
Writes:
  demo-<seed>-<env>/ : stdout, demo.log and sha256 of each image
  selfplay.txt       : engine self-play endings and rounds for 300 games
  e2e-match.txt      : a full human-vs-human match through the fake Discord (normalised)
  e2e-practice.txt   : a practice match against the easy AI through the fake Discord
  terminal-*.txt     : scripted terminal games
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

OUT = Path(sys.argv[1]).resolve()
OUT.mkdir(parents=True, exist_ok=True)
PY = sys.executable
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()[:16]


def _shown(r: subprocess.CompletedProcess, work: Path) -> str:
    """A command's output with its work folder written as OUT, and its exit status."""
    return (r.stdout.replace(str(work), "OUT") + f"\nrc={r.returncode}\n"
            + r.stderr.replace(str(work), "OUT"))


def demos() -> None:
    for seed, env in ((1, "jungle"), (2, "savannah"), (3, "jungle"), (5, "jungle")):
        d = OUT / f"demo-{seed}-{env}"
        work = OUT / f"_demo-{seed}-{env}"
        subprocess.run(["rm", "-rf", str(work)])
        r = subprocess.run([PY, "-m", "bot", "demo", "--seed", str(seed), "--environment", env,
                            "--out", str(work)], capture_output=True, text=True)
        d.mkdir(exist_ok=True)
        (d / "stdout.txt").write_text(_shown(r, work))
        (d / "demo.log").write_text((work / "demo.log").read_text().replace(str(work), "OUT"))
        lines = [f"{p.name} {sha(p)}" for p in sorted(work.glob("*.png"))]
        (d / "images.txt").write_text("\n".join(lines) + "\n")
        for p in sorted(work.glob("*.png"))[:3]:
            (d / p.name).write_bytes(p.read_bytes())


def selfplay() -> None:
    r = subprocess.run([PY, "-m", "engine", "selfplay", "--games", "300", "--seed", "1"],
                       capture_output=True, text=True)
    text = re.sub(r"[0-9,.]+ (decisions|games)/s.*", "", r.stdout)
    # detailed deterministic fingerprint
    import engine
    lines = []
    for g in range(1, 301):
        s = engine.new_game(g, setup="quick")
        rng = random.Random(g)
        h = hashlib.sha256()
        while not s.is_over and s.round <= 5000:
            side = min(engine.to_act(s))
            legal = engine.legal_actions(s, side)
            a = rng.choice(legal)
            h.update(engine.format_action(a).encode())
            h.update(engine.describe_action(a, s, side).encode())
            s = engine.apply(s, side, a)
            h.update(repr(s.events).encode())
        h.update(s.to_json().encode())
        lines.append(f"{g} {s.winner} {s.reason} {s.round} {h.hexdigest()[:16]}")
    (OUT / "selfplay.txt").write_text(text + "\n".join(lines) + "\n")


def norm(text: str) -> str:
    text = re.sub(r"<t:\d+(:[A-Za-z])?>", "<t:T>", text)
    return text


def dump_records(fake, path: Path) -> None:
    out = []
    for r in fake.records:
        comps = json.dumps(r.components, sort_keys=True)
        embeds = json.dumps(r.embeds, sort_keys=True)
        att = [(a.filename, hashlib.sha256(a.data).hexdigest()[:12]) if hasattr(a, "data")
               else str(a) for a in r.attachments]
        out.append(f"#{r.seq} {r.visibility} user={r.user_id} ch={r.channel_id} edit={r.edit} "
                   f"src={r.source} del={r.deleted}\n  content: {norm(r.content)!r}\n"
                   f"  embeds: {norm(embeds)}\n  components: {comps}\n  files: {att}")
    text = "\n".join(out) + "\n"
    ids: dict[str, str] = {}
    text = re.sub(r"\d{15,20}", lambda m: ids.setdefault(m.group(0), f"ID{len(ids)}"), text)
    path.write_text(text)


async def e2e() -> None:
    import tempfile

    from tests.e2e.players import World
    with tempfile.TemporaryDirectory() as tmp:
        async with World.open(Path(tmp), seed=7_000_017) as world:
            alice = world.user("alice")
            await alice.slash("raptor settings", dm_hand=True)
            table = await world.new_table(raptor="alice", scientist="bob")
            await table.play_until_over(random.Random(11), act_share=0.25)
            dump_records(world.fake, OUT / "e2e-match.txt")
    with tempfile.TemporaryDirectory() as tmp:
        async with World.open(Path(tmp), seed=7_000_123) as world:
            carol = world.user("carol")
            await carol.slash("raptor practice", side="scientist", level="easy")
            # play the human side with the easy AI through /raptor act
            import engine
            from engine import Side
            for _ in range(400):
                m = await world.observer.active_match(world.fake.channel.id)
                if m is None:
                    break
                if Side.SCIENTIST not in engine.to_act(m.state):
                    await asyncio.sleep(0.05)
                    continue
                from bot.ai import choose_action
                a = choose_action(engine.view(m.state, Side.SCIENTIST), level="easy",
                                  seed=m.version)
                await carol.slash("raptor act", action=engine.format_action(a))
            dump_records(world.fake, OUT / "e2e-practice.txt")


def terminal() -> None:
    script = ("play 4\ngas k5\ngas d4\nplay 8\nL6-L5\nL5 sleep K5\nL3-K3\nplay 7\nplay 9\n?\n"
              "rules\ncards\nboard\nxyz\nkill A1\nquit\n")
    work = OUT / "_term"
    subprocess.run(["rm", "-rf", str(work)])
    r = subprocess.run([PY, "-m", "bot", "play", "--seed", "8939373321752501320", "--side",
                        "scientist", "--out", str(work)], input=script, capture_output=True,
                       text=True, env={**os.environ, "COLUMNS": "100"})
    (OUT / "terminal-scientist.txt").write_text(_shown(r, work))
    script = "\n".join(["?"] + ["end"] * 5 + ["play 9", "play 1", "play 2", "play 3"] * 20
                       + ["q"]) + "\n"
    r = subprocess.run([PY, "-m", "bot", "play", "--seed", "42", "--side", "raptor",
                        "--out", str(work)], input=script, capture_output=True, text=True,
                       env={**os.environ, "COLUMNS": "100"})
    (OUT / "terminal-raptor.txt").write_text(_shown(r, work))


if __name__ == "__main__":
    which = sys.argv[2:] or ["demos", "selfplay", "e2e", "terminal"]
    if "demos" in which:
        demos()
    if "selfplay" in which:
        selfplay()
    if "terminal" in which:
        terminal()
    if "e2e" in which:
        asyncio.run(e2e())
    print("recorded", OUT)
