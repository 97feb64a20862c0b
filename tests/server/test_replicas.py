"""Two `regnb serve` replicas on loopback over one corpus and one PostgreSQL database
(REGNB_DATABASE_URL): the interface's numbers hold across the two, as if there were one server.

Each replica has its own REGNB_HOME (its own index cache), so what they share is the database
and the folder of produced files. Runs are paced (REGNB_AGENT_PACE_S) so that a conversation stays
`running` until the test stops it or kills its replica; nothing here waits on a clock but the
replica lease (REGNB_REPLICA_LEASE_S) that tells a killed replica from a live one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

import regnb
from regnb.conversations._runner import INTERRUPTED
from regnb.server._shared import SharedAccountSlots
from regnb.server.accounts import Accounts
from regnb.server.testing import sample_documents
from tests.postgres_support import PgServer
from tests.serving import free_port, wait_for

WAIT = 30  # the longest a read waits; the lease below ends it much sooner
LEASE_S = 3.0
SETTINGS = {
    "REGNB_AGENT_PACE_S": "600",  # a run stays running until stopped or killed
    "REGNB_REPLICA_LEASE_S": str(LEASE_S),
    "REGNB_CONCURRENT_SEARCH_WAIT_S": "0.2",
    "REGNB_PROGRESS": "0",
}


class Cluster:
    """The database, the corpus and the shared files folder that replicas are started over."""

    def __init__(self, url: str, corpus: Path, root: Path) -> None:
        self.url, self.corpus, self.root = url, corpus, root
        self.accounts = Accounts(database_url=url)
        self._count = 0

    def key(self, account: str, plan: str = "enterprise") -> str:
        return self.accounts.create_key(account, plan).key

    def account_id(self, key: str) -> int:
        caller = self.accounts.lookup(key)
        assert caller is not None
        return caller.account_id

    @contextmanager
    def replica(self) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
        """A replica with a home of its own: (its base URL, its process)."""
        self._count += 1
        home, log = self.root / f"home{self._count}", self.root / f"replica{self._count}.log"
        env = {
            **os.environ,
            **SETTINGS,
            "REGNB_HOME": str(home),
            "REGNB_DATABASE_URL": self.url,
            "REGNB_FILES_DIR": str(self.root / "files"),
        }
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        cmd = [sys.executable, "-m", "regnb.cli", "serve", "--port", str(port)]
        cmd += ["--corpus", str(self.corpus), "--fast-encoder", "--log-level", "warning"]
        with log.open("w") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
            try:
                wait_for(base, proc, log)
                yield base, proc
            finally:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


@pytest.fixture(scope="module")
def cluster(
    postgres_server: PgServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    root = tmp_path_factory.mktemp("replicas")
    corpus = root / "corpus"
    regnb.write_corpus(corpus, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    made = Cluster(postgres_server.new_database(), corpus, root)
    yield made
    made.accounts.close()


@pytest.fixture(scope="module")
def two(cluster: Cluster) -> Iterator[tuple[str, str]]:
    """The base URLs of two replicas that run for the whole module."""
    with cluster.replica() as (one, _), cluster.replica() as (other, _):
        yield one, other


@pytest.fixture
def client() -> Iterator[Callable[[str, str], httpx.Client]]:
    """Clients by (replica base URL, key), closed after the test."""
    made: list[httpx.Client] = []

    def make(base: str, key: str) -> httpx.Client:
        made.append(httpx.Client(base_url=base, headers={"x-api-key": key}, timeout=60))
        return made[-1]

    yield make
    for c in made:
        c.close()


def error_code(resp: httpx.Response) -> str:
    return str(resp.json()["error"]["code"])


def test_fifty_requests_a_minute_per_key_across_replicas(
    cluster: Cluster, two: tuple[str, str], client: Callable[[str, str], httpx.Client]
) -> None:
    key = cluster.key("rate")
    a, b = (client(base, key) for base in two)
    for i in range(50):
        assert (a, b)[i % 2].get("/api/v3/datasets").status_code == 200, i
    refused = b.get("/api/v3/datasets")  # the 51st, on the replica that saw 25
    assert refused.status_code == 429 and error_code(refused) == "rate_limited"
    assert int(refused.headers["retry-after"]) >= 1
    assert a.get("/api/v3/datasets").status_code == 429
    other = client(two[1], cluster.key("rate"))  # another key of the account counts apart
    assert other.get("/api/v3/datasets").status_code == 200


@pytest.mark.anyio
async def test_one_search_at_a_time_per_account_across_replicas(
    cluster: Cluster, two: tuple[str, str]
) -> None:
    key = cluster.key("searcher")
    slots = SharedAccountSlots(cluster.url, 1, 0.0)  # a third replica, inside the test
    search = {"keywords": ["sterility"], "limit": 1}
    async with httpx.AsyncClient(headers={"x-api-key": key}, timeout=60) as http:
        async with slots.hold(cluster.account_id(key)):
            for base in two:
                refused = await http.post(f"{base}/api/v3/search", json=search)
                assert refused.status_code == 429, refused.text
                assert error_code(refused) == "concurrent_search"
        for base in two:
            assert (await http.post(f"{base}/api/v3/search", json=search)).status_code == 200
    slots.disconnect()


def test_three_running_conversations_per_account_and_stop_across_replicas(
    cluster: Cluster, two: tuple[str, str], client: Callable[[str, str], httpx.Client]
) -> None:
    key = cluster.key("researcher")
    a, b = (client(base, key) for base in two)
    started = []
    for c in (a, b, a):
        resp = c.post("/api/v3/conversations", json={"message": "sterility failures"})
        assert resp.status_code == 202, resp.text
        started.append(resp.json()["conversation_id"])
    refused = b.post("/api/v3/conversations", json={"message": "one more"})
    assert refused.status_code == 429 and error_code(refused) == "concurrent_conversations"
    listed = a.get("/api/v3/conversations", params={"status": "running"}).json()
    assert sorted(c["conversation_id"] for c in listed["conversations"]) == sorted(started)

    stopped = b.post(f"/api/v3/conversations/{started[0]}/stop")  # started on the other
    assert stopped.json() == {"conversation_id": started[0], "stopped": True}
    assert a.get(f"/api/v3/conversations/{started[0]}").json()["status"] == "stopped"
    assert b.post("/api/v3/conversations", json={"message": "now it fits"}).status_code == 202
    for cid in started[1:]:
        assert a.post(f"/api/v3/conversations/{cid}/stop").json()["stopped"] is True


def test_an_idempotency_key_is_used_once_across_replicas(
    cluster: Cluster, two: tuple[str, str], client: Callable[[str, str], httpx.Client]
) -> None:
    key = cluster.key("retrier")
    a, b = (client(base, key) for base in two)
    body, once = {"message": "warning letters on sterility"}, {"Idempotency-Key": "ask-1"}
    first = a.post("/api/v3/conversations", json=body, headers=once)
    assert first.status_code == 202
    retry = b.post("/api/v3/conversations", json=body, headers=once)
    assert retry.status_code == 200
    same = ("conversation_id", "turn_index", "status")
    assert [retry.json()[k] for k in same] == [first.json()[k] for k in same]
    listed = b.get("/api/v3/conversations").json()
    assert listed["total"] == 1
    other = b.post("/api/v3/conversations", json={"message": "something else"}, headers=once)
    assert other.status_code == 422 and error_code(other) == "idempotency_key_reused"
    b.post(f"/api/v3/conversations/{first.json()['conversation_id']}/stop")


def test_a_run_of_a_killed_replica_is_marked_error_by_a_live_one(
    cluster: Cluster, two: tuple[str, str], client: Callable[[str, str], httpx.Client]
) -> None:
    key = cluster.key("crash")
    with cluster.replica() as (doomed, proc):
        started = client(doomed, key).post("/api/v3/conversations", json={"message": "q"})
        assert started.status_code == 202
        cid = started.json()["conversation_id"]
        live = client(two[0], key)
        assert live.get(f"/api/v3/conversations/{cid}").json()["status"] == "running"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        read = live.get(f"/api/v3/conversations/{cid}", params={"wait": WAIT})
    body = read.json()
    assert body["status"] == "error", body
    assert body["turns"][0]["status"] == "error"
    assert body["error"] == INTERRUPTED
    assert client(two[1], key).post("/api/v3/conversations/" + cid + "/messages",
                                    json={"message": "again"}).status_code == 202  # fmt: skip
