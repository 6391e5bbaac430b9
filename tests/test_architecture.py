"""The shape of the package: the layers of docs/architecture.md, and no import circles.

Every import counts: at the top of a module, inside a function, or under ``TYPE_CHECKING`` (an
import for types only still says that one module needs to know the other). A package's
``__init__`` is counted by what it imports, not by being the parent of the modules in it."""

from __future__ import annotations

import ast
import pathlib
import re

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"
DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "architecture.md"

#: The layers from the inside out, as docs/architecture.md lists them: a module may import its
#: own layer's modules and the layers before it, never a later one. A module belongs to the
#: layer whose prefix names it most closely.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("errors", ("errors",)),
    ("notation", ("core.codes", "core.flags", "core.notation")),
    ("primitives", ("core.primitives",)),
    ("cards", ("core.cards",)),
    ("the family's cards", ("core.monsters", "core.pasta", "core.nightmare")),
    ("options", ("core.options",)),
    ("variants", ("core.variants",)),
    ("custom cards", ("custom_cards",)),
    ("state", ("core.board", "core.position", "core.outcome", "core.opening", "core.state")),
    ("game", ("core", "core.game", "core.engines")),
    ("view", ("core.view",)),
    ("records", ("records",)),
    ("package", ("",)),
    ("words", ("i18n", "render")),
    ("solver", ("solver",)),
    ("encoding", ("envs.encoding", "envs.observation")),
    ("computer players", ("ai",)),
    ("lab", ("lab",)),
    ("environments", ("envs",)),
    ("interop", ("interop",)),
    ("web", ("web",)),
    ("terminal", ("cli", "__main__")),
]


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: pathlib.Path, name: str, known: set[str]) -> set[str]:
    """The package's modules that a module imports, wherever in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            stem = ((f"{base}.{node.module}" if node.module else base) if node.level
                    else node.module or "")
            targets = [f"{stem}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:  # a name imported from a module counts as the module
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
    return found - {name}


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in (SRC / "spaghetti").rglob("*.py")}
    # A C extension (its stub, .pyi, beside it) is a module too, not the package it sits in;
    # it imports nothing of the package.
    stubs = {_module_name(p) for p in (SRC / "spaghetti").rglob("*.pyi")} - set(paths)
    known = set(paths) | stubs
    return {**{name: _imports(path, name, known) for name, path in paths.items()},
            **{name: set() for name in stubs}}


def _layer(module: str) -> int:
    rel = module.removeprefix("spaghetti").removeprefix(".")
    best, depth = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (rel == prefix or rel.startswith(prefix + ".") or prefix == "") \
                    and len(prefix) > depth:
                best, depth = i, len(prefix)
    return best


def test_the_walk_sees_imports_of_every_kind():
    graph = _graph()
    assert "spaghetti.core.state" in graph["spaghetti.core.game"]  # at the top
    assert "spaghetti.core.engines" in graph["spaghetti.core.game"]  # inside a function
    assert "spaghetti.core.primitives.base" in graph["spaghetti.core.board"]  # a name in it
    assert "spaghetti.ai._value" in graph["spaghetti.ai.value"]  # a C extension


def test_every_import_goes_inwards():
    graph = _graph()
    wrong = [f"{a} ({LAYERS[_layer(a)][0]}) imports {b} ({LAYERS[_layer(b)][0]})"
             for a, targets in graph.items() for b in sorted(targets) if _layer(b) > _layer(a)]
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_no_import_circles():
    graph = _graph()
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


def test_the_layers_are_the_ones_the_architecture_doc_lists():
    table = next(block for block in DOCS.read_text(encoding="utf-8").split("\n\n")
                 if block.startswith("| layer |"))
    documented = re.findall(r"^\| ([^|-][^|]*?) \|", table, flags=re.M)[1:]  # (the header)
    assert documented == [name for name, _ in LAYERS]
