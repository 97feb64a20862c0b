"""Filter forms made from the catalog's JSON Schema: the right input for each kind, for every
available dataset of the catalog, and the values the search receives."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

import ipywidgets as w

from regnb.catalog import Dataset, load_catalog
from regnb.widgets._common import ErrorSlots
from regnb.widgets._filters import FilterForm, filter_input, filter_value, input_kind

EXPECTED = {
    "enum": w.Dropdown,
    "boolean": w.ToggleButtons,
    "date": w.DatePicker,
    "integer": w.Text,
    "number": w.Text,
    "string": w.Text,
}
AVAILABLE = [d for d in load_catalog() if d.available]


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        ({"type": "string", "enum": ["a", "b"]}, "enum"),
        ({"type": "boolean"}, "boolean"),
        ({"type": "string", "format": "date"}, "date"),
        ({"type": "integer"}, "integer"),
        ({"type": "number"}, "number"),
        ({"type": "string", "description": "keyword match"}, "string"),
    ],
)
def test_each_schema_kind_gets_its_input(spec: dict[str, Any], kind: str) -> None:
    assert input_kind(spec) == kind
    widget = filter_input("name", {**spec, "description": "what it filters"})
    assert type(widget) is EXPECTED[kind]
    assert widget.description == "name" and widget.tooltip == "what it filters"


@pytest.mark.parametrize("dataset", AVAILABLE, ids=lambda d: d.id)
def test_every_available_dataset_of_the_catalog_gets_a_form(dataset: Dataset) -> None:
    form = FilterForm(dataset, ErrorSlots())
    assert list(form.inputs) == list(dataset.filters)
    for name, widget in form.inputs.items():
        assert type(widget) is EXPECTED[input_kind(dataset.filters[name])], name
    assert form.value() == {}  # nothing set: nothing sent


def test_an_enum_dropdown_starts_empty_and_lists_the_values() -> None:
    widget = filter_input("center", {"type": "string", "enum": ["CDER", "CBER"]})
    assert widget.value is None
    assert [label for label, _ in widget.options] == ["", "CDER", "CBER"]


def test_a_boolean_is_any_true_or_false_and_any_sends_nothing() -> None:
    spec = {"type": "boolean"}
    widget = filter_input("serious", spec)
    assert widget.value is None and filter_value(spec, widget) is None
    widget.value = False
    assert filter_value(spec, widget) is False


@pytest.mark.parametrize(
    ("spec", "typed", "sent"),
    [
        ({"type": "integer"}, " 42 ", 42),
        ({"type": "integer"}, "4.2", "4.2"),  # sent as typed: the engine says what is wrong
        ({"type": "number"}, "0.5", 0.5),
        ({"type": "number"}, "1e3", 1000.0),
        ({"type": "number"}, "many", "many"),
        ({"type": "string"}, "  Acme  ", "Acme"),
        ({"type": "string"}, "   ", None),
    ],
)
def test_text_inputs_send_typed_values(spec: dict[str, Any], typed: str, sent: object) -> None:
    widget = filter_input("n", spec)
    widget.value = typed
    assert filter_value(spec, widget) == sent


def test_a_date_picker_sends_an_iso_date() -> None:
    spec = {"type": "string", "format": "date"}
    widget = filter_input("date_from", spec)
    widget.value = dt.date(2015, 1, 31)
    assert filter_value(spec, widget) == "2015-01-31"


def test_a_form_sends_only_what_is_set_and_resets() -> None:
    dataset = next(d for d in load_catalog() if d.id == "fda_guidance")
    form = FilterForm(dataset, ErrorSlots())
    form.inputs["center"].value = "CDER"
    form.inputs["topic"].value = "aseptic"
    assert form.value() == {"center": "CDER", "topic": "aseptic"}
    form.reset()
    assert form.value() == {}
