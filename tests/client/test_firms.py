"""Firms over HTTP through the remote clients: `firm` and `timeline` give the local engine's
frames, the same errors, and FeatureNotOffered from a server without the extension."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pandas.testing as pdt
import pytest

import regnb
from regnb.client import AsyncClient, Client, connect
from regnb.client import _calls as calls
from regnb.client._extensions import offered
from regnb.client.testing import AppTransport, Unclosed
from regnb.errors import FeatureNotOffered, InvalidRequest, NotFound, UnknownDataset
from regnb.firms.timeline import Timeline
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import make_keys
from regnb.settings import Settings
from tests.firm_corpus import FEI, firm_documents

BASE = "http://regnb.test"


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    root = tmp_path_factory.mktemp("firms")
    regnb.write_corpus(
        root / "corpus", firm_documents(), encoder=regnb.HashingEncoder(), progress=False
    )
    settings = Settings(**{**Settings.from_env().__dict__, "home": root / "home"})
    with regnb.Engine(
        root / "corpus", encoder=regnb.HashingEncoder(), settings=settings, progress=False
    ) as eng:
        yield eng


@pytest.fixture(scope="module")
def app(local: regnb.Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    accounts = Accounts(tmp_path_factory.mktemp("keys") / "accounts.sqlite3")
    settings = dataclasses.replace(local.settings, rate_limit_per_minute=0)
    app = create_app(local, settings=settings, accounts=accounts)
    app.state.keys = make_keys(accounts)
    yield app
    app.state.regnb.conversations.close()
    accounts.close()


@pytest.fixture(scope="module")
def remote(app: Any) -> Iterator[Client]:
    transport = AppTransport(app)
    with connect(BASE, app.state.keys["ent"], transport=Unclosed(transport)) as client:
        yield client
    transport.close()


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("Hospira",), {}),
        ((f"FEI {FEI}",), {}),
        (("Hospira",), {"datasets": ["fda_warning_letters"], "limit": 1}),
        (("Moderna",), {}),
    ],
)
def test_firm_gives_the_local_engines_frame(
    remote: Client, local: regnb.Engine, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    pdt.assert_frame_equal(remote.firm(*args, **kwargs), local.firm(*args, **kwargs))


def test_timeline_gives_the_local_engines_timeline(remote: Client, local: regnb.Engine) -> None:
    row = remote.firm("Hospira").iloc[0]
    found = remote.timeline(row)
    assert isinstance(found, Timeline)
    expected = local.timeline(row["id"])
    pdt.assert_frame_equal(found, expected)
    assert found.firm == expected.firm
    assert found.plot().axes[0].get_title()


@pytest.mark.parametrize(
    ("call", "error", "field"),
    [
        (lambda e: e.firm(""), InvalidRequest, "name_or_id"),
        (lambda e: e.firm("Hospira", limit=0), InvalidRequest, "limit"),
        (lambda e: e.firm("Hospira", datasets=["fda_nope"]), UnknownDataset, "datasets[0]"),
        (lambda e: e.firm("Hospira", datasets="fda_483"), InvalidRequest, "datasets"),
        (lambda e: e.firm("Hospira", plan="free"), InvalidRequest, "plan"),
        (lambda e: e.timeline("no-such-firm-000000"), NotFound, "firm_id"),
        (lambda e: e.timeline(""), InvalidRequest, "entity"),
    ],
)
def test_errors_are_the_engines_classes(remote: Client, call: Any, error: type, field: str) -> None:
    with pytest.raises(error) as caught:
        call(remote)
    assert caught.value.field == field


def test_the_async_client_gives_the_same(app: Any, local: regnb.Engine) -> None:
    async def run() -> None:
        transport = httpx.ASGITransport(app=app)
        async with AsyncClient(BASE, app.state.keys["ent"], transport=transport) as eng:
            found = await eng.firm("Hospira")
            timeline = await eng.timeline(found.iloc[0])
        pdt.assert_frame_equal(found, local.firm("Hospira"))
        pdt.assert_frame_equal(timeline, local.timeline(found.iloc[0]["id"]))

    anyio.run(run)


def older_server(request: httpx.Request) -> httpx.Response:
    """A server whose OpenAPI document lists no firm path, and which has none."""
    if request.url.path == "/api/v3/openapi.json":
        return httpx.Response(200, json={"paths": {"/api/v3/search": {}}})
    error = {"code": "not_found", "message": "no route", "request_id": "req_1"}
    return httpx.Response(404, json={"error": error})


def listed_but_gone(request: httpx.Request) -> httpx.Response:
    """A server whose document lists the firm path, which then answers 404 without a field."""
    if request.url.path == "/api/v3/openapi.json":
        return httpx.Response(200, json={"paths": {"/api/v3/firms": {}}})
    return older_server(request)


@pytest.mark.parametrize("handler", [older_server, listed_but_gone])
@pytest.mark.parametrize(
    "call", [lambda e: e.firm("Hospira"), lambda e: e.timeline("hospira-000000")]
)
def test_a_server_without_the_extension_is_said_not_to_offer_it(handler: Any, call: Any) -> None:
    eng = Client(BASE, "key", transport=httpx.MockTransport(handler))
    with eng, pytest.raises(FeatureNotOffered) as caught:
        call(eng)
    assert caught.value.field == "firms" and "does not offer" in caught.value.message


def test_a_server_lists_the_extension_by_its_path() -> None:
    assert "firms" in offered({"paths": {"/api/v3/firms": {}}})
    assert "firms" not in offered({"paths": {"/api/v3/search": {}}})


@pytest.mark.parametrize(
    ("args", "params"),
    [
        (("Hospira", None, 20), {"q": "Hospira", "limit": 20}),
        (
            ("Hospira", ["fda_483", "fda_crl"], 5),
            {"q": "Hospira", "limit": 5, "datasets": "fda_483,fda_crl"},
        ),
    ],
)
def test_the_firms_call_sends_its_query(args: tuple[Any, ...], params: dict[str, Any]) -> None:
    call = calls.firms(*args)
    assert (call.method, call.path, dict(call.params or {})) == ("GET", "/api/v3/firms", params)


def test_the_timeline_call_encodes_the_id() -> None:
    assert calls.timeline("a b/c").path == "/api/v3/firms/a%20b%2Fc/timeline"
