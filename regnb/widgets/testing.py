"""Test doubles for the widgets: an engine that has only the `EngineAPI` methods (with sort and
facets of its own, computed from every document of the search, so that the front ends can be
tested against the extensions whatever engine it wraps), and a paced, scripted conversation
service (no threads, no clock: a running message takes one more step at each read until it is
done).

    api = ProtocolOnly(local_engine, ScriptedConversations(source))
    chat = ResearchChat(api, scheduler=ManualScheduler())
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from regnb.errors import FeatureNotOffered, InvalidRequest, NotFound, TurnInFlight
from regnb.models import (
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ConversationSummary,
    ProducedDocument,
)

__all__ = [
    "PROTOCOL_METHODS",
    "SORTS",
    "ProtocolOnly",
    "ScriptedConversations",
    "Source",
    "facet_counts",
    "sorted_results",
]

SORTS = ("relevance", "date", "date_asc")
FIXED_FACETS = ("dataset", "year", "month", "cfr", "section")
OWN = ("search", "facets", "matches")  # what ProtocolOnly answers itself

SEARCH_METHODS = (
    "datasets",
    "check_search",
    "search",
    "read",
    "legacy_search",
    "legacy_contents",
    "facets",
    "matches",
    "firm",  # FirmAPI: firms across datasets
    "timeline",
)
CONVERSATION_METHODS = (
    "start_conversation",
    "send_message",
    "list_conversations",
    "read_conversation",
    "stop_conversation",
    "produced_document",
    "download_document",
)
PROTOCOL_METHODS = ("plan", *SEARCH_METHODS, *CONVERSATION_METHODS)
PNG = (  # a 1x1 transparent PNG
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f"
    b"\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00"
    b"\x00IEND\xaeB`\x82"
)
STEPS = ("Planning the search", "Searching FDA Warning Letters", "Reading 3 documents")


def _url(conversation_id: str) -> str:
    return f"https://example.test/c/{conversation_id}"


class ProtocolOnly:
    """An engine that answers only `EngineAPI`'s names: search, read and datasets from `search`
    (an engine), the conversation methods from `conversations`, `plan` as given (else the
    engine's). Any other attribute raises
    AttributeError, so a front end that reaches into a store or catalog fails. `calls` lists
    the methods called, in order."""

    def __init__(
        self,
        search: Any,
        conversations: Any = None,
        *,
        plan: str | None = None,
        extensions: bool = True,
    ) -> None:
        self._search, self._conversations, self._plan = search, conversations, plan
        self.extensions = extensions
        """False: an engine without sort, facets or matches (an older server's client)."""
        self.calls: list[str] = []
        self.sent: list[dict[str, Any]] = []  # the keyword arguments of each search

    def __getattr__(self, name: str) -> Any:
        if name == "plan":
            return self._plan or self._search.plan
        if name in OWN:
            target: Any = _Extended(self)
        elif name in SEARCH_METHODS:
            target = self._search
        elif name in CONVERSATION_METHODS and self._conversations is not None:
            target = self._conversations
        else:
            raise AttributeError(f"{name!r} is not part of the engine interface")
        method = getattr(target, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return method(*args, **kwargs)

        return call


def _year(doc: dict[str, Any]) -> str | None:
    date = doc.get("date")
    return date[:4] if isinstance(date, str) and len(date) >= 4 else None


def _facet_value(doc: dict[str, Any], name: str) -> Any:
    if name == "dataset":
        return doc.get("dataset")
    if name == "year":
        return _year(doc)
    if name == "month":
        date = doc.get("date")
        return date[:7] if isinstance(date, str) and len(date) >= 7 else None
    if name == "cfr":
        return None  # the engine's own citations come with the cfr branch
    return (doc.get("fields") or {}).get(name)


def facet_counts(
    results: Sequence[dict[str, Any]], facets: Sequence[str | dict[str, Any]]
) -> dict[str, list[dict[str, Any]]]:
    """Counts of documents (and their matched pages) per value of each facet, most documents
    first, then by value; a facet given as `{"name", "size"}` keeps its `size` values."""
    out: dict[str, list[dict[str, Any]]] = {}
    for spec in facets:
        name, size = (spec, 20) if isinstance(spec, str) else (spec["name"], spec.get("size", 20))
        docs: Counter[Any] = Counter()
        pages: Counter[Any] = Counter()
        for doc in results:
            value = _facet_value(doc, name)
            if value is not None:
                docs[value] += 1
                pages[value] += int(doc.get("matched_pages") or len(doc.get("pages") or ()))
        order = sorted(docs, key=lambda v: (-docs[v], str(v)))[:size]
        out[name] = [{"value": v, "documents": docs[v], "pages": pages[v]} for v in order]
    return out


def sorted_results(results: Sequence[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    """The documents in `sort` order: as ranked, newest first or oldest first; undated last,
    ties in rank order."""
    if sort == "relevance":
        return list(results)
    dated = [r for r in results if r.get("date")]
    undated = [r for r in results if not r.get("date")]
    ranked = sorted(dated, key=lambda r: str(r["date"]), reverse=sort == "date")  # stable
    return ranked + undated


class _Extended:
    """ProtocolOnly's own search, facets and matches over the wrapped engine's plain search."""

    def __init__(self, api: ProtocolOnly) -> None:
        self.api, self.engine = api, api._search

    def _check(self, sort: str, facets: Sequence[Any] | None) -> None:
        if not self.api.extensions and (sort != "relevance" or facets is not None):
            name = "sort" if sort != "relevance" else "facets"
            raise FeatureNotOffered(f"this engine does not offer {name}", field=name)
        if sort not in SORTS:
            raise InvalidRequest(f"sort must be one of {', '.join(SORTS)}", field="sort")
        catalog_fields = {f for d in self.engine.datasets() for f in d.fields}
        for i, spec in enumerate(facets or ()):
            name = spec if isinstance(spec, str) else spec.get("name")
            if name not in FIXED_FACETS and name not in catalog_fields:
                raise InvalidRequest(f"no facet {name!r}", field=f"facets[{i}]")

    def search(
        self,
        keywords: Any,
        query: str | None = None,
        *,
        limit: int = 20,
        offset: int = 0,
        syntax: str = "query",
        sort: str = "relevance",
        facets: Sequence[str | dict[str, Any]] | None = None,
        **args: Any,
    ) -> Any:
        self.api.sent.append({"keywords": keywords, "query": query, "limit": limit, **args})
        self.api.sent[-1] |= {"offset": offset, "sort": sort, "facets": facets}
        self._check(sort, facets)
        if sort == "relevance" and facets is None:
            return self.engine.search(keywords, query, limit=limit, offset=offset, **args)
        from regnb.paging import search_all

        first = self.engine.search(keywords, query, limit=limit, offset=offset, **args)
        every = search_all(self.engine, keywords, query, **args).results
        ordered = sorted_results(every, sort) if sort != "relevance" else first.results
        shown = ordered[offset : offset + limit] if sort != "relevance" else ordered
        after = offset + limit if sort != "relevance" and offset + limit < len(every) else None
        return dataclasses.replace(
            first,
            results=copy.deepcopy(shown),
            next_offset=after if sort != "relevance" else first.next_offset,
            facet_counts=None if facets is None else facet_counts(every, facets),
        )

    def facets(
        self,
        keywords: Any,
        query: str | None = None,
        *,
        by: Sequence[str] = ("dataset", "year"),
        size: int = 20,
        syntax: str = "query",
        **args: Any,
    ) -> dict[str, pd.DataFrame]:
        specs = [{"name": name, "size": size} for name in by]
        result = self.search(keywords, query, limit=1, facets=specs, **args)
        return dict(result.facets)

    def matches(
        self,
        keywords: Any,
        query: str | None = None,
        *,
        order: str = "date",
        batch_size: int | None = None,
        syntax: str = "query",
        **args: Any,
    ) -> pd.DataFrame | Iterator[pd.DataFrame]:
        if not self.api.extensions:
            raise FeatureNotOffered("this engine does not offer every match", field="matches")
        from regnb.paging import search_all

        every = search_all(self.engine, keywords, query, **args)
        docs = sorted_results(every.results, "relevance" if order == "bm25" else order)
        frame = every.documents_wide.set_index("document_id").loc[[d["document_id"] for d in docs]]
        frame = frame.reset_index()
        if batch_size is None:
            return frame
        return iter([frame[i : i + batch_size] for i in range(0, len(frame), batch_size)])


@dataclass(frozen=True)
class Source:
    """The page the scripted answers cite, and the block of it that the passage citation names."""

    document_id: str
    title: str
    dataset: str  # display name
    date: str | None
    url: str
    page_num: int
    block_id: str = "¶1"


@dataclass
class _Conversation:
    id: str
    turns: list[dict[str, Any]] = field(default_factory=list)
    documents: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    reads: int = 0
    stopped: bool = False


class ScriptedConversations:
    """The seven conversation methods over memory. A message runs for `steps` reads, one more
    step shown at each; then it completes with an answer citing `source` (its page, and block
    `source.block_id` of it), or asks "Which dataset do you mean?" when the message holds
    `[clarify]`. `[image]`, `[file]` and `[text]` produce a document. Numbers continue."""

    def __init__(self, source: Source, *, steps: int = 2) -> None:
        self.source, self.steps = source, steps
        self.conversations: dict[str, _Conversation] = {}
        self._ids = itertools.count(1)

    def _get(self, conversation_id: str) -> _Conversation:
        if conversation_id not in self.conversations:
            raise NotFound(f"no conversation {conversation_id!r}", field="conversation_id")
        return self.conversations[conversation_id]

    def _begin(self, conv: _Conversation, message: str) -> ConversationAccepted:
        turn: dict[str, Any] = {
            "turn_index": len(conv.turns),
            "message": message,
            "status": "running",
            "answer": None,
            "citations": [],
            "question": None,
            "submitted_at": "2026-01-01T00:00:00Z",
            "steps": [{"message": STEPS[0], "count": 0}],
        }
        conv.turns.append(turn)
        conv.reads, conv.stopped = 0, False
        return ConversationAccepted(conv.id, turn["turn_index"], "running", _url(conv.id))

    def start_conversation(
        self, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        conv = _Conversation(f"conv_{next(self._ids):04d}")
        self.conversations[conv.id] = conv
        return self._begin(conv, message)

    def send_message(
        self, conversation_id: str, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        conv = self._get(conversation_id)
        if conv.turns and conv.turns[-1]["status"] == "running":
            raise TurnInFlight("the previous message is still running", field="conversation_id")
        return self._begin(conv, message)

    def read_conversation(self, conversation_id: str, wait: float = 0) -> ConversationRead:
        conv = self._get(conversation_id)
        turn = conv.turns[-1] if conv.turns else None
        if turn is not None and turn["status"] == "running":
            conv.reads += 1
            if conv.reads >= self.steps:
                self._finish(conv, turn)
            else:
                step = STEPS[min(conv.reads, len(STEPS) - 1)]
                turn["steps"].append({"message": step, "count": conv.reads * 3})
        return self._view(conv)

    def _view(self, conv: _Conversation) -> ConversationRead:
        last = conv.turns[-1]["status"] if conv.turns else "stopped"
        status = "stopped" if conv.stopped else last
        turns = []
        for t in conv.turns:
            shown = {k: v for k, v in t.items() if k != "steps" or t["status"] == "running"}
            turns.append(copy.deepcopy(shown))
        return ConversationRead.from_dict(
            {
                "conversation_id": conv.id,
                "status": status,
                "url": _url(conv.id),
                "turns": turns,
                "documents": conv.documents,
                "error": None,
            }
        )

    def _finish(self, conv: _Conversation, turn: dict[str, Any]) -> None:
        if "[clarify]" in turn["message"]:
            question = "Which dataset do you mean?"
            turn.update(status="needs_input", answer=question)
            turn["question"] = {"question": question, "options": ["Form 483", "Recalls"]}
            return
        first = 1 + sum(len(t["citations"]) for t in conv.turns)
        page, passage = self._citations(first)
        turn.update(status="completed", citations=[page, passage])
        turn["answer"] = (
            f"**In short:** the firm failed its sterility controls [{first + 1}].\n\n"
            f"Source: {self.source.title} [{first}]. <script>alert(1)</script>"
        )
        self._produce(conv, turn["message"])

    def _citations(self, first: int) -> tuple[dict[str, Any], dict[str, Any]]:
        src = self.source
        page = {
            "index": first,
            "name": f"{src.title}, page {src.page_num}",
            "dataset": src.dataset,
            "date": src.date,
            "page_num": src.page_num,
            "url": src.url,
        }
        passage = {**page, "index": first + 1, "block_id": src.block_id, "parent_index": first}
        return page, passage

    def _produce(self, conv: _Conversation, message: str) -> None:
        made = {
            "[image]": ("Chart", "image", "chart.png", PNG),
            "[file]": ("Letters", "file", "letters.xlsx", b"PK fake workbook"),
            "[text]": ("Report", "text", "report.md", b"# Report\n\nSterility [1]."),
        }
        for tag, (title, kind, filename, data) in made.items():
            if tag in message:
                doc_id = f"doc_{len(conv.documents) + 1}"
                conv.documents.append(
                    {"id": doc_id, "title": title, "type": kind, "created_at": None}
                )
                conv.files[doc_id] = (filename, data)

    def stop_conversation(self, conversation_id: str) -> ConversationStopped:
        conv = self._get(conversation_id)
        running = bool(conv.turns) and conv.turns[-1]["status"] == "running"
        if running:
            conv.turns.pop()
            conv.stopped = True
        return ConversationStopped(conv.id, running)

    def list_conversations(
        self, status: str = "all", limit: int = 20, offset: int = 0
    ) -> ConversationList:
        rows = [self._summary(c) for c in self.conversations.values()]
        if status == "running":
            rows = [r for r in rows if r.status == "running"]
        page = tuple(rows[offset : offset + limit])
        return ConversationList(page, len(rows), limit, offset)

    def _summary(self, conv: _Conversation) -> ConversationSummary:
        read = self._view(conv)
        title = conv.turns[0]["message"] if conv.turns else None
        stamp = "2026-01-01T00:00:00Z"
        return ConversationSummary(
            conv.id, title, read.status, stamp, stamp, len(conv.turns), read.url
        )

    def produced_document(self, conversation_id: str, document_id: str) -> ProducedDocument:
        conv = self._get(conversation_id)
        doc = next((d for d in conv.documents if d["id"] == document_id), None)
        if doc is None:
            raise NotFound(f"no document {document_id!r}", field="document_id")
        return ProducedDocument.from_dict(doc)

    def download_document(self, conversation_id: str, document_id: str) -> tuple[str, bytes]:
        conv = self._get(conversation_id)
        if document_id not in conv.files:
            raise NotFound(f"no document {document_id!r}", field="document_id")
        return conv.files[document_id]
