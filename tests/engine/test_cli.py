"""``python -m engine``: the diagram of ``show`` reads back, its legend goes to stderr, and
``selfplay`` refuses a game count below one with its own usage line."""

from __future__ import annotations

import pytest

import engine
from engine.__main__ import main


def test_show_prints_a_readable_diagram_and_a_legend_on_stderr(capsys):
    assert main(["show", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert engine.from_diagram(out).key() == engine.new_game(3, setup="quick").key()
    # it says first that it shows what no player sees, then the legend
    assert err.startswith("This diagram shows hidden information: both hands and both deck "
                          "orders (the 'hand' and 'deck' lines), which no player sees in a game.\n"
                          "grid: . free  # rock  * fire  o exit  M mother")
    assert "f scientist frightened this round" in err


@pytest.mark.parametrize("command, says", [
    ("selfplay", ["--games GAMES", "how many games (default 100)",
                  "seed of the first game; game i uses seed S+i (default 1)"]),
    ("show", ["The diagram shows hidden information: both hands and both deck orders.",
              "the tiles' face (default jungle)", "quick: the figurines placed at random"]),
])
def test_each_command_has_a_help_that_explains_its_options(command, says, capsys):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps to the terminal
    for text in says:
        assert text in out


def test_selfplay_refuses_zero_games_with_the_subcommand_usage(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["selfplay", "--games", "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "usage: python -m engine selfplay" in err
    assert "--games must be at least 1" in err


def test_selfplay_reports_every_game(capsys):
    assert main(["selfplay", "--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 games from seed 5, random legal play")
    assert "decisions/s" in out


def test_selfplay_names_the_endings_in_words_and_counts_one_game_in_the_singular(capsys):
    """The endings as the replay's last line says them ("Scientist wins: three babies were
    captured"), never the internal names ("scientist babies_captured"); "1 game"."""
    assert main(["selfplay", "--games", "1", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1 game from seed 1, random legal play"
    assert lines[1].split() == ["Scientist", "wins:", "three", "babies", "were", "captured", "1",
                                "100.0", "%"]
    assert not any(reason.value in "\n".join(lines) for reason in engine.Reason)


@pytest.mark.parametrize("seed", ["-5", "99999999999999999999999", "abc"])
def test_seeds_outside_the_bot_range_are_refused(seed, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["show", "--seed", seed])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed" in err
    assert ("is not a whole number" in err) or ("between 0 and 9223372036854775807" in err)


def test_ctrl_c_stops_with_one_line(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("engine.__main__.selfplay", interrupted)
    assert main(["selfplay", "--games", "1000"]) == 130
    assert capsys.readouterr().err == "Stopped.\n"


@pytest.mark.parametrize("command", [["selfplay", "--games", "2", "--seed", "5"], ["show"]])
def test_a_reader_gone_from_stdout_ends_quietly(command):
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "engine", *command],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # as `| head` does once it has its lines
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait() == 1
    assert "Traceback" not in err
    assert "BrokenPipeError" not in err


def test_games_that_are_not_a_number_are_refused_like_a_bad_seed(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["selfplay", "--games", "x"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --games: 'x' is not a whole number" in err
    assert "invalid int value" not in err


def test_seeds_past_the_maximum_are_refused_before_any_game(capsys, monkeypatch):
    monkeypatch.setattr("engine.__main__.selfplay", lambda *a: pytest.fail("games were run"))
    with pytest.raises(SystemExit) as stop:
        main(["selfplay", "--seed", "9223372036854775807", "--games", "2"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        "python -m engine selfplay: error: the last game's seed (9223372036854775807 + 2 - 1) "
        "would be above 9223372036854775807: lower --seed or --games")


def _record_file(tmp_path, seed=8):
    from engine.record import write_record

    from .test_record import random_game

    final, log = random_game(seed)
    path = tmp_path / "match.txt"
    path.write_text(write_record(seed, final.options, log, event="cli"), encoding="utf-8")
    return path, final


def test_replay_checks_a_record_and_prints_each_round(tmp_path, capsys):
    path, final = _record_file(tmp_path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == final.round + 1
    assert out[0].startswith("round 1: raptor ") and " vs scientist " in out[0]
    # the ending in the catalog's words, never the internal names ("scientist
    # (babies_captured)")
    assert out[-1] == (f"{engine.SIDE_NAMES[final.winner]} wins: "
                       f"{engine.REASON_WORDS[final.reason]}, after {final.round} rounds: the "
                       "record checks")
    assert final.reason.value not in out[-1] and "(" not in out[-1]
    assert f"captured {final.captured}/3" in out[-2]


def test_replay_numbers_the_rounds_of_a_match_stopped_during_one(tmp_path, capsys):
    """A match stopped (Ctrl-C in the terminal) during round 1, then one during round 2:
    the round it stopped in has its own number, and one round is 'after 1 round'."""
    from engine import Pick, Side
    from engine.record import Ending, write_record

    s = engine.new_game(5, setup="quick")  # hands: raptor 2 3 4, scientist 2 6 8
    log = [(Side.RAPTOR, Pick(3)), (Side.SCIENTIST, Pick(8))]  # the raptor resolves Fear
    for side, action in log:
        s = engine.apply(s, side, action)
    assert s.round == 1 and s.phase is engine.Phase.EFFECT
    path = tmp_path / "stopped.txt"
    path.write_text(write_record(5, s.options, log, result="none", reason=Ending.STOPPED))
    assert "Rounds: 1\n" in path.read_text()
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "round 1: raptor 3 vs scientist 8 · escaped 0/3 · captured 0/3 · sleep 0/5 · killed 0",
        "No result: the player stopped the match, after 1 round: the record checks"]

    while s.round == 1:  # the rest of round 1, then round 2's picks: 2 against 6
        side = min(engine.to_act(s))
        action = engine.legal_actions(s, side)[0]
        log.append((side, action))
        s = engine.apply(s, side, action)
    for side, card in ((Side.RAPTOR, 2), (Side.SCIENTIST, 6)):
        log.append((side, Pick(card)))
        s = engine.apply(s, side, Pick(card))
    assert s.round == 2 and s.phase is not engine.Phase.PICK  # stopped during round 2
    path.write_text(write_record(5, s.options, log, result="none", reason=Ending.STOPPED))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" · ")[0] for line in out] == [
        "round 1: raptor 3 vs scientist 8", "round 2: raptor 2 vs scientist 6",
        "No result: the player stopped the match, after 2 rounds: the record checks"]


def test_replay_refuses_a_bad_record_in_one_line(tmp_path, capsys):
    path, _ = _record_file(tmp_path)
    path.write_text(path.read_text().replace("round 2:", "round 5:", 1))
    assert main(["replay", str(path)]) == 2  # a usage error, as argparse's and the bot's
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"engine replay: {path}: line ") and "this is round 2, not 5" in err
    assert "\n" not in err
    assert main(["replay", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_replay_draws_no_images_and_says_where_they_are(tmp_path, capsys):
    path, _ = _record_file(tmp_path)
    assert main(["replay", str(path), "--out", str(tmp_path / "imgs")]) == 2
    assert "python -m render replay RECORD --out DIR" in capsys.readouterr().err
    assert not (tmp_path / "imgs").exists()
