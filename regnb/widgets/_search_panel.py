"""SearchPanel: a complete search over any engine: keyword items, a question, datasets from the
catalog, a date range and each dataset's own filters; results one row per document with their
best pages, the per-dataset statuses, "More" through `next_offset`, and a reader for a page.
Beside the results, counts over every match (facets: click a value to narrow the search to it,
brush the year histogram); a sort toggle; a "Code" button that shows the search as Python; "CSV"
and "Excel" buttons that offer the documents shown as a file to download.

An engine error is shown beside the input its `field` names. `panel.result` is the last result
(every page loaded by "More", documents once each) and `panel.selected` the rows ticked, as a
DataFrame, so a user can go on in code.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from typing import TYPE_CHECKING, Any

import ipywidgets as w
import pandas as pd

from regnb.errors import RegnbError
from regnb.present.export import search_csv, search_workbook
from regnb.present.html import Html, escape, muted
from regnb.widgets._code import SearchState, search_code
from regnb.widgets._common import ErrorSlots, WidgetView, busy, dataset_names, resolve_engine, shown
from regnb.widgets._facets import FACET_SIZE, FacetBox, Narrowing, facet_names, narrowing
from regnb.widgets._filters import FilterForm
from regnb.widgets._inputs import DatasetPicker, KeywordItems
from regnb.widgets._rows import ResultRows, status_html
from regnb.widgets._turns import download_link
from regnb.widgets._viewer import DocumentViewer

if TYPE_CHECKING:
    from collections.abc import Sequence

    from regnb.interface import EngineAPI
    from regnb.results import SearchResult

__all__ = ["SearchPanel"]

NO_FILTERS = "Tick datasets above to filter them by their own fields."
SECTIONS = ("Datasets", "Dates and filters")
SORTS = (("relevance", "relevance"), ("newest", "date"), ("oldest", "date_asc"))
NO_FACETS = "Counts are not offered by this engine ({})."
DOWNLOADS = {"csv": search_csv, "xlsx": search_workbook}
NOT_FILENAME = re.compile(r"[^a-z0-9]+")


def _iso(value: dt.date | None) -> str | None:
    return value.isoformat() if isinstance(value, dt.date) else None


def _heading(text: str) -> w.HTML:
    return w.HTML(f"<b>{escape(text)}</b>")


class SearchPanel(WidgetView):
    """Search an engine (the default one over the demo corpus unless given) from a notebook."""

    def __init__(
        self,
        engine: EngineAPI | None = None,
        *,
        keywords: Sequence[str] | str = ("",),
        query: str = "",
        limit: int = 20,
    ) -> None:
        self.engine = resolve_engine(engine)
        self.limit = limit
        self.result: SearchResult | None = None
        self.sent: dict[str, Any] | None = None  # the search that `result` answers
        self.counted: tuple[dict[str, Any], ...] = ()  # the facets `result` holds
        self.offers_facets = True  # False once the engine said it has none
        catalog = self.engine.datasets()
        self.catalog = {d.id: d for d in catalog}
        self.names = dataset_names(self.engine)
        self.errors = ErrorSlots()
        self.keywords = KeywordItems(self.errors, keywords)
        self.question = w.Textarea(
            value=query,
            placeholder="A plain-language question: it ranks the matching pages (optional)",
            layout=w.Layout(width="40em", height="4em"),
        )
        self.picker = DatasetPicker(catalog, self.engine.plan, self.errors)
        self.date_from = w.DatePicker(description="from", value=None)
        self.date_to = w.DatePicker(description="to", value=None)
        self.filter_forms = {
            d.id: FilterForm(d, self.errors)
            for d in catalog
            if self.picker.reasons[d.id] is None and d.filters
        }
        self.filter_box = w.VBox()
        self.search_button = w.Button(description="Search", icon="search", button_style="primary")
        self.more_button = w.Button(description="More", icon="angle-double-down")
        self.sort = w.ToggleButtons(options=SORTS, value="relevance", description="sort")
        self.code_button = w.Button(
            description="Code", icon="code", tooltip="this search as Python"
        )
        self.code = w.HTML("")
        self.facets = FacetBox(self.pick, self.brush, self.names)
        self.summary = w.HTML("")
        self.csv_button = w.Button(
            description="CSV", icon="download", tooltip="the documents shown, as a CSV file"
        )
        self.excel_button = w.Button(
            description="Excel", icon="download", tooltip="the documents shown, as a workbook"
        )
        self.download = w.HTML("")
        self.downloads = w.HBox([self.csv_button, self.excel_button, self.download])
        self.status = w.HTML("")
        self.rows = ResultRows(self._read, self.changed)
        self.viewer = DocumentViewer(self.engine)
        self.viewer.on_change(self.changed)
        self.reader = w.VBox(
            [_heading("Reading"), self.viewer.widget],
            layout=w.Layout(margin="4px 0 8px 3em", border_left="3px solid #1565c0"),
        )
        self.sections = w.Accordion([self.picker, self._dates_and_filters()], titles=SECTIONS)
        self.search_button.on_click(lambda _: self.search())
        self.more_button.on_click(lambda _: self.more())
        self.code_button.on_click(lambda _: self.show_code(self.code.layout.display == "none"))
        self.csv_button.on_click(lambda _: self.offer("csv"))
        self.excel_button.on_click(lambda _: self.offer("xlsx"))
        self.sort.observe(lambda _: self._resort(), names="value")
        for box in self.picker.boxes.values():
            box.observe(lambda _: self._show_filters(), names="value")
        shown(self.more_button, False)
        shown(self.reader, False)
        shown(self.code, False)
        shown(self.downloads, False)
        self._show_filters()
        self.widget = w.VBox(self._layout())

    def _dates_and_filters(self) -> w.VBox:
        dates = w.HBox(
            [
                w.VBox([self.date_from, self.errors.slot("date_from")]),
                w.VBox([self.date_to, self.errors.slot("date_to")]),
            ]
        )
        return w.VBox([_heading("Date range (each dataset's own date)"), dates, self.filter_box])

    def _layout(self) -> list[w.Widget]:
        return [
            _heading("Keywords"),
            self.keywords,
            _heading("Question"),
            w.VBox([self.question, self.errors.slot("query")]),
            self.sections,
            w.HBox([self.search_button, self.sort, self.code_button, self.errors.general]),
            self.code,
            w.HBox([self.summary, self.downloads], layout=w.Layout(align_items="center")),
            self.status,
            w.HBox(
                [
                    w.VBox(  # the reader opens among the rows, under the result it reads
                        [self.rows, self.more_button], layout=w.Layout(flex="1 1 auto")
                    ),
                    self.facets,
                ]
            ),
        ]

    def _show_filters(self) -> None:
        forms = [self.filter_forms[ds] for ds in self.picker.selected() if ds in self.filter_forms]
        self.filter_box.children = tuple(forms) or (w.HTML(muted(NO_FILTERS)),)

    def request(self) -> dict[str, Any]:
        """The search the inputs describe, as keyword arguments of `engine.search`."""
        selected = self.picker.selected()
        forms = {ds: self.filter_forms[ds].value() for ds in selected if ds in self.filter_forms}
        filters = {ds: values for ds, values in forms.items() if values}
        return {
            "keywords": self.keywords.values(),
            "query": self.question.value.strip() or None,
            "datasets": selected or None,
            "filters": filters or None,
            "date_from": _iso(self.date_from.value),
            "date_to": _iso(self.date_to.value),
        }

    def facet_specs(self, request: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """The facets a search shows: those of its datasets (`facet_names`), `FACET_SIZE`
        values each; none once the engine said it has none."""
        if not self.offers_facets:
            return ()
        chosen = [self.catalog[ds] for ds in request["datasets"] or ()]
        return tuple({"name": n, "size": FACET_SIZE} for n in facet_names(chosen))

    def state(self) -> SearchState:
        """What is on screen: the search that the result answers, else the inputs'."""
        request = self.sent if self.sent is not None else self.request()
        facets = self.counted if self.sent is not None else self.facet_specs(request)
        return SearchState.of(request, sort=self.sort.value, limit=self.limit, facets=facets)

    def show_code(self, visible: bool = True) -> str:
        """Show (or hide) the code of what is on screen; returns the code."""
        code = search_code(self.state())
        self.code.value = f'<pre style="user-select:all;margin:4px 0">{escape(code)}</pre>'
        shown(self.code, visible)
        self.changed()
        return code

    @property
    def view(self) -> pd.DataFrame:
        """The documents shown, one row each in the order shown (`result.documents`)."""
        return self.result.documents if self.result is not None else pd.DataFrame()

    @property
    def selected(self) -> pd.DataFrame:
        """The documents whose rows are ticked, in the order shown (rows of `view`)."""
        ids = self.rows.selected_ids()
        view = self.view
        if not ids:
            return view.iloc[0:0]
        return view[view["document_id"].isin(ids)].reset_index(drop=True)

    def filename(self, kind: str) -> str:
        """`search-media-fill.csv`: the download's name, from the search's first keyword item."""
        words = (self.sent or {}).get("keywords") or [""]
        stem = NOT_FILENAME.sub("-", str(words[0]).lower()).strip("-")[:40].strip("-")
        return f"search-{stem}.{kind}" if stem else f"search.{kind}"

    def export(self, kind: str) -> tuple[str, bytes]:
        """The documents shown as a file: `kind` is `csv` (the documents, fields as columns) or
        `xlsx` (Documents and Pages sheets), as `result.to_csv` and `result.to_excel` write."""
        if kind not in DOWNLOADS:
            raise ValueError(f"kind must be one of {', '.join(DOWNLOADS)}, got {kind!r}")
        if self.result is None:
            raise ValueError("nothing to export: run a search first")
        return self.filename(kind), DOWNLOADS[kind](self.result)

    def offer(self, kind: str) -> str:
        """Offer the documents shown as a file (what "CSV" and "Excel" do): a link that saves
        it, a data: URI that needs no server. Returns the file's name."""
        filename, data = self.export(kind)
        self.download.value = download_link(filename, data)
        self.changed()
        return filename

    def search(self) -> SearchResult | None:
        """Run the search the inputs describe (what the Search button does); None after an
        error, which is shown beside its field."""
        request = self.request()
        self.errors.clear()
        with busy(self.search_button, "Searching…"):
            try:
                result, counted = self._run(request)
            except RegnbError as error:
                self._clear()
                self._fail(error)
                self.changed()
                return None
        self.sent, self.counted = request, counted
        self.result = self._with_words(result, request)
        self._draw(self.result, keep=0)
        self.changed()
        return self.result

    def _sorting(self) -> dict[str, Any]:
        """`sort` as the engine takes it; left out at relevance, the spec's own order."""
        return {} if self.sort.value == "relevance" else {"sort": self.sort.value}

    def _run(self, request: dict[str, Any]) -> tuple[SearchResult, tuple[dict[str, Any], ...]]:
        """The search with its facets; without them when the engine has none (an older server:
        FeatureNotOffered, an engine without the argument: its `invalid_request` on `facets`),
        which the facets box then says."""
        specs = self.facet_specs(request)
        options = {**self._sorting(), "limit": self.limit}
        if specs:
            try:
                return self.engine.search(**request, **options, facets=list(specs)), specs
            except RegnbError as error:
                if not (error.field or "").startswith("facets"):
                    raise
                self.offers_facets = False
                self.facets.unavailable(NO_FACETS.format(error.message))
        return self.engine.search(**request, **options), ()

    def _resort(self) -> None:
        """The sort toggle reruns the search on screen, if there is one."""
        if self.sent is not None:
            self.search()

    def pick(self, name: str, value: Any) -> SearchResult | None:
        """Narrow the search to facet `name` at `value` (what clicking a value does) and rerun."""
        chosen = [self.catalog[ds] for ds in self.picker.selected()]
        self._narrow(narrowing(name, value, chosen))
        return self.search()

    def brush(self, first: int, last: int) -> SearchResult | None:
        """Limit the dates to years `first`..`last` (what the year slider does) and rerun."""
        self._narrow(Narrowing(date_from=f"{first}-01-01", date_to=f"{last}-12-31"))
        return self.search()

    def _narrow(self, change: Narrowing) -> None:
        """Set the inputs as `change` says."""
        if change.datasets is not None:
            self.picker.select(change.datasets)
        if change.date_from is not None:
            self.date_from.value = dt.date.fromisoformat(change.date_from)
        if change.date_to is not None:
            self.date_to.value = dt.date.fromisoformat(change.date_to)
        for ds, values in change.filters.items():
            for name, value in values.items():
                self.filter_forms[ds].set(name, value)
        if change.term is not None:
            for item in self.keywords.items or []:
                text = item.text.value.strip()
                if text and change.term not in text.split():
                    item.text.value = f"{text} {change.term}"

    def more(self) -> SearchResult | None:
        """Load the next page of documents (what "More" does); documents already shown are not
        repeated. Returns the combined result, also in `result`."""
        if self.result is None or self.sent is None or self.result.next_offset is None:
            return None
        self.errors.clear()
        with busy(self.more_button, "Loading…"):
            try:
                page = self.engine.search(
                    **self.sent,
                    **self._sorting(),
                    limit=self.limit,
                    offset=self.result.next_offset,
                )
            except RegnbError as error:
                self._fail(error)
                self.changed()
                return None
        seen = {r["document_id"] for r in self.result.results}
        fresh = [r for r in page.results if r["document_id"] not in seen]
        shown_before = len(self.result.results)
        combined = dataclasses.replace(
            page,
            results=[*self.result.results, *fresh],
            facet_counts=self.result.facet_counts,  # counted over every match already
        )
        self.result = self._with_words(combined, self.sent)
        self._draw(self.result, keep=shown_before)
        self.changed()
        return self.result

    @staticmethod
    def _with_words(result: SearchResult, request: dict[str, Any]) -> SearchResult:
        """The result with the search's keywords and query, which its best passages need (an
        engine that does not keep them on the result still gets passages that show them)."""
        if result.keywords or result.query:
            return result
        words = dict(keywords=list(request["keywords"]), query=request["query"])
        return dataclasses.replace(result, **words)

    def _clear(self) -> None:
        """Nothing of the last search left on screen (a failed search has no results)."""
        self.sent = self.result = None
        self.counted = ()
        self.rows.clear()
        if self.offers_facets:
            self.facets.clear()
        self.summary.value = self.status.value = self.download.value = ""
        shown(self.more_button, False)
        shown(self.reader, False)
        shown(self.downloads, False)

    def _fail(self, error: RegnbError) -> None:
        path = self.errors.show(error) or ""
        if path.startswith("datasets"):
            self.sections.selected_index = 0
        elif path.startswith(("date_", "filters")):
            self.sections.selected_index = 1

    def _draw(self, result: SearchResult, *, keep: int) -> None:
        self.rows.show(result, self.names, keep=keep)
        self.summary.value = self._summary(result)
        self.status.value = status_html(result.dataset_statuses, self.names)
        self.download.value = ""  # a file of the last view is not this view's
        shown(self.downloads, bool(result.results))
        shown(self.more_button, result.next_offset is not None)
        if result.facet_counts is not None:
            self.facets.show(result.facets, self._brushed())
        if self.code.layout.display != "none":
            self.show_code()

    def _brushed(self) -> tuple[int, int] | None:
        """The years the date range covers, for the slider; None when it has no bounds."""
        first, last = self.date_from.value, self.date_to.value
        if first is None and last is None:
            return None
        return (first.year if first else 0, last.year if last else 9999)

    @staticmethod
    def _summary(result: SearchResult) -> Html:
        n = len(result.results)
        span = f"showing 1–{n}" if n else "none to show"
        return Html(
            f"<b>{result.total:,} documents</b> · {span} · {escape(result.ranking)} ranking"
        )

    def _read(self, doc: dict[str, Any], page: int, passage: str | None) -> None:
        self.rows.place(self.reader, doc["document_id"])
        shown(self.reader, True)
        self.viewer.open(doc["document_id"], page=page, highlight=passage, document=doc)
