"""The layering of the code, read from its imports (``ast``, nothing is imported):

- ``engine`` imports nothing of ``bot``, ``render``, discord, PIL, aiosqlite or asyncpg;
- ``render`` nothing of ``bot``, discord, aiosqlite or asyncpg;
- the match layer (``bot.match``), the AI (``bot.ai``), the games' packages
  (``bot.games``, less their Discord presentations ``bot.games.<game>.ui``), the sentences
  (``bot.texts``),
  the storage (``bot.storage``), the operator commands (``bot.ops``) and the
  offline modes (``bot.offline``) nothing of discord;
- only ``bot.storage.pg`` imports asyncpg (the PostgreSQL driver);
- the platform (the match layer, the storage, the operator commands, the Discord layer
  ``bot.discord``, the offline modes' frame ``bot.offline``, the platform's sentences
  ``bot.texts``, and the games' base and registry ``bot.games``, ``bot.games.base``) imports
  no game: not a game's package under ``bot.games``, not a game's rules (``engine.race``,
  ``engine.ratjack``, Raptor's modules of ``engine``: all but the game protocol
  ``engine.game``, the sentences ``engine.messages`` and the command lines' pieces
  ``engine.cli``), images (``render``, less its worker pool ``render.pool``) or AI
  (``bot.ai``, Raptor's); it reaches a game through the registry (:func:`bot.games.plugin`
  and, on Discord, :func:`bot.discord.presentation.ui_of`). What still does is listed, to be
  emptied: :data:`GAME_IMPORTS_LEFT`;
- no two modules of ``bot``, ``engine`` and ``render`` import each other, directly or
  through others (imports for type checking and inside functions count too).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "engine", "render")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            out[_module_name(path)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The modules ``name`` imports: absolute names, a ``from X import y`` counted as
    ``X.y`` when that is one of our modules, else as ``X``."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}"
                out.add(full if full in MODULES else source)
    return out


@functools.cache
def imports() -> dict[str, set[str]]:
    """Each module's imports (:func:`_imports`), read on first use: not by every test process
    that only collects this file."""
    return {name: _imports(name, path) for name, path in MODULES.items()}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _is_game_ui(module: str) -> bool:
    """A game's Discord presentation, ``bot.games.<game>.ui`` (and its modules)."""
    parts = module.split(".")
    return parts[:2] == ["bot", "games"] and len(parts) > 3 and parts[3] == "ui"


def _offenders(layer: str, forbidden: tuple[str, ...]) -> list[str]:
    """The imports of ``forbidden`` by the modules of ``layer``; a game's Discord
    presentation (:func:`_is_game_ui`) may import discord."""
    return sorted(f"{name} imports {imp}" for name, imps in imports().items()
                  if _within(name, layer) for imp in imps
                  if any(_within(imp, f) for f in forbidden)
                  and not (_is_game_ui(name) and _within(imp, "discord")))


def test_the_modules_are_found():
    for name in ("engine", "render", "bot.match.models", "bot.discord.app",
                 "bot.games.raptor.demo"):
        assert name in MODULES
    assert "bot.match.models" in imports()["bot.match.service"] or any(
        _within(i, "bot.match") for i in imports()["bot.match.service"])


@pytest.mark.parametrize(("layer", "forbidden"), [
    ("engine", ("bot", "render", "discord", "PIL", "aiosqlite", "asyncpg")),
    ("render", ("bot", "discord", "aiosqlite", "asyncpg")),
    ("bot.match", ("discord",)),
    ("bot.ai", ("discord",)),
    ("bot.games", ("discord",)),
    ("bot.texts", ("discord",)),
    ("bot.storage", ("discord",)),
    ("bot.ops", ("discord",)),
    ("bot.offline", ("discord",)),
])
def test_a_layer_imports_nothing_of_the_layers_above(layer, forbidden):
    assert _offenders(layer, forbidden) == []


def test_the_check_sees_a_forbidden_import():
    assert _offenders("bot.discord", ("discord",))  # the Discord layer does import discord
    assert _is_game_ui("bot.games.raptor.ui") and _is_game_ui("bot.games.race.ui.cog")
    assert not _is_game_ui("bot.games.raptor.demo") and not _is_game_ui("bot.games.ui")
    assert "bot.games.raptor.ui imports bot.games.raptor" in _offenders("bot.games",
                                                                         ("bot.games.raptor",))


def test_only_the_postgresql_backend_imports_asyncpg():
    assert sorted(name for name, imps in imports().items()
                  if any(_within(i, "asyncpg") for i in imps)) == ["bot.storage.pg"]


# ----------------------------------------------------------------------------- the platform
#: The platform: game-neutral code that hosts every game (the modules within these, and the
#: games' base and registry themselves).
PLATFORM = ("bot.match", "bot.storage", "bot.ops", "bot.discord", "bot.offline", "bot.texts")
PLATFORM_MODULES = ("bot.games", "bot.games.base")
#: What of ``engine`` and ``render`` belongs to no game: the game protocol, the sentences,
#: the command lines' seeds and exit statuses, the render worker pool, the fonts and line
#: breaking every game's images and the terminal share.
NEUTRAL_ENGINE = ("engine.game", "engine.messages", "engine.cli", "render.pool", "render.text")
#: The games' own code: their packages on the bot's side, their rules, images and AI
#: (Raptor's rules are ``engine`` itself, less :data:`NEUTRAL_ENGINE`; its images
#: ``render``, its AI ``bot.ai``).
GAME_CODE = ("bot.games.raptor", "bot.games.race", "bot.games.ratjack", "engine.race",
             "engine.ratjack", "engine", "render", "bot.ai")

#: The platform's imports of a game's code that are still there ("module imports module").
#: This list MUST BE EMPTY when the platform split is done: each entry is a place where the
#: platform still knows a game (here the animations' byte limit and error, which live in
#: Raptor's ``render.replay``) and must reach it through the game's plug-in, or move to a
#: neutral module, instead. Remove an entry as its import goes
#: (:func:`test_the_list_of_game_imports_left_is_current` insists); never add one.
GAME_IMPORTS_LEFT = frozenset({
    "bot.discord.commands imports render.replay",
    "bot.offline.replay imports render.replay",
})


def _is_platform(module: str) -> bool:
    return module in PLATFORM_MODULES or any(_within(module, p) for p in PLATFORM)


def _is_game_code(module: str) -> bool:
    if any(_within(module, n) for n in NEUTRAL_ENGINE):
        return False
    return any(_within(module, g) for g in GAME_CODE)


def _game_imports() -> set[str]:
    """Every "module imports module" where a platform module imports a game's code."""
    return {f"{name} imports {imp}" for name, imps in imports().items() if _is_platform(name)
            for imp in imps if _is_game_code(imp)}


def test_the_platform_imports_no_game():
    assert sorted(_game_imports() - GAME_IMPORTS_LEFT) == []


def test_the_list_of_game_imports_left_is_current():
    """An entry of :data:`GAME_IMPORTS_LEFT` whose import is gone is taken off the list."""
    assert sorted(GAME_IMPORTS_LEFT - _game_imports()) == []


def test_the_game_check_sees_a_platform_module_importing_a_game():
    assert _is_platform("bot.match.play") and _is_platform("bot.games.base")
    assert _is_platform("bot.games") and not _is_platform("bot.games.raptor.sides")
    assert _is_platform("bot.discord.card") and _is_platform("bot.texts")
    assert not _is_platform("bot.games.raptor.ui.cog")
    assert not _is_platform("bot.games.raptor.demo")
    for game in ("bot.games.raptor", "bot.games.raptor.sides", "bot.games.race",
                 "bot.games.ratjack.ai", "engine", "engine.state", "engine.raptor_game",
                 "engine.race.rules", "engine.ratjack", "render", "render.race", "bot.ai"):
        assert _is_game_code(game), game
    for neutral in ("engine.game", "engine.messages", "bot.games", "bot.games.base",
                    "bot.match.models", "engineering"):
        assert not _is_game_code(neutral), neutral
    saved = dict(imports())
    try:
        imports()["bot.storage.base"] = imports()["bot.storage.base"] | {"engine.race.state"}
        imports()["bot.games"] = imports()["bot.games"] | {"bot.games.raptor"}
        assert {"bot.storage.base imports engine.race.state",
                "bot.games imports bot.games.raptor"} <= _game_imports() - GAME_IMPORTS_LEFT
    finally:
        imports().clear()
        imports().update(saved)


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph = {name: sorted(i for i in imps if i in MODULES and i != name)
             for name, imps in imports().items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_no_import_cycles():
    assert _cycles() == []


def test_the_cycle_check_sees_a_cycle():
    graph = imports()
    saved = dict(graph)
    try:
        graph["bot.match.models"] = graph["bot.match.models"] | {"bot.match.service"}
        assert any("bot.match.models" in c and "bot.match.service" in c for c in _cycles())
    finally:
        graph.clear()
        graph.update(saved)
