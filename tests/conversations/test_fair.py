"""Queued runs are taken in turn across accounts: one account's queue does not hold back
another's."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from regnb.conversations._fair import FairQueue
from regnb.conversations.testing import FakeAgent, open_service, wait_until

WAIT = 30.0


def take_all(queue: FairQueue[str], finish: bool = True) -> list[str]:
    out = []
    while (taken := queue.take()) is not None:
        account, item = taken
        out.append(item)
        if finish:
            queue.done(account)
    return out


def test_accounts_take_turns_in_the_order_they_came() -> None:
    queue: FairQueue[str] = FairQueue()
    for item in ["a1", "a2", "a3", "b1", "c1", "b2"]:
        queue.put(item[0], item)
    assert len(queue) == 6
    assert take_all(queue) == ["a1", "b1", "c1", "a2", "b2", "a3"]
    assert len(queue) == 0


def test_an_account_with_fewer_runs_running_goes_first() -> None:
    queue: FairQueue[str] = FairQueue()
    for item in ["a1", "a2", "a3"]:
        queue.put("a", item)
    assert queue.take() == ("a", "a1")
    assert queue.take() == ("a", "a2")  # nobody else waits: a second worker runs a2
    queue.put("b", "b1")
    queue.put("b", "b2")
    assert queue.take() == ("b", "b1")
    queue.done("b")  # b1 ends; a1 and a2 still run: b has fewer running
    assert queue.take() == ("b", "b2")
    queue.done("a")
    queue.done("a")
    assert take_all(queue) == ["a3"]


def test_an_account_served_least_recently_goes_first_among_equals() -> None:
    queue: FairQueue[str] = FairQueue()
    queue.put("a", "a1")
    assert queue.take() == ("a", "a1")
    queue.done("a")
    queue.put("a", "a2")  # a queued first, but was served already
    queue.put("b", "b1")
    assert take_all(queue) == ["b1", "a2"]


def test_clear_removes_every_waiting_run() -> None:
    queue: FairQueue[str] = FairQueue()
    for item in ["a1", "b1", "a2"]:
        queue.put(item[0], item)
    assert sorted(queue.clear()) == ["a1", "a2", "b1"]
    assert queue.take() is None


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


def test_one_accounts_queued_runs_do_not_hold_back_anothers(tmp_path: Path, gate) -> None:
    """One worker: while acme's first run holds it, acme queues three more and beta two; they
    run in turn, beta's first right after acme's first."""
    agent = FakeAgent(gate=gate)
    service = open_service(tmp_path / "home", agent, agent_workers=1, concurrent_conversations=0)
    try:
        started = [service.start("acme", "enterprise", "a1").body.conversation_id]
        wait_until(agent.started.is_set)
        for account, message in [("acme", "a2"), ("acme", "a3"), ("acme", "a4")]:
            started.append(service.start(account, "enterprise", message).body.conversation_id)
        for message in ["b1", "b2"]:
            started.append(service.start("beta", "enterprise", message).body.conversation_id)
        gate.set()
        for cid, account in zip(started, ["acme"] * 4 + ["beta"] * 2, strict=True):
            assert service.read(account, cid, wait=WAIT).status == "completed"
        order = [r.message for r in agent.requests]
        assert order == ["a1", "b1", "a2", "b2", "a3", "a4"]
        assert agent.most_active == 1
    finally:
        service.close()
