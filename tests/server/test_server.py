"""The v3 and legacy endpoints in-process: successes and every error row of the spec."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

import regnb
from regnb.errors import InvalidRequest
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import FakeClock

pytestmark = pytest.mark.anyio

REQUEST_ID = re.compile(r"req_[0-9a-f]{24}")
ABSENT = object()


@pytest.fixture
def app(engine: regnb.Engine, accounts: Accounts) -> Starlette:
    return create_app(engine, accounts=accounts, clock=FakeClock())


@pytest.fixture
async def client(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as c:
        yield c


def h(key: str) -> dict[str, str]:
    return {"x-api-key": key}


def assert_v3_error(
    resp: httpx.Response, status: int, code: str, field: object = ABSENT
) -> dict[str, Any]:
    """The spec's v3 error body, with request_id equal to the X-Request-Id header."""
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"] == "application/json"
    body = resp.json()
    assert set(body) == {"error"}
    error = body["error"]
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    assert REQUEST_ID.fullmatch(error["request_id"])
    assert resp.headers["x-request-id"] == error["request_id"]
    if field is ABSENT:
        assert "field" not in error
    else:
        assert error["field"] == field
    assert set(error) <= {"code", "message", "field", "request_id"}
    return error


def assert_legacy_error(resp: httpx.Response, status: int) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]
    assert "x-request-id" not in resp.headers
    return body["error"]


async def search(client: httpx.AsyncClient, key: str, **body: Any) -> dict[str, Any]:
    resp = await client.post("/api/v3/search", json=body, headers=h(key))
    assert resp.status_code == 200, resp.text
    return resp.json()


async def document_id(client: httpx.AsyncClient, key: str, dataset: str, title: str) -> str:
    found = await search(client, key, keywords=["sterility"], datasets=[dataset], limit=50)
    return next(d["document_id"] for d in found["results"] if d["title"] == title)


# --- successes ---------------------------------------------------------------------------


async def test_search_returns_the_envelope(client: httpx.AsyncClient, keys: dict) -> None:
    resp = await client.post(
        "/api/v3/search",
        json={"keywords": ["sterility"], "query": "Who failed sterility testing?", "limit": 3},
        headers=h(keys["ent"]),
    )
    assert resp.status_code == 200
    assert REQUEST_ID.fullmatch(resp.headers["x-request-id"])
    body = resp.json()
    assert set(body) == {"results", "datasets", "total", "next_offset", "ranking"}
    assert len(body["results"]) == 3 and body["next_offset"] == 3
    assert body["ranking"] == "similarity"
    first = body["results"][0]
    assert set(first) == {
        "document_id",
        "dataset",
        "title",
        "date",
        "url",
        "fields",
        "pages",
        "matched_pages",
    }
    assert 1 <= len(first["pages"]) <= 3 and first["pages"][0]["page_num"] >= 1
    assert body["datasets"]["fda_483"]["status"] == "ok"


async def test_items_read_as_plain_words_unless_the_body_asks_for_the_query_syntax(
    client: httpx.AsyncClient, keys: dict
) -> None:
    key = keys["ent"]
    plain = await search(client, key, keywords=["assurance sterility"], datasets=["fda_483"])
    quoted = await search(client, key, keywords=['"assurance sterility"'], datasets=["fda_483"])
    assert quoted == plain and plain["total"] > 0
    also_plain = await search(
        client, key, keywords=['"assurance sterility"'], datasets=["fda_483"], syntax="plain"
    )
    assert also_plain == plain
    phrase = await search(
        client, key, keywords=['"assurance sterility"'], datasets=["fda_483"], syntax="query"
    )
    assert phrase["total"] == 0 and "notices" not in phrase
    noted = await search(client, key, keywords=["sterility company:beta"], syntax="query")
    assert noted["notices"] == [
        "keywords[0]: company:beta is not a field of fda_guidance, fda_483; no page there meets it"
    ]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"keywords": ["x"], "syntax": "lucene"}, "syntax", "syntax must be one of query, plain"),
        ({"keywords": ["x"], "syntax": 1}, "syntax", "syntax must be one of"),
        (
            {"keywords": ['"open'], "syntax": "query"},
            "keywords[0]",
            "unclosed quote at character 1",
        ),
        (
            {"keywords": ["water", "sterility compny:beta"], "syntax": "query"},
            "keywords[1]",
            "did you mean 'company'?",
        ),
    ],
)
async def test_a_bad_syntax_or_query_item_is_invalid_request(
    client: httpx.AsyncClient, keys: dict, body: dict, field: str, message: str
) -> None:
    resp = await client.post("/api/v3/search", json=body, headers=h(keys["ent"]))
    error = assert_v3_error(resp, 400, "invalid_request", field)
    assert message in error["message"]


async def test_search_pages_with_next_offset(client: httpx.AsyncClient, keys: dict) -> None:
    seen: list[str] = []
    body: dict[str, Any] = {"keywords": ["sterility"], "limit": 4}
    while True:
        page = await search(client, keys["ent"], **body)
        seen += [d["document_id"] for d in page["results"]]
        if page["next_offset"] is None:
            break
        body["offset"] = page["next_offset"]
    assert len(seen) == len(set(seen)) == page["total"]


async def test_search_with_one_dataset_and_filters(client: httpx.AsyncClient, keys: dict) -> None:
    body = await search(
        client,
        keys["ent"],
        keywords=["sterility"],
        datasets=["fda_483"],
        filters={"fda_483": {"facility_name": "Long Works"}},
    )
    assert body["ranking"] == "bm25"
    assert [d["title"] for d in body["results"]] == ["Form 483 long record"]


async def test_search_reports_enterprise_datasets_forbidden_on_other_plans(
    client: httpx.AsyncClient, keys: dict
) -> None:
    for role, status in [("paid", "forbidden"), ("free", "forbidden"), ("ent", "ok")]:
        body = await search(client, keys[role], keywords=["sterility"], datasets=["fda_crl"])
        assert body["datasets"]["fda_crl"]["status"] == status, role


async def test_null_optional_fields_mean_not_given(client: httpx.AsyncClient, keys: dict) -> None:
    body = await search(
        client,
        keys["ent"],
        keywords=["sterility"],
        query=None,
        datasets=None,
        filters=None,
        date_from=None,
        limit=None,
        offset=None,
    )
    assert len(body["results"]) == min(20, body["total"])


async def test_any_content_type_is_read_as_json(client: httpx.AsyncClient, keys: dict) -> None:
    """`curl -d` sends form encoding; the body is still JSON."""
    resp = await client.post(
        "/api/v3/search",
        content=b'{"keywords":["sterility"]}',
        headers={**h(keys["ent"]), "content-type": "application/x-www-form-urlencoded"},
    )
    assert resp.status_code == 200


async def test_datasets_lists_the_catalog(client: httpx.AsyncClient, keys: dict) -> None:
    resp = await client.get("/api/v3/datasets", headers=h(keys["free"]))
    assert resp.status_code == 200
    assert REQUEST_ID.fullmatch(resp.headers["x-request-id"])
    datasets = {d["id"]: d for d in resp.json()["datasets"]}
    assert datasets["fda_483"]["date_field"] == "record_date"
    assert datasets["fda_crl"]["enterprise"] is True
    assert "filters" not in datasets["ema_epar"] and datasets["ema_epar"]["available"] is False


async def test_document_read_by_page_range(client: httpx.AsyncClient, keys: dict) -> None:
    doc = await document_id(client, keys["ent"], "fda_483", "Form 483 long record")
    url = f"/api/v3/documents/{doc}"
    resp = await client.get(url, params={"page_from": 2, "page_to": 3}, headers=h(keys["free"]))
    assert resp.status_code == 200
    assert REQUEST_ID.fullmatch(resp.headers["x-request-id"])
    body = resp.json()
    assert body["document_id"] == doc and body["total_pages"] == 7
    assert [p["page_num"] for p in body["pages"]] == [2, 3]
    assert body["next_page_from"] == 4

    whole = (await client.get(url, headers=h(keys["free"]))).json()
    assert [p["page_num"] for p in whole["pages"]] == list(range(1, 8))
    assert whole["next_page_from"] is None

    past = (await client.get(url, params={"page_from": 9}, headers=h(keys["free"]))).json()
    assert past["pages"] == [] and past["next_page_from"] is None


async def test_document_of_enterprise_dataset_is_forbidden_on_other_plans(
    client: httpx.AsyncClient, keys: dict
) -> None:
    doc = await document_id(client, keys["ent"], "fda_crl", "Complete response letter to Gamma Bio")
    for role in ("paid", "free"):
        resp = await client.get(f"/api/v3/documents/{doc}", headers=h(keys[role]))
        assert_v3_error(resp, 403, "forbidden", "document_id")
    resp = await client.get(f"/api/v3/documents/{doc}", headers=h(keys["ent"]))
    assert resp.status_code == 200


async def test_legacy_search_and_contents(client: httpx.AsyncClient, keys: dict) -> None:
    resp = await client.post(
        "/api/search",
        json={"query_text": "sterility review", "top_k": 3, "dataset_to_search": ["fda_483"]},
        headers=h(keys["ent"]),
    )
    assert resp.status_code == 200
    assert "x-request-id" not in resp.headers
    found = resp.json()
    assert len(found["results"]) == 3 and found["total"] >= 3
    hit = found["results"][0]
    assert hit["page_num"] >= 0 and "<b>" in hit["highlight"]

    for doc_id in (hit["doc_id"], hit["url"]):
        resp = await client.post(
            "/api/contents",
            json={"doc_id": doc_id, "top_k": 2, "offset": 1},
            headers=h(keys["ent"]),
        )
        assert resp.status_code == 200
        contents = resp.json()
        assert contents["doc_id"] == hit["doc_id"]
        assert [p["page_num"] for p in contents["pages"]] == [1, 2][: contents["total_pages"] - 1]


async def test_openapi_document_needs_no_key(client: httpx.AsyncClient) -> None:
    resp = await client.get("/api/v3/openapi.json")
    assert resp.status_code == 200
    assert REQUEST_ID.fullmatch(resp.headers["x-request-id"])
    doc = resp.json()
    assert doc["openapi"].startswith("3.1")
    assert {"/api/v3/search", "/api/v3/datasets", "/api/search", "/api/contents"} <= set(
        doc["paths"]
    )


async def test_every_request_gets_its_own_id(client: httpx.AsyncClient, keys: dict) -> None:
    ids = {(await client.get("/api/v3/datasets", headers=h(keys["ent"]))).headers["x-request-id"]}
    ids |= {(await client.get("/api/v3/datasets")).headers["x-request-id"] for _ in range(3)}
    assert len(ids) == 4


# --- 400: body, types, ranges, datasets, filters ------------------------------------------

RAW_BODIES = [
    pytest.param(b"{not json", id="unparseable"),
    pytest.param(b"", id="empty"),
    pytest.param(b"keywords=sterility", id="form-encoded"),
    pytest.param(b"[1, 2]", id="array"),
    pytest.param(b'"sterility"', id="string"),
    pytest.param(b"null", id="null"),
    pytest.param(b"\xff\xfe\x00", id="not-utf8"),
    pytest.param(b'{"keywords": ["sterility"], "limit": NaN}', id="nan"),
    pytest.param(b'{"keywords": ["sterility"], "offset": Infinity}', id="infinity"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deep"),
]


@pytest.mark.parametrize("raw", RAW_BODIES)
async def test_body_that_is_not_a_json_object(
    client: httpx.AsyncClient, keys: dict, raw: bytes
) -> None:
    resp = await client.post("/api/v3/search", content=raw, headers=h(keys["ent"]))
    assert_v3_error(resp, 400, "invalid_request")


BAD_SEARCHES = [
    ({"keywords": ABSENT}, "invalid_request", "keywords"),
    ({"keywords": None}, "invalid_request", "keywords"),
    ({"keywords": "sterility"}, "invalid_request", "keywords"),
    ({"keywords": {"a": 1}}, "invalid_request", "keywords"),
    ({"keywords": []}, "invalid_request", "keywords"),
    ({"keywords": ["sterility"] * 21}, "invalid_request", "keywords"),
    ({"keywords": ["a" * 301]}, "invalid_request", "keywords[0]"),
    ({"keywords": ["sterility", 5]}, "invalid_request", "keywords[1]"),
    ({"keywords": ["the"]}, "invalid_request", "keywords[0]"),
    ({"query": 5}, "invalid_request", "query"),
    ({"query": "q" * 2001}, "invalid_request", "query"),
    ({"limit": 0}, "invalid_request", "limit"),
    ({"limit": 51}, "invalid_request", "limit"),
    ({"limit": 1.0}, "invalid_request", "limit"),
    ({"limit": True}, "invalid_request", "limit"),
    ({"limit": "5"}, "invalid_request", "limit"),
    ({"limit": 10**20}, "invalid_request", "limit"),
    ({"offset": -1}, "invalid_request", "offset"),
    ({"offset": 501}, "invalid_request", "offset"),
    ({"offset": 2.5}, "invalid_request", "offset"),
    ({"datasets": "fda_483"}, "invalid_request", "datasets"),
    ({"datasets": []}, "invalid_request", "datasets"),
    ({"datasets": [5]}, "invalid_request", "datasets[0]"),
    ({"datasets": ["fda_483", "nope"]}, "unknown_dataset", "datasets[1]"),
    ({"date_from": "2021-13-01"}, "invalid_request", "date_from"),
    ({"date_to": "yesterday"}, "invalid_request", "date_to"),
    ({"date_from": 2021}, "invalid_request", "date_from"),
    ({"date_from": "2022-01-01", "date_to": "2021-01-01"}, "invalid_request", "date_from"),
    ({"filters": []}, "invalid_filter", "filters"),
    ({"filters": {"fda_483": "Acme"}}, "invalid_filter", "filters.fda_483"),
    ({"filters": {"fda_483": {"nope": "x"}}}, "invalid_filter", "filters.fda_483.nope"),
    (
        {"filters": {"fda_483": {"facility_name": 5}}},
        "invalid_filter",
        "filters.fda_483.facility_name",
    ),
    (
        {"filters": {"fda_guidance": {"status": "withdrawn"}}},
        "invalid_filter",
        "filters.fda_guidance.status",
    ),
    (
        {"datasets": ["fda_483"], "filters": {"fda_recalls": {"company": "Beta"}}},
        "invalid_filter",
        "filters.fda_recalls",
    ),
    (
        {"date_from": "2020-01-01", "filters": {"fda_483": {"date_from": "2020-01-01"}}},
        "invalid_filter",
        "filters.fda_483.date_from",
    ),
]


@pytest.mark.parametrize(("extra", "code", "field"), BAD_SEARCHES)
async def test_search_rejects_bad_values(
    client: httpx.AsyncClient, keys: dict, extra: dict, code: str, field: str
) -> None:
    body = {"keywords": ["sterility"], **extra}
    body = {k: v for k, v in body.items() if v is not ABSENT}
    resp = await client.post("/api/v3/search", json=body, headers=h(keys["ent"]))
    assert_v3_error(resp, 400, code, field)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (b'{"keywords": ["x\\ud800"]}', "keywords[0]"),
        (b'{"keywords": ["sterility"], "query": "\\udfff"}', "query"),
        (b'{"keywords": ["sterility"], "filters": {"fda_483": {"title": "\\ud800"}}}', None),
        (b'{"keywords": ["sterility"], "limit": 123456789012345678901234567890}', "limit"),
    ],
)
async def test_search_rejects_values_python_would_accept(
    client: httpx.AsyncClient, keys: dict, raw: bytes, field: str | None
) -> None:
    resp = await client.post("/api/v3/search", content=raw, headers=h(keys["ent"]))
    error = assert_v3_error(resp, 400, "invalid_request", field or "filters.fda_483.title")
    assert error["message"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("page_from=0", "page_from"),
        ("page_from=-1", "page_from"),
        ("page_from=abc", "page_from"),
        ("page_from=1.5", "page_from"),
        ("page_from=", "page_from"),
        ("page_from=2%0A", "page_from"),
        ("page_to=0", "page_to"),
        ("page_to=x", "page_to"),
        ("page_from=3&page_to=2", "page_to"),
        ("page_from=99999999999999999999999", "page_from"),
    ],
)
async def test_document_read_rejects_bad_page_ranges(
    client: httpx.AsyncClient, keys: dict, query: str, field: str
) -> None:
    doc = await document_id(client, keys["ent"], "fda_483", "Form 483 long record")
    resp = await client.get(f"/api/v3/documents/{doc}?{query}", headers=h(keys["ent"]))
    assert_v3_error(resp, 400, "invalid_request", field)


# --- 401, 404, 405 -----------------------------------------------------------------------

ENDPOINTS = [
    ("POST", "/api/v3/search", {"json": {"keywords": ["sterility"]}}),
    ("GET", "/api/v3/datasets", {}),
    ("GET", "/api/v3/documents/abc", {}),
]


@pytest.mark.parametrize(("method", "path", "kwargs"), ENDPOINTS)
@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({}, "missing_api_key"),
        ({"x-api-key": ""}, "missing_api_key"),
        ({"x-api-key": "rnb_not-a-key"}, "invalid_api_key"),
    ],
)
async def test_v3_needs_a_valid_key(
    client: httpx.AsyncClient, method: str, path: str, kwargs: dict, headers: dict, code: str
) -> None:
    resp = await client.request(method, path, headers=headers, **kwargs)
    assert_v3_error(resp, 401, code)


async def test_key_is_checked_before_the_body(client: httpx.AsyncClient) -> None:
    resp = await client.post("/api/v3/search", content=b"{bad")
    assert_v3_error(resp, 401, "missing_api_key")


async def test_deleted_key_is_refused_at_once(
    client: httpx.AsyncClient, accounts: Accounts, keys: dict
) -> None:
    assert (await client.get("/api/v3/datasets", headers=h(keys["paid"]))).status_code == 200
    assert accounts.delete_key(keys["paid"]) is not None
    resp = await client.get("/api/v3/datasets", headers=h(keys["paid"]))
    assert_v3_error(resp, 401, "invalid_api_key")
    assert (await client.get("/api/v3/datasets", headers=h(keys["free"]))).status_code == 200


async def test_plan_change_applies_to_the_next_request(
    client: httpx.AsyncClient, accounts: Accounts, keys: dict
) -> None:
    doc = await document_id(client, keys["ent"], "fda_crl", "Complete response letter to Gamma Bio")
    accounts.set_plan("acme", "paid")
    resp = await client.get(f"/api/v3/documents/{doc}", headers=h(keys["ent"]))
    assert_v3_error(resp, 403, "forbidden", "document_id")


async def test_unknown_document_is_not_found(client: httpx.AsyncClient, keys: dict) -> None:
    resp = await client.get("/api/v3/documents/no-such-document", headers=h(keys["ent"]))
    assert_v3_error(resp, 404, "not_found", "document_id")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/v3"),
        ("GET", "/api/v3/"),
        ("GET", "/api/v3/nope"),
        ("POST", "/api/v3/search/"),
        ("GET", "/api/v3/datasets/fda_483"),
        ("GET", "/api/v3/documents/"),
        ("GET", "/api/v3/documents/a/b"),
        ("GET", "/api/v3/conversation"),
        ("POST", "/api/v3/searches"),
        ("DELETE", "/api/v3/anything/at/all"),
    ],
)
async def test_path_that_is_not_an_endpoint_is_not_found(
    client: httpx.AsyncClient, keys: dict, method: str, path: str
) -> None:
    for headers in ({}, h(keys["ent"])):
        resp = await client.request(method, path, headers=headers)
        assert_v3_error(resp, 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/api/v3/search", {"POST"}),
        ("PUT", "/api/v3/search", {"POST"}),
        ("POST", "/api/v3/datasets", {"GET", "HEAD"}),
        ("DELETE", "/api/v3/documents/abc", {"GET", "HEAD"}),
        ("POST", "/api/v3/openapi.json", {"GET", "HEAD"}),
    ],
)
async def test_wrong_method_is_not_allowed(
    client: httpx.AsyncClient, keys: dict, method: str, path: str, allowed: set[str]
) -> None:
    resp = await client.request(method, path, headers=h(keys["ent"]))
    assert_v3_error(resp, 405, "method_not_allowed")
    assert {m.strip() for m in resp.headers["allow"].split(",")} == allowed


class CatalogFails:
    """An engine whose dataset list raises an error that names a field."""

    def __init__(self, engine: regnb.Engine) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def datasets(self) -> Any:
        raise InvalidRequest("the catalog says no", field="catalog")


async def test_dataset_list_errors_omit_field(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    app = create_app(CatalogFails(engine), accounts=accounts)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        resp = await client.get("/api/v3/datasets", headers=h(keys["ent"]))
        assert_v3_error(resp, 400, "invalid_request")
        resp = await client.post("/api/v3/datasets", headers=h(keys["ent"]))
        assert_v3_error(resp, 405, "method_not_allowed")


# --- legacy errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/search", b"{bad"),
        ("/api/search", b"[]"),
        ("/api/search", json.dumps({}).encode()),
        ("/api/search", json.dumps({"query_text": 5}).encode()),
        ("/api/search", json.dumps({"query_text": "a", "top_k": 0}).encode()),
        ("/api/search", json.dumps({"query_text": "a", "top_k": 101}).encode()),
        ("/api/search", json.dumps({"query_text": "a", "top_k": 2.0}).encode()),
        ("/api/search", json.dumps({"query_text": "a", "offset": -1}).encode()),
        ("/api/search", json.dumps({"query_text": "a", "dataset_to_search": ["x"]}).encode()),
        ("/api/search", json.dumps({"query_text": "a", "year_from": "2020"}).encode()),
        ("/api/contents", b"{bad"),
        ("/api/contents", json.dumps({}).encode()),
        ("/api/contents", json.dumps({"doc_id": "a/b", "top_k": 0}).encode()),
        ("/api/contents", json.dumps({"doc_id": "a/b", "offset": 2**60}).encode()),
    ],
)
async def test_legacy_bad_request(
    client: httpx.AsyncClient, keys: dict, path: str, body: bytes
) -> None:
    resp = await client.post(path, content=body, headers=h(keys["ent"]))
    assert_legacy_error(resp, 400)


@pytest.mark.parametrize("path", ["/api/search", "/api/contents"])
async def test_legacy_needs_a_valid_key(client: httpx.AsyncClient, path: str) -> None:
    missing = assert_legacy_error(await client.post(path, json={"query_text": "a"}), 401)
    invalid = assert_legacy_error(
        await client.post(path, json={"query_text": "a"}, headers=h("nope")), 401
    )
    assert missing != invalid


async def test_legacy_contents_of_unknown_document(client: httpx.AsyncClient, keys: dict) -> None:
    resp = await client.post(
        "/api/contents", json={"doc_id": "fda_483/nope"}, headers=h(keys["ent"])
    )
    assert_legacy_error(resp, 404)


async def test_legacy_wrong_method(client: httpx.AsyncClient) -> None:
    resp = await client.get("/api/search")
    assert_legacy_error(resp, 405)
    assert resp.headers["allow"] == "POST"
