"""Limits shared by replicas through PostgreSQL: each object here stands for one replica (a pool
of connections of its own), so what one holds the other sees, and what a dead one held is free."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import anyio
import pytest

from regnb.conversations.testing import wait_until
from regnb.errors import ConcurrentSearch, RateLimited
from regnb.server._shared import HeldSlot, SharedAccountSlots, SharedRateLimiter, slot_key
from regnb.server.testing import FakeClock

pytestmark = pytest.mark.anyio

WAIT = 30.0  # upper bound for a condition that must come true; never reached when all is well


@pytest.fixture
def replicas(postgres_url: str) -> Iterator[Callable[..., SharedAccountSlots]]:
    """Makes the search slots of a replica over one database; their connections close after."""
    made: list[SharedAccountSlots] = []

    def make(limit: int = 1, wait_s: float = 0.0) -> SharedAccountSlots:
        made.append(SharedAccountSlots(postgres_url, limit, wait_s))
        return made[-1]

    yield make
    for slots in made:
        slots.disconnect()


@pytest.fixture
def limiters(postgres_url: str) -> Iterator[Callable[..., SharedRateLimiter]]:
    made: list[SharedRateLimiter] = []

    def make(limit: int, clock: FakeClock | None = None) -> SharedRateLimiter:
        made.append(SharedRateLimiter(postgres_url, limit, 60.0, clock))
        return made[-1]

    yield make
    for limiter in made:
        limiter.disconnect()


def test_fifty_requests_a_minute_hold_across_replicas(
    limiters: Callable[..., SharedRateLimiter],
) -> None:
    clock = FakeClock()
    one, two = limiters(50, clock), limiters(50, clock)
    for i in range(50):
        (one, two)[i % 2].hit("key_a")
    for limiter in (one, two):
        with pytest.raises(RateLimited) as refused:
            limiter.hit("key_a")
        assert refused.value.retry_after == 60
    two.hit("key_b")  # another key counts on its own
    clock.advance(60)
    one.hit("key_a")


def test_the_window_runs_on_the_database_clock(
    limiters: Callable[..., SharedRateLimiter],
) -> None:
    one, two = limiters(2), limiters(2)
    one.hit(7)
    two.hit(7)
    with pytest.raises(RateLimited) as refused:
        one.hit(7)
    assert 1 <= refused.value.retry_after <= 60


def test_hits_at_once_from_two_replicas_never_pass_the_limit(
    limiters: Callable[..., SharedRateLimiter],
) -> None:
    import threading

    clock = FakeClock()
    replicas = [limiters(30, clock) for _ in range(2)]
    passed: list[int] = []

    def hammer(limiter: SharedRateLimiter) -> None:
        for _ in range(25):
            try:
                limiter.hit("key_a")
                passed.append(1)
            except RateLimited:
                pass

    threads = [threading.Thread(target=hammer, args=(r,)) for r in replicas * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(passed) == 30


async def test_a_held_slot_refuses_the_accounts_search_on_another_replica(
    replicas: Callable[..., SharedAccountSlots],
) -> None:
    one, two = replicas(), replicas()
    async with one.hold(1):
        with pytest.raises(ConcurrentSearch) as refused:
            async with two.hold(1):
                pytest.fail("the slot is held by the other replica")
        assert refused.value.retry_after == 1
        async with two.hold(2):  # another account searches at the same time
            pass
    async with two.hold(1):
        pass


async def test_a_waiting_search_runs_when_the_other_replica_ends(
    replicas: Callable[..., SharedAccountSlots],
) -> None:
    one, two = replicas(), replicas(wait_s=WAIT)
    entered = anyio.Event()

    async def second() -> None:
        async with two.hold(1):
            entered.set()

    async with anyio.create_task_group() as tg:
        async with one.hold(1):
            tg.start_soon(second)
            await anyio.sleep(0.1)  # the second polls meanwhile
            assert not entered.is_set()
        with anyio.fail_after(WAIT):
            await entered.wait()


async def test_a_cancelled_waiter_leaves_no_slot_held(
    replicas: Callable[..., SharedAccountSlots],
) -> None:
    one, two, three = replicas(), replicas(wait_s=WAIT), replicas()
    async with one.hold(1):
        with anyio.move_on_after(0.1):
            async with two.hold(1):
                pytest.fail("the slot is held")
    async with three.hold(1):
        pass


async def test_the_slot_of_a_replica_whose_connection_dies_is_free_at_once(
    replicas: Callable[..., SharedAccountSlots],
) -> None:
    dead, live = replicas(), replicas()
    held = dead.take(1)
    assert held is not None
    assert live.take(1) is None
    held.conn.close()  # what a killed process's connection does
    taken: list[HeldSlot] = []
    wait_until(lambda: bool(taken.append(live.take(1)) or taken[-1]))  # as its backend exits
    live.give_back(taken[-1])  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [2, 3])
def test_an_account_holds_as_many_slots_as_the_limit(
    replicas: Callable[..., SharedAccountSlots], limit: int
) -> None:
    one, two = replicas(limit), replicas(limit)
    owners = [(one, two)[i % 2] for i in range(limit)]
    taken = [slots.take("acct") for slots in owners]
    assert None not in taken
    assert one.take("acct") is None and two.take("acct") is None
    for slots, held in zip(owners, taken, strict=True):
        assert held is not None
        slots.give_back(held)
    again = one.take("acct")
    assert again is not None
    one.give_back(again)


async def test_zero_turns_the_shared_limits_off(
    replicas: Callable[..., SharedAccountSlots], limiters: Callable[..., SharedRateLimiter]
) -> None:
    off = replicas(0)
    async with off.hold(1), off.hold(1):
        pass
    limiter = limiters(0)
    for _ in range(100):
        limiter.hit("k")


def test_slot_keys_are_the_account_id_else_a_hash() -> None:
    assert slot_key(42, 0)[1] == 42
    assert slot_key(42, 1)[0] == slot_key(42, 0)[0] + 1
    name = slot_key("account:42", 0)
    assert name == slot_key("account:42", 0) and -(1 << 31) <= name[1] < 1 << 31
    assert slot_key(1 << 40, 0)[1] != 1 << 40
