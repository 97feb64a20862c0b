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
from tests.postgres_support import PgServer, start_server

pytestmark = pytest.mark.anyio


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    """A PostgreSQL server of this test alone: it is stopped and started again."""
    server = start_server()
    yield server
    server.stop()


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
