"""Each tool's input schema is an operation's of the served OpenAPI document, changed only where
an assistant's context needs a smaller window or a follow-up."""

from __future__ import annotations

import jsonschema
import pytest

from regnb.catalog import load_catalog
from regnb.mcp._schemas import MATCHES_LIMIT_MAX, READ_PAGES_MAX, tool_specs
from regnb.server.openapi import openapi_document
from regnb.server.openapi.v3 import search_request_schema

SPECS = tool_specs()
DOC = openapi_document()


def test_every_tool_has_a_description_and_a_closed_object_schema() -> None:
    assert list(SPECS) == [
        "search",
        "read",
        "datasets",
        "facets",
        "matches",
        "firm",
        "timeline",
        "research",
    ]
    for spec in SPECS.values():
        assert spec.description.strip()
        assert spec.input_schema["type"] == "object"
        assert spec.input_schema["additionalProperties"] is False
        jsonschema.Draft202012Validator.check_schema(spec.input_schema)


def test_the_search_tool_takes_the_openapi_search_body() -> None:
    body = search_request_schema(load_catalog())
    assert SPECS["search"].input_schema == {**body, "additionalProperties": False}
    assert SPECS["search"].description.startswith(DOC["paths"]["/api/v3/search"]["post"]["summary"])


def test_the_read_tool_takes_the_document_reads_path_and_query_parameters() -> None:
    schema = SPECS["read"].input_schema
    assert schema["required"] == ["document_id"]
    params = DOC["paths"]["/api/v3/documents/{document_id}"]["get"]["parameters"]
    assert list(schema["properties"]) == [p["name"] for p in params]
    assert f"at most {READ_PAGES_MAX} pages" in SPECS["read"].description


def test_matches_and_facets_narrow_a_searchs_body() -> None:
    matches = SPECS["matches"].input_schema["properties"]
    assert matches["limit"]["maximum"] == MATCHES_LIMIT_MAX
    facets = SPECS["facets"].input_schema["properties"]
    assert {"limit", "offset", "sort", "facets", "places"}.isdisjoint(facets)
    assert {"by", "size", "keywords", "filters"} <= set(facets)


@pytest.mark.parametrize(
    ("tool", "arguments", "valid"),
    [
        ("search", {"keywords": ["sterility"], "limit": 5}, True),
        ("search", {"keywords": ["sterility"], "order": "date"}, False),
        ("facets", {"keywords": ["x"], "by": ["dataset", "year"]}, True),
        ("facets", {"keywords": ["x"], "by": ["colour"]}, False),
        ("research", {"message": "why?", "conversation_id": "conv_1"}, True),
        ("research", {}, False),
        ("timeline", {"firm_id": "acme", "limit": 2, "offset": 4}, True),
        ("datasets", {"x": 1}, False),
    ],
)
def test_the_schemas_accept_and_refuse_as_the_tools_do(tool, arguments, valid) -> None:
    errors = list(jsonschema.Draft202012Validator(SPECS[tool].input_schema).iter_errors(arguments))
    assert (not errors) is valid
