"""The v3 extensions over HTTP: `sort` and `facets` on search, and `/api/v3/matches`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

import regnb
from regnb.server import create_app
from regnb.server._v3 import MATCHES_LIMIT_MAX, matches_window
from regnb.server.accounts import Accounts
from regnb.server.testing import FakeClock

from .test_openapi import validate
from .test_server import ABSENT, assert_v3_error, h

pytestmark = pytest.mark.anyio


@pytest.fixture
async def client(engine: regnb.Engine, accounts: Accounts) -> AsyncIterator[httpx.AsyncClient]:
    app: Starlette = create_app(engine, accounts=accounts, clock=FakeClock())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as c:
        yield c


async def post(client: httpx.AsyncClient, path: str, key: str, body: dict[str, Any]) -> Any:
    resp = await client.post(path, json=body, headers=h(key))
    validate(resp)
    return resp


async def test_search_without_the_extensions_is_unchanged(client, keys, engine):
    resp = await post(client, "/api/v3/search", keys["ent"], {"keywords": ["sterility"]})
    assert resp.status_code == 200
    assert "facets" not in resp.json()
    assert resp.json() == engine.search(["sterility"]).to_dict()


async def test_search_with_facets_returns_them_beside_the_results(client, keys, engine):
    body = {"keywords": ["sterility"], "facets": ["dataset", {"name": "year", "size": 5}]}
    resp = await post(client, "/api/v3/search", keys["ent"], body)
    assert resp.status_code == 200
    facets = resp.json()["facets"]
    assert list(facets) == ["dataset", "year"]
    local = engine.facets(["sterility"], by=["dataset", "year"])
    assert facets["dataset"] == local["dataset"].to_dict("records")
    assert resp.json()["results"] == engine.search(["sterility"]).to_dict()["results"]


async def test_facets_follow_the_plan(client, keys):
    body = {"keywords": ["sterility"], "facets": ["dataset"]}
    free = (await post(client, "/api/v3/search", keys["free"], body)).json()["facets"]
    ent = (await post(client, "/api/v3/search", keys["ent"], body)).json()["facets"]
    assert "fda_crl" in [r["value"] for r in ent["dataset"]]
    assert "fda_crl" not in [r["value"] for r in free["dataset"]]


async def test_search_sorted_by_date(client, keys):
    body = {"keywords": ["sterility"], "sort": "date", "limit": 50}
    resp = await post(client, "/api/v3/search", keys["ent"], body)
    dates = [r["date"] for r in resp.json()["results"]]
    assert dates == sorted(dates, reverse=True)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"sort": "newest"}, "sort"),
        ({"facets": ["yeer"]}, "facets[0]"),
        ({"facets": "year"}, "facets"),
        ({"facets": [{"name": "year", "size": 2000}]}, "facets[0].size"),
    ],
)
async def test_bad_extension_fields_are_invalid_requests(client, keys, extra, field):
    resp = await post(client, "/api/v3/search", keys["ent"], {"keywords": ["sterility"], **extra})
    error = assert_v3_error(resp, 400, "invalid_request", field)
    if field == "facets[0]":
        assert "did you mean 'year'" in error["message"]


async def test_matches_pages_through_every_matching_document(client, keys, engine):
    whole = engine.matches(["sterility"], order="date")
    got, offset = [], 0
    while offset is not None:
        body = {"keywords": ["sterility"], "limit": 4, "offset": offset}
        page = (await post(client, "/api/v3/matches", keys["ent"], body)).json()
        assert page["total"] == len(whole)
        got += page["matches"]
        offset = page["next_offset"]
    assert [m["document_id"] for m in got] == whole["document_id"].tolist()
    assert got[0].keys() == {
        "document_id",
        "dataset",
        "title",
        "date",
        "url",
        "cfr",
        "bm25",
        "pages",
        "fields",
    }


async def test_matches_order_and_filters(client, keys):
    body = {"keywords": ["sterility"], "order": "bm25", "datasets": ["fda_483"]}
    found = (await post(client, "/api/v3/matches", keys["ent"], body)).json()
    scores = [m["bm25"] for m in found["matches"]]
    assert scores == sorted(scores, reverse=True)
    assert {m["dataset"] for m in found["matches"]} == {"fda_483"}
    assert found["next_offset"] is None


async def test_matches_follow_the_plan(client, keys):
    body = {"keywords": ["sterility"]}
    free = (await post(client, "/api/v3/matches", keys["free"], body)).json()
    assert "fda_crl" not in {m["dataset"] for m in free["matches"]}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"keywords": ["sterility"], "order": "newest"}, "order"),
        ({"keywords": ["sterility"], "limit": 0}, "limit"),
        ({"keywords": ["sterility"], "limit": MATCHES_LIMIT_MAX + 1}, "limit"),
        ({"keywords": ["sterility"], "offset": -1}, "offset"),
        ({"keywords": []}, "keywords"),
        ({"query": "x"}, "keywords"),
        ({"keywords": ["sterility"], "datasets": ["fda_4833"]}, "datasets[0]"),
    ],
)
async def test_bad_matches_requests(client, keys, body, field):
    resp = await post(client, "/api/v3/matches", keys["ent"], body)
    code = "unknown_dataset" if field.startswith("datasets") else "invalid_request"
    assert_v3_error(resp, 400, code, field)


async def test_matches_need_a_key(client):
    resp = await client.post("/api/v3/matches", json={"keywords": ["sterility"]})
    assert_v3_error(resp, 401, "missing_api_key")


def test_matches_window_defaults_and_nulls():
    assert matches_window({}) == ("date", MATCHES_LIMIT_MAX, 0)
    assert matches_window({"order": None, "limit": None, "offset": None}) == (
        "date",
        MATCHES_LIMIT_MAX,
        0,
    )
    assert matches_window({"order": "bm25", "limit": 3, "offset": 9}) == ("bm25", 3, 9)


# --- strict requests: what the endpoint does not take is refused, naming it ------------------


@pytest.mark.parametrize(
    ("path", "field", "hint"),
    [
        ("/api/v3/datasets?foo=1", "foo", ""),
        ("/api/v3/openapi.json?foo=1", "foo", ""),
        ("/api/v3/documents/any?page_form=3", "page_form", "did you mean 'page_from'?"),
        ("/api/v3/firms/any/timeline?firm=1", "firm", ""),
    ],
)
async def test_a_query_parameter_an_endpoint_does_not_take_is_400(client, keys, path, field, hint):
    resp = await client.get(path, headers=h(keys["ent"]))
    named = ABSENT if path.startswith("/api/v3/datasets") else field  # the spec's list: no field
    error = assert_v3_error(resp, 400, "invalid_request", named)
    assert f"unknown query parameter '{field}'" in error["message"] and hint in error["message"]


@pytest.mark.parametrize(
    ("path", "body", "field", "hint"),
    [
        ("/api/v3/search", {"keywords": ["sterility"], "order": "date"}, "order", ""),
        ("/api/v3/search", {"keywords": ["sterility"], "limt": 5}, "limt", "'limit'"),
        ("/api/v3/matches", {"keywords": ["sterility"], "sort": "date"}, "sort", ""),
        ("/api/v3/matches", {"keywords": ["sterility"], "ordr": "date"}, "ordr", "'order'"),
    ],
)
async def test_a_body_field_an_endpoint_does_not_define_is_400_naming_the_closest(
    client, keys, path, body, field, hint
):
    resp = await client.post(path, json=body, headers=h(keys["ent"]))
    error = assert_v3_error(resp, 400, "invalid_request", field)
    assert f"unknown field '{field}'" in error["message"] and hint in error["message"]


async def test_the_spec_s_own_fields_and_parameters_still_answer(client, keys, engine):
    body = {"keywords": ["sterility"], "limit": 3, "offset": 0, "sort": "date", "facets": []}
    assert (
        await client.post("/api/v3/search", json=body, headers=h(keys["ent"]))
    ).status_code == 200
    window = {"keywords": ["sterility"], "order": "bm25", "limit": 2, "offset": 0}
    assert (
        await client.post("/api/v3/matches", json=window, headers=h(keys["ent"]))
    ).status_code == 200
    doc = engine.search(["sterility"]).results[0]["document_id"]
    resp = await client.get(
        f"/api/v3/documents/{doc}?page_from=1&page_to=1", headers=h(keys["ent"])
    )
    assert resp.status_code == 200
