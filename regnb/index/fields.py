"""The DuckDB side of a snapshot: which pages pass a dataset's filters, the catalog fields and
identifiers of the live documents, and per-index arrays for counting (the pages holding a set of
terms, a field's values as codes), made on first use and kept with the snapshot.

SQL runs over the segments' metadata databases, attached to the snapshot's one connection, and
is built by pure functions (`allowed_sql`) that bind values as parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from regnb import text
from regnb.index.arrays import concat, day_number, int64s
from regnb.index.segments import NO_DATE
from regnb.request import DocFilter

if TYPE_CHECKING:
    from regnb.index.store import IndexStore

__all__ = ["FieldReader", "PageTest", "allowed_sql"]

PageTest = Callable[[np.ndarray], np.ndarray]
"""Which of the given page ids pass a dataset's filters (a bool per page)."""


def allowed_sql(filters: Sequence[DocFilter]) -> tuple[str, dict[str, Any]]:
    """SQL selecting the `doc_row` of dataset `$ds`'s documents that pass every field filter."""
    where = ["d.dataset = $ds"]
    params: dict[str, Any] = {}
    for i, f in enumerate(filters):
        name = f"f{i}"
        value = f.value
        params[f"{name}_field"] = f.field
        if f.kind == "keyword":
            test = f"list_has_all(terms, regnb_terms(${name}))"
            value = text.fold(value)
        elif f.kind == "phrase":  # value: a `phrase_pattern` over the field's terms
            test = f"regexp_matches(array_to_string(regnb_terms(value), ' '), ${name})"
        elif f.kind == "exact":
            test = f"norm = regexp_replace(upper(strip_accents(${name})), '[^A-Z0-9]', '', 'g')"
            value = text.fold(value)
        else:  # enum, boolean, number: the stored value as text
            test = f"value = ${name}"
            value = ("true" if value else "false") if isinstance(value, bool) else str(value)
        where.append(
            "d.doc_row IN (SELECT doc_row FROM field_values "
            f"WHERE dataset = d.dataset AND field = ${name}_field AND {test})"
        )
        params[name] = value
    return "SELECT d.doc_row FROM docs d WHERE " + " AND ".join(where), params


class FieldReader:
    """A snapshot's filters, fields and identifiers (`IndexStore.fields`)."""

    def __init__(self, store: IndexStore) -> None:
        self.store = store

    def allowed(
        self, dataset: str, filters: Sequence[DocFilter], *, deadline: float | None = None
    ) -> PageTest | None:
        """Which pages of the dataset pass the filters (None: no filter). Date bounds are
        checked in memory; field filters run SQL once, interrupted at `deadline`."""
        store = self.store
        if not filters or dataset not in store.dataset_codes:
            return None
        lo = max((day_number(f.value) for f in filters if f.kind == "date_from"), default=None)
        hi = min((day_number(f.value) for f in filters if f.kind == "date_to"), default=None)
        docs: np.ndarray | None = None
        fielded = [f for f in filters if f.on_fields]
        if fielded:
            sql, params = allowed_sql(fielded)
            params["ds"] = dataset
            with store.cursor_until(deadline) as cur:
                docs = np.sort(
                    np.asarray(cur.execute(sql, params).fetchnumpy()["doc_row"], np.int64)
                )

        def test(page_ids: np.ndarray) -> np.ndarray:
            days = store.page_day[page_ids]
            mask = np.ones(page_ids.size, dtype=bool)
            if lo is not None:
                mask &= (days != NO_DATE) & (days >= lo)
            if hi is not None:
                mask &= (days != NO_DATE) & (days <= hi)
            if docs is not None:
                mask &= np.isin(store.page_doc[page_ids], docs)
            return mask

        return test

    def field_codes(self, field: str) -> tuple[np.ndarray, list[str]]:
        """A catalog field's values as codes: per document row the index of its value as stored
        (-1 where it has none), and the distinct values."""

        def make() -> tuple[np.ndarray, list[str]]:
            table = (
                self.store.cursor()
                .execute("SELECT doc_row, value FROM field_values WHERE field = ?", [field])
                .arrow()
                .read_all()
            )
            codes = np.full(int(self.store.doc_base[-1]), -1, np.int32)
            if not table.num_rows:
                return codes, []
            encoded = table.column("value").combine_chunks().dictionary_encode()
            rows = np.asarray(table.column("doc_row").to_numpy(), np.int64)
            codes[rows] = np.asarray(encoded.indices.to_numpy(zero_copy_only=False), np.int32)
            return codes, encoded.dictionary.to_pylist()

        return self.store.cached(f"field:{field}", make)

    def term_pages(self, terms: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
        """The live pages holding each of the given terms: (page ids, the term's position in
        `terms`) with one row per (page, term)."""
        pages, codes = [], []
        for code, term_id in enumerate(terms.values()):
            p, _ = self.store.postings.weights(term_id)
            pages.append(p.astype(np.int64))
            codes.append(np.full(p.size, code, np.int32))
        return concat(pages, np.int64), concat(codes, np.int32)

    def cached_term_pages(
        self, key: str, terms: Callable[[], dict[str, int]]
    ) -> tuple[list[str], np.ndarray, np.ndarray]:
        """`term_pages` of a set of terms chosen once per index (the CFR sections cited),
        kept: (the terms, page ids, term codes)."""

        def make() -> tuple[list[str], np.ndarray, np.ndarray]:
            chosen = terms()
            return (list(chosen), *self.term_pages(chosen))

        return self.store.cached(f"terms:{key}", make)

    def live_field_values(self, fields: Sequence[str]) -> pa.Table:
        """`doc_row`, `field`, `value` of the named catalog fields of every live document."""
        table = (
            self.store.cursor()
            .execute(
                "SELECT doc_row, field, value FROM field_values "
                "WHERE field IN (SELECT unnest($fields)) ORDER BY doc_row",
                {"fields": list(fields)},
            )
            .arrow()
            .read_all()
        )
        return self._live(table)

    def live_identifiers(self, max_page: int) -> pa.Table:
        """`doc_row`, `kind`, `value`, `page_num` of every live document's identifiers read from
        its catalog fields (page 0) or its pages up to `max_page` (`regnb.index.identifiers`)."""
        table = (
            self.store.cursor()
            .execute(
                "SELECT doc_row, kind, value, page_num FROM identifiers "
                "WHERE page_num <= $max ORDER BY doc_row",
                {"max": int(max_page)},
            )
            .arrow()
            .read_all()
        )
        return self._live(table)

    def _live(self, table: pa.Table) -> pa.Table:
        rows = int64s(table.column("doc_row")) if table.num_rows else np.zeros(0, np.int64)
        return table.filter(pa.array(self.store.doc_live[rows]))
