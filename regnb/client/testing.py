"""Test doubles for the remote client: an ASGI app in-process behind the sync client, a
transport that answers from a script before it passes requests on, and time that only moves
when the client waits.

    client = connect(url, key, transport=AppTransport(app))

httpx's own `ASGITransport` serves only `httpx.AsyncClient`; `AppTransport` runs the app on an
event loop in a thread of its own (an anyio blocking portal).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import anyio.from_thread
import httpx

__all__ = ["LOSE_ANSWER", "AppTransport", "FakeTime", "ScriptedTransport", "Unclosed"]

LOSE_ANSWER = "lose answer"
"""A script step: pass the request on, then drop the answer as a reset connection would."""


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


class Unclosed(httpx.BaseTransport):
    """Another transport, shared: closing a client does not close it."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.inner.handle_request(request)


Step = httpx.Response | Exception | str


class ScriptedTransport(httpx.BaseTransport):
    """Answers the first requests from `steps` (a response, an exception to raise, or
    `LOSE_ANSWER`), then passes every request to `inner`; `requests` records them all and
    `before` (if set) sees each one first."""

    def __init__(self, inner: httpx.BaseTransport, *steps: Step) -> None:
        self.inner, self.steps = inner, list(steps)
        self.requests: list[httpx.Request] = []
        self.before: Callable[[httpx.Request], None] | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.before is not None:
            self.before(request)
        step = self.steps.pop(0) if self.steps else None
        if isinstance(step, httpx.Response):
            step.request = request
            return step
        if isinstance(step, Exception):
            raise step
        response = self.inner.handle_request(request)
        if step == LOSE_ANSWER:
            raise httpx.ReadError("connection reset by peer", request=request)
        return response


class FakeTime:
    """A monotonic clock that moves only when the client sleeps; `waits` lists each sleep.
    `on_sleep` (if set) is called with each wait, e.g. to move a server's clock too."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.waits: list[float] = []
        self.on_sleep: Callable[[float], None] | None = None

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds
        if self.on_sleep is not None:
            self.on_sleep(seconds)

    async def async_sleep(self, seconds: float) -> None:
        self.sleep(seconds)
