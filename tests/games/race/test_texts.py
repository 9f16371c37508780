"""The race's sentences (bot.games.race.texts) with real values: the start line, the live
card's head for each decision, the turn's story, the result per player (card, points, ties,
a seat that left), the status, the ping, a player's own card, and that no public text
depends on another seat's card before the end (RR9.2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine.race as race
from bot.games.race import texts
from bot.i18n import translator
from bot.match.models import Match, MatchStatus, Player
from engine.race import Phase, Raptor, Step, space

ALICE, BOB, BOT = 100, 200, 999
DEADLINE = 1_800_000_000


def race_match(state: race.RaceState, *, board: str = "desert", active: bool = True,
               reason: str | None = None, deadline: float | None = None,
               players: tuple[Player, ...] | None = None) -> Match:
    """Match #7 of the race in ``state``: Alice at seat 1, Bob at seat 2, the AI (easy) at
    seat 3 (and more AI seats for a larger table)."""
    if players is None:
        players = (Player(0, ALICE), Player(1, BOB),
                   *(Player(s, BOT, "easy") for s in range(2, state.seats)))
    if not active and state.is_over:
        outcome = race.outcome(state)
        players = tuple(replace(p, place=outcome.places[p.seat], score=outcome.scores[p.seat])
                        for p in players)
    return Match(id=7, game="race", guild_id=1, channel_id=10, players=players, seed=5,
                 options={"board": board},
                 status=MatchStatus.ACTIVE if active else MatchStatus.FINISHED, state=state,
                 version=3, created_at=0.0, updated_at=0.0, last_activity=0.0,
                 deadline_at=deadline, reminded=False, reason=reason, draw_offered_by=None,
                 rematch_of=None)


def at(state: race.RaceState, **spaces: str) -> race.RaceState:
    """``state`` with the raptors on the named spaces (``B="D12"``...)."""
    raptors = list(state.raptors)
    for letter, name in spaces.items():
        raptors[Raptor(letter).index] = space(name)
    return replace(state, raptors=tuple(raptors))


START = race.new_game(5, 3, "desert")
ROLLING = replace(START, seat=1, first=1, turn=3, rolled=tuple(race.Face(c) for c in "GGPT"),
                  cards=(7, 18, 13)).check()
#: The finish: Green across the line, Blue second, Purple and Yellow tied on row 6, Orange
#: last; seat 3 (the AI) left the race in the meantime (RR3.6).
FINISH = replace(at(START, B="D12", G="C13", O="A5", P="B6", Y="E6"), phase=Phase.OVER,
                 winner=Raptor.GREEN, turn=9, forfeited=(2,), cards=(7, 18, 13), rolled=(),
                 kept=(), seat=0).check()


def test_a_new_race_is_announced_with_its_players_board_and_first_seat():
    assert texts.match_start_line(race_match(ROLLING)) == (
        "**Race #7** — a new practice race: <@100>, <@200>, AI (easy) · Desert · <@200> "
        "plays first.")
    people = (Player(0, ALICE), Player(1, BOB), Player(2, 300))
    assert texts.match_start_line(race_match(ROLLING, board="jungle", players=people)) == (
        "**Race #7** — a new race: <@100>, <@200>, <@300> · Jungle · <@200> plays first.")


def test_the_card_head_says_whose_turn_and_what_to_decide():
    m = race_match(ROLLING)
    assert texts.card_head(m, DEADLINE) == (
        "**Race #7 · turn 3** — <@200>, your turn: set aside one or more of the dice rolled, "
        "`GGPT`.\nTime runs out <t:1800000000:R>.")
    jungle = replace(race.new_game(5, 3, "jungle"), rolled=ROLLING.rolled, arrow_die=2,
                     seat=2)
    assert texts.card_head(race_match(jungle, board="jungle"), None) == (
        "**Race #7 · turn 1** — AI (easy), your turn: set aside one or more of the dice "
        "rolled, `GGPT`, and the arrows die (2 arrows) too if you like.")
    moving = replace(jungle, phase=Phase.MOVE, rolled=(), kept=ROLLING.rolled,
                     used=(race.Face.G,), arrow_aside=True, arrows_used=1)
    assert texts.decision_text(moving) == (
        "use a die of the result, `GPT` left (1 arrow to spend)")
    boosted = replace(moving, pending=Raptor.YELLOW)
    assert texts.decision_text(boosted) == (
        "Yellow stands on a booster: give another raptor a step forward")
    assert texts.card_head(race_match(FINISH, active=False, reason="finished"), None) == (
        "**Race #7 · the finish**")
    assert texts.card_head(race_match(jungle, active=False, reason="ended_by_moderator"),
                           None) == "**Race #7 · stopped in turn 1**"


def test_the_turns_story_tells_the_dice_and_each_step():
    steps = (Step("G", Raptor.GREEN, space("C3"), space("C4")),
             Step("+", Raptor.YELLOW, space("D5"), space("D6")),
             Step("T", Raptor.BLUE, space("B5"), space("A4")),
             Step("O"), Step("+"), Step("P", Raptor.PURPLE, space("B12"), space("B13")))
    moving = replace(ROLLING, phase=Phase.MOVE, rolled=(), steps=steps,
                     kept=tuple(race.Face(c) for c in "GOPT"), used=tuple(
                         race.Face(c) for c in "GTOP"))
    assert texts.turn_story(race_match(moving)) == (
        "The result: `GOPT`\n"
        "`G` Green C3 → C4 · `+` booster: Yellow D5 → D6 · `T` T-Rex: Blue B5 → A4 · "
        "`O` no step · `+` booster lost: no other raptor could step · `P` Purple crosses the "
        "finish line")
    kept = replace(ROLLING, kept=(race.Face.T,), rolled=ROLLING.rolled[:3])
    assert texts.turn_story(race_match(kept)) == "Set aside: `T`"
    assert texts.turn_story(race_match(ROLLING)) == ""
    after = replace(ROLLING, last_seat=0, last_steps=steps[:1])
    assert texts.last_turn_text(race_match(after)) == "<@100>'s turn: `G` Green C3 → C4"
    assert texts.last_turn_text(race_match(START)) is None


def test_the_result_ranks_every_player_with_their_card_ties_and_a_seat_that_left():
    assert [s.total for s in race.card_scores(FINISH)] == [18, 13, 13]  # the premise
    m = race_match(FINISH, active=False, reason="finished")
    assert texts.result_text(m).split("\n") == [
        "🏁 **Race #7 is over: <@100> wins** — Green crossed the finish line in turn 9.",
        "The finish: Green · Blue · Purple = Yellow · Orange",
        "**1.** <@100>: **18** points — card #7: Green 10 · Purple 0 · Blue 5 · bonus 3",
        "**2.** <@200>: **13** points — card #18: Orange 0 · Green 8 · Blue 5 · bonus 0 "
        "(tied)",
        "**2.** AI (easy): **13** points — card #13: Orange 0 · Blue 8 · Purple 5 · bonus 0 "
        "(tied, left the race)",
    ]
    shared = replace(FINISH, cards=(18, 13, 1))  # 13, 13 and 8 points
    head = texts.result_headline(race_match(shared, active=False, reason="finished"))
    assert head == ("🏁 **Race #7 is over: <@100> and <@200> share first place** — Green "
                    "crossed the finish line in turn 9.")


def test_a_race_ended_outside_the_game_has_no_result():
    m = race_match(ROLLING, active=False, reason="stopped")
    assert texts.result_text(m) == (
        "**Race #7 is over** without a result: it was stopped by its player.")
    assert texts.result_lines(m) == []


def test_the_status_tells_public_facts_only():
    left = replace(ROLLING, forfeited=(0,))
    m = race_match(at(left, G="C4", B="A4", Y="E2"), deadline=DEADLINE)
    assert texts.status_text(m).split("\n") == [
        "**Race #7** — <@100>, <@200>, AI (easy) · Desert",
        "Turn 3: <@200>'s turn: set aside one or more of the dice rolled, `GGPT`.",
        "Raptors: Blue, Green row 4 · Yellow row 2 · Orange, Purple row 0",
        "Left the race: <@100>",
        "Time runs out <t:1800000000:R>.",
    ]
    done = race_match(FINISH, active=False, reason="finished")
    assert texts.status_text(done).split("\n")[1:] == texts.result_text(done).split("\n")


def test_the_ping_names_the_race_and_the_decision():
    assert texts.ping_text(race_match(ROLLING), 1) == (
        "🔔 <@200>, your turn in Race #7: set aside one or more of the dice rolled, `GGPT`.")


def test_a_players_own_card_in_words_and_what_it_scored():
    assert texts.own_card_text(race_match(ROLLING), 0).split("\n") == [
        "**Your Top-3 card** (#7, Race #7, seat 1):",
        "1. **Green** — 10 points if it is first",
        "2. **Purple** — 8 points if it is first or second",
        "3. **Blue** — 5 points if it is in the top three",
        "+3 if the three are the top three, in any order",
    ]
    over = texts.own_card_text(race_match(FINISH, active=False, reason="finished"), 2)
    assert over.split("\n")[0] == "**Your Top-3 card** (#13, Race #7, seat 3):"
    assert over.split("\n")[-1] == (
        "It scored **13** points (card #13: Orange 0 · Blue 8 · Purple 5 · bonus 0).")


@pytest.mark.parametrize("state", [ROLLING, replace(ROLLING, last_seat=0, last_steps=(
    Step("G", Raptor.GREEN, space("C0"), space("C1")),))])
def test_no_public_text_depends_on_another_seats_card_before_the_end(state):
    def public(s: race.RaceState) -> list[str]:
        m = race_match(s, deadline=DEADLINE)
        return [texts.match_start_line(m), texts.card_head(m, DEADLINE), texts.turn_story(m),
                str(texts.last_turn_text(m)), texts.status_text(m), texts.ping_text(m, 1),
                texts.result_text(m), texts.waiting_line(m), texts.card_story(m),
                texts.card_record(m, 2), texts.reminder_text(m, [BOB]),
                texts.parent_line(m, "https://x"), texts.private_heading(m, 0)]

    other = replace(state, cards=(2, 19, 4))
    assert public(state) == public(other)
    # a player's own text holds their card, and only theirs
    mine = texts.own_card_text(race_match(state), 0)
    assert "#7" in mine and "#18" not in mine and "#13" not in mine


def test_the_texts_in_chinese():
    zh = translator("zh-TW").text
    m = race_match(ROLLING)
    assert zh(texts.ping_text(m, 1)) == (
        "🔔 <@200>，第 7 場競速輪到你了：從擲出的骰子 `GGPT` 中保留一顆或多顆。")
    done = race_match(FINISH, active=False, reason="finished")
    assert zh(texts.result_text(done)).split("\n")[:3] == [
        "🏁 **第 7 場競速結束：<@100> 獲勝**——綠色迅猛龍在第 9 回合衝過終點線。",
        "完賽名次：綠色 · 藍色 · 紫色 = 黃色 · 橙色",
        "**1.** <@100>：**18** 分——卡 #7：綠色 10 · 紫色 0 · 藍色 5 · 加分 3",
    ]
    assert zh(texts.waiting_line(m)) == "第 3 回合：<@200> 正在保留骰子。"


def test_the_discord_card_names_seats_and_tells_the_turns():
    m = race_match(replace(ROLLING, last_seat=0, last_steps=(
        Step("G", Raptor.GREEN, space("C0"), space("C1")),)), deadline=DEADLINE)
    assert [texts.seated(m, s) for s in range(3)] == [
        "<@100> (seat 1)", "<@200> (seat 2)", "seat 3 (AI easy)"]
    assert texts.card_story(m) == (
        "<@100> (seat 1)'s turn: `G` Green C0 → C1\n"
        "Raptors: Blue, Green, Orange, Purple, Yellow row 0")
    # turn 3 is on: turn 2's card tells turn 2; turn 1's card covers turns 1-2 (the AI's)
    assert texts.card_record(m, 2) == (
        "**Race #7 · turn 2** — <@100> (seat 1)'s turn: `G` Green C0 → C1")
    assert texts.card_record(m, 1) == (
        "**Race #7 · turns 1–2** — <@100> (seat 1)'s turn: `G` Green C0 → C1")
    assert texts.reminder_text(m, [BOB]) == (
        f"⏰ <@200>, Race #7 is waiting for your turn: set aside one or more of the dice "
        f"rolled, `GGPT`. Time runs out <t:{DEADLINE}:R>.")
    assert texts.parent_line(m, "https://card") == (
        "**Race #7** · <@100> (seat 1), <@200> (seat 2), seat 3 (AI easy) · Desert\n"
        "Turn 3: <@200> (seat 2) is setting dice aside. · [go to the race's card]"
        "(https://card)")
    assert texts.board_verdict(m) is None
    ended = race_match(ROLLING, active=False, reason="ended_by_moderator")
    assert texts.board_verdict(ended) == (
        "Race #7 is over without a result: a moderator ended it")
    assert texts.private_heading(m, 1) == "**Race #7** · your Top-3 card (seat 2)"
