"""Race records (docs/RACE_RECORD.md): written for finished races only, read back by
replaying every decision, header values escaped, every kind of refusal."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine.race as R
from engine.game import RecordHeader
from engine.race.errors import RaceRecordError, UnfinishedRaceError
from engine.race.record import escape, read_record, strip_comment, unescape, write_record

DOC = Path(__file__).resolve().parents[3] / "docs" / "RACE_RECORD.md"


def _race(seed: int, seats: int, board: str, forfeit_at: int | None = None):
    """A random race's log (seeded; a forfeit of the next seat at step ``forfeit_at``)."""
    rng = random.Random(seed)
    s = R.new_game(seed, seats, board)
    log = []
    while not s.is_over:
        if len(log) == forfeit_at:
            other = (s.seat + 1) % seats
            s = R.forfeit(s, other)
            log.append((other, R.Forfeit()))
        a = rng.choice(R.legal_actions(s, s.seat))
        log.append((s.seat, a))
        s = R.apply(s, s.seat, a)
    return log, s


def test_the_documented_example_is_what_the_engine_writes():
    log, _ = _race(3, 3, "jungle", forfeit_at=20)
    text = write_record(3, 3, "jungle", log, RecordHeader(
        event="Race #3", server="Dino Club", date="2026-12-01",
        players=("Alice", "Bob", "AI (hard)")))
    example = DOC.read_text(encoding="utf-8").split("```")[1].strip("\n").splitlines()
    written = text.splitlines()
    cut = example.index("...")
    assert written[:cut] == example[:cut] and written[-1] == example[-1]


@pytest.mark.parametrize("seed", range(12))
def test_records_read_back_to_the_same_race(seed):
    seats, board = 2 + seed % 4, ("desert", "jungle")[seed % 2]
    log, final = _race(seed, seats, board, forfeit_at=10 if seed % 3 == 0 else None)
    names = tuple(f"player {n}" for n in range(seats))
    text = write_record(seed, seats, board, log, RecordHeader(players=names))
    rec = read_record(text)
    assert rec.final == final and list(rec.log) == log
    assert (rec.seed, rec.seats, rec.board.value, rec.reason) == (seed, seats, board,
                                                                   "finished")
    assert rec.players == names and rec.winners == R.outcome(final).winners
    assert rec.outcome == R.outcome(final)
    assert read_record(text.replace("\n", "\r\n")).final == final
    assert read_record("\ufeff" + text.lower().replace("raptor race record",
                                                       "Raptor Race record")).final == final


@pytest.mark.parametrize("name", [
    "Alice # not a comment", "back\\slash", "\u202eevil\u202c", "tab\there", "line\nbreak",
    "zero\u200bwidth", "-", "", "雷克斯 🦖", "\\#", "a\x00b",
])
def test_header_values_are_escaped_and_read_back(name):
    written = escape(name)
    assert "\n" not in written and "#" not in written.replace("\\#", "")
    assert not any(ch in written for ch in "\u202e\u202c\u200b\x00\t")
    assert unescape(written) == " ".join(name.split())
    log, _ = _race(1, 2, "desert")
    rec = read_record(write_record(1, 2, "desert", log, RecordHeader(event=name,
                                                                      players=(name, "x"))))
    assert rec.header["Event"] == rec.players[0] == " ".join(name.split())


def test_a_comment_starts_at_an_unescaped_hash():
    assert strip_comment("Event: a \\# b # c") == "Event: a \\# b "
    assert strip_comment("turn 1, seat 1: keep B  # rolled B") == "turn 1, seat 1: keep B  "


def test_no_record_of_a_race_under_way_but_one_of_a_race_ended_outside_it():
    log, _ = _race(2, 3, "desert")
    with pytest.raises(UnfinishedRaceError):
        write_record(2, 3, "desert", log[:15], RecordHeader())
    text = write_record(2, 3, "desert", log[:15], RecordHeader(ending="abandoned",
                                                                winners=frozenset({0, 2})))
    rec = read_record(text)
    assert (rec.reason, rec.winners, rec.outcome) == ("abandoned", {0, 2}, None)
    assert "Scores" not in rec.header and rec.header["Cards"] == " ".join(
        map(str, rec.final.cards))
    with pytest.raises(RaceRecordError, match="finished by its rules"):
        write_record(2, 3, "desert", log, RecordHeader(ending="timeout"))
    with pytest.raises(RaceRecordError, match="unknown ending"):
        write_record(2, 3, "desert", log[:15], RecordHeader(ending="lunch"))


def _good() -> str:
    log, _ = _race(5, 3, "jungle", forfeit_at=12)
    return write_record(5, 3, "jungle", log, RecordHeader(event="E"))


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.replace("format 1", "format 9"), "starts with"),
    (lambda t: t.replace("Seed: 5", "Seed: five"), "whole number"),
    (lambda t: t.replace("Seats: 3", "Seats: 6"), "from 2 to 5"),
    (lambda t: t.replace("Board: jungle", "Board: moon"), "desert or jungle"),
    (lambda t: t.replace("Reason: finished", "Reason: lunch"), "unknown reason"),
    (lambda t: t.replace("Event: E", "Event: E\nEvent: F"), "appears twice"),
    (lambda t: t.replace("Board: jungle\n", ""), "no 'Board' line"),
    (lambda t: t.replace("Event: E", "just words"), "Key: value"),
    (lambda t: t.replace("turn 2,", "turn 3,", 1), "this is turn 2"),
    (lambda t: t.replace("\nturn 1, seat ", "\nturn 1, seat 9", 1), "seat"),
    (lambda t: t.replace("forfeits", "forfeit"), "expected 'turn N"),
    (lambda t: t.replace("keep", "kept", 1), "not race notation"),
    (lambda t: t.rsplit("\nturn", 1)[0] + "\n", "cut short"),
    (lambda t: t + "turn 99, seat 1: keep B\n", "already over"),
    (lambda t: t.replace("Cards: ", "Cards: 1"), "the replay gives Cards"),
    (lambda t: t.replace("Turns: ", "Turns: 1"), "the replay gives Turns"),
    (lambda t: t.replace("Reason: finished", "Reason: timeout"), "finished: its reason"),
])
def test_a_bad_record_is_refused_at_its_line(edit, message):
    text = _good()
    with pytest.raises(RaceRecordError, match=message) as info:
        read_record(edit(text))
    assert info.value.line >= 1


def test_a_record_naming_an_illegal_decision_says_what_was_legal():
    text = _good()
    lines = text.splitlines()
    i = next(n for n, ln in enumerate(lines) if ln.startswith("turn 1,"))
    head, _ = lines[i].split(":", 1)
    lines[i] = f"{head}: keep GGGGG"
    with pytest.raises(RaceRecordError, match="the dice just rolled are") as info:
        read_record("\n".join(lines) + "\n")
    assert info.value.line == i + 1
