"""The remote client against the server in-process: the same results and the same errors as
the local engine, for searches, reads, the catalog and the legacy endpoints."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pandas.testing as pdt
import pytest

import regnb
from regnb import errors
from regnb.client import Client, connect
from regnb.client.paging import read_all, search_all
from regnb.client.testing import AppTransport, ScriptedTransport, Unclosed
from regnb.interface import EngineAPI
from regnb.results import SearchResult
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.errors import http_status
from regnb.server.testing import make_keys

BASE = "http://regnb.test"
REQUEST_ID = re.compile(r"req_[0-9a-f]{24}")


@dataclasses.dataclass
class Server:
    transport: AppTransport
    keys: dict[str, str]

    def client(self, role: str = "ent", transport: httpx.BaseTransport | None = None, **kw: Any):
        return connect(BASE, self.keys[role], transport=transport or Unclosed(self.transport), **kw)


@pytest.fixture(scope="module")
def server(engine: regnb.Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One app over the module's sample engine, without a rate limit."""
    folder = tmp_path_factory.mktemp("client")
    accounts = Accounts(folder / "accounts.sqlite3")
    settings = dataclasses.replace(engine.settings, rate_limit_per_minute=0, public_url=BASE)
    app = create_app(engine, settings=settings, accounts=accounts)
    transport = AppTransport(app)
    yield Server(transport, make_keys(accounts))
    transport.close()
    app.state.regnb.conversations.close()
    accounts.close()


@pytest.fixture(scope="module")
def remote(server: Server) -> Iterator[Client]:
    with server.client() as client:
        yield client


def assert_same_search(remote_result: SearchResult, local_result: SearchResult) -> None:
    assert remote_result.to_dict() == local_result.to_dict()
    pdt.assert_frame_equal(remote_result.documents, local_result.documents)
    pdt.assert_frame_equal(remote_result.pages, local_result.pages)
    pdt.assert_frame_equal(remote_result.statuses, local_result.statuses)


SEARCHES: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("keywords only", (["sterility"],), {}),
    ("a keyword string", ("sterility",), {}),
    ("query ranks", (["sterility", "contamination"], "Who failed sterility testing?"), {}),
    ("one dataset keeps bm25", (["sterility"],), {"datasets": ["fda_483"]}),
    (
        "several datasets",
        (["aseptic processing"],),
        {"datasets": ["fda_guidance", "fda_483", "fda_warning_letters"]},
    ),
    ("filters", (["sterility"],), {"filters": {"fda_483": {"fei_number": "300-100-1"}}}),
    (
        "keyword filter",
        (["sterility"],),
        {
            "datasets": ["fda_warning_letters"],
            "filters": {"fda_warning_letters": {"company": "beta"}},
        },
    ),
    ("dates", (["sterility"],), {"date_from": "2021-02-01", "date_to": "2022-01-31"}),
    (
        "dated filter",
        (["sterility"],),
        {"filters": {"fda_483": {"date_from": "2021-03-01"}}, "datasets": ["fda_483"]},
    ),
    ("a page of results", (["sterility"],), {"limit": 2, "offset": 2}),
    ("past the end", (["sterility"],), {"offset": 400}),
    ("loosened", (["sterility zebra crossing"],), {"datasets": ["fda_483"]}),
    ("no match", (["zebra"],), {}),
    ("query syntax", (['"aseptic processing" -cleaning', "sterility OR zebra"],), {}),
    ("a phrase in one dataset", (['"sterility assurance"'],), {"datasets": ["fda_483"]}),
    ("a field, with a notice", (["sterility company:beta"],), {}),
    ("plain reading", (["sterility assurance"],), {"syntax": "plain"}),
]


@pytest.mark.parametrize(
    ("args", "kwargs"), [s[1:] for s in SEARCHES], ids=[s[0] for s in SEARCHES]
)
def test_a_remote_search_equals_the_local_one(remote: Client, engine, args, kwargs):
    remote_result, local_result = remote.search(*args, **kwargs), engine.search(*args, **kwargs)
    assert_same_search(remote_result, local_result)
    assert remote_result.notices == local_result.notices


@pytest.mark.parametrize("role", ["free", "paid"])
def test_a_key_of_another_plan_searches_as_that_plan(server: Server, engine, role: str):
    with server.client(role) as client:
        found = client.search(["sterility"], datasets=["fda_483", "fda_crl"])
    local = engine.search(["sterility"], datasets=["fda_483", "fda_crl"], plan=role)
    assert_same_search(found, local)
    assert found.dataset_statuses["fda_crl"]["status"] == "forbidden"


def test_a_checked_request_is_checked_as_the_engine_checks_it_and_runs_as_it_is(
    remote: Client, engine
):
    kwargs = {"datasets": ["fda_483"], "filters": {"fda_483": {"facility_name": "acme"}}}
    checked = remote.check_search(["sterility", "cleaning validation"], "why?", limit=3, **kwargs)
    assert checked == engine.check_search(
        ["sterility", "cleaning validation"], "why?", limit=3, **kwargs
    )
    assert_same_search(remote.search(checked), engine.search(checked))


BAD_SEARCHES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (([],), {}),
    ((["the of"],), {}),
    ((["x" * 301],), {}),
    ((["sterility"], "q" * 2001), {}),
    ((["sterility"],), {"datasets": ["fda_nope"]}),
    ((["sterility"],), {"datasets": []}),
    ((["sterility"],), {"filters": {"fda_483": {"colour": "red"}}}),
    ((["sterility"],), {"datasets": ["fda_483"], "filters": {"fda_guidance": {"center": "CDER"}}}),
    ((["sterility"],), {"date_from": "2021-02-30"}),
    ((["sterility"],), {"date_from": "2022-01-01", "date_to": "2021-01-01"}),
    (
        (["sterility"],),
        {"date_from": "2021-01-01", "filters": {"fda_483": {"date_from": "2021-01-01"}}},
    ),
    ((["sterility"],), {"limit": 51}),
    ((["sterility"],), {"offset": -1}),
]


@pytest.mark.parametrize(("args", "kwargs"), BAD_SEARCHES)
def test_a_bad_search_raises_what_the_engine_raises_checked_here_or_by_the_server(
    server: Server, engine, args, kwargs
):
    with pytest.raises(errors.RegnbError) as local:
        engine.search(*args, **kwargs)
    recorder = ScriptedTransport(Unclosed(server.transport))
    with server.client(transport=recorder) as client:
        with pytest.raises(errors.RegnbError) as by_server:
            client.search(*args, **kwargs)
        with pytest.raises(errors.RegnbError) as checked_here:
            client.check_search(*args, **kwargs)
    for raised in (by_server.value, checked_here.value):
        assert type(raised) is type(local.value)
        assert (raised.code, raised.field, http_status(raised)) == (
            local.value.code,
            local.value.field,
            http_status(local.value),
        )
    assert REQUEST_ID.fullmatch(by_server.value.request_id or "")
    assert checked_here.value.request_id is None
    paths = [r.url.path for r in recorder.requests]
    assert paths == ["/api/v3/search", "/api/v3/datasets"]  # the check fetched only the catalog


def test_the_catalog_equals_the_local_one_and_is_fetched_once(server: Server, engine):
    recorder = ScriptedTransport(Unclosed(server.transport))
    with server.client(transport=recorder) as client:
        first = client.datasets()
        assert client.datasets() is first
        client.datasets(refresh=True)
    assert first.to_dict() == engine.datasets().to_dict()
    pdt.assert_frame_equal(first.to_frame(), engine.datasets().to_frame())
    assert len(recorder.requests) == 2


def titles(engine: regnb.Engine) -> dict[str, str]:
    found = engine.search(["sterility"], limit=50)
    return {d["title"]: d["document_id"] for d in found.results}


@pytest.mark.parametrize(
    ("title", "page_from", "page_to"),
    [
        ("Form 483 long record", 1, None),
        ("Form 483 long record", 3, 5),
        ("Form 483 long record", 7, 7),
        ("Form 483 long record", 8, None),
        ("Sterile drug products produced by aseptic processing", 1, None),
    ],
)
def test_a_remote_read_equals_the_local_one(remote: Client, engine, title, page_from, page_to):
    document_id = titles(engine)[title]
    got = remote.read(document_id, page_from, page_to)
    want = engine.read(document_id, page_from, page_to)
    assert got.to_dict() == want.to_dict()
    pdt.assert_frame_equal(got.pages, want.pages)
    assert got.text == want.text


def test_search_all_and_read_all_remote_equal_local(remote: Client, engine):
    assert_same_search(
        remote.search_all(["sterility"], limit=3), search_all(engine, ["sterility"], limit=3)
    )
    assert (
        remote.search_all(["sterility"], limit=3).to_dict()
        == engine.search(["sterility"], limit=50).to_dict()
    )
    document_id = titles(engine)["Form 483 long record"]
    assert remote.read_all(document_id, 2).to_dict() == read_all(engine, document_id, 2).to_dict()


LEGACY_SEARCHES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (("sterility",), {}),
    (("sterility assurance", 5, 2), {}),
    (("sterility",), {"dataset_to_search": ["fda_warning_letters", "fda_guidance"]}),
    (("sterility",), {"year_from": 2021, "year_to": 2021}),
    (("zebra",), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), LEGACY_SEARCHES)
def test_a_remote_legacy_search_equals_the_local_one(remote: Client, engine, args, kwargs):
    got, want = remote.legacy_search(*args, **kwargs), engine.legacy_search(*args, **kwargs)
    assert got.to_dict() == want.to_dict()
    pdt.assert_frame_equal(got.results, want.results)


@pytest.mark.parametrize(("top_k", "offset"), [(10, 0), (2, 3), (10, 50)])
def test_remote_legacy_contents_equal_the_local_ones(remote: Client, engine, top_k, offset):
    hit = engine.legacy_search("long record sterility review", 1).rows[0]
    for doc_id in (hit["doc_id"], hit["url"]):
        got = remote.legacy_contents(doc_id, top_k, offset)
        want = engine.legacy_contents(doc_id, top_k, offset)
        assert got.to_dict() == want.to_dict()
        pdt.assert_frame_equal(got.pages, want.pages)


def crl_id(engine: regnb.Engine) -> str:
    return engine.search(["sterility"], datasets=["fda_crl"]).results[0]["document_id"]


# every error the server can produce for these calls, as the engine's class with request_id
SERVER_ERRORS: list[tuple[str, str, Any, type[errors.RegnbError], str | None]] = [
    (
        "unknown document",
        "ent",
        lambda c, e: c.read("no-such-document"),
        errors.NotFound,
        "document_id",
    ),
    (
        "enterprise document",
        "free",
        lambda c, e: c.read(crl_id(e)),
        errors.Forbidden,
        "document_id",
    ),
    ("page 0", "ent", lambda c, e: c.read(crl_id(e), 0), errors.InvalidRequest, "page_from"),
    (
        "pages backwards",
        "ent",
        lambda c, e: c.read(crl_id(e), 3, 2),
        errors.InvalidRequest,
        "page_to",
    ),
    (
        "payload too large",
        "ent",
        lambda c, e: c.search(["x"], "q" * 1_100_000),
        errors.PayloadTooLarge,
        None,
    ),
    (
        "unknown conversation",
        "ent",
        lambda c, e: c.read_conversation("conv_nope"),
        errors.NotFound,
        None,
    ),
    (
        "wait out of range",
        "ent",
        lambda c, e: c.read_conversation("conv_nope", 46),
        errors.InvalidRequest,
        "wait",
    ),
    (
        "list status",
        "ent",
        lambda c, e: c.list_conversations("done"),
        errors.InvalidRequest,
        "status",
    ),
    (
        "empty message",
        "ent",
        lambda c, e: c.start_conversation(" "),
        errors.InvalidRequest,
        "message",
    ),
    (
        "bad idempotency key",
        "ent",
        lambda c, e: c.start_conversation("hi", idempotency_key="a b"),
        errors.InvalidRequest,
        "Idempotency-Key",
    ),
]


@pytest.mark.parametrize(
    ("role", "call", "cls", "field"),
    [e[1:] for e in SERVER_ERRORS],
    ids=[e[0] for e in SERVER_ERRORS],
)
def test_a_server_error_raises_the_engines_class_with_its_request_id(
    server: Server, engine, role, call, cls, field
):
    with server.client(role) as client, pytest.raises(errors.RegnbError) as info:
        call(client, engine)
    assert type(info.value) is cls
    assert info.value.field == field
    assert http_status(info.value) == http_status(cls)
    assert REQUEST_ID.fullmatch(info.value.request_id or "")


def test_an_unknown_key_is_refused_on_v3_and_legacy_alike(server: Server):
    client = connect(BASE, "not-a-key", transport=Unclosed(server.transport))
    with pytest.raises(errors.InvalidApiKey) as v3:
        client.datasets()
    with pytest.raises(errors.InvalidApiKey) as legacy:
        client.legacy_search("sterility")
    assert REQUEST_ID.fullmatch(v3.value.request_id or "")
    assert legacy.value.request_id is None and http_status(legacy.value) == 401


@pytest.mark.parametrize(
    ("call", "cls"),
    [
        (lambda c: c.legacy_search(""), errors.InvalidRequest),
        (lambda c: c.legacy_search("sterility", 0), errors.InvalidRequest),
        (
            lambda c: c.legacy_search("sterility", dataset_to_search=["fda_nope"]),
            errors.InvalidRequest,
        ),
        (lambda c: c.legacy_contents("fda_483/nope"), errors.NotFound),
        (lambda c: c.legacy_contents(""), errors.InvalidRequest),
    ],
)
def test_a_legacy_error_raises_the_class_of_its_status(remote: Client, engine, call, cls):
    """The legacy body has no code: an unknown dataset (400) comes back as InvalidRequest."""
    with pytest.raises(errors.RegnbError) as local:
        call(engine)
    with pytest.raises(errors.RegnbError) as info:
        call(remote)
    assert type(info.value) is cls
    assert http_status(info.value) == http_status(local.value)


def test_plan_arguments_other_than_the_clients_own_are_refused_before_sending(remote: Client):
    assert remote.plan == "unknown"
    remote.read(titles_of(remote)[0], 1, 1, plan=None)
    with pytest.raises(errors.InvalidRequest) as info:
        remote.search(["sterility"], plan="free")
    assert info.value.field == "plan"


def titles_of(client: Client) -> list[str]:
    return [r["document_id"] for r in client.search(["sterility"]).results]


def test_the_client_implements_the_engine_interface(remote: Client):
    assert isinstance(remote, EngineAPI)


def test_a_server_that_is_not_there_is_an_upstream_error(tmp_path: Path):
    refused = httpx.MockTransport(lambda r: (_ for _ in ()).throw(httpx.ConnectError("refused")))
    settings = regnb.client.ClientSettings(max_tries=1)
    with (
        connect(BASE, "k", transport=refused, settings=settings) as client,
        pytest.raises(
            errors.UpstreamError, match=r"could not reach http://regnb\.test/api/v3/datasets"
        ) as info,
    ):
        client.datasets()
    assert isinstance(info.value.__cause__, httpx.ConnectError)


@pytest.mark.parametrize(
    ("status", "body"),
    [(200, b"<html>not json</html>"), (200, b'{"results": []}'), (200, b"[1, 2]")],
)
def test_an_answer_the_spec_does_not_describe_is_an_upstream_error(status: int, body: bytes):
    odd = httpx.MockTransport(lambda r: httpx.Response(status, content=body))
    with connect(BASE, "k", transport=odd) as client, pytest.raises(errors.UpstreamError):
        client.search(["sterility"])


def test_a_missing_or_misspelled_argument_is_the_specs_invalid_request_sent_nowhere():
    sent: list[httpx.Request] = []
    transport = httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(500))
    with connect(BASE, "k", transport=transport) as client:
        with pytest.raises(errors.InvalidRequest, match="keywords is required") as missing:
            client.search()  # type: ignore[call-arg]
        with pytest.raises(errors.InvalidRequest, match="did you mean 'datasets'") as misspelled:
            client.search(["sterility"], dataset=["fda_483"])  # type: ignore[call-arg]
        with pytest.raises(errors.InvalidRequest) as no_id:
            client.read()  # type: ignore[call-arg]
    assert (missing.value.code, missing.value.field) == ("invalid_request", "keywords")
    assert misspelled.value.field == "dataset" and no_id.value.field == "document_id"
    assert sent == []
