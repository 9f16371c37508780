"""The deployment files install a working bot in a fresh virtual environment.

* ``Dockerfile``: its steps (the files its COPY lines name, then its ``pip install`` line, the
  database path of its ENV line) in a fresh venv — the image itself cannot be built in the
  test suite (no container engine, no registry for the base image: see docs/DEPLOY.md);
* ``requirements.txt`` + ``.python-version``: what a Procfile host's Python support runs.

Each install is real (dependencies included, from the machine's pip configuration and cache),
and each bot then passes ``python -m bot check`` on a database in a fresh ``/data``-like
folder and renders a board (the package data is installed). Ten to thirty seconds each (the
pip installs): a soak run (``pytest -m soak``, the second step of ``.ci/run``), not part of the
default run.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.storage.schema import SCHEMA_VERSION

pytestmark = pytest.mark.soak

REPO_ROOT = Path(__file__).resolve().parents[2]
RENDER_A_BOARD = ("import engine, render; from bot.i18n import translator; "
                  "png = render.render_board(engine.view(engine.new_game(1), None)); "
                  "assert png.startswith(b'\\x89PNG'), png[:8]; "
                  "zh = render.render_board(engine.view(engine.new_game(1), None), "
                  "tr=translator('zh-TW').text); "  # the catalogs and the CJK font installed
                  "assert zh.startswith(b'\\x89PNG') and zh != png; "
                  "assert translator('zh-TW')('Round {n}', n=1) == '第 1 回合'; "
                  "print('board', len(png))")


def dockerfile_steps() -> tuple[list[str], list[str], str]:
    """(paths the COPY lines copy, the ``pip install`` arguments, RAPTOR_DB_PATH) of the
    Dockerfile, joined over its backslash-continued lines."""
    text = (REPO_ROOT / "Dockerfile").read_text()
    lines = re.sub(r"\\\n", " ", text).splitlines()
    copied: list[str] = []
    pip: list[str] | None = None
    db_path = ""
    for line in lines:
        words = shlex.split(line, comments=True)
        if not words:
            continue
        if words[0] == "COPY":
            assert not any(w.startswith("--") for w in words), line  # no --from / --chown
            copied += words[1:-1]
        elif words[0] == "RUN" and "pip" in words and "install" in words:
            command = " ".join(words[1:]).split("&&")[0].split()
            assert command[:2] == ["pip", "install"], line
            pip = command[2:]
        elif words[0] == "ENV":
            for word in words[1:]:
                if word.startswith("RAPTOR_DB_PATH="):
                    db_path = word.split("=", 1)[1]
    assert copied and pip is not None and db_path, (copied, pip, db_path)
    return copied, pip, db_path


def fresh_venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    return where / "bin" / "python"


def run(python: Path, *args: str, cwd: Path, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def clean_env(**values: str) -> dict[str, str]:
    """This environment without the bot's settings (a developer's), plus ``values``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("RAPTOR_", "DISCORD_", "PYTHONPATH", "VIRTUAL_ENV"))}
    env.update(values)
    return env


def assert_checks_and_renders(python: Path, data: Path, db_path: Path) -> None:
    env = clean_env(DISCORD_TOKEN="not-a-real-token", RAPTOR_DB_PATH=str(db_path))
    done = run(python, "-m", "bot", "check", cwd=data, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert f"Database: {db_path} (a new file, created now)" in lines, lines
    assert f"Schema version: {SCHEMA_VERSION} (new database)" in lines, lines
    assert lines[-1] == "Ready: python -m bot can start."
    assert db_path.is_file()
    drawn = run(python, "-c", RENDER_A_BOARD, cwd=data, env=env)
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.startswith("board "), drawn.stdout
    # the bot came from the install, not from the checkout
    where = run(python, "-c", "import bot; print(bot.__file__)", cwd=data, env=env)
    assert where.stdout.strip().startswith(str(python.parent.parent)), where.stdout


def test_the_dockerfile_steps_install_a_bot_that_passes_check(tmp_path):
    copied, pip_args, image_db_path = dockerfile_steps()
    assert "[dev]" not in " ".join(pip_args), pip_args  # the image has no dev extras
    src = tmp_path / "src"
    src.mkdir()
    for name in copied:  # the build context is the repository root
        origin = REPO_ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(origin, src / name)
    python = fresh_venv(tmp_path / "venv")
    # the Dockerfile's own arguments; --no-cache-dir only keeps the image small, and the test
    # may use the machine's pip cache
    args = [a for a in pip_args if a != "--no-cache-dir"]
    installed = run(python, "-m", "pip", "install", "--quiet", *args, cwd=src, env=clean_env())
    assert installed.returncode == 0, installed.stderr[-3000:]
    no_dev = run(python, "-c", "import pytest", cwd=tmp_path, env=clean_env())
    assert no_dev.returncode != 0, "the dev extras were installed"

    # RAPTOR_DB_PATH=/data/raptor.sqlite3 in the image: here, a fresh folder for /data
    image_db = Path(image_db_path)
    assert image_db.parent == Path("/data"), image_db_path
    data = tmp_path / "data"
    data.mkdir()
    assert_checks_and_renders(python, data, data / image_db.name)


def test_requirements_txt_installs_the_project_for_procfile_hosts(tmp_path):
    version = (REPO_ROOT / ".python-version").read_text().strip()
    assert re.fullmatch(r"3\.\d+", version), version
    requires = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"][
        "requires-python"]
    assert requires == ">=3.11" and tuple(map(int, version.split("."))) >= (3, 11), requires
    assert (REPO_ROOT / "Procfile").read_text().strip() == "worker: python -m bot"

    # a host builds from the repository's files: those git tracks (plus this change's new
    # files before they are committed), without the git folder
    app = tmp_path / "app"
    tracked = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                             cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    for name in tracked.stdout.splitlines():
        origin = REPO_ROOT / name
        if origin.is_file():
            (app / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, app / name)
    python = fresh_venv(tmp_path / "venv")
    installed = run(python, "-m", "pip", "install", "--quiet", "-r", "requirements.txt",
                    cwd=app, env=clean_env())
    assert installed.returncode == 0, installed.stderr[-3000:]
    no_dev = run(python, "-c", "import pytest", cwd=tmp_path, env=clean_env())
    assert no_dev.returncode != 0, "the dev extras were installed"

    data = tmp_path / "data"
    data.mkdir()
    assert_checks_and_renders(python, data, data / "raptor.sqlite3")
