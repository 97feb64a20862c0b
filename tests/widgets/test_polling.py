"""The pollers: fetch off the widgets' thread, apply until told to stop, errors reported, cancel."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.conversations.testing import wait_until
from regnb.widgets._polling import (
    AsyncioScheduler,
    Handle,
    ManualScheduler,
    Scheduler,
    ThreadScheduler,
    default_scheduler,
)


class Recorder:
    """Fetches 1, 2, 3 ...; applies until `until`; `fail_at` makes a fetch raise."""

    def __init__(self, until: int = 3, fail_at: int | None = None) -> None:
        self.until, self.fail_at = until, fail_at
        self.fetched: list[int] = []
        self.applied: list[int] = []
        self.errors: list[BaseException] = []
        self.fetch_threads: set[str] = set()
        self.apply_threads: set[str] = set()

    def fetch(self) -> int:
        self.fetch_threads.add(threading.current_thread().name)
        n = len(self.fetched) + 1
        self.fetched.append(n)
        if n == self.fail_at:
            raise RuntimeError(f"fetch {n} failed")
        return n

    def apply(self, n: int) -> bool:
        self.apply_threads.add(threading.current_thread().name)
        self.applied.append(n)
        return n < self.until

    def start(self, scheduler: Scheduler) -> Handle:
        return scheduler.start(self.fetch, self.apply, 0.001, self.errors.append)


def _in_loop(body: Callable[[AsyncioScheduler], Any]) -> Any:
    async def main() -> Any:
        return await body(AsyncioScheduler(asyncio.get_running_loop()))

    return asyncio.run(main())


@pytest.mark.parametrize(("until", "fail_at"), [(3, None), (5, 2)], ids=["stops", "fails"])
def test_a_thread_poll_applies_until_told_or_reports_the_error(
    until: int, fail_at: int | None
) -> None:
    rec = Recorder(until, fail_at)
    handle = rec.start(ThreadScheduler())
    wait_until(lambda: handle.done)
    assert rec.applied == ([1, 2, 3] if fail_at is None else [1])
    assert [str(e) for e in rec.errors] == ([] if fail_at is None else ["fetch 2 failed"])
    assert rec.apply_threads == {"regnb-widget-poll"}


def test_a_cancelled_thread_poll_applies_nothing_more() -> None:
    rec = Recorder(until=10**9)
    handle = rec.start(ThreadScheduler())
    wait_until(lambda: len(rec.applied) >= 2)
    handle.cancel()
    wait_until(lambda: handle.done)
    count = len(rec.applied)
    assert rec.applied == list(range(1, count + 1)) and not rec.errors


@pytest.mark.parametrize(("until", "fail_at"), [(3, None), (5, 2)], ids=["stops", "fails"])
def test_an_asyncio_poll_fetches_in_a_worker_and_applies_on_the_loop(
    until: int, fail_at: int | None
) -> None:
    rec = Recorder(until, fail_at)

    async def body(scheduler: AsyncioScheduler) -> None:
        handle = rec.start(scheduler)
        while not handle.done:
            await asyncio.sleep(0.001)

    _in_loop(body)
    assert rec.applied == ([1, 2, 3] if fail_at is None else [1])
    assert len(rec.errors) == (0 if fail_at is None else 1)
    assert rec.apply_threads == {threading.current_thread().name}  # the loop's thread
    assert threading.current_thread().name not in rec.fetch_threads


def test_a_cancelled_asyncio_poll_stops() -> None:
    rec = Recorder(until=10**9)

    async def body(scheduler: AsyncioScheduler) -> bool:
        handle = rec.start(scheduler)
        while len(rec.applied) < 2:
            await asyncio.sleep(0.001)
        handle.cancel()
        await asyncio.sleep(0.01)
        return handle.done

    assert _in_loop(body) is True and not rec.errors


def test_the_manual_scheduler_polls_only_when_ticked() -> None:
    scheduler = ManualScheduler()
    rec = Recorder(until=2)
    rec.start(scheduler)
    assert rec.fetched == [] and scheduler.live == 1
    assert scheduler.tick() == 1 and scheduler.tick() == 1 and scheduler.tick() == 0
    assert rec.applied == [1, 2] and scheduler.live == 0


def test_the_default_is_the_running_loop_else_a_thread() -> None:
    assert default_scheduler().name == "thread"

    async def inside() -> str:
        return default_scheduler().name

    assert asyncio.run(inside()) == "asyncio"
