"""Ratjack's sentences (bot/games/ratjack/texts.py) on real positions and matches: the story
of turns told from public events (a card face down is "a card", a look names no card), the
decisions, and the texts of a match for its Discord presentation."""

from __future__ import annotations

from bot.games.ratjack import texts as T
from bot.i18n import translator
from bot.match import MatchService
from engine.ratjack import view
from tests.engine.ratjack.conftest import play, pos
from tests.games.ratjack.conftest import ALICE, at, practice

NAMES = ["p1 <@100>", "p2 AI (easy)", "p3 AI (easy)"]

RATS = """
    players: 3
    round: 2
    turn: 4
    current: p1
    phase: draw
    vp: 1 0 1
    chips: +1 -2 +3 +4 -5 +10
    discard: B9
    deck: R5 B12 B8 R11 B6
    p1 hand: R8
    p1 display: R3 ~B10
    p2 hand: B2
    p2 display: ~R12 B4[-5]
    p3 hand: R1
    p3 display: B7[+3]
"""

CRITTERS = """
    players: 3
    decks: cw
    current: p1
    phase: draw
    chips: +1 -2 +3 +4 -5 +10
    discard: C9
    deck: W12 W3 C4 C10 W11 C12
    p1 hand: W4
    p1 display: C3[-2] ~W10
    p2 hand: C2
    p2 display: ~C8 W5
    p3 hand: C1
    p3 display: W7[+3]
"""


def told(before, after) -> list[str]:
    return [str(t) for t in T.story_between(before, after, NAMES)]


def test_a_look_names_the_card_looked_at_by_its_place_only():
    s = pos(RATS)
    t = play(s, "draw deck", "up R5", "p2@1")
    assert told(s, t) == [
        "p1 <@100> drew a card from the deck.",
        "p1 <@100> played R5 (Rat 5) face up.",
        "p1 <@100> looked at a hidden card of p2 AI (easy) (p2@1).",
    ]
    assert [str(x) for x in T.story(T.turn_events(t), NAMES)] == told(s, t)


def test_reveals_chips_and_face_down_plays_are_told_as_the_table_saw_them():
    s = pos(RATS.replace("deck: R5 B12 B8", "deck: B12 B8 R5"))
    t1 = play(s, "draw deck", "up B12", "p2@1")
    assert told(s, t1)[1:] == ["p1 <@100> played B12 (Rat 12) face up.",
                               "p1 <@100> turned p2@1 face up: R12."]
    t2 = play(t1, "draw deck", "up B8", "+10", "p2@2")
    assert told(t1, t2) == [
        "p2 AI (easy) drew a card from the deck.",
        "p2 AI (easy) played B8 (Rat 8) face up.",
        "p2 AI (easy) placed the +10 bonus token on p2@2.",
        "p2 AI (easy) is over 25 and out of the round.",  # 12 + 4 - 5 + 10 + 8
    ]
    t3 = play(t2, "draw deck", "down R5")
    assert told(t2, t3) == ["p3 AI (easy) drew a card from the deck.",
                            "p3 AI (easy) played a card face down."]
    t4 = play(t3, "draw deck", "up R11")  # p1: Rat 11 discards the deck's top two
    assert told(t3, t4) == [
        "p1 <@100> drew a card from the deck.",
        "p1 <@100> played R11 (Rat 11) face up.",
        "From the deck onto the discard pile: B6, R2.",  # R2: the first card not named
        "p1 <@100> is over 25 and out of the round.",  # 3 + 12 + 11
        "p3 AI (easy) gains 1 VP as the last player standing.",
        "The round is over: one player was left.",
        f"Round 3 begins: p3 AI (easy) starts; {t4.discard[0]} starts the discard pile.",
    ]


def test_the_weasels_and_raccoons_are_told_decision_by_decision():
    s = pos(CRITTERS)
    t1 = play(s, "draw deck", "up W12", "+3", "p2", "p2@2")
    assert told(s, t1) == [
        "p1 <@100> drew a card from the deck.",
        "p1 <@100> played W12 (Weasel 12) face up.",
        "p1 <@100> gave the +3 bonus token to p2 AI (easy), who puts it on one of their "
        "cards.",
        "p2 AI (easy) put the +3 bonus token on p2@2.",
    ]
    t2 = play(t1, "draw deck", "up W3", "p3")
    assert told(t1, t2)[2:] == [
        "p2 AI (easy) drew a card and looked at it.",
        "p2 AI (easy) put the card they drew face down at the end of the display of "
        "p3 AI (easy).",
    ]
    t3 = play(t2, "draw deck", "up C10", "discard C1")
    assert told(t2, t3)[1:] == ["p3 AI (easy) played C10 (Raccoon 10) face up.",
                                "p3 AI (easy) drew a card into their hand.",
                                "p3 AI (easy) discarded C1 from their hand."]
    t4 = play(t3, "draw deck", "discard W4", "flip @2", "-2")  # C3 + W10 + W12
    assert told(t3, t4) == [
        "p1 <@100> drew a card from the deck.",
        "p1 <@100> discarded W4.",
        "p1 <@100> flipped their hidden card @2: W10.",
        "W10 (Weasel 10) triggers.",
        "p1 <@100> returned the -2 bonus token to the reserve.",
        "p1 <@100> gains 1 VP for exactly 25.",
        "The round is over: a player reached exactly 25.",
        f"Round 2 begins: p1 <@100> starts; {t4.discard[0]} starts the discard pile.",
    ]
    # the round's cards, all shown now but those of no one (RJ9.7)
    assert str(T.round_end_text(t4.last_round, NAMES)) == (
        "**Round 1 is over**: a player reached exactly 25; p1 <@100> +1 VP.\n"
        "p1 <@100>: total 25 · C3 W10 W12 · hand C12\n"
        "p2 AI (easy): total 11 · ~C8 W5[+3] W3 · hand C2\n"
        "p3 AI (easy): total 17 · W7 ~C4 C10 · hand W11")


def test_the_decision_is_said_to_the_chooser_and_about_them():
    s = pos(CRITTERS)
    t = play(s, "draw deck", "up W12", "+3", "p2")
    v = view(t, None)
    assert str(T.your_decision(v)) == "put the +3 bonus token on one of your cards (Weasel 12)"
    assert str(T.their_decision(v)) == ("to put the +3 bonus token on one of their cards "
                                        "(Weasel 12)")
    v = view(s, None)
    assert str(T.your_decision(v)) == "draw a card: 'draw deck', or 'draw discard' to take C9"
    t = play(pos(RATS), "draw deck", "up R5")
    assert str(T.your_decision(view(t, None))) == "Rat 5: Choose an opponent's hidden card"
    assert str(T.their_decision(view(t, None))) == "to resolve Rat 5"
    zh = translator("zh-TW")
    assert zh.text(T.your_decision(view(t, None))) == "老鼠 5：選一張對手的暗牌"


def test_an_action_in_words_names_only_what_its_chooser_knows():
    s = play(pos(RATS), "draw discard")
    v = view(s, 0)
    words = {str(a): str(T.action_text(v, a, NAMES)) for a in v.legal}
    assert words["Up(card='B9')"] == ("play B9 (Rat 9) face up: Move a bonus token from an "
                                      "opponent's card onto one of your cards.")
    assert words["Discard(card='R8')"] == ("discard R8, then you may flip one of your hidden "
                                           "cards")
    t = play(pos(RATS), "draw deck", "up R5")
    v = view(t, 0)
    assert [str(T.action_text(v, a, NAMES)) for a in v.legal] == ["p2 AI (easy): a face-down card"]
    t = pos("""
        players: 3
        current: p3
        phase: effect
        chips: +1 -2 +3 +4 -5 +10
        p1 display: R3[-2]
        p3 display: R4 B1
        stack: B1 p3 0
    """)
    v = view(t, 2)  # p3 resolves Rat 1: a chip of the reserve
    assert [str(T.action_text(v, a, NAMES)) for a in v.legal] == [
        "the +1 bonus token, in the reserve", "the +3 bonus token, in the reserve",
        "the +4 bonus token, in the reserve", "the -5 bonus token, in the reserve",
        "the +10 bonus token, in the reserve"]
    t = pos("""
        players: 3
        current: p3
        phase: effect
        chips: +1 -2 +3 +4 -5 +10
        p1 display: R3[-2]
        p3 display: R4 B9
        stack: B9 p3 0
    """)
    v = view(t, 2)  # Rat 9: a chip on an opponent's card
    assert [str(T.action_text(v, a, NAMES)) for a in v.legal] == [
        "the -2 bonus token, on p1@1"]


async def test_the_texts_of_a_match_for_its_players(service: MatchService):
    m = await practice(service, seats=3, seed=5)
    assert str(T.match_start_line(m)) == (
        f"**Ratjack match #{m.id}** — a new practice game: p1 <@{ALICE}>, p2 AI (easy), "
        f"p3 AI (easy) · Red Rats and Blue Rats · p{m.state.current + 1} "
        f"{'<@100>' if m.state.current == 0 else 'AI (easy)'} begins.")
    s = pos(RATS)
    m = at(m, s)
    assert str(T.card_head(m, 1700000000)) == (
        f"**Ratjack match #{m.id} · round 2, turn 4** — p1 <@100>, your decision: draw a "
        "card: 'draw deck', or 'draw discard' to take B9.\nTime runs out <t:1700000000:R>.")
    assert str(T.ping_text(m, 0)) == (
        f"🔔 <@100>, your decision in Ratjack match #{m.id}: draw a card: 'draw deck', or "
        "'draw discard' to take B9.")
    assert str(T.status_text(m)).split("\n")[1:] == [
        "Round 2, turn 4: waiting for p1 <@100> to draw a card.",
        "Deck: 15 cards · discard pile: B9 on top · reserve: +1 -2 +4 +10",
        "VP (3 win) and totals (exactly 25, never more):",
        "p1 <@100>: 1 VP · total 3",
        "p2 AI (easy): 0 VP · total -1",
        "p3 AI (easy): 1 VP · total 10",
    ]
    t = play(s, "draw deck", "up R5", "p2@1")
    m = at(m, t)
    assert str(T.card_head(m, None)) == (
        f"**Ratjack match #{m.id} · round 2, turn 5** — waiting for p2 AI (easy) to draw a "
        "card.")
    assert str(T.turn_story(m)).split("\n")[-1] == (
        "p1 <@100> looked at a hidden card of p2 AI (easy) (p2@1).")
    assert str(T.private_text(m, 0)) == "\n".join([
        f"**Ratjack match #{m.id} · your cards** (p1, round 2)",
        "Your hand:",
        "• **R8 (Rat 8)** — Place a bonus token on one of your cards.",
        "Your face-down cards (they count 0 until turned face up):",
        "• @2 **B10 (Rat 10)** — Turn an opponent's visible card face down.",
        "Cards of others that you know:",
        "• p2@1 **R12**, face down in the display of p2 AI (easy)",
    ])
    assert "R12" not in str(T.private_text(m, 2)) and "R8" not in str(T.private_text(m, 1))


async def test_the_result_of_a_finished_match(service: MatchService):
    m = await service.start_ai_match(1, 11, game="ratjack", levels=["easy", "easy", "easy"],
                                     ai_user_ids=[901, 902, 903], seed=4)
    await service.play_ai(m.id)
    m = await service.get_match(m.id)
    lines = str(T.match_result_text(m)).split("\n")
    (winner,) = m.winners
    assert lines[0] == (f"🏆 **Ratjack match #{m.id} is over: p{winner + 1} AI (easy) wins** "
                        "(3 VP reached).")
    ranked = sorted(m.players, key=lambda p: (p.place, p.seat))
    assert lines[1:] == [f"{p.place}. p{p.seat + 1} AI (easy) — {m.state.vp[p.seat]} VP"
                         for p in ranked]
    assert str(T.round_result_text(m)).startswith(f"**Round {m.state.round} is over**: ")
    m = await practice(service, seats=2, seed=6)
    m = await service.resign(m.id, ALICE)
    assert str(T.match_result_text(m)) == (
        f"🏆 **Ratjack match #{m.id} is over: p2 AI (easy) wins** (everyone else left the "
        "match).\n1. p2 AI (easy) — 0 VP\n2. p1 <@100> — 0 VP (resigned)")
