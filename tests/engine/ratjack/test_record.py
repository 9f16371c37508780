"""Match records (docs/RATJACK_RECORD.md): written for finished matches only, read back by
replaying them, header values escaped, every refusal with its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import RecordHeader
from engine.ratjack import (
    RATJACK,
    MatchRecordError,
    UnfinishedMatchError,
    new_game,
    read_record,
    write_record,
)
from engine.ratjack.record import escape, strip_comment, unescape
from tests.game_conformance import play_checked

DOCS = Path(__file__).resolve().parents[3] / "docs"
HEADER = RecordHeader(event="Ratjack match #4", server="Dino Club", date="2026-12-01",
                      players=("Alice", "Bob", "AI (hard)"))


def _game(seed: int = 10, seats: int = 3):
    return play_checked(RATJACK, seed, seats, {"decks": "rb"}, check_every=50)


def test_the_documented_example_is_what_the_engine_writes():
    played = _game()
    text = RATJACK.write_record(10, 3, {"decks": "rb"}, list(played.log), HEADER)
    doc = (DOCS / "RATJACK_RECORD.md").read_text(encoding="utf-8")
    block = doc[doc.index("```\nRatjack match record") + 4:]
    block = block[:block.index("...\n```")]
    assert text.startswith(block)


def test_a_record_reads_back_to_the_same_match():
    for seed in range(8):
        played = _game(seed, 2 + seed % 3)
        text = write_record(seed, played.seats, "rb", list(played.log), HEADER)
        rec = read_record(text)
        assert rec.final.to_json() == played.final.to_json()
        assert rec.log == played.log and rec.seed == seed and rec.decks == "rb"
        assert rec.winners == played.final.winners and rec.reason == "three_vp"
        assert rec.players == ("Alice", "Bob", "AI (hard)")[:played.seats] + ("",) * max(
            0, played.seats - 3)
        assert RATJACK.read_record(text).final.to_json() == played.final.to_json()


def test_header_values_are_escaped_against_comments_and_bidi_tricks():
    names = ("A#li\\ce", "\u202eevil\u202c", "line\nbreak", "雅婷 ☕")
    for name in names:
        assert unescape(escape(name)) == name
        assert "#" not in escape(name).replace("\\#", "")
        assert "\n" not in escape(name) and "\u202e" not in escape(name)
    assert escape("\u202e") == "\\u{202e}" and escape("雅婷 ☕") == "雅婷 ☕"
    assert strip_comment("Event: a \\# b # c") == "Event: a \\# b "
    played = _game(3, 4)
    text = write_record(3, 4, "rb", list(played.log), RecordHeader(players=names))
    assert read_record(text).players == names


def test_only_a_finished_match_has_a_record():
    s = new_game(1, 2)
    with pytest.raises(UnfinishedMatchError):
        write_record(1, 2, "rb", [], RecordHeader())
    # a match the platform ended has one, with its winners and ending
    text = write_record(1, 2, "rb", [], RecordHeader(ending="resigned",
                                                     winners=frozenset({1})))
    rec = read_record(text)
    assert rec.reason == "resigned" and rec.winners == (1,) and not rec.final.is_over
    assert s.round == 1
    with pytest.raises(MatchRecordError, match="unknown ending"):
        write_record(1, 2, "rb", [], RecordHeader(ending="lost interest"))


def test_a_forfeit_is_written_and_replayed():
    s = new_game(2, 3)
    log = [(s.current, None)]
    s = RATJACK.forfeit(s, s.current)
    (seat,) = RATJACK.to_act(s)
    log.append((seat, None))
    s = RATJACK.forfeit(s, seat)
    assert s.is_over
    text = write_record(2, 3, "rb", log, RecordHeader())
    assert "forfeit" in text and "Reason: last_in_match" in text
    assert read_record(text).final.to_json() == s.to_json()


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace("format 1", "format 9"), "line 1: the first line"),
    (lambda t: t.replace("Seed: 10", "Seed: ten"), "the seed is a whole number"),
    (lambda t: t.replace("Seats: 3", "Seats: 5"), "Seats is 2, 3 or 4"),
    (lambda t: t.replace("Decks: rb", "Decks: xx"), "Decks is one of"),
    (lambda t: t.replace("Result: p3", "Result: p9"), "Result names the winners"),
    (lambda t: t.replace("Result: p3", "Result: p1"), "the game's winners are p3"),
    (lambda t: t.replace("Reason: three_vp", "Reason: boredom"), "unknown reason"),
    (lambda t: t.replace("VP: 0 2 3", "VP: 3 2 0"), "the replay gives VP 0 2 3"),
    (lambda t: t.replace("Rounds: 5", "Rounds: 4"), "the replay plays 5 rounds"),
    (lambda t: t.replace("Seats: 3\n", ""), "no 'Seats' line"),
    (lambda t: t.replace("p1: draw discard, discard B4, flip @1",
                         "p1: draw discard, discard B9"), "line 17: .*you do not hold B9"),
    (lambda t: t.replace("p1: draw discard, discard B4, flip @1", "p2: draw deck"),
     "line 17: 'draw deck': p2 does not decide now"),
    (lambda t: t.replace("round 2  # p2 begins", "round 3"), "this is round 2, not 3"),
    (lambda t: t.replace("p3: draw discard, down R6", "what is this"),
     "expected 'round N' or 'pN: actions'"),
    (lambda t: t[:t.index("round 3")], "is it cut short"),
])
def test_bad_records_are_refused_with_the_line(change, message):
    played = _game()
    text = RATJACK.write_record(10, 3, {"decks": "rb"}, list(played.log), HEADER)
    with pytest.raises(MatchRecordError, match=message):
        read_record(change(text))


def test_a_record_with_a_bom_and_windows_line_ends_reads():
    played = _game(4, 2)
    text = write_record(4, 2, "rb", list(played.log), HEADER)
    assert read_record("\ufeff" + text.replace("\n", "\r\n")).final.to_json() == (
        played.final.to_json())
