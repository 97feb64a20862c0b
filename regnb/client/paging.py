"""`search_all` and `read_all` for any engine: moved to the core as `regnb.paging`; this name
stays for code that imports it from the client."""

from __future__ import annotations

from regnb.paging import (
    AsyncPagingMethods,
    DocumentPages,
    PagingMethods,
    SearchSlices,
    read_all,
    read_all_async,
    search_all,
    search_all_async,
)

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
