"""The engine is a pure library whose modules import each other without a cycle: no module
needs a function-level import to break one, and nothing of discord, PIL, SQLite, the bot or
the renderer is imported."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("discord", "aiosqlite", "sqlite3", "PIL", "bot", "render")


def engine_imports() -> dict[str, tuple[set[str], set[str]]]:
    """For each engine module: (engine modules it imports at module level, those it imports
    inside a function), and the names of the other top-level packages it imports."""
    out = {}
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top: set[str] = set()
        inner: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = {node.module} if node.module else {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = {"!" + node.module.split(".")[0]}
            elif isinstance(node, ast.Import):
                names = {"!" + a.name.split(".")[0] for a in node.names}
            else:
                continue
            at_top = node in tree.body or any(
                node in getattr(parent, "body", ()) for parent in tree.body
                if isinstance(parent, ast.If | ast.Try))
            (top if at_top else inner).update(names)
        out[path.stem] = (top, inner)
    return out


def test_no_engine_module_imports_inside_a_function():
    inner = {m: sorted(i) for m, (_, i) in engine_imports().items() if i}
    assert inner == {}


def test_the_engine_imports_no_cycle():
    graph = {m: {x for x in top if not x.startswith("!")} for m, (top, _) in
             engine_imports().items()}
    graph["__init__"] = set()  # the package re-exports everything; nothing imports it back
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert state.get(m) != 1, f"import cycle: {' -> '.join(path + (m,))}"
        if state.get(m) == 2:
            return
        state[m] = 1
        for n in sorted(graph.get(m, ())):
            visit(n, path + (m,))
        state[m] = 2
        order.append(m)

    for m in sorted(graph):
        visit(m, ())
    assert order.index("geometry") < order.index("rules")
    assert order.index("predicates") < order.index("rules") < order.index("notation")
    assert order.index("explain") < order.index("notation")


def test_the_engine_imports_nothing_of_the_bot_the_renderer_or_discord():
    outside = set()
    for top, inner in engine_imports().values():
        outside |= {x[1:] for x in top | inner if x.startswith("!")}
    assert outside & set(FORBIDDEN) == set()
    assert "pydantic" in outside  # the JSON boundary (state records)
