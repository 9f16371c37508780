"""The AI opponent (bot/ai.py): it sees only a view, plays legally everywhere, is
deterministic for a seed, finds the obvious tactics and beats random play."""

from __future__ import annotations

import ast
import itertools
import json
import math
import random
from pathlib import Path

import pytest

import engine
from bot import ai
from bot.ai import choose_action, evaluate
from engine import GameState, Phase, Side, from_diagram, legal_actions, view
from engine.state import EMPTY

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
AI_SOURCE = Path(ai.__file__)


# ----------------------------------------------------------------------------- helpers
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


@pytest.fixture(scope="module")
def positions() -> list[tuple[GameState, Side]]:
    pos = random_positions(range(6), stride=9)
    assert len(pos) >= 300
    return pos


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
    tree = ast.parse(AI_SOURCE.read_text())
    imported: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            modules.add(node.module or "")
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
    engine_modules = {m for m in modules if m.startswith("engine")}
    # the package API, plus the cell codes and board geometry constants
    assert engine_modules <= {"engine", "engine.state", "engine.geometry"}
    assert not modules & {"engine.rules", "engine.view", "engine.diagram", "bot.match"}
    forbidden = {"GameState", "new_game", "replay", "from_diagram", "from_json",
                 "StateRecord", "to_json"}
    assert not imported & forbidden
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & forbidden, names & forbidden
    assert "sample_state" in names  # how it learns its legal actions


@pytest.mark.parametrize("level", ["easy", "hard"])
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


def test_hard_is_always_legal(positions):
    assert len(positions[::2]) >= 300
    for i, (s, side) in enumerate(positions[::2]):
        action = choose_action(view(s, side), level="hard", seed=i, iterations=1)
        assert action in legal_actions(s, side), (engine.to_diagram(s), side, action)


# ----------------------------------------------------------------------------- determinism
@pytest.mark.parametrize("level", ["easy", "hard"])
def test_same_view_and_seed_give_the_same_action(positions, level):
    for i, (s, side) in enumerate(positions[::15]):
        v = view(s, side)
        first = choose_action(v, level=level, seed=i, iterations=3)
        assert choose_action(v, level=level, seed=i, iterations=3) == first


# ----------------------------------------------------------------------------- tactics
def diagram(rows: list[str], **keys: str) -> GameState:
    lines = ["    A B C D E F G H I J K L M"]
    for r, row in enumerate(rows):
        edge = "o" if r in (0, 5) else " "
        lines.append(f"{r + 1}   " + " ".join(edge + row + edge))
    lines += [f"{k.replace('_', ' ')}: {v}" for k, v in keys.items()]
    return from_diagram("\n".join(lines) + "\n")


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_mother_kills_an_adjacent_scientist(level):
    s = diagram([".....S.....",
                 "...........",
                 "...S.MS....",
                 "...........",
                 "B..........",
                 "..........."], phase="ap", ap="raptor 1", revealed="9 8")
    action = choose_action(view(s, RAPTOR), level=level, seed=0, iterations=2)
    assert action == engine.Kill(engine.square("H3"))


@pytest.mark.parametrize("level", ["easy", "hard"])
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


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_scientist_captures_a_sleeping_baby(level):
    s = diagram(["...........",
                 "..bS.......",
                 "...........",
                 "......M....",
                 "..B........",
                 "..........."], phase="ap", ap="scientist 1", revealed="3 9")
    action = choose_action(view(s, SCIENTIST), level=level, seed=0, iterations=2)
    assert action == engine.Capture(engine.square("E2"), engine.square("D2"))


@pytest.mark.parametrize("level", ["easy", "hard"])
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


def test_evaluation_favours_the_side_that_is_ahead():
    base = ["...........", "...........", "...S.M.....", "...........", "B....B.....",
            "..S........"]
    even = evaluate(view(diagram(base), RAPTOR))
    assert evaluate(view(diagram(base, escaped="1"), RAPTOR)) > even + 100
    assert evaluate(view(diagram(base, sleep="2"), RAPTOR)) < even - 100
    assert evaluate(view(diagram(base, escaped="3", winner="raptor babies_escaped"),
                         None)) == ai.WIN


def test_evaluation_counts_a_coming_observation_until_its_pick_is_over():
    # R5.2: a round that starts under observation is worth W["observe_next"] to the raptor
    # (as the round where Disappearance was resolved, observe-next, already is); once the
    # cards are revealed the advantage is spent and no longer counts
    base = ["...........", "...........", "...S.M.....", "...........", "B....B.....",
            "..S........"]
    plain = evaluate(view(diagram(base), RAPTOR))
    assert evaluate(view(diagram(base, observation="yes"), RAPTOR)) == pytest.approx(
        plain + ai.W["observe_next"])
    revealed = dict(phase="ap", ap="raptor 3", revealed="9 6")
    assert evaluate(view(diagram(base, observation="yes", **revealed), RAPTOR)) == (
        evaluate(view(diagram(base, **revealed), RAPTOR)))
    assert evaluate(view(diagram(base, **{"observe-next": "yes"}, **revealed), RAPTOR)) == (
        pytest.approx(evaluate(view(diagram(base, **revealed), RAPTOR)) + ai.W["observe_next"]))


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


# ----------------------------------------------------------------------------- hard search
def test_escape_path_goes_round_figurines_to_the_nearest_exit():
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...........",
                 "........S..",
                 "..........."])
    path = ai._escape_path(s.board, engine.square("D1"), s.layout.exits)
    assert path == [engine.square(q) for q in ("C1", "B1", "A1")]
    blocked = diagram([".SB........",
                       "S..........",
                       "......M....",
                       "...........",
                       "........S..",
                       "..........."])
    path = ai._escape_path(blocked.board, engine.square("D1"), blocked.layout.exits)
    # B1 and B2 hold scientists: round them down column C to A6 (8 steps; M1 needs 9)
    assert path[-1] == engine.square("A6") and len(path) == 8
    steps = [engine.square("D1"), *path]
    assert all(b in engine.geometry.NEIGHBOURS[a] for a, b in zip(steps, steps[1:], strict=False))
    assert all(blocked.board[q] == EMPTY for q in path[:-1])


def test_hard_walks_a_baby_out_over_several_steps_rather_than_kill():
    # three AP: the baby on D1 reaches A1 in three steps and wins (R6.1: third escape);
    # a kill of the scientist next to the mother scores more after one step
    s = diagram(["..B........",
                 "...........",
                 "......MS...",
                 "...........",
                 "........S..",
                 "..........."], phase="ap", ap="raptor 3", revealed="9 6",
                escaped="2")
    assert ai._greedy(s, RAPTOR, legal_actions(s, RAPTOR)) == engine.Kill(engine.square("I3"))
    action = choose_action(view(s, RAPTOR), level="hard", seed=0, iterations=6)
    assert action == engine.MoveBaby(engine.square("D1"), engine.square("C1"))


def test_opponent_pick_model_is_a_distribution_over_its_possible_cards():
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...........",
                 "........S..",
                 "..........."], scientist_discard="9 2")
    probs = ai._opponent_pick_model(view(s, RAPTOR), RAPTOR)
    assert set(probs) == {1, 3, 4, 5, 6, 7, 8}
    assert sum(probs.values()) == pytest.approx(1.0)
    assert min(probs.values()) >= ai.UNIFORM_MIX / 7 - 1e-12
    shown = diagram(["..B........",
                     "...........",
                     "......M....",
                     "...........",
                     "........S..",
                     "..........."], observation="yes", scientist_pick="4")
    v = view(shown, RAPTOR)
    assert v.shown_pick == 4
    assert ai._opponent_pick_model(v, RAPTOR) == {4: 1.0}
    # the scientist under observation: the raptor answers our card (no prior model)
    assert ai._opponent_pick_model(view(shown, SCIENTIST), SCIENTIST) is None


def test_opponent_pick_model_leans_to_hands_keeping_the_least_liked_cards(monkeypatch):
    # four cards left to the scientist (R5.6), three in hand: four possible hands. Ranked
    # by the easy heuristic a > b > c > d, it picks a from the three hands holding a and
    # b from the fourth; each card weighs exp(kappa * rank / 3) in its hand's weight.
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...S.......",
                 "........S..",
                 "..B........"], round="4", scientist_discard="9 2 4 6 8",
                scientist_hand="1 3 5")
    # as shipped: the raptor only (the hard scientist models the raptor's hands alike)
    assert ai.HAND_STICKINESS == {RAPTOR: 2.0}
    v = view(s, RAPTOR)
    mix = ai.UNIFORM_MIX
    monkeypatch.setattr(ai, "HAND_STICKINESS", {})
    alike = ai._opponent_pick_model(v, RAPTOR)
    assert set(alike) == {1, 3, 5, 7}
    ranked = sorted(alike, key=alike.get, reverse=True)
    a, b = ranked[0], ranked[1]
    assert alike[a] == pytest.approx(mix / 4 + (1 - mix) * 3 / 4)
    assert alike[b] == pytest.approx(mix / 4 + (1 - mix) / 4)
    monkeypatch.setattr(ai, "HAND_STICKINESS", {RAPTOR: 2.0})
    sticky = ai._opponent_pick_model(v, RAPTOR)
    e = math.exp
    bcd = e(2 * (1 + 2 + 3) / 3)
    total = e(2 * (0 + 1 + 2) / 3) + e(2 * (0 + 1 + 3) / 3) + e(2 * (0 + 2 + 3) / 3) + bcd
    assert sticky[b] == pytest.approx(mix / 4 + (1 - mix) * bcd / total)
    assert sticky[a] == pytest.approx(mix / 4 + (1 - mix) * (1 - bcd / total))
    assert sticky[a] < alike[a] and sticky[b] > alike[b]
    assert sum(sticky.values()) == pytest.approx(1.0)
    assert {c: sticky[c] for c in sticky if c not in (a, b)} == {
        c: pytest.approx(mix / 4) for c in sticky if c not in (a, b)}


def test_opponent_pick_model_is_the_easy_pick_of_every_hand(monkeypatch):
    # with all hands alike, the raptor's model of the scientist's card is exactly the easy
    # pick of each hand the scientist may hold (20 hands of 3 from 6 cards, R5.6), mixed
    # with a uniform pick
    rows = ["..B........",
            "...S.......",
            "......M....",
            "..b........",
            "........S..",
            "..B........"]
    keys = dict(round="4", scientist_discard="9 2 4", raptor_discard="3 5")
    pool = [1, 3, 5, 6, 7, 8]
    monkeypatch.setattr(ai, "HAND_STICKINESS", {})
    mix = ai.UNIFORM_MIX
    picks = {}
    for hand in itertools.combinations(pool, 3):
        s = diagram(rows, **keys, scientist_hand=" ".join(map(str, hand)))
        picks[hand] = ai._easy_pick(view(s, SCIENTIST), SCIENTIST, list(hand))
    # the hands' picks, for cards 1 3 5 6 7 8
    assert [list(picks.values()).count(c) for c in pool] == [0, 0, 1, 3, 6, 10]
    expected = {c: mix / 6 + (1 - mix) * sum(p == c for p in picks.values()) / 20
                for c in pool}
    model = ai._opponent_pick_model(view(diagram(rows, **keys), RAPTOR), RAPTOR)
    assert model == pytest.approx(expected)


# ----------------------------------------------------------------------------- lookahead
def test_lookahead_values_a_round_the_scientist_wins_as_lost():
    # the scientist has 2 AP left and two babies already captured: the easy scientist
    # captures the sleeping baby on E2 (R8.4) and wins (R6.2) before the next pick
    s = diagram(["...........",
                 "..bS.......",
                 "...........",
                 "......M....",
                 "..B........",
                 "..........."], phase="ap", ap="scientist 2", revealed="3 9",
                captured="2")
    styles = {RAPTOR: ai.W, SCIENTIST: ai.W}
    value = ai._next_pick_value(s, RAPTOR, s.round, random.Random(0), styles)
    slope, offset = ai.WIN_CHANCE[RAPTOR]
    assert value == pytest.approx(1.0 / (1.0 + math.exp(slope * ai.WIN - offset)))
    assert value < 1e-20   # a lost game: no chance at all


def test_raptor_values_positions_as_a_chance_of_winning():
    # the raptor's values are the logistic of its score (R6: a won game about 1, a lost
    # one about 0); the scientist's stay in points
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...S.......",
                 "........S..",
                 "..B........"], round="4")
    slope, offset = ai.WIN_CHANCE[RAPTOR]
    points = ai._score(ai._Pos.of(s))
    chance = ai._value(s, RAPTOR)
    assert chance == pytest.approx(1.0 / (1.0 + math.exp(-(slope * points + offset))))
    assert 0.05 < chance < 0.999
    assert ai._value(s, SCIENTIST) == -points
    won = diagram(["..B........",
                   "...........",
                   "......M....",
                   "...........",
                   "...........",
                   "..B........"], escaped="3")
    assert ai._value(won, RAPTOR) == pytest.approx(1.0)


def test_lookahead_at_the_next_pick_is_our_best_card_in_the_pick_table():
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...S.......",
                 "........S..",
                 "..B........"], round="4", raptor_hand="2 5 8", scientist_discard="9 2")
    assert s.phase is Phase.PICK
    styles = {RAPTOR: ai.W, SCIENTIST: ai.W}
    value = ai._next_pick_value(s, RAPTOR, s.round - 1, random.Random(7), styles)
    table = ai._pick_table(view(s, RAPTOR), RAPTOR, [2, 5, 8], random.Random(7), styles,
                           ai.LOOKAHEAD_MIN_PROB)
    assert set(table) == {2, 5, 8}
    assert value == max(table.values())


def test_hard_raptor_plays_the_proposal_the_lookahead_values_most(monkeypatch):
    # one AP: the beam proposes each single action; the lookahead, not the static score,
    # chooses among them. Make it prefer the baby on D1 stepping to C1, which the static
    # score ranks below the mother's moves.
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...........",
                 "........S..",
                 "..........."], phase="ap", ap="raptor 1", revealed="9 8")
    assert ai.LOOKAHEAD[RAPTOR]
    target = engine.square("C1")
    proposals = [first for _v, first, _n in ai._beam(s, RAPTOR, ai.BEAM_WIDTH, ai.W)]
    wanted = engine.MoveBaby(engine.square("D1"), target)
    assert wanted in proposals[:ai.TOP_K] and proposals[0] != wanted

    def fake(state, me, r0, rng, styles):
        return 100.0 if state.board[target] == engine.state.BABY else 0.0

    monkeypatch.setattr(ai, "_next_pick_value", fake)
    assert choose_action(view(s, RAPTOR), level="hard", seed=0, iterations=6) == wanted


def test_lookahead_stops_valuing_proposals_once_the_deadline_has_passed(monkeypatch):
    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...........",
                 "........S..",
                 "..........."], phase="ap", ap="raptor 2", revealed="9 7")
    finals = ai._beam(s, RAPTOR, ai.BEAM_WIDTH, ai.W)
    assert len(finals) >= 4
    calls = []

    def counted(state, me, r0, rng, styles):
        calls.append(state.board)
        return float(len(calls))  # the later a proposal is valued, the more it is worth

    monkeypatch.setattr(ai, "_next_pick_value", counted)
    styles = {RAPTOR: ai.W, SCIENTIST: ai.W}
    # a deadline already passed: only the two best proposals (by static score) are valued
    late = ai._best_by_lookahead(finals, s.round, RAPTOR, random.Random(0),
                                 ai._Clock(20, 0.0), styles)
    assert len(calls) == 2 and late == finals[1][1]
    calls.clear()
    # no deadline (fixed iterations): every proposal is valued, and the last one wins here
    every = ai._best_by_lookahead(finals, s.round, RAPTOR, random.Random(0),
                                  ai._Clock(20, None), styles)
    assert len(calls) == len(finals) and every == finals[-1][1]


def pick_position() -> GameState:
    return diagram(["..B........",
                    "...........",
                    "......M....",
                    "...S.......",
                    "........S..",
                    "..B........"], round="4", raptor_hand="2 5 8", scientist_discard="9 2")


def test_hard_raptor_picks_the_card_the_lookahead_values_most(monkeypatch):
    # the pick values each pair of cards by the lookahead (the round played out, then the
    # next pick): make it prefer card 5 whatever the scientist plays
    s = pick_position()
    assert ai.PICK_LOOKAHEAD[RAPTOR]
    seen = []

    def fake(state, me, r0, rng, styles):
        assert me is RAPTOR and r0 == s.round
        seen.append(state.revealed)
        return 1.0 if state.revealed is not None and state.revealed[0] == 5 else 0.0

    monkeypatch.setattr(ai, "_next_pick_value", fake)
    assert choose_action(view(s, RAPTOR), level="hard", seed=3, iterations=100) == engine.Pick(5)
    # every raptor card against every card outside the scientist's discard pile (a tie
    # ends the round at once, R5.3, so that pair has no revealed cards left to see)
    pairs = {r for r in seen if r is not None}
    assert pairs == {(mine, theirs) for mine in (2, 5, 8) for theirs in (1, 3, 4, 5, 6, 7, 8)
                     if mine != theirs}
    # without the lookahead the same pick, valued at the round's end, is another card
    monkeypatch.setitem(ai.PICK_LOOKAHEAD, RAPTOR, False)
    assert choose_action(view(s, RAPTOR), level="hard", seed=3, iterations=100) != engine.Pick(5)


def test_pick_lookahead_goes_from_the_likeliest_card_while_the_clock_allows(monkeypatch):
    s = pick_position()
    v = view(s, RAPTOR)
    probs = ai._opponent_pick_model(v, RAPTOR)
    likeliest = max(sorted(probs), key=probs.__getitem__)
    calls = []

    def counted(state, me, r0, rng, styles):
        calls.append(state)
        return 0.5

    monkeypatch.setattr(ai, "_next_pick_value", counted)
    styles = {RAPTOR: ai.W, SCIENTIST: ai.W}
    # a deadline already passed: only the likeliest card's column is valued again
    late = ai._pick_table(v, RAPTOR, [2, 5, 8], random.Random(0), styles,
                          clock=ai._Clock(100, 0.0))
    assert len(calls) == 3
    assert {c.revealed[1] for c in calls if c.revealed is not None} == {likeliest}
    plain = ai._pick_table(v, RAPTOR, [2, 5, 8], random.Random(0), styles)
    assert late != plain
    # a cap of 7 units: the first card (3 units) and one more (6); a third would pass it
    calls.clear()
    ai._pick_table(v, RAPTOR, [2, 5, 8], random.Random(0), styles, clock=ai._Clock(7, None))
    assert len(calls) == 6
    # no clock (the lookahead's own next pick): values at the round's end only
    calls.clear()
    assert ai._pick_table(v, RAPTOR, [2, 5, 8], random.Random(0), styles) == plain
    assert calls == []
