"""Every slice of a search and every page of a document, gathered into one result (core: the
local engine and the remote clients share it).

`search_all` and `read_all` page any engine with the interface's `search` and `read`; the remote
clients take them as methods from `PagingMethods` (sync) and `AsyncPagingMethods` (coroutines).
A search follows `next_offset` until it is null and keeps the first of any document that comes
twice (results may shift between calls, as the spec warns); a read follows `next_page_from`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Unpack

from regnb.request import SearchArgs, SearchRequest
from regnb.results import DocumentRead, SearchResult
from regnb.validate import LIMIT_MAX, OFFSET_MAX, search_args

__all__ = [
    "AsyncPagingMethods",
    "DocumentPages",
    "PagingMethods",
    "SearchSlices",
    "read_all",
    "read_all_async",
    "search_all",
    "search_all_async",
]


class SearchSlices:
    """Slices of one search, gathered: the first slice's statuses and ranking, the last one's
    total, every document once, in the order first seen."""

    def __init__(self) -> None:
        self.first: SearchResult | None = None
        self.last: SearchResult | None = None
        self.results: list[dict[str, Any]] = []
        self.seen: set[str] = set()

    def add(self, result: SearchResult, offset: int) -> int | None:
        """Keep a slice read at `offset`; the offset of the next one, or None at the end (also
        when the server's `next_offset` does not move forward or the slice is empty)."""
        self.first = self.first or result
        self.last = result
        for doc in result.results:
            if doc["document_id"] not in self.seen:
                self.seen.add(doc["document_id"])
                self.results.append(doc)
        nxt = result.next_offset
        if nxt is None or nxt <= offset or nxt > OFFSET_MAX or not result.results:
            return None
        return nxt

    def result(self) -> SearchResult:
        assert self.first is not None and self.last is not None
        return SearchResult(
            results=self.results,
            dataset_statuses=self.first.dataset_statuses,
            total=self.last.total,
            next_offset=None,
            ranking=self.first.ranking,
            names=self.first.names,
            notices=self.first.notices,
            syntax=self.first.syntax,
        )


class DocumentPages:
    """Reads of one document, gathered: each page once, the last read's `next_page_from`."""

    def __init__(self, page_to: int | None) -> None:
        self.page_to = page_to
        self.first: DocumentRead | None = None
        self.last: DocumentRead | None = None
        self.pages: dict[int, dict[str, Any]] = {}

    def add(self, read: DocumentRead, page_from: int) -> int | None:
        """Keep a read that started at `page_from`; where the next starts, or None."""
        self.first = self.first or read
        self.last = read
        for page in read.page_list:
            self.pages.setdefault(int(page["page_num"]), page)
        nxt = read.next_page_from
        if nxt is None or nxt <= page_from or not read.page_list:
            return None
        if self.page_to is not None and nxt > self.page_to:
            return None
        return nxt

    def result(self) -> DocumentRead:
        assert self.first is not None and self.last is not None
        return dataclasses.replace(
            self.last,
            page_list=[self.pages[n] for n in sorted(self.pages)],
            title=self.first.title,
        )


def _slice(
    keywords: Sequence[str] | str | SearchRequest, offset: int, limit: int
) -> tuple[Sequence[str] | str | SearchRequest, dict[str, int]]:
    """A checked request moved to `offset`, or the keyword arguments for it."""
    if isinstance(keywords, SearchRequest):
        return dataclasses.replace(keywords, offset=offset), {}
    return keywords, {"offset": offset, "limit": limit}


def search_all(
    engine: Any,
    keywords: Sequence[str] | str | SearchRequest,
    query: str | None = None,
    *,
    limit: int = LIMIT_MAX,
    **options: Any,
) -> SearchResult:
    """Every document of a search, from offset 0 to the end, each once."""
    slices, offset = SearchSlices(), 0
    while True:
        what, window = _slice(keywords, offset, limit)
        nxt = slices.add(engine.search(what, query, **options, **window), offset)
        if nxt is None:
            return slices.result()
        offset = nxt


async def search_all_async(
    engine: Any,
    keywords: Sequence[str] | str | SearchRequest,
    query: str | None = None,
    *,
    limit: int = LIMIT_MAX,
    **options: Any,
) -> SearchResult:
    """`search_all` over an engine whose `search` is a coroutine."""
    slices, offset = SearchSlices(), 0
    while True:
        what, window = _slice(keywords, offset, limit)
        nxt = slices.add(await engine.search(what, query, **options, **window), offset)
        if nxt is None:
            return slices.result()
        offset = nxt


def read_all(
    engine: Any, document_id: str, page_from: int = 1, page_to: int | None = None, **options: Any
) -> DocumentRead:
    """Pages `page_from` to `page_to` (default: the end) of a document, over as many reads as
    the server's page and size limits need."""
    pages, start = DocumentPages(page_to), page_from
    while True:
        nxt = pages.add(engine.read(document_id, start, page_to, **options), start)
        if nxt is None:
            return pages.result()
        start = nxt


async def read_all_async(
    engine: Any, document_id: str, page_from: int = 1, page_to: int | None = None, **options: Any
) -> DocumentRead:
    """`read_all` over an engine whose `read` is a coroutine."""
    pages, start = DocumentPages(page_to), page_from
    while True:
        nxt = pages.add(await engine.read(document_id, start, page_to, **options), start)
        if nxt is None:
            return pages.result()
        start = nxt


class PagingMethods:
    """`search_all` and `read_all` for an engine with the interface's `search` and `read`."""

    def search_all(
        self,
        keywords: Sequence[str] | str | SearchRequest,
        query: str | None = None,
        *,
        limit: int = LIMIT_MAX,
        **args: Unpack[SearchArgs],
    ) -> SearchResult:
        """Every document of the search (`limit` per call), duplicates dropped; the statuses
        are the first call's. `args` as `search` takes them. A `SearchRequest` is read from
        offset 0 with its own limit."""
        return search_all(self, keywords, query, limit=limit, **search_args(args))

    def read_all(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead:
        """Pages `page_from` to `page_to` (default: the end) in one `DocumentRead`."""
        return read_all(self, document_id, page_from, page_to, plan=plan)


class AsyncPagingMethods:
    """`search_all` and `read_all` as coroutines, for an engine whose methods are coroutines."""

    async def search_all(
        self,
        keywords: Sequence[str] | str | SearchRequest,
        query: str | None = None,
        *,
        limit: int = LIMIT_MAX,
        **args: Unpack[SearchArgs],
    ) -> SearchResult:
        """Every document of the search, duplicates dropped (see `PagingMethods.search_all`)."""
        return await search_all_async(self, keywords, query, limit=limit, **search_args(args))

    async def read_all(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead:
        """Pages `page_from` to `page_to` (default: the end) in one `DocumentRead`."""
        return await read_all_async(self, document_id, page_from, page_to, plan=plan)
