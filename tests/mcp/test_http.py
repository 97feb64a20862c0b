"""The MCP tools at `/mcp` of the HTTP app, driven by the SDK's own client over streamable HTTP
against uvicorn on loopback: every tool, research with its progress and verified citations, tool
errors naming the argument, and the keys, plans and limits of the v3 routes."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import regnb
from regnb.conversations.testing import FakeAgent
from regnb.mcp._schemas import READ_PAGES_MAX
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.openapi.v3 import matches_request_schema, search_request_schema
from regnb.server.testing import FakeClock, make_keys, open_sample

from .support import http_session, structured, tool_error, uvicorn_thread

pytestmark = pytest.mark.anyio

TOOLS = ["search", "read", "datasets", "facets", "matches", "firm", "timeline", "research"]
QUESTION = "What did the warning letters to Beta Pharma say about sterility testing?"


class Served:
    """The app over the sample corpus on loopback, with a key per role."""

    def __init__(self, base: str, engine: regnb.Engine, keys: dict[str, str]) -> None:
        self.base, self.engine, self.keys = base, engine, keys

    def http(self, method: str, path: str, key: str | None, **kwargs: Any) -> httpx.Response:
        headers = {**kwargs.pop("headers", {}), **({"x-api-key": key} if key else {})}
        return httpx.request(method, self.base + path, headers=headers, timeout=60, **kwargs)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("mcp-http")
    engine = open_sample(root / "corpus", root / "home", rate_limit_per_minute=100_000)
    with Accounts(root / "accounts.sqlite3") as accounts:
        keys = make_keys(accounts)
        with uvicorn_thread(create_app(engine, accounts=accounts)) as base:
            yield Served(base, engine, keys)
    engine.close()


def page_text(engine: regnb.Engine, document_id: str, page: int) -> str:
    return str(engine.read(document_id, page, page).page_list[0]["text"])


async def test_the_tools_are_listed_with_the_openapi_documents_input_schemas(served):
    async with http_session(served.base, served.keys["ent"]) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert list(tools) == TOOLS
    catalog = served.engine.datasets()
    search = {**search_request_schema(catalog), "additionalProperties": False}
    assert tools["search"].input_schema == search
    matches = tools["matches"].input_schema
    assert matches["properties"].keys() == matches_request_schema(catalog)["properties"].keys()
    assert tools["read"].input_schema["required"] == ["document_id"]
    assert tools["research"].input_schema["required"] == ["message"]
    assert all(t.description for t in tools.values())


async def test_search_gives_documents_with_ids_urls_best_passages_and_a_total(served):
    async with http_session(served.base, served.keys["ent"]) as session:
        found = structured(
            await session.call_tool("search", {"keywords": ["sterility"], "limit": 2})
        )
    assert found["total"] == served.engine.search(["sterility"], syntax="plain").total
    assert len(found["results"]) == 2 and found["next_offset"] == 2
    for doc in found["results"]:
        assert doc["document_id"] and doc["url"].startswith("https://example.test/")
        assert "sterility" in doc["pages"][0]["text"].lower()
        for page in doc["pages"]:  # each page's best passage, as the page has it
            assert " ".join(page["text"].split()) in " ".join(
                page_text(served.engine, doc["document_id"], page["page_num"]).split()
            )


async def test_read_gives_a_page_range_and_where_the_next_starts(served):
    long = served.engine.search(["long record"], syntax="plain").to_dict()["results"][0]
    async with http_session(served.base, served.keys["ent"]) as session:
        one = structured(
            await session.call_tool(
                "read", {"document_id": long["document_id"], "page_from": 2, "page_to": 2}
            )
        )
        rest = structured(await session.call_tool("read", {"document_id": long["document_id"]}))
    assert [p["page_num"] for p in one["pages"]] == [2]
    assert one["pages"][0]["text"] == page_text(served.engine, long["document_id"], 2)
    assert one["total_pages"] == 7 and one["next_page_from"] == 3
    assert len(rest["pages"]) == min(7, READ_PAGES_MAX)


async def test_datasets_lists_the_catalog(served):
    async with http_session(served.base, served.keys["ent"]) as session:
        listed = structured(await session.call_tool("datasets", {}))
    assert listed == served.engine.datasets().to_dict()


async def test_facets_are_the_engines_exact_counts(served):
    async with http_session(served.base, served.keys["ent"]) as session:
        counted = structured(
            await session.call_tool("facets", {"keywords": ["sterility"], "by": ["dataset"]})
        )
    frame = served.engine.facets(["sterility"], by=["dataset"], syntax="plain")["dataset"]
    expected = [
        {"value": v, "documents": int(d), "pages": int(p)}
        for v, d, p in frame.itertuples(index=False, name=None)
    ]
    assert counted == {"facets": {"dataset": expected}}


async def test_matches_pages_through_every_match_with_a_total(served):
    seen: list[str] = []
    offset: int | None = 0
    async with http_session(served.base, served.keys["ent"]) as session:
        while offset is not None:
            window = structured(
                await session.call_tool(
                    "matches", {"keywords": ["sterility"], "limit": 4, "offset": offset}
                )
            )
            assert len(window["matches"]) <= 4
            seen += [m["document_id"] for m in window["matches"]]
            offset = window["next_offset"]
    total = served.engine.matches(["sterility"], syntax="plain").attrs["total"]
    assert window["total"] == total == len(seen) == len(set(seen))


async def test_firm_and_its_timeline(served):
    async with http_session(served.base, served.keys["ent"]) as session:
        firms = structured(await session.call_tool("firm", {"q": "Beta Pharma"}))["firms"]
        firm_id = firms[0]["id"]
        first = structured(await session.call_tool("timeline", {"firm_id": firm_id, "limit": 2}))
        rest = structured(
            await session.call_tool(
                "timeline", {"firm_id": firm_id, "offset": first["next_offset"]}
            )
        )
    assert firms[0]["name"] == "Beta Pharma"
    assert first["firm"]["id"] == firm_id and first["total"] == 3
    assert len(first["events"]) == 2 and len(rest["events"]) == 1 and rest["next_offset"] is None
    assert [e["dataset"] for e in first["events"] + rest["events"]] == ["fda_warning_letters"] * 3


async def test_research_answers_with_citations_that_verify_on_their_pages(served):
    async with http_session(served.base, served.keys["ent"]) as session:
        answer = structured(await session.call_tool("research", {"message": QUESTION}))
    assert answer["status"] == "completed" and answer["clarifying_question"] is None
    assert answer["url"] == f"{served.base}/api/v3/conversations/{answer['conversation_id']}"
    citations = answer["citations"]
    assert citations and all(c["verified"] for c in citations)
    for c in citations:
        assert f"[{c['index']}]" in answer["answer"] or c["block_id"] is None
        text = page_text(served.engine, c["document_id"], c["page_num"])
        if c["block_id"] is not None:
            assert " ".join(c["quote"].split()) in " ".join(text.split())
    assert any(c["quote"] and "sterility testing" in c["quote"] for c in citations)


async def test_research_reports_each_step_as_progress(served):
    gate = threading.Event()
    seen: list[str] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append(message or "")
        gate.set()  # the agent holds its run after its first step until the client saw it

    served.engine.agent_factory = FakeAgent(served.engine, gate=gate)
    try:
        async with http_session(served.base, served.keys["ent"]) as session:
            result = await session.call_tool(
                "research", {"message": "sterility"}, progress_callback=progress
            )
    finally:
        served.engine.agent_factory = None
    answer = structured(result)
    assert seen[0] == "Searching the fake corpus (3)"
    assert answer["status"] == "completed" and all(c["verified"] for c in answer["citations"])


async def test_a_clarifying_question_comes_back_as_one_and_its_reply_continues(served):
    async with http_session(served.base, served.keys["ent"]) as session:
        asked = structured(
            await session.call_tool(
                "research", {"message": "What sterility failures did FDA find at Acme Sterile?"}
            )
        )
        assert asked["status"] == "needs_input" and asked["answer"] is None
        question = asked["clarifying_question"]
        assert question["question"] and question["options"]
        reply = {"message": question["options"][0], "conversation_id": asked["conversation_id"]}
        answered = structured(await session.call_tool("research", reply))
    assert answered["conversation_id"] == asked["conversation_id"]
    assert answered["turn_index"] == asked["turn_index"] + 1
    assert answered["status"] in ("completed", "needs_input")


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("search", {"keywords": ["sterility"], "limit": 200}, "limit"),
        ("search", {"keywords": ["sterility"], "sorted": "date"}, "sorted"),
        ("search", {"query": "sterility"}, "keywords"),
        ("search", {"keywords": ["sterility"], "datasets": ["nope"]}, "datasets[0]"),
        ("read", {"document_id": "nope"}, "document_id"),
        ("read", {"document_id": "x", "page_from": 0}, "page_from"),
        ("facets", {"keywords": ["sterility"], "by": ["colour"]}, "by[0]"),
        ("facets", {"keywords": ["sterility"], "size": 0}, "size"),
        ("matches", {"keywords": ["sterility"], "limit": 500}, "limit"),
        ("matches", {"keywords": ["sterility"], "limit": 0}, "limit"),
        ("timeline", {"firm_id": "beta-pharma", "offset": -1}, "offset"),
        ("read", {"document_id": "x", "page_to": "3"}, "page_to"),
        ("matches", {"keywords": ["sterility"], "order": "newest"}, "order"),
        ("firm", {}, "q"),
        ("firm", {"q": " "}, "q"),
        ("timeline", {"firm_id": "no-such-firm"}, "firm_id"),
        ("research", {"message": " "}, "message"),
        ("nope", {}, "name"),
    ],
)
async def test_bad_input_is_a_tool_error_naming_the_argument(served, tool, arguments, field):
    async with http_session(served.base, served.keys["ent"]) as session:
        error = tool_error(await session.call_tool(tool, arguments))
    assert error["field"] == field


async def test_a_free_key_is_refused_what_http_refuses_it(served):
    crl = served.engine.search(["sterility"], datasets=["fda_crl"]).to_dict()["results"][0]
    body = {"keywords": ["sterility"], "datasets": ["fda_crl", "fda_483"]}
    over_http = served.http("POST", "/api/v3/search", served.keys["free"], json=body).json()
    read_http = served.http("GET", f"/api/v3/documents/{crl['document_id']}", served.keys["free"])
    async with http_session(served.base, served.keys["free"]) as session:
        found = structured(await session.call_tool("search", body))
        refused = tool_error(await session.call_tool("read", {"document_id": crl["document_id"]}))
    assert found["datasets"] == over_http["datasets"]
    assert found["datasets"]["fda_crl"]["status"] == "forbidden"
    assert read_http.status_code == 403
    assert refused == {k: v for k, v in read_http.json()["error"].items() if k != "request_id"}


@pytest.mark.parametrize(("key", "code"), [(None, "missing_api_key"), ("nope", "invalid_api_key")])
def test_mcp_without_a_valid_key_is_401_as_a_v3_route(served, key, code):
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"accept": "application/json, text/event-stream"}
    resp = served.http("POST", "/mcp", key, json=ping, headers=headers)
    assert resp.status_code == 401
    assert resp.json()["error"]["code"] == code


def test_an_mcp_body_over_the_v3_size_limit_is_413(served):
    size = served.engine.settings.max_body_bytes + 1
    big = {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "a" * size}}
    headers = {"accept": "application/json, text/event-stream"}
    resp = served.http("POST", "/mcp", served.keys["ent"], json=big, headers=headers)
    assert resp.status_code == 413


async def test_the_sdk_client_without_a_key_cannot_start_a_session(served):
    with pytest.raises(Exception) as raised:
        async with http_session(served.base, None):
            pass
    assert "MCPError" in repr(raised.value)


async def test_mcp_requests_count_against_the_keys_rate_limit(tmp_path: Path):
    engine = open_sample(tmp_path / "corpus", tmp_path / "home", rate_limit_per_minute=3)
    with Accounts(tmp_path / "accounts.sqlite3") as accounts:
        key = make_keys(accounts)["ent"]
        app = create_app(engine, accounts=accounts, clock=FakeClock())
        with uvicorn_thread(app) as base:
            async with http_session(base, key) as session:  # initialize and initialized: 2
                await session.list_tools()  # 3
                with pytest.raises(Exception):  # noqa: B017 - 429 ends the session
                    await session.list_tools()
            resp = httpx.post(f"{base}/mcp", headers={"x-api-key": key}, json={})
    engine.close()
    assert resp.status_code == 429 and resp.json()["error"]["code"] == "rate_limited"
