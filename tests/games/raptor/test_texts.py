"""Message texts: built from public events and public fields; private texts only for their
owner."""

from __future__ import annotations

import dataclasses

import engine
from bot import texts as platform
from bot.games.raptor import texts
from bot.match import Match, MatchStatus, Player
from engine import Options, Side
from engine.raptor_game import SIDE_SEATS

R, S = Side.RAPTOR, Side.SCIENTIST
SEED = 20240607


#: The places of the raptor's and the scientist's seats for a result (None: no result).
PLACES = {"raptor": (1, 2), "scientist": (2, 1), "draw": (1, 1), None: (None, None)}


def fake_match(state: engine.GameState, *, active: bool = True, result: str | None = None,
               reason: str | None = None) -> Match:
    """Match #3 of <@11> (raptor) and <@22> (scientist) in ``state`` (jungle, random layout,
    quick setup), no deadline; a finished one (``active`` False) ended with ``result`` (the
    winning side, "draw" or None) for ``reason``."""
    places = dict(zip((R, S), PLACES[result], strict=True))
    players = tuple(sorted((Player(SIDE_SEATS[side], user, place=places[side])
                            for side, user in ((R, 11), (S, 22))), key=lambda p: p.seat))
    return Match(id=3, game="raptor", guild_id=1, channel_id=2, players=players, seed=0,
                 options=dataclasses.asdict(Options("jungle", "random", "quick")),
                 status=MatchStatus.ACTIVE if active else MatchStatus.FINISHED, state=state,
                 version=1, created_at=0.0, updated_at=0.0, last_activity=0.0,
                 deadline_at=None, reminded=False, reason=reason, draw_offered_by=None,
                 rematch_of=None)


def play(state: engine.GameState, *moves: tuple[Side, str]) -> engine.GameState:
    for side, text in moves:
        state = engine.apply(state, side, engine.parse_action(text, state, side))
    return state


def test_round_story_tells_cards_effect_and_actions_in_notation() -> None:
    s = engine.new_game(SEED, setup="quick")
    s = play(s, (R, "play 7"), (S, "play 1"), (S, "gas D3"), (R, "C4-C3"), (R, "G1-G3"),
             (R, "end"))
    assert s.round == 2
    lines = texts.round_story(s.last_round_events)
    assert lines == [
        "Cards: raptor **7 · Recovery ×3**, scientist **1 · Sleeping Gas & Shuffle**.",
        "Scientist resolves card 1 (Sleeping Gas & Shuffle): `gas D3`.",
        "The scientist shuffles their deck and discard pile (card 1 too) into a new deck.",
        "Raptor spends 6 action points: `C4-C3`, `G1-G3`.",
    ]
    summary = texts.round_summary(fake_match(s), 1, s.last_round_events)
    assert summary.startswith("**Match #3 · Round 1 summary**\n")
    assert summary.endswith("Babies escaped 0/3 · captured 0/3 · sleep tokens 0/5 · "
                            "scientists on the board 4 (reserve 6)")


def test_an_effect_or_action_points_without_a_decision_read_as_a_sentence() -> None:
    """Not "Raptor spends 2 action points: nothing.": what happened, in both languages."""
    from bot.i18n import tr

    s = engine.new_game(SEED, setup="quick")
    s = play(s, (R, "play 7"), (S, "play 8"), (S, "end"))  # Recovery with nothing to recover
    lines = texts.round_story(s.last_round_events)
    assert lines[1:] == ["Raptor resolves card 7 (Recovery ×3): no effect.",
                         "Scientist gets 1 action point and uses none."]
    assert [tr(line, "zh-TW") for line in lines[1:]] == [
        "迅猛龍執行第 7 號牌（恢復 ×3）：沒有效果。", "科學家獲得 1 點行動點數，但沒有使用。"]
    s = play(engine.new_game(SEED, setup="quick"), (R, "play 7"), (S, "play 1"),
             (S, "gas D3"), (R, "end"))
    assert texts.round_story(s.last_round_events)[-1] == ("Raptor gets 6 action points and "
                                                          "uses none.")


def test_the_cards_pick_line_tells_who_picked_never_what() -> None:
    s = engine.new_game(SEED, setup="quick")
    m = fake_match(s)
    assert texts.picks_line(m) == "<@11> (raptor) ⏳ · <@22> (scientist) ⏳ — pick your card"
    after = engine.apply(s, R, engine.Pick(7))
    line = texts.card_text(fake_match(after), 1_700_000_000.0)
    assert line == ("**Match #3 · Round 1** — <@11> (raptor) ✅ · <@22> (scientist) ⏳ — pick "
                    "your card\nTime runs out <t:1700000000:R>.")
    assert "7" not in line.split("\n")[0] and "Recovery" not in line  # R11.2


def test_the_card_tells_the_decision_and_the_round_so_far() -> None:
    s = engine.new_game(SEED, setup="quick")
    s = play(s, (R, "play 7"), (S, "play 1"), (S, "gas D3"), (R, "C4-C3"))
    m = fake_match(s)
    assert texts.card_text(m, None) == ("**Match #3 · Round 1** — <@11> (raptor), your move: "
                                        "spend your action points: **5 AP** left.")
    assert texts.card_log(m).splitlines() == [
        "Cards: raptor **7 · Recovery ×3**, scientist **1 · Sleeping Gas & Shuffle**.",
        "Scientist resolves card 1 (Sleeping Gas & Shuffle): `gas D3`.",
        "The scientist shuffles their deck and discard pile (card 1 too) into a new deck.",
        "Raptor spends 6 action points: `C4-C3`.",
        "Babies escaped 0/3 · captured 0/3 · sleep tokens 0/5 · scientists on the board 4 "
        "(reserve 6)"]
    assert texts.ping_text(m, R) == ("🔔 <@11>, your move in Match #3: spend your action "
                                     "points: **5 AP** left.")


def test_the_parent_line_tells_the_round_and_whose_move() -> None:
    s = engine.new_game(SEED, setup="quick")
    s = play(s, (R, "play 7"), (S, "play 1"))
    line = texts.parent_line(fake_match(s), "https://discord.com/channels/1/2/3")
    assert line == ("**Match #3** · <@11> (raptor) vs <@22> (scientist)\nRound 1 · <@22> "
                    "(scientist) to move · [go to the match card]"
                    "(https://discord.com/channels/1/2/3)")


def test_a_sentence_in_the_story_is_not_in_code_formatting() -> None:
    event = engine.Event("disappeared", side=R, at=engine.square("E1"))
    assert texts.round_story([engine.Event("effect", side=R, value=2), event]) == [
        "Raptor resolves card 2 (Disappearance & Observation): the mother disappears from E1."]


def test_hand_text_is_the_players_own() -> None:
    s = engine.new_game(SEED, setup="quick")
    text = texts.hand_text(fake_match(s), S)
    assert "**1 · Sleeping Gas & Shuffle**" in text and "**9 · No effect**" in text
    assert "Recovery" not in text  # nothing of the raptor's hand
    picked = play(s, (S, "play 9"))
    assert "You picked **9 · No effect** (face down)." in texts.hand_text(fake_match(picked), S)
    observed = engine.from_diagram(engine.to_diagram(s).replace("observation: no",
                                                                "observation: yes"))
    observed = play(observed, (S, "play 9"))  # under observation the scientist picks first
    assert ("You picked **9 · No effect** (shown to the raptor: Observation)."
            in texts.hand_text(fake_match(observed), S))


def test_result_and_permissions_texts() -> None:
    s = engine.new_game(SEED, setup="quick")
    done = fake_match(s, active=False, result="scientist", reason="timeout")
    assert "<@22> (scientist) wins** — <@11> (raptor) ran out of time" in texts.result_text(done)
    draw = fake_match(s, active=False, result="draw", reason="draw_agreed")
    assert "a draw" in texts.result_text(draw)
    text = platform.missing_permissions_text(["send_messages", "attach_files"])
    assert "**Send Messages**, **Attach Files** permissions" in text and "server admin" in text


def test_board_verdict_for_a_match_ended_outside_the_game() -> None:
    s = engine.new_game(SEED, setup="quick")
    cases = {("scientist", "resigned"): "Scientist wins: the raptor resigned",
             ("raptor", "timeout"): "Raptor wins: the scientist ran out of time",
             ("draw", "draw_agreed"): "Draw by agreement",
             (None, "abandoned"): "No result: both players ran out of time",
             (None, "ended_by_moderator"): "No result: ended by a moderator"}
    for (result, reason), verdict in cases.items():
        m = fake_match(s, active=False, result=result, reason=reason)
        assert texts.board_verdict(m) == verdict
        assert "<@" not in verdict  # an image: no mentions
    assert texts.board_verdict(fake_match(s)) is None  # still running
    won = engine.from_diagram(
        "    A B C D E F G H I J K L M\n"
        "1   o S . . . . . . . . . . o\n"
        "2     . . . . . . . . . . .\n"
        "3     . . . . . M . . . . .\n"
        "4     . . . . . . . . . . .\n"
        "5     . . . . . . . . . . .\n"
        "6   o . . . . . . . . . . S o\n"
        "phase: over\nescaped: 3\nwinner: raptor babies_escaped\n")
    done = fake_match(won, active=False, result="raptor", reason="babies_escaped")
    assert texts.board_verdict(done) is None  # the game's own end: the image tells it


def test_history_tells_why_from_the_players_side() -> None:
    s = engine.new_game(SEED, setup="quick")
    cases = [("resigned", "won", "your opponent resigned"), ("resigned", "lost", "you resigned"),
             ("timeout", "won", "your opponent ran out of time"),
             ("timeout", "lost", "you ran out of time"),
             ("abandoned", "no result", "both ran out of time"), ("draw_agreed", "draw", "agreed"),
             ("ended_by_moderator", "no result", "ended by a moderator"),
             ("babies_escaped", "won", "three babies escaped")]
    for reason, outcome, why in cases:
        assert texts.history_reason(fake_match(s, active=False, reason=reason), outcome) == why


def test_counts_agree_with_their_number() -> None:
    assert platform.count(1, "fire token") == "1 fire token"
    assert platform.count(2, "fire token") == "2 fire tokens"
    assert platform.count(0, "sleep token") == "0 sleep tokens"
    assert platform.count(3, "baby", "babies") == "3 babies"
    jeep = engine.Event("jeep", S, at=1, to=4, cells=(2, 3), piece="scientist")
    assert texts.event_phrase(jeep) == "a jeep drives B1→E1, putting out 2 fire tokens"
    assert texts.event_text(jeep) == "B1-E1 (puts out 2 fire tokens)"
    one = jeep._replace(cells=(2,))
    assert texts.event_phrase(one) == "a jeep drives B1→E1, putting out 1 fire token"
    assert texts.event_text(one) == "B1-E1 (puts out 1 fire token)"
    shot = engine.Event("shot", S, at=1, to=4, value=1)
    assert texts.event_phrase(shot) == "the scientist on B1 shoots the mother (1 sleep token)"
    out = engine.Event("fire_out", R, at=2, cells=(2, 3, 4))
    assert texts.event_phrase(out) == "the mother puts out 3 fire tokens"


def test_a_dm_suggests_no_command_and_a_stale_dm_click_links_to_the_match() -> None:
    s = engine.new_game(SEED, setup="quick")
    m = fake_match(s)
    assert texts.pick_prompt(m, S) == ("Pick a card with the buttons below (or "
                                       "`/raptor act play <n>`).")
    assert texts.pick_prompt(m, S, in_dm=True) == "Pick a card with the buttons below."
    jump = platform.to_match(texts.match_title(m), "https://discord.com/channels/1/2/3")
    assert jump == "[↪ back to Match #3](https://discord.com/channels/1/2/3)"
    stale = platform.stale_text("card button", group="raptor", jump=jump)
    assert stale.endswith(f"nothing was changed. {jump}") and "/raptor" not in stale
    assert platform.stale_text(group="raptor").endswith(
        "Use the latest message, or `/raptor status`.")
    listed = texts.hand_text(m, S)
    short = texts.hand_text(m, S, listed=False, jump=jump)
    assert "**1 · Sleeping Gas & Shuffle**" in listed and "Sleeping Gas" not in short
    assert short.startswith(f"**Match #3 · your hand** (scientist, round 1) · {jump}\n")
