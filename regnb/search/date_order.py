"""Documents of a set of matching pages in an order that is not relevance: by date (newest or
oldest first, undated last) or by best BM25, each with its pages best BM25 first. Arrays in,
arrays out: a million pages are ordered without a Python loop."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from regnb.index.segments import NO_DATE
from regnb.request import ORDERS

__all__ = ["ORDERS", "DocumentOrder", "order_documents"]


@dataclass(frozen=True)
class DocumentOrder:
    """Documents in order: their rows, best page BM25, and pages; `pages[bounds[i]:bounds[i+1]]`
    are the positions (in the arrays given) of document i's pages, best BM25 first."""

    docs: np.ndarray
    best: np.ndarray
    pages: np.ndarray
    bounds: np.ndarray

    def __len__(self) -> int:
        return int(self.docs.size)

    def page_counts(self) -> np.ndarray:
        """How many matching pages each document has, in order."""
        return np.diff(self.bounds)

    def pages_of(self, i: int) -> np.ndarray:
        return self.pages[self.bounds[i] : self.bounds[i + 1]]


def order_documents(
    page_ids: np.ndarray, docs: np.ndarray, bm25: np.ndarray, doc_day: np.ndarray, order: str
) -> DocumentOrder:
    """The documents of the pages (`docs[i]` is page i's document row) in `order`: `date`
    (newest first), `date_asc` (oldest first), undated documents last in both, or `bm25`; ties
    by best page BM25, then by document row. `doc_day` is each document row's day (NO_DATE)."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    if page_ids.size == 0:
        empty = np.zeros(0, np.int64)
        return DocumentOrder(empty, np.zeros(0), empty, np.zeros(1, np.int64))
    within = np.lexsort((page_ids, -bm25, docs))  # by document, then best page first
    doc = docs[within]
    first = np.flatnonzero(np.concatenate([[True], doc[1:] != doc[:-1]]))
    ends = np.append(first[1:], doc.size)
    rows = doc[first].astype(np.int64)
    best = bm25[within[first]]
    if order == "bm25":
        ranked = np.lexsort((rows, -best))
    else:
        day = doc_day[rows].astype(np.int64)
        undated = day == NO_DATE
        ranked = np.lexsort((rows, -best, day if order == "date_asc" else -day, undated))
    counts = (ends - first)[ranked]
    bounds = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    shift = np.repeat(first[ranked] - bounds[:-1], counts)
    return DocumentOrder(rows[ranked], best[ranked], within[np.arange(doc.size) + shift], bounds)
