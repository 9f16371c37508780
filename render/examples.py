"""Example pictures for the README: ``python -m render.examples [--out DIR]``.

Plays seeded random games with the engine (fixed seeds, so the pictures only change when the
engine or the renderer does), picks a lively mid-game position of each environment and
writes ``board-jungle.png``, ``board-savannah.png`` and ``hand.png`` (default: ``docs/``).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import engine
from engine import Phase, Side

from .board import render_board
from .hand import render_hand

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "docs"
_SHOWN = {"moved", "called", "jeep", "shot", "slept", "killed", "captured", "fire_placed",
          "fire_out", "escaped", "reinforced", "frightened", "stood", "woken"}


def _score(s: engine.GameState) -> int:
    """How much a pick-phase position shows: highlighted events and kinds of pieces."""
    kinds = {e.kind for e in s.last_round_events if e.kind in _SHOWN}
    moves = sum(1 for e in s.last_round_events if e.kind in _SHOWN)
    codes = set(s.board)
    variety = sum(1 for group in ({3}, {7, 8}, {11, 12}, {6}, {9, 10}) if codes & group)
    return 3 * len(kinds) + min(moves, 6) + 4 * variety + 2 * min(s.sleep_tokens, 2)


def lively_position(seed: int, environment: str, *, games: int = 12) -> engine.GameState:
    """The best pick-phase position (round 4 or later, game not over) of ``games`` random
    games from ``seed`` by :func:`_score`; deterministic."""
    best, best_score = None, -1
    for g in range(games):
        s = engine.new_game(seed + g, environment=environment, layout="random",
                            setup="quick")
        rng = random.Random(seed + g)
        while s.phase is not Phase.OVER and s.round < 40:
            side = sorted(engine.to_act(s))[0]
            s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
            if s.phase is Phase.PICK and s.round >= 4 and not any(s.picks.values()):
                sc = _score(s)
                if sc > best_score:
                    best, best_score = s, sc
    assert best is not None
    return best


def write_examples(out: Path) -> list[Path]:
    """Write the example PNGs into ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    jungle = lively_position(100, "jungle")
    savannah = lively_position(200, "savannah")
    files = {
        "board-jungle.png": render_board(engine.view(jungle, None)),
        "board-savannah.png": render_board(engine.view(savannah, None)),
        "hand.png": render_hand(engine.view(jungle, Side.RAPTOR)),
    }
    paths = []
    for name, data in files.items():
        path = out / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Write example board and hand images.")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder (default: docs/)")
    args = ap.parse_args(argv)
    for path in write_examples(args.out):
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
