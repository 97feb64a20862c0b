"""A database outage, as a reliability engineer provokes it: PostgreSQL stopped under a running
server. Every request answers 503 `unavailable` with Retry-After (not 500), and the server
recovers without a restart once the database is back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import regnb
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import FakeClock, sample_documents
from regnb.settings import Settings
from tests.postgres_support import PgServer

pytestmark = pytest.mark.anyio


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[regnb.Engine]:
    corpus = tmp_path / "corpus"
    regnb.write_corpus(corpus, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    settings = Settings(**{**Settings.from_env().__dict__, "home": tmp_path / "h"})
    encoder = regnb.HashingEncoder()
    with regnb.Engine(corpus, encoder=encoder, settings=settings, progress=False) as eng:
        yield eng


async def test_a_database_outage_is_a_503_with_retry_after_and_the_server_recovers(
    own_server: PgServer, engine: regnb.Engine
) -> None:
    accounts = Accounts(database_url=own_server.new_database())
    key = accounts.create_key("acme", "enterprise").key
    app = create_app(engine, accounts=accounts, clock=FakeClock())
    transport = httpx.ASGITransport(app=app)
    headers = {"x-api-key": key}
    search = {"keywords": ["sterility"]}
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as c:
            assert (await c.get("/api/v3/datasets", headers=headers)).status_code == 200
            own_server.pause()
            for resp in (
                await c.get("/api/v3/datasets", headers=headers),
                await c.post("/api/v3/search", json=search, headers=headers),
                await c.get("/api/v3/conversations", headers=headers),
            ):
                assert resp.status_code == 503, resp.text
                assert resp.headers["retry-after"] == "5"
                error = resp.json()["error"]
                assert error["code"] == "unavailable"
                assert "database does not answer" in error["message"]
            own_server.resume()
            assert (await c.get("/api/v3/datasets", headers=headers)).status_code == 200
            assert (await c.post("/api/v3/search", json=search, headers=headers)).status_code == 200
    finally:
        accounts.close()


def test_a_live_replicas_runs_outlive_an_outage_longer_than_the_lease(
    own_server: PgServer, tmp_path: Path
) -> None:
    """Two replicas' stores on one database; the database stops for longer than the lease.
    Right after it is back, replica B does not declare replica A dead (A's renewal may not have
    come through yet): for a lease after an outage it saw, B counts every lease still held. A
    replica that is really gone is found out once that lease has passed; one that gave its lease
    up, at once."""
    import time

    from regnb.conversations._pg_store import PgConversationStore

    url, lease = own_server.new_database(), 1.0
    a, b, gone = (PgConversationStore(url, tmp_path / "files", lease_s=lease) for _ in range(3))
    owner_a, owner_gone = a.owner, gone.owner
    assert b.alive(owner_a) and b.alive(owner_gone)
    for store in (a, b):
        assert store._lease is not None
        store._lease._stop.set()  # the beats are driven by hand below
    assert b._lease is not None
    now = [0.0]
    b._lease.clock = lambda: now[0]
    gone.close()  # gave its lease up
    own_server.pause()
    b._lease.beat()  # fails: B sees the outage
    time.sleep(lease * 2)  # A's lease expires in the database meanwhile
    own_server.resume()
    b._lease.beat()  # works again: B settles for a lease
    assert b.alive(owner_a)  # expired, not renewed yet: still A's runs
    assert not b.alive(owner_gone)
    now[0] += lease + 0.1
    assert not b.alive(owner_a)  # settled, and A never renewed: really gone
    for store in (a, b):
        store.close()
