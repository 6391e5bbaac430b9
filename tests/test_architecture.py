"""The shape of the package: no module imports another that imports it back (at import time).

Imports inside functions and under ``TYPE_CHECKING`` are not counted: they do not run when a
module is first imported. A package's ``__init__`` is counted by what it imports, not by being
the parent of the modules in it."""

from __future__ import annotations

import ast
import pathlib

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level_imports(path: pathlib.Path, name: str, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        nodes = [node] if isinstance(node, (ast.Import, ast.ImportFrom)) else []
        for imp in nodes:
            if isinstance(imp, ast.Import):
                targets = [a.name for a in imp.names]
            else:
                base = package
                for _ in range(imp.level - 1):
                    base = base.rpartition(".")[0]
                stem = (f"{base}.{imp.module}" if imp.module else base) if imp.level else \
                    (imp.module or "")
                targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem
                           for a in imp.names]
            found.update(t for t in targets if t in known)
    return found


def test_no_import_circles():
    paths = {_module_name(p): p for p in (SRC / "spaghetti").rglob("*.py")}
    known = set(paths)
    graph = {name: _top_level_imports(path, name, known) - {name} for name, path in paths.items()}
    assert graph["spaghetti.core.game"] >= {"spaghetti.core.state"}  # the walk sees imports
    circles = []
    for start in graph:  # a path from a module back to itself
        stack, seen = [(start, (start,))], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    circles.append(" -> ".join(path + (start,)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + (nxt,)))
    assert not circles, "import circles:\n" + "\n".join(sorted(set(circles)))
