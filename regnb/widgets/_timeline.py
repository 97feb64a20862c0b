"""FirmTimeline: a firm's regulatory history as a widget. A name is resolved with the engine's
`firm` (several candidates: a menu to pick one, ambiguity shown, not guessed); the firm's
`timeline` is one row per document, oldest first (date, dataset, title, its key findings, the
CFR sections they cite, its links and repeat marks), each with a button that opens the document
viewer below at the page its citation names, the passage marked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w
import pandas as pd

from regnb.errors import NotFound, RegnbError
from regnb.present.html import Html, badge, escape, link, muted
from regnb.widgets._common import ErrorSlots, WidgetView, dataset_names, resolve_engine
from regnb.widgets._rows import fixed
from regnb.widgets._viewer import DocumentViewer

if TYPE_CHECKING:
    from regnb.interface import EngineAPI

__all__ = ["FirmTimeline"]

FINDINGS_SHOWN = 3  # of a document's key findings, in its row
CANDIDATES = 20  # firms offered for a name


def _date(value: Any) -> str:
    return "no date" if value is None or pd.isna(value) else str(pd.Timestamp(value).date())


def firm_html(firm: Any) -> Html:
    """The firm's name, identifiers and documents per dataset."""
    ids = ", ".join(list(firm["identifiers"])[:6])
    per = ", ".join(f"{ds} {n}" for ds, n in dict(firm["datasets"]).items())
    line = " · ".join(p for p in (escape(ids), muted(per), muted(firm["id"])) if p)
    return Html(
        f"<div style='font-size:1.1em'><b>{escape(firm['name'])}</b></div><div>{line}</div>"
    )


def event_html(event: Any, names: dict[str, str]) -> Html:
    """One document of the timeline: date, dataset, title (linked to its source), its first
    findings with the CFR sections they cite, its links and whether it repeats a finding."""
    meta = [
        escape(_date(event["date"])),
        badge(names.get(event["dataset"], event["dataset"]), "info"),
        badge("repeat finding", "warn") if bool(event["repeat"]) else "",
    ]
    head = " · ".join(m for m in meta if m)
    url = event["url"]
    title = link(event["title"] or "(untitled)", None if pd.isna(url) else url)
    findings = list(event["findings"])
    items = "".join(f"<li>{escape(f)}</li>" for f in findings[:FINDINGS_SHOWN])
    if len(findings) > FINDINGS_SHOWN:
        items += f"<li>{muted(f'and {len(findings) - FINDINGS_SHOWN} more')}</li>"
    cfr = list(event["cfr"])
    cited = f"<div>{muted('cites')} {escape(', '.join(cfr[:6]))}</div>" if cfr else ""
    links = "".join(f"<div>{muted('↳')} {escape(x)}</div>" for x in list(event["links"]))
    body = f"<ul style='margin:2px 0'>{items}</ul>" if items else ""
    return Html(f"<div>{head}</div><div><b>{title}</b></div>{body}{cited}{links}")


class FirmTimeline(WidgetView):
    """A firm's documents across datasets, over `engine` (the default engine unless given):
    `FirmTimeline(eng, "Hospira")`, a firm id, or a row of `eng.firm(...)`. `.timeline` is the
    frame shown, `.viewer` the document viewer its buttons open, `.open_event(i)` opens row i."""

    def __init__(self, engine: EngineAPI | None = None, firm: Any = None) -> None:
        self.engine = resolve_engine(engine)
        self.timeline: pd.DataFrame | None = None
        self.candidates: pd.DataFrame | None = None
        self.errors = ErrorSlots()
        self.query = w.Text(placeholder="a firm's name, FEI or application number")
        self.find_button = w.Button(description="Find", layout=fixed("6em"))
        self.choice = w.Dropdown(options=[], description="firm")
        self.choice.layout.display = "none"
        self.header = w.HTML("")
        self.rows = w.VBox([])
        self.viewer = DocumentViewer(self.engine)
        self.viewer.on_change(self.changed)
        self._names: dict[str, str] | None = None
        self.find_button.on_click(lambda _: self.find(self.query.value))
        self.choice.observe(self._picked, names="value")
        search = w.HBox([self.query, self.find_button])
        self.widget = w.VBox(
            [search, self.choice, self.errors.general, self.header, self.rows, self.viewer.widget]
        )
        if isinstance(firm, str):
            self.query.value = firm
            self.find(firm)
        elif firm is not None:
            self.show(firm)

    @property
    def names(self) -> dict[str, str]:
        if self._names is None:
            self._names = dataset_names(self.engine)
        return self._names

    def find(self, text: str) -> None:
        """The firms `text` may mean: one is shown; several are offered in the menu (the first
        shown), none is said."""
        self.errors.clear()
        try:
            found = self.engine.firm(text, limit=CANDIDATES)
        except RegnbError as exc:
            self.errors.show(exc)
            self.changed()
            return
        self.candidates = found
        if found.empty:
            self.errors.show(NotFound(f"No firm of the corpus matches “{text}”."))
            self.choice.layout.display = "none"
            self.changed()
            return
        options = [
            (f"{r['name']} ({int(r['documents'])} documents)", i) for i, r in found.iterrows()
        ]
        self.choice.layout.display = None if len(found) > 1 else "none"
        self.choice.unobserve(self._picked, names="value")
        self.choice.options = options
        self.choice.value = options[0][1]
        self.choice.observe(self._picked, names="value")
        self.show(found.iloc[0])

    def _picked(self, change: dict[str, Any]) -> None:
        if self.candidates is not None and change["new"] is not None:
            self.show(self.candidates.loc[change["new"]])

    def show(self, firm: Any) -> None:
        """The timeline of `firm` (an id or a row of `firm`'s frame)."""
        self.errors.clear()
        try:
            timeline = self.engine.timeline(firm)
        except RegnbError as exc:
            self.errors.show(exc)
            self.changed()
            return
        self.timeline = timeline
        about = getattr(timeline, "firm", None)
        self.header.value = firm_html(about) if about is not None else ""
        rows = []
        for i, (_, event) in enumerate(timeline.iterrows()):
            button = w.Button(description=f"p. {int(event['page_num'])}", layout=fixed("5em"))
            button.tooltip = "open the page its citation names"
            button.on_click(lambda _, i=i: self.open_event(i))
            rows.append(w.HBox([button, w.HTML(event_html(event, self.names))]))
        self.rows.children = rows
        self.changed()

    def open_event(self, index: int) -> None:
        """Open row `index`'s document in the viewer at its page, its passage marked."""
        if self.timeline is None:
            return
        event = self.timeline.iloc[index]
        self.viewer.open(
            str(event["document_id"]),
            page=int(event["page_num"]),
            highlight=str(event["passage"]) or None,
        )
