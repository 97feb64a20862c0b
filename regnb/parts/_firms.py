"""Firms of one index: its entities, grouped once per snapshot, resolved from a name or an
identifier, and an entity's timeline (each document's row parsed once, then kept in memory).

The entities are grouped the first time a snapshot is asked for them, from what the index holds
per document (its firm fields' values and its identifiers, both written at index time), and kept
with that snapshot: grouping merges across segments (one FEI in two segments), so it cannot be
done per segment as they are written, and it takes about a second per 100,000 documents."""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regnb._entities import Entity, Match, Mention, group, resolve
from regnb._store import IndexStore
from regnb.catalog import Catalog
from regnb.errors import InvalidRequest, NotFound
from regnb.firms import (
    FIRM_FIELDS,
    Timeline,
    entity_id_of,
    firms_frame,
    store_events,
    timeline_frame,
)
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
    """The entities of one snapshot, and each by id."""

    store: IndexStore
    entities: list[Entity]
    by_id: dict[str, Entity]


def mentions(store: IndexStore) -> list[Mention]:
    """What each live document of the index says of its firm."""
    names: dict[int, list[str]] = defaultdict(list)
    values = store.live_field_values(FIRM_FIELDS)
    for row, value in zip(
        values.column("doc_row").to_pylist(), values.column("value").to_pylist(), strict=True
    ):
        names[row].append(value)
    held: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    found = store.live_identifiers(max_page=1)
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
                entities = group(mentions(store))
                self._table = _Table(store, entities, {e.id: e for e in entities})
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
        return {d["document_id"] for d in table.store.documents(set(rows))}

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
        return timeline_frame(store_events(table.store, rows.tolist(), self.events), firm=row)
