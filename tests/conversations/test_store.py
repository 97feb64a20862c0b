"""The conversation store: a WAL SQLite file under REGNB_HOME, or PostgreSQL; transactions that
commit whole or not at all, safe across threads and handles; owner locks (leases in PostgreSQL)
that tell live handles from gone ones. Every behaviour of the store is checked on both."""

from __future__ import annotations

import sqlite3
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from regnb.conversations._owners import OwnerLease, OwnerLock, lease_alive, owner_alive
from regnb.conversations._pg_store import PgConversationStore
from regnb.conversations._store import ConversationStore, Store, Tx, open_store
from regnb.conversations.testing import wait_until
from regnb.settings import Settings

NOW = "2024-05-01T10:00:00+00:00"


@pytest.fixture(params=["sqlite", "postgres"])
def handles(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Store]]:
    """Opens handles on one store (as processes do): the SQLite file under a home, or a
    PostgreSQL database; every handle is closed after the test."""
    opened: list[Store] = []
    if request.param == "sqlite":

        def new() -> Store:
            return ConversationStore.under(tmp_path / "home")
    else:
        url = request.getfixturevalue("postgres_url")

        def new() -> Store:
            return PgConversationStore(url, tmp_path / "files")

    def handle() -> Store:
        opened.append(new())
        return opened[-1]

    yield handle
    for s in opened:
        s.close()


@pytest.fixture
def store(handles: Callable[[], Store]) -> Store:
    return handles()


def add(tx: Tx, owner: str, cid: str, account: str = "acme", index: int = 0) -> None:
    if index == 0:
        tx.add_conversation(cid, account, f"title {cid}", NOW)
    tx.add_turn(
        {
            "conversation_id": cid,
            "turn_index": index,
            "message": "m",
            "submitted_at": NOW,
            "plan": "free",
            "run_id": f"run_{cid}_{index}",
            "owner": owner,
        }
    )
    tx.touch(cid, NOW)


def test_store_lives_under_home_apart_from_the_index(tmp_path: Path) -> None:
    store = ConversationStore.under(tmp_path)
    assert store.path == tmp_path / "conversations" / "conversations.sqlite3"
    assert not store.path.exists()  # nothing is opened before it is used
    with store.read() as tx:
        assert tx.running_count("acme") == 0
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert store.files.is_dir()
    conn = sqlite3.connect(store.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    store.close()


def test_a_failed_transaction_leaves_nothing_behind(store: Store) -> None:
    with pytest.raises(RuntimeError), store.write() as tx:
        add(tx, store.owner, "conv_a")
        raise RuntimeError("in the middle")
    with store.read() as tx:
        assert tx.conversation("acme", "conv_a") is None
        assert tx.turns("conv_a") == []


def test_writes_from_many_threads_all_land(store: Store) -> None:
    def write(n: int) -> None:
        for i in range(10):
            with store.write() as tx:
                add(tx, store.owner, f"conv_{n}_{i}")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with store.read() as tx:
        assert tx.count("acme", running_only=False) == 60
        assert tx.running_count("acme") == 60
        activity = [r["activity"] for r in tx.summaries("acme", False, 100, 0)]
    assert activity == sorted(set(activity), reverse=True)  # one distinct step per write


def test_two_handles_on_one_store_see_each_other(
    store: Store, handles: Callable[[], Store]
) -> None:
    other = handles()
    with other.write() as tx:
        add(tx, other.owner, "conv_b", account="beta")
    with store.read() as tx:
        assert tx.conversation("beta", "conv_b") is not None
        assert tx.conversation("acme", "conv_b") is None  # another account's id is not found
    owner = other.owner
    assert store.owner != owner
    assert store.alive(owner)
    other.close()
    assert not store.alive(owner)


def test_dropping_a_turn_removes_its_citations_and_documents(store: Store) -> None:
    from regnb.agent.types import SourcedCitation

    cite = SourcedCitation(
        index=1,
        name="Doc, page 1",
        dataset="FDA Form 483",
        date=None,
        page_num=1,
        url="u",
        document_id="d1",
        dataset_id="fda_483",
    )
    with store.write() as tx:
        add(tx, store.owner, "conv_c")
        tx.add_citations("conv_c", 0, [cite])
        tx.add_document(
            {
                "document_id": "doc_1",
                "conversation_id": "conv_c",
                "turn_index": 0,
                "title": "t",
                "type": "text",
                "content": "x",
                "created_at": NOW,
            }
        )
    with store.write() as tx:
        tx.drop_turn("conv_c", 0)
    with store.read() as tx:
        assert tx.citations("conv_c") == []
        assert tx.documents("conv_c") == []
        assert tx.highest_citation("conv_c") == 0


def test_turn_ends_only_while_it_runs(store: Store) -> None:
    with store.write() as tx:
        add(tx, store.owner, "conv_d")
        assert tx.set_steps("run_conv_d_0", [{"message": "Searching", "count": 2}])
        assert tx.finish_turn("run_conv_d_0", "completed", "answer", None, {"k": 1})
        assert not tx.finish_turn("run_conv_d_0", "completed", "again", None, {})
        assert not tx.set_steps("run_conv_d_0", [])
        assert not tx.fail_turn("run_conv_d_0", "late")
    with store.read() as tx:
        turn = tx.turn_by_run("run_conv_d_0")
    assert turn is not None
    assert (turn["status"], turn["answer"], turn["state"], turn["steps"]) == (
        "completed",
        "answer",
        {"k": 1},
        [],
    )


def test_question_count_never_goes_below_zero(store: Store) -> None:
    with store.write() as tx:
        tx.count_question("acme", "2024-05", -1)
        tx.count_question("acme", "2024-05", 1)
        tx.count_question("acme", "2024-05", 1)
        tx.count_question("acme", "2024-05", -1)
    with store.read() as tx:
        assert tx.questions_used("acme", "2024-05") == 1
        assert tx.questions_used("acme", "2024-06") == 0


def test_closed_store_refuses_use(handles: Callable[[], Store]) -> None:
    store = handles()
    store.close()
    with pytest.raises(RuntimeError, match="closed"), store.read():
        pass


def test_owner_lock_reads_alive_until_released(tmp_path: Path) -> None:
    lock = OwnerLock(tmp_path)
    assert owner_alive(tmp_path, lock.id)  # also from this very process
    lock.release()
    lock.release()
    assert not owner_alive(tmp_path, lock.id)
    assert not owner_alive(tmp_path, "own_never_existed")


def test_lock_file_left_by_a_dead_owner_reads_gone_and_is_removed(tmp_path: Path) -> None:
    (tmp_path / "own_dead.lock").write_text("123\n")  # what a killed process leaves
    assert not owner_alive(tmp_path, "own_dead")
    assert not (tmp_path / "own_dead.lock").exists()


def test_documents_keep_the_order_they_were_added_in(store: Store) -> None:
    with store.write() as tx:
        add(tx, store.owner, "conv_e")
        for name in ("doc_z", "doc_a", "doc_m"):
            tx.add_document(
                {
                    "document_id": name,
                    "conversation_id": "conv_e",
                    "turn_index": 0,
                    "title": name,
                    "type": "text",
                    "content": "x",
                    "created_at": NOW,
                }
            )
    with store.read() as tx:
        rows = tx.documents("conv_e")
        one = tx.document("conv_e", "doc_a")
    assert [r["document_id"] for r in rows] == ["doc_z", "doc_a", "doc_m"]
    assert one is not None and set(one) == set(rows[0])  # the same columns in both backends
    assert "seq" not in one


def test_a_claimed_key_replaces_a_dead_owners_claim_whole(store: Store) -> None:
    with store.write() as tx:
        tx.claim_key("acme", "k1", "print-1", "own_dead", NOW)
        tx.settle_key("acme", "k1", "conv_x", 0, "run_x")
        tx.claim_key("acme", "k1", "print-2", store.owner, NOW)
    with store.read() as tx:
        row = tx.key("acme", "k1")
    assert row is not None
    assert (row["fingerprint"], row["state"], row["owner"]) == ("print-2", "pending", store.owner)
    assert (row["conversation_id"], row["turn_index"], row["run_id"]) == (None, None, None)


def test_the_download_secret_is_one_for_every_handle(
    store: Store, handles: Callable[[], Store]
) -> None:
    secret = store.secret()
    assert len(secret) == 32
    assert handles().secret() == secret


def test_open_store_follows_the_settings(tmp_path: Path, postgres_url: str) -> None:
    base = Settings(home=tmp_path / "home")
    sqlite = open_store(base)
    assert isinstance(sqlite, ConversationStore)
    assert sqlite.files == tmp_path / "home" / "conversations" / "files"
    shared = Settings(home=tmp_path / "home", database_url=postgres_url, files_dir=str(tmp_path))
    pg = open_store(shared)
    assert isinstance(pg, PgConversationStore)
    assert pg.files == tmp_path and pg.run_folder("run_1") == tmp_path / "run_1"
    assert postgres_url not in repr(pg)
    for s in (sqlite, pg):
        s.close()


def test_a_lease_reads_alive_until_released_or_expired(postgres_url: str) -> None:
    first, second = OwnerLease(postgres_url, 30.0), OwnerLease(postgres_url, 30.0)
    store = PgConversationStore(postgres_url, "/nonexistent/files-unused")
    with store._open().transaction() as sql:
        assert lease_alive(sql, first.id) and lease_alive(sql, second.id)
        assert not lease_alive(sql, "own_never_existed")
    first.release()
    first.release()
    second._stop.set()  # as if killed: no more renewals
    second._thread.join()
    with store._open().transaction() as sql:
        assert not lease_alive(sql, first.id)
        assert lease_alive(sql, second.id)
        sql.execute("UPDATE owners SET expires_at = clock_timestamp() - interval '1 second'")
        assert not lease_alive(sql, second.id)
    second.release()
    store.close()


def test_a_lease_is_renewed_while_its_owner_lives(postgres_url: str) -> None:
    lease = OwnerLease(postgres_url, 0.3)
    store = PgConversationStore(postgres_url, "/nonexistent/files-unused")

    def expiry() -> object:
        with store._open().transaction() as sql:
            row = sql.execute("SELECT expires_at FROM owners WHERE owner = ?", (lease.id,))
            return row.fetchone()["expires_at"]

    first = expiry()
    wait_until(lambda: expiry() > first)  # type: ignore[operator]
    lease.release()
    store.close()


def test_a_read_does_not_wait_for_a_write_in_progress(tmp_path: Path) -> None:
    """SQLite in WAL mode on a read connection of its own: while another thread holds a write
    transaction (a writer waiting on another process's lock, say), reads go on and see the last
    committed state."""
    store = ConversationStore(tmp_path / "conversations")
    with store.write() as tx:
        add(tx, store.owner, "conv_a")
    writing, release = threading.Event(), threading.Event()

    def writer() -> None:
        with store.write() as tx:
            add(tx, store.owner, "conv_b")
            writing.set()
            release.wait(30)

    held = threading.Thread(target=writer)
    held.start()
    try:
        assert writing.wait(30)
        seen: list[object] = []
        reader = threading.Thread(target=lambda: seen.append(_read_both(store)))
        reader.start()
        reader.join(20)  # a read behind the writer would wait until the writer is released
        assert not reader.is_alive() and seen == [(True, False)]
    finally:
        release.set()
        held.join(30)
    assert _read_both(store) == (True, True)
    store.close()


def _read_both(store: Store) -> tuple[bool, bool]:
    with store.read() as tx:
        return (
            tx.conversation("acme", "conv_a") is not None,
            tx.conversation("acme", "conv_b") is not None,
        )
