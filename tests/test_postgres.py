"""The PostgreSQL layer under shared state: SQLite's statements run as written, advisory lock keys
are stable, a broken connection is opened again, and a missing psycopg says what to install."""

from __future__ import annotations

import sqlite3
import sys

import pytest

from regnb import _postgres
from regnb._postgres import INSTALL, Postgres, hash_text, is_database_error, lock_key


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT 1", "SELECT 1"),
        ("a = ? AND b = ?", "a = %s AND b = %s"),
        ("x LIKE '5%' AND y = ?", "x LIKE '5%%' AND y = %s"),
    ],
)
def test_sqlite_marks_become_psycopg_marks(sql: str, expected: str) -> None:
    assert _postgres._marks(sql) == expected


@pytest.mark.parametrize(
    ("text", "value"), [("", 0x811C9DC5), ("a", 0xE40C292C), ("foobar", 0xBF9CF968)]
)
def test_hash_text_is_fnv1a(text: str, value: int) -> None:
    assert hash_text(text) == value


@pytest.mark.parametrize("text", ["", "key_1", "account:42", "é" * 100])
def test_lock_keys_are_stable_signed_32_bit_pairs(text: str) -> None:
    namespace, key = lock_key(_postgres.RATE, text)
    assert namespace == _postgres.RATE
    assert -(1 << 31) <= key < 1 << 31
    assert lock_key(_postgres.RATE, text) == (namespace, key)


def test_a_missing_psycopg_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(ImportError, match=r"REGNB_DATABASE_URL.*regnb\[postgres\]") as raised:
        _postgres.connect("postgresql://nowhere/db")
    assert INSTALL in str(raised.value)


def test_database_errors_are_told_apart(postgres_url: str) -> None:
    import psycopg

    assert is_database_error(psycopg.OperationalError("gone"))
    assert is_database_error(psycopg.errors.UniqueViolation("twice"))
    assert not is_database_error(sqlite3.OperationalError("locked"))  # the caller checks those
    assert not is_database_error(ValueError("x"))


def test_a_broken_connection_is_opened_again(postgres_url: str) -> None:
    import psycopg

    db = Postgres(postgres_url)
    with db.transaction() as sql:
        pid = sql.row("SELECT pg_backend_pid() AS pid")["pid"]
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with db.transaction() as sql:  # the pool checks a connection before handing it out
        assert sql.row("SELECT pg_backend_pid() AS pid")["pid"] != pid
    db.close()
    with pytest.raises(RuntimeError, match="closed"), db.transaction():
        pass


def test_a_nested_transaction_is_a_savepoint(postgres_url: str) -> None:
    db = Postgres(postgres_url, "CREATE TABLE IF NOT EXISTS t (n INTEGER);")
    with db.transaction() as outer:
        outer.execute("INSERT INTO t VALUES (?)", (1,))
        with pytest.raises(ValueError), db.transaction() as inner:
            inner.execute("INSERT INTO t VALUES (?)", (2,))
            raise ValueError("the inner part fails")
    with db.transaction(read_only=True) as sql:
        assert [r["n"] for r in sql.execute("SELECT n FROM t").fetchall()] == [1]
        with pytest.raises(Exception, match="read-only"):
            sql.execute("INSERT INTO t VALUES (3)")
    assert "postgresql://" not in repr(db)
    db.close()


def test_a_slow_transaction_does_not_hold_up_another_thread(postgres_url: str) -> None:
    """A pool, not one connection behind a lock: while one thread's transaction waits (a slow
    statement, a frozen lock holder), another thread's transaction goes through."""
    import threading

    db = Postgres(postgres_url)
    inside, release = threading.Event(), threading.Event()

    def slow() -> None:
        with db.transaction() as sql:
            sql.execute("SELECT 1")
            inside.set()
            release.wait(30)

    held = threading.Thread(target=slow)
    held.start()
    try:
        assert inside.wait(30)
        seen: list[int] = []

        def quick() -> None:
            with db.transaction() as sql:
                seen.append(sql.row("SELECT 2 AS n")["n"])

        other = threading.Thread(target=quick)
        other.start()
        other.join(20)  # one connection behind a lock would wait for the slow transaction
        assert not other.is_alive() and seen == [2]
    finally:
        release.set()
        held.join(30)
        db.close()
