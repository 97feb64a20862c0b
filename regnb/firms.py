"""Firms across datasets: the documents about one firm or site, whatever the dataset, in date
order, each with its key findings and a citation.

    eng.firm("Hospira")              candidate entities (`FIRM_COLUMNS`), best match first
    eng.timeline(entity)             a `Timeline` of every document about one (`TIMELINE_COLUMNS`)
    tl.plot()                        its events on a date axis, one row per dataset
    document_events(eng, ids)        the timeline's rows of any documents

An entity groups the documents whose catalog firm field (`FIRM_FIELDS`) names the same firm,
and those tied to it by an FEI number (`regnb._entities`). A document's event reads its first
`EVENT_PAGES` pages as the research agent does (`regnb.agent._structure.parse_document`): its
findings are the headed observations, violations and deficiencies ("Observation 1: ..."), its
`cfr` the sections they cite (else the pages), and the citation (`page_num`, `passage`) is its
first finding's page and text, else its first page's. `repeat` is a 483 observation marked as a
repeat; `links` are left empty here.
"""

from __future__ import annotations

import copy
import datetime as dt
import re
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from regnb import cfr
from regnb.errors import InvalidRequest

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from regnb._store import IndexStore
    from regnb.agent._structure import Unit
    from regnb.engine import Engine

__all__ = [
    "EVENT_PAGES",
    "FIRM_COLUMNS",
    "FIRM_FIELDS",
    "TIMELINE_COLUMNS",
    "Timeline",
    "document_events",
    "entity_id_of",
    "firm_records",
    "firms_frame",
    "store_events",
    "timeline_frame",
    "timeline_records",
]

# The catalog fields that name a document's firm, in every dataset that has them.
FIRM_FIELDS = (
    "company",
    "firm_name",
    "recalling_firm",
    "applicant",
    "sponsor",
    "facility_name",
    "manufacturer",
)
FIRM_COLUMNS = ("id", "name", "variants", "identifiers", "documents", "datasets", "match")
TIMELINE_COLUMNS = (
    "dataset",
    "date",
    "title",
    "url",
    "document_id",
    "findings",
    "cfr",
    "page_num",
    "passage",
    "links",
    "repeat",
)
EVENT_PAGES = 30  # pages of a document read for its findings
FINDINGS_MAX = 12  # findings listed per document
FINDING_WORDS = 30  # words of a finding's statement
PASSAGE_CHARS = 400  # characters of the cited passage (cut at a word)
MIN_STATEMENT_WORDS = 3  # words of letters a finding's statement needs (not "(b) (4)")
_WORD = re.compile(r"[^\W\d_]{2,}")
_STRINGS = ("dataset", "title", "url", "document_id", "passage")
_LISTS = ("findings", "cfr", "links")


class Timeline(pd.DataFrame):
    """A DataFrame of events (`TIMELINE_COLUMNS`, date order) whose `plot()` draws them on a
    date axis; `firm` is the entity's row (`FIRM_COLUMNS`) where one was asked for."""

    _metadata: ClassVar[list[str]] = ["firm"]
    firm: dict[str, Any] | None = None

    @property
    def _constructor(self) -> type[Timeline]:
        return Timeline

    def plot(self, ax: Axes | None = None) -> Figure:  # type: ignore[override]
        """The events on a date axis, one row per dataset (a repeat finding marked)."""
        from regnb.present.plots import timeline_figure

        name = (self.firm or {}).get("name")
        return timeline_figure(self, ax, title=str(name) if name else None)


def entity_id_of(entity: object) -> str:
    """A firm's id: given, or the `id` of a row of `Engine.firm`'s frame (a Series, a mapping,
    a one-row frame). InvalidRequest (field `entity`) for anything else."""
    if isinstance(entity, pd.DataFrame):
        if len(entity) != 1:
            raise InvalidRequest(
                f"entity must be one firm; this frame has {len(entity)} rows (pick one: "
                "frame.iloc[0])",
                field="entity",
            )
        entity = entity.iloc[0]
    if isinstance(entity, pd.Series | Mapping) and "id" in entity:
        entity = entity["id"]
    if not isinstance(entity, str) or not entity.strip():
        raise InvalidRequest(
            "entity must be a firm id or a row of eng.firm(...) with its id", field="entity"
        )
    return entity.strip()


# --- events -------------------------------------------------------------------------------


def _passage(text: str) -> str:
    """The text's opening as written, at most PASSAGE_CHARS, cut at a word."""
    text = text.strip()
    if len(text) <= PASSAGE_CHARS:
        return text
    cut = text[:PASSAGE_CHARS]
    return cut.rsplit(None, 1)[0] if " " in cut or "\n" in cut else cut


def _label(heading: str, number: str) -> str:
    heading = " ".join(heading.split())
    if number and not heading.endswith(number):
        return f"{heading} {number}".strip()
    return heading


def _statement(unit: Unit) -> str:
    """A unit's first sentence (at most FINDING_WORDS words), without a first line that only
    repeats its heading ("PRODUCT QUALITY"); empty where it says nothing (a redaction)."""
    from regnb.agent._quotes import short_statement

    first, _, rest = unit.text.strip().partition("\n")
    text = (
        rest if rest.strip() and first.strip().casefold() == unit.heading.casefold() else unit.text
    )
    statement = short_statement(text, FINDING_WORDS) if text.strip() else ""
    return statement if len(_WORD.findall(statement)) >= MIN_STATEMENT_WORDS else ""


def _event(doc: Mapping[str, Any], pages: Mapping[int, str]) -> dict[str, Any]:
    """One document's row of a timeline (the wire form: an ISO date)."""
    from regnb.agent._structure import STATEMENTS, parse_document

    units = [u for u in parse_document(doc["dataset"], pages) if u.kind in STATEMENTS]
    findings: list[str] = []
    sections: list[str] = []
    seen: set[tuple[str, str]] = set()
    cited: Unit | None = None
    for unit in units:
        sections += cfr.sections(unit.text)
        key = (unit.heading, (unit.number or "").split(".")[0])
        if key in seen or len(findings) == FINDINGS_MAX:
            continue
        statement = _statement(unit)
        if not statement:
            continue
        seen.add(key)
        label = _label(*key)
        findings.append(f"{label}: {statement}" if label else statement)
        cited = cited or unit
    if cited is not None:
        page_num, passage = cited.page_num, _passage(cited.text)
    else:
        filled = [n for n in sorted(pages) if pages[n].strip()]
        page_num = filled[0] if filled else 1
        passage = _passage(pages.get(page_num, ""))
    if not sections:
        sections = [s for n in sorted(pages) for s in cfr.sections(pages[n])]
    date = doc.get("date")
    return {
        "dataset": doc["dataset"],
        "date": date.isoformat() if isinstance(date, dt.date) else date,
        "title": doc["title"],
        "url": doc.get("url"),
        "document_id": doc["document_id"],
        "findings": findings,
        "cfr": list(dict.fromkeys(sections)),
        "page_num": int(page_num),
        "passage": passage,
        "links": [],
        "repeat": any(u.repeat for u in units),
    }


def _in_date_order(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Oldest first, undated last; then by dataset and document id."""
    return sorted(
        events, key=lambda e: (e["date"] is None, e["date"] or "", e["dataset"], e["document_id"])
    )


def store_events(
    store: IndexStore,
    doc_rows: Sequence[int],
    cache: MutableMapping[str, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The timeline's rows (wire form) of live documents of an index, in date order. Each
    document's first `EVENT_PAGES` pages are read at once and parsed (some 15 ms a document);
    `cache` keeps the rows by `IndexStore.document_keys`, so a document is parsed once."""
    rows = sorted(set(doc_rows))
    keys = dict(zip(rows, store.document_keys(rows), strict=True))
    known = {row: cache.get(keys[row]) for row in rows} if cache is not None else {}
    docs = store.documents([row for row in rows if known.get(row) is None])
    spans = [
        range(int(d["first_page_id"]), int(d["first_page_id"]) + min(d["page_count"], EVENT_PAGES))
        for d in docs
    ]
    texts = iter(store.texts([p for span in spans for p in span]))
    events = [e for e in known.values() if e is not None]
    for doc, span in zip(docs, spans, strict=True):
        event = _event(doc, {n: next(texts) for n in range(1, len(span) + 1)})
        if cache is not None:
            cache[keys[doc["doc_row"]]] = event
        events.append(event)
    return _in_date_order(copy.deepcopy(events))


def document_events(engine: Engine, document_ids: Sequence[str]) -> pd.DataFrame:
    """The timeline's rows (`TIMELINE_COLUMNS`, a `Timeline`) of the given documents of a local
    engine's corpus, in date order, each once; ids the corpus lacks are left out."""
    store = engine.store
    rows = store.document_rows(list(dict.fromkeys(document_ids)))
    return timeline_frame(store_events(store, list(rows.values())))


# --- frames and their wire form -------------------------------------------------------------


def _iso_dates(values: pd.Series) -> pd.Series:
    days = pd.to_datetime(values.astype(object), format="%Y-%m-%d", errors="coerce")
    return days.astype("datetime64[ns]")


def timeline_frame(
    records: Sequence[Mapping[str, Any]], firm: Mapping[str, Any] | None = None
) -> Timeline:
    """Events in their wire form (ISO dates) as a `Timeline`, typed: `date` datetime64,
    strings, `page_num` int64, `repeat` bool, lists as lists."""
    frame = Timeline(
        [{k: r.get(k) for k in TIMELINE_COLUMNS} for r in records], columns=list(TIMELINE_COLUMNS)
    )
    for name in _STRINGS:
        frame[name] = frame[name].astype("string")
    frame["date"] = _iso_dates(frame["date"])
    frame["page_num"] = frame["page_num"].astype("int64")
    frame["repeat"] = frame["repeat"].astype("bool")
    for name in _LISTS:
        frame[name] = [list(v) if isinstance(v, list | tuple) else [] for v in frame[name]]
    frame.firm = dict(firm) if firm is not None else None
    return frame


def _wire(value: Any) -> Any:
    if value is pd.NA or value is pd.NaT or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.date().isoformat()
    if hasattr(value, "item") and not isinstance(value, list | dict):
        return value.item()
    return value


def timeline_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A timeline's rows as JSON values (ISO dates, None where missing)."""
    columns = list(TIMELINE_COLUMNS)
    return [
        {k: _wire(v) for k, v in zip(columns, row, strict=True)}
        for row in frame[columns].astype(object).itertuples(index=False, name=None)
    ]


def firms_frame(records: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Firm rows in their wire form as the DataFrame of `FIRM_COLUMNS`, typed."""
    frame = pd.DataFrame(
        [{k: r.get(k) for k in FIRM_COLUMNS} for r in records], columns=list(FIRM_COLUMNS)
    )
    for name in ("id", "name", "match"):
        frame[name] = frame[name].astype("string")
    frame["documents"] = frame["documents"].astype("int64")
    for name in ("variants", "identifiers"):
        frame[name] = [list(v) if isinstance(v, list | tuple) else [] for v in frame[name]]
    frame["datasets"] = pd.Series(
        [dict(v) if isinstance(v, Mapping) else {} for v in frame["datasets"]],
        index=frame.index,
        dtype=object,
    )
    return frame


def firm_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Firm rows as JSON values."""
    columns = list(FIRM_COLUMNS)
    return [
        {k: _wire(v) for k, v in zip(columns, row, strict=True)}
        for row in frame[columns].astype(object).itertuples(index=False, name=None)
    ]
