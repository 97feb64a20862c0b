"""Accounts and keys: hashes only, shown once, constant-time comparison, deletes take effect; the
same behaviour in a SQLite file and in PostgreSQL (REGNB_DATABASE_URL)."""

from __future__ import annotations

import hashlib
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regnb.errors import InvalidRequest
from regnb.server import accounts as accounts_module
from regnb.server.accounts import Accounts, accounts_path
from regnb.settings import Settings


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    """Where a key store lives: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return {"path": tmp_path / "accounts.sqlite3"}
    return {"database_url": request.getfixturevalue("postgres_url")}


@pytest.fixture
def accounts(where: dict[str, Any]) -> Iterator[Accounts]:
    with Accounts(**where) as acc:
        yield acc


@pytest.fixture
def sqlite_accounts(tmp_path: Path) -> Iterator[Accounts]:
    with Accounts(tmp_path / "accounts.sqlite3") as acc:
        yield acc


def test_created_key_finds_its_account_and_plan(accounts: Accounts) -> None:
    new = accounts.create_key("acme", "paid")
    caller = accounts.lookup(new.key)
    assert caller is not None
    assert (caller.account, caller.plan, caller.key_id) == ("acme", "paid", new.info.key_id)


def test_new_account_defaults_to_enterprise(accounts: Accounts) -> None:
    assert accounts.create_key("acme").info.plan == "enterprise"


def test_keys_are_random_and_an_account_has_many(accounts: Accounts) -> None:
    keys = {accounts.create_key("acme", "free").key for _ in range(5)}
    assert len(keys) == 5
    assert all(len(k) > 40 for k in keys)
    callers = {accounts.lookup(k).account_id for k in keys}  # type: ignore[union-attr]
    assert len(callers) == 1


def test_naming_another_plan_changes_the_account(accounts: Accounts) -> None:
    first = accounts.create_key("acme", "free")
    second = accounts.create_key("acme", "enterprise")
    assert second.plan_changed_from == "free"
    assert accounts.lookup(first.key).plan == "enterprise"  # type: ignore[union-attr]
    assert accounts.create_key("acme").info.plan == "enterprise"


def test_only_the_hash_is_stored(sqlite_accounts: Accounts) -> None:
    accounts = sqlite_accounts
    assert accounts.path is not None
    key = accounts.create_key("acme", "paid").key
    raw = accounts.path.read_bytes() + Path(str(accounts.path) + "-wal").read_bytes()
    assert key.encode() not in raw
    with sqlite3.connect(accounts.path) as conn:
        hashes = [r[0] for r in conn.execute("SELECT key_hash FROM api_keys")]
    conn.close()
    assert hashes == [hashlib.sha256(key.encode()).hexdigest()]


def test_listing_never_shows_the_key(accounts: Accounts) -> None:
    key = accounts.create_key("acme", "paid").key
    (info,) = accounts.list_keys()
    assert key not in repr(info)
    assert key.startswith(info.shown) and len(info.shown) < 10


def test_lookup_compares_in_constant_time(
    accounts: Accounts, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = accounts.create_key("acme", "paid").key
    seen: list[tuple[str, str]] = []

    def spy(a: str, b: str) -> bool:
        seen.append((a, b))
        return a == b

    monkeypatch.setattr(accounts_module.hmac, "compare_digest", spy)
    assert accounts.lookup(key) is not None
    assert seen == [(hashlib.sha256(key.encode()).hexdigest(),) * 2]


@pytest.mark.parametrize("by", ["key_id", "key"])
def test_a_deleted_key_is_refused_at_once(
    accounts: Accounts, where: dict[str, Any], by: str
) -> None:
    new = accounts.create_key("acme", "paid")
    with Accounts(**where) as other_process:
        assert other_process.lookup(new.key) is not None
        deleted = accounts.delete_key(new.info.key_id if by == "key_id" else new.key)
        assert deleted is not None and deleted.key_id == new.info.key_id
        assert other_process.lookup(new.key) is None
    assert accounts.lookup(new.key) is None
    assert accounts.delete_key(new.key) is None


def test_unknown_keys_are_refused(accounts: Accounts) -> None:
    accounts.create_key("acme", "paid")
    assert accounts.lookup("rnb_not-a-key") is None
    assert accounts.lookup("") is None


def test_plan_change_applies_to_existing_keys(accounts: Accounts) -> None:
    key = accounts.create_key("acme", "enterprise").key
    accounts.set_plan("acme", "free")
    assert accounts.lookup(key).plan == "free"  # type: ignore[union-attr]
    with pytest.raises(InvalidRequest):
        accounts.set_plan("nobody", "free")


@pytest.mark.parametrize(("account", "plan"), [("acme", "gold"), ("", "free"), ("  ", None)])
def test_bad_account_or_plan_is_refused(accounts: Accounts, account: str, plan: str) -> None:
    with pytest.raises(InvalidRequest):
        accounts.create_key(account, plan)
    assert accounts.list_keys() == []


def test_file_is_private_and_in_wal_mode(sqlite_accounts: Accounts) -> None:
    accounts = sqlite_accounts
    assert accounts.path is not None
    assert stat.S_IMODE(accounts.path.stat().st_mode) == 0o600
    with sqlite3.connect(accounts.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_default_path_is_under_regnb_home(regnb_home: Path) -> None:
    assert accounts_path(Settings.from_env()) == regnb_home / "accounts.sqlite3"


def _regnb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "regnb.cli", *args], capture_output=True, text=True, check=False
    )


def test_keys_cli_create_list_delete(regnb_home: Path) -> None:
    created = _regnb("keys", "create", "--account", "acme", "--plan", "paid")
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip().splitlines()[-1]
    with Accounts() as acc:
        caller = acc.lookup(key)
    assert caller is not None and caller.plan == "paid"

    listed = _regnb("keys", "list")
    assert listed.returncode == 0
    assert "acme" in listed.stdout and caller.key_id in listed.stdout
    assert key not in listed.stdout

    assert _regnb("keys", "delete", caller.key_id).returncode == 0
    with Accounts() as acc:
        assert acc.lookup(key) is None
    missing = _regnb("keys", "delete", caller.key_id)
    assert missing.returncode == 2 and "error: not_found (key): no such key" in missing.stderr


def test_keys_cli_refuses_an_unknown_plan(regnb_home: Path) -> None:
    done = _regnb("keys", "create", "--account", "acme", "--plan", "gold")
    assert done.returncode == 2
    assert not (regnb_home / "accounts.sqlite3").exists()


def test_only_the_hash_is_stored_in_postgres(postgres_url: str) -> None:
    import psycopg

    with Accounts(database_url=postgres_url) as accounts:
        key = accounts.create_key("acme", "paid").key
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute("SELECT * FROM api_keys").fetchall()
    assert key not in repr(rows)
    assert [r[2] for r in rows] == [hashlib.sha256(key.encode()).hexdigest()]


def test_handles_creating_keys_at_once_make_one_account(where: dict[str, Any]) -> None:
    handles = [Accounts(**where) for _ in range(4)]
    made: list[int] = []

    def create(acc: Accounts) -> None:
        for _ in range(5):
            made.append(acc.lookup(acc.create_key("acme", "paid").key).account_id)  # type: ignore[union-attr]

    threads = [threading.Thread(target=create, args=(acc,)) for acc in handles]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 20 and len(set(made)) == 1
    assert len(handles[0].list_keys()) == 20
    for acc in handles:
        acc.close()


def test_the_database_url_setting_moves_the_keys_to_postgres(
    regnb_home: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REGNB_DATABASE_URL", postgres_url)
    created = _regnb("keys", "create", "--account", "acme", "--plan", "free")
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip().splitlines()[-1]
    with Accounts.open(Settings.from_env()) as acc, Accounts() as default:
        assert acc.path is None and default.path is None
        assert acc.lookup(key).plan == "free"  # type: ignore[union-attr]
        assert default.lookup(key) is not None
        assert "postgres" in repr(acc).lower() and postgres_url not in repr(acc)
    assert not (regnb_home / "accounts.sqlite3").exists()
    monkeypatch.delenv("REGNB_DATABASE_URL")
    with Accounts.open(Settings.from_env()) as acc:
        assert acc.path == regnb_home / "accounts.sqlite3"
        assert acc.lookup(key) is None
