"""Helpers for the engine's rule tests: build positions from compact grids, list actions.

A grid is six strings, one per row (rows 1-6 top to bottom). A row of 11 characters gives
columns B-L; exits then default to the four corners (A1, A6, M1, M6). A row of 13
characters gives columns A-M, a blank for "not part of the board". Cell characters are those
of :mod:`engine.diagram` (``.`` free, ``#`` rock, ``*`` fire, ``o`` exit, ``M`` mother,
``B``/``b``/``z`` baby active/asleep/asleep this round, ``S``/``A`` scientist active/used,
``s``/``f`` frightened / frightened this round).
"""

from __future__ import annotations

import random

import engine
from engine import Side, format_action, from_diagram, legal_actions, square
from engine.geometry import SQUARE_NAMES

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST

#: An empty board: no rocks, exits in the four corners.
EMPTY_ROWS = ["..........."] * 6

_KEY_NAMES = {"observe_next": "observe-next"}


def grid_text(rows: list[str]) -> str:
    """The grid part of a diagram (header and six rows) from compact ``rows``."""
    if len(rows) != 6:
        raise ValueError("a grid has six rows")
    lines = ["    A B C D E F G H I J K L M"]
    for r, row in enumerate(rows):
        if len(row) == 11:
            edge = "o" if r in (0, 5) else " "
            row = edge + row + edge
        if len(row) != 13:
            raise ValueError(f"row {r + 1} must have 11 or 13 characters: {row!r}")
        lines.append(f"{r + 1}   " + " ".join(row))
    return "\n".join(lines)


def diagram(rows: list[str], **keys: object) -> str:
    """A diagram text: the grid plus ``key: value`` lines. Keyword names use ``_`` for a space
    (``raptor_hand="1 2 3"``) and ``observe_next`` for ``observe-next``."""
    lines = [grid_text(rows)]
    for k, v in keys.items():
        name = _KEY_NAMES.get(k, k.replace("_", " "))
        lines.append(f"{name}: {v}")
    return "\n".join(lines) + "\n"


def board(rows: list[str], **keys: object) -> engine.GameState:
    """A position read by :func:`engine.from_diagram` from a compact grid and keys."""
    return from_diagram(diagram(rows, **keys))


def acts(state: engine.GameState, side: Side) -> set[str]:
    """The notation of every legal action of ``side`` now."""
    out = [format_action(a) for a in legal_actions(state, side)]
    assert len(out) == len(set(out)), f"two legal actions share a notation: {out}"
    return set(out)


def play(state: engine.GameState, side: Side, *texts: str) -> engine.GameState:
    """Apply actions given in notation, one after another, all by ``side``."""
    for text in texts:
        state = engine.apply(state, side, engine.parse_action(text, state, side))
    return state


def cell(state: engine.GameState, name: str) -> int:
    """The cell code on square ``name`` (e.g. ``"E4"``)."""
    return state.board[square(name)]


def cells(state: engine.GameState, *codes: int) -> set[str]:
    """Names of the squares holding one of ``codes``."""
    return {SQUARE_NAMES[q] for q in state.squares_with(*codes)}


def names(*text: str) -> set[str]:
    """``names("E4 F5", "G6")`` -> ``{"E4", "F5", "G6"}``."""
    return {w for t in text for w in t.split()}


def actset(*text: str) -> set[str]:
    """Action notations separated by commas: ``actset("E4-E3, kill E5", "end")``."""
    return {a.strip() for t in text for a in t.split(",") if a.strip()}


def hidden_variant(state: engine.GameState, viewer: Side | None,
                   rng: random.Random) -> engine.GameState:
    """A state that differs from ``state`` only in what ``viewer`` may not know (R11.2): the
    seed, every deck order, and the opponent's (for the public view: both players') cards in
    hand, deck and unrevealed pick, dealt out again at random into the same places."""
    t = state.copy()
    t.seed = state.seed + 1_000_003
    hidden_sides = [Side.RAPTOR, Side.SCIENTIST] if viewer is None else [viewer.other]
    for side in (Side.RAPTOR, Side.SCIENTIST):
        hand, deck, pick = t.hands[side], list(t.decks[side]), t.picks[side]
        if side not in hidden_sides:
            rng.shuffle(deck)
            t.decks[side] = tuple(deck)
            continue
        shown = side is Side.SCIENTIST and state.observation and viewer is Side.RAPTOR
        pick_hidden = pick is not None and state.revealed is None and not shown
        pool = list(hand) + deck + ([pick] if pick_hidden else [])
        rng.shuffle(pool)
        t.hands[side] = tuple(sorted(pool[:len(hand)]))
        t.decks[side] = tuple(pool[len(hand):len(hand) + len(deck)])
        if pick_hidden:
            t.picks[side] = pool[-1]
    return t
