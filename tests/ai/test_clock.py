"""The decision clock (bot/ai/search.py ``Clock``): a search level answers within its
budget whatever the speed of the machine, with a legal decision, and never reads the clock
with fixed iterations. The clocks here are fake: each read advances the time by ``step``."""

from __future__ import annotations

import pytest

from bot.ai import choose_action, deadline_after, params, search
from engine import Phase, Side, legal_actions, view
from tests.ai.helpers import diagram, pick_position, random_positions

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
SEARCH_LEVELS = ["medium", "hard"]


class SlowClock:
    """A fake monotonic clock: every read returns a time ``step`` seconds later. With
    ``work`` (a list whose length counts the work done), each read also notes how much
    work had been done by then, in ``marks``."""

    def __init__(self, step: float, work: list | None = None):
        self.step = step
        self.work = work if work is not None else []
        self.reads: list[float] = []
        self.marks: list[int] = []

    def __call__(self) -> float:
        self.marks.append(len(self.work))
        self.reads.append(len(self.reads) * self.step)
        return self.reads[-1]


@pytest.fixture
def rollouts(monkeypatch) -> list:
    """Counts the search's playouts (one entry per call of ``search.rollout``)."""
    done: list = []
    play = search.rollout

    def counted(*args, **kwargs):
        done.append(1)
        return play(*args, **kwargs)

    monkeypatch.setattr(search, "rollout", counted)
    return done


def ap_position():
    # the raptor's AP phase: beam, escape plans and the lookahead all have work to do
    return diagram(["..B........",
                    "...........",
                    "......MS...",
                    "...........",
                    "........S..",
                    "..........."], phase="ap", ap="raptor 3", revealed="9 6")


def scientist_ap_position():
    return diagram(["..B........",
                    "...........",
                    "......M....",
                    "...S.......",
                    "........S..",
                    "..........."], phase="ap", ap="scientist 3", revealed="2 9")


@pytest.fixture(scope="module")
def positions():
    pos = [(s, side) for s, side in random_positions(range(3), stride=11)
           if len(legal_actions(s, side)) > 1]
    assert len(pos) >= 60
    return pos


def searched(level: str):
    return [(ap_position(), RAPTOR), (pick_position(), RAPTOR),
            (pick_position(), SCIENTIST), (scientist_ap_position(), SCIENTIST)]


def test_the_hard_deadline_keeps_a_margin_for_the_answer():
    # 95 % of a long budget; at least DEADLINE_MARGIN (40 ms) before the end of a short
    # one; at once (the easy level's answer) when the budget is shorter than the margin
    assert params.DEADLINE_MARGIN == 0.04
    assert deadline_after(2.0) == pytest.approx(1.9)
    assert deadline_after(0.5) == pytest.approx(0.46)
    assert deadline_after(0.1) == pytest.approx(0.06)
    assert deadline_after(0.03) == 0.0


@pytest.mark.parametrize("level", SEARCH_LEVELS)
@pytest.mark.parametrize("step", [0.0004, 0.003, 0.02])
def test_a_decision_under_a_slow_clock_returns_in_time(level, step, rollouts):
    budget = 0.05
    own = budget * (params.MEDIUM_WORK_SHARE if level == "medium" else 1.0)  # its share
    stopped = 0
    for s, side in searched(level):
        assert len(legal_actions(s, side)) > 1
        rollouts.clear()
        clock = SlowClock(step, rollouts)
        action = choose_action(view(s, side), level=level, seed=1, time_budget=budget,
                               clock=clock)
        assert action in legal_actions(s, side)
        started, last = clock.reads[0], clock.reads[-1]
        # it returned in time (fake time): at the first read past the hard deadline
        # at the latest, so within the budget + one step
        assert last - started <= deadline_after(own) + step + 1e-9
        assert last - started <= budget * 1.1 + step
        late = [t for t in clock.reads if t - started > deadline_after(own)]
        assert len(late) <= 1, (s.phase, side, len(clock.reads), late)
        # the clock is read inside the loops: at most one playout between two reads, and
        # none after the read that found the deadline passed
        marks = [*clock.marks, len(rollouts)]
        assert max(b - a for a, b in zip(marks, marks[1:], strict=False)) <= 1
        if late:
            assert marks[-1] == marks[-2]
            stopped += 1
    assert stopped >= (4 if step >= 0.003 else 0)


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_a_clock_past_the_deadline_at_once_gives_the_easy_levels_decision(positions, level):
    # one read is already a whole budget: the search stops at its first check and answers
    # as the easy level does, always legally
    phases = set()
    for i, (s, side) in enumerate(positions):
        clock = SlowClock(10.0)
        v = view(s, side)
        action = choose_action(v, level=level, seed=i, time_budget=0.5, clock=clock)
        assert action in legal_actions(s, side)
        assert action == choose_action(v, level="easy", seed=i)
        assert len(clock.reads) == 2  # the start, then the first check inside the search
        phases.add(s.phase)
    assert {Phase.PICK, Phase.AP, Phase.EFFECT} <= phases


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_fixed_iterations_never_read_the_clock(positions, level):
    for i, (s, side) in enumerate(positions[::4]):
        clock = SlowClock(10.0)
        v = view(s, side)
        action = choose_action(v, level=level, seed=i, iterations=2, clock=clock)
        assert clock.reads == []
        assert action == choose_action(v, level=level, seed=i, iterations=2)


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_a_clock_that_never_runs_out_gives_the_work_caps_decision(level, rollouts):
    # time stands still: the deadline checks change nothing, and the work cap
    # (budget x PLAYOUTS_PER_SECOND playouts, medium a share of it) gives the decision of
    # that many iterations
    budget = 0.1
    cap = max(1, round(budget * params.PLAYOUTS_PER_SECOND))
    for s, side in searched(level):
        rollouts.clear()
        clock = SlowClock(0.0, rollouts)
        v = view(s, side)
        timed = choose_action(v, level=level, seed=2, time_budget=budget, clock=clock)
        # read inside the loops, at least once per playout
        assert len(rollouts) >= (4 if level == "hard" else 2)
        assert len(clock.reads) >= len(rollouts)
        assert timed == choose_action(v, level=level, seed=2, iterations=cap)


class Countdown:
    """A deadline check that raises :class:`search.OutOfTime` at its ``n``-th call."""

    def __init__(self, n: int):
        self.n = n
        self.calls = 0

    def __call__(self) -> None:
        self.calls += 1
        if self.calls >= self.n:
            raise search.OutOfTime


def test_a_playout_stops_inside_itself_at_the_deadline():
    # the check is called before every decision of the playout, so a playout of a whole
    # round stops at the third decision when the third check raises
    from bot.ai import easy

    s = pick_position()
    whole = []
    easy.rollout(s, s.round, check=lambda: whole.append(1))
    assert len(whole) >= 4  # both picks, then at least the effect or an AP decision
    check = Countdown(3)
    with pytest.raises(search.OutOfTime):
        easy.rollout(s, s.round, check=check)
    assert check.calls == 3


def test_scoring_a_large_set_of_actions_reads_the_deadline_as_it_goes():
    # the scientist's AP actions of a position with many walks: ranked() calls the check
    # every CHECK_EVERY actions and stops when it raises
    from bot.ai import easy

    s = diagram(["..B........",
                 "...........",
                 "......M....",
                 "...S.......",
                 "........S..",
                 "..........."], phase="ap", ap="scientist 8", revealed="9 1")
    legal = legal_actions(s, SCIENTIST)
    assert len(legal) > 2 * easy.CHECK_EVERY
    calls = []
    assert len(easy.ranked(s, SCIENTIST, legal, check=lambda: calls.append(1))) == len(legal)
    assert len(calls) == len(legal) // easy.CHECK_EVERY
    with pytest.raises(search.OutOfTime):
        easy.ranked(s, SCIENTIST, legal, check=Countdown(2))


def test_past_the_deadline_the_answer_is_the_one_made_before_the_search(monkeypatch):
    # on the clock, the easy level's answer is computed before the search starts; when the
    # search runs out of time nothing more is computed: the easy level is not called again
    from bot.ai import easy

    s, side = ap_position(), RAPTOR
    v = view(s, side)
    expected = choose_action(v, level="easy", seed=3)
    calls = []
    decide = easy.decide

    def counted(*args):
        calls.append(1)
        return decide(*args)

    monkeypatch.setattr(easy, "decide", counted)
    action = choose_action(v, level="hard", seed=3, time_budget=0.5, clock=SlowClock(10.0))
    assert action == expected and len(calls) == 1
    calls.clear()
    choose_action(v, level="hard", seed=3, iterations=2)
    assert calls == []  # fixed iterations: no clock, no answer made in advance
