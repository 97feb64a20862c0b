"""What the widgets share: the engine they use, dataset names from its catalog, error labels by
request field, a busy state for buttons, and a page's text with a passage marked."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

import ipywidgets as w

from regnb.present.html import BOX, Html, escape

if TYPE_CHECKING:
    from regnb.errors import RegnbError
    from regnb.interface import EngineAPI

__all__ = [
    "ErrorSlots",
    "WidgetView",
    "busy",
    "dataset_names",
    "error_html",
    "mark_passage",
    "parent_field",
    "resolve_engine",
    "shown",
]

ERROR_COLOR = "#c62828"
PARENT = re.compile(r"(?:\[\d+\]|\.[^.\[\]]+)$")
TEXT_STYLE = "white-space:pre-wrap;font-family:inherit;line-height:1.5;margin:0"


class WidgetView:
    """A regnb widget: its ipywidgets tree is `.widget` (put it in a box to lay it out), and a
    notebook displays the object as that tree, with its current state as static HTML beside it
    for exported notebooks (nbconvert, nbviewer, GitHub), where widgets do not run. Not a Widget
    subclass, so that methods such as `open` and `send` keep their plain meaning.

    A notebook keeps an output as it was displayed; so the widget is displayed under a display
    id, and `changed()` (called once a search, an answer or a page is drawn) redraws the static
    HTML of every output that shows it: a notebook saved later keeps what was on screen."""

    widget: w.Box
    _display_id: str | None = None
    _static: str | None = None  # the static HTML last sent to the outputs
    _watchers: tuple[Callable[[], None], ...] = ()

    def to_html(self) -> str:
        """What the widget shows now, as static HTML (no scripts, nothing clickable)."""
        from regnb.widgets._static import static_html

        return f'<div class="regnb-widget" style="{BOX}">{static_html(self.widget)}</div>'

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/html"] = self.to_html()
        return bundle

    def _ipython_display_(self) -> None:
        """Displayed by IPython (a cell's value or `display(view)`): the bundle under this
        view's display id, which `changed` updates."""
        from IPython.display import display

        if self._display_id is None:
            self._display_id = uuid.uuid4().hex
        bundle = self._repr_mimebundle_()
        self._static = bundle["text/html"]
        display(bundle, raw=True, display_id=self._display_id)

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call `callback` after each `changed()` (a view that holds this one redraws too)."""
        self._watchers = (*self._watchers, callback)

    def changed(self) -> None:
        """The state on screen changed: update the outputs that display this view, when their
        static HTML differs, and tell the views that hold it."""
        if self._display_id is not None:
            bundle = self._repr_mimebundle_()
            if bundle["text/html"] != self._static:
                from IPython.display import update_display

                self._static = bundle["text/html"]
                update_display(bundle, raw=True, display_id=self._display_id)
        for callback in self._watchers:
            callback()


def resolve_engine(engine: Any = None) -> EngineAPI:
    """The engine given, or regnb's default engine over the demo corpus."""
    if engine is not None:
        return cast("EngineAPI", engine)
    import regnb

    return regnb.default_engine()


def dataset_names(engine: EngineAPI) -> dict[str, str]:
    """Display names by dataset id, from the engine's own catalog (a remote one too)."""
    return {d.id: d.name for d in engine.datasets()}


def error_html(message: str) -> Html:
    return Html(f'<span style="color:{ERROR_COLOR}">⚠ {escape(message)}</span>')


def shown(widget: w.Widget, visible: bool) -> None:
    """Show or hide a widget (it keeps its place in its box)."""
    widget.layout.display = None if visible else "none"


def parent_field(path: str) -> str | None:
    """`filters.fda_483.fei_number` → `filters.fda_483` → `filters`; `keywords[1]` → `keywords`."""
    parent = PARENT.sub("", path)
    return parent if parent and parent != path else None


class ErrorSlots:
    """Error labels keyed by request field path; an error shows in the label of its `field`, else
    of the nearest enclosing field that has one, else in the general label."""

    def __init__(self) -> None:
        self.general = self._label()
        self._slots: dict[str, w.HTML] = {}

    @staticmethod
    def _label() -> w.HTML:
        label = w.HTML("")
        shown(label, False)
        return label

    def slot(self, path: str) -> w.HTML:
        """The label of `path`, made on first use."""
        if path not in self._slots:
            self._slots[path] = self._label()
        return self._slots[path]

    def bind(self, path: str, label: w.HTML) -> None:
        """Show errors of `path` in `label` (keyword items move as items are added and removed)."""
        self._slots[path] = label

    def unbind(self, prefix: str) -> None:
        for path in [p for p in self._slots if p.startswith(prefix)]:
            del self._slots[path]

    def clear(self) -> None:
        for label in [self.general, *self._slots.values()]:
            label.value = ""
            shown(label, False)

    def where(self, field: str | None) -> str | None:
        """The path whose label shows an error of `field` (None: the general label)."""
        path = field
        while path is not None and path not in self._slots:
            path = parent_field(path)
        return path

    def show(self, error: RegnbError) -> str | None:
        """Show the engine's message next to the field at fault; returns the path used."""
        path = self.where(error.field)
        label = self.general if path is None else self._slots[path]
        label.value = error_html(error.message)
        shown(label, True)
        return path

    def message(self, path: str | None) -> str:
        """The HTML shown for `path` (the general label for None); empty when none."""
        label = self.general if path is None else self._slots.get(path)
        return "" if label is None else str(label.value)


@contextmanager
def busy(button: w.Button, text: str) -> Iterator[None]:
    """The button disabled and saying `text` while the block runs."""
    before, was_disabled = button.description, button.disabled
    button.description, button.disabled = text, True
    try:
        yield
    finally:
        button.description, button.disabled = before, was_disabled


def mark_passage(text: str, passage: str | None) -> tuple[Html, bool]:
    """The page's text as escaped HTML with the first occurrence of `passage` in <mark>; the
    passage matches whitespace-folded (line breaks and runs of spaces count as one space) and
    without a best passage's leading or trailing ellipsis. Also says whether it was found."""
    words = (passage or "").replace("…", " ").split()
    found = None
    if words:
        found = re.compile(r"\s+".join(re.escape(word) for word in words)).search(text)
    if found is None:
        return Html(f'<div style="{TEXT_STYLE}">{escape(text)}</div>'), False
    start, end = found.span()
    marked = f"{escape(text[:start])}<mark>{escape(text[start:end])}</mark>{escape(text[end:])}"
    return Html(f'<div style="{TEXT_STYLE}">{marked}</div>'), True
