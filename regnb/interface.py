"""The engine interface: what a front end (CLI, HTTP app, widgets, notebooks) may call.

The local `regnb.Engine` and the remote client both implement it; results are the same objects,
rebuilt from the spec's JSON with `from_dict` on the remote side. Front ends depend on this
protocol, never on an engine's store, catalog internals or normaliser.

The conversation methods mirror the spec's conversation endpoints one to one and return the
spec's objects as `regnb.models` types (`to_dict()` is the JSON); `regnb.conversations.conversation.Conversation`
is the convenient object built on them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import pandas as pd

    from regnb.catalog import Catalog
    from regnb.firms.timeline import Timeline
    from regnb.models import (
        ConversationAccepted,
        ConversationList,
        ConversationRead,
        ConversationStopped,
        ProducedDocument,
    )
    from regnb.request import SearchRequest
    from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult

__all__ = ["ConversationAPI", "EngineAPI", "FirmAPI", "SearchAPI"]


@runtime_checkable
class SearchAPI(Protocol):
    """Search, read and list datasets: the spec's v3 and legacy document endpoints."""

    plan: str

    def datasets(self, refresh: bool = False) -> Catalog:
        """The dataset catalog (`GET /api/v3/datasets`); `refresh` reads it again where it is
        kept (a remote client's copy of the server's)."""
        ...

    def check_search(
        self,
        keywords: Sequence[str] | str,
        query: str | None = None,
        *,
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        limit: int = 20,
        offset: int = 0,
        plan: str | None = None,
        syntax: str = "query",
        sort: str = "relevance",
        facets: Sequence[str | dict[str, Any]] | None = None,
        places: bool = False,
    ) -> SearchRequest:
        """A search checked and normalised once; raises the spec's 400 errors."""
        ...

    def search(
        self,
        keywords: Sequence[str] | str | SearchRequest,
        query: str | None = None,
        *,
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        limit: int = 20,
        offset: int = 0,
        plan: str | None = None,
        syntax: str = "query",
        sort: str = "relevance",
        facets: Sequence[str | dict[str, Any]] | None = None,
        places: bool = False,
    ) -> SearchResult:
        """v3 search (`POST /api/v3/search`); a `SearchRequest` is run as it is.

        Extensions of the spec: `syntax` ("query": phrases, `-word`, `OR`, `field:value`,
        `prefix*` inside items; "plain": the spec's words), `sort` ("relevance", "date" newest
        first, "date_asc"), `facets` (names, or `{"name", "size"}`: counts over every match
        in `SearchResult.facets`) and `places` (each firm-facing result's fields with its
        firm's `country`, `state` and `city`)."""
        ...

    def facets(
        self,
        keywords: Sequence[str] | str,
        query: str | None = None,
        *,
        by: Sequence[str] | str = ("dataset", "year"),
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        plan: str | None = None,
        syntax: str = "query",
        size: int = 20,
    ) -> dict[str, pd.DataFrame]:
        """Counts over every full match of the search, one DataFrame (`value`, `documents`,
        `pages`) per facet of `by`: `dataset`, `year`, `month`, `cfr` or a catalog field."""
        ...

    def matches(
        self,
        keywords: Sequence[str] | str,
        query: str | None = None,
        *,
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        plan: str | None = None,
        syntax: str = "query",
        order: str = "date",
        batch_size: int | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> pd.DataFrame | Iterator[pd.DataFrame]:
        """Every matching document (not only the ranked ones), ordered by `order` ("date",
        "date_asc" or "bm25"): one DataFrame, or with `batch_size` an iterator of them."""
        ...

    def read(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead:
        """Pages of a document (`GET /api/v3/documents/{document_id}`)."""
        ...

    def legacy_search(
        self,
        query_text: str,
        top_k: int = 20,
        offset: int = 0,
        *,
        dataset_to_search: Sequence[str] | None = None,
        year_from: int | None = None,
        year_to: int | None = None,
        plan: str | None = None,
    ) -> LegacySearchResult:
        """Legacy page-level BM25 search (`POST /api/search`)."""
        ...

    def legacy_contents(
        self, doc_id: str, top_k: int = 10, offset: int = 0, *, plan: str | None = None
    ) -> ContentsResult:
        """Legacy page-wise reader (`POST /api/contents`)."""
        ...


@runtime_checkable
class ConversationAPI(Protocol):
    """Research conversations, one method per spec endpoint; each returns the spec's object."""

    def start_conversation(
        self, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """`POST /api/v3/conversations`: `conversation_id`, `turn_index`, `status`, `url`."""
        ...

    def send_message(
        self, conversation_id: str, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """`POST /api/v3/conversations/{id}/messages`: the new turn, as the start response."""
        ...

    def list_conversations(
        self, status: str = "all", limit: int = 20, offset: int = 0
    ) -> ConversationList:
        """`GET /api/v3/conversations`: `conversations`, `total`, `limit`, `offset`."""
        ...

    def read_conversation(self, conversation_id: str, wait: float = 0) -> ConversationRead:
        """`GET /api/v3/conversations/{id}?wait=`: the conversation with every turn."""
        ...

    def stop_conversation(self, conversation_id: str) -> ConversationStopped:
        """`POST /api/v3/conversations/{id}/stop`: `conversation_id`, `stopped`."""
        ...

    def produced_document(self, conversation_id: str, document_id: str) -> ProducedDocument:
        """`GET /api/v3/conversations/{id}/documents/{doc}`: text inline, files by signed URL."""
        ...

    def download_document(self, conversation_id: str, document_id: str) -> tuple[str, bytes]:
        """A produced file or image: (file name, bytes)."""
        ...


@runtime_checkable
class FirmAPI(Protocol):
    """Firms across datasets (`regnb.firms.timeline`), extensions of the spec: `GET /api/v3/firms` and
    `GET /api/v3/firms/{id}/timeline`."""

    def firm(
        self,
        name_or_id: str,
        *,
        datasets: Sequence[str] | None = None,
        limit: int = 20,
        plan: str | None = None,
    ) -> pd.DataFrame:
        """The firms a name, FEI, application number or firm id may mean, best match first
        (`regnb.firms.timeline.FIRM_COLUMNS`); several rows when it is ambiguous."""
        ...

    def timeline(self, entity: str | pd.Series, *, plan: str | None = None) -> Timeline:
        """Every document about a firm (its id or a row of `firm`'s frame) in date order
        (`regnb.firms.timeline.TIMELINE_COLUMNS`)."""
        ...


@runtime_checkable
class EngineAPI(SearchAPI, ConversationAPI, FirmAPI, Protocol):
    """Everything a front end may call: local `Engine` and remote client alike."""
