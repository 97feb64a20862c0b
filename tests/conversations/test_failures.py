"""A run that fails while the store cannot be written (another process holds the write lock, the
disk is full): it reads `error` at once, frees its account's slot, and its error is written as
soon as the store takes writes again (the next write of the service, or a retry with backoff)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from regnb.conversations._runner import RETRY_MAX_S
from regnb.conversations.service import ConversationService
from regnb.conversations.testing import FakeAgent, open_service, wait_until

ACME = "acme"
WAIT = 30.0  # an upper bound for waits that end early when all is well
FULL = "database or disk is full"


class Retries:
    """The runner's wait between tries: records each wait, and returns only while `open`."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self.open = threading.Event()
        self.closed = threading.Event()

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        while not self.open.wait(0.01) and not self.closed.is_set():
            pass


@pytest.fixture
def retries() -> Iterator[Retries]:
    out = Retries()
    yield out
    out.closed.set()


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture
def make(
    tmp_path: Path, retries: Retries
) -> Iterator[Callable[..., tuple[ConversationService, FakeAgent]]]:
    services: list[ConversationService] = []

    def make(
        gate: threading.Event, home: Path | None = None, **settings: Any
    ) -> tuple[ConversationService, FakeAgent]:
        agent = FakeAgent(gate=gate)
        service = open_service(
            home or tmp_path / "home",
            agent,
            busy_timeout_s=0.05,
            retry_sleep=retries,
            concurrent_conversations=1,
            **settings,
        )
        services.append(service)
        return service, agent

    yield make
    retries.closed.set()
    for service in services:
        service.close()


@contextmanager
def write_lock(path: Path, begin: str) -> Iterator[None]:
    """Another connection (another process, as far as SQLite knows) holds the write lock."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(begin)
    try:
        yield
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def stored(service: ConversationService, cid: str) -> dict[str, Any]:
    with service.store.read() as tx:
        conversation = tx.conversation(ACME, cid)
        assert conversation is not None
        return conversation


def start_gated(service: ConversationService, agent: FakeAgent) -> str:
    """A conversation whose run has reported its first step and waits at the gate."""
    cid = service.start(ACME, "enterprise", "q").body.conversation_id
    wait_until(agent.started.is_set)
    return cid


def assert_reads_failed(service: ConversationService, cid: str, cause: str) -> None:
    """Read, wait, list: the run failed, though the store still says running."""
    body = service.read(ACME, cid, wait=WAIT).to_dict()  # returns as soon as it is not running
    assert body["status"] == "error"
    assert body["error"].startswith("the research could not finish: the conversation store")
    assert cause in body["error"]
    assert body["turns"][0]["status"] == "error"
    assert "steps" not in body["turns"][0]
    assert service.list_conversations(ACME, status="running").to_dict() == {
        "conversations": [],
        "total": 0,
        "limit": 20,
        "offset": 0,
    }
    [summary] = service.list_conversations(ACME).to_dict()["conversations"]
    assert summary["status"] == "error"
    assert stored(service, cid)["status"] == "running"


@pytest.mark.parametrize("begin", ["BEGIN IMMEDIATE", "BEGIN EXCLUSIVE"])
def test_a_run_failing_under_a_held_lock_reads_error_and_is_written_by_retries_with_backoff(
    make, gate, retries: Retries, caplog: pytest.LogCaptureFixture, begin: str
) -> None:
    service, agent = make(gate)
    cid = start_gated(service, agent)
    with write_lock(service.store.path, begin):
        gate.set()  # the run's next progress write meets the lock
        assert_reads_failed(service, cid, "database is locked")
        retries.open.set()
        wait_until(lambda: len(retries.delays) >= 6)  # every try meets the lock
        assert retries.delays[:6] == [0.25, 0.5, 1.0, 2.0, 4.0, RETRY_MAX_S]
        assert stored(service, cid)["status"] == "running"
    wait_until(lambda: stored(service, cid)["status"] == "error")
    assert service.read(ACME, cid).to_dict()["turns"][0]["status"] == "error"
    assert any(r.levelname == "ERROR" and "refused its error" in r.message for r in caplog.records)
    assert service.start(ACME, "enterprise", "the slot is free").started


def test_the_next_write_records_a_waiting_failure_and_counts_its_slot_free(make, gate) -> None:
    """With one conversation at a time, a start right after the lock goes is accepted: it
    writes the failed turn's error first, in its own transaction."""
    service, agent = make(gate)
    cid = start_gated(service, agent)
    with write_lock(service.store.path, "BEGIN IMMEDIATE"):
        gate.set()
        assert_reads_failed(service, cid, "database is locked")
        with pytest.raises(sqlite3.OperationalError):  # no write while the lock is held
            service.start(ACME, "enterprise", "too early")
    assert service.start(ACME, "enterprise", "next").started  # the retries are still waiting
    conversation = stored(service, cid)
    assert conversation["status"] == "error"
    assert "database is locked" in conversation["error"]
    running = service.list_conversations(ACME, status="running").to_dict()["conversations"]
    assert cid not in [c["conversation_id"] for c in running]


def test_a_stop_after_the_lock_goes_finds_nothing_running(make, gate) -> None:
    service, agent = make(gate)
    cid = start_gated(service, agent)
    with write_lock(service.store.path, "BEGIN IMMEDIATE"):
        gate.set()
        assert_reads_failed(service, cid, "database is locked")
    assert service.stop(ACME, cid).to_dict() == {"conversation_id": cid, "stopped": False}
    assert stored(service, cid)["status"] == "error"


class FullDisk:
    """The store's writes fail as SQLite fails on a full disk, while `full`."""

    def __init__(self, service: ConversationService) -> None:
        self.full = False
        self._write = service.store.write
        service.store.write = self.write  # type: ignore[method-assign]

    def write(self) -> Any:
        if self.full:
            raise sqlite3.OperationalError(FULL)
        return self._write()


def test_a_run_failing_on_a_full_disk_reads_error_and_is_written_once_there_is_room(
    make, gate, retries: Retries
) -> None:
    service, agent = make(gate)
    cid = start_gated(service, agent)
    disk = FullDisk(service)
    disk.full = True
    gate.set()
    assert_reads_failed(service, cid, FULL)
    retries.open.set()
    wait_until(lambda: len(retries.delays) >= 3)
    disk.full = False
    wait_until(lambda: stored(service, cid)["status"] == "error")
    assert FULL in stored(service, cid)["error"]


# --- a real size-limited file system --------------------------------------------------------


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs (skipped where mounting is not permitted: it needs root)."""
    mount, umount = shutil.which("mount"), shutil.which("umount")
    if os.name != "posix" or os.geteuid() != 0 or mount is None or umount is None:
        pytest.skip("mounting a size-limited tmpfs needs root and mount(8)")
    folder = tmp_path / "small"
    folder.mkdir()
    done = subprocess.run(
        [mount, "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"mounting a size-limited tmpfs is not permitted here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run([umount, "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """A file that takes every free byte of the file system."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


def test_a_run_failing_on_a_full_tmpfs_reads_error_and_is_written_once_space_is_freed(
    small_fs: Path, gate, retries: Retries
) -> None:
    agent = FakeAgent(gate=gate)
    service = open_service(
        small_fs / "home", agent, busy_timeout_s=0.05, retry_sleep=retries, agent_workers=1
    )
    try:
        cid = start_gated(service, agent)
        filler = fill(small_fs)
        gate.set()
        assert_reads_failed(service, cid, FULL)
        retries.open.set()
        wait_until(lambda: len(retries.delays) >= 3)  # still full
        assert stored(service, cid)["status"] == "running"
        filler.unlink()
        wait_until(lambda: stored(service, cid)["status"] == "error")
        assert FULL in stored(service, cid)["error"]
        again = service.start(ACME, "enterprise", "there is room again").body
        assert service.read(ACME, again.conversation_id, wait=WAIT).status == "completed"
    finally:
        retries.closed.set()
        service.close()
