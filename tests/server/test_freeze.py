"""A frozen database, as a reliability engineer provokes it: every PostgreSQL process stopped by
SIGSTOP (a hung host, a paused container) keeps its connections open and answers nothing, and
never applies its own statement timeout. No request waits for the freeze to end: each one that
needs the database answers 503 `unavailable` with Retry-After within a bound set by the
connection and statement timeouts (short ones here), one that needs none answers meanwhile, and
after SIGCONT every request answers again without a restart."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import regnb
from regnb import _postgres
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import FakeClock, sample_documents
from regnb.settings import Settings
from tests.postgres_support import PgServer

pytestmark = pytest.mark.anyio

SLACK_S = 10.0  # on top of the timeouts: a loaded machine answers late, never a frozen wait


@pytest.fixture
def short_timeouts(monkeypatch: pytest.MonkeyPatch) -> float:
    """Connect timeout 2 s (libpq's least) and statement timeout 1 s: the bound on a request's
    answer while the database is frozen, with slack."""
    monkeypatch.setattr(_postgres, "CONNECT_TIMEOUT_S", 2)
    monkeypatch.setattr(_postgres, "STATEMENT_TIMEOUT_MS", 1000)
    return _postgres.CONNECT_TIMEOUT_S + _postgres.answer_s() + SLACK_S


@pytest.fixture
async def client(
    own_server: PgServer, short_timeouts: float, tmp_path: Path
) -> AsyncIterator[httpx.AsyncClient]:
    """A server app whose keys, rate limits, search slots and conversations are in PostgreSQL,
    started as `regnb serve` starts it, with an enterprise key."""
    url = own_server.new_database()
    corpus = tmp_path / "corpus"
    regnb.write_corpus(corpus, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    base = Settings.from_env().__dict__
    settings = Settings(**{**base, "home": tmp_path / "h", "database_url": url})
    encoder = regnb.HashingEncoder()
    with regnb.Engine(corpus, encoder=encoder, settings=settings, progress=False) as engine:
        accounts = Accounts(database_url=url)
        key = accounts.create_key("acme", "enterprise").key
        app = create_app(engine, accounts=accounts, clock=FakeClock())
        try:
            async with app.router.lifespan_context(app):
                transport = httpx.ASGITransport(app=app)
                async with httpx.AsyncClient(
                    transport=transport, base_url="http://regnb.test", headers={"x-api-key": key}
                ) as c:
                    yield c
        finally:
            accounts.close()


async def finished_conversation(c: httpx.AsyncClient) -> str:
    """A conversation started and run to its end; its id."""
    started = await c.post("/api/v3/conversations", json={"message": "sterility failures?"})
    assert started.status_code == 202, started.text
    conversation = started.json()["conversation_id"]
    for _ in range(600):
        read = await c.get(f"/api/v3/conversations/{conversation}")
        if read.json()["status"] != "running":
            return str(conversation)
        await asyncio.sleep(0.1)
    raise AssertionError("the conversation did not end in 60 s")


def database_requests(conversation: str) -> dict[str, tuple[str, str, Any]]:
    """Requests that each need the database: for the key and rate limit at least."""
    return {
        "search": ("POST", "/api/v3/search", {"keywords": ["sterility"]}),
        "datasets": ("GET", "/api/v3/datasets", None),
        "conversation list": ("GET", "/api/v3/conversations", None),
        "conversation read": ("GET", f"/api/v3/conversations/{conversation}", None),
        "research run": ("POST", "/api/v3/conversations", {"message": "recalls for mold?"}),
    }


async def timed(c: httpx.AsyncClient, method: str, path: str, body: Any) -> tuple[float, Any]:
    started = time.monotonic()
    resp = await c.request(method, path, json=body)
    return time.monotonic() - started, resp


async def test_a_frozen_database_is_a_503_within_the_timeouts_not_a_wait_for_the_freeze(
    own_server: PgServer, client: httpx.AsyncClient, short_timeouts: float
) -> None:
    c, bound = client, short_timeouts
    conversation = await finished_conversation(c)
    requests = database_requests(conversation)
    for method, path, body in requests.values():  # connections open, slots taken and given back
        assert (await c.request(method, path, json=body)).status_code in (200, 202)
    own_server.freeze()
    try:
        tasks = {name: asyncio.create_task(timed(c, *req)) for name, req in requests.items()}
        spec = await c.get("/api/v3/openapi.json")  # needs no database
        assert spec.status_code == 200
        assert not all(t.done() for t in tasks.values())  # answered while they wait
        _, pending = await asyncio.wait(tasks.values(), timeout=bound)
        assert not pending, [n for n, t in tasks.items() if t in pending]  # still frozen now
        for name, task in tasks.items():
            elapsed, resp = task.result()
            assert resp.status_code == 503, (name, resp.text)
            assert int(resp.headers["retry-after"]) > 0
            assert resp.json()["error"]["code"] == "unavailable", name
            assert elapsed < bound, (name, elapsed)
    finally:
        own_server.thaw()
    for name, (method, path, body) in database_requests(conversation).items():
        resp = await c.request(method, path, json=body)
        assert resp.status_code in (200, 202), (name, resp.text)
