"""The facets beside a SearchPanel's results: counts over every match by dataset, year (a
histogram with a range slider to brush), the catalog's small-valued fields and CFR section;
clicking a value narrows the search to it (`narrowing` says how, as a pure function)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from regnb.documents.cfr import query_term
from regnb.present.html import Html, escape, muted
from regnb.request import DATE_KINDS

if TYPE_CHECKING:
    import pandas as pd

    from regnb.catalog import Dataset

__all__ = [
    "FACET_SIZE",
    "SMALL_FIELDS",
    "FacetBox",
    "Narrowing",
    "YearHistogram",
    "cfr_term",
    "facet_names",
    "field_term",
    "narrowing",
]

FACET_SIZE = 50  # values counted per facet: every year of most corpora
SHOWN_VALUES = 8  # values shown as buttons per facet
SMALL_FIELDS = frozenset(
    {
        "company",
        "issuing_office",
        "facility_name",
        "firm_name",
        "applicant",
        "sponsor",
        "recalling_firm",
        "manufacturer",
        "product_code",
        "product_type",
    }
)
"""Catalog fields with few values per corpus (firms, offices, product codes); an enum or
boolean filter's field is small-valued too."""
TITLES = {"dataset": "Dataset", "year": "Year", "month": "Month", "cfr": "CFR section cited"}
BAR_PX = 60
BARE = re.compile(r"^[\w.\-/]+$")


def _small(dataset: Dataset, name: str) -> bool:
    spec = dataset.filters[name]
    return "enum" in spec or spec.get("type") == "boolean" or name in SMALL_FIELDS


def facet_names(datasets: Sequence[Dataset]) -> list[str]:
    """The facets a search of `datasets` shows: dataset, year, the small-valued fields that
    every one of them has as a filter on a field of its own name, and cfr."""
    shared: list[str] | None = None
    for d in datasets:
        names = [
            n
            for n in d.filters
            if n not in DATE_KINDS and d.filter_field(n) == n and n in d.fields and _small(d, n)
        ]
        shared = names if shared is None else [n for n in shared if n in names]
    return ["dataset", "year", *(shared or []), "cfr"]


def cfr_term(value: str) -> str:
    """The `cfr:` term of a facet value: `21 CFR 211.113` → `cfr:211.113`, `21 CFR 820` →
    `cfr:820`, `42 CFR 493.1253` → `cfr:42/493.1253` (`regnb.documents.cfr.query_term`)."""
    return query_term(str(value))


def field_term(name: str, value: object) -> str:
    """`name:value` in the query syntax, the value quoted when it is more than one word."""
    text = str(value)
    if not BARE.match(text):
        text = '"' + text.replace('"', " ").strip() + '"'
    return f"{name}:{text}"


@dataclass(frozen=True)
class Narrowing:
    """How picking a facet value changes the search: datasets, a date range, a filter per
    dataset, or a term added to every keyword item (items are alternatives: each must hold it)."""

    datasets: tuple[str, ...] | None = None
    date_from: str | None = None
    date_to: str | None = None
    filters: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    term: str | None = None


def narrowing(name: str, value: Any, selected: Sequence[Dataset]) -> Narrowing:
    """The narrowing of facet `name` at `value` for a search of `selected` datasets (none: all):
    a field becomes each dataset's filter where every selected one has it, else a term."""
    if name == "dataset":
        return Narrowing(datasets=(str(value),))
    if name in ("year", "month"):
        text = str(value)
        if name == "year":
            return Narrowing(date_from=f"{text}-01-01", date_to=f"{text}-12-31")
        y, m = (int(p) for p in text.split("-")[:2])
        last = (28 if y % 4 else 29) if m == 2 else 30 if m in (4, 6, 9, 11) else 31
        return Narrowing(date_from=f"{y:04d}-{m:02d}-01", date_to=f"{y:04d}-{m:02d}-{last}")
    if name == "cfr":
        return Narrowing(term=cfr_term(value))
    if selected and all(name in d.filters for d in selected):
        return Narrowing(filters={d.id: {name: value} for d in selected})
    return Narrowing(term=field_term(name, value))


def _value_text(value: object) -> str:
    return "(none)" if value is None or value == "" else str(value)


class YearHistogram(w.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """Documents per year as bars, and a range slider under them: moving it (on release)
    calls `on_brush(first_year, last_year)`."""

    def __init__(self, on_brush: Callable[[int, int], object]) -> None:
        self.on_brush = on_brush
        self.bars = w.HTML("")
        self.slider = w.IntRangeSlider(
            description="years", min=0, max=1, value=(0, 1), continuous_update=False
        )
        self.slider.layout.width = "22em"
        self._drawing = False
        self.slider.observe(self._moved, names="value")
        super().__init__([self.bars, self.slider])

    def show(self, counts: pd.DataFrame, brushed: tuple[int, int] | None = None) -> None:
        """Draw `counts` (a year facet); the slider spans its years, at `brushed` if given."""
        years = {int(v): int(n) for v, n in zip(counts["value"], counts["documents"], strict=True)}
        self.bars.value = self._bars(years)
        self._drawing = True
        try:
            if years:
                lo, hi = min(years), max(years)
                if lo > self.slider.max:  # never a minimum above the maximum, even for a moment
                    self.slider.max, self.slider.min = hi, lo
                else:
                    self.slider.min, self.slider.max = lo, hi
                first, last = brushed or (lo, hi)
                self.slider.value = (max(first, lo), min(last, hi))
        finally:
            self._drawing = False
        self.slider.layout.display = None if years else "none"

    @staticmethod
    def _bars(years: dict[int, int]) -> Html:
        if not years:
            return Html(muted("no dated documents"))
        top = max(years.values())
        cells = []
        for year in range(min(years), max(years) + 1):
            n = years.get(year, 0)
            px = max(round(BAR_PX * n / top), 1 if n else 0)
            cells.append(
                f'<div title="{year}: {n} documents" style="display:inline-block;width:8px;'
                f'height:{px}px;background:#1565c0;margin-right:1px"></div>'
            )
        span = f"{min(years)}–{max(years)}"
        chart = f'<div style="display:flex;align-items:flex-end;height:{BAR_PX}px">{"".join(cells)}</div>'
        return Html(chart + muted(span))

    def _moved(self, change: dict[str, Any]) -> None:
        if not self._drawing:
            lo, hi = change["new"]
            self.on_brush(int(lo), int(hi))


class FacetBox(w.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """Each facet's values as buttons (`value · documents`, a dataset by its name in `names`),
    the year as a histogram; a click calls `on_pick(name, value)` with the value itself (a
    dataset's id). `note` says why there are none (an engine without facets)."""

    def __init__(
        self,
        on_pick: Callable[[str, Any], object],
        on_brush: Callable[[int, int], object],
        names: Mapping[str, str] | None = None,
    ) -> None:
        self.on_pick = on_pick
        self.names = dict(names or {})
        self.years = YearHistogram(on_brush)
        self.note = w.HTML("")
        self.sections = w.VBox()
        self.buttons: dict[str, list[w.Button]] = {}
        super().__init__([w.HTML("<b>Counts over every match</b>"), self.note, self.sections])
        self.layout.min_width = "16em"

    def show(self, facets: Mapping[str, pd.DataFrame], brushed: tuple[int, int] | None) -> None:
        """Draw the facets of a result."""
        self.note.value = ""
        self.buttons = {}
        parts: list[w.Widget] = []
        for name, frame in facets.items():
            parts.append(w.HTML(f"<b>{escape(TITLES.get(name, name))}</b>"))
            if name == "year":
                self.years.show(frame, brushed)
                parts.append(self.years)
                continue
            self.buttons[name] = [
                self._button(name, row) for row in frame.head(SHOWN_VALUES).itertuples()
            ]
            parts.extend(self.buttons[name] or [w.HTML(muted("none"))])
        self.sections.children = tuple(parts)

    def _button(self, name: str, row: Any) -> w.Button:
        label = self.names.get(str(row.value), row.value) if name == "dataset" else row.value
        text = f"{_value_text(label)} · {row.documents:,}"
        button = w.Button(
            description=text, tooltip=f"{row.documents:,} documents, {row.pages:,} pages"
        )
        button.layout = w.Layout(width="auto", max_width="22em")
        button.on_click(lambda _: self.on_pick(name, row.value))
        return button

    def unavailable(self, message: str) -> None:
        """No facets: the engine does not offer them (`message` says so)."""
        self.sections.children = ()
        self.note.value = muted(message)

    def clear(self) -> None:
        self.sections.children = ()
        self.note.value = ""
        self.buttons = {}
