"""The conversation store: a WAL SQLite file under REGNB_HOME, transactions that commit whole or
not at all, safe across threads and handles; owner locks that tell live handles from gone ones."""

from __future__ import annotations

import sqlite3
import stat
import threading
from pathlib import Path

import pytest

from regnb.conversations._owners import OwnerLock, owner_alive
from regnb.conversations._store import ConversationStore, Tx

NOW = "2024-05-01T10:00:00+00:00"


@pytest.fixture
def store(tmp_path: Path) -> ConversationStore:
    s = ConversationStore.under(tmp_path / "home")
    yield s  # type: ignore[misc]
    s.close()


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


def test_a_failed_transaction_leaves_nothing_behind(store: ConversationStore) -> None:
    with pytest.raises(RuntimeError), store.write() as tx:
        add(tx, store.owner, "conv_a")
        raise RuntimeError("in the middle")
    with store.read() as tx:
        assert tx.conversation("acme", "conv_a") is None
        assert tx.turns("conv_a") == []


def test_writes_from_many_threads_all_land(store: ConversationStore) -> None:
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


def test_two_handles_on_one_folder_see_each_other(store: ConversationStore) -> None:
    other = ConversationStore(store.folder)
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


def test_dropping_a_turn_removes_its_citations_and_documents(store: ConversationStore) -> None:
    from regnb.agent.types import Citation

    cite = Citation(1, "Doc, page 1", "FDA Form 483", None, 1, "u", "d1", "fda_483")
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


def test_turn_ends_only_while_it_runs(store: ConversationStore) -> None:
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


def test_question_count_never_goes_below_zero(store: ConversationStore) -> None:
    with store.write() as tx:
        tx.count_question("acme", "2024-05", -1)
        tx.count_question("acme", "2024-05", 1)
        tx.count_question("acme", "2024-05", 1)
        tx.count_question("acme", "2024-05", -1)
    with store.read() as tx:
        assert tx.questions_used("acme", "2024-05") == 1
        assert tx.questions_used("acme", "2024-06") == 0


def test_closed_store_refuses_use(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
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
