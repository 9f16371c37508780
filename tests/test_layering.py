"""The layering of the code, read from its imports (``ast``, nothing is imported):

- ``engine`` imports nothing of ``bot``, ``render``, discord, PIL, aiosqlite or asyncpg;
- ``render`` nothing of ``bot``, discord, aiosqlite or asyncpg;
- the match layer (``bot.match``), the AI (``bot.ai``, and the games' AI seats in
  ``bot.games``), the sentence catalog (``bot.texts``),
  the storage (``bot.db``), the deployment commands (``bot.check``, ``bot.backup``) and the
  offline modes (``bot.offline``) nothing of discord;
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


def _offenders(layer: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(f"{name} imports {imp}" for name, imps in imports().items()
                  if _within(name, layer) for imp in imps
                  if any(_within(imp, f) for f in forbidden))


def test_the_modules_are_found():
    for name in ("engine", "render", "bot.match.models", "bot.discord.app", "bot.offline.demo"):
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
    ("bot.db", ("discord",)),
    ("bot.check", ("discord",)),
    ("bot.backup", ("discord",)),
    ("bot.offline", ("discord",)),
])
def test_a_layer_imports_nothing_of_the_layers_above(layer, forbidden):
    assert _offenders(layer, forbidden) == []


def test_the_check_sees_a_forbidden_import():
    assert _offenders("bot.discord", ("discord",))  # the Discord layer does import discord


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
