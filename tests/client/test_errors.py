"""Error answers and failed connections become the local engine's exception classes."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from regnb import errors
from regnb.client import Client, ClientSettings, connect
from regnb.client._errors import Style, error_from_response, transport_error
from regnb.client.testing import AppTransport
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.errors import http_status
from regnb.server.testing import make_keys

RID = "req_" + "ab" * 12
BASE = "http://regnb.test"
REQUEST_ID = re.compile(r"req_[0-9a-f]{24}")
REQUEST = httpx.Request("GET", "http://regnb.test/api/v3/documents/x")

CLASSES = sorted(
    {
        c
        for c in vars(errors).values()
        if isinstance(c, type) and issubclass(c, errors.RegnbError) and c is not errors.RegnbError
    }
    - {errors.CorpusError, errors.IndexDamaged}  # sent as internal_error 500, like InternalError
    - {errors.FeatureNotOffered},  # raised by the client itself, never sent
    key=lambda c: c.__name__,
)


def answer(status: int, body: object, headers: dict[str, str] | None = None) -> httpx.Response:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.Response(status, content=content, headers=headers or {}, request=REQUEST)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_v3_error_object_raises_its_own_class_with_the_request_id(cls):
    sent = cls("went wrong", field="keywords[0]")
    body = {"error": {**sent.to_dict(), "request_id": RID}}
    error = error_from_response(answer(http_status(cls), body, {"X-Request-Id": RID}), Style.V3)
    assert type(error) is cls
    assert (error.code, http_status(error), error.field, error.message, error.request_id) == (
        cls.code,
        http_status(cls),
        "keywords[0]",
        "went wrong",
        RID,
    )


def test_the_request_id_header_stands_in_when_the_body_lacks_one():
    body = {"error": {"code": "not_found", "message": "no document"}}
    error = error_from_response(answer(404, body, {"X-Request-Id": RID}), Style.V3)
    assert type(error) is errors.NotFound and error.request_id == RID


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, errors.InvalidRequest),
        (401, errors.InvalidApiKey),
        (403, errors.Forbidden),
        (404, errors.NotFound),
        (405, errors.MethodNotAllowed),
        (413, errors.PayloadTooLarge),
        (429, errors.RateLimited),
        (500, errors.InternalError),
        (502, errors.UpstreamError),
        (503, errors.Busy),
        (504, errors.SearchTimeout),
    ],
)
def test_a_legacy_message_raises_the_class_of_its_status(status: int, cls):
    error = error_from_response(answer(status, {"error": "something failed"}), Style.LEGACY)
    assert type(error) is cls
    assert (http_status(error), error.message, error.request_id) == (
        status,
        "something failed",
        None,
    )


@pytest.mark.parametrize(
    ("status", "base", "code"),
    [
        (418, errors.InvalidRequest, "invalid_request"),
        (507, errors.InternalError, "internal_error"),
    ],
)
def test_a_status_without_a_class_is_named_in_the_message(status: int, base, code: str):
    error = error_from_response(answer(status, {"error": "odd"}), Style.LEGACY)
    assert type(error) is base and error.code == code
    assert error.message == f"HTTP {status}: odd"


def test_a_body_that_is_not_the_specs_names_the_status_and_the_text():
    page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    error = error_from_response(answer(502, page), Style.V3)
    assert type(error) is errors.UpstreamError
    assert "HTTP 502" in error.message and "Bad Gateway" in error.message


@pytest.mark.parametrize(("header", "seconds"), [("3", 3), ("2.2", 3), (None, None)])
def test_retry_after_is_kept_on_the_error(header: str | None, seconds: int | None):
    headers = {"Retry-After": header} if header else {}
    body = {"error": {"code": "busy", "message": "busy", "request_id": RID}}
    assert error_from_response(answer(503, body, headers), Style.V3).retry_after == seconds


@pytest.mark.parametrize(
    ("exc", "cls"),
    [
        (httpx.ConnectError("refused", request=REQUEST), errors.UpstreamError),
        (httpx.ConnectTimeout("slow", request=REQUEST), errors.UpstreamError),
        (httpx.PoolTimeout("pool", request=REQUEST), errors.UpstreamError),
        (httpx.ReadError("reset", request=REQUEST), errors.UpstreamError),
        (httpx.ReadTimeout("slow", request=REQUEST), errors.SearchTimeout),
        (httpx.WriteTimeout("slow", request=REQUEST), errors.SearchTimeout),
    ],
)
def test_a_failed_connection_is_an_upstream_error_a_silent_server_a_timeout(exc, cls):
    error = transport_error(exc, "http://regnb.test/api/v3/search")
    assert type(error) is cls
    assert "http://regnb.test/api/v3/search" in error.message


# --- through the server: what the engine raises comes back as the same class --------------


class Raising:
    """The sample engine, except that its searches raise `error`."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.error: BaseException = RuntimeError("not set")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def search(self, *args: Any, **kwargs: Any) -> Any:
        raise self.error

    def legacy_search(self, *args: Any, **kwargs: Any) -> Any:
        raise self.error


@pytest.fixture(scope="module")
def failing(engine, tmp_path_factory) -> Iterator[tuple[Raising, Client]]:
    """An app whose engine raises on search, and a client that never tries twice."""
    accounts = Accounts(tmp_path_factory.mktemp("failing") / "accounts.sqlite3")
    stub = Raising(engine)
    settings = dataclasses.replace(engine.settings, rate_limit_per_minute=0)
    app = create_app(stub, settings=settings, accounts=accounts)
    key = make_keys(accounts)["ent"]
    with connect(BASE, key, transport=AppTransport(app), settings=ClientSettings(max_tries=1)) as c:
        yield stub, c
    app.state.regnb.conversations.close()
    accounts.close()


# (what the engine raises, the class a v3 search raises, the class a legacy search raises)
ENGINE_ERRORS: list[tuple[BaseException, type[errors.RegnbError], type[errors.RegnbError]]] = [
    (RuntimeError("boom"), errors.InternalError, errors.InternalError),
    (errors.CorpusError("shard unreadable"), errors.InternalError, errors.InternalError),
    (errors.UpstreamError("catalog down"), errors.UpstreamError, errors.InternalError),
    (errors.RankingFailed("no embedding"), errors.RankingFailed, errors.InternalError),
    (errors.RankingTimeout("slow ranking"), errors.RankingTimeout, errors.InternalError),
    (errors.SearchTimeout("slow search"), errors.SearchTimeout, errors.InternalError),
    (errors.Busy("full", retry_after=4), errors.Busy, errors.Busy),
    (
        errors.ConcurrentSearch("one at a time", retry_after=2),
        errors.ConcurrentSearch,
        errors.RateLimited,
    ),
    (errors.RateLimited("slow down", retry_after=30), errors.RateLimited, errors.RateLimited),
]


@pytest.mark.parametrize(
    ("raised", "v3", "legacy"), ENGINE_ERRORS, ids=[type(e[0]).__name__ for e in ENGINE_ERRORS]
)
def test_an_engine_failure_comes_back_as_its_class_with_request_id_and_retry_after(
    failing: tuple[Raising, Client], raised, v3, legacy
):
    stub, client = failing
    stub.error = raised
    with pytest.raises(errors.RegnbError) as info:
        client.search(["sterility"])
    assert type(info.value) is v3 and http_status(info.value) == http_status(v3)
    assert REQUEST_ID.fullmatch(info.value.request_id or "")
    with pytest.raises(errors.RegnbError) as old:
        client.legacy_search("sterility")
    assert type(old.value) is legacy and old.value.request_id is None
    for error in (info.value, old.value):
        if http_status(error) in (429, 503):
            assert error.retry_after == max(1, getattr(raised, "retry_after", None) or 1)
        else:
            assert error.retry_after is None
