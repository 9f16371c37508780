"""Hidden information (RJ11.1, RJ11.2): nothing the Ratjack demo, the terminal game or the
match's texts show one seat, or everyone, depends on a card hidden from them — another
seat's hand or face-down cards, the deck order, the cards gone with an eliminated player.
Every such card is dealt again, consistently with what the viewer knows
(:func:`tests.engine.ratjack.conftest.redeal`), and the output stays the same."""

from __future__ import annotations

import random

import pytest

from bot.games.ratjack import terminal
from bot.games.ratjack import texts as T
from bot.games.ratjack.demo import turn_line
from bot.i18n import translator
from engine.ratjack import Phase, apply, legal_actions, new_game, to_act, view
from render.ratjack import render_table
from tests.engine.ratjack.conftest import play, pos, random_states, redeal
from tests.games.ratjack.conftest import at

EN = translator("en")


def _names(seats: int, me: int) -> list:
    return terminal.seat_names(["easy"] * seats, me)


def _steps(count: int, seed: int):
    """``(before, after)`` pairs of consecutive turns' states of seeded random games of 2, 3
    and 4 players, and a random generator."""
    rng = random.Random(seed)
    for k in range(count):
        s = new_game(rng.getrandbits(32), 2 + k % 3, ("rb", "rc", "rw", "cw")[k % 4])
        before = s
        while s.phase is not Phase.OVER:
            (q,) = to_act(s)
            s = apply(s, q, rng.choice(legal_actions(s, q)))
            if (s.round, s.turn) != (before.round, before.turn) or s.is_over:
                yield before, s, rng
                before = s


def _crafted() -> list:
    """Positions random play seldom reaches: Weasel 3's card drawn and not yet placed (its
    drawer alone knows it, RJ7.3); a hidden card looked at (Rat 5)."""
    from tests.games.ratjack.test_texts import CRITTERS, RATS
    weasel3 = play(pos(CRITTERS), "draw deck", "up W12", "+3", "p2", "p2@2", "draw deck",
                   "up W3")
    looked = play(pos(RATS), "draw deck", "up R5", "p2@1")
    return [(weasel3, random.Random(1)), (looked, random.Random(2))]


STATES = [(s, rng) for s, rng in random_states(60, seed=31)] + _crafted()


def test_the_states_cover_every_kind_of_decision():
    phases = {s.phase for s, _ in STATES}
    assert phases == set(Phase)
    assert any(x.seen and not x.up for s, _ in STATES for d in s.displays for x in d)
    assert any(s.drawn is not None for s, _ in STATES)


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_the_terminal_shows_a_seat_nothing_hidden_from_it(lang):
    _ = translator(lang)
    for s, rng in STATES:
        for me in range(s.seats):
            other = redeal(s, me, rng)
            mine, theirs = view(s, me), view(other, me)
            names = _names(s.seats, me)
            assert terminal.table_text(theirs, names, width=80, _=_) == (
                terminal.table_text(mine, names, width=80, _=_))
            assert terminal.hand_text(theirs, _) == terminal.hand_text(mine, _)
            assert terminal.legal_text(theirs, names, _) == terminal.legal_text(mine, names, _)
            assert _.text(T.your_decision(theirs)) == _.text(T.your_decision(mine))
            assert ([_.text(x) for x in T.story(other.events, names)]
                    == [_.text(x) for x in T.story(s.events, names)])


def test_the_demo_shows_everyone_nothing_hidden():
    """The demo's lines and its table images are public: the same whatever a spectator, or
    any one seat, does not know."""
    checked = 0
    for before, after, rng in _steps(6, 41):
        names = [f"p{q + 1} AI (hard)" for q in range(after.seats)]
        line = turn_line(before, after, names, EN)
        for viewer in (None, *range(after.seats)):
            assert turn_line(redeal(before, viewer, rng), redeal(after, viewer, rng), names,
                             EN) == line
        checked += 1
    assert checked > 100
    for s, rng in STATES[:20]:
        names = [f"p{q + 1} AI (hard)" for q in range(s.seats)]
        image = render_table(view(s, None), names=names)
        for viewer in (None, *range(s.seats)):
            assert render_table(view(redeal(s, viewer, rng), None), names=names) == image


async def test_the_texts_of_a_match_show_each_reader_what_they_may_know(service):
    matches = {}
    for n, channel in ((2, 21), (3, 22), (4, 23)):
        matches[n] = await service.start_practice(1, channel, 100 + n, game="ratjack", seat=0,
                                                  level="easy", seats=n, ai_user_id=999,
                                                  seed=n)
    for s, rng in STATES:
        m = at(matches[s.seats], s)
        public = [T.status_text(m), T.card_head(m, 1700000000.0), T.turn_story(m),
                  T.standings_text(m), T.round_result_text(m)]
        public += [T.ping_text(m, q) for q in range(s.seats)]
        for viewer in (None, *range(s.seats)):
            o = at(m, redeal(s, viewer, rng))
            assert [T.status_text(o), T.card_head(o, 1700000000.0), T.turn_story(o),
                    T.standings_text(o), T.round_result_text(o),
                    *[T.ping_text(o, q) for q in range(s.seats)]] == public
            if viewer is not None:
                assert T.private_text(o, viewer) == T.private_text(m, viewer)
