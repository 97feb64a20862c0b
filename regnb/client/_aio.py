"""`AsyncClient`: the remote engine's methods as coroutines over one `httpx.AsyncClient`, for
notebooks that run many requests at once (`await asyncio.gather(*searches)`).

Same requests, retries, results and errors as `Client`; `search_all`/`read_all` come from
`AsyncPagingMethods`, and `wait_conversation` polls a conversation with `wait=45`. The
`Conversation` object and `ask` are the sync client's.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import anyio
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
from regnb.errors import NotFound
from regnb.firms.timeline import Timeline, entity_id_of
from regnb.models import (
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ProducedDocument,
)
from regnb.paging import AsyncPagingMethods
from regnb.request import SearchArgs, SearchRequest
from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult
from regnb.settings import ClientSettings, Settings
from regnb.validate import spec_arguments

__all__ = ["AsyncClient"]

T = TypeVar("T")
A = TypeVar("A", bound=Callable[..., Awaitable[Any]])
WAIT_S = Settings.conversation_wait_max_s  # the spec's largest `wait`


def _spec_arguments(method: A) -> A:
    """`spec_arguments` for a coroutine method: a missing or misspelled argument raises the
    spec's `invalid_request` when awaited, and the method stays a coroutine function."""
    checked = spec_arguments(method)

    @functools.wraps(method)
    async def call(*args: Any, **kwargs: Any) -> Any:
        return await checked(*args, **kwargs)

    return call  # type: ignore[return-value]


class AsyncClient(AsyncPagingMethods, ClientBase):
    """A remote engine whose methods are coroutines. Open it with `regnb.connect_async`.

    `transport` replaces httpx's network transport (`httpx.ASGITransport(app)` runs an app
    in-process); `clock` and `sleep` are the retry waits' time source, replaced in tests.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        plan: str | None = None,
        settings: ClientSettings | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
    ) -> None:
        super().__init__(base_url, api_key, plan=plan, settings=settings, clock=clock)
        self._sleep = sleep
        self._http = httpx.AsyncClient(transport=transport, **self._http_options())

    async def aclose(self) -> None:
        """Close the pooled connections."""
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _send(self, call: Call[T]) -> T:
        """Send `call`, trying again as `Attempts` allows; its decoded answer or its error."""
        attempts = Attempts(self.settings, self._clock)
        while True:
            try:
                response = await self._http.request(**self._request(call))
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
            await self._sleep(wait)

    # search, read, datasets

    async def datasets(self, refresh: bool = False) -> Catalog:
        """The server's catalog, fetched once; `refresh` fetches again."""
        if self._catalog is None or refresh:
            self._catalog = await self._send(calls.datasets())
        return self._catalog

    @_spec_arguments
    async def check_search(
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
        """The search checked here against the server's catalog (see `Client.check_search`)."""
        self._check_plan(plan)
        args: dict[str, Any] = {"query": query, "datasets": datasets, "filters": filters}
        args |= {"date_from": date_from, "date_to": date_to, "limit": limit, "offset": offset}
        args |= {"syntax": syntax, "sort": sort, "facets": facets, "places": places}
        return self._local_check(await self.datasets(), keywords, args)

    @_spec_arguments
    async def search(
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
        await self._require(needed(body))
        return replace(await self._send(calls.search(body)), names=self._names())

    @_spec_arguments
    async def facets(
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
        """Counts over every match (see `Client.facets`)."""
        result = await self.search(
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
        )
        return result.facets

    @_spec_arguments
    async def matches(
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
        """Every matching document (see `Client.matches`). Every page is read before it
        returns, with `batch_size` too (the batches are then cut from memory): for matches
        that do not fit in memory, use the sync client's batches."""
        self._check_plan(plan)
        args = SearchArgs(
            datasets=datasets, filters=filters, date_from=date_from, date_to=date_to, syntax=syntax
        )
        body = self._matches_body(keywords, query, args, order=order, batch_size=batch_size)
        body["offset"], left = matches_window(limit, offset)
        await self._require(["matches", *needed(body)])
        pages = await self._match_pages(body, left)
        if batch_size is not None:
            return batch_frames(pages, batch_size)
        return matches_frame([row for rows in pages for row in rows])

    async def _match_pages(
        self, body: dict[str, Any], left: int | None
    ) -> list[list[dict[str, Any]]]:
        pages: list[list[dict[str, Any]]] = []
        offset: int | None = body["offset"]
        while offset is not None and left != 0:
            ask = body["limit"] if left is None else min(body["limit"], left)
            try:
                page = await self._send(calls.matches({**body, "offset": offset, "limit": ask}))
            except NotFound as error:
                if error.field is None:
                    raise not_offered("matches", self.base_url) from error
                raise
            pages.append(page.rows if left is None else page.rows[:left])
            left = None if left is None else left - len(pages[-1])
            offset = next_offset_after(page, offset)
        return pages

    async def _require(self, wanted: Sequence[str]) -> None:
        """FeatureNotOffered unless the server lists every extension of `wanted` (see
        `Client._require`)."""
        if wanted and self._extensions is None:
            try:
                self._extensions = await self._send(calls.openapi())
            except NotFound:
                self._extensions = frozenset()
        self._unoffered(wanted)

    @_spec_arguments
    async def firm(
        self,
        name_or_id: str,
        *,
        datasets: Sequence[str] | None = None,
        limit: int = 20,
        plan: str | None = None,
    ) -> pd.DataFrame:
        """The firms a name or identifier may mean (see `Client.firm`)."""
        self._check_plan(plan)
        await self._require(["firms"])
        return await self._send_firms(calls.firms(name_or_id, datasets, limit))

    @_spec_arguments
    async def timeline(self, entity: str | pd.Series, *, plan: str | None = None) -> Timeline:
        """A firm's documents in date order (see `Client.timeline`)."""
        self._check_plan(plan)
        await self._require(["firms"])
        return await self._send_firms(calls.timeline(entity_id_of(entity)))

    async def _send_firms(self, call: Call[T]) -> T:
        try:
            return await self._send(call)
        except NotFound as error:
            if error.field is None:
                raise not_offered("firms", self.base_url) from error
            raise

    @_spec_arguments
    async def read(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead:
        """Pages of a document (`GET /api/v3/documents/{document_id}`)."""
        self._check_plan(plan)
        return replace(
            await self._send(calls.read(document_id, page_from, page_to)), names=self._names()
        )

    async def legacy_search(
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
        return replace(await self._send(call), names=self._names())

    async def legacy_contents(
        self, doc_id: str, top_k: int = 10, offset: int = 0, *, plan: str | None = None
    ) -> ContentsResult:
        """Legacy page-wise reader (`POST /api/contents`)."""
        self._check_plan(plan)
        contents = await self._send(calls.legacy_contents(doc_id, top_k, offset))
        return replace(contents, names=self._names())

    # conversations

    async def start_conversation(
        self, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """`POST /api/v3/conversations`; every try sends the same `Idempotency-Key`."""
        return await self._send(calls.start_conversation(message, idempotency_key))

    async def send_message(
        self, conversation_id: str, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """`POST /api/v3/conversations/{id}/messages`; every try sends the same key."""
        return await self._send(calls.send_message(conversation_id, message, idempotency_key))

    async def list_conversations(
        self, status: str = "all", limit: int = 20, offset: int = 0
    ) -> ConversationList:
        """`GET /api/v3/conversations`."""
        return await self._send(calls.list_conversations(status, limit, offset))

    async def read_conversation(self, conversation_id: str, wait: float = 0) -> ConversationRead:
        """`GET /api/v3/conversations/{id}?wait=`; the read timeout stretches to cover `wait`."""
        return await self._send(calls.read_conversation(conversation_id, wait))

    async def wait_conversation(
        self, conversation_id: str, timeout: float | None = None
    ) -> ConversationRead:
        """The conversation once its latest turn leaves `running` (polled with `wait=45`), or as
        it stands after `timeout` seconds."""
        end = None if timeout is None else self._clock() + timeout
        data = await self.read_conversation(conversation_id, 0)
        while data.status == "running":
            left = WAIT_S if end is None else min(WAIT_S, end - self._clock())
            if left <= 0:
                break
            data = await self.read_conversation(conversation_id, left)
        return data

    async def stop_conversation(self, conversation_id: str) -> ConversationStopped:
        """`POST /api/v3/conversations/{id}/stop`."""
        return await self._send(calls.stop_conversation(conversation_id))

    async def produced_document(self, conversation_id: str, document_id: str) -> ProducedDocument:
        """`GET /api/v3/conversations/{id}/documents/{doc}`: text inline, files by signed URL."""
        return await self._send(calls.produced_document(conversation_id, document_id))

    async def download_document(self, conversation_id: str, document_id: str) -> tuple[str, bytes]:
        """A produced document's file name and bytes (see `Client.download_document`)."""
        document = await self.produced_document(conversation_id, document_id)
        if document.type == "text":
            return calls.text_download(document)
        data = await self._send(self._download_call(document))
        return document.filename or document_id, data
