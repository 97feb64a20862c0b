"""The OpenAPI document is true: real responses of every endpoint validate against it, and a
bounded schemathesis run against the live app finds no server error and no response off-schema."""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import referencing
from starlette.applications import Starlette

import regnb
from regnb.catalog import load_catalog
from regnb.errors import ERROR_CODES
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.openapi import openapi_document
from regnb.server.testing import FakeClock
from regnb.settings import Settings
from regnb.validate import (
    LEGACY_TOP_K_MAX,
    LIMIT_DEFAULT,
    LIMIT_MAX,
    MAX_FILTER_CHARS,
    MAX_KEYWORD_CHARS,
    MAX_KEYWORDS,
    MAX_QUERY_CHARS,
    MAX_QUERY_TEXT_CHARS,
    OFFSET_MAX,
    YEAR_MAX,
)

DOC = openapi_document()
REGISTRY = referencing.Registry().with_resource(
    "urn:regnb:openapi", referencing.Resource.from_contents(DOC, referencing.jsonschema.DRAFT202012)
)


def _template(path: str) -> str:
    """The document's path for a request path."""
    for template in DOC["paths"]:
        pattern = re.sub(r"\{[^}]+\}", "[^/]+", template)
        if re.fullmatch(pattern, path):
            return template
    raise AssertionError(f"{path} is not in the document")


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = (
            REGISTRY.resolver("urn:regnb:openapi")
            .lookup("urn:regnb:openapi" + node["$ref"])
            .contents
        )
    return node


def validate(resp: httpx.Response) -> None:
    """Status, headers and body of a real response against the document."""
    item = DOC["paths"][_template(resp.request.url.path)]
    method = resp.request.method.lower()
    operation = item[method] if method in item else next(iter(item.values()))  # 405
    status = str(resp.status_code)
    assert status in operation["responses"], f"{status} is not documented"
    spec = operation["responses"][status]
    for name, header in spec.get("headers", {}).items():
        header = _resolve(header)
        value = resp.headers.get(name)
        if header.get("required"):
            assert value is not None, f"{name} missing"
        if value is not None:
            jsonschema.validate(value, header["schema"])
    schema = spec["content"]["application/json"]["schema"]
    validator = jsonschema.Draft202012Validator(
        {"$ref": "urn:regnb:openapi" + schema["$ref"]} if "$ref" in schema else schema,
        registry=REGISTRY,
    )
    validator.validate(resp.json())


@pytest.mark.parametrize("name", sorted(DOC["components"]["schemas"]))
def test_component_schemas_are_valid_json_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(DOC["components"]["schemas"][name])


@pytest.mark.anyio
async def test_real_responses_match_the_document(
    engine: regnb.Engine, accounts: Accounts, keys: dict
) -> None:
    app = create_app(engine, accounts=accounts, clock=FakeClock())
    transport = httpx.ASGITransport(app=app)
    ent, paid = {"x-api-key": keys["ent"]}, {"x-api-key": keys["paid"]}
    async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as client:
        found = (
            await client.post(
                "/api/v3/search", json={"keywords": ["sterility"], "limit": 50}, headers=ent
            )
        ).json()
        doc = found["results"][0]["document_id"]
        crl = next(d["document_id"] for d in found["results"] if d["dataset"] == "fda_crl")
        legacy = (
            await client.post("/api/search", json={"query_text": "sterility"}, headers=ent)
        ).json()
        requests: list[tuple[str, str, dict[str, Any]]] = [
            ("POST", "/api/v3/search", {"json": {"keywords": ["sterility"]}, "headers": ent}),
            ("POST", "/api/v3/search", {"json": {"keywords": ["zzzqqq"]}, "headers": ent}),
            (
                "POST",
                "/api/v3/search",
                {"json": {"keywords": ["sterility"], "date_from": "2021-01-01"}, "headers": ent},
            ),
            ("POST", "/api/v3/search", {"json": {"keywords": ["sterility"]}, "headers": paid}),
            ("POST", "/api/v3/search", {"json": {"keywords": 5}, "headers": ent}),
            ("POST", "/api/v3/search", {"content": b"{", "headers": ent}),
            (
                "POST",
                "/api/v3/search",
                {"json": {"keywords": ["a"], "datasets": ["x"]}, "headers": ent},
            ),
            ("POST", "/api/v3/search", {"json": {"keywords": ["a"]}}),
            ("POST", "/api/v3/search", {"content": b"[" + b" " * 1_000_001 + b"]", "headers": ent}),
            ("GET", "/api/v3/search", {"headers": ent}),
            ("GET", "/api/v3/datasets", {"headers": ent}),
            ("GET", "/api/v3/datasets", {"headers": {"x-api-key": "nope"}}),
            ("DELETE", "/api/v3/datasets", {}),
            ("GET", f"/api/v3/documents/{doc}", {"headers": ent}),
            ("GET", f"/api/v3/documents/{doc}?page_from=2&page_to=2", {"headers": ent}),
            ("GET", f"/api/v3/documents/{doc}?page_from=0", {"headers": ent}),
            ("GET", "/api/v3/documents/nope", {"headers": ent}),
            ("GET", f"/api/v3/documents/{crl}", {"headers": paid}),
            ("GET", "/api/v3/documents/nope", {}),
            ("GET", "/api/v3/openapi.json", {}),
            ("POST", "/api/search", {"json": {"query_text": "sterility"}, "headers": ent}),
            ("POST", "/api/search", {"json": {"query_text": 1}, "headers": ent}),
            ("POST", "/api/search", {"json": {"query_text": "a"}}),
            ("GET", "/api/search", {}),
            (
                "POST",
                "/api/contents",
                {"json": {"doc_id": legacy["results"][0]["doc_id"]}, "headers": ent},
            ),
            ("POST", "/api/contents", {"json": {"doc_id": "fda_483/nope"}, "headers": ent}),
            ("POST", "/api/contents", {"json": {"doc_id": 5}, "headers": ent}),
        ]
        statuses = set()
        for method, path, kwargs in requests:
            resp = await client.request(method, path, **kwargs)
            validate(resp)
            statuses.add(resp.status_code)
        for _ in range(50):
            resp = await client.get("/api/v3/datasets", headers=ent)
        validate(resp)
        statuses.add(resp.status_code)
    assert statuses == {200, 400, 401, 403, 404, 405, 413, 429}


# --- one source for the document's constants ---------------------------------------------

SCHEMAS = DOC["components"]["schemas"]


@pytest.mark.parametrize("schema", ["Error", "ErrorWithoutField"])
def test_error_codes_are_those_of_the_error_hierarchy(schema: str) -> None:
    assert SCHEMAS[schema]["properties"]["error"]["properties"]["code"]["enum"] == list(ERROR_CODES)


def test_search_bounds_are_the_validation_modules() -> None:
    props = SCHEMAS["SearchRequest"]["properties"]
    assert props["keywords"]["maxItems"] == MAX_KEYWORDS
    assert props["keywords"]["items"]["maxLength"] == MAX_KEYWORD_CHARS
    assert props["query"]["maxLength"] == MAX_QUERY_CHARS
    assert (props["limit"]["minimum"], props["limit"]["maximum"]) == (1, LIMIT_MAX)
    assert (props["offset"]["minimum"], props["offset"]["maximum"]) == (0, OFFSET_MAX)
    assert (props["limit"]["default"], props["offset"]["default"]) == (LIMIT_DEFAULT, 0)


def test_legacy_bounds_are_the_validation_modules() -> None:
    search = SCHEMAS["LegacySearchRequest"]["properties"]
    assert search["query_text"]["maxLength"] == MAX_QUERY_TEXT_CHARS
    assert search["year_to"]["maximum"] == YEAR_MAX
    for schema, default in [("LegacySearchRequest", 20), ("LegacyContentsRequest", 10)]:
        top_k = SCHEMAS[schema]["properties"]["top_k"]
        assert (top_k["minimum"], top_k["maximum"], top_k["default"]) == (
            1,
            LEGACY_TOP_K_MAX,
            default,
        )


def test_read_limits_and_body_size_are_the_settings_defaults() -> None:
    defaults = Settings(home=Path("."))
    assert SCHEMAS["DocumentRead"]["properties"]["pages"]["maxItems"] == defaults.read_max_pages
    assert f"{defaults.max_body_bytes:,} bytes" in DOC["info"]["description"]


def test_datasets_filters_and_date_fields_are_the_catalogs(tmp_path: Path) -> None:
    own = {
        "id": "acme_sops",
        "name": "ACME SOPs",
        "jurisdiction": "US",
        "date_field": "effective",
        "fields": ["owner", "effective"],
        "filters": {"owner": {"type": "string", "description": "keyword match on owner"}},
    }
    catalog = regnb.add_datasets(tmp_path, [own])
    props = openapi_document(catalog)["components"]["schemas"]["SearchRequest"]["properties"]
    assert props["datasets"]["items"]["enum"] == catalog.ids
    owner = {**own["filters"]["owner"], "minLength": 1, "maxLength": MAX_FILTER_CHARS}
    assert props["filters"]["properties"]["acme_sops"]["properties"] == {"owner": owner}
    assert props["filters"]["additionalProperties"] is False
    assert "acme_sops: effective" in props["date_from"]["description"]
    package = SCHEMAS["SearchRequest"]["properties"]
    assert "acme_sops" not in package["filters"]["properties"]
    for dataset in load_catalog():
        documented = package["filters"]["properties"][dataset.id]["properties"]
        assert set(documented) == set(dataset.filters)
        for name, spec in dataset.filters.items():
            assert spec.items() <= documented[name].items()
        if dataset.available and dataset.date_field:
            assert f"{dataset.id}: {dataset.date_field}" in package["date_to"]["description"]


@pytest.mark.anyio
@pytest.mark.parametrize("path", ["/api/v3/search", "/api/search"])
async def test_busy_answers_of_both_searches_match_the_document(
    engine: regnb.Engine, accounts: Accounts, keys: dict, path: str
) -> None:
    settings = dataclasses.replace(engine.settings, max_server_searches=1)
    app = create_app(engine, settings=settings, accounts=accounts, clock=FakeClock())
    app.state.regnb.server_slots.take()  # another search is running
    body = {"keywords": ["sterility"]} if path == "/api/v3/search" else {"query_text": "sterility"}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as client:
        resp = await client.post(path, json=body, headers={"x-api-key": keys["ent"]})
    assert resp.status_code == 503
    validate(resp)


# --- schemathesis -------------------------------------------------------------------------

OPERATIONS = [
    (method.upper(), path, mode)
    for path, item in DOC["paths"].items()
    for method, operation in item.items()
    for mode in ("positive", "negative")
    if mode == "positive" or operation["security"]  # nothing to break in a request without any
]


@pytest.fixture(scope="module")
def live_app(engine: regnb.Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The app with the rate limit off (hypothesis sends more than 50 requests)."""
    settings = dataclasses.replace(engine.settings, rate_limit_per_minute=0)
    with Accounts(tmp_path_factory.mktemp("st") / "accounts.sqlite3") as accounts:
        key = accounts.create_key("fuzz", "enterprise").key
        yield create_app(engine, settings=settings, accounts=accounts), key


@pytest.mark.parametrize(("method", "path", "mode"), OPERATIONS)
def test_schemathesis_finds_no_server_error_and_no_off_schema_response(
    live_app: tuple[Starlette, str], method: str, path: str, mode: str
) -> None:
    """25 generated requests per operation and mode; any failure is a bug in the app or the
    document."""
    if os.environ.get("CI"):  # CI must run it: a missing install fails there
        import hypothesis
        import schemathesis
    else:
        schemathesis = pytest.importorskip("schemathesis")
        hypothesis = pytest.importorskip("hypothesis")
    app, key = live_app
    schema = schemathesis.openapi.from_asgi("/api/v3/openapi.json", app)
    operation = schema[path][method]
    strategy = operation.as_strategy(generation_mode=schemathesis.GenerationMode(mode))
    names = [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
    ]
    if mode == "negative":
        names.append("negative_data_rejection")
    checks = [getattr(schemathesis.checks, name) for name in names]

    @hypothesis.given(case=strategy)
    @hypothesis.settings(
        max_examples=25,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(hypothesis.HealthCheck),
    )
    def run(case: Any) -> None:
        case.call_and_validate(headers={"x-api-key": key}, checks=checks)

    run()
