"""search_all and read_all: every slice and every page, each document and page once."""

from __future__ import annotations

from typing import Any

import pytest

from regnb.client.paging import (
    PagingMethods,
    read_all,
    read_all_async,
    search_all,
    search_all_async,
)
from regnb.results import DocumentRead, SearchResult
from tests.conftest import doc


def envelope(ids: list[str], next_offset: int | None, total: int = 9) -> SearchResult:
    results = [{"document_id": i, "pages": [{"page_num": 1, "score": 1.0, "text": i}]} for i in ids]
    statuses = {"fda_483": {"status": "ok", "matches": total, "pages": total}}
    return SearchResult(results, statuses, total, next_offset, "similarity")


class Slices(PagingMethods):
    """A search whose slices are given; records the offsets asked for."""

    def __init__(self, slices: dict[int, SearchResult]) -> None:
        self.slices, self.asked = slices, []

    def search(self, keywords: Any, query: Any = None, **kw: Any) -> SearchResult:
        self.asked.append((kw["offset"], kw["limit"]))
        return self.slices[kw["offset"]]


def test_search_all_follows_next_offset_and_drops_documents_seen_before():
    engine = Slices(
        {
            0: envelope(["a", "b", "c"], 3),
            3: envelope(["c", "d", "e"], 6),  # the list shifted: c comes again
            6: envelope(["f"], None, total=8),
        }
    )
    res = engine.search_all(["sterility"], limit=3)
    assert [r["document_id"] for r in res.results] == ["a", "b", "c", "d", "e", "f"]
    assert engine.asked == [(0, 3), (3, 3), (6, 3)]
    assert (res.total, res.next_offset, res.ranking) == (8, None, "similarity")
    assert res.dataset_statuses == envelope([], None).dataset_statuses


@pytest.mark.parametrize(
    "slices",
    [
        {0: envelope(["a"], 0)},  # next_offset does not move
        {0: envelope(["a"], 1), 1: envelope([], 2)},  # an empty slice
        {0: envelope(["a"], 501)},  # past the spec's largest offset
    ],
)
def test_search_all_stops_where_a_server_would_loop(slices: dict[int, SearchResult]):
    res = Slices(slices).search_all(["x"])
    assert [r["document_id"] for r in res.results] == ["a"]


class Pages(PagingMethods):
    """A document of `total` pages served `per_read` pages at a time."""

    def __init__(self, total: int, per_read: int) -> None:
        self.total, self.per_read, self.asked = total, per_read, []

    def read(self, document_id: str, page_from: int = 1, page_to: Any = None, **kw: Any):
        self.asked.append(page_from)
        last = min(self.total, page_to or self.total, page_from + self.per_read - 1)
        pages = [{"page_num": n, "text": f"p{n}"} for n in range(page_from, last + 1)]
        nxt = last + 1 if pages and last < self.total else None
        return DocumentRead(document_id, "fda_483", "T", None, self.total, pages, nxt)


@pytest.mark.parametrize(
    ("page_from", "page_to", "nums", "asked", "next_page_from"),
    [
        (1, None, list(range(1, 8)), [1, 4, 7], None),
        (2, None, list(range(2, 8)), [2, 5], None),
        (2, 5, [2, 3, 4, 5], [2, 5], 6),
        (9, None, [], [9], None),
    ],
)
def test_read_all_follows_next_page_from(page_from, page_to, nums, asked, next_page_from):
    engine = Pages(total=7, per_read=3)
    read = engine.read_all("d1", page_from, page_to)
    assert [p["page_num"] for p in read.page_list] == nums
    assert engine.asked == asked
    assert (read.total_pages, read.next_page_from) == (7, next_page_from)


def corpus() -> dict[str, list[dict[str, Any]]]:
    pages = [f"Page {n} records a sterility failure in lot {n}." for n in range(1, 8)]
    many = [doc(f"Form 483 number {i}", [f"sterility finding {i}"]) for i in range(12)]
    return {"fda_483": [doc("Long record", pages), *many]}


def test_on_the_local_engine_read_all_joins_reads_cut_by_the_page_limit(make_engine):
    engine = make_engine(corpus(), read_max_pages=2)
    long_id = engine.search(["sterility failure lot"], limit=1).results[0]["document_id"]
    assert engine.read(long_id).next_page_from == 3
    whole = read_all(engine, long_id)
    assert [p["page_num"] for p in whole.page_list] == list(range(1, 8))
    assert whole.text == "\n\n".join(
        f"Page {n} records a sterility failure in lot {n}." for n in range(1, 8)
    )
    assert whole.next_page_from is None


def test_on_the_local_engine_search_all_equals_one_big_slice(make_engine):
    engine = make_engine(corpus())
    everything = search_all(engine, ["sterility"], limit=5)
    one = engine.search(["sterility"], limit=50)
    assert everything.to_dict() == one.to_dict()
    checked = engine.check_search(["sterility"], limit=4, offset=8)
    assert search_all(engine, checked).to_dict() == one.to_dict()


class Async:
    """An engine whose search and read are coroutines, over a sync one."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def search(self, *args: Any, **kw: Any) -> SearchResult:
        return self.inner.search(*args, **kw)

    async def read(self, *args: Any, **kw: Any) -> DocumentRead:
        return self.inner.read(*args, **kw)


@pytest.mark.anyio
async def test_the_async_versions_gather_the_same():
    slices = {0: envelope(["a", "b"], 2), 2: envelope(["b", "c"], None)}
    res = await search_all_async(Async(Slices(slices)), ["x"], limit=2)
    assert [r["document_id"] for r in res.results] == ["a", "b", "c"]
    read = await read_all_async(Async(Pages(total=5, per_read=2)), "d")
    assert [p["page_num"] for p in read.page_list] == [1, 2, 3, 4, 5]
