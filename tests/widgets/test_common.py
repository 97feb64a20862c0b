"""The widgets' shared parts: errors placed by field path, the busy state, a passage marked on a
page, and the package's imports (ipywidgets only when regnb.widgets is imported)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

import ipywidgets as w

import regnb.widgets
from regnb.errors import InvalidFilter, InvalidRequest
from regnb.widgets._common import ErrorSlots, WidgetView, busy, mark_passage, parent_field
from tests.outputs_support import Outputs


@pytest.mark.parametrize(
    ("path", "parent"),
    [
        ("filters.fda_483.fei_number", "filters.fda_483"),
        ("filters.fda_483", "filters"),
        ("keywords[1]", "keywords"),
        ("datasets[0]", "datasets"),
        ("date_from", None),
        ("filters", None),
    ],
)
def test_parent_field_drops_the_last_part_of_a_path(path: str, parent: str | None) -> None:
    assert parent_field(path) == parent


@pytest.mark.parametrize(
    ("field", "shown_at"),
    [
        ("filters.fda_483.fei_number", "filters.fda_483.fei_number"),
        ("filters.fda_483.color", "filters.fda_483"),  # no such input: the dataset's form
        ("filters.fda_nope", "filters"),
        ("keywords[3]", "keywords"),
        ("date_to", "date_to"),
        ("limit", None),
        (None, None),
    ],
)
def test_an_error_shows_at_its_field_or_the_nearest_enclosing_one(
    field: str | None, shown_at: str | None
) -> None:
    slots = ErrorSlots()
    for path in ("filters", "filters.fda_483", "filters.fda_483.fei_number", "keywords", "date_to"):
        slots.slot(path)
    assert slots.show(InvalidFilter("it is wrong", field=field)) == shown_at
    assert "it is wrong" in slots.message(shown_at)
    others = [p for p in ("filters", "keywords", "date_to", None) if p != shown_at]
    assert all(slots.message(p) == "" for p in others)


def test_clearing_hides_every_error_and_messages_are_escaped() -> None:
    slots = ErrorSlots()
    label = slots.slot("query")
    slots.show(InvalidRequest("query <b>too</b> long", field="query"))
    assert "&lt;b&gt;too&lt;/b&gt;" in label.value and label.layout.display is None
    slots.clear()
    assert label.value == "" and label.layout.display == "none"


def test_busy_disables_the_button_and_restores_it_after_an_error() -> None:
    button = w.Button(description="Search")
    with pytest.raises(RuntimeError), busy(button, "Searching…"):
        assert (button.description, button.disabled) == ("Searching…", True)
        raise RuntimeError
    assert (button.description, button.disabled) == ("Search", False)


@pytest.mark.parametrize(
    ("text", "passage", "marked"),
    [
        (
            "Media fills failed.\nThe line  was stopped.",
            "failed. The line was",
            "failed.\nThe line  was",
        ),
        ("A b c", "… b c", "b c"),  # a best passage's ellipsis is not part of the page
        ("x < y and z", "< y", "&lt; y"),
        ("Sterility failed", "sterility failed", None),  # exact text: case counts
        ("Sterility failed", "nowhere", None),
        ("Sterility failed", None, None),
    ],
)
def test_mark_passage_marks_the_whitespace_folded_passage(
    text: str, passage: str | None, marked: str | None
) -> None:
    body, found = mark_passage(text, passage)
    assert found is (marked is not None)
    if marked is None:
        assert "<mark>" not in body
    else:
        assert f"<mark>{marked}</mark>" in body


def test_importing_regnb_does_not_import_ipywidgets() -> None:
    code = "import sys, regnb; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_package_exports_the_four_widgets() -> None:
    assert regnb.widgets.__all__ == [
        "DocumentViewer",
        "FirmTimeline",
        "ResearchChat",
        "SearchPanel",
    ]


# the static HTML of a displayed view follows its state (issue 31): a notebook keeps an output
# as it was displayed, unless the kernel updates it by its display id


class Counter(WidgetView):
    def __init__(self) -> None:
        self.label = w.HTML("0 clicks")
        self.widget = w.VBox([self.label])

    def click(self, n: int) -> None:
        self.label.value = f"{n} clicks"
        self.changed()


def test_a_displayed_view_is_an_output_with_a_display_id_and_its_static_html(
    outputs: Outputs,
) -> None:
    view = Counter()
    view._ipython_display_()
    ((kind, display_id),) = outputs.calls
    bundle = outputs.shown[display_id]
    assert kind == "display" and display_id
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == view.widget.model_id
    assert "0 clicks" in bundle["text/html"]


def test_a_change_updates_every_output_of_the_view_and_only_when_its_html_changed(
    outputs: Outputs,
) -> None:
    view = Counter()
    view._ipython_display_()
    view._ipython_display_()  # shown twice: one display id, both outputs updated
    view.click(1)
    assert "1 clicks" in outputs.html()
    view.changed()
    view.click(1)
    assert [kind for kind, _ in outputs.calls] == ["display", "display", "update"]
    assert len({display_id for _, display_id in outputs.calls}) == 1


def test_a_view_never_displayed_sends_nothing(outputs: Outputs) -> None:
    Counter().click(3)
    assert outputs.calls == []


def test_a_change_is_passed_on_to_the_views_that_hold_it(outputs: Outputs) -> None:
    inner, outer = Counter(), Counter()
    outer.widget.children = (outer.label, inner.widget)
    inner.on_change(outer.changed)
    outer._ipython_display_()
    inner.click(5)
    assert "5 clicks" in outputs.html()
