"""A widget tree as static HTML: what a regnb widget shows where no widget manager runs (a
notebook exported by nbconvert, nbviewer, GitHub). It draws the tree's current state: text,
values of the inputs, button labels, images; hidden parts stay hidden and nothing is clickable.

ipywidgets 8 displays a widget as `application/vnd.jupyter.widget-view+json` with a `text/plain`
fallback only; a front end with a widget manager prefers the view (JupyterLab ranks it first,
nbconvert's HTML exporter takes it only when the notebook saved the widget state), so adding
`text/html` changes nothing where the widget can run.
"""

from __future__ import annotations

import base64
import datetime as dt
from typing import Any

import ipywidgets as w

from regnb.present.html import escape

__all__ = ["static_html"]

MUTED = "color:#757575"
FIELD = "border:1px solid rgba(128,128,128,0.5);border-radius:2px;padding:1px 4px;min-width:4em"
BUTTON = "border:1px solid rgba(128,128,128,0.5);border-radius:2px;padding:1px 8px"
ROW = "display:flex;flex-flow:row wrap;gap:4px;align-items:baseline"
COLUMN = "display:flex;flex-direction:column;gap:2px"


def _hidden(widget: w.Widget) -> bool:
    layout = getattr(widget, "layout", None)
    return layout is not None and (layout.display == "none" or layout.visibility == "hidden")


def _described(widget: w.Widget, body: str) -> str:
    label = str(getattr(widget, "description", "") or "")
    return f"<span>{escape(label)} {body}</span>" if label else body


def _value(value: object, placeholder: str = "") -> str:
    if value is None or value == "":
        return f'<span style="{FIELD};{MUTED}">{escape(placeholder) or "&nbsp;"}</span>'
    text = value.isoformat() if isinstance(value, dt.date) else str(value)
    return f'<span style="{FIELD};white-space:pre-wrap">{escape(text)}</span>'


def _box(widget: w.Box) -> str:
    if isinstance(widget, w.Accordion):
        titles = list(widget.titles)
        parts = []
        for i, child in enumerate(widget.children):
            title = escape(titles[i] if i < len(titles) and titles[i] else f"Section {i + 1}")
            opened = " open" if widget.selected_index == i else ""
            parts.append(
                f"<details{opened}><summary>{title}</summary>{static_html(child)}</details>"
            )
        return "".join(parts)
    style = ROW if isinstance(widget, w.HBox) else COLUMN
    inner = "".join(static_html(child) for child in widget.children)
    return f'<div style="{style}">{inner}</div>' if inner else ""


def _image(widget: w.Image) -> str:
    if not widget.value:
        return ""
    media = "svg+xml" if widget.format == "svg" else widget.format
    data = base64.b64encode(widget.value).decode("ascii")
    return f'<img src="data:image/{media};base64,{data}" style="max-width:40em">'


def _leaf(widget: w.Widget) -> str:
    if isinstance(widget, w.HTML):
        return str(widget.value)
    if isinstance(widget, w.Button):
        text = escape(widget.description or "")
        return f'<span style="{BUTTON}">{text}</span>' if text else ""
    if isinstance(widget, w.Checkbox):
        checked = " checked" if widget.value else ""
        return (
            f'<label><input type="checkbox" disabled{checked}> {escape(widget.description)}</label>'
        )
    if isinstance(widget, w.Dropdown | w.ToggleButtons):
        return _described(widget, _value(widget.label))
    if isinstance(widget, w.Text | w.Textarea):
        return _described(widget, _value(widget.value, widget.placeholder))
    if isinstance(widget, w.DatePicker | w.BoundedIntText | w.IntText):
        return _described(widget, _value(widget.value))
    if isinstance(widget, w.IntRangeSlider | w.SelectionRangeSlider):
        first, last = widget.label if isinstance(widget, w.SelectionRangeSlider) else widget.value
        return _described(widget, _value(f"{first} – {last}"))
    if isinstance(widget, w.Image):
        return _image(widget)
    return ""


def static_html(widget: Any) -> str:
    """The widget's current state as HTML, without scripts (an empty string when hidden)."""
    if not isinstance(widget, w.Widget) or _hidden(widget):
        return ""
    if isinstance(widget, w.Box):
        return _box(widget)
    return _leaf(widget)
