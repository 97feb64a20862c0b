"""The limits of replicas that share PostgreSQL (REGNB_DATABASE_URL): requests per key and
searches per account, counted once for all replicas.

`SharedRateLimiter` keeps each key's requests of the sliding window as rows; a hit holds the key's
advisory lock for its transaction, so two replicas never both take the 50th request. Its clock is
the database's (replicas' clocks may differ) unless a test gives one.

`SharedAccountSlots` holds a search slot as a session advisory lock (a slot's number and the
account id) on a connection that this process keeps for it until the search ends. PostgreSQL
frees a lock when its connection closes, so the slots of a killed replica free at once. A search
that finds every slot held tries again every `POLL_S` until its wait is over: no queue across
replicas, so the order of waiters is not kept.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread

from regnb._postgres import (
    RATE,
    SLOTS,
    LockKey,
    Postgres,
    answering,
    close_all,
    connect,
    lock_key,
)
from regnb.server._limits import Clock, concurrent_search, rate_limited

if TYPE_CHECKING:
    import psycopg

__all__ = ["POLL_S", "HeldSlot", "SharedAccountSlots", "SharedRateLimiter", "slot_key"]

POLL_S = 0.02  # how often a waiting search tries the slots again
RATE_SCHEMA = """
CREATE TABLE IF NOT EXISTS rate_hits (
    key_id TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_hits_by_key ON rate_hits(key_id, at);
"""
DB_NOW = "SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8 AS now"


class SharedRateLimiter:
    """At most `limit` requests per key in any `window_s` seconds, across replicas."""

    def __init__(
        self, url: str, limit: int, window_s: float = 60.0, clock: Clock | None = None
    ) -> None:
        self.limit, self.window_s, self.clock = limit, window_s, clock
        self._db = Postgres(url, RATE_SCHEMA)

    def hit(self, key: Hashable) -> None:
        """Count one request on `key`, or raise RateLimited (not counted) when it is over."""
        if self.limit <= 0:
            return
        name = str(key)
        wait = None
        with self._db.transaction(lock_key(RATE, name)) as sql:
            now = self.clock() if self.clock else float(sql.row(DB_NOW)["now"])
            sql.execute(
                "DELETE FROM rate_hits WHERE key_id = ? AND at <= ?", (name, now - self.window_s)
            )
            row = sql.row(
                "SELECT COUNT(*) AS hits, MIN(at) AS first FROM rate_hits WHERE key_id = ?",
                (name,),
            )
            if row["hits"] >= self.limit:
                wait = max(1, math.ceil(row["first"] + self.window_s - now))
            else:
                sql.execute("INSERT INTO rate_hits (key_id, at) VALUES (?, ?)", (name, now))
        if wait is not None:
            raise rate_limited(self.limit, self.window_s, wait)

    def disconnect(self) -> None:
        """Close the connection; the next hit opens a new one."""
        self._db.disconnect()


@dataclass(frozen=True)
class HeldSlot:
    """A search slot taken: the advisory lock `key`, held on `conn` until it is given back."""

    conn: psycopg.Connection[dict[str, Any]]
    key: LockKey


def slot_key(account: Hashable, slot: int) -> LockKey:
    """The advisory lock of an account's slot: the account id itself where it is one."""
    if isinstance(account, int) and -(1 << 31) <= account < 1 << 31:
        return SLOTS + slot, account
    return SLOTS + slot, lock_key(0, str(account))[1]


class SharedAccountSlots:
    """At most `limit` searches at once per account across replicas; the next tries again for up
    to `wait_s` seconds, then gets ConcurrentSearch."""

    def __init__(self, url: str, limit: int, wait_s: float) -> None:
        self.url, self.limit, self.wait_s = url, limit, wait_s
        self._idle: list[psycopg.Connection[dict[str, Any]]] = []  # they hold no lock
        self._lock = threading.Lock()
        weakref.finalize(self, close_all, self._idle)

    def __repr__(self) -> str:
        return f"<regnb SharedAccountSlots limit={self.limit}>"  # the URL may hold a password

    @asynccontextmanager
    async def hold(self, account: Hashable) -> AsyncIterator[None]:
        """A search slot of `account` for the duration of the block, or ConcurrentSearch."""
        if self.limit <= 0:
            yield
            return
        deadline = anyio.current_time() + self.wait_s
        held: HeldSlot | None = None
        try:
            while True:
                with anyio.CancelScope(shield=True):  # a lock taken is never lost
                    held = await anyio.to_thread.run_sync(self.take, account)
                if held is not None:
                    break
                left = deadline - anyio.current_time()
                if left <= 0:
                    raise concurrent_search()
                await anyio.sleep(min(POLL_S, left))
            yield
        finally:
            if held is not None:
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self.give_back, held)

    def take(self, account: Hashable) -> HeldSlot | None:
        """A free slot of `account`, locked on a connection of the pool; None when all are held."""
        with self._lock:
            conn = self._idle.pop() if self._idle else None
        if conn is None or conn.broken or conn.closed:
            conn = connect(self.url)
        try:
            for slot in range(self.limit):
                key = slot_key(account, slot)
                with answering(conn):
                    got = conn.execute(
                        "SELECT pg_try_advisory_lock(%s::int, %s::int) AS got", key
                    ).fetchone()
                if got is not None and got["got"]:
                    return HeldSlot(conn, key)
        except BaseException:
            conn.close()
            raise
        self._keep(conn)
        return None

    def give_back(self, held: HeldSlot) -> None:
        """Free a slot; its connection goes back to the pool."""
        try:
            with answering(held.conn):
                held.conn.execute("SELECT pg_advisory_unlock(%s::int, %s::int)", held.key)
        except Exception:  # a broken connection: its locks went with it
            held.conn.close()
            return
        self._keep(held.conn)

    def _keep(self, conn: psycopg.Connection[dict[str, Any]]) -> None:
        with self._lock:
            self._idle.append(conn)

    def disconnect(self) -> None:
        """Close the idle connections (held slots close theirs when given back)."""
        with self._lock:
            close_all(self._idle)
