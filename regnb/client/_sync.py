"""`Client`: the engine interface over HTTP, for any server that speaks the spec's contract.

Every method sends one request through one pooled `httpx.Client` (tried again on 429, 503 and a
broken connection, see `regnb.client._retry`) and returns what the local engine returns: results
rebuilt with `from_dict`, errors raised as the same classes with the server's `request_id`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import httpx
import pandas as pd

from regnb.catalog import Catalog
from regnb.client import _calls as calls
from regnb.client._base import ClientBase
from regnb.client._calls import Call
from regnb.client._errors import error_from_response, transport_error
from regnb.client._extensions import (
    batch_frames,
    facet_specs,
    matches_frame,
    matches_window,
    needed,
    next_offset_after,
    not_offered,
)
from regnb.client._retry import Attempts
from regnb.conversations.conversation import ConversationMethods
from regnb.errors import NotFound, RegnbError
from regnb.firms.timeline import Timeline, entity_id_of
from regnb.models import (
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ProducedDocument,
)
from regnb.paging import PagingMethods
from regnb.present.names import DatasetNames
from regnb.request import SearchArgs, SearchRequest
from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult
from regnb.settings import ClientSettings
from regnb.validate import spec_arguments

__all__ = ["Client"]

T = TypeVar("T")


class Client(ConversationMethods, PagingMethods, ClientBase):
    """A remote engine. Open it with `regnb.connect(base_url, api_key)`.

    `transport` replaces httpx's network transport (an app in-process, `httpx.MockTransport`);
    `clock` and `sleep` are the retry waits' time source, replaced in tests.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        plan: str | None = None,
        settings: ClientSettings | None = None,
        transport: httpx.BaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(base_url, api_key, plan=plan, settings=settings, clock=clock)
        self._sleep = sleep
        self._http = httpx.Client(transport=transport, **self._http_options())

    def close(self) -> None:
        """Close the pooled connections."""
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, call: Call[T]) -> T:
        """Send `call`, trying again as `Attempts` allows; its decoded answer or its error."""
        attempts = Attempts(self.settings, self._clock)
        while True:
            try:
                response = self._http.request(**self._request(call))
            except httpx.TransportError as exc:
                wait = attempts.after_transport_error(exc, call.repeatable)
                if wait is None:
                    raise transport_error(exc, self._where(call)) from exc
            else:
                if response.is_success:
                    return call.decode(response)
                error = error_from_response(response, call.style)
                wait = attempts.after_error(error)
                if wait is None:
                    raise error
            self._sleep(wait)

    # search, read, datasets

    def _load_names(self) -> dict[str, str]:
        """The server's dataset names, its catalog read now if it was not before; the package
        catalog's when the server cannot be reached (a result still shows)."""
        try:
            return DatasetNames.of(self.datasets()).mapping()
        except RegnbError:
            return super()._load_names()

    def datasets(self, refresh: bool = False) -> Catalog:
        """The server's catalog (`GET /api/v3/datasets`), fetched once; `refresh` fetches again."""
        if self._catalog is None or refresh:
            self._catalog = self._send(calls.datasets())
        return self._catalog

    @spec_arguments
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
        """The search checked here, against the server's catalog, by the local engine's rules:
        the spec's 400 errors without a round trip (a form checks its input as it is typed).
        `search` itself leaves the checking to the server, which has the last word."""
        self._check_plan(plan)
        args: dict[str, Any] = {"query": query, "datasets": datasets, "filters": filters}
        args |= {"date_from": date_from, "date_to": date_to, "limit": limit, "offset": offset}
        args |= {"syntax": syntax, "sort": sort, "facets": facets, "places": places}
        return self._local_check(self.datasets(), keywords, args)

    @spec_arguments
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
        """v3 search (`POST /api/v3/search`); a `SearchRequest` is sent as its own body."""
        self._check_plan(plan)
        body = calls.search_body(
            keywords,
            query,
            SearchArgs(
                datasets=datasets,
                filters=filters,
                date_from=date_from,
                date_to=date_to,
                syntax=syntax,
            ),
            limit=limit,
            offset=offset,
            sort=sort,
            facets=facets,
            places=places,
        )
        self._require(needed(body))
        return replace(self._send(calls.search(body)), names=self._names())

    @spec_arguments
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
        """Counts over every match (a search with `facets` and `limit=1`); FeatureNotOffered
        where the server lacks the extension."""
        return self.search(
            keywords,
            query,
            datasets=datasets,
            filters=filters,
            date_from=date_from,
            date_to=date_to,
            limit=1,
            plan=plan,
            syntax=syntax,
            facets=facet_specs(by, size),
        ).facets

    @spec_arguments
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
        """Every matching document (`POST /api/v3/matches`, followed through `next_offset`):
        one DataFrame, or with `batch_size` an iterator that holds one page at a time."""
        self._check_plan(plan)
        args = SearchArgs(
            datasets=datasets, filters=filters, date_from=date_from, date_to=date_to, syntax=syntax
        )
        body = self._matches_body(keywords, query, args, order=order, batch_size=batch_size)
        body["offset"], left = matches_window(limit, offset)
        self._require(["matches", *needed(body)])
        if batch_size is not None:
            return batch_frames(self._match_pages(body, left), batch_size)
        return matches_frame([row for rows in self._match_pages(body, left) for row in rows])

    def _match_pages(
        self, body: dict[str, Any], left: int | None
    ) -> Iterator[list[dict[str, Any]]]:
        offset: int | None = body["offset"]
        while offset is not None and left != 0:
            ask = body["limit"] if left is None else min(body["limit"], left)
            try:
                page = self._send(calls.matches({**body, "offset": offset, "limit": ask}))
            except NotFound as error:
                if error.field is None:  # the path itself: a server without the extension
                    raise not_offered("matches", self.base_url) from error
                raise
            rows = page.rows if left is None else page.rows[:left]
            left = None if left is None else left - len(rows)
            yield rows
            offset = next_offset_after(page, offset)

    def _require(self, wanted: Sequence[str]) -> None:
        """FeatureNotOffered unless the server lists every extension of `wanted` (its OpenAPI
        document is read the first time one is needed; a server without one offers none)."""
        if wanted and self._extensions is None:
            try:
                self._extensions = self._send(calls.openapi())
            except NotFound:
                self._extensions = frozenset()
        self._unoffered(wanted)

    @spec_arguments
    def firm(
        self,
        name_or_id: str,
        *,
        datasets: Sequence[str] | None = None,
        limit: int = 20,
        plan: str | None = None,
    ) -> pd.DataFrame:
        """The firms a name, FEI, application number or firm id may mean (`GET /api/v3/firms`,
        an extension): `Engine.firm`'s frame; FeatureNotOffered where the server lacks it."""
        self._check_plan(plan)
        self._require(["firms"])
        return self._send_firms(calls.firms(name_or_id, datasets, limit))

    @spec_arguments
    def timeline(self, entity: str | pd.Series, *, plan: str | None = None) -> Timeline:
        """A firm's documents in date order (`GET /api/v3/firms/{id}/timeline`, an extension):
        `Engine.timeline`'s `Timeline`; FeatureNotOffered where the server lacks it."""
        self._check_plan(plan)
        self._require(["firms"])
        return self._send_firms(calls.timeline(entity_id_of(entity)))

    def _send_firms(self, call: Call[T]) -> T:
        try:
            return self._send(call)
        except NotFound as error:
            if error.field is None:  # the path itself: a server without the extension
                raise not_offered("firms", self.base_url) from error
            raise

    @spec_arguments
    def read(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead:
        """Pages of a document (`GET /api/v3/documents/{document_id}`)."""
        self._check_plan(plan)
        return replace(self._send(calls.read(document_id, page_from, page_to)), names=self._names())

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
        self._check_plan(plan)
        call = calls.legacy_search(query_text, top_k, offset, dataset_to_search, year_from, year_to)
        return replace(self._send(call), names=self._names())

    def legacy_contents(
        self, doc_id: str, top_k: int = 10, offset: int = 0, *, plan: str | None = None
    ) -> ContentsResult:
        """Legacy page-wise reader (`POST /api/contents`)."""
        self._check_plan(plan)
        contents = self._send(calls.legacy_contents(doc_id, top_k, offset))
        return replace(contents, names=self._names())

    # conversations

    def start_conversation(
        self, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """`POST /api/v3/conversations`; every try sends the same `Idempotency-Key`."""
        return self._send(calls.start_conversation(message, idempotency_key))

    def send_message(
        self, conversation_id: str, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """`POST /api/v3/conversations/{id}/messages`; every try sends the same key."""
        return self._send(calls.send_message(conversation_id, message, idempotency_key))

    def list_conversations(
        self, status: str = "all", limit: int = 20, offset: int = 0
    ) -> ConversationList:
        """`GET /api/v3/conversations`."""
        return self._send(calls.list_conversations(status, limit, offset))

    def read_conversation(self, conversation_id: str, wait: float = 0) -> ConversationRead:
        """`GET /api/v3/conversations/{id}?wait=`; the read timeout stretches to cover `wait`."""
        return self._send(calls.read_conversation(conversation_id, wait))

    def stop_conversation(self, conversation_id: str) -> ConversationStopped:
        """`POST /api/v3/conversations/{id}/stop`."""
        return self._send(calls.stop_conversation(conversation_id))

    def produced_document(self, conversation_id: str, document_id: str) -> ProducedDocument:
        """`GET /api/v3/conversations/{id}/documents/{doc}`: text inline, files by signed URL."""
        return self._send(calls.produced_document(conversation_id, document_id))

    def download_document(self, conversation_id: str, document_id: str) -> tuple[str, bytes]:
        """A produced document's file name and bytes: a file or image fetched from its signed
        URL (with the key only when the URL is on this server), text as markdown."""
        document = self.produced_document(conversation_id, document_id)
        if document.type == "text":
            return calls.text_download(document)
        data = self._send(self._download_call(document))
        return document.filename or document_id, data
