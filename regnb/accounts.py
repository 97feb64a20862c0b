"""Accounts and API keys, in a SQLite file under REGNB_HOME shared by `regnb keys` and `regnb serve`.

An account has a plan (`free`, `paid`, `enterprise`) and any number of keys. A key is random, shown
once when it is created, and stored only as its SHA-256 hash; a lookup hashes the key presented,
finds the row by hash and compares the hashes in constant time. Nothing is cached: a deleted key
is refused on the next request, in every process that shares the file.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import os
import re
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from regnb.errors import InvalidRequest
from regnb.settings import Settings
from regnb.validate import check_plan

__all__ = ["KEY_LIKE", "Accounts", "Caller", "KeyInfo", "NewKey", "accounts_path"]

KEY_PREFIX = "rnb_"
KEY_BYTES = 32  # a key is KEY_PREFIX and these bytes in base64url: 43 characters
SHOWN_CHARS = 8
# Text that looks like a key, or most of one, also with `_` or `-` percent-encoded (as a URL may
# carry it): the prefix and at least 16 base64url characters. `regnb keys list` shows only the
# first 8 characters, which this leaves alone.
KEY_LIKE = re.compile(r"rnb(?:_|%5f)(?:[a-z0-9_-]|%2d|%5f){16,}", re.IGNORECASE)
SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    account_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    plan TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(account_id) ON DELETE CASCADE,
    key_hash TEXT NOT NULL UNIQUE,
    shown TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Caller:
    """Who a valid key belongs to."""

    key_id: str
    account_id: int
    account: str
    plan: str


@dataclass(frozen=True)
class KeyInfo:
    """A key as `regnb keys list` shows it: never the key itself, only its first characters."""

    key_id: str
    account: str
    plan: str
    shown: str
    created_at: str


@dataclass(frozen=True)
class NewKey:
    """A key just created: `key` is the only time the key is available."""

    key: str
    info: KeyInfo
    plan_changed_from: str | None = None


def accounts_path(settings: Settings | None = None) -> Path:
    """The accounts file: `<REGNB_HOME>/accounts.sqlite3`."""
    return (settings or Settings.from_env()).home / "accounts.sqlite3"


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class Accounts:
    """The accounts file; one connection, safe to share between threads and processes."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else accounts_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists()
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(
            self.path, timeout=10.0, isolation_level=None, check_same_thread=False
        )
        if fresh:
            os.chmod(self.path, 0o600)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Accounts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<regnb.Accounts {self.path}>"

    def _transaction(self) -> _Transaction:
        """`BEGIN IMMEDIATE` ... `COMMIT` under the connection's lock (ROLLBACK on error)."""
        return _Transaction(self._conn, self._lock)

    def create_key(self, account: str, plan: str | None = None) -> NewKey:
        """A new key for `account`, created with `plan` (default enterprise) if it is new.

        Naming a plan for an existing account changes the account's plan.
        """
        if not isinstance(account, str) or not account.strip():
            raise InvalidRequest("account must be a non-empty name", field="account")
        account = account.strip()
        if plan is not None:
            check_plan(plan)
        key = KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)
        key_id = "key_" + secrets.token_hex(6)
        created = _now()
        with self._transaction() as conn:
            row = conn.execute("SELECT plan FROM accounts WHERE name = ?", (account,)).fetchone()
            changed_from = None
            if row is None:
                plan = plan or "enterprise"
                conn.execute(
                    "INSERT INTO accounts (name, plan, created_at) VALUES (?, ?, ?)",
                    (account, plan, created),
                )
            elif plan is not None and plan != row[0]:
                changed_from = str(row[0])
                conn.execute("UPDATE accounts SET plan = ? WHERE name = ?", (plan, account))
            else:
                plan = str(row[0])
            conn.execute(
                "INSERT INTO api_keys (key_id, account_id, key_hash, shown, created_at) "
                "SELECT ?, account_id, ?, ?, ? FROM accounts WHERE name = ?",
                (key_id, _hash(key), key[:SHOWN_CHARS], created, account),
            )
        return NewKey(key, KeyInfo(key_id, account, plan, key[:SHOWN_CHARS], created), changed_from)

    def list_keys(self) -> list[KeyInfo]:
        """Every key, by account then creation time."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT k.key_id, a.name, a.plan, k.shown, k.created_at "
                "FROM api_keys k JOIN accounts a USING (account_id) "
                "ORDER BY a.name, k.created_at, k.key_id"
            ).fetchall()
        return [KeyInfo(*map(str, row)) for row in rows]

    def delete_key(self, key_id_or_key: str) -> KeyInfo | None:
        """Delete a key given its id or the key itself; None when there is no such key."""
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT k.key_id, a.name, a.plan, k.shown, k.created_at "
                "FROM api_keys k JOIN accounts a USING (account_id) "
                "WHERE k.key_id = ? OR k.key_hash = ?",
                (key_id_or_key, _hash(key_id_or_key)),
            ).fetchone()
            if row is None:
                return None
            conn.execute("DELETE FROM api_keys WHERE key_id = ?", (row[0],))
        return KeyInfo(*map(str, row))

    def set_plan(self, account: str, plan: str) -> None:
        """Change an account's plan; its keys follow at once."""
        check_plan(plan)
        with self._transaction() as conn:
            cur = conn.execute("UPDATE accounts SET plan = ? WHERE name = ?", (plan, account))
            if cur.rowcount == 0:
                raise InvalidRequest(f"no account {account!r}", field="account")

    def lookup(self, key: str) -> Caller | None:
        """The caller a key belongs to, or None for a key that does not exist (or was deleted)."""
        digest = _hash(key)
        with self._lock:
            row = self._conn.execute(
                "SELECT k.key_hash, k.key_id, a.account_id, a.name, a.plan "
                "FROM api_keys k JOIN accounts a USING (account_id) WHERE k.key_hash = ?",
                (digest,),
            ).fetchone()
        if row is None or not hmac.compare_digest(str(row[0]), digest):
            return None
        return Caller(str(row[1]), int(row[2]), str(row[3]), str(row[4]))


class _Transaction:
    def __init__(self, conn: sqlite3.Connection, lock: threading.Lock) -> None:
        self._conn, self._lock = conn, lock

    def __enter__(self) -> sqlite3.Connection:
        self._lock.acquire()
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._lock.release()
            raise
        return self._conn

    def __exit__(self, kind: object, *rest: object) -> None:
        try:
            self._conn.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self._lock.release()
