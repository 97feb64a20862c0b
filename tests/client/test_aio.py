"""The async client: the same results and errors as coroutines, many requests at once."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from regnb import errors
from regnb.client import AsyncClient, Client, connect_async
from regnb.client.testing import FakeTime
from regnb.conversations.testing import FakeAgent
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import make_keys

pytestmark = pytest.mark.anyio

BASE = "http://regnb.test"
REQUEST_ID = re.compile(r"req_[0-9a-f]{24}")


@pytest.fixture(scope="module")
def served(engine, tmp_path_factory) -> Iterator[tuple[Any, dict[str, str]]]:
    """One app over the module's sample engine (fake agent, no rate limit)."""
    engine.agent_factory = FakeAgent(engine)
    accounts = Accounts(tmp_path_factory.mktemp("aio") / "accounts.sqlite3")
    settings = dataclasses.replace(engine.settings, rate_limit_per_minute=0, public_url=BASE)
    app = create_app(engine, settings=settings, accounts=accounts)
    yield app, make_keys(accounts)
    app.state.regnb.conversations.close()
    accounts.close()


@pytest.fixture
async def remote(served) -> AsyncIterator[AsyncClient]:
    app, keys = served
    transport = httpx.ASGITransport(app=app)
    async with connect_async(BASE, keys["ent"], transport=transport) as client:
        yield client


SEARCHES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((["sterility"],), {}),
    ((["sterility"], "Who failed sterility testing?"), {"limit": 3}),
    ((["aseptic processing"],), {"datasets": ["fda_guidance", "fda_483"]}),
    ((["sterility"],), {"filters": {"fda_483": {"fei_number": "3002002"}}}),
    ((["sterility"],), {"date_from": "2021-03-01", "offset": 2, "limit": 2}),
    ((["contamination"],), {"datasets": ["fda_warning_letters"]}),
]


async def test_many_searches_at_once_equal_the_local_ones(remote: AsyncClient, engine):
    got = await asyncio.gather(*(remote.search(*a, **kw) for a, kw in SEARCHES))
    for result, (args, kwargs) in zip(got, SEARCHES, strict=True):
        assert result.to_dict() == engine.search(*args, **kwargs).to_dict()


async def test_reads_catalog_legacy_and_paging_equal_the_local_ones(remote: AsyncClient, engine):
    long_id = engine.search(["long record"], datasets=["fda_483"]).results[0]["document_id"]
    read, catalog, legacy, contents, everything, whole = await asyncio.gather(
        remote.read(long_id, 2, 4),
        remote.datasets(),
        remote.legacy_search("sterility", 5),
        remote.legacy_contents(f"fda_483/{long_id}", 3, 1),
        remote.search_all(["sterility"], limit=4),
        remote.read_all(long_id),
    )
    assert read.to_dict() == engine.read(long_id, 2, 4).to_dict()
    assert catalog.to_dict() == engine.datasets().to_dict()
    assert legacy.to_dict() == engine.legacy_search("sterility", 5).to_dict()
    assert contents.to_dict() == engine.legacy_contents(f"fda_483/{long_id}", 3, 1).to_dict()
    assert everything.to_dict() == engine.search(["sterility"], limit=50).to_dict()
    assert whole.to_dict() == engine.read(long_id).to_dict()
    checked = await remote.check_search(["sterility"], datasets=["fda_483"], limit=2)
    assert checked == engine.check_search(["sterility"], datasets=["fda_483"], limit=2)


async def test_errors_are_the_engines_classes_with_request_ids(remote: AsyncClient, engine):
    outcomes = await asyncio.gather(
        remote.search(["sterility"], datasets=["fda_nope"]),
        remote.read("no-such-document"),
        remote.legacy_contents("fda_483/nope"),
        remote.search(["sterility"], plan="free"),
        return_exceptions=True,
    )
    assert [type(e) for e in outcomes] == [
        errors.UnknownDataset,
        errors.NotFound,
        errors.NotFound,
        errors.InvalidRequest,
    ]
    assert REQUEST_ID.fullmatch(outcomes[0].request_id) and outcomes[0].field == "datasets[0]"
    assert REQUEST_ID.fullmatch(outcomes[1].request_id)
    assert outcomes[2].request_id is None  # legacy errors carry no id


async def test_conversations_run_side_by_side_and_are_waited_for(remote: AsyncClient):
    started = await asyncio.gather(*(remote.start_conversation(f"question {n}") for n in range(3)))
    done = await asyncio.gather(*(remote.wait_conversation(s.conversation_id) for s in started))
    assert [d.status for d in done] == ["completed"] * 3
    assert [d.turns[0].message for d in done] == [f"question {n}" for n in range(3)]
    listed = await remote.list_conversations(limit=100)
    assert {s.conversation_id for s in started} <= {c.conversation_id for c in listed.conversations}
    files = await remote.start_conversation("[image] chart")
    await remote.wait_conversation(files.conversation_id)
    conv = await remote.read_conversation(files.conversation_id)
    name, data = await remote.download_document(conv.conversation_id, conv.documents[0].id)
    assert name == "chart.png" and data.startswith(b"\x89PNG")
    assert (await remote.stop_conversation(conv.conversation_id)).stopped is False


async def test_429_and_503_are_waited_out_with_the_same_idempotency_key(served, engine):
    app, keys = served
    inner = httpx.ASGITransport(app=app)
    seen: list[httpx.Request] = []
    answers = [
        httpx.Response(
            429,
            json={"error": {"code": "rate_limited", "message": "m"}},
            headers={"Retry-After": "3"},
        ),
        httpx.Response(
            503, json={"error": {"code": "busy", "message": "m"}}, headers={"Retry-After": "1"}
        ),
    ]

    async def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if answers:
            return answers.pop(0)
        return await inner.handle_async_request(request)

    time = FakeTime()
    client = AsyncClient(
        BASE,
        keys["paid"],
        transport=httpx.MockTransport(handler),
        clock=time.clock,
        sleep=time.async_sleep,
    )
    async with client:
        started = await client.start_conversation("retried question")
    assert time.waits == [3.0, 1.0]
    assert len({r.headers["Idempotency-Key"] for r in seen}) == 1 and len(seen) == 3
    assert started.status in ("running", "completed")


def test_the_async_client_has_every_method_of_the_sync_one():
    def public(cls: type) -> set[str]:
        return {n for n in dir(cls) if not n.startswith("_")}

    sync_only = {"ask", "conversation", "conversations", "close"}  # Conversation objects poll
    async_only = {"aclose", "wait_conversation"}
    assert public(Client) - sync_only == public(AsyncClient) - async_only
    for name in public(AsyncClient):
        assert asyncio.iscoroutinefunction(getattr(AsyncClient, name)), name


async def test_a_missing_or_misspelled_argument_is_the_specs_invalid_request_sent_nowhere():
    sent: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(500))
    async with connect_async(BASE, "k", transport=transport) as client:
        with pytest.raises(errors.InvalidRequest, match="keywords is required") as missing:
            await client.search()  # type: ignore[call-arg]
        with pytest.raises(errors.InvalidRequest, match="did you mean 'datasets'") as misspelled:
            await client.check_search(["sterility"], dataset=["fda_483"])  # type: ignore[call-arg]
        with pytest.raises(errors.InvalidRequest) as no_id:
            await client.read()  # type: ignore[call-arg]
    assert (missing.value.code, missing.value.field) == ("invalid_request", "keywords")
    assert misspelled.value.field == "dataset" and no_id.value.field == "document_id"
    assert sent == []
