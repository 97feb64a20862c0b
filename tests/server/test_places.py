"""Where a firm is, over HTTP: unchanged by default (the interface's fields only), `"places":
true` on a search, `country:IN` with `"syntax": "query"`, facets and every match's fields; and
the remote client asks for and reads them as the local engine answers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pandas.testing as pdt
import pytest
from starlette.applications import Starlette

import regnb
from regnb.client import connect
from regnb.client.testing import AppTransport, Unclosed
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import FakeClock, make_keys
from tests.places_corpus import places_engine

from .test_openapi import validate
from .test_server import assert_v3_error, h

BASE = "http://regnb.test"
PLACES = ("country", "state", "city")


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    yield from places_engine(tmp_path_factory.mktemp("places"))


@pytest.fixture
async def client(eng: regnb.Engine, accounts: Accounts) -> AsyncIterator[httpx.AsyncClient]:
    app: Starlette = create_app(eng, accounts=accounts, clock=FakeClock())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as c:
        yield c


async def post(client: httpx.AsyncClient, path: str, key: str, body: dict[str, Any]) -> Any:
    resp = await client.post(path, json=body, headers=h(key))
    validate(resp)
    return resp


@pytest.mark.anyio
async def test_a_search_without_places_has_the_interfaces_fields_only(client, keys, eng):
    body = {"keywords": ["sterility"], "datasets": ["fda_warning_letters", "fda_483"]}
    resp = await post(client, "/api/v3/search", keys["ent"], body)
    assert resp.status_code == 200
    results = resp.json()["results"]
    assert results and all(not set(PLACES) & set(r["fields"]) for r in results)
    f483 = next(r for r in results if r["dataset"] == "fda_483")
    assert list(f483["fields"]) == eng.datasets()["fda_483"].fields


@pytest.mark.anyio
async def test_a_search_with_places_has_each_firms_place(client, keys, eng):
    body = {"keywords": ["sterility"], "datasets": ["fda_warning_letters"], "places": True}
    resp = await post(client, "/api/v3/search", keys["ent"], body)
    assert resp.status_code == 200
    fields = {r["title"]: r["fields"] for r in resp.json()["results"]}
    assert {k: fields["Letter to Maple Generics"][k] for k in PLACES} == {
        "country": "CA",
        "state": "ON",
        "city": "Toronto",
    }
    assert fields["Letter to Nowhere Inc"]["country"] is None
    local = eng.search(["sterility"], datasets=["fda_warning_letters"], places=True)
    assert resp.json() == local.to_dict()


@pytest.mark.anyio
async def test_a_place_narrows_a_search_in_the_query_syntax(client, keys):
    body = {"keywords": ["sterility -country:US"], "syntax": "query", "limit": 50}
    resp = await post(client, "/api/v3/search", keys["ent"], body)
    assert resp.status_code == 200
    assert {r["title"] for r in resp.json()["results"]} == {
        "Letter to Deccan Labs",
        "Letter to Pudong Chemicals",
        "Letter to Maple Generics",
        "Letter to Nowhere Inc",
        "Complete response to Rhine Biologics",
        "Guidance naming Houston, TX",  # a guidance has no place: nothing excludes it
    }


@pytest.mark.anyio
async def test_facets_and_matches_have_the_places(client, keys):
    body = {"keywords": ["sterility"], "facets": ["country", {"name": "state", "size": 2}]}
    facets = (await post(client, "/api/v3/search", keys["ent"], body)).json()["facets"]
    assert facets["country"][0] == {"value": "US", "documents": 6, "pages": 6}
    assert [r["value"] for r in facets["state"]] == ["TX", "CA", "(other)"]
    resp = await post(client, "/api/v3/matches", keys["ent"], {"keywords": ["sterility"]})
    rows = {m["title"]: m["fields"] for m in resp.json()["matches"]}
    assert rows["Recall by Thompson Foods"]["state"] == "FL"
    assert rows["Guidance naming Houston, TX"]["country"] is None  # every field, null if none


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"places": "yes"}, "invalid_request", "places"),
        ({"filters": {"fda_483": {"country": "US"}}}, "invalid_filter", "filters.fda_483.country"),
        ({"facets": ["county"]}, "invalid_request", "facets[0]"),
    ],
)
async def test_places_are_no_filters_of_the_interface(client, keys, body, code, field):
    resp = await post(client, "/api/v3/search", keys["ent"], {"keywords": ["sterility"], **body})
    error = assert_v3_error(resp, 400, code, field)
    if field == "facets[0]":
        assert "did you mean 'country'" in error["message"]


# --- the remote client -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def remote(eng: regnb.Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("client")
    accounts = Accounts(folder / "accounts.sqlite3")
    app = create_app(eng, accounts=accounts)
    transport = AppTransport(app)
    keys = make_keys(accounts)
    with connect(BASE, keys["ent"], transport=Unclosed(transport)) as client:
        yield client
    transport.close()
    app.state.regnb.conversations.close()
    accounts.close()


def test_a_remote_search_with_places_answers_as_a_local_one(remote, eng):
    for args in (
        {"keywords": ["sterility state:TX"]},
        {"keywords": ["sterility"], "places": True},
        {"keywords": ["sterility country:IN"], "places": True, "facets": ["city"]},
    ):
        got, want = remote.search(**args), eng.search(**args)
        assert got.to_dict() == want.to_dict()
        pdt.assert_frame_equal(got.documents, want.documents)
    asked = remote.check_search(["sterility"], places=True)
    assert asked.places and remote.search(asked).to_dict() == eng.search(asked).to_dict()


def test_remote_facets_and_matches_have_the_places(remote, eng):
    got = remote.facets(["sterility"], by=["country"])["country"]
    pdt.assert_frame_equal(got, eng.facets(["sterility"], by=["country"])["country"])
    frame = remote.matches(["sterility"], datasets=["fda_warning_letters"])
    assert {"country", "state", "city"} <= set(frame.columns)
    local = eng.matches(["sterility"], datasets=["fda_warning_letters"])
    pdt.assert_frame_equal(frame, local)


@pytest.mark.anyio
async def test_a_place_alone_finds_its_firms_only_in_the_query_syntax(client, keys, eng):
    body = {"keywords": ["country:IN"], "syntax": "query", "limit": 50}
    resp = await post(client, "/api/v3/search", keys["ent"], body)
    assert resp.status_code == 200
    assert {r["title"] for r in resp.json()["results"]} == {"Letter to Deccan Labs"}
    # the interface's request reads the item as plain words ("country", "in"), as it always has
    plain = await post(client, "/api/v3/search", keys["ent"], {"keywords": ["country:IN"]})
    assert plain.status_code == 200
    assert plain.json() == eng.search(["country:IN"], syntax="plain").to_dict()
    alone = {"keywords": ["-country:US"], "syntax": "query"}
    refused = await post(client, "/api/v3/search", keys["ent"], alone)
    assert_v3_error(refused, 400, "invalid_request", "keywords[0]")
