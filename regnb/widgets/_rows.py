"""Search results as widgets: the per-dataset status line, and one row per document that unfolds
to its best pages (matched words marked, by regnb's own passage finder), each with a button that
opens the page in the document viewer, and a box that selects the row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from regnb.present.html import (
    STATUS_ORDER,
    Html,
    badge,
    escape,
    link,
    muted,
    passage_html,
    status_badge,
    status_reason,
)
from regnb.widgets._common import shown

if TYPE_CHECKING:
    from regnb.results import SearchResult

__all__ = ["DocumentRow", "ResultRows", "fixed", "status_html", "summary_html"]

OnRead = Callable[[dict[str, Any], int, str | None], None]
"""Called with the document (a search result item), a page number and the passage to mark."""
OnChange = Callable[[], None]
"""Called after a row unfolds or folds, or is selected or unselected."""


def fixed(width: str) -> w.Layout:
    """A button's layout: `width` wide, and never narrowed by the text beside it in a row (a
    flex item shrinks by default, which cut "p. 4" to "p…")."""
    return w.Layout(width=width, min_width=width, flex="0 0 auto")


def _count(n: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith("ch") else "s")
    return f"{n:,} {noun if n == 1 else plural}"


def status_html(statuses: dict[str, dict[str, Any]], names: dict[str, str]) -> Html:
    """One chip per dataset, `ok` first: matches and pages ranked, or why it was not searched."""
    order: dict[object, int] = {s: i for i, s in enumerate(STATUS_ORDER)}
    chips = []
    for ds, st in sorted(statuses.items(), key=lambda i: order.get(i[1].get("status"), 99)):
        status = str(st.get("status"))
        if status == "ok":
            found = "loosened" if st.get("loosened") else _count(st.get("matches") or 0, "match")
            detail = f"{found}, {_count(st.get('pages') or 0, 'page')}"
        else:
            detail = status_reason(st) or ""
        text = names.get(ds, ds) + (f": {detail}" if detail else "")
        chips.append(
            f'<span style="white-space:nowrap">{status_badge(status)} {escape(text)}</span>'
        )
    return Html('<div style="line-height:1.9">' + " &nbsp; ".join(chips) + "</div>")


def summary_html(doc: dict[str, Any], rank: int, names: dict[str, str]) -> Html:
    """Title (linked to its source), dataset, date, score and matched pages of one document."""
    pages = doc.get("pages") or []
    title = link(doc.get("title") or "(untitled)", doc.get("url"))
    meta = [
        badge(names.get(doc.get("dataset", ""), doc.get("dataset", "")), "info"),
        escape(doc.get("date") or "no date"),
        f"score {pages[0]['score']:.3f}" if pages else "",
        _count(int(doc.get("matched_pages") or len(pages)), "matched page"),
        muted(doc.get("document_id")),
    ]
    line = " · ".join(m for m in meta if m)
    return Html(f"<div>{muted(f'{rank}.')} <b>{title}</b></div><div>{line}</div>")


class DocumentRow(w.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """A document's summary; its toggle shows the best pages (built when first shown)."""

    def __init__(
        self,
        result: SearchResult,
        doc: dict[str, Any],
        rank: int,
        names: dict[str, str],
        on_read: OnRead,
        on_change: OnChange | None = None,
    ) -> None:
        self.result, self.doc, self.on_read = result, doc, on_read
        self.on_change = on_change
        self.pick = w.Checkbox(value=False, indent=False, description="", tooltip="select")
        self.pick.layout = fixed("1.6em")
        self.pick.observe(lambda _: self._changed(), names="value")
        self.toggle = w.Button(icon="chevron-right", tooltip="show its best pages")
        self.toggle.layout = fixed("2.6em")
        self.toggle.on_click(lambda _: self.flip())
        self.summary = w.HTML(summary_html(doc, rank, names))
        self.pages = w.VBox(layout=w.Layout(margin="0 0 0 3em"))
        shown(self.pages, False)
        head = w.HBox([self.pick, self.toggle, self.summary])
        super().__init__([head, self.pages], layout=w.Layout(border_bottom="1px solid #ddd"))

    @property
    def expanded(self) -> bool:
        return bool(self.pages.layout.display != "none")

    @property
    def selected(self) -> bool:
        return bool(self.pick.value)

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def flip(self) -> None:
        """Show or hide the best pages."""
        if not self.pages.children:
            self.pages.children = tuple(self._page(p) for p in self.doc.get("pages") or [])
        opening = not self.expanded
        shown(self.pages, opening)
        self.toggle.icon = "chevron-down" if opening else "chevron-right"
        self._changed()

    def _page(self, page: dict[str, Any]) -> w.HBox:
        passage = self.result.passage(page.get("text") or "")
        num = int(page["page_num"])
        button = w.Button(description=f"p. {num}", tooltip="read this page, passage marked")
        button.layout = fixed(f"{max(5.5, 0.7 * len(button.description) + 2.5):g}em")
        button.on_click(lambda _: self.on_read(self.doc, num, passage.text))
        return w.HBox([button, w.HTML(passage_html(passage))])


class ResultRows(w.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """The rows of the documents shown so far, and a widget (the reader) placed under one;
    `on_change` is called when a row unfolds, folds or is selected."""

    def __init__(self, on_read: OnRead, on_change: OnChange | None = None) -> None:
        self.on_read = on_read
        self.on_change = on_change
        self.rows: list[DocumentRow] = []
        self.placed: tuple[w.Widget, str] | None = None  # a widget and the document it follows
        super().__init__([])

    def show(self, result: SearchResult, names: dict[str, str], *, keep: int = 0) -> None:
        """Rows for `result.results`, keeping the first `keep` rows already drawn (and the
        widget placed under one of them)."""
        self.rows = self.rows[:keep]
        if not keep:
            self.placed = None
        for i, doc in enumerate(result.results[keep:], start=keep + 1):
            self.rows.append(DocumentRow(result, doc, i, names, self.on_read, self.on_change))
        self._arrange()

    def selected_ids(self) -> list[str]:
        """The document ids of the selected rows, in the order shown."""
        return [str(row.doc["document_id"]) for row in self.rows if row.selected]

    def select(self, document_ids: Sequence[str], value: bool = True) -> None:
        """Tick (or untick) the rows of `document_ids`."""
        wanted = set(document_ids)
        for row in self.rows:
            if row.doc.get("document_id") in wanted:
                row.pick.value = value

    def clear(self) -> None:
        """No rows (after a failed search)."""
        self.rows, self.placed = [], None
        self._arrange()

    def place(self, widget: w.Widget, document_id: str) -> None:
        """Show `widget` just under the row of `document_id`, where the user clicked."""
        self.placed = (widget, document_id)
        self._arrange()

    def _arrange(self) -> None:
        children: list[w.Widget] = []
        for row in self.rows:
            children.append(row)
            if self.placed is not None and row.doc.get("document_id") == self.placed[1]:
                children.append(self.placed[0])
        self.children = tuple(children)
