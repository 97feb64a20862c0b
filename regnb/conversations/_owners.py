"""Which processes are alive: each store handle holds an exclusive lock on its own file, or, in
PostgreSQL, a lease that it renews.

A run records the id of the handle that runs it. The operating system releases a process's locks
when it dies, however it dies (SIGKILL included), so a lock that can be taken belongs to a
process that is gone, and its running turns were interrupted. Process ids are not used: they are
reused, and several live processes may share one store.

Replicas on several machines share no file system whose locks can be trusted: each holds a row
in the `owners` table whose expiry it moves forward every third of the lease, from a thread and
a connection of its own. A lease that has expired (by the database's clock, so that the
replicas' clocks do not matter) belongs to a replica that is gone: killed, frozen, or cut off
from the database for longer than the lease.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from pathlib import Path

from regnb._postgres import Postgres, Statements

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: only a cleanly closed owner reads as gone
    fcntl = None  # type: ignore[assignment]

__all__ = ["OWNERS_SCHEMA", "OwnerLease", "OwnerLock", "lease_alive", "owner_alive"]

log = logging.getLogger("regnb.conversations")

OWNERS_SCHEMA = """
CREATE TABLE IF NOT EXISTS owners (
    owner TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
"""
RENEW = """
INSERT INTO owners (owner, host, pid, expires_at)
VALUES (?, ?, ?, clock_timestamp() + make_interval(secs => ?))
ON CONFLICT (owner) DO UPDATE SET expires_at = excluded.expires_at
"""
FORGET_AFTER = "1 day"  # a lease expired this long ago is deleted (its runs were recovered)


def _path(folder: Path, owner: str) -> Path:
    return folder / f"{owner}.lock"


class OwnerLock:
    """This handle's liveness lock, held from creation until `release()` or process exit."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.id = "own_" + secrets.token_hex(8)
        self.path = _path(folder, self.id)
        self._fd: int | None = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
        if fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(self._fd, f"{os.getpid()}\n".encode())

    def release(self) -> None:
        """Give the lock up: this owner reads as gone from now on."""
        if self._fd is None:
            return
        self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None


def owner_alive(folder: Path, owner: str) -> bool:
    """Whether the handle `owner` is still held by a live process (this one included)."""
    path = _path(folder, owner)
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        if fcntl is None:  # pragma: no cover
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        path.unlink(missing_ok=True)
        return False
    finally:
        os.close(fd)


class OwnerLease:
    """This replica's lease in the database at `url`, renewed every `lease_s / 3` seconds until
    `release()`; a connection of its own, so that a long write of the store never delays it."""

    def __init__(self, url: str, lease_s: float) -> None:
        self.id = "own_" + secrets.token_hex(8)
        self.lease_s = lease_s
        self._db = Postgres(url, OWNERS_SCHEMA)
        self._stop = threading.Event()
        self._released = False
        self.clock = time.monotonic  # the settling window's time (tests replace it)
        self._failing = False  # the last renewal failed: the database is away
        self._recovered_at: float | None = None  # when a renewal first worked again
        self.renew()
        self._thread = threading.Thread(target=self._beat, name="regnb-lease", daemon=True)
        self._thread.start()

    def renew(self) -> None:
        """Move the lease's expiry to `lease_s` from now."""
        with self._db.transaction() as sql:
            sql.execute(RENEW, (self.id, socket.gethostname(), os.getpid(), self.lease_s))
            sql.execute(
                f"DELETE FROM owners WHERE expires_at < clock_timestamp() - interval '{FORGET_AFTER}'"
            )

    def _beat(self) -> None:
        while not self._stop.wait(self.lease_s / 3):
            self.beat()

    def beat(self) -> None:
        """Renew the lease once; a failure (the database is away) is logged and marks this
        replica as having seen an outage, a success after it starts the settling window."""
        try:
            self.renew()
        except Exception as exc:  # the database is away: try again at the next beat
            self._failing = True
            log.warning("could not renew this replica's lease (%s)", exc)
            return
        if self._failing:
            self._failing, self._recovered_at = False, self.clock()

    def settling(self) -> bool:
        """Whether this replica is in or just after an outage of the database (its last renewal
        failed, or worked again less than a lease ago): other replicas' leases expired during
        it may not be renewed yet, so their runs are not declared dead."""
        if self._failing:
            return True
        return self._recovered_at is not None and self.clock() - self._recovered_at < self.lease_s

    def release(self) -> None:
        """Give the lease up: this owner reads as gone from now on."""
        if self._released:
            return
        self._released = True
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join()
        try:
            with self._db.transaction() as sql:
                sql.execute("DELETE FROM owners WHERE owner = ?", (self.id,))
        except Exception as exc:  # it expires on its own
            log.warning("could not give up this replica's lease (%s)", exc)
        self._db.close()


def lease_alive(sql: Statements, owner: str, settling: bool = False) -> bool:
    """Whether `owner` holds an unexpired lease, in the transaction `sql`; while `settling`
    (after an outage), any lease it still holds, expired or not: a replica that gave its lease
    up has no row, one that is really gone is found out once the outage has settled."""
    row = sql.execute(
        "SELECT expires_at > clock_timestamp() AS alive FROM owners WHERE owner = ?", (owner,)
    ).fetchone()
    return bool(row is not None and (row["alive"] or settling))
