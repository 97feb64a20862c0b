"""Limits over HTTP: rate, concurrent searches, busy, body size, timeouts and internal errors."""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
import httpx
import pytest

import regnb
from regnb.errors import ConcurrentSearch, CorpusError, RateLimited
from regnb.server import create_app
from regnb.server._limits import AccountSlots, RateLimiter
from regnb.server.accounts import Accounts
from regnb.server.testing import FakeClock

pytestmark = pytest.mark.anyio

WAIT = 30.0  # upper bound for a condition that must come true; never reached when all is well


@pytest.fixture(params=["memory", "postgres"])
def shared(request: pytest.FixtureRequest) -> dict[str, str]:
    """Where the limits count: in this process, or in PostgreSQL (REGNB_DATABASE_URL)."""
    if request.param == "memory":
        return {}
    return {"database_url": request.getfixturevalue("postgres_url")}


def h(key: str) -> dict[str, str]:
    return {"x-api-key": key}


@asynccontextmanager
async def serve(engine: Any, accounts: Accounts, **settings: Any) -> AsyncIterator[Any]:
    """A client of an app over `engine` with some settings changed; `client.app` is the app."""
    clock = settings.pop("clock", None)
    base = dataclasses.replace(engine.settings, **settings) if settings else None
    app = create_app(engine, settings=base, accounts=accounts, clock=clock)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as client:
        client.app = app  # type: ignore[attr-defined]
        yield client


def assert_error(resp: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    error = resp.json()["error"]
    assert error["code"] == code
    assert error["request_id"] == resp.headers["x-request-id"]
    return error


def retry_after(resp: httpx.Response) -> int:
    value = int(resp.headers["retry-after"])
    assert value >= 1
    return value


class Gated:
    """An engine whose search and read wait for the test to open the gate."""

    def __init__(self, engine: regnb.Engine) -> None:
        self.engine = engine
        self.entered = threading.Semaphore(0)
        self.gate = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def _wait(self) -> None:
        self.entered.release()
        assert self.gate.wait(WAIT)

    def search(self, *args: Any, **kwargs: Any) -> Any:
        self._wait()
        return self.engine.search(*args, **kwargs)

    def read(self, *args: Any, **kwargs: Any) -> Any:
        self._wait()
        return self.engine.read(*args, **kwargs)

    def legacy_search(self, *args: Any, **kwargs: Any) -> Any:
        self._wait()
        return self.engine.legacy_search(*args, **kwargs)

    async def started(self) -> None:
        """Until one call is inside the engine."""
        assert await anyio.to_thread.run_sync(self.entered.acquire, True, WAIT)


async def until(condition: Callable[[], bool]) -> None:
    with anyio.fail_after(WAIT):
        while not condition():
            await anyio.sleep(0.001)


SEARCH = {"keywords": ["sterility"]}
LEGACY_SEARCH = {"query_text": "sterility"}
SEARCHES = {"v3": ("/api/v3/search", SEARCH), "legacy": ("/api/search", LEGACY_SEARCH)}


async def post_search(client: httpx.AsyncClient, key: str, kind: str = "v3") -> httpx.Response:
    path, body = SEARCHES[kind]
    return await client.post(path, json=body, headers=h(key))


def assert_refused(resp: httpx.Response, kind: str, status: int, code: str) -> None:
    """A refusal in the endpoint's style: v3 `{error: {code, ...}}`, legacy `{error: message}`."""
    if kind == "v3":
        assert_error(resp, status, code)
    else:
        assert resp.status_code == status, resp.text
        assert isinstance(resp.json()["error"], str)
        assert "x-request-id" not in resp.headers


# --- rate limit ---------------------------------------------------------------------------


async def test_fifty_requests_a_minute_per_key_across_endpoints(
    engine: regnb.Engine, accounts: Accounts, keys: dict, shared: dict[str, str]
) -> None:
    clock = FakeClock()
    async with serve(engine, accounts, clock=clock, **shared) as client:
        ent = h(keys["ent"])
        assert (await client.post("/api/v3/search", json=SEARCH, headers=ent)).status_code == 200
        assert (await client.get("/api/v3/documents/nope", headers=ent)).status_code == 404
        assert (await client.post("/api/search", json={}, headers=ent)).status_code == 400
        for _ in range(47):
            assert (await client.get("/api/v3/datasets", headers=ent)).status_code == 200
        clock.advance(20)
        resp = await client.post("/api/v3/search", json=SEARCH, headers=ent)
        assert_error(resp, 429, "rate_limited")
        assert retry_after(resp) == 40
        legacy = await client.post("/api/search", json={"query_text": "a"}, headers=ent)
        assert legacy.status_code == 429 and isinstance(legacy.json()["error"], str)
        assert retry_after(legacy) == 40

        other = await client.get("/api/v3/datasets", headers=h(keys["ent2"]))
        assert other.status_code == 200, "the limit is per key, not per account"
        assert (await client.get("/api/v3/openapi.json")).status_code == 200

        clock.advance(40)
        assert (await client.get("/api/v3/datasets", headers=ent)).status_code == 200


async def test_rate_limit_is_a_setting(
    engine: regnb.Engine, accounts: Accounts, keys: dict, shared: dict[str, str]
) -> None:
    async with serve(
        engine, accounts, rate_limit_per_minute=2, clock=FakeClock(), **shared
    ) as client:
        for status in (200, 200, 429):
            resp = await client.get("/api/v3/datasets", headers=h(keys["free"]))
            assert resp.status_code == status


def test_rate_limiter_window_slides() -> None:
    clock = FakeClock()
    limiter = RateLimiter(4, 60.0, clock)
    for _ in range(2):
        limiter.hit("k")
    clock.advance(30)
    for _ in range(2):
        limiter.hit("k")
    with pytest.raises(RateLimited) as refused:
        limiter.hit("k")
    assert refused.value.retry_after == 30
    clock.advance(30)  # the first two are now 60 s old
    limiter.hit("k")
    limiter.hit("k")
    with pytest.raises(RateLimited):
        limiter.hit("k")
    limiter.hit("other key")


def test_refused_requests_do_not_count() -> None:
    clock = FakeClock()
    limiter = RateLimiter(1, 60.0, clock)
    limiter.hit("k")
    for _ in range(5):
        clock.advance(10)
        with pytest.raises(RateLimited):
            limiter.hit("k")
    clock.advance(10)
    limiter.hit("k")


def test_zero_turns_the_rate_limit_off() -> None:
    limiter = RateLimiter(0, 60.0, FakeClock())
    for _ in range(1000):
        limiter.hit("k")


# --- concurrent searches ------------------------------------------------------------------


async def test_second_search_of_an_account_waits_then_gets_429(
    engine: regnb.Engine, accounts: Accounts, keys: dict, shared: dict[str, str]
) -> None:
    gated = Gated(engine)
    async with serve(gated, accounts, concurrent_search_wait_s=0.01, **shared) as client:
        results: dict[str, httpx.Response] = {}

        async def first() -> None:
            results["first"] = await client.post(
                "/api/v3/search", json=SEARCH, headers=h(keys["ent"])
            )

        async with anyio.create_task_group() as tg:
            tg.start_soon(first)
            await gated.started()
            resp = await client.post("/api/v3/search", json=SEARCH, headers=h(keys["ent2"]))
            assert_error(resp, 429, "concurrent_search")
            assert retry_after(resp) >= 1
            other = await client.get("/api/v3/datasets", headers=h(keys["ent2"]))
            assert other.status_code == 200, "only searches are limited"
            gated.gate.set()
        assert results["first"].status_code == 200


async def test_second_search_runs_when_the_first_ends_in_time(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    gated = Gated(engine)
    async with serve(gated, accounts, concurrent_search_wait_s=WAIT) as client:
        slots = client.app.state.regnb.account_slots
        results: list[int] = []

        async def post(key: str) -> None:
            resp = await client.post("/api/v3/search", json=SEARCH, headers=h(key))
            results.append(resp.status_code)

        async with anyio.create_task_group() as tg:
            tg.start_soon(post, keys["ent"])
            await gated.started()
            tg.start_soon(post, keys["ent2"])
            account = accounts.lookup(keys["ent"]).account_id  # type: ignore[union-attr]
            await until(lambda: slots.waiting(account) == 1)
            gated.gate.set()
        assert results == [200, 200]
        assert slots.held(account) == 0


async def test_other_accounts_search_at_the_same_time(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    gated = Gated(engine)
    async with serve(gated, accounts, concurrent_search_wait_s=0.01) as client:
        results: list[int] = []

        async def post(key: str) -> None:
            resp = await client.post("/api/v3/search", json=SEARCH, headers=h(key))
            results.append(resp.status_code)

        async with anyio.create_task_group() as tg:
            tg.start_soon(post, keys["ent"])
            tg.start_soon(post, keys["other"])
            await gated.started()
            await gated.started()
            gated.gate.set()
        assert results == [200, 200]


async def test_invalid_search_is_refused_without_waiting(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    gated = Gated(engine)
    bad = {"keywords": ["sterility"], "limit": 0}
    async with (
        serve(gated, accounts, concurrent_search_wait_s=WAIT) as client,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(post_search, client, keys["ent"])
        await gated.started()
        resp = await client.post("/api/v3/search", json=bad, headers=h(keys["ent2"]))
        assert_error(resp, 400, "invalid_request")
        gated.gate.set()


async def test_account_slots_hand_over_in_order() -> None:
    slots = AccountSlots(1, WAIT)
    order: list[str] = []

    async def run(name: str) -> None:
        async with slots.hold("acct"):
            order.append(name)

    first = slots.hold("acct")
    await first.__aenter__()
    async with anyio.create_task_group() as tg:
        tg.start_soon(run, "b")
        await until(lambda: slots.waiting("acct") == 1)
        tg.start_soon(run, "c")
        await until(lambda: slots.waiting("acct") == 2)
        order.append("a")
        await first.__aexit__(None, None, None)
    assert order == ["a", "b", "c"]
    assert slots.held("acct") == 0 and slots.waiting("acct") == 0


async def test_waiter_that_gives_up_or_is_cancelled_leaves_no_trace() -> None:
    slots = AccountSlots(1, 0.0)
    async with slots.hold("acct"):
        with pytest.raises(ConcurrentSearch):
            async with slots.hold("acct"):
                pytest.fail("the slot is held")
        assert slots.waiting("acct") == 0
        slots.wait_s = WAIT
        with anyio.move_on_after(0.01):
            async with slots.hold("acct"):
                pytest.fail("the slot is held")
        assert slots.waiting("acct") == 0
    assert slots.held("acct") == 0


# --- busy ---------------------------------------------------------------------------------


async def test_server_at_its_maximum_of_searches_is_busy(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    gated = Gated(engine)
    async with serve(gated, accounts, max_server_searches=1) as client:
        state = client.app.state.regnb
        async with anyio.create_task_group() as tg:
            tg.start_soon(post_search, client, keys["ent"])
            await gated.started()
            resp = await client.post("/api/v3/search", json=SEARCH, headers=h(keys["other"]))
            assert_error(resp, 503, "busy")
            assert retry_after(resp) >= 1
            gated.gate.set()
        await until(lambda: state.server_slots.running == 0)
        resp = await client.post("/api/v3/search", json=SEARCH, headers=h(keys["other"]))
        assert resp.status_code == 200


# --- legacy search under the same limits -------------------------------------------------

PAIRS = [("legacy", "legacy"), ("legacy", "v3"), ("v3", "legacy")]


@pytest.mark.parametrize(("first", "second"), PAIRS)
async def test_legacy_search_counts_against_the_server_maximum(
    engine: regnb.Engine, accounts: Accounts, keys: dict, first: str, second: str
) -> None:
    gated = Gated(engine)
    async with serve(gated, accounts, max_server_searches=1) as client:
        state = client.app.state.regnb
        async with anyio.create_task_group() as tg:
            tg.start_soon(post_search, client, keys["ent"], first)
            await gated.started()
            assert state.server_slots.running == 1
            resp = await post_search(client, keys["other"], second)
            assert_refused(resp, second, 503, "busy")
            assert retry_after(resp) >= 1
            gated.gate.set()
        await until(lambda: state.server_slots.running == 0)
        assert (await post_search(client, keys["other"], second)).status_code == 200


@pytest.mark.parametrize(("first", "second"), PAIRS)
async def test_legacy_search_takes_the_accounts_search_slot(
    engine: regnb.Engine, accounts: Accounts, keys: dict, first: str, second: str
) -> None:
    gated = Gated(engine)
    async with (
        serve(gated, accounts, concurrent_search_wait_s=0.01) as client,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(post_search, client, keys["ent"], first)
        await gated.started()
        resp = await post_search(client, keys["ent2"], second)
        assert_refused(resp, second, 429, "concurrent_search")
        assert retry_after(resp) >= 1
        gated.gate.set()


async def test_second_legacy_search_runs_when_the_first_ends_in_time(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    gated = Gated(engine)
    async with serve(gated, accounts, concurrent_search_wait_s=WAIT) as client:
        slots = client.app.state.regnb.account_slots
        account = accounts.lookup(keys["ent"]).account_id  # type: ignore[union-attr]
        results: list[int] = []

        async def post(key: str) -> None:
            results.append((await post_search(client, key, "legacy")).status_code)

        async with anyio.create_task_group() as tg:
            tg.start_soon(post, keys["ent"])
            await gated.started()
            tg.start_soon(post, keys["ent2"])
            await until(lambda: slots.waiting(account) == 1)
            gated.gate.set()
        assert results == [200, 200]
        assert slots.held(account) == 0


@pytest.mark.parametrize(("length", "status"), [(2000, 200), (2001, 400)])
async def test_legacy_query_text_is_capped_at_2000_characters(
    engine: regnb.Engine, accounts: Accounts, keys: dict, length: int, status: int
) -> None:
    query_text = ("sterility " * 300)[:length]
    async with serve(engine, accounts) as client:
        resp = await client.post(
            "/api/search", json={"query_text": query_text}, headers=h(keys["ent"])
        )
    assert resp.status_code == status, resp.text
    if status == 400:
        assert resp.json() == {"error": "query_text is 2001 characters; at most 2000"}


# --- timeout and internal errors ----------------------------------------------------------


class Deadlines:
    """`anyio` as `regnb.server._state` sees it, except that the test says when the time of a
    `move_on_after` is up (so a timeout does not race the worker thread's start)."""

    def __init__(self) -> None:
        self.limits: list[float] = []
        self.scopes: list[anyio.CancelScope] = []
        self.expired = False

    def __getattr__(self, name: str) -> Any:
        return getattr(anyio, name)

    def move_on_after(self, delay: float, shield: bool = False) -> anyio.CancelScope:
        self.limits.append(delay)
        scope = anyio.CancelScope(shield=shield)
        if self.expired:
            scope.cancel()
        self.scopes.append(scope)
        return scope

    def expire(self) -> None:
        self.expired = True
        for scope in self.scopes:
            scope.cancel()


@pytest.fixture
def deadlines(monkeypatch: pytest.MonkeyPatch) -> Deadlines:
    import regnb.server._state

    out = Deadlines()
    monkeypatch.setattr(regnb.server._state, "anyio", out)
    return out


async def get_or_search(client: httpx.AsyncClient, key: str, what: str) -> httpx.Response:
    if what == "search":
        return await client.post("/api/v3/search", json=SEARCH, headers=h(key))
    return await client.get("/api/v3/documents/x", headers=h(key))


@pytest.mark.parametrize("what", ["search", "read"])
async def test_slow_search_or_read_times_out(
    engine: regnb.Engine, accounts: Accounts, keys: dict, deadlines: Deadlines, what: str
) -> None:
    """The time runs out while the work is inside the engine: 504, and a search's thread keeps
    its server slot until it ends."""
    gated = Gated(engine)
    responses: list[httpx.Response] = []
    async with serve(gated, accounts, request_timeout_s=7) as client:
        state = client.app.state.regnb
        try:
            async with anyio.create_task_group() as tg:

                async def call() -> None:
                    responses.append(await get_or_search(client, keys["ent"], what))

                tg.start_soon(call)
                await gated.started()
                deadlines.expire()
            error = assert_error(responses[0], 504, "timeout")
            assert "7 seconds" in error["message"]
            assert deadlines.limits == [7]
            if what == "search":
                assert state.server_slots.running == 1, "the thread still runs"
        finally:
            gated.gate.set()
        await until(lambda: state.server_slots.running == 0)


async def test_search_whose_time_runs_out_before_it_starts_gives_its_slot_back(
    engine: regnb.Engine, accounts: Accounts, keys: dict, deadlines: Deadlines
) -> None:
    gated = Gated(engine)
    deadlines.expired = True
    async with serve(gated, accounts) as client:
        resp = await get_or_search(client, keys["ent"], "search")
        assert_error(resp, 504, "timeout")
        assert client.app.state.regnb.server_slots.running == 0
        assert not gated.entered.acquire(blocking=False), "the engine was never called"


class Broken:
    """An engine that fails the way a bug would."""

    def __init__(self, engine: regnb.Engine, error: Exception) -> None:
        self.engine, self.error = engine, error

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise self.error

    search = read = legacy_search = legacy_contents = datasets = _fail


REQUESTS = [
    ("POST", "/api/v3/search", SEARCH),
    ("GET", "/api/v3/documents/abc", None),
    ("GET", "/api/v3/datasets", None),
    ("POST", "/api/search", {"query_text": "sterility"}),
    ("POST", "/api/contents", {"doc_id": "fda_483/abc"}),
]


@pytest.mark.parametrize(("method", "path", "body"), REQUESTS)
@pytest.mark.parametrize(
    "error",
    [RuntimeError("secret /srv/detail"), CorpusError("/srv/corpus/shard-1.parquet is secret")],
)
async def test_failures_answer_internal_error_without_detail(
    engine: regnb.Engine,
    accounts: Accounts,
    keys: dict,
    caplog: pytest.LogCaptureFixture,
    method: str,
    path: str,
    body: Any,
    error: Exception,
) -> None:
    async with serve(Broken(engine, error), accounts) as client:
        with caplog.at_level(logging.ERROR, logger="regnb.server"):
            resp = await client.request(method, path, json=body, headers=h(keys["ent"]))
    assert resp.status_code == 500
    assert "secret" not in resp.text and "Traceback" not in resp.text
    if path.startswith("/api/v3"):
        error_body = assert_error(resp, 500, "internal_error")
        assert "field" not in error_body
        assert error_body["request_id"] in caplog.text
    else:
        assert isinstance(resp.json()["error"], str)
    assert "secret" in caplog.text


# --- body size ----------------------------------------------------------------------------


async def test_body_over_the_limit_is_refused(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    big = b'{"keywords": ["sterility"], "query": "' + b"x" * 1_000_000 + b'"}'
    async with serve(engine, accounts) as client:
        resp = await client.post("/api/v3/search", content=big, headers=h(keys["ent"]))
        assert_error(resp, 413, "payload_too_large")
        resp = await client.post("/api/search", content=big, headers=h(keys["ent"]))
        assert resp.status_code == 400 and isinstance(resp.json()["error"], str)


async def test_streamed_body_is_counted_and_reading_stops_early(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    sent: list[int] = []

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"keywords": ["sterility"], "query": "'
        for i in range(100):
            sent.append(i)
            yield b"x" * 65_536
        yield b'"}'

    async with serve(engine, accounts) as client:
        resp = await client.post("/api/v3/search", content=chunks(), headers=h(keys["ent"]))
    assert "content-length" not in resp.request.headers
    assert_error(resp, 413, "payload_too_large")
    assert len(sent) < 20


async def test_body_limit_is_a_setting(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    async with serve(engine, accounts, max_body_bytes=40) as client:
        ok = await client.post("/api/v3/search", json=SEARCH, headers=h(keys["ent"]))
        assert ok.status_code == 200
        big = {"keywords": ["sterility"], "query": "a question that is too long"}
        resp = await client.post("/api/v3/search", json=big, headers=h(keys["ent"]))
        assert_error(resp, 413, "payload_too_large")
