"""The serving process's limits: requests per key, searches per account, searches per server.

The state of these lives in this process's memory; with REGNB_DATABASE_URL, the first two are
`_shared.py`'s, in PostgreSQL, behind the same `RateLimit` and `SearchSlots` (see
docs/server-operations.md, "Several processes"). A limit of 0 or less turns that limit off.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Hashable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

import anyio

from regnb.errors import Busy, ConcurrentSearch, RateLimited

__all__ = [
    "AccountSlots",
    "Clock",
    "RateLimit",
    "RateLimiter",
    "SearchSlots",
    "ServerSlots",
    "concurrent_search",
    "rate_limited",
]

Clock = Callable[[], float]
RETRY_AFTER_S = 1


class RateLimit(Protocol):
    """Counts requests per key; `hit` raises RateLimited (and counts nothing) when over."""

    def hit(self, key: Hashable) -> None: ...

    def disconnect(self) -> None:
        """Close what it holds outside the process (opened again on use)."""


class SearchSlots(Protocol):
    """Searches at once per account; `hold` raises ConcurrentSearch when none frees in time."""

    def hold(self, account: Hashable) -> AbstractAsyncContextManager[None]: ...

    def disconnect(self) -> None:
        """Close what it holds outside the process (opened again on use)."""


def rate_limited(limit: int, window_s: float, wait: int) -> RateLimited:
    """The refusal of a key that made `limit` requests in the window; retry in `wait` s."""
    return RateLimited(
        f"{limit} requests in the last {window_s:g} seconds on this key; retry in {wait} s",
        retry_after=wait,
    )


def concurrent_search() -> ConcurrentSearch:
    """The refusal of a search whose account's slots stayed held."""
    return ConcurrentSearch(
        "another search from this account is still running", retry_after=RETRY_AFTER_S
    )


class RateLimiter:
    """At most `limit` requests per key in any `window_s` seconds (a sliding window)."""

    def __init__(self, limit: int, window_s: float = 60.0, clock: Clock = time.monotonic) -> None:
        self.limit, self.window_s, self.clock = limit, window_s, clock
        self._hits: dict[Hashable, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: Hashable) -> None:
        """Count one request on `key`, or raise RateLimited (not counted) when it is over."""
        if self.limit <= 0:
            return
        now = self.clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window_s:
                hits.popleft()
            if len(hits) >= self.limit:
                wait = max(1, math.ceil(hits[0] + self.window_s - now))
                raise rate_limited(self.limit, self.window_s, wait)
            hits.append(now)

    def disconnect(self) -> None:
        """Nothing to close: the counts are in this process."""


class AccountSlots:
    """At most `limit` searches at once per account; the next waits up to `wait_s` seconds.

    Used from the event loop only. A released slot goes to the oldest waiter.
    """

    def __init__(self, limit: int, wait_s: float) -> None:
        self.limit, self.wait_s = limit, wait_s
        self._held: dict[Hashable, int] = {}
        self._waiters: dict[Hashable, deque[anyio.Event]] = {}

    def disconnect(self) -> None:
        """Nothing to close: the slots are in this process."""

    def held(self, account: Hashable) -> int:
        return self._held.get(account, 0)

    def waiting(self, account: Hashable) -> int:
        return len(self._waiters.get(account, ()))

    @asynccontextmanager
    async def hold(self, account: Hashable) -> AsyncIterator[None]:
        """A search slot of `account` for the duration of the block, or ConcurrentSearch."""
        if self.limit <= 0:
            yield
            return
        await self._acquire(account)
        try:
            yield
        finally:
            self._release(account)

    async def _acquire(self, account: Hashable) -> None:
        if self.held(account) < self.limit:
            self._held[account] = self.held(account) + 1
            return
        event = anyio.Event()
        queue = self._waiters.setdefault(account, deque())
        queue.append(event)
        try:
            with anyio.move_on_after(self.wait_s):
                await event.wait()
        except BaseException:  # cancelled: give back a slot handed over meanwhile
            self._forget(account, event)
            raise
        if not event.is_set():
            self._forget(account, event)
            raise concurrent_search()

    def _forget(self, account: Hashable, event: anyio.Event) -> None:
        if event.is_set():
            self._release(account)
            return
        queue = self._waiters[account]
        queue.remove(event)
        if not queue:
            del self._waiters[account]

    def _release(self, account: Hashable) -> None:
        queue = self._waiters.get(account)
        if queue:
            queue.popleft().set()  # the slot passes to the waiter; `held` is unchanged
            if not queue:
                del self._waiters[account]
            return
        if self._held[account] <= 1:
            del self._held[account]
        else:
            self._held[account] -= 1


class ServerSlots:
    """At most `limit` searches running in the process; one more is refused with Busy.

    Taken on the event loop, given back by whoever finishes the work (a worker thread
    that outlives a timed-out request keeps its slot until it ends).
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._running = 0
        self._lock = threading.Lock()

    @property
    def running(self) -> int:
        return self._running

    def take(self) -> None:
        with self._lock:
            if 0 < self.limit <= self._running:
                raise Busy(
                    f"the server is running its maximum of {self.limit} searches",
                    retry_after=RETRY_AFTER_S,
                )
            self._running += 1

    def give_back(self) -> None:
        with self._lock:
            self._running -= 1
