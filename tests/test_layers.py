"""The layers of `funkoverse` and the arrows between them (docs/design: one pure core, the
shells around it; a folder per sub-topic of the rules).

The import graph is grimp's: every import statement of every module, those made only for
the type checker (`if TYPE_CHECKING:`) and those inside functions included, since each is
an arrow a reader and a type checker follow. A test here fails naming the arrow or the
circle that breaks the design.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

import funkoverse

PACKAGE = "funkoverse"

# Highest first: a layer may import the layers below it, never one above. Names in one
# tuple are siblings that must not import each other either.
SHELLS: tuple[tuple[str, ...], ...] = (
    ("__main__",),
    ("cli",),
    ("server",),
    ("bench", "soak", "lab", "env"),
    ("ai",),
    ("content", "text"),
    ("rules",),
    ("errors",),
)

# The rooms of the rules, highest first (`rules.bridge` and `rules.engines` lead to the
# kernel; the session, the turn a decider is handed and the game sit on them).
RULES: tuple[tuple[str, ...], ...] = (
    ("session",),
    ("turn", "game"),
    ("perft", "engines"),
    ("bridge",),
    ("words",),
    ("play",),
    ("vocabulary",),
    ("core",),
)

# Arrows the design names: the core is pure, content is data below every shell, the
# environments draw with the text board rather than the command line, agents are shells'
# tools and know none of them.
FORBIDDEN: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("rules", ("content", "ai", "env", "cli", "server", "lab", "bench", "soak", "text")),
    ("content", ("ai", "env", "cli", "server", "lab", "bench", "soak", "text")),
    ("env", ("cli", "server")),
    ("ai", ("env", "cli", "server", "lab", "bench", "soak")),
    ("text", ("content", "ai", "env", "cli", "server", "lab")),
)


def _extensions() -> set[str]:
    """Compiled extension modules (`rules._kernel`): grimp reads Python files only, so an
    import of one shows as an import of its package; the extension imports nothing back."""
    root = Path(funkoverse.__file__).parent
    found = set()
    for path in root.rglob("*"):
        if path.suffix in {".so", ".pyd"}:
            parts = path.relative_to(root).with_suffix("").parts
            found.add(".".join((PACKAGE, *parts[:-1], parts[-1].split(".")[0])))
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    graph = grimp.build_graph(PACKAGE, cache_dir=None)
    assert "funkoverse.rules.core.state" in graph.modules or "funkoverse.rules" in graph.modules
    extensions = _extensions()
    for module in sorted(extensions):
        package = module.rsplit(".", 1)[0]
        tail = module.rsplit(".", 1)[1]
        for importer in graph.find_modules_that_directly_import(package):
            details = graph.get_import_details(importer=importer, imported=package)
            if details and all(tail in d["line_contents"] for d in details):
                graph.remove_import(importer=importer, imported=package)
    return graph


def _layers(names: tuple[tuple[str, ...], ...]) -> list[grimp.Layer]:
    return [grimp.Layer(*tails, independent=True) for tails in names]


def _said(graph: grimp.ImportGraph, dependencies: set[grimp.PackageDependency]) -> str:
    lines = []
    for dep in sorted(dependencies, key=lambda d: (d.importer, d.imported)):
        for route in sorted(dep.routes, key=lambda r: (r.heads, r.tails)):
            chain = graph.find_shortest_chain(importer=min(route.heads), imported=min(route.tails))
            lines.append(f"{dep.importer} -> {dep.imported}: {' -> '.join(chain or ())}")
    return "\n".join(lines)


def test_the_shells_sit_on_the_rules_and_never_import_upward(graph: grimp.ImportGraph) -> None:
    illegal = graph.find_illegal_dependencies_for_layers(
        layers=_layers(SHELLS), containers={PACKAGE}
    )
    assert not illegal, "imports against the layers:\n" + _said(graph, illegal)


def test_the_rooms_of_the_rules_import_only_downward(graph: grimp.ImportGraph) -> None:
    illegal = graph.find_illegal_dependencies_for_layers(
        layers=_layers(RULES), containers={f"{PACKAGE}.rules"}
    )
    assert not illegal, "imports against the rooms of the rules:\n" + _said(graph, illegal)


@pytest.mark.parametrize(("importer", "imported"), [(a, b) for a, bs in FORBIDDEN for b in bs])
def test_no_forbidden_arrow(graph: grimp.ImportGraph, importer: str, imported: str) -> None:
    a, b = f"{PACKAGE}.{importer}", f"{PACKAGE}.{imported}"
    assert a in graph.modules, f"no package {a}"
    if b not in graph.modules:
        return
    chain = graph.find_shortest_chain(importer=a, imported=b, as_packages=True)
    assert chain is None, f"{importer} must not import {imported}: " + " -> ".join(chain or ())


def _cycles(graph: grimp.ImportGraph) -> Iterator[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each given as one
    shortest circle through its first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(root: str) -> None:
        # iterative, so that a long chain does not reach the recursion limit
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    for group in groups:
        first = group[0]
        members = set(group)
        best: tuple[str, ...] | None = None
        for nxt in graph.find_modules_directly_imported_by(first):
            if nxt not in members:
                continue
            back = graph.find_shortest_chain(importer=nxt, imported=first)
            if back is not None and (best is None or len(back) < len(best)):
                best = back
        yield [first, *(best or ())]


def test_no_import_circles(graph: grimp.ImportGraph) -> None:
    circles = list(_cycles(graph))
    assert not circles, "import circles (type-only and function-level imports included):\n" + (
        "\n".join(" -> ".join(c) for c in circles)
    )


def test_the_circle_finder_sees_type_only_and_function_level_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check above is only as good as the graph: a circle closed by an import made for
    the type checker and one made inside a function is found and named."""
    package = tmp_path / "circle"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from circle import two\n"
    )
    (package / "two.py").write_text("def later() -> None:\n    from circle import one\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = list(_cycles(grimp.build_graph("circle", cache_dir=None)))
    assert found == [["circle.one", "circle.two", "circle.one"]]
