"""A watchlist bound to an engine: what entered its corpus since the watchlist last marked it seen
and matches the saved search or firms, each document with its best passage."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, Unpack

import pandas as pd

from regnb.corpus.shards import Corpus
from regnb.documents.passages import best_passage
from regnb.errors import InvalidRequest
from regnb.firms.timeline import TIMELINE_COLUMNS, document_events
from regnb.settings import Settings
from regnb.validate import check_datasets, check_date, search_args
from regnb.watch._firms import watched_firm
from regnb.watch._ingested import CorpusState, entered_after, entry_documents, parse_time
from regnb.watch._saved import Mark, Saved, WatchDefinition, WatchlistStore, check_name

if TYPE_CHECKING:
    from pathlib import Path

    from regnb.catalog import Catalog
    from regnb.corpus.location import Location
    from regnb.firms.lookup import Firms
    from regnb.index.current import CorpusIndex
    from regnb.index.store import IndexStore
    from regnb.request import SearchArgs, SearchRequest

__all__ = [
    "COLUMNS",
    "Clock",
    "WatchSource",
    "Watchlist",
    "definition_of",
    "report_lines",
    "stamp",
    "store_of",
    "watchlists",
]

COLUMNS = (*TIMELINE_COLUMNS, "ingested")
Clock = Callable[[], float]
PASSAGE_CHARS = 400


def stamp(seconds: float) -> str:
    """Epoch seconds as the ISO 8601 UTC time a watchlist saves."""
    return dt.datetime.fromtimestamp(seconds, dt.UTC).isoformat(timespec="milliseconds")


def shown_time(text: str) -> str:
    """`2026-11-20 14:03 UTC`."""
    return parse_time(text).astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def store_of(settings: Settings) -> WatchlistStore:
    return WatchlistStore(settings.home / "watchlists")


def _since(value: str | dt.date | None, clock: Clock) -> str:
    """`since` as a saved time: a date is its midnight UTC, a time without a zone is UTC."""
    if value is None:
        return stamp(clock())
    try:
        if isinstance(value, dt.datetime):
            when = value
        elif isinstance(value, dt.date):
            when = dt.datetime(value.year, value.month, value.day)
        else:
            when = parse_time(str(value))
    except ValueError:
        raise InvalidRequest(
            f"since must be an ISO date or time, got {value!r}", field="since"
        ) from None
    when = when if when.tzinfo else when.replace(tzinfo=dt.UTC)
    return when.astimezone(dt.UTC).isoformat(timespec="milliseconds")


class WatchSource(Protocol):
    """What a watchlist reads of a local engine (`regnb.Engine` is one): its corpus, settings and
    plan, its index, firms and catalog, and checked searches with their best pages."""

    path: Path | Location
    plan: str
    settings: Settings
    index: CorpusIndex
    firms: Firms

    @property
    def store(self) -> IndexStore: ...

    def datasets(self, refresh: bool = False) -> Catalog: ...

    def check_search(
        self, keywords: Sequence[str] | str, query: str | None = None, **args: Unpack[SearchArgs]
    ) -> SearchRequest: ...

    def best_pages(
        self, request: SearchRequest, document_ids: Sequence[str]
    ) -> dict[str, tuple[int, str]]: ...


class Watchlist:
    """A saved search or set of firms (`definition`) over an engine's corpus. `new()` returns
    the documents that entered the corpus since the last `mark_seen()` and match it."""

    def __init__(self, engine: WatchSource, saved: Saved, *, clock: Clock = time.time) -> None:
        self.engine, self.saved, self.clock = engine, saved, clock
        self.store = store_of(engine.settings)
        self._read: CorpusState | None = None  # the corpus as the last new() read it

    @property
    def name(self) -> str:
        return self.saved.name

    @property
    def definition(self) -> WatchDefinition:
        return self.saved.definition

    @classmethod
    def create(
        cls,
        engine: WatchSource,
        name: str,
        definition: WatchDefinition,
        *,
        since: str | dt.date | None = None,
        clock: Clock = time.time,
    ) -> Watchlist:
        """Save a watchlist (see `Engine.watch`)."""
        store = store_of(engine.settings)
        check_name(name)
        _check(engine, definition)
        now = stamp(clock())
        if store.exists(name) and since is None:
            saved = replace(store.load(name), definition=definition)
        elif since is None:  # a baseline: what the corpus holds now is seen
            state = CorpusState.read(engine.path)
            saved = Saved(name, definition, now, now, {state.salt: Mark(state.commits, now)})
        else:
            old = store.load(name) if store.exists(name) else None
            created = old.created if old else now
            saved = Saved(name, definition, created, _since(since, clock), {})
        store.save(saved)
        return cls(engine, saved, clock=clock)

    @classmethod
    def open(cls, engine: WatchSource, name: str, *, clock: Clock = time.time) -> Watchlist:
        """A saved watchlist; NotFound lists the saved names."""
        return cls(engine, store_of(engine.settings).load(name), clock=clock)

    def last_seen(self) -> str:
        """When this corpus was last marked seen (ISO 8601 UTC), else the watchlist's `since`."""
        self.saved = self.store.load(self.name)  # another process may have marked it
        state = CorpusState.read(self.engine.path)
        mark = self.saved.marks.get(state.salt)
        return mark.at if mark else self.saved.since

    def new(self) -> pd.DataFrame:
        """The documents that entered the corpus since it was last marked seen (by ingest time,
        not document date) and match the watchlist, in date order (undated last, then by ingest
        time): the timeline's columns (`page_num` and `passage`: the document's best page for
        the search, else page 1) and `ingested` (UTC). A replaced document enters again."""
        self.saved = self.store.load(self.name)  # another process may have marked it
        state = CorpusState.read(self.engine.path)
        self.engine.index.current(fresh=True)  # the index holds what the state read lists
        self._read = state
        mark = self.saved.marks.get(state.salt)
        since = parse_time(self.saved.since)
        entries = entered_after(state.shards, mark.commit if mark else None, since)
        docs = entry_documents(self.engine.path, self.engine.datasets(), entries)
        pages = _matching(self.engine, self.definition, docs)
        events = document_events(self.engine, list(pages))
        for column, part in (("page_num", 0), ("passage", 1)):
            events[column] = [
                cited[part] if (cited := pages[d]) is not None else own
                for d, own in zip(events["document_id"], events[column], strict=True)
            ]
        ingested = {d["document_id"]: d["ingested"] for d in docs}
        events["ingested"] = pd.to_datetime([ingested[d] for d in events["document_id"]], utc=True)
        events = events.sort_values(
            ["date", "ingested", "document_id"], na_position="last", kind="stable"
        )
        events.attrs["since"] = mark.at if mark else self.saved.since
        return events.reset_index(drop=True)[list(COLUMNS)]

    def mark_seen(self) -> None:
        """Mark the corpus seen as the last `new()` read it (a document committed after that is
        still new), or as it is now when `new()` was not called."""
        state = self._read or CorpusState.read(self.engine.path)
        saved = self.store.load(self.name)  # another process may have saved it since
        marks = {**saved.marks, state.salt: Mark(state.commits, stamp(self.clock()))}
        self.saved = replace(saved, marks=marks)
        self.store.save(self.saved)
        self._read = None

    def __repr__(self) -> str:
        return f"<Watchlist {self.name!r}: {self.definition.describe()}>"


# What a watchlist cannot take of the search block: it searches with the engine's plan, in the
# query syntax.
NOT_WATCHED = {
    "plan": "a watchlist searches with the engine's plan",
    "syntax": "a watchlist reads its keywords in the query syntax",
}


def definition_of(
    keywords: Sequence[str] | str | None,
    query: str | None,
    args: Mapping[str, Any],
    firms: Sequence[str] | str | None,
) -> WatchDefinition:
    """`Engine.watch`'s arguments as a definition (a string is one keyword item or one firm;
    the search checks the rest)."""
    given = search_args(args, NOT_WATCHED)
    datasets = given.get("datasets")
    if isinstance(datasets, str):
        raise InvalidRequest("datasets must be a list of dataset ids", field="datasets")
    return WatchDefinition(
        keywords=(keywords,) if isinstance(keywords, str) else tuple(keywords or ()),
        query=query,
        datasets=tuple(datasets) if datasets is not None else None,
        filters=given.get("filters"),
        firms=(firms,) if isinstance(firms, str) else tuple(firms or ()),
        date_from=given.get("date_from"),
        date_to=given.get("date_to"),
    )


def _check(engine: WatchSource, definition: WatchDefinition) -> None:
    """The definition checked as a search of the engine's corpus (or, for firms alone, its
    datasets and dates); raises the spec's 400 errors."""
    if not definition.keywords and not definition.firms:
        raise InvalidRequest(
            "a watchlist needs keywords or firms (a query only ranks what keywords find)",
            field="keywords",
        )
    for i, firm in enumerate(definition.firms):
        watched_firm(firm, f"firms[{i}]")
    if definition.keywords:
        _request(engine, definition)
        return
    if definition.filters:
        raise InvalidRequest(
            "filters need keywords: a watchlist of firms alone filters by datasets and dates",
            field="filters",
        )
    _plain_scope(engine, definition)


def _request(engine: WatchSource, definition: WatchDefinition) -> Any:
    return engine.check_search(
        list(definition.keywords),
        definition.query,
        datasets=list(definition.datasets) if definition.datasets is not None else None,
        filters={k: dict(v) for k, v in definition.filters.items()} if definition.filters else None,
        date_from=definition.date_from,
        date_to=definition.date_to,
    )


def _plain_scope(engine: WatchSource, definition: WatchDefinition) -> tuple[set[str], str, str]:
    """For firms alone: the datasets searched (open to the engine's plan), and the date bounds
    (`""`: none)."""
    catalog = engine.datasets()
    named = list(definition.datasets) if definition.datasets is not None else None
    datasets, _ = check_datasets(catalog, named, engine.plan)
    low, high = (
        check_date(value, where, InvalidRequest) if value else ""
        for value, where in ((definition.date_from, "date_from"), (definition.date_to, "date_to"))
    )
    return (
        {d for d in datasets if catalog[d].available and catalog[d].open_to(engine.plan)},
        low,
        high,
    )


def _in_dates(date: str | None, low: str, high: str) -> bool:
    """A document's date within the bounds; an undated document only where there are none."""
    if not (low or high):
        return True
    return date is not None and (not low or date >= low) and (not high or date <= high)


def _matching(
    engine: WatchSource, definition: WatchDefinition, docs: Sequence[Mapping[str, Any]]
) -> dict[str, tuple[int, str] | None]:
    """Of `docs`, those the definition matches, each with its page and passage (None: the
    document's own citation, its first finding, for firms alone)."""
    if definition.firms:
        for i, f in enumerate(definition.firms):
            watched_firm(f, f"firms[{i}]")  # checked: a name with a key, or an identifier
        theirs = engine.firms.document_ids(list(definition.firms))
        docs = [d for d in docs if d["document_id"] in theirs]
    if not docs:
        return {}
    if definition.keywords:
        best = engine.best_pages(_request(engine, definition), [d["document_id"] for d in docs])
        return {d: (num, _passage(text, definition)) for d, (num, text) in best.items()}
    datasets, low, high = _plain_scope(engine, definition)
    return {
        d["document_id"]: None
        for d in docs
        if d["dataset"] in datasets and _in_dates(d["date"], low, high)
    }


def _passage(text: str, definition: WatchDefinition) -> str:
    return best_passage(text, definition.keywords, definition.query, max_chars=PASSAGE_CHARS).text


def watchlists(settings: Settings, corpus: Corpus | None = None) -> pd.DataFrame:
    """The saved watchlists: `name`, `definition` (one line), `created`, and `last_seen` (UTC):
    when `corpus` was last marked seen, else the watchlist's `since` (without a corpus: the
    latest mark on any corpus)."""
    store = store_of(settings)
    salt = CorpusState.read(corpus).salt if corpus is not None else None
    rows = []
    for name in store.names():
        saved = store.load(name)
        if salt is not None:
            seen = saved.marks[salt].at if salt in saved.marks else saved.since
        else:
            seen = max([m.at for m in saved.marks.values()] or [saved.since])
        rows.append(
            {
                "name": name,
                "definition": saved.definition.describe(),
                "created": saved.created,
                "last_seen": seen,
            }
        )
    frame = pd.DataFrame(rows, columns=["name", "definition", "created", "last_seen"])
    for column in ("created", "last_seen"):
        frame[column] = pd.to_datetime(frame[column], utc=True, format="ISO8601")
    return frame


def report_lines(name: str, frame: pd.DataFrame, limit: int = 10) -> list[str]:
    """`watchlist 'x': 2 new documents since 2026-11-20 14:03 UTC`, then one line per document
    (at most `limit`): date, dataset, title, page and passage; or `...: nothing new since ...`."""
    since = shown_time(frame.attrs["since"]) if frame.attrs.get("since") else "it was created"
    if frame.empty:
        return [f"watchlist {name!r}: nothing new since {since}"]
    count = f"{len(frame)} new document" + ("" if len(frame) == 1 else "s")
    lines = [f"watchlist {name!r}: {count} since {since}"]
    for row in frame.head(limit).to_dict("records"):
        day = "no date" if pd.isna(row["date"]) else pd.Timestamp(row["date"]).date().isoformat()
        lines.append(f"- {day} {row['dataset']}: {row['title']} (page {row['page_num']})")
        if row["passage"]:
            lines.append(f"  {row['passage']}")
    if len(frame) > limit:
        lines.append(f"… and {len(frame) - limit} more")
    return lines
