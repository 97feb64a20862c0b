"""Firms of one index: its entities, grouped once per snapshot, resolved from a name or an
identifier, and an entity's timeline (each document's row parsed once, then kept in memory).

The entities are grouped the first time a snapshot is asked for them, from what the index holds
per document (its firm fields' values and its identifiers, both written at index time), and kept
with that snapshot: grouping merges across segments (one FEI in two segments), so it cannot be
done per segment as they are written, and it takes about a second per 100,000 documents."""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regnb.catalog import Catalog
from regnb.errors import InvalidRequest, NotFound
from regnb.firms.entities import Entity, Match, Mention, group, resolve
from regnb.firms.links import (
    APPLICATION_KINDS,
    Facts,
    application_number,
    link_documents,
    link_kind,
    own_applications,
    site_feis,
)
from regnb.firms.timeline import (
    FIRM_FIELDS,
    Timeline,
    entity_id_of,
    firms_frame,
    store_events,
    timeline_frame,
)
from regnb.index.store import IndexStore
from regnb.validate import check_datasets, check_int, check_plan

__all__ = ["EVENTS_KEPT", "FIRMS_LIMIT_MAX", "EventCache", "Firms"]

FIRMS_LIMIT_MAX = 100
EVENTS_KEPT = 20_000  # documents' timeline rows kept in memory (a few KB each)
OUTRIGHT = frozenset({"id", "identifier", "name"})  # matches that name a firm, not guess it


class EventCache(MutableMapping[str, dict[str, Any]]):
    """The timeline rows of the documents parsed last, at most `size`, least recently used
    dropped first; safe across threads."""

    def __init__(self, size: int = EVENTS_KEPT) -> None:
        self.size = size
        self._items: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def __getitem__(self, key: str) -> dict[str, Any]:
        with self._lock:
            self._items.move_to_end(key)
            return self._items[key]

    def __setitem__(self, key: str, value: dict[str, Any]) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __delitem__(self, key: str) -> None:
        with self._lock:
            del self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True)
class _Table:
    """The entities of one snapshot, each by id, each document's mention by row, and the
    documents of each application number (of the datasets that link applications)."""

    store: IndexStore
    entities: list[Entity]
    by_id: dict[str, Entity]
    mentions: dict[int, Mention]
    by_application: dict[str, list[int]]


def mentions(store: IndexStore) -> list[Mention]:
    """What each live document of the index says of its firm."""
    names: dict[int, list[str]] = defaultdict(list)
    values = store.fields.live_field_values(FIRM_FIELDS)
    for row, value in zip(
        values.column("doc_row").to_pylist(), values.column("value").to_pylist(), strict=True
    ):
        names[row].append(value)
    held: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    found = store.fields.live_identifiers(max_page=1)
    for row, kind, value, page in zip(
        *(found.column(c).to_pylist() for c in ("doc_row", "kind", "value", "page_num")),
        strict=True,
    ):
        held[row].append((kind, value, page))
    rows = sorted(set(names) | set(held))
    return [Mention(r, tuple(names.get(r, ())), tuple(held.get(r, ()))) for r in rows]


class Firms:
    """`firm` and `timeline` over the current snapshot of an index (`stores`)."""

    def __init__(self, stores: Callable[[], IndexStore], catalog: Catalog) -> None:
        self.stores, self.catalog = stores, catalog
        self._table: _Table | None = None
        self._lock = threading.Lock()
        self.events = EventCache()

    def table(self) -> _Table:
        """The current snapshot's entities, grouped on first use."""
        store = self.stores()
        with self._lock:
            if self._table is None or self._table.store is not store:
                found = mentions(store)
                entities = group(found)
                self._table = _Table(
                    store,
                    entities,
                    {e.id: e for e in entities},
                    {m.doc_row: m for m in found},
                    _applications(store, found),
                )
            return self._table

    def _open_codes(self, store: IndexStore, datasets: object, plan: str) -> np.ndarray:
        """The codes of the datasets asked for (default: every one) that `plan` may read."""
        named, _ = check_datasets(self.catalog, datasets, plan)
        open_ = [d for d in named if d in self.catalog and self.catalog[d].open_to(plan)]
        return np.asarray([store.dataset_codes[d] for d in open_ if d in store.dataset_codes])

    def _row(
        self, store: IndexStore, entity: Entity, codes: np.ndarray, how: str
    ) -> dict[str, Any]:
        rows = np.asarray(entity.doc_rows, np.int64)
        rows = rows[store.doc_live[rows] & np.isin(store.doc_ds[rows], codes)]
        names = {c: d for d, c in store.dataset_codes.items()}
        counts = np.bincount(store.doc_ds[rows], minlength=len(names))
        order = {d: i for i, d in enumerate(self.catalog.ids)}
        per = sorted(
            ((names[c], int(n)) for c, n in enumerate(counts) if n),
            key=lambda p: (order.get(p[0], len(order)), p[0]),
        )
        return {
            "id": entity.id,
            "name": entity.name,
            "variants": list(entity.variants),
            "identifiers": list(entity.identifiers),
            "documents": int(rows.size),
            "datasets": dict(per),
            "match": how,
            "_rows": rows,
        }

    def firm(
        self, name_or_id: object, *, datasets: object, limit: object, plan: str
    ) -> pd.DataFrame:
        """Candidate entities of a name, FEI, application number or id, by how they matched
        (id, identifier, name, prefix, words) then documents; those without a document in the
        datasets (the plan may read) left out."""
        if not isinstance(name_or_id, str) or not name_or_id.strip():
            raise InvalidRequest(
                "name_or_id must be a firm's name, an identifier or a firm id", field="name_or_id"
            )
        limit = check_int(limit, "limit", 1, FIRMS_LIMIT_MAX)
        plan = check_plan(plan)
        table = self.table()
        codes = self._open_codes(table.store, datasets, plan)
        found: list[tuple[Match, dict[str, Any]]] = []
        for match in resolve(table.entities, name_or_id):
            row = self._row(table.store, match.entity, codes, match.how)
            if row["documents"]:
                found.append((match, row))
        found.sort(key=lambda p: (-p[0].quality, -p[1]["documents"], p[1]["name"], p[1]["id"]))
        return firms_frame([row for _, row in found[:limit]])

    def document_ids(self, queries: Sequence[str]) -> set[str]:
        """The live documents of the entities that each query (a name, an identifier or an id)
        names outright (by id, identifier or name key; not by a prefix or words)."""
        table = self.table()
        rows = [
            row
            for query in queries
            for match in resolve(table.entities, query)
            if match.how in OUTRIGHT
            for row in match.entity.doc_rows
            if table.store.doc_live[row]
        ]
        return {d["document_id"] for d in table.store.rows.documents(set(rows))}

    def timeline(self, entity: object, *, plan: str) -> Timeline:
        """Every document of the entity (an id, or a row of `firm`'s frame) that the plan may
        read, in date order."""
        firm_id = entity_id_of(entity)
        plan = check_plan(plan)
        table = self.table()
        found = table.by_id.get(firm_id)
        if found is None:
            raise NotFound(f"no firm {firm_id!r} in this corpus", field="entity")
        codes = self._open_codes(table.store, None, plan)
        row = self._row(table.store, found, codes, "id")
        rows = row.pop("_rows")
        events = store_events(table.store, rows.tolist(), self.events)
        return timeline_frame(_linked(table, events, codes), firm=row)


def _applications(store: IndexStore, found: Sequence[Mention]) -> dict[str, list[int]]:
    """The documents of each application number, of the datasets whose documents link by it."""
    codes = _application_codes(store)
    out: dict[str, list[int]] = defaultdict(list)
    for mention in found:
        if int(store.doc_ds[mention.doc_row]) in codes:
            for value in own_applications(mention.identifiers):
                out[application_number(value)].append(mention.doc_row)
    return dict(out)


def _facts(event: Mapping[str, Any], mention: Mention | None, fields: Mapping[str, Any]) -> Facts:
    """The linking facts of a timeline row (with its private keys) or of a document's row."""
    held = mention.identifiers if mention is not None else ()
    marked = event.get("_marked") or ()
    inspected = event.get("_inspected")
    return Facts(
        document_id=str(event["document_id"]),
        dataset=str(event["dataset"]),
        date=_iso(event.get("date")),
        title=str(event.get("title") or ""),
        findings=tuple(
            (str(label), str(text)[len(label) + 2 :] if label else str(text), int(page))
            for text, (label, page) in zip(
                event.get("findings") or (), event.get("_findings") or (), strict=False
            )
        ),
        cited=tuple((str(s), str(label), int(p)) for s, label, p in event.get("_cited") or ()),
        marked=tuple((str(lb), int(p), tuple(sp) if sp else None) for lb, p, sp in marked),
        inspected=(str(inspected[0]), str(inspected[1])) if inspected else None,
        feis=site_feis(held),
        applications=own_applications(held),
        approval_letter=fields.get("document_type") == "approval_letter"
        or "approval letter" in str(event.get("title") or "").casefold(),
    )


def _iso(value: object) -> str | None:
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value) if value else None


def _linked(table: _Table, events: list[dict[str, Any]], codes: np.ndarray) -> list[dict[str, Any]]:
    """The timeline's rows with their links (`regnb.firms.links`): among the rows, and to the
    documents of the corpus (of datasets in `codes`) of the applications the rows are about.
    A 483 that repeats a finding of the site's previous one is marked a repeat."""
    store = table.store
    rows = store.rows.document_rows([e["document_id"] for e in events])
    by_application = _application_codes(store)
    linking = {r for r in rows.values() if int(store.doc_ds[r]) in by_application}
    numbers = {
        application_number(a)
        for r in linking
        if r in table.mentions
        for a in own_applications(table.mentions[r].identifiers)
    }
    related = {r for n in numbers for r in table.by_application.get(n, ())}
    readable = set(codes.tolist())
    related = {r for r in related if int(store.doc_ds[r]) in readable}
    docs = {int(d["doc_row"]): d for d in store.rows.documents(linking | related)}
    facts = [
        _facts(e, table.mentions.get(row), docs[row]["fields"] if row in docs else {})
        for e in events
        for row in [rows.get(e["document_id"], -1)]
    ]
    mine = set(rows.values())
    others = [
        _facts(d, table.mentions.get(r), d["fields"]) for r, d in docs.items() if r not in mine
    ]
    found = link_documents(facts, others)
    for event in events:
        links = found.get(event["document_id"], [])
        event["links"] = [str(link) for link in links]
        event["repeat"] = bool(event["repeat"]) or any(k.relation == "repeats" for k in links)
    return events


def _application_codes(store: IndexStore) -> set[int]:
    """The codes of the datasets whose documents link by application number."""
    return {c for d, c in store.dataset_codes.items() if link_kind(d) in APPLICATION_KINDS}
