"""A dataset's filter form, made from the catalog's JSON Schema properties: an enum is a dropdown
with an empty choice, a boolean is any/true/false (an unticked box must not mean false), a
`format: date` is a date picker, an integer or number is a text checked by the engine, any other
string is a text box."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from regnb.present.html import escape

if TYPE_CHECKING:
    from regnb.catalog import Dataset
    from regnb.widgets._common import ErrorSlots

__all__ = ["FilterForm", "filter_input", "filter_value", "input_kind"]

INTEGER = re.compile(r"^[+-]?\d+$")
NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
LABEL_STYLE = {"description_width": "10em"}
WIDE = w.Layout(width="26em")


def input_kind(spec: dict[str, Any]) -> str:
    """`enum`, `boolean`, `date`, `integer`, `number` or `string`: which input a filter gets."""
    if "enum" in spec:
        return "enum"
    if spec.get("format") == "date":
        return "date"
    kind = spec.get("type", "string")
    return kind if kind in ("boolean", "integer", "number") else "string"


def filter_input(name: str, spec: dict[str, Any]) -> w.Widget:
    """The input widget of one filter; its description is the filter's name, its tooltip the
    catalog's description."""
    kind = input_kind(spec)
    tip = spec.get("description") or name
    common: dict[str, Any] = {"description": name, "style": LABEL_STYLE, "tooltip": tip}
    if kind == "enum":
        options = [("", None), *((str(v), v) for v in spec["enum"])]
        return w.Dropdown(options=options, value=None, layout=WIDE, **common)
    if kind == "boolean":
        choices = [("any", None), ("true", True), ("false", False)]
        return w.ToggleButtons(options=choices, value=None, **common)
    if kind == "date":
        return w.DatePicker(value=None, layout=WIDE, **common)
    hint = {"integer": "a whole number", "number": "a number"}.get(kind, tip)
    return w.Text(value="", placeholder=hint, layout=WIDE, **common)


def filter_value(spec: dict[str, Any], widget: w.Widget) -> Any:
    """What the input holds, as the search takes it; None when it is left empty. A number that
    does not parse is sent as typed, so that the engine's message says what is wrong."""
    value = widget.value
    kind = input_kind(spec)
    if kind == "date":
        return value.isoformat() if isinstance(value, dt.date) else None
    if kind in ("enum", "boolean"):
        return value
    text = str(value or "").strip()
    if not text:
        return None
    if kind == "integer" and INTEGER.match(text):
        return int(text)
    if kind == "number" and NUMBER.match(text):
        return float(text)
    return text


class FilterForm(w.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """One dataset's filters; `value()` is the dataset's entry of the search's `filters`."""

    def __init__(self, dataset: Dataset, errors: ErrorSlots) -> None:
        self.dataset = dataset
        self.inputs: dict[str, w.Widget] = {
            name: filter_input(name, spec) for name, spec in dataset.filters.items()
        }
        rows = [
            w.VBox([widget, errors.slot(f"filters.{dataset.id}.{name}")])
            for name, widget in self.inputs.items()
        ]
        head = w.HTML(f"<b>{escape(dataset.name)}</b> <code>{escape(dataset.id)}</code>")
        super().__init__([head, *rows, errors.slot(f"filters.{dataset.id}")])

    def value(self) -> dict[str, Any]:
        """The filters that are set, by name."""
        values = {
            name: filter_value(self.dataset.filters[name], widget)
            for name, widget in self.inputs.items()
        }
        return {name: v for name, v in values.items() if v is not None}

    def set(self, name: str, value: Any) -> None:
        """Set filter `name` to `value` (a facet's value, as the search takes it)."""
        kind = input_kind(self.dataset.filters[name])
        widget = self.inputs[name]
        if kind == "date":
            widget.value = dt.date.fromisoformat(str(value))
        elif kind in ("enum", "boolean"):
            widget.value = value
        else:
            widget.value = str(value)

    def reset(self) -> None:
        for name, widget in self.inputs.items():
            kind = input_kind(self.dataset.filters[name])
            widget.value = "" if kind in ("string", "integer", "number") else None
