"""The spec's JSON objects from store rows: conversation read, turn, citation, summary, produced
document, and the start/follow-up response. Pure functions, so each shape is tested alone.

The `url` fields start with `link_base()`: REGNB_PUBLIC_URL when it is set, else the base URL of
the HTTP request being answered (which the server names with `links_from`), else
`http://localhost:8000` (a local engine, outside any request).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

__all__ = [
    "accepted_body",
    "citation_body",
    "conversation_body",
    "conversation_url",
    "document_entry",
    "link_base",
    "links_from",
    "summary_body",
    "turn_body",
]


LOCAL_BASE = "http://localhost:8000"
_request_base: ContextVar[str | None] = ContextVar("regnb_request_base", default=None)


@contextlib.contextmanager
def links_from(base: str) -> Iterator[None]:
    """Within the block (and in the worker threads it starts), links are built on `base`: the
    server's handlers name each request's own base URL with it."""
    token = _request_base.set(base)
    try:
        yield
    finally:
        _request_base.reset(token)


def link_base(public_url: str = "") -> str:
    """The base of the `url` fields: `public_url` if set, else the request's, else local."""
    return (public_url or _request_base.get() or LOCAL_BASE).rstrip("/")


def conversation_url(base: str, conversation_id: str) -> str:
    """Where the key's owner reads the conversation (this service's read endpoint)."""
    return f"{base.rstrip('/')}/api/v3/conversations/{conversation_id}"


def accepted_body(base: str, conversation_id: str, turn_index: int, status: str) -> dict[str, Any]:
    """The start and follow-up response."""
    return {
        "conversation_id": conversation_id,
        "turn_index": turn_index,
        "status": status,
        "url": conversation_url(base, conversation_id),
    }


def citation_body(row: dict[str, Any]) -> dict[str, Any]:
    """A page citation, or a passage citation with `block_id` and `parent_index`."""
    out = {
        "index": row["idx"],
        "name": row["name"],
        "dataset": row["dataset"],
        "date": row["date"],
        "page_num": row["page_num"],
        "url": row["url"],
    }
    if row["block_id"] is not None:
        out["block_id"] = row["block_id"]
        out["parent_index"] = row["parent_index"]
    return out


def turn_body(row: dict[str, Any], citations: list[dict[str, Any]]) -> dict[str, Any]:
    """A turn; `steps` only while it runs."""
    out = {
        "turn_index": row["turn_index"],
        "message": row["message"],
        "status": row["status"],
        "answer": row["answer"],
        "citations": [citation_body(c) for c in citations],
        "question": row["question"],
        "submitted_at": row["submitted_at"],
    }
    if row["status"] == "running":
        out["steps"] = list(row["steps"])
    return out


def document_entry(row: dict[str, Any]) -> dict[str, Any]:
    """A produced document as the conversation lists it; `available` (an extension of the
    spec's fields) is present, and false, only when the file was deleted from disk."""
    out = {
        "id": row["document_id"],
        "title": row["title"],
        "type": row["type"],
        "created_at": row["created_at"],
    }
    if row.get("available") is False:
        out["available"] = False
    return out


def conversation_body(
    base: str,
    conversation: dict[str, Any],
    turns: list[dict[str, Any]],
    citations: list[dict[str, Any]],
    documents: list[dict[str, Any]],
) -> dict[str, Any]:
    """The conversation read: every turn oldest first, with its own citations."""
    by_turn: dict[int, list[dict[str, Any]]] = {}
    for c in citations:
        by_turn.setdefault(c["turn_index"], []).append(c)
    status = conversation["status"]
    return {
        "conversation_id": conversation["conversation_id"],
        "status": status,
        "url": conversation_url(base, conversation["conversation_id"]),
        "turns": [turn_body(t, by_turn.get(t["turn_index"], [])) for t in turns],
        "documents": [document_entry(d) for d in documents],
        "error": conversation["error"] if status == "error" else None,
    }


def summary_body(base: str, row: dict[str, Any]) -> dict[str, Any]:
    """A conversation in the list."""
    return {
        "conversation_id": row["conversation_id"],
        "title": row["title"],
        "status": row["status"],
        "created_at": row["created_at"],
        "last_activity_at": row["last_activity_at"],
        "turn_count": row["turn_count"],
        "url": conversation_url(base, row["conversation_id"]),
    }
