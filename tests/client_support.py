"""Test helpers for the client's sans-I/O layer."""

from __future__ import annotations

from typing import Any

from regnb.client import _calls as calls
from regnb.request import SearchArgs

__all__ = ["search_body"]


def search_body(keywords: Any, query: str | None = None, **given: Any) -> dict[str, Any]:
    """`calls.search_body` with the search block and the rest as keyword arguments, as the
    public `search` takes them."""
    args = {k: v for k, v in given.items() if k in SearchArgs.__annotations__}
    rest = {k: v for k, v in given.items() if k not in args}
    return calls.search_body(keywords, query, SearchArgs(**args), **rest)
