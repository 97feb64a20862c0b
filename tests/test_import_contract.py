"""Who may import whom, read from the source with `ast`: the core never imports a front end, the
agent depends only on the search protocol and a few utilities, the server's modules import each
other in no circle, and `import regnb` loads neither a front end nor the conversation store."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import regnb

PACKAGE = Path(regnb.__file__).parent
ROOT = PACKAGE.parent

FRONT_ENDS = (
    "regnb.server",
    "regnb.mcp",
    "regnb.client",
    "regnb.widgets",
    "regnb.cli",
    "regnb.ingest.cli",
    "regnb.watch._cli",
)

# The agent's world: its own package, the search protocol (`interface`) with the values that
# cross it (`request`, `results`, `catalog`), errors, text and date utilities, and settings.
AGENT = "regnb.agent"
AGENT_MAY_IMPORT = (
    "regnb._compat",  # the package face's names, loaded on first use
    "regnb.agent",
    "regnb.catalog",
    "regnb.documents.cfr",  # CFR citations read from a page text (a pure function)
    "regnb.dates",
    "regnb.documents",  # reading a document as its kind is written
    "regnb.errors",
    "regnb.interface",
    "regnb.models",  # the wire's citations and steps
    # the writers and the citation-marker parser that every produced file shares
    "regnb.present.excel",
    "regnb.present.markers",
    "regnb.present.office",
    "regnb.query",  # the query syntax: the agent's keyword items are escaped to plain words
    "regnb.request",
    "regnb.results",
    "regnb.settings",
    "regnb.text",
)

# The index sits below the search: it reads segments for whoever asks, and knows neither the
# search, the engine nor a front end (what a search may skip comes in through a protocol).
INDEX = "regnb.index"
INDEX_MUST_NOT_IMPORT = ("regnb.search", "regnb.engine", *FRONT_ENDS)

# The conversation store and service; `regnb.conversations` itself (the engine's `Conversation`
# and `Agents`) loads none of them.
CONVERSATION_STORE = (
    "regnb.conversations._local",
    "regnb.conversations._pg_store",
    "regnb.conversations._runner",
    "regnb.conversations._store",
    "regnb.conversations.service",
)

# Loaded by a front end, the first conversation or the first research run; never by `import regnb`.
NOT_ON_IMPORT = (
    *FRONT_ENDS,
    "regnb.agent",
    *CONVERSATION_STORE,
    "regnb.ingest",
    "sqlite3",
    "httpx",
    "starlette",
    "mcp",  # the MCP SDK: `regnb mcp` and `/mcp` only
    "ipywidgets",
    "regnb.corpus.ray",
    "ray",  # optional (regnb[ray]): imported by runner="ray" only
)


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    name: str  # what it imports: a module, or a module's attribute as `module.attribute`
    line: int
    deferred: bool  # inside a function: runs when called, not when the module is imported

    def __str__(self) -> str:
        return f"{self.module}:{self.line} imports {self.name}"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(path: Path, root: Path = ROOT) -> list[Import]:
    """Every import of a module, with whether it runs at import time."""
    module = module_name(path, root)
    found: list[Import] = []

    def visit(node: ast.AST, deferred: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend(Import(module, a.name, node.lineno, deferred) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, path, node)
            for alias in node.names:
                name = f"{source}.{alias.name}" if alias.name != "*" else source
                found.append(Import(module, name, node.lineno, deferred))
        inner = deferred or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
CORE = sorted(m for m in MODULES if not within(m, FRONT_ENDS))


@pytest.mark.parametrize(
    ("module", "name", "expected"),
    [
        ("regnb.engine", "regnb.client.paging", True),
        ("regnb.engine", "regnb.clients", False),
        ("regnb.engine", "regnb.cli", True),
        ("regnb.engine", "regnb.client_settings", False),
    ],
)
def test_within_matches_whole_module_names(module: str, name: str, expected: bool) -> None:
    assert within(name, FRONT_ENDS) is expected


def test_imports_of_reads_absolute_relative_and_deferred_imports(tmp_path: Path) -> None:
    package = tmp_path / "regnb" / "agent" / "produce"
    package.mkdir(parents=True)
    source = package / "_word.py"
    source.write_text(
        textwrap.dedent(
            """
            import json
            from regnb.results import SearchResult
            from ._common import statement
            from .. import types

            def later():
                from regnb.server import create_app
            """
        ),
        encoding="utf-8",
    )
    found = [(i.name, i.deferred) for i in imports_of(source, root=tmp_path)]
    assert found == [
        ("json", False),
        ("regnb.results.SearchResult", False),
        ("regnb.agent.produce._common.statement", False),
        ("regnb.agent.types", False),
        ("regnb.server.create_app", True),
    ]


def test_imports_of_reads_imports_under_type_checking(tmp_path: Path) -> None:
    package = tmp_path / "regnb" / "index"
    package.mkdir(parents=True)
    source = package / "store.py"
    source.write_text(
        textwrap.dedent(
            """
            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from regnb.search.matching import Gates
            """
        ),
        encoding="utf-8",
    )
    found = [(i.name, i.deferred) for i in imports_of(source, root=tmp_path)]
    assert ("regnb.search.matching.Gates", False) in found


def test_the_package_has_the_modules_the_contract_names() -> None:
    for name in ("regnb.engine", "regnb.paging", "regnb.interface", "regnb.server._app", AGENT):
        assert name in MODULES
    assert "regnb.client.paging" not in CORE


def test_the_core_never_imports_a_front_end() -> None:
    """The package root may offer `connect` (a client) only from inside a function."""
    wrong = [
        str(i)
        for m in CORE
        for i in imports_of(MODULES[m])
        if within(i.name, FRONT_ENDS) and not (m == "regnb" and i.deferred)
    ]
    assert wrong == []


def test_the_index_imports_neither_the_search_the_engine_nor_a_front_end() -> None:
    """Not at import time, not inside a function, not for types only."""
    modules = [m for m in MODULES if within(m, (INDEX,))]
    assert {"regnb.index.store", "regnb.index.postings", "regnb.index.kernels"} <= set(modules)
    wrong = [
        str(i)
        for m in modules
        for i in imports_of(MODULES[m])
        if within(i.name, INDEX_MUST_NOT_IMPORT)
    ]
    assert wrong == []


def test_the_agent_imports_only_the_search_protocol_and_utilities() -> None:
    wrong = [
        str(i)
        for m in MODULES
        if within(m, (AGENT,))
        for i in imports_of(MODULES[m])
        if within(i.name, ("regnb",)) and not within(i.name, AGENT_MAY_IMPORT)
    ]
    assert wrong == []


def _module_of(name: str) -> str:
    """The module of regnb an imported name is, or is a name in ("" outside regnb)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def test_the_server_modules_import_each_other_in_no_circle() -> None:
    """Deferred imports count: the routes do not import the OpenAPI document, which reads their
    prefixes and bounds (the app hands the v3 routes the document)."""
    server = [m for m in MODULES if within(m, ("regnb.server",))]
    graph = {
        m: {_module_of(i.name) for i in imports_of(MODULES[m])} & set(server) - {m} for m in server
    }
    assert graph["regnb.server.openapi.v3"] >= {"regnb.server._v3"}
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        pytest.fail(f"a circle of imports: {' -> '.join(reversed(error.args[1]))}")


def _modules_after(code: str) -> set[str]:
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_import_regnb_loads_no_front_end_and_no_conversation_store() -> None:
    loaded = _modules_after("import regnb")
    assert "regnb.engine" in loaded
    assert sorted(m for m in loaded if within(m, NOT_ON_IMPORT)) == []


def test_opening_and_searching_an_engine_opens_no_conversation_store(tmp_path: Path) -> None:
    from regnb.server.testing import sample_documents

    corpus, home = tmp_path / "corpus", tmp_path / "home"
    regnb.write_corpus(corpus, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    code = f"""
import dataclasses, pathlib, regnb
home = pathlib.Path({str(home)!r})
settings = dataclasses.replace(regnb.settings.Settings.from_env(), home=home)
with regnb.Engine({str(corpus)!r}, encoder=regnb.HashingEncoder(), settings=settings) as eng:
    found = eng.search(["sterility"]).results
    eng.read(found[0]["document_id"])
"""
    loaded = _modules_after(code)
    # (sqlite3 itself may be loaded: numba, which reads postings, imports it where coverage is
    # installed; no conversation database is opened, as the folder shows)
    assert sorted(m for m in loaded if within(m, CONVERSATION_STORE)) == []
    assert not (home / "conversations").exists()


def test_the_engine_is_a_composition_not_a_stack_of_mixins() -> None:
    assert regnb.Engine.__bases__ == (object,)
    parts = regnb.Engine.__annotations__
    assert {"index", "embedder", "statistics", "searches", "reader", "agents"} <= set(parts)


def test_each_public_engine_method_is_one_statement() -> None:
    """The engine hands each method to a part; the work lives in the part."""
    tree = ast.parse(MODULES["regnb.engine"].read_text(encoding="utf-8"))
    engine = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Engine")
    longer = []
    for node in engine.body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
            continue
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        if len(body) != 1 and node.name != "close":
            longer.append(node.name)
    assert longer == []


def test_paging_keeps_its_client_import_path() -> None:
    import regnb.client.paging as old
    import regnb.paging as core

    assert old.__all__ == core.__all__
    assert all(getattr(old, name) is getattr(core, name) for name in core.__all__)


def test_the_layers_contracts_are_kept() -> None:
    """`.importlinter`'s contracts, as CI checks them with import-linter's `lint-imports`."""
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
