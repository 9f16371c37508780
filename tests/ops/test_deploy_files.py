"""What the deployment files promise, read from the files themselves: the Dockerfile's base,
user, volume and command; the systemd unit's user, working directory, environment file,
restarts and stop. (Their installs are run in ``test_install.py``; the graceful stop they
rely on in ``test_graceful_stop.py``.)"""

from __future__ import annotations

import configparser
import json
import re
import shlex
from pathlib import Path

from bot.discord.shutdown import STOP_SECONDS

REPO_ROOT = Path(__file__).resolve().parents[2]


def instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", (REPO_ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_the_image_is_slim_official_python_non_root_with_data_on_a_volume():
    steps = instructions()
    args = dict(a.split("=", 1) for w, a in steps if w == "ARG")
    assert args["PYTHON_IMAGE"] == "python:3.11-slim-bookworm"  # official, slim
    assert ("FROM", "${PYTHON_IMAGE}") in steps
    users = [a for w, a in steps if w == "USER"]
    assert users == ["raptor"]
    run = " ".join(a for w, a in steps if w == "RUN")
    assert re.search(r"useradd .*--uid 10001 .*raptor", run)
    assert "chown raptor:raptor /data" in run
    env = " ".join(a for w, a in steps if w == "ENV")
    assert "RAPTOR_DB_PATH=/data/raptor.sqlite3" in env
    assert "DISCORD_TOKEN" not in env  # the token comes from the running environment only
    assert [json.loads(a) for w, a in steps if w == "VOLUME"] == [["/data"]]
    assert [json.loads(a) for w, a in steps if w == "CMD"] == [["python", "-m", "bot"]]
    # the user comes after the install and before the command: the bot never runs as root
    order = [w for w, _ in steps]
    assert order.index("USER") > max(i for i, (w, a) in enumerate(steps) if "pip" in a)
    assert order.index("USER") < order.index("CMD")


def test_the_build_context_leaves_out_secrets_and_local_state():
    ignored = (REPO_ROOT / ".dockerignore").read_text().split()
    for name in (".env", ".git", ".venv", "*.sqlite3", "*.sqlite3-*", "raptor-demo"):
        assert name in ignored, name
    copied = [shlex.split(a)[:-1] for w, a in instructions() if w == "COPY"]
    assert sorted(p for paths in copied for p in paths) == [
        "README.md", "bot", "engine", "pyproject.toml", "render"]


def test_the_systemd_unit_restarts_on_failure_as_its_own_user_in_the_database_folder():
    unit = configparser.ConfigParser(strict=True, interpolation=None)
    unit.optionxform = str  # keys are case-sensitive
    unit.read_string((REPO_ROOT / "docs" / "raptor-bot.service").read_text())
    service = unit["Service"]
    assert service["User"] == service["Group"] == "raptor"
    workdir = service["WorkingDirectory"]
    assert workdir == "/var/lib/raptor-bot"
    assert service["ReadWritePaths"] == workdir  # the database and its WAL files go there
    assert service["ProtectSystem"] == "strict"
    assert service["EnvironmentFile"] == "/etc/raptor-bot.env"
    assert shlex.split(service["ExecStart"])[1:] == ["-m", "bot"]
    assert service["Restart"] == "on-failure"
    # python -m bot exits 2 for a configuration problem, which a restart cannot fix
    assert service["RestartPreventExitStatus"] == "2"
    # SIGTERM to the bot alone; it stops within STOP_SECONDS, well before the kill
    assert service["KillMode"] == "mixed"
    assert float(service["TimeoutStopSec"]) > STOP_SECONDS
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert "network-online.target" in unit["Unit"]["After"]
