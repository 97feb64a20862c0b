"""The conversation store in PostgreSQL (REGNB_DATABASE_URL), shared by serving replicas.

The tables and statements are the SQLite store's (`Tx`); what differs is how a handle holds
them. Every write transaction first takes one advisory lock, so that writes follow one another
as under SQLite's `BEGIN IMMEDIATE`: a limit checked in a transaction (three running
conversations per account, an idempotency key used once) holds across replicas. A read is one
REPEATABLE READ snapshot. A handle registers a lease (`OwnerLease`) on first use: the runs it
starts are its own, and another replica marks them `error` once the lease expires. Produced files
go in `files`, a folder that every replica reaches; the secret that signs download links is in
the database, so that a link made by one replica opens on any.
"""

from __future__ import annotations

import secrets
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from regnb._postgres import CONVERSATIONS, Postgres
from regnb.conversations._owners import OWNERS_SCHEMA, OwnerLease, lease_alive
from regnb.conversations._signing import SECRET_BYTES
from regnb.conversations._store import Tx

__all__ = ["PG_SCHEMA", "PgConversationStore"]

PG_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS conversations (
    conversation_id TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    title TEXT,
    status TEXT NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    last_activity_at TEXT NOT NULL,
    activity BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS conversations_by_account ON conversations(account, activity);
CREATE TABLE IF NOT EXISTS turns (
    conversation_id TEXT NOT NULL REFERENCES conversations ON DELETE CASCADE,
    turn_index INTEGER NOT NULL,
    message TEXT NOT NULL,
    status TEXT NOT NULL,
    answer TEXT,
    question TEXT,
    submitted_at TEXT NOT NULL,
    steps TEXT NOT NULL DEFAULT '[]',
    state TEXT NOT NULL DEFAULT '{}',
    error TEXT,
    plan TEXT NOT NULL,
    run_id TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    idempotency_key TEXT,
    fingerprint TEXT,
    PRIMARY KEY (conversation_id, turn_index)
);
CREATE INDEX IF NOT EXISTS turns_by_status ON turns(status);
CREATE TABLE IF NOT EXISTS citations (
    conversation_id TEXT NOT NULL,
    turn_index INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    dataset TEXT NOT NULL,
    date TEXT,
    page_num INTEGER,
    url TEXT NOT NULL,
    block_id TEXT,
    parent_index INTEGER,
    document_id TEXT NOT NULL,
    dataset_id TEXT NOT NULL,
    passage TEXT,
    PRIMARY KEY (conversation_id, idx),
    FOREIGN KEY (conversation_id, turn_index) REFERENCES turns ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS documents (
    document_id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    turn_index INTEGER NOT NULL,
    title TEXT NOT NULL,
    type TEXT NOT NULL,
    filename TEXT,
    media_type TEXT,
    content TEXT,
    path TEXT,
    created_at TEXT NOT NULL,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    FOREIGN KEY (conversation_id, turn_index) REFERENCES turns ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS documents_by_turn ON documents(conversation_id, turn_index);
CREATE TABLE IF NOT EXISTS idempotency_keys (
    account TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    state TEXT NOT NULL,
    owner TEXT NOT NULL,
    conversation_id TEXT,
    turn_index INTEGER,
    run_id TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (account, key)
);
CREATE TABLE IF NOT EXISTS questions (
    account TEXT NOT NULL,
    month TEXT NOT NULL,
    used INTEGER NOT NULL,
    PRIMARY KEY (account, month)
);
CREATE TABLE IF NOT EXISTS secrets (
    name TEXT PRIMARY KEY,
    value BYTEA NOT NULL
);
"""
    + OWNERS_SCHEMA
)
WRITES = (CONVERSATIONS, 0)  # the advisory lock every write holds
SECRET = "download links"


def _close(db: Postgres, lease: OwnerLease) -> None:
    lease.release()
    db.close()


class PgConversationStore:
    """One process's handle on the store in the database at `url`; opened on first use, which
    also takes this handle's lease (renewed every `lease_s / 3` seconds)."""

    def __init__(self, url: str, files: str | Path, lease_s: float = 30.0) -> None:
        self.files = Path(files)
        self.lease_s = lease_s
        self._url = url
        self._db = Postgres(url, PG_SCHEMA)
        self._lock = threading.Lock()
        self._lease: OwnerLease | None = None
        self._finalizer: weakref.finalize[[Postgres, OwnerLease], PgConversationStore] | None = None
        self._closed = False

    def __repr__(self) -> str:
        return "<regnb ConversationStore in PostgreSQL>"  # the URL may hold a password

    def _open(self) -> Postgres:
        with self._lock:
            if self._closed:
                raise RuntimeError(f"{self} is closed")
            if self._lease is None:
                self.files.mkdir(parents=True, exist_ok=True)
                with self._db.transaction():
                    pass  # the tables exist before the lease is taken
                self._lease = OwnerLease(self._url, self.lease_s)
                self._finalizer = weakref.finalize(self, _close, self._db, self._lease)
            return self._db

    @property
    def owner(self) -> str:
        """The id under which this handle runs turns."""
        self._open()
        assert self._lease is not None
        return self._lease.id

    def alive(self, owner: str) -> bool:
        """Whether `owner` is this handle or another one whose lease has not expired."""
        if owner == self.owner:
            return True
        with self._open().transaction() as sql:
            return lease_alive(sql, owner)

    @contextmanager
    def write(self) -> Iterator[Tx]:
        """A write transaction: every statement in it commits or none, one writer at a time."""
        with self._open().transaction(WRITES) as sql:
            yield Tx(sql, "postgres")

    @contextmanager
    def read(self) -> Iterator[Tx]:
        """A read transaction: one consistent snapshot."""
        with self._open().transaction(read_only=True) as sql:
            yield Tx(sql, "postgres")

    @property
    def closed(self) -> bool:
        return self._closed

    def run_folder(self, run_id: str) -> Path:
        """Where a run's produced files go."""
        return self.files / run_id

    def secret(self) -> bytes:
        """The secret that signs download links, the same for every replica; made on first use."""
        with self._open().transaction() as sql:
            sql.execute(
                "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (SECRET, secrets.token_bytes(SECRET_BYTES)),
            )
            row = sql.execute("SELECT value FROM secrets WHERE name = ?", (SECRET,)).fetchone()
        assert row is not None  # inserted above, or by another replica before
        return bytes(row["value"])

    def close(self) -> None:
        """Close the connection and give up the lease (its running turns read as interrupted)."""
        with self._lock:
            self._closed = True
            if self._finalizer is not None:
                self._finalizer()
            else:
                self._db.close()
