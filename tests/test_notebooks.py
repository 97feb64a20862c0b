"""The notebooks as files: the six stories are there, saved after a run from top to bottom, with
regression cells; the nbval sanitize file replaces what differs between runs and nothing else; and
nbval, run as `python -m pytest` runs it, fails a checked cell whose output changed.

The notebooks themselves run under nbval (notebooks/conftest.py), collected by `python -m pytest`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from nbval.plugin import get_sanitize_patterns

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
SANITIZE = FOLDER / "nbval_sanitize.cfg"
STORIES = [
    "01-quickstart.ipynb",
    "02-filters-and-dates.ipynb",
    "03-research-conversation.ipynb",
    "04-exporting-for-analysts.ipynb",
    "05-your-own-documents.ipynb",
    "06-firm-history-and-watchlists.ipynb",
]
CHECK = "# NBVAL_CHECK_OUTPUT"
PYTEST = ["-q", "-p", "no:cacheprovider"]
NBVAL = ["--nbval-lax", "--nbval-current-env", f"--nbval-sanitize-with={SANITIZE}"]
LOCAL_PATH = re.compile(r"(?<![\w.])/(?:tmp|root|home|work|Users)/")


def code_cells(path: Path) -> list[nbformat.NotebookNode]:
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def sanitize(text: str) -> str:
    """`text` as nbval sees it after the sanitize file's replacements, in the file's order."""
    for regex, replace in get_sanitize_patterns(SANITIZE.read_text(encoding="utf-8")):
        text = re.sub(regex, replace, text)
    return text


def test_the_six_stories_are_there_named_in_reading_order() -> None:
    names = [p.name for p in NOTEBOOKS]
    assert set(STORIES) <= set(names)
    assert all(re.fullmatch(r"\d{2}-[a-z0-9-]+\.ipynb", name) for name in names), names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_saved_after_one_run_from_top_to_bottom(path: Path) -> None:
    cells = code_cells(path)
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    errors = [o for c in cells for o in c.outputs if o.output_type == "error"]
    assert not errors, [f"{e.ename}: {e.evalue}" for e in errors]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_has_regression_cells_with_saved_output(path: Path) -> None:
    checked = [c for c in code_cells(path) if CHECK in c.source.splitlines()]
    assert len(checked) >= 2
    assert all(c.outputs for c in checked), [c.source for c in checked if not c.outputs]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_stands_alone_and_leaves_no_files(path: Path) -> None:
    source = "\n".join(c.source for c in code_cells(path))
    assert "shared/data" not in source and "../shared" not in source
    if "mkdtemp(" in source:  # a scratch folder, removed by the last cell
        assert "shutil.rmtree(" in code_cells(path)[-1].source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_saved_outputs_hold_no_path_of_the_machine_that_ran_them(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    outputs = text[text.index('"cells"') :]
    assert not LOCAL_PATH.search(outputs), LOCAL_PATH.search(outputs)


@pytest.mark.parametrize(
    ("raw", "sanitized"),
    [
        ("Conversation `conv_54ec80fd271cda338b94662b`", "Conversation `conv_<id>`"),
        ("doc_a4f61c2b0443d44901d50329  Word report", "doc_<id>  Word report"),
        ("request req_0123456789abcdef01234567", "request req_<id>"),
        (
            "id TZ_edgns_PLUQO79t0Zg, next _-xLRKRsAm66fNMVdb-z",
            "id <document_id>, next <document_id>",
        ),
        ("created 2026-11-26T05:44:02+00:00", "created <timestamp>"),
        ("at 2024-03-12 10:15:00.123Z", "at <timestamp>"),
        (
            "total_ms 1461.0, match 33 ms, in 2.5 s",
            "total_ms <duration>, match <duration>, in <duration>",
        ),
        (
            "score 0.662049, shown 0.706, cosine 12.0625",
            "score <number>, shown <number>, cosine <number>",
        ),
        ("saved /tmp/regnb-exports-k2/media-fills.xlsx", "saved <path>"),
        (
            "<regnb.Engine /work/main/data/demo plan=enterprise>",
            "<regnb.Engine <path> plan=enterprise>",
        ),
        ("<object at 0x7f3a2c1d>", "<object at 0x<address>>"),
    ],
)
def test_sanitize_file_replaces_what_differs_between_runs(raw: str, sanitized: str) -> None:
    assert sanitize(raw) == sanitized


@pytest.mark.parametrize(
    "kept",
    [
        "fda_recall_enforcement fda_warning_letters fda_clinical_trials",  # dataset ids
        "https://demo.regnb.invalid/fda_483/3004196441-2002-10-12#page=2",  # a document's url
        "2024-03-12 2013-09-23",  # dates of documents
        "matches 38, pages 38, FEI 3000975914, NCT01234567, K242959",  # counts and identifiers
        "Warning Letter to Sandhaven Life Sciences Inc.: CGMP/Finished Pharmaceuticals/Adulterated",
        "21 CFR 211.113(b) and 21 CFR 211.22(d)",
        "sterile-drug-makers-warning-letters-media.xlsx",
    ],
)
def test_sanitize_file_keeps_what_a_regression_cell_checks(kept: str) -> None:
    assert sanitize(kept) == kept


def _notebook(path: Path, saved: str) -> Path:
    """A one-cell notebook: a checked cell that prints a fresh conversation id and a count,
    saved with `saved` as its output."""
    cell = new_code_cell(
        f'{CHECK}\nimport secrets\nprint("conv_" + secrets.token_hex(12), "matches", 2 + 2)',
        execution_count=1,
        outputs=[new_output("stream", name="stdout", text=saved)],
    )
    nbformat.write(new_notebook(cells=[cell]), path)
    return path


def test_regression_run_fails_a_checked_cell_whose_output_changed(tmp_path: Path) -> None:
    _notebook(tmp_path / "same.ipynb", "conv_0a1b2c3d4e5f60718293a4b5 matches 4\n")
    _notebook(tmp_path / "changed.ipynb", "conv_0a1b2c3d4e5f60718293a4b5 matches 5\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *PYTEST, "-rA", *NBVAL, "same.ipynb", "changed.ipynb"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "PASSED same.ipynb::Cell 0" in run.stdout
    assert "FAILED changed.ipynb::Cell 0" in run.stdout
    assert "Cell outputs differ" in run.stdout


def test_the_test_command_collects_every_code_cell_of_every_notebook() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *PYTEST, "--collect-only", "notebooks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    collected = {line for line in run.stdout.splitlines() if ".ipynb::Cell " in line}
    expected = {
        f"notebooks/{p.name}::Cell {i}" for p in NOTEBOOKS for i in range(len(code_cells(p)))
    }
    assert collected == expected


PUBLIC_MODULES = {"regnb", "regnb.widgets"}
IMPORT = re.compile(r"^\s*(?:from\s+(regnb[\w.]*)\s+import|import\s+(regnb[\w.]*))", re.MULTILINE)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_use_only_the_public_api(path: Path) -> None:
    """A notebook is what a user copies: `regnb` and `regnb.widgets`, not internal helpers
    (`conv.to_docx`, not `regnb.agent.produce.answer_to_docx`)."""
    source = "\n".join(c.source for c in code_cells(path))
    imported = {a or b for a, b in IMPORT.findall(source)}
    assert imported <= PUBLIC_MODULES, imported - PUBLIC_MODULES


PLOT = re.compile(r"\.plot(?:\.\w+)?\([^()]*\)\s*$")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_cell_that_ends_in_a_plot_shows_the_figure(path: Path) -> None:
    plotted = [c for c in code_cells(path) if PLOT.search(c.source)]
    blank = [
        c.source for c in plotted if not any("image/png" in o.get("data", {}) for o in c.outputs)
    ]
    assert not blank, blank


def test_the_saved_chat_exports_to_html_with_its_conversation() -> None:
    """nbconvert's HTML of notebook 03 as GitHub and offline viewers see it (no widget manager,
    so the widgets' static copies): the chat shows the question it was sent and its answer."""
    from nbconvert import HTMLExporter

    notebook = nbformat.read(FOLDER / "03-research-conversation.ipynb", as_version=4)
    notebook.metadata.pop("widgets", None)
    page, _ = HTMLExporter().from_notebook_node(notebook)
    chat = page[page.rindex('class="regnb-widget"') :]
    text = " ".join(re.sub(r"<[^>]+>", " ", chat).split())
    assert (
        "Which sterile drug makers got warning letters for media fill failures since 2015?" in text
    )
    assert "In short:" in text and "of the" in text and "<table" in chat


def _visible(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&amp;", "&").split())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_exports_to_html_with_what_it_showed(path: Path) -> None:
    """As GitHub and nbviewer show a saved notebook without its widget state: every result
    table, answer and widget the notebook showed is in its nbconvert HTML (each output's text
    in HTML, the start of it, as the page shows it)."""
    from nbconvert import HTMLExporter

    notebook = nbformat.read(path, as_version=4)
    notebook.metadata.pop("widgets", None)
    page = _visible(HTMLExporter().from_notebook_node(notebook)[0])
    shown = [
        _visible(str(o["data"]["text/html"]))[:80]
        for cell in code_cells(path)
        for o in cell.outputs
        if "text/html" in o.get("data", {})
    ]
    assert shown, f"{path.name} shows no table, answer or widget"
    missing = [s for s in shown if s and s not in page]
    assert not missing, missing
    widgets = [
        o["data"]
        for cell in code_cells(path)
        for o in cell.outputs
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    blank = [  # (a progress bar's fallback is its text line)
        w for w in widgets if not _visible(str(w.get("text/html", w.get("text/plain", ""))))
    ]
    assert not blank, f"{len(blank)} widgets of {path.name} would show nothing without state"
