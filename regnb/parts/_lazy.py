"""A part made on first use, once, even when threads ask for it at the same time."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

__all__ = ["Closeable", "Lazy"]


class Closeable(Protocol):
    def close(self) -> None: ...


T = TypeVar("T", bound=Closeable)


class Lazy(Generic[T]):
    """`make()` on the first `get()`; `close()` closes what was made and forgets it, so that the
    next `get()` makes a new one."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        value = self._value
        if value is None:
            with self._lock:
                value = self._value
                if value is None:
                    value = self._value = self._make()
        return value

    def close(self) -> None:
        with self._lock:
            value, self._value = self._value, None
        if value is not None:
            value.close()
