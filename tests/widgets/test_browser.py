"""The widgets in a real browser: Voilà (started here, on loopback) runs small notebooks with
SearchPanel and ResearchChat over the demo corpus in a real kernel, and Debian's chromium, driven
by Playwright, types, clicks and reads what appears.

Needs `apt-get install chromium` and `pip install -e '.[browser]'`; without them the test is
skipped (it fails in CI). `REGNB_SCREENSHOTS=notebooks/images` writes the README's screenshots.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import regnb

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PACKAGES = ("voila", "playwright", "ipykernel", "ipywidgets")
START_S = 90.0
RESULTS_MS = 90_000
READY_MS = 240_000  # a page's first render: its kernel opens the demo (under a loaded CI run, slow)
ANSWER_MS = 180_000
VIEWPORT = {"width": 1280, "height": 1000}
MAX_SHOT_PX = 2400
TALLEST_JS = "el => Math.max(...[el, ...el.querySelectorAll('*')].map(e => e.scrollHeight)) + 40"

SEARCH_NOTEBOOK = """\
import regnb
from regnb.widgets import SearchPanel

panel = SearchPanel(regnb.open(), limit=6)
panel
"""
CHAT_NOTEBOOK = """\
import regnb
from regnb.widgets import ResearchChat

chat = ResearchChat(regnb.open())
chat
"""


def _missing() -> list[str]:
    missing = []
    if not Path(CHROMIUM).exists():
        missing.append(f"Debian's chromium at {CHROMIUM}: apt-get install chromium")
    absent = [p for p in PACKAGES if importlib.util.find_spec(p) is None]
    if absent:
        missing.append(f"{', '.join(absent)}: pip install -e '.[browser]'")
    return missing


def _require() -> None:
    missing = _missing()
    if not missing:
        return
    message = "the browser test needs " + "; ".join(missing)
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def _notebook(code: str) -> dict[str, Any]:
    cell = {"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}}
    kernel = {"display_name": "Python 3", "language": "python", "name": "python3"}
    return {
        "cells": [{**cell, "outputs": [], "source": code.splitlines(keepends=True)}],
        "metadata": {"kernelspec": kernel, "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    end = time.monotonic() + START_S
    while time.monotonic() < end:
        if process.poll() is not None:
            raise AssertionError(f"Voilà exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.25)
    raise AssertionError(f"Voilà did not answer in {START_S:g} s:\n{log.read_text()}")


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Voilà on a free loopback port over a folder with the two notebooks; its base URL."""
    _require()
    root = tmp_path_factory.mktemp("browser")
    env = {
        **os.environ,
        "REGNB_HOME": str(root / "home"),
        "JUPYTER_RUNTIME_DIR": str(root / "runtime"),
        "JUPYTER_CONFIG_DIR": str(root / "config"),
        "PYTHONWARNINGS": "ignore",
    }
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNB_HOME", env["REGNB_HOME"])
        regnb.open().close()  # the demo index, built before the server starts
    books = root / "notebooks"
    books.mkdir()
    for name, code in (("search", SEARCH_NOTEBOOK), ("chat", CHAT_NOTEBOOK)):
        (books / f"{name}.ipynb").write_text(json.dumps(_notebook(code)), encoding="utf-8")
    port = _free_port()
    log = root / "voila.log"
    command = [
        sys.executable, "-m", "voila", str(books), "--no-browser", f"--port={port}",
        "--Voila.ip=127.0.0.1", "--show_tracebacks=True",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{base}/voila/tree", process, log)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser(voila: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Debian's chromium, headless, with a fresh profile folder."""
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport=VIEWPORT,
        )
        yield context
        context.close()


def _screenshot(page: Any, name: str) -> None:
    """The notebook's output, whole (the window grown to its height), when REGNB_SCREENSHOTS
    names a folder."""
    folder = os.environ.get("REGNB_SCREENSHOTS")
    if not folder:
        return
    output = page.locator(".jp-OutputArea-output").first
    height = int(output.evaluate(TALLEST_JS))  # Voilà's page scrolls inside a container
    page.set_viewport_size({"width": VIEWPORT["width"], "height": min(height, MAX_SHOT_PX)})
    page.locator("mark").first.evaluate("el => el.scrollIntoView({block: 'center'})")
    Path(folder).mkdir(parents=True, exist_ok=True)
    output.screenshot(path=str(Path(folder) / name))


def test_search_panel_in_a_browser_shows_result_rows(voila: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{voila}/voila/render/search.ipynb", timeout=READY_MS)
    keywords = page.get_by_placeholder("words that must all be on the page")
    keywords.wait_for(timeout=READY_MS)
    keywords.fill("media fill")
    page.get_by_role("button", name="Add item").click()
    keywords.nth(1).fill("aseptic processing simulation")
    page.get_by_placeholder("A plain-language question").fill(
        "Which sterile drug makers failed their media fills?"
    )
    page.get_by_role("button", name="Search").click()  # its name starts with the icon's glyph
    rows = page.locator(".widget-html", has_text="matched page")
    rows.first.wait_for(timeout=RESULTS_MS)
    assert rows.count() == 6  # the panel's limit: one row per document
    assert page.get_by_text("documents ·").first.is_visible()
    assert page.get_by_role("button", name="More").is_visible()
    page.locator("button:has(i.fa-chevron-right)").first.click()  # unfold the first row
    page.locator("mark").first.wait_for(timeout=RESULTS_MS)
    _screenshot(page, "search-panel.png")
    page.close()


def test_research_chat_in_a_browser_shows_steps_and_the_answer(voila: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(f"{voila}/voila/render/chat.ipynb", timeout=READY_MS)
    box = page.get_by_placeholder("Ask a research question")
    box.wait_for(timeout=READY_MS)
    box.fill("Which sterile drug makers got warning letters for media fill failures?")
    page.get_by_role("button", name="Send").click()
    page.get_by_role("button", name="Stop").wait_for(timeout=RESULTS_MS)
    page.get_by_text("Working…").first.wait_for(timeout=ANSWER_MS)  # the running turn's steps
    page.locator('[data-poller="asyncio"]').wait_for(
        timeout=ANSWER_MS
    )  # a task on the kernel's loop
    page.get_by_text("In short:").wait_for(timeout=ANSWER_MS)  # the poll drew the answer
    sources = page.locator('button[title*="passage ¶"]')  # the [n] of a passage citation
    assert sources.count() > 0
    sources.first.click()
    page.locator("mark").first.wait_for(timeout=RESULTS_MS)  # the cited passage, marked
    _screenshot(page, "research-chat.png")
    page.close()


@pytest.mark.parametrize(
    ("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)]
)
def test_without_chromium_it_says_what_to_install_and_fails_in_ci(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ci: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", str(tmp_path / "chromium"))
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match=r"apt-get install chromium"):
        _require()
