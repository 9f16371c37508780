"""Match records (docs/RECORD.md): write, read back, replay; refusals with line and reason."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Options, Phase, Pick, Reason, Side, apply, legal_actions, new_game, to_act
from engine.record import (
    FORMAT_LINE,
    Ending,
    MatchRecordError,
    UnfinishedMatchError,
    read_record,
    round_states,
    rounds_played,
    write_record,
)

RAPTOR, SCIENTIST = Side.RAPTOR, Side.SCIENTIST


def random_game(seed: int, *, setup: str = "quick", environment: str = "jungle",
                layout: str = "random", stop=None):
    """A random legal game from ``seed``: (final state, action log). Both sides pick in a
    random order when both may. ``stop(state)`` ends the loop early when true."""
    s = new_game(seed, setup=setup, environment=environment, layout=layout)
    rng = random.Random(seed)
    log = []
    while not s.is_over and not (stop and stop(s)):
        side = rng.choice(sorted(to_act(s)))
        a = rng.choice(legal_actions(s, side))
        log.append((side, a))
        s = apply(s, side, a)
    return s, log


HEADER = {"event": "Raptor match #7", "server": "Dino Club", "date": "2026-12-01",
          "raptor": "Alice", "scientist": "Bob"}


@pytest.mark.parametrize("seed", range(24))
def test_round_trip_over_random_finished_games(seed):
    setup = "manual" if seed % 2 else "quick"
    env = "savannah" if seed % 3 == 0 else "jungle"
    layout = "standard" if seed % 5 == 0 else "random"
    final, log = random_game(seed, setup=setup, environment=env, layout=layout)
    assert final.is_over
    text = write_record(final.seed, final.options, log, **HEADER)
    rec = read_record(text)
    assert rec.final == final                                  # same final state, events too
    assert engine.replay(rec.seed, rec.options, rec.actions) == final
    assert list(rec.actions) == log
    assert write_record(rec.seed, rec.options, rec.actions, **HEADER) == text  # same record
    assert rec.result == final.winner.value and rec.reason is final.reason
    assert rec.header["Rounds"] == str(final.round) and rec.rounds == final.round
    assert rec.header["Server"] == "Dino Club" and rec.options == Options(env, layout, setup)


def test_a_record_saved_with_a_byte_order_mark_and_crlf_reads_the_same():
    final, log = random_game(3)
    text = write_record(final.seed, final.options, log, **HEADER)
    rec = read_record("\ufeff" + text.replace("\n", "\r\n"))
    assert rec.final == final and list(rec.actions) == log


def test_the_header_and_round_lines_read_as_documented():
    final, log = random_game(5, setup="manual")
    lines = write_record(5, final.options, log, **HEADER).splitlines()
    assert lines[:13] == [
        FORMAT_LINE, "Event: Raptor match #7", "Server: Dino Club", "Date: 2026-12-01",
        "Raptor: Alice", "Scientist: Bob", "Environment: jungle", "Layout: random",
        "Setup: manual", "Seed: 5", f"Result: {final.winner.value}",
        f"Reason: {final.reason.value}", f"Rounds: {final.round}"]
    assert lines[13] == ""
    assert lines[14].startswith("setup raptor: M@") and lines[14].count("B@") == 5
    assert lines[15].startswith("setup scientist: S@") and lines[15].count("S@") == 4
    assert lines[16].startswith("round 1: ")
    body = lines[14:]
    assert sum(1 for line in body if line.startswith("round ")) == final.round
    for line in body:
        assert line.split(":")[0].split()[0] in ("setup", "round", "effect", "ap", "return")


def test_a_quick_setup_has_no_setup_lines_and_empty_descriptions_read_as_a_dash():
    final, log = random_game(2)
    text = write_record(2, final.options, log)
    assert "Event: -\nServer: -\nDate: -\nRaptor: -\nScientist: -\n" in text
    assert "setup " not in text and "\n\nround 1: " in text
    assert read_record(text).final == final


def test_descriptions_stay_on_one_line_and_read_back_as_given():
    final, log = random_game(2)
    text = write_record(2, final.options, log, event="Cup\nfinal", raptor="A\r\nB")
    assert "Event: Cup\\u{000A}final\n" in text and "Raptor: A\\u{000D}\\u{000A}B\n" in text
    assert text.count("\n") == write_record(2, final.options, log).count("\n")
    header = read_record(text).header
    assert (header["Event"], header["Raptor"]) == ("Cup\nfinal", "A\r\nB")


# ----------------------------------------------------------------------------- escaping
def _short_match():
    """A match resigned in round 2: a record quick to write and read."""
    s, log = random_game(6, stop=lambda s: s.round == 2)
    return s, log


def _header_of(**names: str) -> dict[str, str]:
    s, log = _short_match()
    text = write_record(6, s.options, log, result="raptor", reason="resigned", **names)
    return read_record(text).header


def test_a_hash_in_a_header_value_is_text_not_a_comment():
    header = _header_of(event="Raptor match #1", server="#general", raptor="Bob # the 2nd",
                        scientist="#")
    assert header["Event"] == "Raptor match #1" and header["Server"] == "#general"
    assert header["Raptor"] == "Bob # the 2nd" and header["Scientist"] == "#"


def test_the_escape_example_in_docs_record_md_is_what_the_engine_writes():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "RECORD.md").read_text()
    example = doc.split("give:\n\n```\n", 1)[1].split("```")[0]
    assert example == "Server: #general\nRaptor: Bob\\u{202E}\n"
    s, log = _short_match()
    text = write_record(6, s.options, log, result="raptor", reason="resigned",
                        server="#general", raptor="Bob\u202e")
    assert "\nServer: #general\nDate: -\nRaptor: Bob\\u{202E}\n" in text
    assert read_record(text).header["Raptor"] == "Bob\u202e"


def test_bidi_controls_and_control_characters_are_written_as_escapes():
    rlo = "\u202e"                                   # RIGHT-TO-LEFT OVERRIDE
    s, log = _short_match()
    text = write_record(6, s.options, log, result="raptor", reason="resigned",
                        raptor=f"{rlo}evil", scientist="tab\there\x1bbell\x07",
                        server="a\u2028b\x85c", event="\\u{41} \\")
    lines = text.splitlines()
    assert lines[1:6] == ["Event: \\\\u{41} \\\\", "Server: a\\u{2028}b\\u{0085}c",
                          "Date: -", "Raptor: \\u{202E}evil",
                          "Scientist: tab\\u{0009}here\\u{001B}bell\\u{0007}"]
    assert not any(_bidi_control(ch) for ch in text)
    header = read_record(text).header
    assert header["Raptor"] == f"{rlo}evil" and header["Scientist"] == "tab\there\x1bbell\x07"
    assert header["Server"] == "a\u2028b\x85c" and header["Event"] == "\\u{41} \\"


def _bidi_control(ch: str) -> bool:
    """Unicode's Bidi_Control characters, found from the bidi classes (the embeddings,
    overrides and isolates) plus the three marks (LRM, RLM, ALM)."""
    return (unicodedata.bidirectional(ch) in ("LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI",
                                              "FSI", "PDI") or ch in "\u200e\u200f\u061c")


def test_the_bidi_controls_are_unicodes():
    found = {chr(c) for c in range(0x3000) if _bidi_control(chr(c))}
    assert found == engine.record.BIDI_CONTROLS and len(found) == 12


#: Characters that matter to the format, mixed into any code point and lone surrogates.
_TRICKY = st.sampled_from(list("#\\u{}-: \t\n\r\x0b\x0c\x1c\x85\u2028\u2029\u202e\u2066"
                               "\u200f\ufffd\ufeff\x00\xa0\u3000") + ["\\u{41}", "\\\\"])
_ANY_TEXT = st.lists(st.one_of(st.characters(exclude_categories=()), _TRICKY,
                               st.characters(categories=["Cs"])),
                     max_size=24).map("".join)


@settings(max_examples=150, deadline=None)
@given(event=_ANY_TEXT, server=_ANY_TEXT, date=_ANY_TEXT, raptor=_ANY_TEXT,
       scientist=_ANY_TEXT)
def test_any_header_text_round_trips(event, server, date, raptor, scientist):
    names = {"event": event, "server": server, "date": date, "raptor": raptor,
             "scientist": scientist}
    s, log = _short_match()
    text = write_record(6, s.options, log, result="raptor", reason="resigned", **names)
    data = text.encode("utf-8")                      # a file can hold it (no lone surrogate)
    lines = data.decode("utf-8").splitlines()
    assert len(lines) == len(write_record(6, s.options, log, result="raptor",
                                          reason="resigned").splitlines())
    assert not any(_bidi_control(ch) for ch in text)
    assert all(ch == "\n" or unicodedata.category(ch) != "Cc" for ch in text)
    rec = read_record(data.decode("utf-8"))
    assert rec.header == {**{k.title(): v or "-" for k, v in names.items()},
                          **{k: rec.header[k] for k in engine.record.WORD_KEYS}}
    assert (rec.result, rec.reason, rec.final) == ("raptor", Ending.RESIGNED, s)


def test_a_comment_after_a_word_value_is_still_a_comment(record_text):
    text = _edit(record_text, "Seed: 5\n", "Seed: 5  # from the forum\n")
    text = _edit(text, "Date: 2026-12-01\n", "Date: 2026-12-01 # a Tuesday\n")
    rec = read_record(text)
    assert rec.seed == 5 and rec.header["Seed"] == "5"
    assert rec.header["Date"] == "2026-12-01 # a Tuesday"    # free text to the end of the line


def test_refuses_a_backslash_that_starts_no_escape(record_text):
    for bad, escape in (("Ali\\ce", "\\c"), ("x\\u{110000}", "\\u{110000}"),
                        ("x\\u41", "\\u"), ("x\\", "\\")):
        err = _refused(_edit(record_text, "Raptor: Alice", f"Raptor: {bad}"))
        assert err.line == 5 and err.text == f"Raptor: {bad}"
        assert str(err) == (
            f"line 5: {escape!r} is no escape: a backslash in a header value starts \\\\ (a "
            f"backslash) or \\u{{hex}} (a character by its code point, at most 10FFFF) "
            f"({err.text!r})")


# ----------------------------------------------------------------------------- older records
RECORDS = Path(__file__).parent / "records"


def test_a_format_1_record_of_the_old_example_reads_the_same_game():
    """``records/format1-example.txt`` is what the code before format 2 wrote for the example
    of docs/RECORD.md; it reads as the same match, its header as written (``#7`` included)."""
    old = (RECORDS / "format1-example.txt").read_text(encoding="utf-8")
    assert old.startswith("Raptor match record, format 1\n")
    final, log = random_game(5, setup="manual")
    rec = read_record(old)
    assert rec.final == final and list(rec.actions) == log
    assert rec.header == {
        "Event": "Raptor match #7", "Server": "Dino Club", "Date": "2026-12-01",
        "Raptor": "Alice", "Scientist": "Bob", "Environment": "jungle", "Layout": "random",
        "Setup": "manual", "Seed": "5", "Result": final.winner.value,
        "Reason": final.reason.value, "Rounds": str(final.round)}
    # nothing in it needed an escape: format 2 writes the same lines under its own first line
    assert write_record(5, final.options, log, **HEADER) == old.replace(
        "format 1", f"format {engine.record.FORMAT}", 1)


def test_a_format_1_record_keeps_its_names_as_written():
    """``records/format1-names.txt`` (old code, raw names): nothing is unescaped in it."""
    old = (RECORDS / "format1-names.txt").read_text(encoding="utf-8")
    s, log = random_game(4, stop=lambda s: s.round == 6 and s.phase is Phase.AP)
    rec = read_record(old)
    assert rec.final == s and list(rec.actions) == log and rec.reason is Ending.RESIGNED
    assert rec.header["Event"] == "Raptor match #12" and rec.header["Server"] == "Dino #Club"
    assert rec.header["Raptor"] == "Ali\\ce \\u{41} #1"
    assert rec.header["Scientist"] == "\u202eevil\u202c Bob the\x01second"


def test_round_states_give_one_state_per_round_ending_on_the_final_one():
    final, log = random_game(11)
    states = round_states(11, final.options, log)
    assert len(states) == final.round
    for number, s in enumerate(states[:-1], start=1):
        assert s.phase is Phase.PICK and s.round == number + 1
        assert s.last_round_events[-1].kind == "round_end"
        assert s.last_round_events[-1].value == number
    assert states[-1] == final


def test_a_match_in_progress_has_no_record():
    s, log = random_game(4, stop=lambda s: s.round == 6)
    with pytest.raises(UnfinishedMatchError, match="still in progress"):
        write_record(4, s.options, log)
    assert issubclass(UnfinishedMatchError, engine.RaptorError)


def test_an_ending_outside_the_game_is_in_the_header_and_the_game_is_not_over():
    s, log = random_game(4, stop=lambda s: s.round == 6 and s.phase is Phase.AP)
    text = write_record(4, s.options, log, result="scientist", reason="resigned")
    assert "Result: scientist\nReason: resigned\nRounds: 6\n" in text
    rec = read_record(text)
    assert rec.reason is Ending.RESIGNED and rec.final == s and not rec.final.is_over
    assert round_states(4, s.options, log)[-1] == s and len(rec.round_states()) == 6
    for reason, result in (("timeout", "raptor"), ("draw_agreed", "draw"),
                           ("abandoned", "none"), ("ended_by_moderator", "none")):
        again = read_record(write_record(4, s.options, log, result=result, reason=reason))
        assert (again.result, again.reason) == (result, Ending(reason))


def test_a_pick_never_revealed_is_left_out():
    """A match ended while one player had picked: the pick stays secret (R11.2)."""
    s, log = random_game(9, stop=lambda s: s.round == 4 and s.phase is Phase.PICK
                         and any(s.picks.values()))
    assert isinstance(log[-1][1], Pick) and s.revealed is None
    text = write_record(9, s.options, log, result="raptor", reason="timeout")
    rec = read_record(text)
    assert list(rec.actions) == log[:-1]
    assert "round 4:" not in text and "Rounds: 3\n" in text
    assert rec.final.phase is Phase.PICK and not any(rec.final.picks.values())


def test_stated_endings_that_contradict_the_game_are_refused_when_writing():
    final, log = random_game(3)
    other = "raptor" if final.winner is SCIENTIST else "scientist"
    with pytest.raises(MatchRecordError, match="the game ended"):
        write_record(3, final.options, log, result=other)
    s, log2 = random_game(3, stop=lambda s: s.round == 3)
    with pytest.raises(MatchRecordError, match="has the result draw"):
        write_record(3, s.options, log2, result="raptor", reason="draw_agreed")
    with pytest.raises(MatchRecordError, match="unknown reason 'gave_up'"):
        write_record(3, s.options, log2, result="raptor", reason="gave_up")


# ----------------------------------------------------------------------------- refusals
@pytest.fixture(scope="module")
def record_text():
    final, log = random_game(5, setup="manual")
    return write_record(5, final.options, log, **HEADER)


def _edit(text: str, old: str, new: str, count: int = 1) -> str:
    assert old in text, old
    return text.replace(old, new, count)


def _line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def _refused(text: str) -> MatchRecordError:
    with pytest.raises(MatchRecordError) as info:
        read_record(text)
    return info.value


def test_refuses_another_format(record_text):
    err = _refused(_edit(record_text, FORMAT_LINE, "Raptor match record, format 9"))
    assert err.line == 1 and "format 9" in str(err) and "not a Raptor match record" in str(err)
    assert "it reads formats 1 and 2 only, not format 9" in str(err)
    assert _refused("").line == 1
    assert "the first line must be" in str(_refused("Chess game\n"))


def test_refuses_binary_data_without_echoing_it():
    err = _refused("\x7fELF\x02\x01\x00\x00\ufffd\ufffd")
    assert err.line == 1 and "binary data, not text" in str(err)
    assert "ELF" not in str(err)


def test_refuses_a_bad_header_line_with_its_number(record_text):
    err = _refused(_edit(record_text, "Seed: 5", "Seed: five"))
    assert err.line == 10 and str(err) == "line 10: the seed is a whole number ('Seed: five')"
    err = _refused(_edit(record_text, "Layout: random", "Layout: spiral"))
    assert err.line == 8 and "Layout is random or standard" in str(err)
    err = _refused(_edit(record_text, "Date: 2026-12-01", "Date 2026-12-01"))
    assert err.line == 4 and "'Key: value'" in str(err)
    err = _refused(_edit(record_text, "Date: 2026-12-01", "Seed: 5"))
    assert err.line == 10 and "appears twice" in str(err)
    err = _refused(_edit(record_text, "Seed: 5\n", ""))
    assert "no 'Seed' line" in str(err)


def test_refuses_an_illegal_action_with_its_line_and_the_legal_ones(record_text):
    n = _line_of(record_text, "setup raptor:")
    line = record_text.splitlines()[n - 1]
    bad = "setup raptor: M@A3"  # the mother starts on T2 or T5 (R4.1)
    err = _refused(_edit(record_text, line, bad))
    assert err.line == n and "'M@A3'" in str(err) and "not legal" in str(err)
    assert err.text == bad and repr(bad) in str(err)


def test_refuses_an_action_the_game_does_not_allow_mid_match(record_text):
    lines = record_text.splitlines()
    n = next(i for i, line in enumerate(lines, 1) if line.startswith("  ap raptor: "))
    bad = "  ap raptor: kill A1"
    err = _refused(record_text.replace(lines[n - 1], bad, 1))
    assert err.line == n and "kill A1" in str(err) and "not legal now" in str(err)


def test_refuses_a_wrong_round_number_side_or_phase(record_text):
    err = _refused(_edit(record_text, "round 2: ", "round 3: "))
    assert "this is round 2, not 3" in str(err)
    n = _line_of(record_text, "  effect ")
    line = record_text.splitlines()[n - 1]
    side = "raptor" if " raptor:" in line else "scientist"
    other = "scientist" if side == "raptor" else "raptor"
    err = _refused(record_text.replace(line, line.replace(side, other, 1), 1))
    assert err.line == n and f"the {other} does not decide now" in str(err)
    err = _refused(record_text.replace(line, line.replace("effect", "ap", 1), 1))
    assert err.line == n and "read as ap, but the game expects an effect" in str(err)


def test_refuses_a_pick_of_a_card_not_in_hand(record_text):
    n = _line_of(record_text, "round 1: ")
    err = _refused(record_text.replace(record_text.splitlines()[n - 1],
                                       "round 1: raptor 12", 1))
    assert err.line == n and "the raptor has no 12 in hand" in str(err)


def test_refuses_a_record_that_does_not_reach_its_stated_result(record_text):
    body = record_text.rstrip("\n").splitlines()
    cut = "\n".join(body[:-3]) + "\n"  # the last rounds' lines missing
    err = _refused(cut)
    assert "the game is not over" in str(err) and "is the record cut short?" in str(err)
    assert err.line == len(body) - 3    # the last line left, not the header's
    winner = "raptor" if "Result: scientist" in record_text else "scientist"
    result_line = next(x for x in body if x.startswith("Result:"))
    err = _refused(record_text.replace(result_line, f"Result: {winner}", 1))
    assert "the game ends" in str(err)
    assert err.line == _line_of(record_text, "Result:")   # the line that is wrong


def test_refuses_actions_after_the_end_and_a_wrong_round_count(record_text):
    err = _refused(record_text + "round 999: raptor 1\n")
    assert err.line == len(record_text.splitlines()) + 1
    assert "the game is already over" in str(err)
    rounds = next(x for x in record_text.splitlines() if x.startswith("Rounds:"))
    err = _refused(record_text.replace(rounds, "Rounds: 2", 1))
    assert err.line == _line_of(record_text, "Rounds:") and "the replay plays" in str(err)


def test_refuses_an_outside_ending_when_the_game_itself_ended(record_text):
    reason = next(x for x in record_text.splitlines() if x.startswith("Reason:"))
    err = _refused(record_text.replace(reason, "Reason: resigned", 1))
    assert "the game itself ended" in str(err)


def test_comments_blank_lines_and_case_are_tolerated(record_text):
    lines = record_text.splitlines()
    noisy = [lines[0], "# shared on the forum", *lines[1:13], "", "# the rounds", ""]
    noisy += [line.upper() if line.startswith("  ") else line for line in lines[14:]]
    rec = read_record("\n".join(noisy) + "\n")
    assert rec.final == read_record(record_text).final


def test_record_errors_are_raptor_errors():
    assert issubclass(MatchRecordError, engine.RaptorError)
    assert issubclass(MatchRecordError, ValueError)


def test_rounds_played_counts_the_round_under_way_only_once_begun():
    s = new_game(1, setup="quick")
    assert s.phase is Phase.PICK and rounds_played(s) == 0
    s = apply(s, RAPTOR, legal_actions(s, RAPTOR)[0])
    assert rounds_played(s) == 1
    assert rounds_played(new_game(1)) == 0  # setup
    assert Reason.BABIES_ESCAPED.value == "babies_escaped"


def test_the_example_in_docs_record_md_is_what_the_engine_writes():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "RECORD.md").read_text()
    example = doc.split("```\n", 2)[1].split("  ...\n")[0]
    final, log = random_game(5, setup="manual")
    assert write_record(5, final.options, log, **HEADER).startswith(example)
    assert example.count("\n") > 20


def test_the_engine_and_its_replay_command_import_nothing_of_the_renderer():
    """Layering: ``python -m engine replay`` checks records without Pillow or render/."""
    import subprocess
    import sys

    code = ("import sys, engine, engine.record, engine.__main__; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'PIL', 'render', 'bot', 'discord', 'aiosqlite'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_banner_of_each_ending_outside_the_game():
    from engine.record import ending_banner

    assert ending_banner("scientist", "resigned") == "Scientist wins: the raptor resigned"
    assert ending_banner("raptor", Ending.TIMEOUT) == "Raptor wins: the scientist ran out of time"
    assert ending_banner("draw", "draw_agreed") == "Draw by agreement"
    assert ending_banner(None, "abandoned") == "No result: both players ran out of time"
    assert ending_banner("none", "ended_by_moderator") == "No result: ended by a moderator"


def test_a_wrong_round_count_of_a_one_round_match_says_one_round():
    """A match stopped during round 1 whose header claims two rounds: "plays 1 round"."""
    log = [(Side.RAPTOR, Pick(3)), (Side.SCIENTIST, Pick(8))]  # seed 5: raptor 2 3 4, sci 2 6 8
    text = write_record(5, engine.new_game(5, setup="quick").options, log, result="none",
                        reason=Ending.STOPPED)
    assert "Rounds: 1\n" in text
    err = _refused(text.replace("Rounds: 1\n", "Rounds: 2\n"))
    assert err.reason == "the replay plays 1 round"
