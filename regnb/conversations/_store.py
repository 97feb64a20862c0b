"""The conversation store: conversations, turns, citations, produced documents, idempotency keys
and monthly question counts in one SQLite file under REGNB_HOME, produced files beside it (or in
REGNB_FILES_DIR); with REGNB_DATABASE_URL, the same tables in PostgreSQL (`_pg_store.py`).

`<home>/conversations/conversations.sqlite3` is apart from the index (a rebuilt index loses no
conversation). WAL mode and a busy timeout make it safe across processes; one connection behind
a lock makes it safe across threads; every write is one `BEGIN IMMEDIATE` transaction. This is
the only module where conversation SQL is written: `write()` and `read()` of either store hand
out a `Tx` whose methods each run one statement, in SQL that both databases take (`dialect`
names the one place they differ).

    Store               what the service and the runner use of a store (either backend)
    ConversationStore   the SQLite store
    open_store          the store that the settings name
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path
from typing import Any, Protocol

from regnb._postgres import Statements
from regnb.agent.types import SourcedCitation
from regnb.conversations._owners import OwnerLock, owner_alive
from regnb.conversations._signing import load_secret
from regnb.settings import Settings

__all__ = ["ConversationStore", "Store", "Tx", "open_store"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    conversation_id TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    title TEXT,
    status TEXT NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    last_activity_at TEXT NOT NULL,
    activity INTEGER NOT NULL
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
"""
JSON_COLUMNS: dict[str, Any] = {"question": None, "steps": [], "state": {}}
# The column that keeps the order in which documents were added.
INSERT_ORDER = {"sqlite": "rowid", "postgres": "seq"}
SUMMARY = """
SELECT c.*, (SELECT COUNT(*) FROM turns t WHERE t.conversation_id = c.conversation_id)
    AS turn_count
FROM conversations c WHERE c.account = ? {running} {exclude}
ORDER BY c.activity DESC LIMIT ? OFFSET ?
"""


def _summary_sql(template: str, running_only: bool, exclude: Sequence[str]) -> str:
    """A list or count query: running conversations only, and without `exclude` (bound values)."""
    marks = ", ".join("?" for _ in exclude)
    return template.format(
        running="AND c.status = 'running'" if running_only else "",
        exclude=f"AND c.conversation_id NOT IN ({marks})" if exclude else "",
    )


class Store(Protocol):
    """One process's handle on a conversation store: transactions, the owner id under which
    this process runs turns, whether another owner is alive, and where produced files go."""

    files: Path

    @property
    def owner(self) -> str: ...

    @property
    def closed(self) -> bool: ...

    def alive(self, owner: str) -> bool: ...

    def write(self) -> AbstractContextManager[Tx]: ...

    def read(self) -> AbstractContextManager[Tx]: ...

    def run_folder(self, run_id: str) -> Path: ...

    def secret(self) -> bytes: ...

    def close(self) -> None: ...


def open_store(settings: Settings, busy_timeout_s: float = 10.0) -> Store:
    """The store of `settings`: PostgreSQL when `database_url` is set, else the SQLite file
    under `home`; produced files in `files_folder` either way."""
    if settings.database_url:
        from regnb.conversations._pg_store import PgConversationStore

        return PgConversationStore(
            settings.database_url, settings.files_folder, settings.replica_lease_s
        )
    return ConversationStore.under(settings.home, busy_timeout_s, files=settings.files_folder)


def _close(conn: sqlite3.Connection, owner: OwnerLock) -> None:
    conn.close()
    owner.release()


class ConversationStore:
    """One process's handle on the SQLite store; opened on first use, which also registers it as
    a live owner of the runs it starts. Produced files go in `files` (default: `folder/files`)."""

    def __init__(
        self, folder: str | Path, busy_timeout_s: float = 10.0, *, files: Path | None = None
    ) -> None:
        self.folder = Path(folder)
        self.busy_timeout_s = busy_timeout_s
        self.files = Path(files) if files is not None else self.folder / "files"
        self.path = self.folder / "conversations.sqlite3"
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        # reads on a connection of their own: under WAL a reader never waits for a writer (nor
        # for a writer of another process to give up its lock after the busy timeout)
        self._read_lock = threading.Lock()
        self._read_conn: sqlite3.Connection | None = None
        self._owner: OwnerLock | None = None
        self._finalizer: (
            weakref.finalize[[sqlite3.Connection, OwnerLock], ConversationStore] | None
        ) = None
        self._closed = False

    @classmethod
    def under(
        cls, home: str | Path, busy_timeout_s: float = 10.0, *, files: Path | None = None
    ) -> ConversationStore:
        """The store of a REGNB_HOME: `<home>/conversations/`."""
        return cls(Path(home) / "conversations", busy_timeout_s, files=files)

    def __repr__(self) -> str:
        return f"<regnb ConversationStore {self.path}>"

    def _connect(self) -> sqlite3.Connection:
        with self._lock:
            if self._closed:
                raise RuntimeError(f"{self} is closed")
            if self._conn is None:
                self.files.mkdir(parents=True, exist_ok=True)
                fresh = not self.path.exists()
                conn = sqlite3.connect(
                    self.path,
                    timeout=self.busy_timeout_s,
                    isolation_level=None,
                    check_same_thread=False,
                )
                if fresh:
                    os.chmod(self.path, 0o600)
                conn.row_factory = sqlite3.Row
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA foreign_keys=ON")
                conn.executescript(SCHEMA)
                self._owner = OwnerLock(self.folder / "owners")
                reader = sqlite3.connect(
                    self.path,
                    timeout=self.busy_timeout_s,
                    isolation_level=None,
                    check_same_thread=False,
                )
                reader.row_factory = sqlite3.Row
                reader.execute("PRAGMA foreign_keys=ON")
                self._read_conn = reader
                self._conn = conn
                self._finalizer = weakref.finalize(self, _close, conn, self._owner)
            return self._conn

    @property
    def owner(self) -> str:
        """The id under which this handle runs turns."""
        self._connect()
        assert self._owner is not None
        return self._owner.id

    def alive(self, owner: str) -> bool:
        """Whether `owner` is this handle or another live one."""
        return owner == self.owner or owner_alive(self.folder / "owners", owner)

    def _reader(self) -> sqlite3.Connection:
        """The read connection, made with the write one (which creates the schema) and taken
        without the writer's lock."""
        conn = self._read_conn
        if conn is None or self._closed:
            self._connect()  # the first call of a handle: both made
            conn = self._read_conn
        if conn is None:
            raise RuntimeError(f"{self} is closed")
        return conn

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[Tx]:
        reading = begin == "BEGIN"
        lock = self._read_lock if reading else self._lock
        with lock:
            conn = self._reader() if reading else self._connect()
            conn.execute(begin)
            try:
                yield Tx(conn)
                conn.execute("COMMIT")
            except BaseException:
                # SQLite has rolled back already after some errors (a full disk): the error that
                # says why is the one to raise, and the connection must not stay in a transaction
                if conn.in_transaction:
                    with suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

    def write(self) -> AbstractContextManager[Tx]:
        """A write transaction (`BEGIN IMMEDIATE`): every statement in it commits or none."""
        return self._transaction("BEGIN IMMEDIATE")

    def read(self) -> AbstractContextManager[Tx]:
        """A read transaction: one consistent snapshot."""
        return self._transaction("BEGIN")

    @property
    def closed(self) -> bool:
        return self._closed

    def run_folder(self, run_id: str) -> Path:
        """Where a run's produced files go."""
        return self.files / run_id

    def secret(self) -> bytes:
        """The secret that signs download links: `<folder>/secret`, made on first use."""
        return load_secret(self.folder)

    def close(self) -> None:
        """Close the connection and give up ownership (its running turns read as interrupted)."""
        with self._lock:
            self._closed = True
            if self._finalizer is not None:
                self._finalizer()
        with self._read_lock:
            if self._read_conn is not None:
                self._read_conn.close()
                self._read_conn = None


class Tx:
    """Statements inside one transaction of either database (`dialect`: sqlite or postgres)."""

    def __init__(self, conn: Statements, dialect: str = "sqlite") -> None:
        self.c, self.dialect = conn, dialect

    def _all(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(row) for row in self.c.execute(sql, args).fetchall()]

    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.c.execute(sql, args).fetchone()
        return dict(row) if row is not None else None

    def _value(self, sql: str, *args: Any) -> Any:
        """The column `value` of the one row of `sql`."""
        return self.c.execute(sql, args).fetchone()["value"]

    # idempotency keys

    def key(self, account: str, key: str) -> dict[str, Any] | None:
        return self._one(
            "SELECT * FROM idempotency_keys WHERE account = ? AND key = ?", account, key
        )

    def claim_key(self, account: str, key: str, fingerprint: str, owner: str, now: str) -> None:
        """Mark `key` as being processed by `owner` (replacing a dead owner's claim)."""
        self.c.execute(
            "INSERT INTO idempotency_keys (account, key, fingerprint, state, owner, created_at) "
            "VALUES (?, ?, ?, 'pending', ?, ?) ON CONFLICT (account, key) DO UPDATE SET "
            "fingerprint = excluded.fingerprint, state = 'pending', owner = excluded.owner, "
            "conversation_id = NULL, turn_index = NULL, run_id = NULL, "
            "created_at = excluded.created_at",
            (account, key, fingerprint, owner, now),
        )

    def settle_key(
        self, account: str, key: str, conversation_id: str, turn_index: int, run_id: str
    ) -> None:
        self.c.execute(
            "UPDATE idempotency_keys SET state = 'done', conversation_id = ?, turn_index = ?, "
            "run_id = ? WHERE account = ? AND key = ?",
            (conversation_id, turn_index, run_id, account, key),
        )

    def release_key(self, account: str, key: str, owner: str) -> None:
        self.c.execute(
            "DELETE FROM idempotency_keys WHERE account = ? AND key = ? AND state = 'pending' "
            "AND owner = ?",
            (account, key, owner),
        )

    def drop_pending_keys(self, owner: str) -> None:
        self.c.execute(
            "DELETE FROM idempotency_keys WHERE state = 'pending' AND owner = ?", (owner,)
        )

    # conversations

    def conversation(self, account: str, conversation_id: str) -> dict[str, Any] | None:
        return self._one(
            "SELECT * FROM conversations WHERE conversation_id = ? AND account = ?",
            conversation_id,
            account,
        )

    def add_conversation(self, conversation_id: str, account: str, title: str, now: str) -> None:
        self.c.execute(
            "INSERT INTO conversations (conversation_id, account, title, status, created_at, "
            "last_activity_at, activity) VALUES (?, ?, ?, 'running', ?, ?, 0)",
            (conversation_id, account, title, now, now),
        )

    def touch(self, conversation_id: str, now: str) -> None:
        """Record activity now: the list shows the most recent first."""
        self.c.execute(
            "UPDATE conversations SET last_activity_at = ?, "
            "activity = (SELECT COALESCE(MAX(activity), 0) + 1 FROM conversations) "
            "WHERE conversation_id = ?",
            (now, conversation_id),
        )

    def set_status(self, conversation_id: str, status: str, error: str | None = None) -> None:
        self.c.execute(
            "UPDATE conversations SET status = ?, error = ? WHERE conversation_id = ?",
            (status, error, conversation_id),
        )

    def running_count(self, account: str) -> int:
        return int(
            self._value(
                "SELECT COUNT(*) AS value FROM conversations "
                "WHERE account = ? AND status = 'running'",
                account,
            )
        )

    def count(self, account: str, running_only: bool, exclude: Sequence[str] = ()) -> int:
        """The account's conversations (running ones only), but those of `exclude`."""
        sql = (
            "SELECT COUNT(*) AS value FROM conversations c WHERE c.account = ? {running} {exclude}"
        )
        return int(self._value(_summary_sql(sql, running_only, exclude), account, *exclude))

    def summaries(
        self, account: str, running_only: bool, limit: int, offset: int, exclude: Sequence[str] = ()
    ) -> list[dict[str, Any]]:
        """Conversations with their turn counts, most recent activity first (but `exclude`)."""
        sql = _summary_sql(SUMMARY, running_only, exclude)
        return self._all(sql, account, *exclude, limit, offset)

    # turns

    def _decoded(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for row in rows:
            for column, empty in JSON_COLUMNS.items():
                raw = row.get(column)
                row[column] = json.loads(raw) if raw is not None else empty
        return rows

    def turns(self, conversation_id: str) -> list[dict[str, Any]]:
        return self._decoded(
            self._all(
                "SELECT * FROM turns WHERE conversation_id = ? ORDER BY turn_index",
                conversation_id,
            )
        )

    def latest_turn(self, conversation_id: str) -> dict[str, Any] | None:
        rows = self._all(
            "SELECT * FROM turns WHERE conversation_id = ? ORDER BY turn_index DESC LIMIT 1",
            conversation_id,
        )
        return self._decoded(rows)[0] if rows else None

    def turn_by_run(self, run_id: str) -> dict[str, Any] | None:
        rows = self._all("SELECT * FROM turns WHERE run_id = ?", run_id)
        return self._decoded(rows)[0] if rows else None

    def add_turn(self, row: dict[str, Any]) -> None:
        """A new running turn; `row` holds the columns by name."""
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        self.c.execute(
            f"INSERT INTO turns ({names}, status) VALUES ({marks}, 'running')", tuple(row.values())
        )

    def drop_turn(self, conversation_id: str, turn_index: int) -> None:
        """Remove a turn with its citations and documents."""
        self.c.execute(
            "DELETE FROM turns WHERE conversation_id = ? AND turn_index = ?",
            (conversation_id, turn_index),
        )

    def set_steps(self, run_id: str, steps: list[dict[str, Any]]) -> bool:
        """Replace a running turn's steps; False when it is no longer running."""
        cur = self.c.execute(
            "UPDATE turns SET steps = ? WHERE run_id = ? AND status = 'running'",
            (json.dumps(steps), run_id),
        )
        return bool(cur.rowcount > 0)

    def finish_turn(
        self,
        run_id: str,
        status: str,
        answer: str | None,
        question: dict[str, Any] | None,
        state: dict[str, Any],
    ) -> bool:
        """End a running turn; False when it is no longer running (stopped meanwhile)."""
        cur = self.c.execute(
            "UPDATE turns SET status = ?, answer = ?, question = ?, state = ?, steps = '[]' "
            "WHERE run_id = ? AND status = 'running'",
            (
                status,
                answer,
                json.dumps(question) if question is not None else None,
                json.dumps(state),
                run_id,
            ),
        )
        return bool(cur.rowcount > 0)

    def fail_turn(self, run_id: str, error: str) -> bool:
        """A running turn becomes `error`; False when it is no longer running."""
        cur = self.c.execute(
            "UPDATE turns SET status = 'error', error = ?, steps = '[]' "
            "WHERE run_id = ? AND status = 'running'",
            (error, run_id),
        )
        return bool(cur.rowcount > 0)

    def running_turns(self) -> list[dict[str, Any]]:
        return self._all(
            "SELECT conversation_id, turn_index, run_id, owner FROM turns WHERE status = 'running'"
        )

    def pending_key_owners(self) -> list[str]:
        return [
            r["owner"]
            for r in self._all(
                "SELECT DISTINCT owner FROM idempotency_keys WHERE state = 'pending'"
            )
        ]

    def highest_citation(self, conversation_id: str) -> int:
        return int(
            self._value(
                "SELECT COALESCE(MAX(idx), 0) AS value FROM citations WHERE conversation_id = ?",
                conversation_id,
            )
        )

    # citations and documents

    def citations(self, conversation_id: str) -> list[dict[str, Any]]:
        return self._all(
            "SELECT * FROM citations WHERE conversation_id = ? ORDER BY idx", conversation_id
        )

    def add_citations(
        self, conversation_id: str, turn_index: int, citations: Sequence[SourcedCitation]
    ) -> None:
        self.c.executemany(
            "INSERT INTO citations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    conversation_id,
                    turn_index,
                    c.index,
                    c.name,
                    c.dataset,
                    c.date,
                    c.page_num,
                    c.url,
                    c.block_id,
                    c.parent_index,
                    c.document_id,
                    c.dataset_id,
                    c.passage,
                )
                for c in citations
            ],
        )

    def documents(self, conversation_id: str) -> list[dict[str, Any]]:
        rows = self._all(
            "SELECT * FROM documents WHERE conversation_id = ? "
            f"ORDER BY created_at, {INSERT_ORDER[self.dialect]}",
            conversation_id,
        )
        for row in rows:
            row.pop("seq", None)
        return rows

    def document(self, conversation_id: str, document_id: str) -> dict[str, Any] | None:
        row = self._one(
            "SELECT * FROM documents WHERE conversation_id = ? AND document_id = ?",
            conversation_id,
            document_id,
        )
        if row is not None:
            row.pop("seq", None)
        return row

    def add_document(self, row: dict[str, Any]) -> None:
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        self.c.execute(f"INSERT INTO documents ({names}) VALUES ({marks})", tuple(row.values()))

    # monthly questions

    def questions_used(self, account: str, month: str) -> int:
        row = self._one(
            "SELECT used FROM questions WHERE account = ? AND month = ?", account, month
        )
        return int(row["used"]) if row else 0

    def count_question(self, account: str, month: str, delta: int) -> None:
        self.c.execute(
            "INSERT INTO questions (account, month, used) VALUES (?, ?, ?) "
            "ON CONFLICT (account, month) DO UPDATE SET "
            "used = CASE WHEN questions.used + ? > 0 THEN questions.used + ? ELSE 0 END",
            (account, month, max(delta, 0), delta, delta),
        )
