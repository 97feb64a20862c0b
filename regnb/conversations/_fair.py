"""Runs waiting for a worker, taken in turn across accounts, so that one account's queued runs do
not hold back another's. Pure bookkeeping: the runner holds the lock around it."""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

__all__ = ["FairQueue"]

T = TypeVar("T")


class FairQueue(Generic[T]):
    """Each account's runs in the order they came; the next run is the first of the account with
    the fewest runs running, and among those the account served least recently."""

    def __init__(self) -> None:
        self._waiting: dict[str, deque[T]] = {}
        self._running: dict[str, int] = {}
        self._served: dict[str, int] = {}
        self._ticks = 0

    def __len__(self) -> int:
        return sum(len(q) for q in self._waiting.values())

    def put(self, account: str, item: T) -> None:
        self._waiting.setdefault(account, deque()).append(item)

    def take(self) -> tuple[str, T] | None:
        """The next account and run, counted as running until `done(account)`; None if none."""
        if not self._waiting:
            return None
        account = min(
            self._waiting, key=lambda a: (self._running.get(a, 0), self._served.get(a, -1))
        )
        queue = self._waiting[account]
        item = queue.popleft()
        if not queue:
            del self._waiting[account]
        self._ticks += 1
        self._served[account] = self._ticks
        self._running[account] = self._running.get(account, 0) + 1
        return account, item

    def done(self, account: str) -> None:
        """A run taken for `account` ended."""
        left = self._running.get(account, 0) - 1
        if left > 0:
            self._running[account] = left
        else:
            self._running.pop(account, None)

    def clear(self) -> list[T]:
        """Every waiting run, removed."""
        out = [item for queue in self._waiting.values() for item in queue]
        self._waiting.clear()
        return out
