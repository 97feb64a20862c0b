"""The firm endpoints over HTTP (extensions): `GET /api/v3/firms?q=` and
`GET /api/v3/firms/{id}/timeline` answer what the engine's `firm` and `timeline` return, with the
spec's errors, authentication, plans and rate limits."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

import regnb
from regnb.firms.timeline import FIRM_COLUMNS, TIMELINE_COLUMNS, firm_records, timeline_records
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.openapi.firms import firm_schemas
from regnb.server.testing import FakeClock
from regnb.settings import Settings
from tests.firm_corpus import FEI, firm_documents

from .test_openapi import DOC, validate
from .test_server import assert_v3_error, h

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def firm_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    root = tmp_path_factory.mktemp("firms")
    regnb.write_corpus(
        root / "corpus", firm_documents(), encoder=regnb.HashingEncoder(), progress=False
    )
    settings = Settings(**{**Settings.from_env().__dict__, "home": root / "home"})
    with regnb.Engine(
        root / "corpus", encoder=regnb.HashingEncoder(), settings=settings, progress=False
    ) as eng:
        yield eng


@pytest.fixture
async def client(firm_engine: regnb.Engine, accounts: Accounts) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(firm_engine, accounts=accounts, clock=FakeClock())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as c:
        yield c


async def get(client: httpx.AsyncClient, path: str, key: str | None) -> httpx.Response:
    resp = await client.get(path, headers=h(key) if key else {})
    validate(resp)
    return resp


async def test_firms_answers_the_engines_candidates(client, keys, firm_engine):
    resp = await get(client, "/api/v3/firms?q=Hospira", keys["ent"])
    assert resp.status_code == 200
    assert resp.json() == {"firms": firm_records(firm_engine.firm("Hospira"))}
    assert [f["match"] for f in resp.json()["firms"]] == ["name", "prefix"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (f"q=FEI%20{FEI}", ["identifier"]),
        ("q=Hospira&limit=1", ["name"]),
        ("q=Hospira&datasets=fda_warning_letters", ["name", "prefix"]),
        ("q=Hospira&datasets=fda_guidance,fda_483", ["name"]),
        ("q=Moderna", []),
    ],
)
async def test_firms_reads_its_query_parameters(client, keys, query, expected):
    resp = await get(client, f"/api/v3/firms?{query}", keys["ent"])
    assert [f["match"] for f in resp.json()["firms"]] == expected


async def test_a_plan_counts_only_what_it_may_read(client, keys):
    free = (await get(client, "/api/v3/firms?q=Hospira", keys["free"])).json()["firms"][0]
    ent = (await get(client, "/api/v3/firms?q=Hospira", keys["ent"])).json()["firms"][0]
    assert "fda_crl" in ent["datasets"] and "fda_crl" not in free["datasets"]
    assert free["documents"] == ent["documents"] - 1


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("", "q"),
        ("q=", "q"),
        ("q=%20%20", "q"),
        ("q=Hospira&limit=0", "limit"),
        ("q=Hospira&limit=x", "limit"),
        ("q=Hospira&limit=101", "limit"),
        ("q=Hospira&datasets=fda_nope", "datasets[0]"),
        ("q=Hospira&datasets=fda_483,", "datasets[1]"),
        ("q=Hospira&dataset=fda_483", "dataset"),
    ],
)
async def test_a_bad_query_is_400_naming_the_field(client, keys, query, field):
    resp = await get(client, f"/api/v3/firms?{query}", keys["ent"])
    assert resp.status_code == 400
    assert resp.json()["error"]["field"] == field


async def test_the_timeline_answers_the_firm_and_its_events(client, keys, firm_engine):
    firm = firm_engine.firm("Hospira").iloc[0]
    resp = await get(client, f"/api/v3/firms/{firm['id']}/timeline", keys["ent"])
    assert resp.status_code == 200
    timeline = firm_engine.timeline(firm["id"])
    assert resp.json() == {"firm": timeline.firm, "events": timeline_records(timeline)}
    assert resp.json()["events"][0]["date"] == "2019-03-01"


async def test_the_timeline_follows_the_plan(client, keys):
    firm = (await get(client, "/api/v3/firms?q=Hospira", keys["ent"])).json()["firms"][0]
    free = await get(client, f"/api/v3/firms/{firm['id']}/timeline", keys["free"])
    assert "fda_crl" not in {e["dataset"] for e in free.json()["events"]}
    assert free.json()["firm"]["documents"] == len(free.json()["events"])


async def test_an_unknown_firm_is_404_naming_the_firm(client, keys):
    resp = await get(client, "/api/v3/firms/no-such-firm-000000/timeline", keys["ent"])
    assert_v3_error(resp, 404, "not_found", "firm_id")


async def test_the_timeline_takes_no_query_parameter(client, keys):
    resp = await get(client, "/api/v3/firms/no-such-firm-000000/timeline?limit=5", keys["ent"])
    assert_v3_error(resp, 400, "invalid_request", "limit")


@pytest.mark.parametrize(
    "path", ["/api/v3/firms?q=Hospira", "/api/v3/firms/hospira-000000/timeline"]
)
async def test_the_firm_endpoints_need_a_key(client, path):
    assert_v3_error(await get(client, path, None), 401, "missing_api_key")
    assert_v3_error(await get(client, path, "nope"), 401, "invalid_api_key")


async def test_the_firm_endpoints_count_against_the_rate_limit(
    firm_engine: regnb.Engine, accounts: Accounts, keys: dict[str, str], tmp_path: Path
):
    settings = Settings(**{**firm_engine.settings.__dict__, "rate_limit_per_minute": 2})
    app = create_app(firm_engine, settings=settings, accounts=accounts, clock=FakeClock())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as c:
        statuses = [
            (await get(c, "/api/v3/firms?q=Hospira", keys["ent"])).status_code for _ in range(3)
        ]
    assert statuses == [200, 200, 429]


def test_the_document_describes_the_extensions_columns() -> None:
    schemas = firm_schemas()
    assert tuple(schemas["Firm"]["properties"]) == FIRM_COLUMNS
    assert tuple(schemas["TimelineEvent"]["properties"]) == TIMELINE_COLUMNS
    for path in ("/api/v3/firms", "/api/v3/firms/{firm_id}/timeline"):
        assert DOC["paths"][path]["get"]["summary"].startswith("regnb's extension")
