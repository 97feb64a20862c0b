"""The two older endpoints: page-level BM25 search and the page-wise contents reader."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from regnb.server._body import check_query, read_json_object
from regnb.server._state import ServerState
from regnb.server.errors import Style, endpoint, json_bytes, json_response

__all__ = ["LegacyRoutes"]


def _given(body: dict[str, Any], name: str, default: int) -> Any:
    value = body.get(name)
    return default if value is None else value


class LegacyRoutes:
    """`POST /api/search` and `POST /api/contents`, with `{"error": "<message>"}` errors."""

    def __init__(self, state: ServerState) -> None:
        self.state = state

    def routes(self) -> list[Route]:
        return [
            Route("/api/search", endpoint(self.search, Style.LEGACY), methods=["POST"]),
            Route("/api/contents", endpoint(self.contents, Style.LEGACY), methods=["POST"]),
        ]

    async def _call(
        self, request: Request, what: str, call: Callable[..., Any], *, search: bool = False
    ) -> Response:
        """Authenticate, read the JSON body, run `call(body, plan)` off the event loop; a search
        runs under the account's and the server's search limits, as v3 search does."""
        state = self.state
        caller = await state.authenticate(request)
        body = await read_json_object(request, state.settings.max_body_bytes)
        check_query(request)

        def run() -> bytes:
            return json_bytes(call(body, caller.plan).to_dict())

        if search:
            return json_response(await state.search(caller, run))
        return json_response(await state.blocking(run, what))

    async def search(self, request: Request) -> Response:
        """POST /api/search: pages by BM25, 0-based page numbers."""
        engine = self.state.engine
        return await self._call(
            request,
            "search",
            lambda body, plan: engine.legacy_search(
                body.get("query_text"),
                _given(body, "top_k", 20),
                _given(body, "offset", 0),
                dataset_to_search=body.get("dataset_to_search"),
                year_from=body.get("year_from"),
                year_to=body.get("year_to"),
                plan=plan,
            ),
            search=True,
        )

    async def contents(self, request: Request) -> Response:
        """POST /api/contents: `top_k` pages of a document from `offset`."""
        engine = self.state.engine
        return await self._call(
            request,
            "document read",
            lambda body, plan: engine.legacy_contents(
                body.get("doc_id"), _given(body, "top_k", 10), _given(body, "offset", 0), plan=plan
            ),
        )
