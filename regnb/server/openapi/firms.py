"""The firm endpoints' part of the OpenAPI document, extensions of the spec: the firms a name or
an identifier may mean, and a firm's timeline, with their schemas."""

from __future__ import annotations

from typing import Any

from regnb.firms.lookup import FIRMS_LIMIT_MAX
from regnb.server._firms import LIMIT_DEFAULT, PREFIX
from regnb.server.openapi._schema import (
    EXTENSION,
    KEY,
    error_responses,
    object_schema,
    ok_response,
    path_parameter,
    ref,
)

__all__ = ["firm_paths", "firm_schemas"]

_STRINGS = {"type": "array", "items": {"type": "string"}}


def _closed(props: dict[str, Any]) -> dict[str, Any]:
    """An object of exactly `props`, every one required."""
    return object_schema(list(props), props)


def firm_schemas() -> dict[str, Any]:
    """The schemas of the firm endpoints' answers."""
    firm = {
        "id": {"type": "string", "description": "stable for a corpus, URL-safe"},
        "name": {"type": "string"},
        "variants": {**_STRINGS, "description": "the names written for it, most frequent first"},
        "identifiers": {**_STRINGS, "description": "`FEI 3002806560`, `NDA 021164`, `K123456`"},
        "documents": {"type": "integer", "minimum": 1},
        "datasets": {
            "type": "object",
            "description": "documents per dataset",
            "additionalProperties": {"type": "integer", "minimum": 1},
        },
        "match": {"type": "string", "enum": ["id", "identifier", "name", "prefix", "words"]},
    }
    event = {
        "dataset": {"type": "string"},
        "date": {"type": ["string", "null"], "format": "date"},
        "title": {"type": "string"},
        "url": {"type": ["string", "null"]},
        "document_id": {"type": "string"},
        "findings": {**_STRINGS, "description": "`Observation 1: ...`, `Violation 2: ...`"},
        "cfr": {**_STRINGS, "description": "`21 CFR 211.113`"},
        "page_num": {"type": "integer", "minimum": 1, "description": "the cited page"},
        "passage": {"type": "string", "description": "the cited text, as written on the page"},
        "links": {
            **_STRINGS,
            "description": "related documents, each a sentence (`regnb.firms.timeline.Link`): `followed "
            "by warning letter 2021-10-04 (<id>)`, `follows complete response letter "
            "2020-01-15 (<id>)`, `repeats 21 CFR 211.113 (Observation 2, page 2) of Form 483 "
            "2019-03-04, page 1 (<id>)`",
        },
        "repeat": {
            "type": "boolean",
            "description": "a 483 with an observation marked as a repeat, or a finding that "
            "repeats the site's previous 483",
        },
    }
    return {
        "Firm": _closed(firm),
        "FirmList": _closed({"firms": {"type": "array", "items": ref("Firm")}}),
        "TimelineEvent": _closed(event),
        "Timeline": _closed(
            {
                "firm": ref("Firm"),
                "events": {
                    "type": "array",
                    "items": ref("TimelineEvent"),
                },
            }
        ),
    }


def firm_paths() -> dict[str, Any]:
    """The OpenAPI `paths` entries of the firm endpoints."""
    return {
        PREFIX: {
            "get": {
                "operationId": "findFirms",
                "summary": EXTENSION + "the firms a name, FEI number, application number or "
                "firm id may mean, best match first (several when it is ambiguous)",
                "security": KEY,
                "parameters": [
                    {
                        "name": "q",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "minLength": 1},
                    },
                    {
                        "name": "datasets",
                        "in": "query",
                        "description": "dataset ids to count documents in (default: every one)",
                        "style": "form",
                        "explode": False,
                        "schema": _STRINGS,
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": FIRMS_LIMIT_MAX,
                            "default": LIMIT_DEFAULT,
                        },
                    },
                ],
                "responses": {
                    "200": ok_response("FirmList", "Candidate firms"),
                    **error_responses(["400", "401", "405", "429", "500", "504"]),
                },
            }
        },
        f"{PREFIX}/{{firm_id}}/timeline": {
            "get": {
                "operationId": "firmTimeline",
                "summary": EXTENSION + "a firm and every document about it across datasets, in "
                "date order, with key findings and a citation; under a search's limits",
                "security": KEY,
                "parameters": [path_parameter("firm_id")],
                "responses": {
                    "200": ok_response("Timeline", "The firm's timeline"),
                    **error_responses(["400", "401", "404", "405", "429", "500", "503", "504"]),
                },
            }
        },
    }
