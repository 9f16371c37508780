"""Positions for the AI's tests: random decision points, a copy with other hidden cards,
boards drawn as diagrams."""

from __future__ import annotations

import json
import random

import engine
from engine import GameState, Phase, Side, from_diagram, legal_actions

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST


def random_positions(seeds: range, stride: int) -> list[tuple[GameState, Side]]:
    """Decision points of random games: every setup decision, every mother's return and
    observation pick, and every ``stride``-th other decision."""
    out: list[tuple[GameState, Side]] = []
    for seed in seeds:
        s = engine.new_game(seed)
        rng = random.Random(seed)
        n = 0
        while not s.is_over and s.round <= 120:
            for side in (RAPTOR, SCIENTIST):
                if side not in engine.to_act(s):
                    continue
                special = (s.phase in (Phase.SETUP_MOTHER, Phase.SETUP_BABIES,
                                       Phase.SETUP_SCIENTISTS, Phase.MOTHER_RETURN)
                           or (s.phase is Phase.PICK and s.observation))
                if special or n % stride == 0:
                    out.append((s, side))
                n += 1
                s = engine.apply(s, side, rng.choice(legal_actions(s, side)))
    return out



def swap_hidden(state: GameState, side: Side) -> GameState:
    """A copy of ``state`` where ``side``'s hidden cards differ: a hand card (or the
    unrevealed pick) trades places with a deck card, and the deck is reversed."""
    rec = json.loads(state.to_json())
    key = side.value
    hand, deck = rec["hands"][key], rec["decks"][key]
    pick = rec["picks"][key]
    if deck and hand:
        hand[0], deck[0] = deck[0], hand[0]
    elif deck and pick is not None and rec["revealed"] is None:
        rec["picks"][key], deck[0] = deck[0], pick
    rec["hands"][key] = sorted(hand)
    rec["decks"][key] = deck[::-1]
    return GameState.from_json(json.dumps(rec))



def diagram(rows: list[str], **keys: str) -> GameState:
    lines = ["    A B C D E F G H I J K L M"]
    for r, row in enumerate(rows):
        edge = "o" if r in (0, 5) else " "
        lines.append(f"{r + 1}   " + " ".join(edge + row + edge))
    lines += [f"{k.replace('_', ' ')}: {v}" for k, v in keys.items()]
    return from_diagram("\n".join(lines) + "\n")



def pick_position() -> GameState:
    return diagram(["..B........",
                    "...........",
                    "......M....",
                    "...S.......",
                    "........S..",
                    "..B........"], round="4", raptor_hand="2 5 8", scientist_discard="9 2")

