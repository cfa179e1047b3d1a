"""The shape of ``games/`` that docs/architecture.md describes, held against the code.

Imports are read from the source (module level and inside functions alike), so a circle hidden in a
function-local import counts as a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
ROLE_PACKAGES = {
    "play",
    "push",
    "sockets",
    "background",
    "moderation",
    "web",
    "runtime",
    "engines",
    "boards",
    "notify",
    "replay",
    "ratings",
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in GAMES.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _owner(dotted: str) -> str | None:
    """The module of ours that ``dotted`` (a module, or a name inside one) is defined in."""
    while dotted and dotted not in MODULES:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def _imports(name: str) -> Iterator[str]:
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            # ``from package import submodule`` imports the submodule; ``from module import name``, the module.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        for target in targets:
            owner = _owner(target) if target.startswith("games") else None
            if owner and owner != name:
                yield owner


GRAPH = {name: set(_imports(name)) for name in MODULES}


def _circles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in GRAPH[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for name in sorted(GRAPH):
        if name not in index:
            visit(name)
    return circles


def test_the_platform_has_no_import_circles() -> None:
    platform_circles = [c for c in _circles() if not all(m.startswith("games.engines.") for m in c)]
    assert platform_circles == []


def test_engines_import_nothing_above_them() -> None:
    for name, imported in GRAPH.items():
        if name.startswith("games.engines"):
            assert {m for m in imported if not m.startswith("games.engines")} == set(), name
            source = MODULES[name].read_text()
            assert "django" not in {
                alias.name.split(".")[0]
                for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Import)
                for alias in node.names
            } | {
                (node.module or "").split(".")[0]
                for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom)
            }, name


def test_every_role_package_says_what_it_owns() -> None:
    for package in ROLE_PACKAGES:
        init = GAMES / package / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text())), f"games/{package}/__init__.py has no docstring"


def test_games_keeps_few_top_level_modules() -> None:
    top = sorted(p.stem for p in GAMES.glob("*.py"))
    assert top == ["__init__", "apps", "models", "signals", "urls"]


def test_no_consumer_class_is_over_250_lines() -> None:
    for path in (GAMES / "sockets").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Consumer"):
                assert node.end_lineno is not None
                assert node.end_lineno - node.lineno + 1 <= 250, f"{path.name}: {node.name}"


def test_no_test_module_imports_another_test_module() -> None:
    """Shared test code lives in conftests and helper modules, so a test runs once, where it is."""
    for path in (ROOT / "tests").rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(alias.name for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            assert not any(name.rpartition(".")[2].startswith("test_") for name in names), path


def test_no_code_calls_for_an_undeclared_engine_capability() -> None:
    for path in GAMES.rglob("*.py"):
        assert "getattr(rules" not in path.read_text(), path
