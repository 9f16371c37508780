"""Terminal mode: a person plays one side against the AI by typing notation."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

import engine
from bot.games.raptor.terminal import CONFIRM_RESIGN, play, view_text
from tests.docs import ROOT, section


class Typist:
    """Answers the prompt: asks for the legal actions ('?'), then types the first one listed;
    starts with a malformed and an illegal entry; resigns ('quit') after ``moves`` actions."""

    def __init__(self, moves: int) -> None:
        self.out: list[str] = []
        self.moves = moves
        self.script = ["E9-Z1", "kill A1"]
        self.typed: list[str] = []
        self.prompts: list[str] = []

    def echo(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt == CONFIRM_RESIGN:  # 'quit' asks for a confirmation
            self.typed.append("y")
            return "y"
        if self.script:
            text = self.script.pop(0)
        elif self.moves <= 0:
            text = "quit"
        elif self.out and self.out[-1].startswith("  "):  # the legal list was just shown
            text = self.out[-1].split("\n")[0].split("  ")[1]  # e.g. 'play 5', 'G2-G5'
            self.moves -= 1
        else:
            text = "?"
        self.typed.append(text)
        return text


async def test_terminal_match_refuses_bad_input_lists_legal_actions_and_prints_board_paths(
        tmp_path: Path):
    t = Typist(moves=40)
    result = await play(tmp_path, side="raptor", level="easy", seed=9, read=t.read, echo=t.echo)
    text = "\n".join(t.out)
    assert "You play the raptor; the AI (easy) plays the scientist." in text
    # malformed and illegal entries get the engine's clear errors, and change nothing
    assert "Not played: 'E9-Z1' is not action notation" in text or (
        "Not played: 'E9-Z1'" in text)
    assert ("Not played: 'kill A1' is not legal now: this is the card pick: play a card from "
            "your hand (3 5 6) with 'play N'; closest legal actions: play 6, play 5, play 3"
            in text)
    # '?' lists legal actions with their descriptions
    assert "play " in text and "Play " in text
    # a board image path after each round
    paths = [ln.split(": ", 1)[1] for ln in t.out if ln.startswith("Board image: ")]
    assert paths and Path(paths[-1]).exists()
    assert result["result"] in ("raptor", "scientist")
    if result["reason"] == "resigned":
        assert t.typed[-2:] == ["quit", "y"]  # asked, and confirmed
        assert "You resigned. Bye." in text
        # the board where the player resigned, as the final image
        final = [ln.split(": ", 1)[1] for ln in t.out
                 if ln.startswith("Final board image (the position you resigned in): ")]
        assert len(final) == 1 and Path(final[0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


async def test_terminal_never_shows_the_ai_pick_before_the_reveal(tmp_path: Path):
    t = Typist(moves=12)
    await play(tmp_path, side="raptor", level="easy", seed=4, read=t.read, echo=t.echo)
    for line in t.out:
        if line.startswith("The scientist (AI)"):
            assert "play" not in line  # only "has picked a card"


def test_view_text_shows_own_hand_only():
    s = engine.new_game(2, setup="quick")
    mine = view_text(engine.view(s, engine.Side.RAPTOR))
    public = view_text(engine.view(s, None))
    assert "your hand:" in mine and "your hand:" not in public
    for c in s.hands[engine.Side.SCIENTIST]:
        assert engine.card_name(engine.Side.SCIENTIST, c) not in mine
    # phases in words, as the other status words ("pick", "ap"), not as identifiers
    setup = view_text(engine.view(engine.new_game(2), engine.Side.RAPTOR))
    assert "round 0 · setup mother · waiting for raptor" in setup


async def test_terminal_game_end_writes_the_final_board_and_says_why_in_words(tmp_path: Path):
    from bot.match import MatchService
    from bot.storage.db import SqliteDatabase
    from engine import REASON_WORDS as REASONS
    from render import render_board

    t = Typist(moves=400)
    result = await play(tmp_path, side="raptor", level="easy", seed=3, read=t.read, echo=t.echo)
    assert result["reason"] in REASONS  # the game ran to its end (not a resignation)
    db = await SqliteDatabase.open(tmp_path / "play.sqlite3")
    try:
        final = (await MatchService(db).get_match(result["match_id"])).state
    finally:
        await db.close()
    assert final.phase is engine.Phase.OVER
    # board.png is the final position, not the one after the previous round
    assert (tmp_path / "board.png").read_bytes() == render_board(engine.view(final, None))
    over = [ln for ln in t.out if ln.startswith("Game over:")]
    who = "you win" if result["result"] == "raptor" else "the scientist (AI) wins"
    assert over == [f"Game over: {who}: {REASONS[result['reason']]}."]
    assert t.out[-2] == over[0]


class Scripted:
    """Types the given lines, then ends the input (EOF)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


async def test_terminal_refusals_are_short_canonical_and_call_malformed_input_malformed(
        tmp_path: Path):
    from bot.games.raptor.terminal import refusal

    s = engine.new_game(3, setup="manual")  # the raptor places the mother: M@..
    try:
        engine.parse_action("m@a1", s, engine.Side.RAPTOR)
    except engine.IllegalActionError as exc:
        said = refusal("m@a1", exc, s, engine.Side.RAPTOR)
    close = said.split("closest legal actions: ", 1)[1].split(" (")[0].split(", ")
    legal = {engine.format_action(a) for a in engine.legal_actions(s, engine.Side.RAPTOR)}
    assert close and set(close) <= legal and all(c.startswith("M@") for c in close)

    t = Scripted(["kill A1", "play 5 5 5", "x" * 100_000, "G2-G5 " * 20])
    result = await play(tmp_path, side="scientist", seed=3, read=t.read, echo=t.out.append)
    refusals = [ln for ln in t.out if ln.startswith("Not played: ")]
    assert len(refusals) == 4
    assert refusals[1] == ("Not played: 'play 5 5 5' is not action notation; try 'G2-G5', "
                           "'kill F3', 'play 5' or 'end' ('?' lists your legal actions)")
    # a huge entry is quoted shortened, not echoed back in full
    assert "'" + "x" * 40 + "…'" in refusals[2] and len(refusals[2]) < 300
    assert len(refusals[3]) < 300 and "…" in refusals[3]
    # end of input resigns, and says so, leaving the final board image
    assert "End of input: you resign." in t.out
    final = next(ln for ln in t.out
                 if ln.startswith("Final board image (the position you resigned in): "))
    assert result["reason"] == "resigned"
    # its banner tells the resignation, as a game's end tells the winner
    from render import HEADER_BOX
    from render import theme as T
    from tests.render.helpers import count

    image = Image.open(final.split(": ", 1)[1]).convert("RGB")
    assert count(image.crop(HEADER_BOX), T.WIN_BG) > 5000


async def test_terminal_says_who_resolves_what_after_the_reveal_and_the_seed(tmp_path: Path):
    t = Typist(moves=30)
    await play(tmp_path, side="raptor", seed=9, read=t.read, echo=t.echo)
    reveals = [ln for ln in t.out if ln.startswith("Revealed: ")]
    assert reveals
    import re

    for line in reveals:
        m = re.fullmatch(r"Revealed: raptor (\d), scientist (\d): (.*)\.", line)
        assert m, line
        rv, sv = int(m[1]), int(m[2])
        if rv == sv:
            assert m[3] == "tie, nothing happens"
        else:
            low, high = ("raptor", "scientist") if rv < sv else ("scientist", "raptor")
            card = engine.card_name(engine.Side(low), min(rv, sv))
            assert m[3] == f"{low} resolves {card}, {high} gets {abs(rv - sv)} AP"
    # the seed given is shown at the start, and how to replay the deal at the end
    assert "Seed 9." in t.out[:3]
    assert t.out[-1].startswith("Seed 9: python -m bot play --seed 9 --side raptor")


async def test_terminal_keeps_a_fresh_seed_hidden_until_the_match_ends(tmp_path: Path):
    from bot.match import MatchService
    from bot.storage.db import SqliteDatabase

    t = Scripted(["?"])
    result = await play(tmp_path, side="raptor", read=t.read, echo=t.out.append)
    db = await SqliteDatabase.open(tmp_path / "play.sqlite3")
    try:
        seed = (await MatchService(db).get_match(result["match_id"])).seed
    finally:
        await db.close()
    text = "\n".join(t.out)
    first_seed = text.index(str(seed))
    assert first_seed > text.index("End of input: you resign.")
    assert t.out[-1].startswith(f"Seed {seed}: python -m bot play --seed {seed}")


def test_play_budget_option_sets_the_hard_ai_time_and_refuses_a_bad_one(tmp_path: Path,
                                                                         monkeypatch, capsys):
    import pytest

    import bot.games.raptor.terminal as terminal

    budgets: list[float] = []

    class RecordingService(terminal.MatchService):
        def __init__(self, db, **kwargs):
            budgets.append(kwargs["ai_time_budget"])
            super().__init__(db, **kwargs)

    monkeypatch.setattr(terminal, "MatchService", RecordingService)
    monkeypatch.setattr(terminal, "stdin_read",
                        lambda prompt: "y" if prompt == CONFIRM_RESIGN else "quit")
    assert terminal.main(["--level", "hard", "--budget", "0.05", "--seed", "3",
                          "--out", str(tmp_path / "a")]) == 0
    assert terminal.main(["--seed", "3", "--out", str(tmp_path / "b")]) == 0
    assert budgets == [0.05, 1.0]
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        terminal.main(["--budget", "0", "--out", str(tmp_path / "c")])
    assert refused.value.code == 2
    assert "the budget must be more than 0 and at most 60 s" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


async def test_terminal_rules_cards_and_what_was_played(tmp_path: Path):
    """'rules' and 'cards' print the rules in short and both sides' card texts; each entry
    played is echoed in its canonical notation; 'b' shows the board again."""
    from bot.games.raptor import texts
    from bot.games.raptor.terminal import HELP

    t = Scripted(["rules", "rules 2", "cards", "cards 2", "b", "?"])
    await play(tmp_path, side="raptor", seed=9, read=t.read, echo=t.out.append)
    start = t.out.index(next(x for x in t.out if x.startswith("Raptor is a duel")))
    assert t.out[start].endswith("(more: 'rules 2')")
    rules = " ".join(" ".join(t.out[start:start + 2]).split())  # both pages, unwrapped
    assert "**" not in rules and "`" not in rules and rules.endswith(" ".join(HELP.split()))
    assert "wakes an adjacent sleeping baby (not one put to sleep this round)" in rules
    text = " ".join("\n".join(t.out).split())
    for side in (engine.Side.RAPTOR, engine.Side.SCIENTIST):
        for card in range(1, 10):
            assert f"{card} · {engine.card_name(side, card)} — " in text
    assert " ".join(texts.card_reference(engine.Side.RAPTOR).replace("**", "").split()) in text
    assert sum(x.startswith("    A B C D") for x in t.out) == 2  # at the prompt, then 'b'

    t = Scripted(["undo", "play 6", "i2"])
    await play(tmp_path, side="raptor", seed=9, read=t.read, echo=t.out.append)
    assert ("Not done. There is nothing to undo: you can only take back your own action-point "
            "moves of the current turn.") in t.out
    assert "You picked 6 · Disappearance & Observation." in t.out


def test_terminal_tells_a_scientist_about_observation_and_an_effect_with_nothing_to_do():
    from bot.games.raptor.terminal import effect_lines

    s = engine.from_diagram(
        "    A B C D E F G H I J K L M\n"
        "1   o S . . . . . . . . . . o\n"
        "2     . . . . B . . . . . .\n"
        "3     . . . . . M . . . . .\n"
        "4     . . . . . . . . . . .\n"
        "5     . . . . . B . . . . .\n"
        "6   o . . . . . . . . . . S o\n"
        "observation: yes\nscientist hand: 1 4 9\nraptor hand: 2 5 8\n")
    lines = view_text(engine.view(s, engine.Side.SCIENTIST)).splitlines()
    assert ("observation: you pick first, and the raptor sees your card before picking"
            in lines)
    assert not any("observation" in ln for ln in view_text(
        engine.view(s, engine.Side.RAPTOR)).splitlines())
    s = engine.apply(s, engine.Side.SCIENTIST, engine.Pick(4))
    s = engine.apply(s, engine.Side.RAPTOR, engine.Pick(8))  # gas ×2: no baby in range
    assert s.phase is engine.Phase.AP and s.ap.remaining == 4
    assert effect_lines(s.events) == [
        "The scientist's Sleeping Gas ×2 finds nothing to act on: no standing baby is on a "
        "tile with an active scientist or on a tile next to one."]


async def test_terminal_ends_a_round_before_it_tells_of_the_next_pick(tmp_path: Path):
    # the AI picks for round N + 1 as soon as round N ends: the 'Round N is over' line (and
    # its board image) comes first, then 'has picked a card'
    t = Typist(moves=40)
    await play(tmp_path, side="raptor", level="easy", seed=9, read=t.read, echo=t.echo)
    overs = [i for i, ln in enumerate(t.out) if ln.startswith("Round ") and " is over: " in ln]
    picks = [i for i, ln in enumerate(t.out) if ln == "The scientist (AI) has picked a card."]
    assert len(overs) >= 2 and len(picks) >= 3
    for i in overs:
        n = int(t.out[i].split()[1])
        # the AI's picks since the previous round ended belong to round n, not n + 1
        earlier = [p for p in picks if p < i]
        later = [p for p in picks if p > i]
        assert len(earlier) == n, (n, earlier, i)
        assert later and t.out[i + 1].startswith("Board image: ")


def test_terminal_says_the_reserve_is_empty_and_never_waits_for_nobody():
    """Reinforcements (R10.2) with no scientist left in the reserve is told as that, not as
    "nothing on the board"; a finished game's status line waits for nobody."""
    from bot.games.raptor.terminal import effect_lines

    s = engine.from_diagram(
        "    A B C D E F G H I J K L M\n"
        "1   o S . . . . . . . . . . o\n"
        "2     . . . . B . . . . . .\n"
        "3     . . . . . M . . . . .\n"
        "4     . . . . . . . . . . .\n"
        "5     . . . . . B . . . . .\n"
        "6   o . . . . . . . . . . S o\n"
        "reserve: 0\nscientist hand: 2 4 9\nraptor hand: 3 5 8\n")
    s = engine.apply(s, engine.Side.SCIENTIST, engine.Pick(2))
    s = engine.apply(s, engine.Side.RAPTOR, engine.Pick(8))
    assert s.phase is engine.Phase.AP and s.reserve == 0
    assert effect_lines(s.events) == [
        "The scientist's Reinforcements finds nothing to act on: the reserve is empty."]
    over = engine.from_diagram(
        "    A B C D E F G H I J K L M\n"
        "1   o . . . . . . . . . . . o\n"
        "2     . . . . B . . . . . .\n"
        "3     . . . . . M . . . . .\n"
        "4     . . . . . . . . . . .\n"
        "5     . . . . . B . . . . .\n"
        "6   o . . . . . . . . . . S o\n"
        "phase: over\nwinner: raptor babies_escaped\nescaped: 3\n")
    first = view_text(engine.view(over, engine.Side.RAPTOR), width=80).splitlines()[0]
    assert first == "    A B C D E F G H I J K L M  round 1 · over"  # the counters beside


def test_a_long_list_of_legal_actions_comes_in_columns_that_fit_the_screen():
    import os

    from bot.games.raptor.terminal import legal_text

    s = engine.new_game(5, setup="manual")  # the mother may go on any free space of T2, T5
    legal = engine.legal_actions(s, engine.Side.RAPTOR)
    assert len(legal) == 15  # more than a 12-line terminal shows with descriptions
    text = legal_text(legal, s, engine.Side.RAPTOR, os.terminal_size((40, 12)))
    lines = text.splitlines()
    assert len(lines) == 4 and all(len(ln) <= 40 for ln in lines[:-1])  # 6 a line
    assert lines[-1] == f"({len(legal)} legal actions; Tab completes them)"
    assert " ".join(lines[:-1]).split() == [engine.format_action(a) for a in legal]
    few = legal_text(legal[:3], s, engine.Side.RAPTOR, os.terminal_size((80, 24)))
    assert few.splitlines()[0] == f"  {engine.format_action(legal[0]):<14} " + (
        engine.describe_action(legal[0], s, engine.Side.RAPTOR))


def test_the_board_keeps_its_counters_beside_it_within_80_columns():
    """The counters go beside the grid, also in the long cases met in play: the scientists'
    setup ("waiting for scientist" on a line of its own) and a mother who has disappeared."""
    setup = engine.new_game(11, setup="manual")
    for text in ("M@F1", "B@D1", "B@D4", "B@J4", "B@G4", "B@I2"):
        setup = engine.apply(setup, engine.Side.RAPTOR,
                             engine.parse_action(text, setup, engine.Side.RAPTOR))
    gone = engine.from_diagram(
        "    A B C D E F G H I J K L M\n"
        "1   o S . . . . . . . . . . o\n"
        "2     . . . . B . . . . . .\n"
        "3     . . . . . . . . . . .\n"
        "4     . . . . . . . . . . .\n"
        "5     . . . . . B . . . . .\n"
        "6   o . . . . . . . . . . S o\n"
        "phase: ap\nap: scientist 5\nrevealed: 2 7\nmother: off\n"
        "raptor hand: 5 8\nscientist hand: 1 4\n")
    for state, side in ((setup, engine.Side.SCIENTIST), (gone, engine.Side.SCIENTIST)):
        lines = view_text(engine.view(state, side), width=80).splitlines()
        assert lines[0].startswith("    A B C D E F G H I J K L M  round 1 · ") or (
            lines[0].startswith("    A B C D E F G H I J K L M  round 0 · ")), lines
        assert len(lines) <= 10 and max(map(len, lines)) <= 80, lines
    lines = view_text(engine.view(gone, engine.Side.SCIENTIST), width=80).splitlines()
    assert lines[3].endswith("  the mother has disappeared")
    assert view_text(engine.view(setup, engine.Side.SCIENTIST), width=80).splitlines()[1] \
        .endswith("  waiting for scientist")


def test_the_start_up_help_and_the_docs_name_the_same_prompt_words():
    import re

    from bot.games.raptor.terminal import HELP, HELP_WORDS, RESIGN_WORDS

    play = section(ROOT / "docs" / "OFFLINE.md", "Play in the terminal")
    for word in (*HELP_WORDS, *RESIGN_WORDS, "board", "b", "rules", "cards", "undo"):
        assert f"'{word}'" in HELP, word
        assert f"`{word}`" in play, word
    assert re.search(r"'resign' \(or 'quit', 'exit', 'q'\) to resign", HELP)
    assert "'?' (or 'help', 'list', 'moves') for your legal actions" in HELP


def test_rules_and_cards_come_in_pages_that_fit_80_by_24():
    from bot.games.raptor.terminal import cards_text, rules_text
    from bot.offline.console import page_text, pages, wrapped

    for word, text in (("rules", rules_text()), ("cards", cards_text())):
        book = pages(text, word, 80)
        assert len(book) == 2
        assert all(len(page.splitlines()) <= 23 for page in book)  # the prompt is line 24
        assert all(len(line) <= 80 for page in book for line in page.splitlines())
        assert book[0].endswith(f"\n(more: '{word} 2')")
        rejoined = "\n\n".join(p.removesuffix(f"\n(more: '{word} 2')") for p in book)
        assert rejoined == wrapped(text, 80)  # nothing lost, nothing doubled
        assert page_text(word, text, 80) == book[0]
        assert page_text(f"{word} 2", text, 80) == book[1]
        assert page_text(f"{word} 3", text, 80) == (
            f"'{word}' has pages 1 to 2: type '{word}' or '{word} 2'.")


async def test_a_match_left_unfinished_in_the_folder_ends_as_stopped_not_resigned(tmp_path):
    """A terminal match whose process was killed cannot be resumed: the next `play` in the
    folder ends it without a result, as stopped (no resignation the player never made)."""
    from bot.games.raptor import sides as rs
    from bot.match import MatchService
    from bot.offline import OFFLINE_GUILD as GUILD
    from bot.offline import TERMINAL_AI as AI_ID
    from bot.offline import TERMINAL_CHANNEL as CHANNEL
    from bot.offline import TERMINAL_PLAYER as HUMAN_ID
    from bot.storage.db import SqliteDatabase

    db = await SqliteDatabase.open(tmp_path / "play.sqlite3")
    try:
        left = await MatchService(db).start_practice(GUILD, CHANNEL, HUMAN_ID, game="raptor",
                                                      seat=rs.seat_wish("raptor"), level="easy",
                                                      ai_user_id=AI_ID, seed=4)
    finally:
        await db.close()
    t = Typist(moves=0)
    result = await play(tmp_path, side="raptor", level="easy", seed=9, read=t.read, echo=t.echo)
    assert result["match_id"] == left.id + 1 and result["reason"] == "resigned"
    db = await SqliteDatabase.open(tmp_path / "play.sqlite3")
    try:
        old = await MatchService(db).get_match(left.id)
    finally:
        await db.close()
    assert (old.active, rs.result(old), old.reason) == (False, None, "stopped")


def test_chinese_wrapping_never_ends_a_line_with_an_opening_quote_or_bracket():
    """The start-up help in Chinese at 80 columns once cut "…中文：'" / "咬 F3'…"; the
    opening quote now starts the next line, at any width, and nothing is lost."""
    from bot.games.raptor.terminal import HELP
    from bot.i18n import translator
    from bot.offline.console import display_len, wrapped

    help_zh = translator("zh-TW").text(HELP)
    lines = wrapped(help_zh, 80).split("\n")
    assert lines[0].endswith("也可以輸入中文：") and lines[1].startswith("  '咬 F3'、")
    assert lines[1].endswith("方向鍵可叫出先前的輸入）；'?'")
    assert lines[2].startswith("  （或 'help'")  # an opening bracket never ends a line
    for width in range(30, 101):
        lines = wrapped(help_zh, width).split("\n")
        assert "".join(x.strip() for x in lines).replace(" ", "") == help_zh.replace(" ", "")
        quotes = 0
        for line in lines[:-1]:
            quotes += line.count("'")
            assert not (line.endswith("'") and quotes % 2), (width, line)  # an opening quote
            assert not line.endswith("（"), (width, line)
            # closing punctuation never hangs past the width (nor starts a line)
            assert display_len(line) <= width, (width, line)


def test_an_effect_cut_short_says_why_and_the_prompt_counts_what_is_left():
    """Recovery ×2 with one sleeping baby and no sleep token ended after one 'wake' without a
    word; now the line says why, and while it lasts the prompt shows the units left, as
    'raptor 3 AP>' shows the action points."""
    from bot.games.raptor.terminal import effect_lines, effect_prompt
    from bot.i18n import translator

    s = engine.from_diagram(
        "    A B C D E F G H I J K L M\n"
        "1   o S . . . . . . . . . . o\n"
        "2     . . b . . . . . . . .\n"
        "3     . . . . . M . . . . .\n"
        "4     . . . . . . . . . . .\n"
        "5     . . . . . . . . . . .\n"
        "6   o . . . . . . . . . . S o\n"
        "raptor hand: 3 5 8\nscientist hand: 1 7 9\n")
    s = engine.apply(s, engine.Side.RAPTOR, engine.Pick(5))
    s = engine.apply(s, engine.Side.SCIENTIST, engine.Pick(9))
    assert effect_prompt(s) == " Recovery ×2 (2 left)"
    assert effect_prompt(s, translator("zh-TW")) == " 恢復 ×2（剩 2 次）"
    s = engine.apply(s, engine.Side.RAPTOR, engine.parse_action("wake D2", s,
                                                                engine.Side.RAPTOR))
    assert s.phase is engine.Phase.AP and effect_prompt(s) == ""
    assert effect_lines(s.events) == [
        "The raptor's Recovery ×2 ends after 1 of 2: the mother holds no sleep token and no "
        "baby is asleep."]
    assert effect_lines(s.events, translator("zh-TW")) == [
        "迅猛龍的「恢復 ×2」用了 1 次（最多 2 次）就結束了：母龍身上沒有麻醉指示物，也沒有被麻醉的"
        "幼龍。"]


async def test_the_prompt_of_a_card_effect_names_the_card_and_what_is_left(tmp_path: Path):
    t = Typist(moves=40)
    await play(tmp_path, side="raptor", level="easy", seed=9, read=t.read, echo=t.echo)
    seen = set(t.prompts)
    assert "raptor Mother's Call & Shuffle (1 left)> " in seen  # round 6's card 1
    assert any(p.startswith("raptor ") and p.endswith(" AP> ") for p in seen)
