"""The v3 routes: search, the dataset list, document read, and the OpenAPI document (which the
app hands in: `regnb.server.openapi` builds it and reads this module's bounds)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, cast

import pandas as pd
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from regnb.catalog import Catalog
from regnb.errors import InvalidRequest
from regnb.request import SearchRequest
from regnb.results import match_records
from regnb.server._body import check_fields, check_query, query_int, read_json_object
from regnb.server._state import ServerState
from regnb.server.errors import Style, endpoint, json_bytes, json_response
from regnb.validate import check_int, check_order

__all__ = ["MATCHES_LIMIT_MAX", "V3Routes", "matches_window", "search_arguments"]

log = logging.getLogger("regnb.server")

SEARCH_FIELDS = (
    "query",
    "datasets",
    "filters",
    "date_from",
    "date_to",
    "limit",
    "offset",
    "sort",
    "facets",
    "syntax",
    "places",
)
MATCH_FIELDS = ("order", "limit", "offset")
# What a matches body takes of a search's: no ranking, so neither `sort` nor `facets`
# ... and `places` is taken but changes nothing: every match carries its firm's place
MATCH_SEARCH_FIELDS = ("query", "datasets", "filters", "date_from", "date_to", "syntax", "places")
MATCHES_LIMIT_MAX = 1000


class MatchesAPI(Protocol):
    """What `/api/v3/matches` calls: a window of the matches (a local engine's `matches`)."""

    def matches(
        self,
        keywords: SearchRequest,
        *,
        order: str,
        limit: int | None,
        offset: int,
    ) -> pd.DataFrame: ...


def matches_window(body: dict[str, Any]) -> tuple[str, int, int]:
    """`order`, `limit` (1 to 1000, default 1000) and `offset` of a matches body (null: not
    given)."""
    order = check_order(body.get("order") if body.get("order") is not None else "date")
    limit = body.get("limit") if body.get("limit") is not None else MATCHES_LIMIT_MAX
    offset = body.get("offset") if body.get("offset") is not None else 0
    return order, check_int(limit, "limit", 1, MATCHES_LIMIT_MAX), check_int(offset, "offset", 0)


def search_arguments(body: dict[str, Any]) -> dict[str, Any]:
    """Engine.search keyword arguments from a request body; JSON null means "not given". Items
    read as plain words (the spec's meaning) unless the body asks for `"syntax": "query"`."""
    keywords = body.get("keywords")
    if keywords is None:
        raise InvalidRequest("keywords is required", field="keywords")
    if not isinstance(keywords, list):
        raise InvalidRequest("keywords must be a list of strings", field="keywords")
    args = {name: body[name] for name in SEARCH_FIELDS if body.get(name) is not None}
    return {"keywords": keywords, "syntax": "plain", **args}


class V3Routes:
    """Handlers of the v3 endpoints; conversation routes are added beside these.
    `openapi_document` builds the OpenAPI document over a catalog (None: the package's)."""

    def __init__(
        self, state: ServerState, openapi_document: Callable[[Catalog | None], dict[str, Any]]
    ) -> None:
        self.state = state
        self.openapi_document = openapi_document
        self._catalog: bytes | None = None
        self._openapi: bytes | None = None

    def routes(self) -> list[Route]:
        return [
            Route("/api/v3/search", endpoint(self.search, Style.V3), methods=["POST"]),
            Route("/api/v3/matches", endpoint(self.matches, Style.V3), methods=["POST"]),
            Route("/api/v3/datasets", endpoint(self.datasets, Style.V3_NO_FIELD), methods=["GET"]),
            Route(
                "/api/v3/documents/{document_id}",
                endpoint(self.document, Style.V3),
                methods=["GET"],
            ),
            Route("/api/v3/openapi.json", endpoint(self.openapi, Style.V3), methods=["GET"]),
        ]

    async def search(self, request: Request) -> Response:
        """POST /api/v3/search: the spec's search envelope."""
        state = self.state
        caller = await state.authenticate(request)
        body = await read_json_object(request, state.settings.max_body_bytes)
        check_query(request)
        check_fields(body, ("keywords", *SEARCH_FIELDS))
        req = state.check_search(search_arguments(body), caller.plan)

        def run() -> bytes:
            return json_bytes(state.engine.search(req).to_dict())

        return json_response(await state.search(caller, run))

    async def matches(self, request: Request) -> Response:
        """POST /api/v3/matches (an extension): a window of every matching document, in date
        or BM25 order, under the same limits as a search."""
        state = self.state
        caller = await state.authenticate(request)
        body = await read_json_object(request, state.settings.max_body_bytes)
        check_query(request)
        check_fields(body, ("keywords", *MATCH_SEARCH_FIELDS, *MATCH_FIELDS))
        order, limit, offset = matches_window(body)
        search = {k: v for k, v in body.items() if k not in MATCH_FIELDS}
        req = state.check_search(search_arguments(search), caller.plan)
        engine = cast(MatchesAPI, state.engine)

        def run() -> bytes:
            frame = engine.matches(req, order=order, limit=limit, offset=offset)
            total = int(frame.attrs.get("total", 0))
            end = offset + len(frame)
            return json_bytes(
                {
                    "matches": match_records(frame),
                    "total": total,
                    "next_offset": end if len(frame) and end < total else None,
                }
            )

        return json_response(await state.search(caller, run))

    async def datasets(self, request: Request) -> Response:
        """GET /api/v3/datasets: every dataset, with filters and fields of the searchable ones."""
        await self.state.authenticate(request)
        check_query(request)
        if self._catalog is None:
            self._catalog = json_bytes(self.state.engine.datasets().to_dict())
        return json_response(self._catalog)

    async def document(self, request: Request) -> Response:
        """GET /api/v3/documents/{document_id}: pages `page_from`..`page_to`."""
        state = self.state
        caller = await state.authenticate(request)
        check_query(request, ("page_from", "page_to"))
        page_from = query_int(request, "page_from", 1)
        page_to = query_int(request, "page_to", None)
        document_id = request.path_params["document_id"]

        def run() -> bytes:
            doc = state.engine.read(document_id, page_from, page_to, plan=caller.plan)
            return json_bytes(doc.to_dict())

        return json_response(await state.blocking(run, "document read"))

    async def openapi(self, request: Request) -> Response:
        """GET /api/v3/openapi.json: this interface as OpenAPI 3.1 (no key needed), over the
        served corpus's catalog (the package's when the catalog cannot be read)."""
        check_query(request)
        if self._openapi is None:
            try:
                catalog = self.state.engine.datasets()
            except Exception:
                log.exception("the catalog could not be read for the OpenAPI document")
                catalog = None
            self._openapi = json_bytes(self.openapi_document(catalog))
        return json_response(self._openapi)
