"""No leak through pixels (R11): the board image shows only public information."""

import random

import pytest

import engine
from engine import Phase, Side
from render import render_board

from .helpers import EMPTY_GRID

GRID = EMPTY_GRID.replace("1   o . . . .", "1   o . S . .").replace(
    "4     . . . . . .", "4     . . . . M .").replace("5     . . . . .", "5     . B . b .")

# Each case: the public part (phase, piles, revealed cards) and several hidden variants
# (hands, deck order and contents, picks not yet revealed) with equal hand and deck sizes.
CASES = {
    "pick, nothing picked": (
        "phase: pick\nround: 3\nraptor discard: 4 6 8\nscientist discard: 5\n",
        ["raptor hand: 2 5 7\nraptor deck: 1 3 9\n"
         "scientist hand: 1 2 3\nscientist deck: 4 6 7 8 9\n",
         "raptor hand: 1 3 9\nraptor deck: 7 5 2\n"
         "scientist hand: 7 8 9\nscientist deck: 6 4 3 2 1\n",
         "raptor hand: 1 2 3\nraptor deck: 9 7 5\n"
         "scientist hand: 2 4 9\nscientist deck: 1 3 6 7 8\n"]),
    "pick, the scientist picked": (
        "phase: pick\nround: 3\nraptor discard: 4 6 8\nscientist discard: 5\n",
        ["raptor hand: 2 5 7\nraptor deck: 1 3 9\n"
         "scientist hand: 1 2\nscientist pick: 3\nscientist deck: 4 6 7 8 9\n",
         "raptor hand: 1 3 9\nraptor deck: 2 5 7\n"
         "scientist hand: 8 9\nscientist pick: 7\nscientist deck: 1 2 3 4 6\n"]),
    "pick under observation, the scientist's card shown": (
        "phase: pick\nround: 3\nobservation: yes\nraptor discard: 4 6 8\n"
        "scientist discard: 5\n",
        ["raptor hand: 2 5 7\nraptor deck: 1 3 9\n"
         "scientist hand: 1 2\nscientist pick: 3\nscientist deck: 4 6 7 8 9\n",
         "raptor hand: 1 3 9\nraptor deck: 2 5 7\n"
         "scientist hand: 3 9\nscientist pick: 8\nscientist deck: 1 2 4 6 7\n"]),
    "ap after the reveal": (
        "phase: ap\nround: 5\nrevealed: 3 7\nap: scientist 4\nraptor pick: 3\n"
        "scientist pick: 7\nraptor discard: 4 6\nscientist discard: 5\n",
        ["raptor hand: 2 5\nraptor deck: 1 8 9\nscientist hand: 1 2 3\nscientist deck: 4 6 8 9\n",
         "raptor hand: 8 9\nraptor deck: 5 2 1\nscientist hand: 6 8 9\nscientist deck: 4 3 2 1\n"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_public_image_ignores_hidden_fields(case):
    public, variants = CASES[case]
    states = [engine.from_diagram(GRID + public + v) for v in variants]
    # the variants really differ in hidden fields
    assert len({(tuple(sorted(s.hands.items())), tuple(sorted(s.decks.items())),
                 tuple(sorted(s.picks.items()))) for s in states}) == len(states)
    images = {render_board(engine.view(s, None)) for s in states}
    assert len(images) == 1
    for s in states:
        for side in Side:
            assert render_board(engine.view(s, side)) in images, f"{side} view of {case}"


def test_the_hidden_variants_are_not_trivially_equal_views():
    # guard: the player's views of the variants do differ (so the test above can fail)
    public, variants = CASES["pick, the scientist picked"]
    views = [engine.view(engine.from_diagram(GRID + public + v), Side.SCIENTIST)
             for v in variants]
    assert views[0].hand != views[1].hand and views[0].my_pick != views[1].my_pick


def _random_states(n_games: int, every: int) -> list[engine.GameState]:
    out = []
    for g in range(n_games):
        s = engine.new_game(700 + g, environment=("jungle", "savannah")[g % 2],
                            setup="manual")
        rng = random.Random(g)
        step = 0
        while s.phase is not Phase.OVER and step < 600:
            side = sorted(engine.to_act(s))[0]
            s = engine.apply(s, side, rng.choice(engine.legal_actions(s, side)))
            step += 1
            if step % every == 0:
                out.append(s)
        out.append(s)
    return out


def test_every_view_of_random_positions_gives_the_public_image():
    states = _random_states(3, 89)
    assert len(states) >= 12
    assert {s.phase for s in states} & {Phase.PICK, Phase.EFFECT, Phase.AP}
    for s in states:
        public = render_board(engine.view(s, None))
        assert render_board(engine.view(s, Side.RAPTOR)) == public
        assert render_board(engine.view(s, Side.SCIENTIST)) == public


def test_a_determinized_state_gives_the_same_public_image():
    """States that agree on everything public (engine.sample_state keeps the public part and
    redraws hands, deck orders and unrevealed picks) render to the same bytes."""
    rng = random.Random(5)
    for s in _random_states(2, 53)[:8]:
        public = render_board(engine.view(s, None))
        for side in Side:
            other = engine.sample_state(engine.view(s, side), rng)
            assert render_board(engine.view(other, None)) == public
