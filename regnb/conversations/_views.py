"""The spec's objects (`regnb.models`) from store rows: conversation read, turn, citation,
summary, produced document, and the start/follow-up response. Pure functions, so each shape is
tested alone; `to_dict()` of what they return is the JSON the server sends.

The `url` fields start with `link_base()`: REGNB_PUBLIC_URL when it is set, else the base URL of
the HTTP request being answered (which the server names with `links_from`), else
`http://localhost:8000` (a local engine, outside any request).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from regnb.models import (
    Citation,
    ConversationAccepted,
    ConversationRead,
    ConversationSummary,
    ProducedDocument,
    ProducedDocumentEntry,
    Question,
    Step,
    Turn,
)

__all__ = [
    "accepted_body",
    "citation_body",
    "conversation_body",
    "conversation_url",
    "document_entry",
    "link_base",
    "links_from",
    "produced_body",
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


def accepted_body(
    base: str, conversation_id: str, turn_index: int, status: str
) -> ConversationAccepted:
    """The start and follow-up response."""
    url = conversation_url(base, conversation_id)
    return ConversationAccepted(conversation_id, turn_index, status, url)


def citation_body(row: dict[str, Any]) -> Citation:
    """A page citation, or a passage citation with `block_id` and `parent_index`."""
    passage = row["block_id"] is not None
    return Citation(
        index=row["idx"],
        name=row["name"],
        dataset=row["dataset"],
        date=row["date"],
        page_num=row["page_num"],
        url=row["url"],
        block_id=row["block_id"],
        parent_index=row["parent_index"] if passage else None,
    )


def _question(value: Any) -> Question | None:
    return Question.from_dict(value) if value is not None else None


def turn_body(row: dict[str, Any], citations: list[dict[str, Any]]) -> Turn:
    """A turn; `steps` only while it runs."""
    steps = None
    if row["status"] == "running":
        steps = tuple(Step.from_dict(s) for s in row["steps"])
    return Turn(
        turn_index=row["turn_index"],
        message=row["message"],
        status=row["status"],
        answer=row["answer"],
        citations=tuple(citation_body(c) for c in citations),
        question=_question(row["question"]),
        submitted_at=row["submitted_at"],
        steps=steps,
    )


def document_entry(row: dict[str, Any]) -> ProducedDocumentEntry:
    """A produced document as the conversation lists it; `available` (an extension of the
    spec's fields) is present, and false, only when the file was deleted from disk."""
    return ProducedDocumentEntry(
        id=row["document_id"],
        title=row["title"],
        type=row["type"],
        created_at=row["created_at"],
        available=False if row.get("available") is False else None,
    )


def produced_body(
    row: dict[str, Any],
    *,
    content: str | None = None,
    url: str | None = None,
    filename: str | None = None,
    expires_in: int | None = None,
) -> ProducedDocument:
    """A produced document read alone: its entry, with a text's `content` or a file's link."""
    entry = document_entry(row)
    return ProducedDocument(
        entry.id,
        entry.title,
        entry.type,
        entry.created_at,
        entry.available,
        content=content,
        url=url,
        filename=filename,
        expires_in=expires_in,
    )


def conversation_body(
    base: str,
    conversation: dict[str, Any],
    turns: list[dict[str, Any]],
    citations: list[dict[str, Any]],
    documents: list[dict[str, Any]],
) -> ConversationRead:
    """The conversation read: every turn oldest first, with its own citations."""
    by_turn: dict[int, list[dict[str, Any]]] = {}
    for c in citations:
        by_turn.setdefault(c["turn_index"], []).append(c)
    status = conversation["status"]
    return ConversationRead(
        conversation_id=conversation["conversation_id"],
        status=status,
        url=conversation_url(base, conversation["conversation_id"]),
        turns=tuple(turn_body(t, by_turn.get(t["turn_index"], [])) for t in turns),
        documents=tuple(document_entry(d) for d in documents),
        error=conversation["error"] if status == "error" else None,
    )


def summary_body(base: str, row: dict[str, Any]) -> ConversationSummary:
    """A conversation in the list."""
    return ConversationSummary(
        conversation_id=row["conversation_id"],
        title=row["title"],
        status=row["status"],
        created_at=row["created_at"],
        last_activity_at=row["last_activity_at"],
        turn_count=row["turn_count"],
        url=conversation_url(base, row["conversation_id"]),
    )
