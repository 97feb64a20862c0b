"""DocumentViewer: one page of a document at a time, through the engine's `read`; previous and
next, a page number to jump to, the document's title, dataset, date, fields and source link, and
a passage marked on the page."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from regnb.errors import RegnbError
from regnb.present.html import Html, badge, escape, link, muted, table
from regnb.widgets._common import (
    ErrorSlots,
    WidgetView,
    dataset_names,
    mark_passage,
    resolve_engine,
    shown,
)

if TYPE_CHECKING:
    from regnb.interface import EngineAPI
    from regnb.results import DocumentRead

__all__ = ["DocumentViewer"]

NOT_ON_PAGE = "The marked passage is not on this page."
OLD_ORDER = (
    "DocumentViewer(document_id, engine) is deprecated: the engine comes first, as in "
    "SearchPanel(engine): DocumentViewer(engine, document_id) or DocumentViewer(document_id=...)"
)
MAX_FIELD_CHARS = 200


def _value(value: object) -> str:
    text = ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
    return text if len(text) <= MAX_FIELD_CHARS else text[: MAX_FIELD_CHARS - 1] + "…"


def header_html(read: DocumentRead, name: str, document: dict[str, Any] | None) -> Html:
    """Title, dataset, date, source link and fields (the date and fields come from a search
    result item: a read response has neither)."""
    doc = document or {}
    parts = [
        badge(name, "info"),
        escape(doc.get("date") or ""),
        link("source ↗", read.url) if read.url else "",
        muted(read.document_id),
    ]
    head = f"<div style='font-size:1.1em'><b>{escape(read.title or '(untitled)')}</b></div>"
    head += "<div>" + " · ".join(p for p in parts if p) + "</div>"
    fields = [
        (name, _value(v)) for name, v in (doc.get("fields") or {}).items() if v not in (None, "")
    ]
    return Html(head + (table(["field", "value"], fields) if fields else ""))


class DocumentViewer(WidgetView):
    """A document's pages, one at a time, over `engine` (the default engine unless given), as
    `SearchPanel(engine)` and `ResearchChat(engine)`: `DocumentViewer(eng, doc_id, page=3)`.
    `open(document_id, page=, highlight=)` shows another."""

    def __init__(
        self,
        engine: EngineAPI | str | None = None,
        document_id: str | Any | None = None,
        page: int = 1,
        highlight: str | None = None,
        *,
        document: dict[str, Any] | None = None,
    ) -> None:
        if isinstance(engine, str):  # the old order: DocumentViewer(document_id, engine, ...)
            warnings.warn(OLD_ORDER, DeprecationWarning, stacklevel=2)
            engine, document_id = document_id, engine
        self.engine = resolve_engine(engine)
        self.document_id: str | None = None
        self.document: dict[str, Any] | None = None
        self.highlight: str | None = None
        self.read_result: DocumentRead | None = None
        self.found: bool | None = None  # whether the highlight was found on the page shown
        self._names: dict[str, str] | None = None
        self.errors = ErrorSlots()
        self.header = w.HTML("")
        self.prev_button = w.Button(icon="arrow-left", tooltip="previous page")
        self.next_button = w.Button(icon="arrow-right", tooltip="next page")
        self.page_input = w.BoundedIntText(value=1, min=1, max=1, description="page")
        self.page_input.layout.width = "10em"
        self.page_input.style.description_width = "3em"
        self.total = w.HTML("")
        self.note = w.HTML("")
        self.body = w.HTML("", layout=w.Layout(max_height="32em", overflow="auto"))
        self.prev_button.on_click(lambda _: self.go(self.page - 1))
        self.next_button.on_click(lambda _: self.go(self.page + 1))
        self.page_input.observe(self._jump, names="value")
        nav = w.HBox([self.prev_button, self.page_input, self.total, self.next_button])
        self.widget = w.VBox([self.header, nav, self.note, self.errors.general, self.body])
        self._enable()
        if document_id is not None:
            self.open(document_id, page=page, highlight=highlight, document=document)

    @property
    def page(self) -> int:
        """The page shown (1 before any)."""
        pages = self.read_result.page_list if self.read_result else []
        return int(pages[0]["page_num"]) if pages else 1

    @property
    def total_pages(self) -> int:
        return self.read_result.total_pages if self.read_result else 0

    @property
    def text(self) -> str:
        """The text of the page shown."""
        pages = self.read_result.page_list if self.read_result else []
        return str(pages[0]["text"]) if pages else ""

    def open(
        self,
        document_id: str,
        page: int = 1,
        highlight: str | None = None,
        *,
        document: dict[str, Any] | None = None,
    ) -> DocumentRead | None:
        """Show `page` of a document, `highlight` marked; `document` (a search result item)
        adds its date and fields. An engine error is shown, and None returned."""
        self.document_id, self.highlight, self.document = document_id, highlight, document
        self.read_result = None
        return self.go(page)

    def go(self, page: int) -> DocumentRead | None:
        """Show another page of the open document."""
        if self.document_id is None:
            return None
        self.errors.clear()
        try:
            read = self.engine.read(self.document_id, max(page, 1), max(page, 1))
            if not read.page_list and read.total_pages and page > read.total_pages:
                read = self.engine.read(self.document_id, read.total_pages, read.total_pages)
        except RegnbError as error:
            self.errors.show(error)
            self.changed()
            return None
        self.read_result = read
        self._draw(read)
        self.changed()
        return read

    def _draw(self, read: DocumentRead) -> None:
        self.header.value = header_html(read, self._name(read.dataset), self.document)
        body, found = mark_passage(self.text, self.highlight)
        self.found = found if self.highlight else None
        self.body.value = body
        self.note.value = muted(NOT_ON_PAGE) if self.highlight and not found else ""
        shown(self.note, bool(self.note.value))
        self.total.value = f"<span style='padding:0 0.6em'>of {read.total_pages}</span>"
        self.page_input.unobserve(self._jump, names="value")
        self.page_input.max = max(read.total_pages, 1)
        self.page_input.value = self.page
        self.page_input.observe(self._jump, names="value")
        self._enable()

    def _name(self, dataset: str) -> str:
        if self._names is None:
            self._names = dataset_names(self.engine)
        return self._names.get(dataset, dataset)

    def _jump(self, change: dict[str, Any]) -> None:
        if change["new"] != self.page:
            self.go(int(change["new"]))

    def _enable(self) -> None:
        opened = self.read_result is not None
        self.prev_button.disabled = not opened or self.page <= 1
        self.next_button.disabled = not opened or self.page >= self.total_pages
        self.page_input.disabled = not opened
