"""The conversation endpoints in-process: every row of the turn state table and every error row
of the spec that they can answer, signed downloads, and responses that match the OpenAPI paths."""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import jsonschema
import pytest
import referencing

import regnb
from regnb.conversations._runner import INTERRUPTED
from regnb.conversations._store import ConversationStore
from regnb.conversations.service import ConversationService, _fingerprint
from regnb.conversations.testing import FAKE_PNG, FakeAgent, open_service
from regnb.server import create_app
from regnb.server._conversations import content_disposition, http_account
from regnb.server.accounts import Accounts
from regnb.server.openapi import openapi_document
from regnb.server.openapi.conversations import conversation_paths, conversation_schemas
from regnb.server.testing import FakeClock

pytestmark = pytest.mark.anyio

WAIT = 30.0
BASE = "https://regnb.example"
REQUEST_ID = re.compile(r"req_[0-9a-f]{24}")
DOC = openapi_document()
REGISTRY = referencing.Registry().with_resource(
    "urn:doc", referencing.Resource.from_contents(DOC, referencing.jsonschema.DRAFT202012)
)
ABSENT = object()


@dataclasses.dataclass
class Served:
    client: httpx.AsyncClient
    service: ConversationService
    agent: FakeAgent
    clock: FakeClock
    accounts: Accounts

    async def call(self, method: str, path: str, key: str | None, **kwargs: Any) -> httpx.Response:
        headers = dict(kwargs.pop("headers", {}))
        if key is not None:
            headers["x-api-key"] = key
        resp = await self.client.request(method, path, headers=headers, **kwargs)
        validate(resp)
        return resp

    async def start(self, key: str, message: str = "q", **kwargs: Any) -> httpx.Response:
        return await self.call(
            "POST", "/api/v3/conversations", key, json={"message": message}, **kwargs
        )

    async def send(self, key: str, cid: str, message: str, **kwargs: Any) -> httpx.Response:
        path = f"/api/v3/conversations/{cid}/messages"
        return await self.call("POST", path, key, json={"message": message}, **kwargs)

    async def read(self, key: str, cid: str, wait: float = 0) -> dict[str, Any]:
        resp = await self.call("GET", f"/api/v3/conversations/{cid}?wait={wait}", key)
        assert resp.status_code == 200, resp.text
        return resp.json()

    async def finished(self, key: str, cid: str) -> dict[str, Any]:
        body = await self.read(key, cid, WAIT)
        assert body["status"] != "running"
        return body

    async def started(self, key: str, message: str = "q") -> str:
        runs = len(self.agent.requests)
        resp = await self.start(key, message)
        assert resp.status_code == 202, resp.text
        with anyio.fail_after(WAIT):
            while len(self.agent.requests) == runs:
                await anyio.sleep(0.005)
        return str(resp.json()["conversation_id"])


def validate(resp: httpx.Response) -> None:
    """A JSON response against the document (status, X-Request-Id, body)."""
    path = resp.request.url.path
    template = next(t for t in DOC["paths"] if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", t), path))
    item = DOC["paths"][template]
    operation = item.get(resp.request.method.lower()) or next(iter(item.values()))
    spec = operation["responses"][str(resp.status_code)]
    assert REQUEST_ID.fullmatch(resp.headers["x-request-id"])
    content = spec["content"]
    if "application/json" not in content:
        return
    assert resp.headers["content-type"] == "application/json"
    schema = content["application/json"]["schema"]
    validator = jsonschema.Draft202012Validator(
        {"$ref": "urn:doc" + schema["$ref"]}, registry=REGISTRY
    )
    validator.validate(resp.json())


def assert_error(resp: httpx.Response, status: int, code: str, field: object = ABSENT) -> None:
    assert resp.status_code == status, resp.text
    error = resp.json()["error"]
    assert error["code"] == code
    assert error["request_id"] == resp.headers["x-request-id"]
    if field is ABSENT:
        assert "field" not in error
    else:
        assert error["field"] == field
    if status == 429:
        assert int(resp.headers["retry-after"]) >= 1


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture
def serve(engine: regnb.Engine, accounts: Accounts, tmp_path: Path):
    """An app over the sample engine whose conversation service runs the fake agent."""

    @asynccontextmanager
    async def make(gate: threading.Event | None = None, **settings: Any) -> AsyncIterator[Served]:
        settings.setdefault("rate_limit_per_minute", 0)
        settings.setdefault("public_url", BASE)
        base = dataclasses.replace(engine.settings, home=tmp_path / "home", **settings)
        clock = FakeClock(1_700_000_000.0)
        agent = FakeAgent(engine, gate=gate)
        service = ConversationService(agent, ConversationStore.under(base.home), base, clock)
        app = create_app(
            engine,
            settings=base,
            accounts=accounts,
            clock=FakeClock(),
            conversations=lambda: service,
        )
        state = app.state.regnb
        transport = httpx.ASGITransport(app=app)
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as c:
                yield Served(c, state.conversations, agent, clock, accounts)
        finally:
            state.conversations.close()

    return make


# --- the state table ------------------------------------------------------------------------


async def test_start_is_202_with_turn_0_running_then_the_answer_with_real_citations(
    serve, keys: dict, engine: regnb.Engine
) -> None:
    async with serve() as s:
        resp = await s.start(keys["ent"], "Who failed sterility testing?")
        assert resp.status_code == 202
        body = resp.json()
        cid = body["conversation_id"]
        assert body == {
            "conversation_id": cid,
            "turn_index": 0,
            "status": "running",
            "url": f"{BASE}/api/v3/conversations/{cid}",
        }
        read = await s.finished(keys["ent"], cid)
        cited = s.service.citation_rows(http_account(keys_caller(s, keys["ent"])), cid)[1]
    assert read["status"] == "completed" and read["error"] is None
    (turn,) = read["turns"]
    assert turn["message"] == "Who failed sterility testing?"
    page, passage = turn["citations"]
    assert passage["parent_index"] == page["index"] == 1 and passage["block_id"] == "¶1"
    text = engine.read(cited["document_id"], 1, 1).page_list[0]["text"]
    assert cited["passage"] and cited["passage"] in text  # a real page's text


def keys_caller(s: Served, key: str) -> Any:
    caller = s.accounts.lookup(key)
    assert caller is not None
    return caller


async def test_follow_up_is_202_and_its_citation_numbers_continue(serve, keys: dict) -> None:
    async with serve() as s:
        cid = (await s.start(keys["ent"])).json()["conversation_id"]
        await s.finished(keys["ent"], cid)
        resp = await s.send(keys["ent2"], cid, "and then?")  # another key of the same account
        assert resp.status_code == 202
        assert resp.json()["turn_index"] == 1 and resp.json()["status"] == "running"
        body = await s.finished(keys["ent"], cid)
    assert [c["index"] for t in body["turns"] for c in t["citations"]] == [1, 2, 3, 4]


async def test_clarifying_question_reads_needs_input_and_a_reply_goes_on(serve, keys) -> None:
    async with serve() as s:
        cid = (await s.start(keys["ent"], "recalls [clarify]")).json()["conversation_id"]
        body = await s.finished(keys["ent"], cid)
        assert body["status"] == "needs_input"
        assert body["turns"][0]["question"]["options"] == ["Form 483", "Recalls"]
        assert (await s.send(keys["ent"], cid, "Form 483")).status_code == 202
        assert (await s.finished(keys["ent"], cid))["status"] == "completed"


async def test_message_while_running_is_409_turn_in_flight(serve, keys, gate) -> None:
    async with serve(gate) as s:
        cid = await s.started(keys["ent"])
        assert_error(await s.send(keys["ent"], cid, "more"), 409, "turn_in_flight")


async def test_stop_of_a_running_first_message_leaves_no_turns(serve, keys, gate) -> None:
    async with serve(gate) as s:
        cid = await s.started(keys["ent"], "q [file]")
        path = f"/api/v3/conversations/{cid}/stop"
        resp = await s.call("POST", path, keys["ent"])
        assert resp.status_code == 200
        assert resp.json() == {"conversation_id": cid, "stopped": True}
        body = await s.read(keys["ent"], cid)
        assert (body["status"], body["turns"], body["documents"]) == ("stopped", [], [])
        again = await s.call("POST", path, keys["ent"])
        assert again.json() == {"conversation_id": cid, "stopped": False}


async def test_stopped_follow_up_leaves_the_previous_answer_as_last_turn(serve, keys, gate) -> None:
    async with serve(gate) as s:
        gate.set()
        cid = (await s.start(keys["ent"], "first [text]")).json()["conversation_id"]
        before = await s.finished(keys["ent"], cid)
        gate.clear()
        await s.send(keys["ent"], cid, "second [image]")
        await s.call("POST", f"/api/v3/conversations/{cid}/stop", keys["ent"])
        body = await s.read(keys["ent"], cid)
    assert body["status"] == "stopped"
    assert body["turns"] == before["turns"] and body["documents"] == before["documents"]


async def test_stop_when_nothing_runs_is_false_and_the_answer_stands(serve, keys) -> None:
    async with serve() as s:
        cid = (await s.start(keys["ent"])).json()["conversation_id"]
        before = await s.finished(keys["ent"], cid)
        resp = await s.call("POST", f"/api/v3/conversations/{cid}/stop", keys["ent"])
        assert resp.json() == {"conversation_id": cid, "stopped": False}
        assert await s.read(keys["ent"], cid) == before


async def test_failed_run_reads_error_with_its_explanation(serve, keys) -> None:
    async with serve() as s:
        cid = (await s.start(keys["ent"], "q [fail]")).json()["conversation_id"]
        body = await s.finished(keys["ent"], cid)
    assert body["status"] == "error" and body["error"].startswith("the research could not finish")


async def test_interrupted_run_reads_error_and_is_not_listed_as_running(
    serve, keys, gate, tmp_path: Path
) -> None:
    async with serve(gate) as s:
        account = http_account(keys_caller(s, keys["ent"]))
        elsewhere = open_service(tmp_path / "home", FakeAgent(gate=gate))  # another process
        cid = elsewhere.start(account, "enterprise", "q").body.conversation_id
        listed = (await s.call("GET", "/api/v3/conversations?status=running", keys["ent"])).json()
        assert listed["total"] == 1
        elsewhere.store.close()  # that process dies
        try:
            body = await s.read(keys["ent"], cid)
            listed = (
                await s.call("GET", "/api/v3/conversations?status=running", keys["ent"])
            ).json()
        finally:
            gate.set()
            elsewhere.close()
    assert (body["status"], body["error"]) == ("error", INTERRUPTED)
    assert listed["total"] == 0


# --- idempotency keys -----------------------------------------------------------------------


async def test_retry_with_a_used_key_is_200_with_the_turn_and_starts_nothing(serve, keys) -> None:
    async with serve() as s:
        key = {"Idempotency-Key": "order-42"}
        first = await s.start(keys["ent"], "q", headers=key)
        cid = first.json()["conversation_id"]
        await s.finished(keys["ent"], cid)
        retry = await s.start(keys["ent2"], "q", headers=key)
        assert retry.status_code == 200
        assert retry.json() == {**first.json(), "status": "completed"}
        follow = await s.send(keys["ent"], cid, "more", headers={"Idempotency-Key": "order-43"})
        await s.finished(keys["ent"], cid)
        again = await s.send(keys["ent"], cid, "more", headers={"Idempotency-Key": "order-43"})
        assert (follow.status_code, again.status_code) == (202, 200)
        assert again.json()["turn_index"] == 1
        assert len(s.agent.requests) == 2


async def test_retry_of_a_stopped_message_is_200_stopped(serve, keys, gate) -> None:
    async with serve(gate) as s:
        gate.set()
        cid = (await s.start(keys["ent"])).json()["conversation_id"]
        await s.finished(keys["ent"], cid)
        gate.clear()
        key = {"Idempotency-Key": "stop-me"}
        await s.send(keys["ent"], cid, "more", headers=key)
        await s.call("POST", f"/api/v3/conversations/{cid}/stop", keys["ent"])
        retry = await s.send(keys["ent"], cid, "more", headers=key)
    assert retry.status_code == 200
    assert (retry.json()["turn_index"], retry.json()["status"]) == (1, "stopped")


async def test_same_key_for_another_message_is_422_idempotency_key_reused(serve, keys) -> None:
    async with serve() as s:
        key = {"Idempotency-Key": "k"}
        await s.start(keys["ent"], "q", headers=key)
        resp = await s.start(keys["ent"], "something else", headers=key)
        assert_error(resp, 422, "idempotency_key_reused", "Idempotency-Key")
        other = await s.start(keys["other"], "something else", headers=key)  # keys are per account
        assert other.status_code == 202


async def test_key_whose_first_request_is_in_process_is_409_in_use(serve, keys) -> None:
    async with serve() as s:
        account = http_account(keys_caller(s, keys["ent"]))
        with s.service.store.write() as tx:
            tx.claim_key(account, "busy", _fingerprint(None, "q"), s.service.store.owner, "now")
        resp = await s.start(keys["ent"], "q", headers={"Idempotency-Key": "busy"})
        assert_error(resp, 409, "idempotency_key_in_use", "Idempotency-Key")


async def test_two_concurrent_starts_with_one_key_start_one_run(serve, keys) -> None:
    async with serve() as s:
        for attempt in range(4):
            key = {"Idempotency-Key": f"race-{attempt}"}
            responses: list[httpx.Response] = []

            async def post(
                key: dict[str, str] = key, responses: list[httpx.Response] = responses
            ) -> None:
                responses.append(await s.start(keys["ent"], "same", headers=key))

            async with anyio.create_task_group() as tg:
                tg.start_soon(post)
                tg.start_soon(post)
            codes = sorted(r.status_code for r in responses)
            assert codes in ([200, 202], [202, 409]), codes
            first = next(r for r in responses if r.status_code == 202).json()
            for r in responses:
                if r.status_code == 200:
                    assert r.json()["conversation_id"] == first["conversation_id"]
                if r.status_code == 409:
                    assert r.json()["error"]["code"] == "idempotency_key_in_use"
            await s.finished(keys["ent"], first["conversation_id"])
        listed = (await s.call("GET", "/api/v3/conversations", keys["ent"])).json()
    assert listed["total"] == 4 and len(s.agent.requests) == 4


@pytest.mark.parametrize("value", ["", "has space", "x" * 256, "tab\tin", "caf\xe9"])
async def test_malformed_idempotency_key_is_400(serve, keys, value: str) -> None:
    async with serve() as s:
        headers = [("x-api-key", keys["ent"]), ("Idempotency-Key", value.encode("latin-1"))]
        resp = await s.client.post("/api/v3/conversations", json={"message": "q"}, headers=headers)
        assert_error(resp, 400, "invalid_request", "Idempotency-Key")
        assert (await s.call("GET", "/api/v3/conversations", keys["ent"])).json()["total"] == 0


# --- limits, quota, plans -------------------------------------------------------------------


async def test_fourth_running_conversation_is_429_concurrent_conversations(
    serve, keys, gate
) -> None:
    async with serve(gate) as s:
        cids = [(await s.start(keys["ent"], f"q{i}")).json()["conversation_id"] for i in range(3)]
        assert_error(await s.start(keys["ent2"]), 429, "concurrent_conversations")
        assert (await s.start(keys["other"])).status_code == 202
        await s.call("POST", f"/api/v3/conversations/{cids[0]}/stop", keys["ent"])
        assert (await s.start(keys["ent"])).status_code == 202


async def test_free_plan_out_of_monthly_questions_is_402(serve, keys) -> None:
    async with serve(free_monthly_questions=1) as s:
        cid = (await s.start(keys["free"])).json()["conversation_id"]
        await s.finished(keys["free"], cid)
        assert_error(await s.start(keys["free"]), 402, "quota_exhausted")
        assert_error(await s.send(keys["free"], cid, "more"), 402, "quota_exhausted")
        assert (await s.start(keys["paid"])).status_code == 202


async def test_searches_still_answer_while_every_agent_worker_is_busy(serve, keys, gate) -> None:
    async with serve(gate, agent_workers=2, concurrent_conversations=0) as s:
        for i in range(3):
            await s.start(keys["ent"], f"q{i}")
        with anyio.fail_after(WAIT):
            while len(s.agent.requests) < 2:
                await anyio.sleep(0.005)
        resp = await s.call(
            "POST", "/api/v3/search", keys["ent"], json={"keywords": ["sterility"], "limit": 1}
        )
        assert resp.status_code == 200 and resp.json()["results"]


async def test_rate_limit_applies_to_conversation_endpoints(serve, keys) -> None:
    async with serve(rate_limit_per_minute=2) as s:
        await s.call("GET", "/api/v3/conversations", keys["ent"])
        await s.call("GET", "/api/v3/conversations", keys["ent"])
        assert_error(await s.start(keys["ent"]), 429, "rate_limited")


# --- list and read --------------------------------------------------------------------------


async def test_list_pages_by_most_recent_activity(serve, keys) -> None:
    async with serve() as s:
        cids = []
        for i in range(3):
            cids.append((await s.start(keys["ent"], f"q{i}")).json()["conversation_id"])
            await s.finished(keys["ent"], cids[-1])
            s.service.clock.advance(60)  # type: ignore[attr-defined]
        pages = [
            (await s.call("GET", f"/api/v3/conversations?limit=2&offset={o}", keys["ent"])).json()
            for o in (0, 2)
        ]
        default = (await s.call("GET", "/api/v3/conversations", keys["ent"])).json()
        others = (await s.call("GET", "/api/v3/conversations", keys["other"])).json()
    assert [c["conversation_id"] for p in pages for c in p["conversations"]] == cids[::-1]
    assert [(p["total"], p["limit"], p["offset"]) for p in pages] == [(3, 2, 0), (3, 2, 2)]
    assert (default["limit"], default["offset"]) == (20, 0)
    summary = pages[0]["conversations"][0]
    assert summary["title"] == "q2" and summary["turn_count"] == 1
    assert summary["url"] == f"{BASE}/api/v3/conversations/{cids[2]}"
    assert others == {"conversations": [], "total": 0, "limit": 20, "offset": 0}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("status=done", "status"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=abc", "limit"),
        ("offset=-1", "offset"),
        ("offset=1.5", "offset"),
    ],
)
async def test_list_parameters_out_of_range_are_400(serve, keys, query: str, field: str) -> None:
    async with serve() as s:
        resp = await s.call("GET", f"/api/v3/conversations?{query}", keys["ent"])
        assert_error(resp, 400, "invalid_request", field)


NOT_WAITS = ["46", "-1", "abc", "nan", "NaN", "inf", "Infinity", "", "1e2", "4.6E1", "1e999"]
NOT_WAITS += ["%2B1", "0x1", "1_0", "1e", "e1", "1.5.2", "--1"]  # %2B: a + in a query string
WAITS = ["0", "1e-05", "1E1", "1e%2B1", "4.5e1", "45.0", "0.0", "-0", "-0.0", "2.5", ".5", "5."]
WAITS += ["0e0", "00", "1.5E-3", "%201"]


@pytest.mark.parametrize("wait", NOT_WAITS)
async def test_wait_that_is_not_a_number_from_0_to_45_is_400(serve, keys, wait: str) -> None:
    async with serve() as s:
        cid = (await s.start(keys["ent"])).json()["conversation_id"]
        resp = await s.call("GET", f"/api/v3/conversations/{cid}?wait={wait}", keys["ent"])
        assert_error(resp, 400, "invalid_request", "wait")
        assert "wait must be" in resp.json()["error"]["message"]


@pytest.mark.parametrize("wait", WAITS)
async def test_wait_in_any_json_number_form_from_0_to_45_is_read(serve, keys, wait: str) -> None:
    async with serve() as s:
        cid = (await s.start(keys["ent"])).json()["conversation_id"]
        await s.finished(keys["ent"], cid)
        resp = await s.call("GET", f"/api/v3/conversations/{cid}?wait={wait}", keys["ent"])
        assert resp.status_code == 200, resp.text


async def test_read_with_wait_returns_as_soon_as_the_run_ends(serve, keys, gate) -> None:
    async with serve(gate) as s:
        cid = await s.started(keys["ent"])
        running = await s.read(keys["ent"], cid, 0.05)  # the wait is up: still running
        assert running["status"] == "running"
        assert running["turns"][0]["steps"][0]["message"] == "Searching the fake corpus"
        threading.Timer(0.1, gate.set).start()
        began = time.monotonic()
        body = await s.read(keys["ent"], cid, 30)
        assert body["status"] == "completed" and time.monotonic() - began < 30


# --- errors common to the endpoints ---------------------------------------------------------


async def test_another_accounts_conversation_is_404_everywhere(serve, keys) -> None:
    async with serve() as s:
        cid = (await s.start(keys["ent"], "q [text]")).json()["conversation_id"]
        doc = (await s.finished(keys["ent"], cid))["documents"][0]["id"]
        for method, path, body in [
            ("GET", f"/api/v3/conversations/{cid}", None),
            ("POST", f"/api/v3/conversations/{cid}/messages", {"message": "x"}),
            ("POST", f"/api/v3/conversations/{cid}/stop", None),
            ("GET", f"/api/v3/conversations/{cid}/documents/{doc}", None),
            ("GET", "/api/v3/conversations/conv_nope", None),
            ("GET", f"/api/v3/conversations/{cid}/documents/doc_nope", None),
        ]:
            key = keys["other"] if "nope" not in path else keys["ent"]
            resp = await s.call(method, path, key, json=body)
            assert_error(resp, 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/v3/conversations"),
        ("GET", "/api/v3/conversations"),
        ("GET", "/api/v3/conversations/conv_x"),
        ("POST", "/api/v3/conversations/conv_x/messages"),
        ("POST", "/api/v3/conversations/conv_x/stop"),
        ("GET", "/api/v3/conversations/conv_x/documents/doc_x"),
    ],
)
async def test_every_endpoint_needs_a_valid_key(serve, method: str, path: str) -> None:
    async with serve() as s:
        assert_error(
            await s.call(method, path, None, json={"message": "q"}), 401, "missing_api_key"
        )
        assert_error(
            await s.call(method, path, "nope", json={"message": "q"}), 401, "invalid_api_key"
        )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "message"),
        ({"message": ""}, "message"),
        ({"message": "  \n"}, "message"),
        ({"message": 5}, "message"),
        ({"message": None}, "message"),
        (b"{not json", None),
        (b"[1]", None),
    ],
)
async def test_missing_empty_or_unreadable_message_is_400(serve, keys, body: Any, field) -> None:
    async with serve() as s:
        kwargs = {"content": body} if isinstance(body, bytes) else {"json": body}
        for path in ("/api/v3/conversations", "/api/v3/conversations/conv_x/messages"):
            resp = await s.call("POST", path, keys["ent"], **kwargs)
            assert_error(resp, 400, "invalid_request", ABSENT if field is None else field)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/v3/conversations?wait=1"),
        ("GET", "/api/v3/conversations?wiat=45"),
        ("GET", "/api/v3/conversations/conv_x?wiat=45"),
        ("POST", "/api/v3/conversations/conv_x/stop?now=1"),
        ("GET", "/api/v3/files/t?download=1"),
    ],
)
async def test_a_query_parameter_the_endpoint_does_not_take_is_400(
    serve, keys, method: str, path: str
) -> None:
    async with serve() as s:
        resp = await s.call(method, path, keys["ent"], json={"message": "q"})
        assert_error(resp, 400, "invalid_request", path.rsplit("?", 1)[1].split("=")[0])


async def test_body_over_1_mb_is_413(serve, keys) -> None:
    async with serve() as s:
        resp = await s.call(
            "POST", "/api/v3/conversations", keys["ent"], json={"message": "x" * 1_000_001}
        )
        assert_error(resp, 413, "payload_too_large")


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/v3/conversations", "GET, HEAD, POST"),
        ("PUT", "/api/v3/conversations/conv_x", "GET, HEAD"),
        ("GET", "/api/v3/conversations/conv_x/stop", "POST"),
        ("GET", "/api/v3/conversations/conv_x/messages", "POST"),
        ("POST", "/api/v3/files/t", "GET, HEAD"),
    ],
)
async def test_wrong_method_is_405_with_allow(serve, keys, method: str, path: str, allow) -> None:
    async with serve() as s:
        resp = await s.call(method, path, keys["ent"])
        assert_error(resp, 405, "method_not_allowed")
        assert set(resp.headers["allow"].split(", ")) == set(allow.split(", "))


# --- produced documents and signed downloads ------------------------------------------------


async def produced(s: Served, key: str, message: str) -> tuple[str, dict[str, str]]:
    cid = (await s.start(key, message)).json()["conversation_id"]
    docs = (await s.finished(key, cid))["documents"]
    return cid, {d["title"]: d["id"] for d in docs}


async def test_text_document_comes_inline(serve, keys) -> None:
    async with serve() as s:
        cid, docs = await produced(s, keys["free"], "q [text]")
        resp = await s.call(
            "GET", f"/api/v3/conversations/{cid}/documents/{docs['Report']}", keys["free"]
        )
    body = resp.json()
    assert set(body) == {"id", "title", "type", "created_at", "content"}
    assert body["type"] == "text" and "[2]" in body["content"]


async def test_file_comes_as_a_signed_url_that_downloads_for_the_same_account(serve, keys) -> None:
    async with serve() as s:
        cid, docs = await produced(s, keys["ent"], "q [file]")
        path = f"/api/v3/conversations/{cid}/documents/{docs['Letters']}"
        first = (await s.call("GET", path, keys["ent"])).json()
        second = (await s.call("GET", path, keys["ent"])).json()
        assert first["url"] != second["url"]  # new at each fetch
        assert first["url"].startswith(f"{BASE}/api/v3/files/")
        assert (first["filename"], first["expires_in"], first["type"]) == (
            "letters.xlsx",
            300,
            "file",
        )
        download = first["url"].removeprefix(BASE)
        resp = await s.call("GET", download, keys["ent2"])  # any key of the account
        assert resp.status_code == 200 and resp.content == b"PK fake"
        assert resp.headers["content-type"].startswith("application/vnd.openxmlformats")
        assert resp.headers["content-disposition"] == content_disposition("letters.xlsx")
        assert_error(await s.call("GET", download, keys["other"]), 404, "not_found")
        alone = await s.call("GET", download, None)  # a browser, `curl`: the link alone
        assert alone.status_code == 200 and alone.content == b"PK fake"
        s.clock.advance(300)
        assert_error(await s.call("GET", download, keys["ent"]), 404, "not_found")
        assert_error(await s.call("GET", download, None), 404, "not_found")  # expired
        fresh = (await s.call("GET", path, keys["ent"])).json()["url"].removeprefix(BASE)
        assert (await s.call("GET", fresh, keys["ent"])).status_code == 200


@pytest.mark.parametrize(
    "forge",
    [lambda t: t[:-2] + ("AA" if t[-2:] != "AA" else "BB"), lambda t: "x" + t, lambda t: "abc"],
)
async def test_forged_download_link_is_404(serve, keys, forge) -> None:
    async with serve() as s:
        cid, docs = await produced(s, keys["ent"], "q [image]")
        url = (
            await s.call(
                "GET", f"/api/v3/conversations/{cid}/documents/{docs['Chart']}", keys["ent"]
            )
        ).json()["url"]
        token = url.rsplit("/", 1)[1]
        assert_error(
            await s.call("GET", f"/api/v3/files/{forge(token)}", keys["ent"]), 404, "not_found"
        )


async def test_office_files_need_a_paid_plan_but_images_and_text_do_not(
    serve, keys, accounts: Accounts
) -> None:
    async with serve() as s:
        cid, docs = await produced(s, keys["free"], "q [file] [docx] [image] [text]")
        base = f"/api/v3/conversations/{cid}/documents/"
        for title in ("Letters", "Memo"):
            assert_error(await s.call("GET", base + docs[title], keys["free"]), 403, "forbidden")
        image = (await s.call("GET", base + docs["Chart"], keys["free"])).json()
        got = await s.call("GET", image["url"].removeprefix(BASE), keys["free"])
        assert got.content == FAKE_PNG and got.headers["content-type"] == "image/png"
        assert (await s.call("GET", base + docs["Report"], keys["free"])).status_code == 200
        cid, docs = await produced(s, keys["paid"], "q [docx]")
        link = (
            await s.call(
                "GET", f"/api/v3/conversations/{cid}/documents/{docs['Memo']}", keys["paid"]
            )
        ).json()["url"]
        assert (await s.call("GET", link.removeprefix(BASE), keys["paid"])).status_code == 200
        accounts.set_plan("beta", "free")  # the plan is checked again at download
        assert_error(await s.call("GET", link.removeprefix(BASE), keys["paid"]), 403, "forbidden")


def test_content_disposition_keeps_any_file_name_safe() -> None:
    assert (
        content_disposition("a.xlsx") == "attachment; filename=\"a.xlsx\"; filename*=UTF-8''a.xlsx"
    )
    header = content_disposition('rapport "final" é.docx')
    assert header.startswith('attachment; filename="rapport _final_ _.docx"')
    assert header.endswith("filename*=UTF-8''rapport%20%22final%22%20%C3%A9.docx")


# --- the OpenAPI paths ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(conversation_schemas()))
def test_conversation_schemas_are_valid_json_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(DOC["components"]["schemas"][name])


def test_every_conversation_route_is_in_the_document() -> None:
    paths = conversation_paths()
    assert sorted(paths) == [
        "/api/v3/conversations",
        "/api/v3/conversations/{conversation_id}",
        "/api/v3/conversations/{conversation_id}/documents/{document_id}",
        "/api/v3/conversations/{conversation_id}/messages",
        "/api/v3/conversations/{conversation_id}/stop",
        "/api/v3/files/{token}",
    ]
    refs = re.findall(r"#/components/(?:schemas|headers)/(\w+)", str(paths))
    for ref in refs:
        assert ref in DOC["components"]["schemas"] or ref in DOC["components"]["headers"]
