"""Firms across datasets: the documents about one firm or site, whatever the dataset, in date
order, each with its key findings and a citation.

    eng.firm("Hospira")              candidate entities (`FIRM_COLUMNS`), best match first
    eng.timeline(entity)             a `Timeline` of every document about one (`TIMELINE_COLUMNS`)
    tl.plot()                        its events on a date axis, one row per dataset, links drawn
    links_frame(tl)                  its links, one row each (`LINK_COLUMNS`)
    repeat_findings(tl)              the findings its 483s repeat (`REPEAT_COLUMNS`)
    document_events(eng, ids)        the timeline's rows of any documents (without links)

An entity groups the documents whose catalog firm field (`FIRM_FIELDS`) names the same firm,
and those tied to it by an FEI number (`regnb.firms.entities`). A document's event reads its first
`EVENT_PAGES` pages as the research agent does (`regnb.documents.structure.parse_document`): its
findings are the headed observations, violations and deficiencies ("Observation 1: ..."), its
`cfr` the sections they cite (else the pages), and the citation (`page_num`, `passage`) is its
first finding's page and text, else its first page's. A timeline links its documents
(`regnb.firms.links`: a 483 and the warning letter that followed it, a complete response letter and
the next letter or approval of its application, a 483's findings that repeat the site's previous
483's), each link a short sentence (`Link`); `repeat` marks a 483 with a repeat finding.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import pandas as pd

from regnb.documents import cfr
from regnb.errors import InvalidRequest
from regnb.firms.links import AN_OBSERVATION, Link, link_kind, link_pairs, named_span

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from regnb.documents.structure import Unit
    from regnb.index.store import IndexStore
    from regnb.interface import FirmAPI

__all__ = [
    "EVENT_PAGES",
    "FIRM_COLUMNS",
    "FIRM_FIELDS",
    "LINK_COLUMNS",
    "REPEAT_COLUMNS",
    "TIMELINE_COLUMNS",
    "Link",
    "StoreSource",
    "Timeline",
    "document_events",
    "entity_id_of",
    "firm_records",
    "firm_repeats",
    "firms_frame",
    "links_frame",
    "repeat_findings",
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
LINK_COLUMNS = (
    "document_id",
    "date",
    "relation",
    "kind",
    "other_document_id",
    "other_date",
    "about",
    "finding",
    "page_num",
    "other_page_num",
)
REPEAT_COLUMNS = (
    "section",
    "title",
    "finding",
    "document_id",
    "date",
    "page_num",
    "earlier_finding",
    "earlier_document_id",
    "earlier_date",
    "earlier_page_num",
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
        links = link_pairs(self["document_id"], self["links"])
        return timeline_figure(self, ax, title=str(name) if name else None, links=links)


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
    from regnb.documents.statements import short_statement

    first, _, rest = unit.text.strip().partition("\n")
    text = (
        rest if rest.strip() and first.strip().casefold() == unit.heading.casefold() else unit.text
    )
    statement = short_statement(text, FINDING_WORDS) if text.strip() else ""
    return statement if len(_WORD.findall(statement)) >= MIN_STATEMENT_WORDS else ""


def _event(doc: Mapping[str, Any], pages: Mapping[int, str]) -> dict[str, Any]:
    """One document's row of a timeline (the wire form: an ISO date)."""
    from regnb.documents.structure import STATEMENTS, parse_document

    units = [u for u in parse_document(doc["dataset"], pages) if u.kind in STATEMENTS]
    findings: list[str] = []
    placed: list[list[Any]] = []  # each finding's label and page
    sections: list[str] = []
    seen: set[tuple[str, str]] = set()
    cited: Unit | None = None
    for unit in units:
        sections += cfr.sections(unit.text)
        key = _key(unit)
        if key in seen or len(findings) == FINDINGS_MAX:
            continue
        statement = _statement(unit)
        if not statement:
            continue
        seen.add(key)
        label = _label(*key)
        findings.append(f"{label}: {statement}" if label else statement)
        placed.append([label, unit.page_num])
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
        "_findings": placed,
        **_link_facts(doc["dataset"], units, pages),
    }


def _key(unit: Unit) -> tuple[str, str]:
    """A finding's heading and number (`Observation`, `1`): its sub-items share it."""
    return unit.heading, (unit.number or "").split(".")[0]


def _link_facts(dataset: str, units: Sequence[Unit], pages: Mapping[int, str]) -> dict[str, Any]:
    """What links to other documents need of a document's text (`regnb.firms.links.Facts`), kept in
    its cached row under private keys: where each section of `cfr` is first cited (a finding
    and its page, else a page), the observations marked as a repeat with the inspection days
    the mark names, and the days of the inspection a warning letter names."""
    cited: dict[str, tuple[str, int]] = {}
    marks: dict[tuple[str, str], list[Unit]] = {}
    for unit in units:
        for section in cfr.sections(unit.text):
            cited.setdefault(section, (_label(*_key(unit)), unit.page_num))
        if unit.repeat:
            marks.setdefault(_key(unit), []).append(unit)
    for num in sorted(pages) if not cited else ():
        for section in cfr.sections(pages[num]):
            cited.setdefault(section, ("", num))
    letter = link_kind(dataset) == "warning letter"
    opening = "\n".join(pages[n] for n in sorted(pages)[:2]) if letter else ""
    return {
        "_cited": [[s, label, page] for s, (label, page) in cited.items() if "." in s],
        "_marked": [
            [
                _label(*key),
                group[0].page_num,
                named_span("\n".join(u.text for u in group), "repeat"),
            ]
            for key, group in marks.items()
        ],
        "_inspected": named_span(opening) if letter else None,
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
    `cache` keeps the rows by `RowReader.document_keys`, so a document is parsed once."""
    rows = sorted(set(doc_rows))
    keys = dict(zip(rows, store.rows.document_keys(rows), strict=True))
    known = {row: cache.get(keys[row]) for row in rows} if cache is not None else {}
    docs = store.rows.documents([row for row in rows if known.get(row) is None])
    spans = [
        range(int(d["first_page_id"]), int(d["first_page_id"]) + min(d["page_count"], EVENT_PAGES))
        for d in docs
    ]
    texts = iter(store.rows.texts([p for span in spans for p in span]))
    events = [e for e in known.values() if e is not None]
    for doc, span in zip(docs, spans, strict=True):
        event = _event(doc, {n: next(texts) for n in range(1, len(span) + 1)})
        if cache is not None:
            cache[keys[doc["doc_row"]]] = event
        events.append(event)
    return _in_date_order(_copy(e) for e in events)


def _copy(event: Mapping[str, Any]) -> dict[str, Any]:
    """A cached row the caller may change: its lists copied (the private keys, which only
    linking reads, shared)."""
    return {k: list(v) if k in _LISTS else v for k, v in event.items()}


class StoreSource(Protocol):
    """What reading a corpus's documents as timeline rows needs: its index's current snapshot
    (`regnb.Engine` is one)."""

    @property
    def store(self) -> IndexStore: ...


def document_events(engine: StoreSource, document_ids: Sequence[str]) -> pd.DataFrame:
    """The timeline's rows (`TIMELINE_COLUMNS`, a `Timeline`) of the given documents of a local
    engine's corpus, in date order, each once; ids the corpus lacks are left out."""
    store = engine.store
    rows = store.rows.document_rows(list(dict.fromkeys(document_ids)))
    return timeline_frame(store_events(store, list(rows.values())))


def firm_repeats(firms: FirmAPI, name: str) -> pd.DataFrame:
    """The repeat findings (`REPEAT_COLUMNS`) of the firm a name or identifier names outright
    (by id, identifier or name key, never a prefix), from its timeline; empty when it names
    none. The research agent's "were any observations repeats?"."""
    found = firms.firm(name, limit=5)
    named = found[found["match"].isin(["id", "identifier", "name"])]
    if named.empty:
        return pd.DataFrame(columns=list(REPEAT_COLUMNS))
    return repeat_findings(firms.timeline(named.iloc[0]))


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


# --- links and repeat findings ----------------------------------------------------------------


def _links(timeline: pd.DataFrame) -> list[tuple[str, Any, Link]]:
    """(document id, date, link) of each link of a timeline's rows, in row order."""
    return [
        (str(doc), date, Link.parse(text))
        for doc, date, texts in zip(
            timeline["document_id"], timeline["date"], timeline["links"], strict=True
        )
        for text in texts
    ]


def links_frame(timeline: pd.DataFrame) -> pd.DataFrame:
    """A timeline's links, one row each (`LINK_COLUMNS`): the row's document and date, how it
    relates to the other document (`follows`, `followed by`, `repeats`), the other's kind, id
    and date; for a repeat, what repeats, the finding and page repeating it, and the other's
    page. ValueError for a link that `Link.parse` does not read."""
    rows = [
        {
            "document_id": doc,
            "date": date,
            "relation": link.relation,
            "kind": link.kind,
            "other_document_id": link.document_id,
            "other_date": link.date,
            "about": link.about,
            "finding": link.finding,
            "page_num": link.page_num,
            "other_page_num": link.other_page_num,
        }
        for doc, date, link in _links(timeline)
    ]
    frame = pd.DataFrame(rows, columns=list(LINK_COLUMNS))
    for name in ("document_id", "relation", "kind", "other_document_id", "about", "finding"):
        frame[name] = frame[name].astype("string")
    frame["date"] = pd.to_datetime(frame["date"]).astype("datetime64[ns]")
    frame["other_date"] = _iso_dates(frame["other_date"])
    for name in ("page_num", "other_page_num"):
        frame[name] = frame[name].astype("Int64")
    return frame


def repeat_findings(timeline: pd.DataFrame) -> pd.DataFrame:
    """The findings of a timeline's Form 483s that repeat an earlier 483's of the site, one row
    each (`REPEAT_COLUMNS`), oldest first: the CFR section both cite and its title where known
    (NA for an observation marked as a repeat), the finding and its page in the later 483
    (`document_id`, `date`), and in the earlier one the finding it restates (a marked
    observation) and the page citing it: the pages to cite for "were any observations
    repeats?"."""
    from regnb.documents.cfr import cfr_title

    links = links_frame(timeline)
    repeats = links[links["relation"] == "repeats"]
    about = repeats["about"]
    by_section = about.str.fullmatch(r"\d+ CFR .+").fillna(False).astype(bool)
    sections = about.where(by_section)
    frame = pd.DataFrame(
        {
            "section": sections,
            "title": pd.Series(
                [cfr_title(s) if isinstance(s, str) else None for s in sections],
                index=repeats.index,
                dtype="string",
            ),
            "finding": repeats["finding"],
            "document_id": repeats["document_id"],
            "date": repeats["date"],
            "page_num": repeats["page_num"],
            "earlier_finding": about.where(~by_section & (about != AN_OBSERVATION)),
            "earlier_document_id": repeats["other_document_id"],
            "earlier_date": repeats["other_date"],
            "earlier_page_num": repeats["other_page_num"],
        },
        columns=list(REPEAT_COLUMNS),
    )
    order = ["date", "document_id", "page_num"]
    return frame.sort_values(order, kind="stable").reset_index(drop=True)
