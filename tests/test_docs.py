"""The documentation site builds, holds every page, and reads for someone who has only a clone.

The code blocks of README.md and of docs/*.md run in tests/test_readme.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 200
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_mkdocs_builds_the_site_strictly(tmp_path: Path) -> None:
    """`mkdocs build --strict`: no broken link or anchor, no page left out of the nav."""
    if importlib.util.find_spec("mkdocs") is None:
        message = "mkdocs is not installed: pip install -e '.[docs]'"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    pages = {p.stem for p in DOCS.glob("*.md")} - {"index"}
    assert (site / "index.html").is_file()
    for page in pages:
        assert (site / page / "index.html").is_file(), page
    for image in (ROOT / "notebooks" / "images").glob("*.png"):
        assert (site / "images" / image.name).is_file(), image.name


def test_every_page_is_in_the_nav() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = set(re.findall(r"^\s+- [^:]+: (\S+\.md)\s*$", config, re.M))
    assert nav == {p.name for p in DOCS.glob("*.md")}


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_a_clone_has_everything_a_page_names(page: Path) -> None:
    """No page points outside the repository (a user's clone has nothing beside it), and every
    relative link of the README names a file that is there."""
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{_name(page)} names ../shared, which a clone does not have"
    if page == README:
        for target in LINK.findall(text):
            if "://" not in target:
                assert (ROOT / target).exists(), f"README.md links to {target}, which is missing"


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; the reference goes in docs/"


def test_the_catalog_page_lists_every_dataset() -> None:
    catalog = json.loads((ROOT / "regnb" / "catalog.json").read_text(encoding="utf-8"))
    datasets = catalog["datasets"] if isinstance(catalog, dict) else catalog
    text = (DOCS / "catalog.md").read_text(encoding="utf-8")
    missing = [d["id"] for d in datasets if f"| `{d['id']}` |" not in text]
    assert not missing, f"docs/catalog.md does not list {missing}"


def test_the_settings_page_lists_every_setting() -> None:
    """Each REGNB_* variable of a settings module (regnb/settings.py, regnb/client/_settings.py)
    has a row in docs/server-operations.md."""
    names = {
        name
        for module in sorted((ROOT / "regnb").rglob("*settings.py"))
        for name in re.findall(r'^\s+"""(REGNB_[A-Z0-9_]+):', module.read_text("utf-8"), re.M)
    }
    text = (DOCS / "server-operations.md").read_text(encoding="utf-8")
    assert len(names) > 20, f"too few settings found: {sorted(names)}"
    missing = sorted(name for name in names if f"`{name}`" not in text)
    assert not missing, f"docs/server-operations.md does not describe {missing}"


# Figures the docs print from running code, run again (issue 31): the catalog's counts, and the
# answers quoted from the demo corpus (README.md's is checked by tests/test_readme.py)

CATALOG_FIGURES = [
    ("README.md", r"the (?P<total>\d+) datasets, plans"),
    ("docs/index.md", r"the (?P<total>\d+) datasets, their fields"),
    ("docs/catalog.md", r"\((?P<total>\d+) datasets, (?P<searchable>\d+) US ones searchable\)"),
    ("docs/catalog.md", r"fixed\nseed\): the (?P<searchable>\d+) US datasets"),
]
QUOTED_ANSWERS = [  # page, the question asked, the words that open the quote's paragraph
    (
        "docs/research.md",
        "Which sterile drug makers got warning letters for media fill failures since 2018? "
        "Put the letters in an Excel table.",
        "The start of the answer it gave on the demo corpus",
    ),
    (
        "docs/research.md",
        "Why did FDA not approve ANDA 200553?",  # "ANDA" was once read as the town Anda
        "A question that names one",
    ),
]


def _folded(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The demo corpus's engine, its index built under a scratch REGNB_HOME."""
    import regnb

    home = tmp_path_factory.mktemp("home")
    before = os.environ.get("REGNB_HOME")
    os.environ["REGNB_HOME"] = str(home)
    try:
        with regnb.open() as eng:
            yield eng
    finally:
        if before is None:
            del os.environ["REGNB_HOME"]
        else:
            os.environ["REGNB_HOME"] = before


@pytest.mark.parametrize(("page", "pattern"), CATALOG_FIGURES, ids=lambda v: str(v)[:40])
def test_the_catalog_figures_the_docs_print_are_the_catalogs(
    page: str, pattern: str, demo: Any
) -> None:
    catalog = demo.datasets()
    counted = {"total": len(catalog), "searchable": sum(d.available for d in catalog)}
    found = re.search(pattern, (ROOT / page).read_text(encoding="utf-8"))
    assert found, f"{page} no longer says {pattern!r}"
    printed = {name: int(value) for name, value in found.groupdict().items()}
    assert printed == {name: counted[name] for name in printed}, page


ITEM = re.compile(r"^(?:#+ |- |\d+\. |\|)")  # a heading, a list item, a table row


def quoted_pieces(text: str, opening: str) -> list[str]:
    """The block quote of the paragraph that opens with `opening`, as pieces: each paragraph,
    heading, list item and table row (wrapped lines joined), cut at its ellipses."""
    start = text.index(opening)
    items: list[str] = []
    for line in text[start:].split("\n\n", 1)[1].splitlines():
        if not line.startswith(">"):
            break
        line = line[1:].strip()
        if not line or ITEM.match(line) or not items:
            items.append(line)
        else:
            items[-1] += " " + line
    pieces = [_folded(piece) for item in items for piece in item.split("…")]
    return [p for p in pieces if re.search(r"\w", p)]


@pytest.mark.parametrize(("page", "question", "opening"), QUOTED_ANSWERS, ids=lambda v: v[:30])
def test_an_answer_the_docs_quote_is_the_demo_corpuss_answer(
    page: str, question: str, opening: str, demo: Any
) -> None:
    """Every piece between the quote's ellipses is in the answer (spaces folded), so its counts,
    firms and quotes are those of the code that runs."""
    pieces = quoted_pieces((ROOT / page).read_text(encoding="utf-8"), opening)
    assert pieces[0].startswith("**In short:**"), pieces[0]
    conv = demo.ask(question)
    answer = _folded(conv.wait(progress=False).answer or "")
    missing = [p for p in pieces if p not in answer]
    assert not missing, missing


def _suite_size(config: pytest.Config, collected: int) -> int:
    """The tests pytest collects from the README's command: this session's when it is that
    command (no paths, no selection), else those of a collection run apart (about 20 s)."""
    whole = config.args_source == pytest.Config.ArgsSource.TESTPATHS
    if whole and not config.option.keyword and not config.option.markexpr:
        return collected
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n0", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    found = re.search(r"^(\d+) tests collected", run.stdout, re.M)
    assert found, run.stdout[-2000:] + run.stderr[-2000:]
    return int(found.group(1))


def test_the_size_of_the_suite_the_docs_give_is_the_suites(request: pytest.FixtureRequest) -> None:
    """docs/development.md's "about N tests, the K notebooks": N within 5% of what pytest
    collects, K the notebooks there are."""
    text = (DOCS / "development.md").read_text(encoding="utf-8")
    said = re.search(r"about ([\d,]+) tests, the (\w+) notebooks", text)
    assert said, "docs/development.md no longer gives the size of the suite"
    count = _suite_size(request.config, len(request.session.items))
    about = int(said.group(1).replace(",", ""))
    assert abs(about - count) <= 0.05 * count, f"the docs say about {about:,}; {count:,} collected"
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    notebooks = len(list((ROOT / "notebooks").glob("*.ipynb")))
    assert said.group(2) == words[notebooks - 1], f"{notebooks} notebooks"
