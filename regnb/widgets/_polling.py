"""Polling without blocking the kernel: `fetch` (a blocking read) runs in a worker thread and
`apply` (which draws widgets) runs where the widgets live, again every `every` seconds while
`apply` returns True.

In a Jupyter kernel the code of a cell or a button callback runs on the kernel's asyncio loop, so
`AsyncioScheduler` polls from a task on that loop (`loop.run_in_executor` for the read), the
pattern ipywidgets documents for asynchronous widgets. Without a running loop (a script, a test)
`ThreadScheduler` polls from a daemon thread; `ManualScheduler` lets a test poll by hand.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, Protocol

__all__ = [
    "AsyncioScheduler",
    "Handle",
    "ManualScheduler",
    "Scheduler",
    "ThreadScheduler",
    "default_scheduler",
]

Fetch = Callable[[], Any]
Apply = Callable[[Any], bool]
OnError = Callable[[BaseException], None]


class Handle(Protocol):
    def cancel(self) -> None: ...

    @property
    def done(self) -> bool: ...


class Scheduler(Protocol):
    """Starts a poll: `fetch` off the widgets' thread, then `apply` its value, until `apply`
    returns False, `fetch` or `apply` raises (given to `on_error`), or the handle is cancelled."""

    name: str

    def start(self, fetch: Fetch, apply: Apply, every: float, on_error: OnError) -> Handle: ...


class _TaskHandle:
    def __init__(self, task: asyncio.Task[None]) -> None:
        self.task = task

    def cancel(self) -> None:
        self.task.cancel()

    @property
    def done(self) -> bool:
        return self.task.done()


class AsyncioScheduler:
    """Polls from a task on the running asyncio loop (the kernel's)."""

    name = "asyncio"

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def start(self, fetch: Fetch, apply: Apply, every: float, on_error: OnError) -> Handle:
        return _TaskHandle(self.loop.create_task(self._poll(fetch, apply, every, on_error)))

    async def _poll(self, fetch: Fetch, apply: Apply, every: float, on_error: OnError) -> None:
        try:
            while apply(await self.loop.run_in_executor(None, fetch)):
                await asyncio.sleep(every)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            on_error(exc)


class _ThreadHandle:
    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self.finished = threading.Event()

    def cancel(self) -> None:
        self.cancelled.set()

    @property
    def done(self) -> bool:
        return self.finished.is_set()


class ThreadScheduler:
    """Polls from a daemon thread (widgets accept updates from any thread)."""

    name = "thread"

    def start(self, fetch: Fetch, apply: Apply, every: float, on_error: OnError) -> Handle:
        handle = _ThreadHandle()

        def run() -> None:
            try:
                while not handle.cancelled.is_set():
                    value = fetch()
                    if handle.cancelled.is_set() or not apply(value):
                        break
                    handle.cancelled.wait(every)
            except Exception as exc:
                on_error(exc)
            finally:
                handle.finished.set()

        threading.Thread(target=run, name="regnb-widget-poll", daemon=True).start()
        return handle


class _ManualHandle:
    def __init__(self) -> None:
        self.cancelled = False
        self.finished = False

    def cancel(self) -> None:
        self.cancelled = True

    @property
    def done(self) -> bool:
        return self.cancelled or self.finished


class ManualScheduler:
    """For tests: nothing runs until `tick()`, which does one round of every live poll."""

    name = "manual"

    def __init__(self) -> None:
        self.polls: list[tuple[Fetch, Apply, OnError, _ManualHandle]] = []

    def start(self, fetch: Fetch, apply: Apply, every: float, on_error: OnError) -> Handle:
        handle = _ManualHandle()
        self.polls.append((fetch, apply, on_error, handle))
        return handle

    @property
    def live(self) -> int:
        return sum(not h.done for *_, h in self.polls)

    def tick(self) -> int:
        """One fetch and apply of each live poll; returns how many ran."""
        ran = 0
        for fetch, apply, on_error, handle in list(self.polls):
            if handle.done:
                continue
            ran += 1
            try:
                handle.finished = not apply(fetch())
            except Exception as exc:
                handle.finished = True
                on_error(exc)
        return ran


def default_scheduler() -> Scheduler:
    """The kernel's loop when one runs in this thread, else a thread."""
    try:
        return AsyncioScheduler(asyncio.get_running_loop())
    except RuntimeError:
        return ThreadScheduler()
