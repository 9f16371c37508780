"""The AI's static evaluation (bot/ai/evaluation.py): who is ahead, in points for the
raptor, from public information only."""

from __future__ import annotations

import pytest

from bot.ai import evaluate, params
from engine import Side, view
from tests.ai.helpers import diagram

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST


def test_evaluation_favours_the_side_that_is_ahead():
    base = ["...........", "...........", "...S.M.....", "...........", "B....B.....",
            "..S........"]
    even = evaluate(view(diagram(base), RAPTOR))
    assert evaluate(view(diagram(base, escaped="1"), RAPTOR)) > even + 100
    assert evaluate(view(diagram(base, sleep="2"), RAPTOR)) < even - 100
    assert evaluate(view(diagram(base, escaped="3", winner="raptor babies_escaped"),
                         None)) == params.WIN


def test_evaluation_counts_a_coming_observation_until_its_pick_is_over():
    # R5.2: a round that starts under observation is worth W["observe_next"] to the raptor
    # (as the round where Disappearance was resolved, observe-next, already is); once the
    # cards are revealed the advantage is spent and no longer counts
    base = ["...........", "...........", "...S.M.....", "...........", "B....B.....",
            "..S........"]
    plain = evaluate(view(diagram(base), RAPTOR))
    assert evaluate(view(diagram(base, observation="yes"), RAPTOR)) == pytest.approx(
        plain + params.W["observe_next"])
    revealed = dict(phase="ap", ap="raptor 3", revealed="9 6")
    assert evaluate(view(diagram(base, observation="yes", **revealed), RAPTOR)) == (
        evaluate(view(diagram(base, **revealed), RAPTOR)))
    assert evaluate(view(diagram(base, **{"observe-next": "yes"}, **revealed), RAPTOR)) == (
        pytest.approx(evaluate(view(diagram(base, **revealed), RAPTOR)) + params.W["observe_next"]))

