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
from regnb.conversations._store import SCHEMA, Tx

__all__ = ["PG_SCHEMA", "PgConversationStore"]

# PostgreSQL's forms of the SQLite schema's types (one definition of the tables), and the table
# of secrets that SQLite keeps in a file beside the store.
_PG_FORMS = (
    ("    activity INTEGER NOT NULL", "    activity BIGINT NOT NULL"),
    (
        "    created_at TEXT NOT NULL,\n    FOREIGN KEY (conversation_id, turn_index) REFERENCES turns",
        "    created_at TEXT NOT NULL,\n    seq BIGINT GENERATED ALWAYS AS IDENTITY,\n"
        "    FOREIGN KEY (conversation_id, turn_index) REFERENCES turns",
    ),
)
_SECRETS = """CREATE TABLE IF NOT EXISTS secrets (
    name TEXT PRIMARY KEY,
    value BYTEA NOT NULL
);
"""


def pg_schema(schema: str) -> str:
    """The store's SQLite schema as PostgreSQL writes it; each form must apply exactly once."""
    for sqlite, postgres in _PG_FORMS:
        if schema.count(sqlite) != 1:
            raise AssertionError(f"the schema no longer holds {sqlite!r} once")
        schema = schema.replace(sqlite, postgres)
    return schema + _SECRETS


PG_SCHEMA = pg_schema(SCHEMA) + OWNERS_SCHEMA
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
        """Whether `owner` is this handle or another one whose lease has not expired, or, in
        the lease after an outage of the database this handle saw, one that has not given its
        lease up (its renewals may not have come through yet)."""
        if owner == self.owner:
            return True
        assert self._lease is not None  # taken by `self.owner`
        settling = self._lease.settling()  # after an outage, every lease gets a lease to renew
        with self._open().transaction() as sql:
            return lease_alive(sql, owner, settling)

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
