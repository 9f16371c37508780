"""The AI's entry point (bot/ai/__init__.py): it sees only a view, plays legally
everywhere, is deterministic for a seed, finds the obvious tactics and beats random play."""

from __future__ import annotations

import ast
import random
import sys
from pathlib import Path

import pytest

import bot.ai
import engine
from bot.ai import choose_action
from engine import GameState, Phase, Side, legal_actions, view
from tests.ai.helpers import diagram, random_positions, swap_hidden

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
AI_PACKAGE = Path(bot.ai.__file__).parent


@pytest.fixture(scope="module")
def positions() -> list[tuple[GameState, Side]]:
    pos = random_positions(range(6), stride=9)
    assert len(pos) >= 300
    return pos


# ----------------------------------------------------------------------------- honesty
def test_takes_a_view_and_refuses_the_state():
    s = engine.new_game(3, setup="quick")
    action = choose_action(view(s, RAPTOR), level="easy", seed=1)
    assert action in legal_actions(s, RAPTOR)
    with pytest.raises(TypeError):
        choose_action(s, level="easy")  # type: ignore[arg-type]


def test_refuses_a_public_view_or_a_side_with_nothing_to_decide():
    s = engine.new_game(3)  # manual setup: only the raptor decides
    with pytest.raises(ValueError, match="public"):
        choose_action(view(s, None))
    with pytest.raises(ValueError, match="nothing to decide"):
        choose_action(view(s, SCIENTIST))
    with pytest.raises(ValueError, match="level"):
        choose_action(view(s, RAPTOR), level="impossible")
    with pytest.raises(ValueError, match="iterations"):
        choose_action(view(s, RAPTOR), level="hard", iterations=0)


def test_imports_only_the_public_engine_and_never_a_game_state():
    sources = sorted(AI_PACKAGE.glob("*.py"))
    assert {p.stem for p in sources} >= {"__init__", "evaluation", "model", "search", "easy"}
    imported: set[str] = set()
    modules: set[str] = set()
    names: set[str] = set()
    for path in sources:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                modules.add(node.module or "")
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                modules.update(alias.name for alias in node.names)
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    engine_modules = {m for m in modules if m.startswith("engine")}
    # the package API, plus the cell codes, board geometry constants and rule predicates
    assert engine_modules <= {"engine", "engine.state", "engine.geometry", "engine.predicates"}
    assert not modules & {"engine.rules", "engine.view", "engine.diagram", "bot.match"}
    # the AI needs only the engine and the standard library: nothing of the bot or discord
    others = {m.split(".")[0] for m in modules if not m.startswith(("engine", "bot.ai"))}
    assert others <= set(sys.stdlib_module_names), others - set(sys.stdlib_module_names)
    forbidden = {"GameState", "new_game", "replay", "from_diagram", "from_json",
                 "StateRecord", "to_json"}
    assert not imported & forbidden
    assert not names & forbidden, names & forbidden
    assert "sample_state" in names  # how it learns its legal actions


def test_each_module_imports_only_the_modules_below_it():
    # the module list of docs/AI.md, bottom first: no import cycle inside the AI
    order = ["params", "evaluation", "model", "pick_model", "easy", "search", "__init__"]
    assert sorted(p.stem for p in AI_PACKAGE.glob("*.py")) == sorted(order)
    for i, name in enumerate(order):
        tree = ast.parse((AI_PACKAGE / f"{name}.py").read_text())
        uses = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "bot.ai":
                uses.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.ai."):
                uses.add(node.module.removeprefix("bot.ai."))
        assert uses <= set(order[:i]), (name, uses - set(order[:i]))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_opponents_hidden_cards_do_not_change_the_decision(positions, level):
    checked = 0
    for s, side in positions[::8]:
        other = swap_hidden(s, side.other)
        if other.hands[side.other] == s.hands[side.other] and (
                other.picks[side.other] == s.picks[side.other]):
            continue
        assert other.decks[side.other] != s.decks[side.other] or (
            other.hands[side.other] != s.hands[side.other])
        assert view(other, side) == view(s, side)
        a = choose_action(view(s, side), level=level, seed=7, iterations=2)
        b = choose_action(view(other, side), level=level, seed=7, iterations=2)
        assert a == b
        assert b in legal_actions(other, side)
        checked += 1
    assert checked >= 30


# ----------------------------------------------------------------------------- legality
def test_easy_is_always_legal(positions):
    phases = set()
    observed = 0
    for i, (s, side) in enumerate(positions):
        action = choose_action(view(s, side), level="easy", seed=i)
        assert action in legal_actions(s, side), (engine.to_diagram(s), side, action)
        phases.add(s.phase)
        observed += s.phase is Phase.PICK and s.observation
    assert phases == {Phase.SETUP_MOTHER, Phase.SETUP_BABIES, Phase.SETUP_SCIENTISTS,
                      Phase.PICK, Phase.EFFECT, Phase.AP, Phase.MOTHER_RETURN}
    assert observed >= 4


#: Each searching level's legality is checked over every other position, in two halves
#: (games 0-2 and 3-5: some 5 CPU seconds a half for medium, 2.5 for hard): the default
#: run checks the first, ``pytest -m soak`` the second.
HALVES = [0, pytest.param(1, marks=pytest.mark.soak)]


@pytest.mark.parametrize("half", HALVES)
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_searching_levels_are_always_legal(positions, level, half):
    assert len(positions[::2]) >= 300
    middle = len(positions[::2]) // 2
    for i, (s, side) in enumerate(positions[::2]):
        if (i < middle) != (half == 0):
            continue
        action = choose_action(view(s, side), level=level, seed=i, iterations=1)
        assert action in legal_actions(s, side), (engine.to_diagram(s), side, action)


def test_the_levels_are_easy_medium_and_hard():
    assert bot.ai.LEVELS == ("easy", "medium", "hard")


# ----------------------------------------------------------------------------- determinism
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_same_view_and_seed_give_the_same_action(positions, level):
    for i, (s, side) in enumerate(positions[::15]):
        v = view(s, side)
        first = choose_action(v, level=level, seed=i, iterations=3)
        assert choose_action(v, level=level, seed=i, iterations=3) == first



@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_mother_kills_an_adjacent_scientist(level):
    s = diagram([".....S.....",
                 "...........",
                 "...S.MS....",
                 "...........",
                 "B..........",
                 "..........."], phase="ap", ap="raptor 1", revealed="9 8")
    action = choose_action(view(s, RAPTOR), level=level, seed=0, iterations=2)
    assert action == engine.Kill(engine.square("H3"))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_baby_next_to_an_exit_escapes(level):
    s = diagram(["B..........",
                 "...........",
                 "......S....",
                 "...M.......",
                 "........S..",
                 "..........."], phase="ap", ap="raptor 1", revealed="9 8",
                escaped="2")
    action = choose_action(view(s, RAPTOR), level=level, seed=0, iterations=2)
    assert action == engine.MoveBaby(engine.square("B1"), engine.square("A1"))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_scientist_captures_a_sleeping_baby(level):
    s = diagram(["...........",
                 "..bS.......",
                 "...........",
                 "......M....",
                 "..B........",
                 "..........."], phase="ap", ap="scientist 1", revealed="3 9")
    action = choose_action(view(s, SCIENTIST), level=level, seed=0, iterations=2)
    assert action == engine.Capture(engine.square("E2"), engine.square("D2"))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_scientist_shoots_the_mother(level):
    s = diagram(["...........",
                 "...........",
                 "..S...M....",
                 "...........",
                 "..........B",
                 "........S.."], phase="ap", ap="scientist 1", revealed="3 9",
                sleep="4")
    action = choose_action(view(s, SCIENTIST), level=level, seed=0, iterations=2)
    assert action == engine.Shoot(engine.square("D3"), engine.square("H3"))



# ----------------------------------------------------------------------------- strength
def test_easy_beats_random_play():
    wins = 0
    for g in range(20):
        ai_side = RAPTOR if g % 2 == 0 else SCIENTIST
        s = engine.new_game(500 + g)
        rng = random.Random(g)
        while not s.is_over and s.round <= 300:
            for side in (RAPTOR, SCIENTIST):
                if side not in engine.to_act(s):
                    continue
                if side is ai_side:
                    action = choose_action(view(s, side), level="easy", seed=g)
                else:
                    action = rng.choice(legal_actions(s, side))
                s = engine.apply(s, side, action)
        wins += s.winner is ai_side
    assert wins >= 16

