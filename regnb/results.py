"""What the public functions return: small objects with typed DataFrames, the spec's JSON shapes,
a one-line repr and HTML for notebooks, plots and exports (`regnb.present`).

Each object carries the dataset names of the catalog of the engine that made it (`names`), so that
a dataset a corpus adds shows by its name; one built from JSON without them shows the package
catalog's names."""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from regnb.documents import cfr
from regnb.documents.passages import PagePassage, best_passage
from regnb.models import DatasetStatus
from regnb.present import html as display
from regnb.present.names import DatasetNames

if TYPE_CHECKING:
    from regnb.present.plots import ResultPlots

__all__ = [
    "FACET_COLUMNS",
    "FACET_OTHER",
    "MATCH_COLUMNS",
    "ContentsResult",
    "DocumentRead",
    "LegacySearchResult",
    "SearchResult",
    "facet_frames",
    "match_records",
    "matches_frame",
]

FACET_COLUMNS = ("value", "documents", "pages")
FACET_OTHER = "(other)"  # the row that sums the values past a facet's size
MATCH_COLUMNS = ("document_id", "dataset", "title", "date", "url", "cfr", "bm25", "pages")

DOCUMENT_COLUMNS = [
    "document_id",
    "dataset",
    "title",
    "date",
    "url",
    "score",
    "matched_pages",
    "cfr",
    "fields",
]
PAGE_COLUMNS = ["document_id", "page_num", "score", "text", "passage"]
STATUS_COLUMNS = ["dataset", *DatasetStatus.wire_keys()]
LEGACY_COLUMNS = [
    "id",
    "doc_id",
    "dataset",
    "page_num",
    "score",
    "name",
    "url",
    "company",
    "year_decision",
    "text",
    "highlight",
]
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TITLE_CHARS = 60


def _typed(frame: pd.DataFrame, types: dict[str, str]) -> pd.DataFrame:
    """The frame with the named columns cast: `date` parses ISO dates, the rest via astype."""
    for name, kind in types.items():
        if name not in frame:
            continue
        if kind == "date":
            frame[name] = _dates(frame[name])
        else:
            frame[name] = frame[name].astype(kind)  # type: ignore[call-overload]  # any dtype name
    return frame


def _dates(values: pd.Series) -> pd.Series:
    """ISO date strings as datetime64; anything else (None, a bare year) as NaT."""
    text = values.where(values.map(lambda v: isinstance(v, str) and bool(ISO_DAY.match(v))))
    days = pd.to_datetime(text.astype(object), format="%Y-%m-%d", errors="coerce")
    return days.astype("datetime64[ns]")  # one unit whatever pandas infers from the values


def field_dtype(values: pd.Series) -> pd.Series:
    """A column of field values typed by what it holds: ISO dates, booleans, integers, numbers
    and strings get their dtypes; lists and mixed values stay objects."""
    present = [v for v in values if v is not None and v is not pd.NA]
    kinds = {type(v) for v in present}
    if not present or kinds == {str}:
        if present and all(ISO_DAY.match(v) for v in present):
            return _dates(values)
        return values.astype("string")
    if kinds == {bool}:
        return values.astype("boolean")
    if kinds == {int}:
        return values.astype("Int64")
    if kinds <= {int, float}:
        return values.astype("Float64")
    return values


def expand_fields(frame: pd.DataFrame) -> pd.DataFrame:
    """The `fields` column (dicts) spread into one typed column per field name, in order of
    first appearance; a field named like an existing column (`title`, `url`) is left out."""
    records = [f if isinstance(f, dict) else {} for f in frame["fields"]]
    names = [n for n in dict.fromkeys(k for r in records for k in r) if n not in frame]
    out = frame.drop(columns=["fields"])
    for name in names:
        out[name] = field_dtype(pd.Series([r.get(name) for r in records], dtype=object))
    return out


def facet_frames(counts: dict[str, list[dict[str, Any]]]) -> dict[str, pd.DataFrame]:
    """Facet counts (name: rows of `value`, `documents`, `pages`) as one DataFrame per facet."""
    return {name: _facet_frame(rows) for name, rows in counts.items()}


def _facet_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """One facet's rows; `value` holds strings and None (undated), as objects."""
    return pd.DataFrame(
        {
            "value": pd.Series([r["value"] for r in rows], dtype=object),
            "documents": pd.Series([r["documents"] for r in rows], dtype="int64"),
            "pages": pd.Series([r["pages"] for r in rows], dtype="int64"),
        },
        columns=list(FACET_COLUMNS),
    )


def matches_frame(records: Sequence[dict[str, Any]], fields: Sequence[str] = ()) -> pd.DataFrame:
    """Match rows (the wire form: `MATCH_COLUMNS` and a `fields` object) as a DataFrame: the
    columns of `MATCH_COLUMNS` typed (`date` as datetime64, `cfr` lists), then one column per
    field, `fields` first in their order (every one, even where no row has it), then any other
    field the rows hold."""
    frame = pd.DataFrame(
        [{k: r.get(k) for k in MATCH_COLUMNS} for r in records], columns=list(MATCH_COLUMNS)
    )
    frame = _typed(
        frame,
        {
            "document_id": "string",
            "dataset": "string",
            "title": "string",
            "date": "date",
            "url": "string",
            "bm25": "float64",
            "pages": "int64",
        },
    )
    given = [r.get("fields") or {} for r in records]
    names = [n for n in dict.fromkeys([*fields, *(k for g in given for k in g)]) if n not in frame]
    for name in names:
        frame[name] = field_dtype(pd.Series([g.get(name) for g in given], dtype=object))
    return frame


def _wire(value: Any) -> Any:
    """A DataFrame cell as JSON: missing as None, timestamps as ISO days, numpy as Python."""
    if isinstance(value, list):
        return value
    if pd.isna(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.date().isoformat()
    return value.item() if hasattr(value, "item") else value


def match_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """`matches_frame`'s rows back in the wire form (fields in a `fields` object)."""
    fields = [c for c in frame.columns if c not in MATCH_COLUMNS]
    out = []
    for row in frame.astype(object).itertuples(index=False, name=None):
        values = dict(zip(frame.columns, (_wire(v) for v in row), strict=True))
        out.append(
            {
                **{k: values[k] for k in MATCH_COLUMNS},
                "cfr": list(values["cfr"] or []),
                "fields": {f: values[f] for f in fields},
            }
        )
    return out


@dataclass
class SearchResult:
    """A v3 search: `documents`, `pages` and `statuses` as DataFrames; `to_dict()` is the envelope.

    `keywords` and `query` are the search's own, kept to find each page's best passage; they are
    not part of the envelope.
    """

    results: list[dict[str, Any]]
    dataset_statuses: dict[str, dict[str, Any]]
    total: int
    next_offset: int | None
    ranking: str
    timings: dict[str, float] = field(default_factory=dict)
    keywords: list[str] = field(default_factory=list)
    query: str | None = None
    names: DatasetNames | None = field(default=None, compare=False, repr=False)
    """Display names of the datasets, from the catalog of the engine that made the result."""
    facet_counts: dict[str, list[dict[str, Any]]] | None = None
    """Counts over every full match, per facet asked for (an extension; None: none asked)."""
    notices: list[str] = field(default_factory=list)
    """What the search did not do as written: a prefix expansion cut, a field condition that
    some datasets lack, a phrase of stop words ignored (query syntax only)."""
    syntax: str = "plain"
    """How the keyword items were read; with `query`, the envelope carries any `notices`."""

    def to_dict(self) -> dict[str, Any]:
        """The spec's search response envelope, JSON-ready (with `facets` where asked for)."""
        out = {
            "results": copy.deepcopy(self.results),
            "datasets": copy.deepcopy(self.dataset_statuses),
            "total": self.total,
            "next_offset": self.next_offset,
            "ranking": self.ranking,
        }
        if self.facet_counts is not None:
            out["facets"] = copy.deepcopy(self.facet_counts)
        if self.syntax == "query" and self.notices:
            out["notices"] = list(self.notices)
        return out

    @property
    def facets(self) -> dict[str, pd.DataFrame]:
        """Each facet asked for as a DataFrame (`value`, `documents`, `pages`); {} if none."""
        return facet_frames(self.facet_counts or {})

    @classmethod
    def from_dict(
        cls,
        body: dict[str, Any],
        *,
        keywords: Sequence[str] | None = None,
        query: str | None = None,
        names: DatasetNames | None = None,
        syntax: str = "plain",
    ) -> SearchResult:
        """The result a search response envelope describes; a client that sent the search
        passes its `keywords`, `query` and `syntax` so that passages show the matched words,
        and its catalog's `names`."""
        return cls(
            results=copy.deepcopy(body["results"]),
            dataset_statuses=copy.deepcopy(body["datasets"]),
            total=int(body["total"]),
            next_offset=body.get("next_offset"),
            ranking=body["ranking"],
            keywords=list(keywords or []),
            query=query,
            names=names,
            facet_counts=copy.deepcopy(body["facets"]) if "facets" in body else None,
            notices=list(body.get("notices") or []),
            syntax=syntax,
        )

    @property
    def offset(self) -> int:
        """Where this slice starts in the ranked list (from `next_offset` and `total`)."""
        if self.next_offset is not None:
            return max(self.next_offset - len(self.results), 0)
        return max(self.total - len(self.results), 0)

    @property
    def datasets(self) -> list[str]:
        """The datasets the search covered (requested or searched), in the envelope's order."""
        listed = list(self.dataset_statuses)
        return listed or list(dict.fromkeys(r["dataset"] for r in self.results))

    def _frame(self, results: list[dict[str, Any]], wide: bool) -> pd.DataFrame:
        rows = [
            {
                **{k: r.get(k) for k in DOCUMENT_COLUMNS},
                "score": r["pages"][0]["score"] if r.get("pages") else None,
                "cfr": cited_sections(r),
            }
            for r in results
        ]
        frame = pd.DataFrame(rows, columns=DOCUMENT_COLUMNS)
        frame = _typed(
            frame,
            {
                "document_id": "string",
                "dataset": "string",
                "title": "string",
                "date": "date",
                "url": "string",
                "score": "float64",
                "matched_pages": "Int64",
            },
        )
        return expand_fields(frame) if wide else frame

    @property
    def documents(self) -> pd.DataFrame:
        """One row per document, best first; `score` is its best page's; `cfr` the CFR sections
        its returned pages cite (`regnb.documents.cfr.sections`). A search of one dataset
        has that dataset's fields as columns; over several, a `fields` column of dicts (their
        fields differ: `documents_wide` or `documents_of(id)` spreads them)."""
        return self._frame(self.results, wide=len(self.datasets) == 1)

    @property
    def documents_wide(self) -> pd.DataFrame:
        """`documents` with every dataset's fields as columns (empty where a dataset lacks one)."""
        return self._frame(self.results, wide=True)

    def documents_of(self, dataset: str) -> pd.DataFrame:
        """One dataset's documents, its fields as columns."""
        if dataset not in self.datasets:
            raise KeyError(f"{dataset!r} is not in this search (datasets: {self.datasets})")
        return self._frame([r for r in self.results if r["dataset"] == dataset], wide=True)

    def passage(self, text: str) -> PagePassage:
        """The best passage of a page's text for this search's keywords and query."""
        return best_passage(text, self.keywords, self.query)

    @property
    def pages(self) -> pd.DataFrame:
        """One row per returned page, with its best passage."""
        rows = [
            {
                "document_id": r["document_id"],
                **p,
                "passage": self.passage(p.get("text") or "").text,
            }
            for r in self.results
            for p in r["pages"]
        ]
        frame = pd.DataFrame(rows, columns=PAGE_COLUMNS)
        types = {"document_id": "string", "page_num": "Int64", "score": "float64"}
        return _typed(frame, {**types, "text": "string", "passage": "string"})

    @property
    def statuses(self) -> pd.DataFrame:
        """One row per dataset: status, matches, pages, loosened, reason (why it was not searched)."""
        rows = [
            {"dataset": ds, **s, "reason": display.status_reason(s)}
            for ds, s in self.dataset_statuses.items()
        ]
        frame = pd.DataFrame(rows, columns=STATUS_COLUMNS)
        frame = _typed(
            frame,
            {
                "dataset": "string",
                "status": "string",
                "matches": "Int64",
                "pages": "Int64",
                "loosened": "boolean",
                "reason": "string",
            },
        )
        frame["loosened"] = frame["loosened"].fillna(False)
        return frame

    @property
    def plot(self) -> ResultPlots:
        """`res.plot.timeline()`, `res.plot.datasets()` (matplotlib figures)."""
        from regnb.present.plots import ResultPlots

        return ResultPlots(self)

    def to_excel(self, path: str | Path) -> Path:
        """A workbook with a Documents sheet and a Pages sheet (best passages and text)."""
        from regnb.present.export import search_to_excel

        return search_to_excel(self, path)

    def to_csv(self, path: str | Path) -> Path:
        """The documents, every dataset's fields as columns."""
        from regnb.present.export import search_to_csv

        return search_to_csv(self, path)

    def to_parquet(self, path: str | Path, *, pages_path: str | Path | None = None) -> Path:
        """The documents as typed Parquet; the pages too, in `pages_path`, when given."""
        from regnb.present.export import search_to_parquet

        return search_to_parquet(self, path, pages_path=pages_path)

    def __len__(self) -> int:
        return len(self.results)

    def __repr__(self) -> str:
        counts = Counter(s.get("status") for s in self.dataset_statuses.values())
        order: dict[object, int] = {s: i for i, s in enumerate(display.STATUS_ORDER)}
        told = ", ".join(
            f"{n} {s}" for s, n in sorted(counts.items(), key=lambda c: order.get(c[0], 99))
        )
        shown = f", {len(self.results)} shown" if len(self.results) < self.total else ""
        notices = f", {_count_notices(len(self.notices))}" if self.notices else ""
        return (
            f"<SearchResult: {self.total} documents{shown} ({self.ranking}), "
            f"{len(self.dataset_statuses)} datasets: {told or 'none'}{notices}>"
        )

    def _repr_html_(self) -> str:
        return display.search_html(self)


def cited_sections(result: dict[str, Any]) -> list[str]:
    """The CFR sections a result's returned pages cite (`regnb.documents.cfr.sections`), in page order,
    each once: read from the texts, so a local and a remote result agree."""
    pages = result.get("pages") or []
    return list(dict.fromkeys(s for p in pages for s in cfr.sections(p.get("text") or "")))


def _page_span(nums: list[Any], total: object) -> str:
    return f"pages {nums[0]}–{nums[-1]} of {total}" if nums else f"no pages of {total}"


@dataclass
class DocumentRead:
    """A v3 document read: `pages` as a DataFrame; `to_dict()` is the spec's response."""

    document_id: str
    dataset: str
    title: str
    url: str | None
    total_pages: int
    page_list: list[dict[str, Any]]
    next_page_from: int | None
    names: DatasetNames | None = field(default=None, compare=False, repr=False)
    sections: Mapping[int, str] = field(default_factory=dict, compare=False, repr=False)
    """A drug label's section of each page read (`regnb.documents.labels`), by page number; an
    extension: not in the spec's response."""

    @property
    def pages(self) -> pd.DataFrame:
        """`page_num`, `text`, and a label's `section` of each page."""
        frame = pd.DataFrame(self.page_list, columns=["page_num", "text"])
        if self.sections:
            frame["section"] = [self.sections.get(int(n)) for n in frame["page_num"]]
            return _typed(frame, {"page_num": "Int64", "text": "string", "section": "string"})
        return _typed(frame, {"page_num": "Int64", "text": "string"})

    def page_label(self, page_num: int) -> str:
        """ "page 3", or "page 3 (boxed warning)" in a label."""
        section = self.sections.get(page_num)
        return f"page {page_num}" + (f" ({section})" if section else "")

    @property
    def text(self) -> str:
        """The pages returned, joined by blank lines."""
        return "\n\n".join(p["text"] for p in self.page_list)

    @classmethod
    def from_dict(cls, body: dict[str, Any], *, names: DatasetNames | None = None) -> DocumentRead:
        """The read a document read response describes."""
        return cls(
            document_id=body["document_id"],
            dataset=body["dataset"],
            title=body["title"],
            url=body.get("url"),
            total_pages=int(body["total_pages"]),
            page_list=copy.deepcopy(body["pages"]),
            next_page_from=body.get("next_page_from"),
            names=names,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "document_id": self.document_id,
            "dataset": self.dataset,
            "title": self.title,
            "url": self.url,
            "total_pages": self.total_pages,
            "pages": copy.deepcopy(self.page_list),
            "next_page_from": self.next_page_from,
        }

    def __repr__(self) -> str:
        nums = [p["page_num"] for p in self.page_list]
        title = display.short(self.title, TITLE_CHARS)
        return f"<DocumentRead: {title!r} ({self.dataset}), {_page_span(nums, self.total_pages)}>"

    def _repr_html_(self) -> str:
        return display.read_html(self)


def _count_notices(n: int) -> str:
    return f"{n} notice" + ("" if n == 1 else "s") + " (.notices)"


@dataclass
class LegacySearchResult:
    """The legacy page-level search: `results` (DataFrame) and `total`."""

    rows: list[dict[str, Any]]
    total: int
    names: DatasetNames | None = field(default=None, compare=False, repr=False)

    @property
    def results(self) -> pd.DataFrame:
        extra = [k for r in self.rows for k in r if k not in LEGACY_COLUMNS]
        frame = pd.DataFrame(self.rows, columns=[*LEGACY_COLUMNS, *dict.fromkeys(extra)])
        strings = ["id", "doc_id", "dataset", "name", "url", "company", "text", "highlight"]
        return _typed(
            frame,
            {
                **dict.fromkeys(strings, "string"),
                "page_num": "Int64",
                "score": "float64",
                "year_decision": "Int64",
            },
        )

    def to_dict(self) -> dict[str, Any]:
        return {"results": copy.deepcopy(self.rows), "total": self.total}

    @classmethod
    def from_dict(
        cls, body: dict[str, Any], *, names: DatasetNames | None = None
    ) -> LegacySearchResult:
        return cls(copy.deepcopy(body["results"]), int(body["total"]), names)

    def __repr__(self) -> str:
        return f"<LegacySearchResult: {len(self.rows)} of {self.total} pages>"

    def _repr_html_(self) -> str:
        return display.legacy_html(self)


@dataclass
class ContentsResult:
    """The legacy contents response: `pages` (0-based) and `total_pages`."""

    body: dict[str, Any]
    names: DatasetNames | None = field(default=None, compare=False, repr=False)

    @property
    def pages(self) -> pd.DataFrame:
        frame = pd.DataFrame(self.body["pages"], columns=["page_num", "text"])
        return _typed(frame, {"page_num": "Int64", "text": "string"})

    def to_dict(self) -> dict[str, Any]:
        return copy.deepcopy(self.body)

    @classmethod
    def from_dict(
        cls, body: dict[str, Any], *, names: DatasetNames | None = None
    ) -> ContentsResult:
        return cls(copy.deepcopy(body), names)

    def __repr__(self) -> str:
        nums = [p.get("page_num") for p in self.body.get("pages") or []]
        name = display.short(self.body.get("name") or "", TITLE_CHARS)
        span = _page_span(nums, self.body.get("total_pages"))
        return f"<ContentsResult: {name!r} ({self.body.get('dataset')}), {span}>"

    def _repr_html_(self) -> str:
        return display.contents_html(self)
