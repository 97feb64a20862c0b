"""Every matching document of a search as rows (the spec's document fields, the CFR sections
its matching pages cite, its best BM25 and how many pages match), in date or BM25 order, read
from the index a batch at a time: the order is arrays, the rows only ever one batch; and the best
page of some of those documents."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from regnb.catalog import Catalog
from regnb.index.store import IndexStore
from regnb.search.date_order import order_documents
from regnb.search.facets import cfr_sections
from regnb.search.procedure import FullMatches, document_entry

__all__ = ["best_pages", "match_rows"]


class CitedSections:
    """The CFR sections that each matching document's matching pages cite."""

    def __init__(self, store: IndexStore, pages: np.ndarray) -> None:
        self.names, cited, codes = cfr_sections(store)
        n = max(len(self.names), 1)
        hit = np.zeros(store.page_space, bool)
        hit[pages] = True
        mine = hit[cited]
        pairs = np.unique(store.page_doc[cited[mine]].astype(np.int64) * n + codes[mine])
        self.docs, self.codes = pairs // n, pairs % n

    def of(self, docs: np.ndarray) -> list[list[str]]:
        lo = np.searchsorted(self.docs, docs, "left").tolist()
        hi = np.searchsorted(self.docs, docs, "right").tolist()
        codes = self.codes.tolist()
        return [[self.names[c] for c in codes[a:b]] for a, b in zip(lo, hi, strict=True)]


def match_rows(
    store: IndexStore,
    catalog: Catalog,
    matches: FullMatches,
    order: str,
    *,
    batch_size: int,
    offset: int = 0,
    limit: int | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """The documents of the full matches in `order` from `offset` (at most `limit`), as wire
    rows (`document_id`, `dataset`, `title`, `date`, `url`, `cfr`, `bm25`, `pages`, `fields`:
    the dataset's, and the place of a firm-facing dataset's firm), `batch_size` rows at a
    time."""
    pages = matches.pages
    ordered = order_documents(pages, store.page_doc[pages], matches.bm25, store.doc_day, order)
    end = len(ordered) if limit is None else min(len(ordered), offset + limit)
    counts = ordered.page_counts()
    cited = CitedSections(store, pages)
    for start in range(offset, end, batch_size):
        stop = min(start + batch_size, end)
        rows = ordered.docs[start:stop]
        read = {d["doc_row"]: d for d in store.rows.documents(rows.tolist())}
        out = []
        for row, best, n, cfr in zip(
            rows.tolist(),
            ordered.best[start:stop].tolist(),
            counts[start:stop].tolist(),
            cited.of(rows),
            strict=True,
        ):
            entry = document_entry(catalog, read[row], places=True)
            fields = entry.pop("fields")
            out.append(
                {
                    **entry,
                    "cfr": cfr,
                    "bm25": round(float(best), 6),
                    "pages": int(n),
                    "fields": fields,
                }
            )
        yield out


def best_pages(store: IndexStore, matches: FullMatches, doc_rows: np.ndarray) -> dict[int, int]:
    """The best page (the page id of the highest BM25; of a tie, the first page) of each of
    `doc_rows` among the full matches: the page `match_rows` scores a document by and a search
    by date shows first. A document without a full match is left out."""
    mine = np.isin(store.page_doc[matches.pages], doc_rows)
    pages = matches.pages[mine]
    ordered = order_documents(
        pages, store.page_doc[pages], matches.bm25[mine], store.doc_day, "bm25"
    )
    return {
        int(doc): int(pages[ordered.pages_of(i)[0]]) for i, doc in enumerate(ordered.docs.tolist())
    }
