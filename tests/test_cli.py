"""The ``python -m bot`` entry point and ``bot.settings``: configuration problems give a short
message and exit status 2, never a traceback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import ENV_VARS, Settings, SettingsError, load_settings
from bot.storage.schema import SCHEMA_VERSION

REPO_ROOT = Path(__file__).resolve().parent.parent
ALL_VARS = [env for env, _form in ENV_VARS.values()]


def clean_env(**extra: str) -> dict[str, str]:
    """The current environment without any bot setting, plus ``extra``, able to import ``bot``."""
    env = {k: v for k, v in os.environ.items() if k.upper() not in ALL_VARS}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def run_bot(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # an empty folder, so no .env is picked up
        env=clean_env(**extra),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def no_settings_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No bot variable in the environment and an empty working directory (no .env)."""
    for name in list(os.environ):
        if name.upper() in ALL_VARS:
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_no_token_explains_how_to_set_it(tmp_path: Path) -> None:
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert ".env" in result.stderr
    assert "python -m bot demo" in result.stderr
    assert "python -m bot play" in result.stderr
    assert "Traceback" not in result.stderr


def test_blank_token_counts_as_missing(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="  ")
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr


def test_malformed_guild_id_is_named(tmp_path: Path) -> None:
    result = run_bot(tmp_path, RAPTOR_DEV_GUILD_ID="abc", DISCORD_TOKEN="x")
    assert result.returncode == 2
    assert ("RAPTOR_DEV_GUILD_ID must be a positive whole number (a Discord server id), "
            "got 'abc'") in result.stderr
    assert "Traceback" not in result.stderr


def _database_cases(tmp_path: Path) -> dict[str, Path]:
    newer = tmp_path / "newer.sqlite3"
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not the pages you are looking for" * 200)
    return {"newer": newer, "no folder": tmp_path / "no" / "x.db", "junk": junk,
            "folder": tmp_path}


@pytest.mark.parametrize("case", ["newer", "no folder", "junk", "folder"])
def test_database_problems_stop_the_bot_with_check_s_reason_and_status_2(
        tmp_path: Path, case: str) -> None:
    # the database is looked at before Discord is contacted, so no network is involved;
    # docs/raptor-bot.service does not restart after status 2
    db_path = _database_cases(tmp_path)[case]
    bot = run_bot(tmp_path, DISCORD_TOKEN="x", RAPTOR_DB_PATH=str(db_path))
    checked = run_bot(tmp_path, "check", DISCORD_TOKEN="x", RAPTOR_DB_PATH=str(db_path))
    assert (bot.returncode, checked.returncode) == (2, 2)
    assert bot.stderr.count("\n") == 1 and "Traceback" not in bot.stderr
    reason = checked.stderr.removeprefix("python -m bot check: ")
    assert bot.stderr == f"python -m bot: {reason}"
    expected = {
        "newer": f"the database '{db_path}' has schema version 99, but this version of the bot "
                 f"only knows versions up to {SCHEMA_VERSION}: upgrade the bot, or point "
                 "RAPTOR_DB_PATH at another file\n",
        "no folder": f"the database folder {db_path.parent} does not exist (RAPTOR_DB_PATH="
                     f"{db_path}): create it, or mount the volume there\n",
        "junk": f"RAPTOR_DB_PATH={db_path} is not a SQLite database (file is not a database): "
                "point RAPTOR_DB_PATH at the bot's database file, or at a new file name\n",
        "folder": f"RAPTOR_DB_PATH={db_path} is a folder, not a file: give a file path, e.g. "
                  f"{db_path / 'raptor.sqlite3'}\n",
    }[case]
    assert reason == expected
    if case == "newer":  # left untouched
        conn = sqlite3.connect(db_path)
        assert conn.execute("PRAGMA user_version").fetchone() == (99,)
        conn.close()


def test_a_failed_open_at_start_up_is_a_configuration_problem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    from bot.discord import app
    from bot.storage.db import SqliteDatabase

    async def refuse(path, **kwargs):  # noqa: ANN001 - e.g. the file was replaced after the check
        raise sqlite3.DatabaseError("file is not a database")

    monkeypatch.setattr(SqliteDatabase, "open", refuse)
    monkeypatch.setattr(app, "configure_logging", lambda level: None)
    db_path = tmp_path / "raptor.sqlite3"
    settings = Settings(DISCORD_TOKEN="x", RAPTOR_DB_PATH=str(db_path))
    assert app.run(settings) == 2
    assert capsys.readouterr().err == (
        f"python -m bot: RAPTOR_DB_PATH={db_path} is not a SQLite database (file is not a "
        "database): point RAPTOR_DB_PATH at the bot's database file, or at a new file name\n")


def test_absurdly_large_values_are_refused_by_name(tmp_path: Path) -> None:
    result = run_bot(tmp_path, DISCORD_TOKEN="abc", RAPTOR_TURN_TIMEOUT_HOURS="1e308",
                     RAPTOR_CHALLENGE_TIMEOUT_MINUTES="1e300", RAPTOR_AI_TIME_BUDGET="1e9")
    assert result.returncode == 2
    assert ("RAPTOR_TURN_TIMEOUT_HOURS must be a number of hours from 1/60 (a minute, 0.0167) "
            "to 8760 (a year), got '1e308'") in result.stderr
    assert "RAPTOR_CHALLENGE_TIMEOUT_MINUTES must be" in result.stderr
    assert "RAPTOR_AI_TIME_BUDGET must be" in result.stderr
    assert "Traceback" not in result.stderr


def test_dotenv_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes("RAPTOR_LOG_LEVEL=INFO\n".encode("utf-16"))
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert ".env must be a UTF-8 text file" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_misspelt_setting_is_named_with_the_closest_one(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("RAPTOR_TIMEOUT_HOURS=2\n", encoding="utf-8")
    result = run_bot(tmp_path, RAPTOR_LOGLEVEL="DEBUG", RAPTOR_ZZZ="1")
    assert result.returncode == 2  # no token: it stops there, after the warnings
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("Warning: ")]
    assert lines == [
        "Warning: RAPTOR_LOGLEVEL is not a setting of this bot, so it is ignored; did you mean "
        "RAPTOR_LOG_LEVEL?",
        "Warning: RAPTOR_TIMEOUT_HOURS is not a setting of this bot, so it is ignored; did "
        "you mean RAPTOR_TURN_TIMEOUT_HOURS?",
        "Warning: RAPTOR_ZZZ is not a setting of this bot, so it is ignored."]
    (tmp_path / ".env").write_text("raptor_turn_timeout_hours=2\n", encoding="utf-8")
    result = run_bot(tmp_path, RAPTOR_LOG_LEVEL="DEBUG")  # known names, any letter case
    assert "Warning" not in result.stderr and result.returncode == 2


def test_malformed_value_in_dotenv_file_is_named(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("RAPTOR_TURN_TIMEOUT_HOURS=0\n", encoding="utf-8")
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert "RAPTOR_TURN_TIMEOUT_HOURS" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_subcommand_is_a_usage_error(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "bogus")
    assert result.returncode == 2
    assert "usage:" in result.stderr
    assert "Traceback" not in result.stderr


def test_help_names_the_commands_one_way(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: python -m bot [-h] [COMMAND [ARGS ...]]\n")
    assert "    demo " in result.stdout and "    play " in result.stdout
    assert "'python -m bot COMMAND --help' shows a command's options." in result.stdout
    # where the token goes, before anyone runs it without one
    said = " ".join(result.stdout.split())
    assert ("needs the bot's token in DISCORD_TOKEN, an environment variable or a line "
            "DISCORD_TOKEN=... in a .env file in this folder") in said
    # the exit statuses, 2 for a usage error as in python -m engine and python -m render
    from bot.__main__ import EXIT_STATUS

    assert " ".join(EXIT_STATUS.split()) in said and "2 a usage or configuration" in said


def test_defaults(no_settings_env: Path) -> None:
    settings = load_settings()
    assert settings.discord_token is None
    assert settings.db_path == Path("raptor.sqlite3")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.turn_timeout_hours == 24.0
    assert settings.challenge_timeout_minutes == 10.0
    assert settings.ai_time_budget == 2.0


def test_environment_overrides(no_settings_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token")
    monkeypatch.setenv("RAPTOR_DB_PATH", "/data/raptor.db")
    monkeypatch.setenv("RAPTOR_DEV_GUILD_ID", "123456789012345678")
    monkeypatch.setenv("RAPTOR_LOG_LEVEL", "debug")
    monkeypatch.setenv("RAPTOR_TURN_TIMEOUT_HOURS", "0.5")
    monkeypatch.setenv("RAPTOR_CHALLENGE_TIMEOUT_MINUTES", "3")
    monkeypatch.setenv("RAPTOR_AI_TIME_BUDGET", "0.25")
    settings = load_settings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "secret-token"
    assert "secret-token" not in repr(settings)
    assert settings.db_path == Path("/data/raptor.db")
    assert settings.dev_guild_id == 123456789012345678
    assert settings.log_level == "DEBUG"
    assert settings.turn_timeout_hours == 0.5
    assert settings.challenge_timeout_minutes == 3.0
    assert settings.ai_time_budget == 0.25


def test_dotenv_file_is_read_and_environment_wins(
    no_settings_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (no_settings_env / ".env").write_text(
        "# comment\nRAPTOR_DEV_GUILD_ID=42\nRAPTOR_LOG_LEVEL=ERROR\nRAPTOR_DB_PATH=\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("RAPTOR_LOG_LEVEL", "WARNING")
    settings = load_settings()
    assert settings.dev_guild_id == 42
    assert settings.log_level == "WARNING"
    assert settings.db_path == Path("raptor.sqlite3")  # blank means default
    assert load_settings(env_file=None).dev_guild_id is None


def test_env_example_loads_as_defaults(no_settings_env: Path) -> None:
    settings = load_settings(env_file=REPO_ROOT / ".env.example")
    assert settings == Settings(_env_file=None)  # type: ignore[call-arg]


def test_env_example_documents_every_setting() -> None:
    text = (REPO_ROOT / ".env.example").read_text(encoding="utf-8")
    for env in ALL_VARS:
        assert env in text


def test_every_problem_is_reported(no_settings_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAPTOR_LOG_LEVEL", "loud")
    monkeypatch.setenv("RAPTOR_AI_TIME_BUDGET", "-1")
    monkeypatch.setenv("RAPTOR_CHALLENGE_TIMEOUT_MINUTES", "nan")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert len(caught.value.problems) == 3
    assert "RAPTOR_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR" in message
    assert ("RAPTOR_AI_TIME_BUDGET must be a number of seconds greater than 0, at most 60, "
            "got '-1'") in message
    assert "RAPTOR_CHALLENGE_TIMEOUT_MINUTES" in message


def test_ctrl_c_while_a_command_loads_exits_130_with_a_short_message(monkeypatch, capsys):
    import bot.__main__ as entry_point

    def interrupted(name: str):
        raise KeyboardInterrupt  # Ctrl-C while the demo's modules are imported

    monkeypatch.setattr(entry_point.importlib, "import_module", interrupted)
    assert entry_point.entry(["demo", "--seed", "1"]) == 130
    err = capsys.readouterr().err
    assert err == "\nStopped.\n"


def test_a_dotenv_line_that_is_not_name_value_is_warned_about_once_by_name(
        tmp_path: Path) -> None:
    # a warning, as for a misspelt name: the line is ignored and the bot still starts
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\n# a comment\nthis is not a setting\n",
                                   encoding="utf-8")
    result = run_bot(tmp_path, "check", RAPTOR_DB_PATH=str(tmp_path / "raptor.sqlite3"))
    assert result.returncode == 0
    assert result.stderr == "Warning: .env line 3 is not NAME=value: ignored\n"
    assert "Ready: python -m bot can start." in result.stdout
    (tmp_path / ".env").write_text("this is not a setting\n", encoding="utf-8")
    result = run_bot(tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == "Warning: .env line 1 is not NAME=value: ignored"
    assert "could not parse" not in result.stderr


def test_a_bad_setting_stops_the_bot_with_one_line_as_check_says_it(tmp_path: Path) -> None:
    bot = run_bot(tmp_path, RAPTOR_LOG_LEVEL="bad", DISCORD_TOKEN="x")
    checked = run_bot(tmp_path, "check", RAPTOR_LOG_LEVEL="bad", DISCORD_TOKEN="x")
    assert (bot.returncode, checked.returncode) == (2, 2)
    assert bot.stderr == ("python -m bot: RAPTOR_LOG_LEVEL must be one of DEBUG, INFO, "
                          "WARNING, ERROR, got 'BAD'\n")
    assert checked.stderr == bot.stderr.replace("python -m bot:", "python -m bot check:")


def test_a_dotenv_folder_is_warned_about_in_one_line(tmp_path: Path) -> None:
    # ignored like a bad line, so the bot still starts from the environment, but not silently
    (tmp_path / ".env").mkdir()
    (tmp_path / ".env" / "DISCORD_TOKEN").write_text("x\n", encoding="utf-8")
    warning = ("Warning: .env is a folder, not a file of NAME=value lines: ignored (the "
               "settings come from the environment alone)\n")
    result = run_bot(tmp_path, "check", RAPTOR_DB_PATH=str(tmp_path / "raptor.sqlite3"),
                     DISCORD_TOKEN="x")
    assert result.returncode == 0
    assert result.stderr == warning
    assert "Ready: python -m bot can start." in result.stdout
    result = run_bot(tmp_path)  # no token anywhere: the warning, then the missing token
    assert result.returncode == 2
    assert result.stderr.startswith(warning)
    assert "Traceback" not in result.stderr


def test_migrate_to_counts_each_table_in_the_singular_or_the_plural() -> None:
    from bot.ops.migrate_to import TABLES, copied_rows

    counts = {table: n for (table, _words), n in zip(
        TABLES, [1, 2, 3, 0, 1, 1, 2, 1, 1, 0, 1, 1, 2, 1, 3], strict=True)}
    assert copied_rows(counts) == (
        "1 match, 2 player seats, 3 log records, 0 challenges, 1 rating, 1 former Elo rating, "
        "2 results, 1 server setting, 1 server language, 0 user settings, 1 post with "
        "controls, 1 private post, 2 notices given, 1 table, 3 seats at tables")
    counts.update(match_players=1, elo_ratings=4)
    assert "1 match, 1 player seat, 3 log records" in copied_rows(counts)
    assert "1 rating, 4 former Elo ratings, 2 results" in copied_rows(counts)
