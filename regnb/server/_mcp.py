"""`/mcp`, an extension of the interface: the MCP tools (`regnb.mcp`) over streamable HTTP, behind
the same keys, plans and limits as the v3 routes.

Every request to `/mcp` needs a valid `x-api-key` (401 `missing_api_key` or `invalid_api_key`
in the v3 error shape otherwise) and counts against its rate limit, as a v3 request does; the
tools then run for the key's owner: its plan (a free key is refused what HTTP refuses it), its
conversations, its search slots; a body is at most `max_body_bytes`, as a v3 body. The SDK's session manager runs stateless: each request stands
alone, so any replica answers it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from mcp.server import ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from regnb.conversations._views import links_from
from regnb.conversations.service import ConversationService
from regnb.errors import RegnbError
from regnb.interface import EngineAPI
from regnb.mcp import mcp_server
from regnb.mcp._access import Access
from regnb.server._conversations import http_account
from regnb.server._links import scope_base_url
from regnb.server._state import ServerState
from regnb.server.accounts import Caller
from regnb.server.errors import Style, error_response, request_id

__all__ = ["PATH", "KeyAccess", "McpEndpoint"]

log = logging.getLogger("regnb.server")

PATH = "/mcp"
CALLER = "regnb_caller"  # the request state's key of the authenticated caller

T = TypeVar("T")


class KeyAccess:
    """An API key's owner as a caller of the tools."""

    def __init__(self, state: ServerState, caller: Caller, base_url: str) -> None:
        self.state, self.caller, self.base_url = state, caller, base_url

    @property
    def engine(self) -> EngineAPI:
        return self.state.engine

    @property
    def plan(self) -> str:
        return self.caller.plan

    @property
    def account(self) -> str:
        return http_account(self.caller)

    @property
    def conversations(self) -> ConversationService:
        service: ConversationService = self.state.conversations
        return service

    async def search(self, fn: Callable[[], T]) -> T:
        return await self.state.search(self.caller, fn)

    async def blocking(self, fn: Callable[[], T], what: str) -> T:
        return await self.state.blocking(fn, what)

    def links(self) -> AbstractContextManager[None]:
        return links_from(self.base_url)


class McpEndpoint:
    """The ASGI app at `/mcp`; `running()` (the app's lifespan) starts its session manager."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self._manager: StreamableHTTPSessionManager | None = None

    def _access(self, ctx: ServerRequestContext[Any, Any]) -> Access:
        request = ctx.request
        if not isinstance(request, Request) or CALLER not in request.scope.get("state", {}):
            raise RegnbError("the MCP request came without its authenticated caller")
        base = scope_base_url(request.scope, self.state.settings.trust_proxy_headers)
        return KeyAccess(self.state, request.scope["state"][CALLER], base)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """A session manager (one per start: the SDK runs each once) over the served catalog."""
        try:
            catalog = self.state.engine.datasets()
        except Exception:
            log.exception("the catalog could not be read for the MCP tools")
            catalog = None
        server = mcp_server(catalog, self._access)
        manager = StreamableHTTPSessionManager(
            app=server,
            stateless=True,
            max_request_body_size=self.state.settings.max_body_bytes,  # a v3 body's limit
        )
        async with manager.run():
            self._manager = manager
            try:
                yield
            finally:
                self._manager = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        try:
            caller = await self.state.authenticate(request)
            if self._manager is None:
                raise RegnbError("the MCP endpoint is not running (the app has not started)")
        except RegnbError as error:
            await error_response(error, request_id(request), Style.V3)(scope, receive, send)
            return
        scope.setdefault("state", {})[CALLER] = caller
        await self._manager.handle_request(scope, receive, send)
