"""RJ11 Decisions a program needs: what is public, what each seat knows (and nothing more:
the non-interference property), the turn's and the effects' decisions in notation."""

from __future__ import annotations

import pytest

from engine.ratjack import (
    AmbiguousActionError,
    Chip,
    Draw,
    NotationError,
    Opponent,
    Phase,
    RatjackError,
    Source,
    StepKind,
    Target,
    Up,
    WrongTurnError,
    format_action,
    legal_actions,
    parse_action,
    round_cards,
    sample_state,
    to_act,
    view,
)

from .conftest import acts, play, pos, random_states, redeal, row

BASE = """
    players: 3
    phase: action
    chips: +1 -2 +3 +4 -5 +10
    deck: B9 R8 B8
    discard: B7 R9
    p1 hand: R5 B11
    p1 display: B3[+3] ~R10[-5]
    p2 hand: B4
    p2 display: ~R2 B5
    p3 hand: R1
    p3 display: R12
"""


def test_RJ11_1_the_public_view():
    s = pos(BASE)
    v = view(s, None)
    assert v.viewer is None and v.legal == () and v.to_act == {0}
    assert [(x.card, x.up, x.chips) for x in v.displays[0]] == [("B3", True, (3,)),
                                                                (None, False, (-5,))]
    assert [x.card for x in v.displays[1]] == [None, "B5"]  # number and places of hidden
    assert v.discard == ("B7", "R9") and v.deck_size == len(s.deck)
    assert [len(h) for h in v.hands] == [2, 1, 1]
    assert all(h.card is None for hand in v.hands for h in hand)  # nothing about hands
    assert v.vp == (0, 0, 0) and v.out == (False,) * 3 and v.current == 0
    assert v.reserve == (1, -2, 4, 10) and v.chips == (1, -2, 3, 4, -5, 10)
    assert v.totals == (6, 5, 12)
    assert not hasattr(v, "seed") and not hasattr(v, "deck")
    # each action, with the card played up and each effect's target, is public
    s = play(s, "up R5", "p2@1")
    events = [(e.kind, e.seat, e.card, e.target) for e in view(s, None).events]
    assert events[-2:] == [("up", 0, "R5", None), ("choice", 0, None, "p2@1")]
    s = play(s, "draw deck", "down B9")
    assert view(s, None).events[-1] == ("down", 1, None, None, None)  # the card is not named
    assert view(s, None).events[-2] == ("draw_deck", 1, None, None, None)


def test_RJ11_1_the_pending_choice_is_public():
    s = play(pos(BASE), "up R5")
    p = view(s, None).pending
    assert (p.card, p.seat, p.chooser, p.what) == ("R5", 0, 0, StepKind.CARD)
    assert str(p.prompt) == "Choose an opponent's hidden card"


def test_RJ11_2_a_hidden_card_is_known_to_its_owner_and_those_who_saw_it():
    s = pos(BASE)
    assert [x.card for x in view(s, 0).displays[0]] == ["B3", "R10"]
    assert [x.card for x in view(s, 1).displays[0]] == ["B3", None]
    s = play(s, "up R5", "p2@1")  # the looker learns it, no one else
    assert view(s, 0).displays[1][0].card == "R2"
    assert view(s, 2).displays[1][0].card is None
    # it follows the card while it stays face down (Raccoon 2 trades it away: rc decks)
    t = pos("""
        decks: rc
        players: 3
        phase: action
        p1 hand: C2 R11
        p1 display: R3 ~R10{p3}
        p2 hand: R4
        p2 display: R5
        p3 hand: R1
        p3 display: R12
    """)
    t = play(t, "up C2", "p1@2", "p2@1")
    assert row(t, 1) == "~R10{p1 p3}"
    assert [view(t, q).displays[1][0].card for q in (0, 1, 2)] == ["R10"] * 3
    assert view(t, None).displays[1][0].card is None


def test_RJ11_2_cards_that_went_face_down_in_view_of_all_are_known_to_all():
    s = play(pos(BASE), "discard B11", "no flip")
    s = play(s, "draw discard")  # p2 takes B11 from the pile: everyone saw it
    assert view(s, 2).hands[1][1].card == "B11" and view(s, None).hands[1][1].card == "B11"
    s = play(s, "down B4")  # B4 down, B11 kept: but the table cannot tell which went down
    assert view(s, 2).hands[1][0].card is None and view(s, 1).hands[1][0].card == "B11"


def test_RJ11_2_no_one_knows_the_deck_order():
    s = pos(BASE)
    for q in (None, 0, 1, 2):
        v = view(s, q)
        assert v.deck_size == len(s.deck)
        assert "B9" not in v.known()  # the top of the deck, known to no one


#: Entries probed for refusals: every card's play, places, seats, chips, words, nonsense.
def _probes(decks: str) -> list[str]:
    out = ["draw deck", "draw discard", "deck", "pile", "draw", "no flip", "pass", "",
           "hello", "up", "flip @9", "p5", "+7", "Z9"]
    for c in round_cards(decks):
        out += [f"up {c}", f"down {c}", f"discard {c}", c]
    for n in range(1, 7):
        out += [f"flip @{n}", f"@{n}"] + [f"p{q}@{n}" for q in range(1, 5)]
    out += [f"p{q}" for q in range(1, 5)]
    out += [f"{f:+d}" for f in (1, 2, 3, 4, 5, 10, -1, -2, -3, -4, -5, -10)] + ["10", "3"]
    return out


def _answers(s, seat, probes):
    out = []
    for text in probes:
        try:
            out.append(("ok", format_action(parse_action(text, s, seat))))
        except RatjackError as exc:
            out.append((type(exc).__name__, str(exc)))
    return out


def _what_a_seat_receives(s, seat, probes):
    legal = legal_actions(s, seat) if seat is not None else []
    return (view(s, seat), legal, [format_action(a) for a in legal],
            _answers(s, seat, probes) if seat is not None else None)


def check_non_interference(count: int, seed: int) -> int:
    """For ``count`` random states and a random seat (or the spectator), redeal everything
    hidden from it; what it receives must not change. Returns the states checked."""
    checked = 0
    for s, rng in random_states(count, seed):
        seat = rng.choice([None, *range(s.seats)])
        probes = rng.sample(_probes(s.decks), 40)
        before = _what_a_seat_receives(s, seat, probes)
        for _ in range(2):
            t = redeal(s, seat, rng)
            assert _what_a_seat_receives(t, seat, probes) == before, (seat, s)
        checked += 1
    return checked


def test_RJ11_2_non_interference_redealt_hidden_cards_change_nothing_a_seat_receives():
    assert check_non_interference(150, 11) == 150


@pytest.mark.soak
def test_RJ11_2_non_interference_soak():
    assert check_non_interference(3000, 1011) == 3000


def test_RJ11_2_the_redeal_does_move_hidden_cards():
    moved = 0
    for s, rng in random_states(60, 5):
        t = redeal(s, 0, rng)
        moved += t.deck != s.deck or t.to_json() != s.to_json()
        assert view(t, 0) == view(s, 0)
        if any(not x.up and 0 not in x.seen for q in range(1, s.seats)
               for x in s.displays[q]) and view(t, 1) != view(s, 1):
            moved += 1
    assert moved > 60


def test_RJ11_2_a_sampled_state_is_consistent_with_the_view():
    for s, rng in random_states(120, 3):
        if s.phase is Phase.OVER:
            continue
        for seat in range(s.seats):
            v = view(s, seat)
            t = sample_state(v, rng)
            assert view(t, seat) == v
            assert legal_actions(t, seat) == legal_actions(s, seat)


def test_RJ11_3_turn_decisions_in_notation():
    s = pos(BASE.replace("phase: action", "phase: draw").replace("p1 hand: R5 B11",
                                                                 "p1 hand: R5"))
    assert acts(s) == ["draw deck", "draw discard"]
    assert parse_action("Draw  Deck", s, 0) == Draw(Source.DECK)
    assert parse_action("pile", s, 0) == Draw(Source.DISCARD)
    with pytest.raises(AmbiguousActionError, match="matches 2 legal actions"):
        parse_action("draw", s, 0)
    s = play(s, "draw deck")  # hand R5 B9
    assert acts(s) == ["up R5", "down R5", "down B9", "discard R5", "discard B9"]
    assert parse_action("ｕｐ　ｒ５", s, 0) == Up("R5")  # full-width forms
    with pytest.raises(AmbiguousActionError):
        parse_action("R5", s, 0)
    with pytest.raises(RatjackError, match="B9 cannot be played face up: its effect needs a "
                                          "bonus token on an opponent's card"):
        parse_action("up B9", s, 0)
    with pytest.raises(RatjackError, match="you do not hold C7"):
        parse_action("down C7", s, 0)
    s = play(s, "discard B9")
    assert acts(s) == ["flip @2", "no flip"] and parse_action("@2", s, 0) == parse_action(
        "flip 2", s, 0)


def test_RJ11_3_refusals_say_what_is_legal():
    s = pos(BASE)
    with pytest.raises(NotationError, match="is not Ratjack notation"):
        parse_action("fly away", s, 0)
    with pytest.raises(NotationError, match="C13 is not a card"):
        parse_action("up C13", s, 0)
    with pytest.raises(NotationError, match="empty input"):
        parse_action("   ", s, 0)
    with pytest.raises(WrongTurnError, match="waiting for p1"):
        parse_action("draw deck", s, 1)
    with pytest.raises(RatjackError, match="legal: up R5, up B11, down R5"):
        parse_action("flip @1", s, 0)


def test_RJ11_4_effect_decisions_each_from_an_enumerated_set():
    s = play(pos(BASE), "up B11")  # Rat 11: no decision at all
    assert to_act(s) == {1}
    s = pos(BASE.replace("p1 hand: R5 B11", "p1 hand: R5 B1"))
    s = play(s, "up B1")
    assert legal_actions(s, 0) == [Chip(1), Chip(-2), Chip(4), Chip(10)]
    assert parse_action("10", s, 0) == Chip(10) and parse_action("token -2", s, 0) == Chip(-2)
    assert parse_action("−2", s, 0) == Chip(-2)  # the minus sign
    s = play(s, "+4")
    assert legal_actions(s, 0) == [Target(0, 1), Target(0, 3)]
    assert parse_action("@3", s, 0) == Target(0, 3)  # a card of your own display
    s = pos(BASE.replace("p1 hand: R5 B11", "p1 hand: R5 B7").replace(
        "p2 display: ~R2 B5", "p2 display: ~R2 B5 R4").replace("discard: B7 R9", "discard: R9"))
    s = play(s, "up B7", "p1@1")
    assert acts(s) == ["p2@2", "p2@3", "p3@1"]
    assert parse_action("bob@3", s, 0, names={"Bob": 1}) == Target(1, 3)
    assert parse_action("Bob @ 3", s, 0, names={"bob": 1}) == Target(1, 3)


def test_RJ11_4_weasel_12s_opponent_picks_the_card_and_an_opponent_by_name():
    s = pos("""
        decks: rw
        players: 3
        phase: action
        p1 hand: W12 R1
        p1 display: R3
        p2 hand: R4
        p2 display: R5 ~R6
        p3 hand: R7
        p3 display: R8
    """)
    s = play(s, "up W12", "+5")
    assert legal_actions(s, 0) == [Opponent(1), Opponent(2)]
    assert parse_action("carol", s, 0, names={"Carol": 2}) == Opponent(2)
    s = play(s, "p2")
    assert to_act(s) == {1} and acts(s) == ["p2@1", "p2@2"]
    with pytest.raises(WrongTurnError):
        parse_action("p2@1", s, 0)
    # a decision with one option is still asked (the bot may make it itself)
    s = pos("""
        decks: rw
        phase: action
        p1 hand: W12 R1
        p1 display: R3
        p2 hand: R4
        p2 display: R5
    """)
    s = play(s, "up W12", "+5")
    assert acts(s) == ["p2"] and s.phase is Phase.EFFECT


def test_RJ11_4_the_flip_with_no_hidden_card_is_made_automatically():
    s = pos(BASE.replace("p1 display: B3[+3] ~R10[-5]", "p1 display: B3[+3]"))
    s = play(s, "discard R5")
    assert to_act(s) == {1} and "no_flip" not in [e.kind for e in s.events]


def test_every_legal_action_round_trips_through_notation_in_random_play():
    for s, _ in random_states(80, 9):
        if s.phase is Phase.OVER:
            continue
        (seat,) = to_act(s)
        for a in legal_actions(s, seat):
            assert parse_action(format_action(a), s, seat) == a
