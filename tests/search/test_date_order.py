"""Documents of matching pages by date or best BM25 (`regnb.search.date_order`), over plain arrays."""

from __future__ import annotations

import numpy as np
import pytest

from regnb.index.segments import NO_DATE
from regnb.search.date_order import order_documents

# pages 0..5 of documents 0, 0, 1, 2, 2, 3; document days 10, 30, undated, 30
PAGES = np.arange(6)
DOCS = np.array([0, 0, 1, 2, 2, 3])
BM25 = np.array([1.0, 3.0, 9.0, 2.0, 0.5, 2.0])
DAYS = np.array([10, 30, NO_DATE, 30], np.int32)


@pytest.mark.parametrize(
    ("order", "docs"),
    [
        ("date", [1, 3, 0, 2]),  # day 30 (best BM25 9.0, then 2.0), day 10, undated
        ("date_asc", [0, 1, 3, 2]),
        ("bm25", [1, 0, 2, 3]),
    ],
)
def test_documents_in_order(order, docs):
    found = order_documents(PAGES, DOCS, BM25, DAYS, order)
    assert found.docs.tolist() == docs


def test_ties_of_date_and_best_bm25_go_by_document_row():
    found = order_documents(PAGES, DOCS, BM25, np.array([5, 5, 5, 5], np.int32), "date")
    assert found.docs.tolist() == [1, 0, 2, 3]


def test_each_document_keeps_its_pages_best_first():
    found = order_documents(PAGES, DOCS, BM25, DAYS, "bm25")
    assert [found.pages_of(i).tolist() for i in range(len(found))] == [[2], [1, 0], [3, 4], [5]]
    assert found.page_counts().tolist() == [1, 2, 2, 1]
    assert found.best.tolist() == [9.0, 3.0, 2.0, 2.0]


def test_no_pages_no_documents():
    found = order_documents(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), DAYS, "date")
    assert len(found) == 0 and found.bounds.tolist() == [0]


def test_an_unknown_order_is_refused():
    with pytest.raises(ValueError, match="order"):
        order_documents(PAGES, DOCS, BM25, DAYS, "newest")
