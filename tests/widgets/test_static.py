"""A widget tree as static HTML, the fallback an exported notebook shows: the current values,
labels and images; hidden parts left out; text escaped."""

from __future__ import annotations

import datetime as dt
import html
import os
import re
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell, new_notebook

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

import ipywidgets as w

from regnb.widgets._static import static_html
from regnb.widgets.testing import PNG
from tests.paths import ROOT


def test_html_values_and_input_values_are_drawn() -> None:
    tree = w.VBox(
        [
            w.HTML("<b>Keywords</b>"),
            w.Text(value="sterility <failure>"),
            w.Textarea(value="", placeholder="A question"),
            w.DatePicker(description="from", value=dt.date(2020, 1, 2)),
            w.HBox([w.Button(description="Search"), w.Button(icon="stop")]),
            w.Checkbox(description="FDA Form 483", value=True),
            w.Dropdown(description="center", options=["CDER", "CBER"], value="CBER"),
            w.BoundedIntText(description="page", value=3, min=1, max=7),
        ]
    )
    page = static_html(tree)
    assert "<b>Keywords</b>" in page
    assert "sterility &lt;failure&gt;" in page
    assert "A question" in page
    assert "from" in page and "2020-01-02" in page
    assert "Search" in page
    assert 'type="checkbox" disabled checked' in page and "FDA Form 483" in page
    assert "center" in page and "CBER" in page and "CDER" not in page
    assert "page" in page and ">3<" in page


def test_hidden_widgets_are_left_out() -> None:
    hidden = w.HTML("secret")
    hidden.layout.display = "none"
    assert static_html(w.VBox([hidden, w.HTML("shown")])) == static_html(w.VBox([w.HTML("shown")]))
    assert static_html(hidden) == ""


def test_an_accordion_is_details_with_the_open_section_open() -> None:
    acc = w.Accordion([w.HTML("one"), w.HTML("two")], titles=("Datasets", "Dates"))
    acc.selected_index = 1
    page = static_html(acc)
    assert "<details><summary>Datasets</summary>one</details>" in page
    assert "<details open><summary>Dates</summary>two</details>" in page


def test_an_image_is_inlined() -> None:
    assert static_html(w.Image(value=PNG, format="png")).startswith(
        '<img src="data:image/png;base64,'
    )


# A notebook run from top to bottom in a real kernel, saved as JupyterLab saves it (no widget
# state unless asked) and exported by nbconvert: the HTML shows what the notebook showed


NOTEBOOK = [
    "from pathlib import Path\n"
    "from regnb.server.testing import open_sample\n"
    "from regnb.widgets import ResearchChat, SearchPanel\n"
    "eng = open_sample(Path({root!r}) / 'corpus', Path({root!r}) / 'home')",
    "panel = SearchPanel(eng, keywords=['sterility testing'])\npanel",  # shown before it runs
    "panel.search();",
    "chat = ResearchChat(eng)\nchat",
    "chat.send('Which firms failed sterility testing?')\nchat.wait()['status']",
]


def _text(page: str) -> str:
    """HTML as the text a reader sees, spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.mark.timeout(240)
def test_an_executed_notebook_exports_to_html_with_its_results_and_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    cells = [new_code_cell(source.format(root=str(tmp_path))) for source in NOTEBOOK]
    notebook = new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    client = NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        store_widget_state=False,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    page, _ = HTMLExporter().from_notebook_node(notebook)
    shown = _text(page)
    assert "3 documents" in shown  # the panel's summary, drawn after it was displayed
    for n in range(3):
        assert f"Warning letter to Beta Pharma {n}" in shown
    assert "Counts over every match" in shown and "FDA Warning Letters · 3" in shown
    assert "Which firms failed sterility testing?" in shown  # the chat's question and answer
    assert "In short: 3 documents in FDA Warning Letters match" in shown
    chat = page[page.rindex('class="regnb-widget"') :]  # the last widget's static HTML
    assert "<table" in chat and "Every matching document (3 found)" in _text(chat)
