"""Runs whose process is gone: a killed process's running turn reads `error` once the store is
opened again, and nothing else is lost; live handles' runs are left alone; a stop made through
another handle reaches the run; a clean close marks its own runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from regnb.conversations._runner import INTERRUPTED
from regnb.conversations.service import ConversationService
from regnb.conversations.testing import FakeAgent, open_service, wait_until
from regnb.errors import IdempotencyKeyInUse

WAIT = 30.0
CHILD = """
import sys, threading
from regnb.conversations.service import _fingerprint
from regnb.conversations.testing import FakeAgent, open_service, wait_until

gate = threading.Event()
gate.set()
agent = FakeAgent(gate=gate)
service = open_service(sys.argv[1], agent)
done = service.start("acme", "enterprise", "answered [file]").body.conversation_id
assert service.read("acme", done, wait=30).status == "completed"
gate.clear()
running = service.start("acme", "enterprise", "cut short [file]").body.conversation_id
wait_until(lambda: len(agent.requests) == 2)
with service.store.write() as tx:
    tx.claim_key("acme", "in-flight", _fingerprint(None, "q"), service.store.owner, "now")
print(done, running, flush=True)
threading.Event().wait()
"""


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture
def make(tmp_path: Path) -> Iterator[Callable[..., ConversationService]]:
    services: list[ConversationService] = []

    def make(agent: Any = None, **settings: Any) -> ConversationService:
        services.append(open_service(tmp_path / "home", agent, **settings))
        return services[-1]

    yield make
    for service in services:
        service.close()


def test_a_killed_process_leaves_its_running_turn_reading_error(make, tmp_path: Path) -> None:
    watcher = make()  # a live process beside the one that is killed
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path / "home")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        done, running = child.stdout.readline().split()  # type: ignore[union-attr]
        with pytest.raises(IdempotencyKeyInUse):  # its claim holds while it lives
            watcher.start("acme", "enterprise", "q", "in-flight")
        assert watcher.read("acme", running).status == "running"
        before = watcher.read("acme", done).to_dict()
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()  # type: ignore[union-attr]
    reopened = make()
    body = reopened.read("acme", running).to_dict()
    assert (body["status"], body["error"]) == ("error", INTERRUPTED)
    assert body["turns"][0]["status"] == "error" and body["documents"] == []
    assert reopened.list_conversations("acme", "running").total == 0
    assert reopened.read("acme", done).to_dict() == before  # nothing else is lost
    (doc,) = before["documents"]
    assert reopened.file("acme", "enterprise", done, doc["id"]).data == b"PK fake"
    assert watcher.read("acme", running).status == "error"
    assert reopened.start("acme", "enterprise", "q", "in-flight").started  # claim freed
    assert reopened.send("acme", "enterprise", running, "again").body.turn_index == 1
    files = {p.name for p in reopened.store.files.iterdir()}
    assert len(files) == 1  # the killed run's folder went with it; the answered one stays


def test_runs_of_a_live_handle_are_left_alone_until_the_handle_is_gone(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    first = make(agent)
    cid = first.start("acme", "enterprise", "q").body.conversation_id
    wait_until(agent.started.is_set)
    second = make()
    assert second.read("acme", cid).status == "running"
    assert second.list_conversations("acme", "running").total == 1
    first.store.close()  # the handle goes without a word, as a process that dies
    body = second.read("acme", cid).to_dict()
    assert (body["status"], body["error"]) == ("error", INTERRUPTED)
    assert second.list_conversations("acme", "running").total == 0


def test_a_clean_close_marks_its_running_turns_interrupted(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    first = make(agent)
    cid = first.start("acme", "enterprise", "q").body.conversation_id
    queued = [first.start("acme", "enterprise", f"q{i}").body.conversation_id for i in (1, 2)]
    wait_until(lambda: len(agent.requests) == 2)  # both workers busy (a loaded machine is slow)
    assert not first.closed
    first.close()
    assert first.closed
    second = make()
    for c in [cid, *queued]:
        assert second.read("acme", c).error == INTERRUPTED
    assert len(agent.requests) == 2  # the queued third never started


def test_a_stop_made_through_another_handle_reaches_the_run(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    runner = make(agent)
    cid = runner.start("acme", "enterprise", "q [file]").body.conversation_id
    wait_until(agent.started.is_set)
    other = make()
    assert other.stop("acme", cid).stopped
    wait_until(lambda: not runner.runner.live(), WAIT)  # the agent saw stopped() and let go
    body = runner.read("acme", cid).to_dict()
    assert (body["status"], body["turns"], body["documents"]) == ("stopped", [], [])
    assert list(runner.store.files.iterdir()) == []


def test_a_run_that_ends_after_its_stop_writes_nothing(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    cid = service.start("acme", "enterprise", "q [file] [text]").body.conversation_id
    wait_until(agent.started.is_set)
    with service.store.write() as tx:  # a stop as another process makes it: rows only
        turn = tx.latest_turn(cid)
        assert turn is not None
        tx.drop_turn(cid, 0)
        tx.set_status(cid, "stopped")
    gate.set()
    wait_until(lambda: not service.runner.live())
    body = service.read("acme", cid).to_dict()
    assert (body["status"], body["turns"], body["documents"]) == ("stopped", [], [])
    assert list(service.store.files.iterdir()) == []
