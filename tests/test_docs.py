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
