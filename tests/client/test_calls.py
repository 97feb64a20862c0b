"""Each endpoint as a request, without I/O: bodies, paths, headers, keys and addresses."""

from __future__ import annotations

import json
import math
import uuid

import pytest

from regnb.client import _calls as calls
from regnb.client._base import ClientBase, base_url_of, resolve_api_key
from regnb.client._errors import Style
from regnb.client._settings import ClientSettings
from regnb.errors import InvalidRequest, MissingApiKey, NotFound
from regnb.models import ProducedDocument
from regnb.request import KeywordItem, SearchRequest
from tests.client_support import search_body


@pytest.mark.parametrize(
    ("given", "base"),
    [
        ("https://regsearch.example.com", "https://regsearch.example.com"),
        ("https://regsearch.example.com/", "https://regsearch.example.com"),
        ("https://regsearch.example.com/api/v3", "https://regsearch.example.com"),
        ("https://regsearch.example.com/api/v3/", "https://regsearch.example.com"),
        ("http://127.0.0.1:8000/api", "http://127.0.0.1:8000"),
        ("http://host/regnb/", "http://host/regnb"),
        (" http://host:9000?x=1 ", "http://host:9000"),
    ],
)
def test_a_base_url_keeps_host_port_and_prefix_without_a_copied_api_path(given: str, base: str):
    assert base_url_of(given) == base


@pytest.mark.parametrize("given", ["", "regsearch.example.com", "ftp://host", "http://", None, 5])
def test_a_base_url_that_is_no_http_address_is_refused(given: object):
    with pytest.raises(InvalidRequest) as info:
        base_url_of(given)
    assert info.value.field == "base_url"


@pytest.mark.parametrize(
    ("given", "env", "key"),
    [
        ("k1", {}, "k1"),
        (None, {"REGNB_API_KEY": "k2"}, "k2"),
        ("k1", {"REGNB_API_KEY": "k2"}, "k1"),
        (" k3 \n", {}, "k3"),
    ],
)
def test_the_key_is_the_one_given_else_regnb_api_key(given, env, key):
    assert resolve_api_key(given, env) == key


@pytest.mark.parametrize(
    ("given", "env"), [(None, {}), ("", {"REGNB_API_KEY": "k"}), (None, {"REGNB_API_KEY": " "})]
)
def test_no_key_is_a_missing_api_key_error_that_says_where_one_goes(given, env):
    with pytest.raises(MissingApiKey, match="REGNB_API_KEY"):
        resolve_api_key(given, env)


@pytest.mark.parametrize(
    ("args", "kwargs", "body"),
    [
        (
            ("sterility",),
            {},
            {"keywords": ["sterility"], "limit": 20, "offset": 0},
        ),
        (
            ('"media fill" -aseptic',),
            {},
            {"keywords": ['"media fill" -aseptic'], "limit": 20, "offset": 0, "syntax": "query"},
        ),
        (
            ("sterility",),
            {"syntax": "plain"},
            {"keywords": ["sterility"], "limit": 20, "offset": 0},
        ),
        (
            (("media fill", "aseptic"), "why?"),
            {"datasets": ("fda_483",), "date_from": "2015-01-01", "limit": 5, "offset": 10},
            {
                "keywords": ["media fill", "aseptic"],
                "query": "why?",
                "datasets": ["fda_483"],
                "date_from": "2015-01-01",
                "limit": 5,
                "offset": 10,
            },
        ),
        (
            (["x"],),
            {"filters": {"fda_483": {"fei_number": "1"}}, "date_to": "2020-01-01"},
            {
                "keywords": ["x"],
                "filters": {"fda_483": {"fei_number": "1"}},
                "date_to": "2020-01-01",
                "limit": 20,
                "offset": 0,
            },
        ),
    ],
)
def test_a_search_body_holds_what_was_given(args, kwargs, body):
    assert search_body(*args, **kwargs) == body


def test_a_checked_request_is_sent_as_its_own_body():
    req = SearchRequest(
        items=(KeywordItem("sterility", ("steril",)),),
        query="q",
        datasets=("fda_483",),
        named_datasets=True,
        limit=7,
        offset=14,
    )
    body = search_body(req, "ignored", limit=50)
    assert body == req.to_body()
    assert json.loads(calls.search(body).body or b"") == req.to_body()


@pytest.mark.parametrize("bad", [math.nan, math.inf, object()])
def test_a_value_json_cannot_hold_is_an_invalid_request(bad: object):
    with pytest.raises(InvalidRequest, match="JSON"):
        calls.search(search_body(["x"], filters={"fda_483": {"fei_number": bad}}))


@pytest.mark.parametrize(
    ("document_id", "path"),
    [
        ("AbC-123_x", "/api/v3/documents/AbC-123_x"),
        ("-starts-with-dash", "/api/v3/documents/-starts-with-dash"),
        ("a/b?c#d", "/api/v3/documents/a%2Fb%3Fc%23d"),
    ],
)
def test_a_document_id_is_one_path_segment(document_id: str, path: str):
    call = calls.read(document_id, 2, None)
    assert (call.method, call.path, call.params) == ("GET", path, {"page_from": 2})


@pytest.mark.parametrize("bad", ["", None, 3])
def test_an_empty_document_id_is_refused_as_the_engine_refuses_it(bad: object):
    with pytest.raises(InvalidRequest) as info:
        calls.read(bad, 1, None)  # type: ignore[arg-type]
    assert info.value.field == "document_id"


def test_an_empty_conversation_id_is_not_found():
    with pytest.raises(NotFound):
        calls.read_conversation("", 0)


def test_each_message_gets_a_new_key_unless_one_is_given():
    first = calls.start_conversation("hi", None).headers[calls.IDEMPOTENCY_HEADER]
    second = calls.start_conversation("hi", None).headers[calls.IDEMPOTENCY_HEADER]
    assert first != second
    assert uuid.UUID(first).version == 4
    given = calls.send_message("conv_1", "more", "my-key-1")
    assert given.headers == {calls.IDEMPOTENCY_HEADER: "my-key-1"}
    assert given.path == "/api/v3/conversations/conv_1/messages"


@pytest.mark.parametrize(
    ("call", "repeatable"),
    [
        (calls.search({"keywords": ["x"]}), True),
        (calls.start_conversation("hi", None), True),
        (calls.send_message("c", "hi", None), True),
        (calls.read_conversation("c", 0), True),
        (calls.stop_conversation("c"), False),
    ],
)
def test_only_a_stop_is_not_repeated_after_a_broken_connection(call: calls.Call, repeatable: bool):
    assert call.repeatable is repeatable


@pytest.mark.parametrize(
    ("call", "style"),
    [
        (calls.legacy_search("x", 20, 0, None, None, None), Style.LEGACY),
        (calls.legacy_contents("fda_483/x", 10, 0), Style.LEGACY),
        (calls.datasets(), Style.V3),
        (calls.produced_document("c", "d"), Style.V3),
    ],
)
def test_legacy_calls_read_legacy_errors(call: calls.Call, style: Style):
    assert call.style is style


def test_legacy_search_sends_only_what_was_given():
    call = calls.legacy_search("sterility", 5, 10, ("fda_483",), 2019, None)
    body = json.loads(call.body or b"")
    assert body == {
        "query_text": "sterility",
        "top_k": 5,
        "offset": 10,
        "dataset_to_search": ["fda_483"],
        "year_from": 2019,
    }


def client_base(**settings: float) -> ClientBase:
    return ClientBase("http://regnb.test", "k", settings=ClientSettings(**settings))


@pytest.mark.parametrize(("wait", "read_timeout"), [(0, None), (10, None), (45, 75.0)])
def test_a_conversation_wait_stretches_the_read_timeout(wait: float, read_timeout: float | None):
    request = client_base(read_timeout_s=60)._request(calls.read_conversation("c", wait))
    timeout = request.get("timeout")
    assert (timeout.read if timeout else None) == read_timeout


@pytest.mark.parametrize(
    ("url", "with_key"),
    [
        ("http://regnb.test/api/v3/files/tok", True),
        ("http://regnb.test:80/api/v3/files/tok", True),
        ("https://regnb.test/api/v3/files/tok", False),
        ("http://regnb.test:8000/api/v3/files/tok", False),
        ("http://cdn.example.com/tok", False),
    ],
)
def test_the_key_goes_only_to_a_download_link_on_the_servers_own_address(url: str, with_key: bool):
    base = client_base()
    document = ProducedDocument("doc_1", "Chart", "image", None, url=url, filename="c.png")
    request = base._request(base._download_call(document))
    assert ("x-api-key" in request["headers"]) is with_key
    assert request["url"] == url


def test_every_other_call_carries_the_key_and_json_bodies_say_so():
    request = client_base()._request(calls.search({"keywords": ["x"]}))
    assert request["headers"]["x-api-key"] == "k"
    assert request["headers"]["content-type"] == "application/json"


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("Sterility report", "Sterility report.md"),
        ("A/B: 2021 (draft)", "A-B- 2021 -draft-.md"),
        ("", "doc_1.md"),
    ],
)
def test_a_text_document_downloads_as_markdown_named_by_its_title(title: str, name: str):
    document = ProducedDocument("doc_1", title, "text", None, content="# Report [1]")
    assert calls.text_download(document) == (name, b"# Report [1]")


@pytest.mark.parametrize(
    ("plan", "given", "refused"),
    [
        (None, None, False),
        (None, "unknown", False),
        (None, "enterprise", True),
        ("paid", "paid", False),
        ("paid", "free", True),
    ],
)
def test_plan_is_accepted_only_as_the_clients_own(plan, given, refused):
    base = ClientBase("http://regnb.test", "k", plan=plan)
    if refused:
        with pytest.raises(InvalidRequest) as info:
            base._check_plan(given)
        assert info.value.field == "plan"
    else:
        base._check_plan(given)


def test_a_plan_that_does_not_exist_is_refused_at_connect():
    with pytest.raises(InvalidRequest):
        ClientBase("http://regnb.test", "k", plan="platinum")


def test_the_client_says_where_it_points_and_never_shows_the_key():
    text = repr(ClientBase("http://regnb.test/api/v3", "secret-key", plan="paid"))
    assert text == "<regnb.ClientBase http://regnb.test plan=paid>"
    assert "secret" not in text
