"""An ASGI app in-process behind the sync client: `connect(url, key, transport=
AppTransport(app))`. httpx's own `ASGITransport` serves only `httpx.AsyncClient`; this one runs
the app on an event loop in a thread of its own (an anyio blocking portal)."""

from __future__ import annotations

import contextlib
from typing import Any

import anyio.from_thread
import httpx

__all__ = ["AppTransport"]


class AppTransport(httpx.BaseTransport):
    """A sync transport that hands each request to an ASGI app on its own event loop."""

    def __init__(self, app: Any) -> None:
        self._inner = httpx.ASGITransport(app=app)
        self._stack = contextlib.ExitStack()
        self._portal = self._stack.enter_context(anyio.from_thread.start_blocking_portal())

    async def _handle(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        content = await response.aread()
        return httpx.Response(
            response.status_code, headers=response.headers, content=content, request=request
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._portal.call(self._handle, request)

    def close(self) -> None:
        self._stack.close()
