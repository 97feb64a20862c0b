"""The conversation routes: start, follow-up, list, read with `wait`, stop, produced document,
and the download that a produced document's signed `url` points to (their OpenAPI paths are in
`regnb.server.openapi.conversations`).

Each handler authenticates, reads its input and calls `ConversationService` (in a worker
thread: a store write may wait for another process), except the read's `wait`, which sleeps on
the event loop and holds no thread. Conversations belong to the caller's account; a download
token works only with a key of the account it was made for, and any refused token answers 404
`not_found`.
"""

from __future__ import annotations

from functools import partial
from urllib.parse import quote

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from regnb.conversations._views import links_from
from regnb.conversations.service import ConversationService
from regnb.server._body import check_query, query_int, read_json_object
from regnb.server._links import scope_base_url
from regnb.server._state import ServerState
from regnb.server.accounts import Caller
from regnb.server.errors import Handler, Style, endpoint, json_response

__all__ = [
    "ConversationRoutes",
    "content_disposition",
    "http_account",
]

PREFIX = "/api/v3/conversations"


def http_account(caller: Caller) -> str:
    """The store's account of an API key's owner (apart from the notebook's `local`)."""
    return f"account:{caller.account_id}"


def content_disposition(filename: str) -> str:
    """`attachment` with an ASCII fallback name and the exact name in RFC 5987 form."""
    fallback = "".join(
        c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in filename
    )
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


class ConversationRoutes:
    """Handlers of the conversation endpoints."""

    def __init__(self, state: ServerState) -> None:
        self.state = state

    @property
    def service(self) -> ConversationService:
        service: ConversationService = self.state.conversations
        return service

    def routes(self) -> list[Route]:
        def v3(handler: Handler) -> Handler:
            return endpoint(self.linked(handler), Style.V3)

        return [
            Route(PREFIX, v3(self.collection), methods=["GET", "POST"]),
            Route(PREFIX + "/{conversation_id}", v3(self.read), methods=["GET"]),
            Route(PREFIX + "/{conversation_id}/messages", v3(self.send), methods=["POST"]),
            Route(PREFIX + "/{conversation_id}/stop", v3(self.stop), methods=["POST"]),
            Route(
                PREFIX + "/{conversation_id}/documents/{document_id}",
                v3(self.document),
                methods=["GET"],
            ),
            Route("/api/v3/files/{token}", v3(self.download), methods=["GET"]),
        ]

    def linked(self, handler: Handler) -> Handler:
        """`handler` with the links of its response built on the request's own base URL
        (unless REGNB_PUBLIC_URL names one)."""
        trust = self.state.settings.trust_proxy_headers

        async def run(request: Request) -> Response:
            with links_from(scope_base_url(request.scope, trust)):
                return await handler(request)

        run.__name__ = getattr(handler, "__name__", "endpoint")
        run.__doc__ = handler.__doc__
        return run

    async def collection(self, request: Request) -> Response:
        """POST starts a conversation; GET lists them."""
        if request.method == "POST":
            return await self.start(request)
        return await self.list(request)

    async def start(self, request: Request) -> Response:
        """POST /api/v3/conversations: 202 with the running turn, 200 for a retried key."""
        caller = await self.state.authenticate(request)
        check_query(request)
        body = await read_json_object(request, self.state.settings.max_body_bytes)
        run = partial(
            self.service.start,
            http_account(caller),
            caller.plan,
            body.get("message"),
            request.headers.get("idempotency-key"),
        )
        accepted = await anyio.to_thread.run_sync(run)
        return json_response(accepted.body.to_dict(), 202 if accepted.started else 200)

    async def send(self, request: Request) -> Response:
        """POST /api/v3/conversations/{id}/messages: a follow-up, 202 (200 for a retry)."""
        caller = await self.state.authenticate(request)
        check_query(request)
        body = await read_json_object(request, self.state.settings.max_body_bytes)
        run = partial(
            self.service.send,
            http_account(caller),
            caller.plan,
            request.path_params["conversation_id"],
            body.get("message"),
            request.headers.get("idempotency-key"),
        )
        accepted = await anyio.to_thread.run_sync(run)
        return json_response(accepted.body.to_dict(), 202 if accepted.started else 200)

    async def list(self, request: Request) -> Response:
        """GET /api/v3/conversations: summaries, most recent activity first."""
        caller = await self.state.authenticate(request)
        check_query(request, ("status", "limit", "offset"))
        status = request.query_params.get("status", "all")
        limit = query_int(request, "limit", 20)
        offset = query_int(request, "offset", 0)
        run = partial(self.service.list_conversations, http_account(caller), status, limit, offset)
        return json_response((await anyio.to_thread.run_sync(run)).to_dict())

    async def read(self, request: Request) -> Response:
        """GET /api/v3/conversations/{id}?wait=: as soon as it leaves `running`, or at `wait`."""
        caller = await self.state.authenticate(request)
        check_query(request, ("wait",))
        conversation_id = request.path_params["conversation_id"]
        wait = request.query_params.get("wait", "0")
        body = await self.service.read_async(http_account(caller), conversation_id, wait)
        return json_response(body.to_dict())

    async def stop(self, request: Request) -> Response:
        """POST /api/v3/conversations/{id}/stop: `stopped` false when nothing ran."""
        caller = await self.state.authenticate(request)
        check_query(request)
        run = partial(
            self.service.stop, http_account(caller), request.path_params["conversation_id"]
        )
        return json_response((await anyio.to_thread.run_sync(run)).to_dict())

    async def document(self, request: Request) -> Response:
        """GET /api/v3/conversations/{id}/documents/{doc}: text inline, files by signed URL."""
        caller = await self.state.authenticate(request)
        check_query(request)
        run = partial(
            self.service.document,
            http_account(caller),
            caller.plan,
            request.path_params["conversation_id"],
            request.path_params["document_id"],
        )
        return json_response((await anyio.to_thread.run_sync(run)).to_dict())

    async def download(self, request: Request) -> Response:
        """GET /api/v3/files/{token}: the file a signed link opens, on its own (a browser or
        `curl` without a key) until it expires; with a key, only a link of the key's account."""
        account = plan = None
        if request.headers.get("x-api-key") is not None:
            caller = await self.state.authenticate(request)
            account, plan = http_account(caller), caller.plan
        check_query(request)
        run = partial(self.service.download, account, request.path_params["token"], plan)
        file = await anyio.to_thread.run_sync(run)
        headers = {"Content-Disposition": content_disposition(file.filename)}
        return Response(file.data, 200, headers=headers, media_type=file.media_type)
