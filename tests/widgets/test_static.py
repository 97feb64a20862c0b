"""A widget tree as static HTML, the fallback an exported notebook shows: the current values,
labels and images; hidden parts left out; text escaped."""

from __future__ import annotations

import datetime as dt

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

import ipywidgets as w

from regnb.widgets._static import static_html
from regnb.widgets.testing import PNG


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
