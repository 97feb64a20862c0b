"""PostgreSQL for the state that serving replicas share (REGNB_DATABASE_URL), through psycopg 3.

`Postgres` is a small pool of connections (psycopg_pool), opened on first use; a connection that
broke (a database restart) is replaced, and a database out of reach or too slow is `Unavailable`
(503). A frozen database (a stopped process, a hung host) answers nothing and never applies
its own statement timeout, so each round trip is also bounded here (`answering`): a connection
that has not answered `answer_s()` after a statement was sent is cut, and the request gets 503
too. Its transactions hand out a `PgSql` that takes the SQLite modules' statements as they are written
(`?` marks) and returns rows as dicts, so that the SQL of accounts and conversations is written
once. Advisory locks order what SQLite's single writer ordered: a transaction names the keys it
must hold alone, and PostgreSQL releases them at its end, or when a crashed replica's connection
closes.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, Protocol

from regnb.errors import Unavailable

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

__all__ = [
    "ACCOUNTS",
    "CONVERSATIONS",
    "INSTALL",
    "RATE",
    "SLOTS",
    "LockKey",
    "PgSql",
    "Postgres",
    "Statements",
    "answer_s",
    "answering",
    "close_all",
    "close_pools",
    "connect",
    "hash_text",
    "is_database_error",
    "is_outage",
    "lock_key",
]

INSTALL = "pip install 'regnb[postgres]'"
CONNECT_TIMEOUT_S = 5  # a database that does not take a connection in this long is out
STATEMENT_TIMEOUT_MS = 15_000  # nor one that does not answer a statement (or a lock) in this
POOL_SIZE = 4  # connections of one process at most
ANSWER_MARGIN_S = 1.0  # a round trip is cut this long after the statement timeout (`answer_s`)
WATCH_S = 0.1  # how often the watchdog looks at the round trips under way
OUTAGE = "the database does not answer; try again shortly"
LockKey = tuple[int, int]  # an advisory lock: (namespace, key), each a signed 32-bit integer
# Namespaces of regnb's advisory locks ('rg' and a letter): schema creation, writes of accounts,
# writes of the conversation store, one key's rate-limit window, one account's search slots (+
# the slot's number).
SCHEMA = 0x7267_0053
ACCOUNTS = 0x7267_0041
CONVERSATIONS = 0x7267_0043
RATE = 0x7267_0052
SLOTS = 0x7267_1000


def lock_key(namespace: int, text: str) -> LockKey:
    """An advisory lock for `text` in `namespace` (two texts may share one: they then only wait
    for each other)."""
    value = hash_text(text)
    return namespace, value - (1 << 32) if value >= 1 << 31 else value


def hash_text(text: str) -> int:
    """A stable 32-bit hash (FNV-1a) of `text`: the same in every process, unlike `hash()`."""
    value = 0x811C9DC5
    for byte in text.encode("utf-8", "surrogatepass"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


class Statements(Protocol):
    """What a transaction of either database runs, with `?` marks: a `sqlite3.Connection`, or a
    `PgSql`; rows are read by column name."""

    def execute(self, sql: str, args: Any = ..., /) -> Any: ...

    def executemany(self, sql: str, rows: Any, /) -> Any: ...


def connect(url: str) -> psycopg.Connection[dict[str, Any]]:
    """A new autocommit connection to `url` whose rows are dicts; ImportError says what to
    install when psycopg is missing."""
    try:
        import psycopg
        from psycopg.rows import dict_row
    except ImportError as exc:
        raise ImportError(
            f"a PostgreSQL database (REGNB_DATABASE_URL) needs psycopg 3: {INSTALL}"
        ) from exc
    return psycopg.connect(
        url,
        autocommit=True,
        row_factory=dict_row,
        connect_timeout=CONNECT_TIMEOUT_S,
        options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
    )


def answer_s() -> float:
    """How long a round trip may go unanswered: the statement timeout (which the database applies
    itself while it runs) and a margin."""
    return STATEMENT_TIMEOUT_MS / 1000 + ANSWER_MARGIN_S


class _Watchdog:
    """The round trips under way, each with its deadline; one thread cuts the connection of each
    one past it (its socket shut down), so that the call waiting on it fails at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[int, tuple[float, Any]] = {}
        self._thread: threading.Thread | None = None

    @contextmanager
    def answering(self, conn: Any, limit_s: float) -> Iterator[None]:
        token = object()
        with self._lock:
            self._waiting[id(token)] = (time.monotonic() + limit_s, conn)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="regnb-pg-watchdog", daemon=True
                )
                self._thread.start()
        try:
            yield
        finally:
            with self._lock:
                del self._waiting[id(token)]

    def _run(self) -> None:
        while True:
            time.sleep(WATCH_S)
            now = time.monotonic()
            with self._lock:  # held: a connection cut is still in its block, so still open
                for deadline, conn in self._waiting.values():
                    if deadline <= now:
                        _cut(conn)


def _cut(conn: Any) -> None:
    """Shut the socket of `conn` down: the call waiting on it gets an OperationalError."""
    if conn.closed:
        return
    with suppress(OSError, ValueError), socket.socket(fileno=os.dup(conn.fileno())) as sock:
        sock.shutdown(socket.SHUT_RDWR)


_WATCHDOG = _Watchdog()


def answering(conn: Any) -> contextlib.AbstractContextManager[None]:
    """A block of round trips on `conn`, the connection cut where it is unanswered for longer
    than `answer_s()` (then psycopg raises an OperationalError: an outage)."""
    return _WATCHDOG.answering(conn, answer_s())


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` says the database is out of reach or too slow (refused or lost connection,
    a statement past its timeout), not that a statement was wrong."""
    try:
        import psycopg
    except ImportError:
        return False
    return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)


def close_all(conns: list[psycopg.Connection[dict[str, Any]]]) -> None:
    """Close every connection of `conns` and empty it (a handle dropped unclosed calls this)."""
    while conns:
        with suppress(Exception):
            conns.pop().close()


def is_database_error(exc: BaseException) -> bool:
    """Whether `exc` is psycopg's (a database refused or lost a statement)."""
    return type(exc).__module__.split(".")[0] == "psycopg"


def _marks(sql: str) -> str:
    """SQLite's `?` marks as psycopg's `%s` (a literal `%` doubled): regnb's statements hold no
    `?` or `%` in a string literal."""
    return sql.replace("%", "%%").replace("?", "%s")


class PgSql:
    """Statements in one PostgreSQL transaction, written as for SQLite."""

    dialect = "postgres"

    def __init__(self, conn: psycopg.Connection[dict[str, Any]]) -> None:
        self.conn = conn

    def execute(self, sql: str, args: Sequence[Any] = ()) -> psycopg.Cursor[dict[str, Any]]:
        with answering(self.conn):
            return self.conn.execute(_marks(sql), tuple(args))

    def row(self, sql: str, args: Sequence[Any] = ()) -> dict[str, Any]:
        """The one row of a statement that always gives one (an aggregate, a function)."""
        row = self.execute(sql, args).fetchone()
        if row is None:
            raise LookupError(f"no row from {sql!r}")
        return row

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.conn.cursor() as cur, answering(self.conn):
            cur.executemany(_marks(sql), [tuple(r) for r in rows])

    def lock(self, key: LockKey) -> None:
        """Hold `key` until the transaction ends; waits while another transaction holds it."""
        with answering(self.conn):
            self.conn.execute("SELECT pg_advisory_xact_lock(%s::int, %s::int)", key)


class Postgres:
    """A small pool of connections to `url` (`POOL_SIZE`: a slow statement holds one, not the
    replica's whole database work); `schema` (statements) is run once per database, under an
    advisory lock, when the pool first opens. A thread's nested transaction is a savepoint on
    the connection it holds."""

    def __init__(self, url: str, schema: str = "", size: int = POOL_SIZE) -> None:
        self.url, self.schema, self.size = url, schema, size
        self._lock = threading.Lock()  # around opening and closing the pool
        self._pool: ConnectionPool[psycopg.Connection[dict[str, Any]]] | None = None
        self._held = threading.local()  # the connection this thread holds, for nesting
        self._open: list[ConnectionPool[Any]] = []  # closed if dropped unclosed
        weakref.finalize(self, close_pools, self._open)
        self._closed = False

    def __repr__(self) -> str:
        return "<regnb Postgres>"  # the URL may hold a password

    def _pool_open(self) -> ConnectionPool[psycopg.Connection[dict[str, Any]]]:
        with self._lock:
            if self._closed:
                raise RuntimeError(f"{self} is closed")
            if self._pool is None:
                pool = new_pool(self.url, self.size)
                try:
                    if self.schema:
                        with (
                            pool.connection(timeout=CONNECT_TIMEOUT_S) as conn,
                            answering(conn),
                            conn.transaction(),
                        ):
                            conn.execute("SELECT pg_advisory_xact_lock(%s::int, 0)", (SCHEMA,))
                            conn.execute(self.schema.encode())
                except BaseException:
                    pool.close()
                    raise
                self._pool = pool
                self._open[:] = [pool]
            return self._pool

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """The connection this thread holds, else one from the pool for the block's length (a
        broken one is dropped by the pool when given back)."""
        held = getattr(self._held, "conn", None)
        if held is not None:
            yield held
            return
        with self._pool_open().connection(timeout=CONNECT_TIMEOUT_S) as conn:
            self._held.conn = conn
            try:
                yield conn
            finally:
                self._held.conn = None

    @contextmanager
    def transaction(self, *locks: LockKey, read_only: bool = False) -> Iterator[PgSql]:
        """A transaction holding the advisory `locks` (in the order given): every statement in
        it commits or none; `read_only` reads one snapshot. Nested in another transaction of
        this thread, it is a savepoint."""
        with self._outages(), self._connection() as conn:
            nested = conn.info.transaction_status != 0  # IDLE
            with _transaction(conn):
                if read_only and not nested:
                    with answering(conn):
                        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                sql = PgSql(conn)
                for key in locks:
                    sql.lock(key)
                yield sql

    @contextmanager
    def _outages(self) -> Iterator[None]:
        """A database out of reach or too slow raised as `Unavailable` (503 with Retry-After
        over HTTP); the pool replaces the connections it finds broken."""
        try:
            yield
        except Exception as exc:
            if not is_outage(exc):
                raise
            self.disconnect()  # the next call opens a new pool: at once, when the database is back
            raise Unavailable(OUTAGE) from exc

    @contextmanager
    def statements(self) -> Iterator[PgSql]:
        """Statements outside a transaction, each committed on its own: for a single read,
        one round trip instead of four."""
        with self._outages(), self._connection() as conn:
            yield PgSql(conn)

    @property
    def closed(self) -> bool:
        return self._closed

    def disconnect(self) -> None:
        """Close the pool's connections; the next transaction opens a new pool."""
        with self._lock:
            close_pools(self._open)
            self._pool = None

    def close(self) -> None:
        """Close the pool for good: a later transaction raises RuntimeError."""
        with self._lock:
            self._closed = True
        self.disconnect()


@contextmanager
def _transaction(conn: psycopg.Connection[dict[str, Any]]) -> Iterator[None]:
    """`conn.transaction()`, its BEGIN and its COMMIT (or ROLLBACK) each `answering`."""
    tx = conn.transaction()
    with answering(conn):
        tx.__enter__()
    try:
        yield
    except BaseException as exc:
        with answering(conn):
            if not tx.__exit__(type(exc), exc, exc.__traceback__):
                raise
    else:
        with answering(conn):
            tx.__exit__(None, None, None)


def _check(conn: psycopg.Connection[dict[str, Any]]) -> None:
    """The pool's check of a connection it hands out (a restart broke it?), `answering`."""
    from psycopg_pool import ConnectionPool

    with answering(conn):
        ConnectionPool.check_connection(conn)


def new_pool(url: str, size: int) -> ConnectionPool[psycopg.Connection[dict[str, Any]]]:
    """An open pool of `size` connections at most (one kept open) to `url`, made as `connect`
    makes them; PoolTimeout (a psycopg OperationalError) when none opens in time."""
    try:
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool
    except ImportError as exc:
        raise ImportError(
            f"a PostgreSQL database (REGNB_DATABASE_URL) needs psycopg 3 and psycopg-pool: {INSTALL}"
        ) from exc
    pool: ConnectionPool[psycopg.Connection[dict[str, Any]]] = ConnectionPool(
        url,
        min_size=1,
        max_size=size,
        kwargs={
            "autocommit": True,
            "row_factory": dict_row,
            "connect_timeout": CONNECT_TIMEOUT_S,
            "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
        },
        open=False,
        timeout=CONNECT_TIMEOUT_S,
        check=_check,  # a connection a restart broke is replaced
        name="regnb",
    )
    connect(url).close()  # a database that refuses connections fails here at once, not in 5 s
    try:
        pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    except BaseException:
        pool.close()
        raise
    return pool


def close_pools(pools: list[ConnectionPool[Any]]) -> None:
    """Close every pool of `pools` and empty it (a handle dropped unclosed calls this)."""
    while pools:
        with suppress(Exception):
            pools.pop().close(timeout=1)
