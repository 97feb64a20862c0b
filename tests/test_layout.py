"""The tests mirror the package: the tests of `regnb/<package>/` are in `tests/<package>/`, and
directly in `tests/` are the tests of the core modules (`regnb/search/procedure.py`: `tests/test_engine_search.py`)
and of the project as a whole (README, docs, notebooks, import contract).

The rule, checked on every test module:

- a folder of tests is named after a subpackage of regnb (`tests/agent/` for `regnb/agent/`),
  and is a package (`__init__.py`) so that equal file names in two folders do not clash;
- a test module in `tests/<package>/` imports from `regnb.<package>`: it is about that package;
- a test module directly in `tests/` is not named after a subpackage (`test_agent.py`,
  `test_agent_rank.py`: these belong in `tests/agent/`), and does not import from one subpackage
  only (then it is about that subpackage, and belongs in its folder).
"""

from __future__ import annotations

import ast
from pathlib import Path

import regnb
from tests.paths import ROOT

TESTS = ROOT / "tests"
PACKAGE = Path(regnb.__file__).parent
SUBPACKAGES = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
# Test modules whose imports of their subpackage are not Python imports of the module itself.
ABOUT_WITHOUT_IMPORTING = {
    "tests/widgets/test_browser.py": "the widgets run in the notebooks it writes, which import them",
    "tests/agent/test_understanding_cases.py": (
        "the table for regnb.agent's understanding stage, which does not exist yet"
    ),
}


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "fixtures" not in p.parts)


def _subpackages_imported(path: Path) -> set[str]:
    """The subpackages of regnb (`agent`, `server`...) a test module imports from, and "" for
    the top package or a core module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
            if node.module == "regnb":  # from regnb import agent, search
                names = [f"regnb.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "regnb":
                found.add(parts[1] if len(parts) > 1 and parts[1] in SUBPACKAGES else "")
    return found


def test_the_package_has_subpackages_to_mirror():
    assert {"agent", "client", "server", "widgets"} <= set(SUBPACKAGES)


def test_every_folder_of_tests_mirrors_a_subpackage_and_is_a_package():
    folders = {p.parent for p in _test_modules()} - {TESTS}
    for folder in sorted(folders):
        relative = folder.relative_to(TESTS)
        assert (PACKAGE / relative / "__init__.py").exists(), (
            f"tests/{relative}: no regnb/{relative}"
        )
        assert (folder / "__init__.py").exists(), f"tests/{relative} has no __init__.py"


def test_the_tests_in_a_folder_are_about_its_subpackage():
    strays = []
    for path in _test_modules():
        if path.parent != TESTS:
            package = path.relative_to(TESTS).parts[0]
            name = path.relative_to(ROOT).as_posix()
            if package not in _subpackages_imported(path) and name not in ABOUT_WITHOUT_IMPORTING:
                strays.append(f"{name} imports nothing from regnb.{package}")
    assert strays == []
    for name in ABOUT_WITHOUT_IMPORTING:
        assert (ROOT / name).exists(), f"{name} is gone: drop it from ABOUT_WITHOUT_IMPORTING"


def test_no_test_directly_in_tests_belongs_in_a_subpackage_folder():
    strays = []
    for path in sorted(TESTS.glob("test_*.py")):
        stem = path.stem.removeprefix("test_")
        named = [p for p in SUBPACKAGES if stem == p or stem.startswith(f"{p}_")]
        if named:
            strays.append(f"{path.name} is named after regnb.{named[0]}: tests/{named[0]}/")
        imported = _subpackages_imported(path)
        if len(imported) == 1 and "" not in imported:
            (only,) = imported
            strays.append(f"{path.name} imports from regnb.{only} only: tests/{only}/")
    assert strays == []
