"""The v3 and legacy endpoints' part of the OpenAPI document: search, matches, datasets, document
read, the document itself, and the legacy search and reader, with their schemas.

Nothing here is a copy: error codes come from `regnb.errors`, bounds from the validation module,
defaults from the engine interface's signatures and the settings, the properties and required
fields of a wire object from its `regnb.models` type (`model_schema`), and the datasets, their
filters and date fields from the catalog the document is built for.
"""

from __future__ import annotations

import copy
import inspect
from typing import Any

from regnb.catalog import Catalog
from regnb.errors import ERROR_CODES
from regnb.interface import SearchAPI
from regnb.models import DatasetStatus
from regnb.query import SYNTAXES
from regnb.request import ORDERS, SORTS
from regnb.results import FACET_COLUMNS, LEGACY_COLUMNS, MATCH_COLUMNS
from regnb.server._body import MAX_INT
from regnb.server._v3 import MATCHES_LIMIT_MAX
from regnb.server.openapi._schema import (
    EXTENSION,
    KEY,
    SETTINGS,
    error_responses,
    json_content,
    model_schema,
    nullable,
    object_schema,
    ok_response,
    path_parameter,
    ref,
    request_body,
)
from regnb.validate import (
    FACET_SIZE_MAX,
    FIXED_FACETS,
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

__all__ = ["matches_request_schema", "search_request_schema", "v3_paths", "v3_schemas"]

PAGE_MIN = 1  # pages are numbered from 1 in v3 (the validation module has no name for it)


def _default(method: Any, name: str) -> Any:
    """The default of a parameter of an engine interface method."""
    return inspect.signature(method).parameters[name].default


PAGE_FROM_DEFAULT = _default(SearchAPI.read, "page_from")
LEGACY_SEARCH_TOP_K = _default(SearchAPI.legacy_search, "top_k")
LEGACY_CONTENTS_TOP_K = _default(SearchAPI.legacy_contents, "top_k")
CODES = list(ERROR_CODES)
STATUSES = ["ok", "no_match", "skipped", "not_available", "forbidden", "timeout", "error"]

SYNTAX_HELP = (
    "Extension (regnb): how keyword items read. `plain` (absent or null: the interface's "
    'meaning) reads every item as plain words. `query` reads `"a phrase"`, `"a phrase"~3`, '
    "`-word`, `NOT word`, `a OR b`, parentheses, `title:word`, `field:value` (a catalog field "
    "of the datasets searched, or `country:IN`, `state:NJ`, `city:houston`: the place of a "
    "firm-facing document's firm), `cfr:211.113` and `prefix*` inside each item; a malformed item "
    "is a 400 invalid_request naming `keywords[i]` and the character."
)


def _filter_schema(spec: dict[str, Any]) -> dict[str, Any]:
    """A filter as the catalog gives it; a free-text value is 1 to MAX_FILTER_CHARS characters."""
    out = copy.deepcopy(spec)
    if spec.get("type") == "string" and "format" not in spec and "enum" not in spec:
        out.update(minLength=1, maxLength=MAX_FILTER_CHARS)
    return out


def _dataset_filters(catalog: Catalog) -> dict[str, Any]:
    """`filters` of a search: per dataset id, exactly that dataset's filters as the catalog has them."""
    return {
        d.id: {
            "type": "object",
            "properties": {name: _filter_schema(spec) for name, spec in d.filters.items()},
            "additionalProperties": False,
        }
        for d in catalog
    }


def _date_fields(catalog: Catalog) -> str:
    dated = [f"{d.id}: {d.date_field}" for d in catalog if d.available and d.date_field]
    return "; ".join(dated)


def _facets_schema(catalog: Catalog) -> dict[str, Any]:
    """`facets` of a search: names, or objects with a name and a size."""
    fields = [f for d in catalog if d.available for f in (*d.fields, *d.place_fields)]
    names = {"type": "string", "enum": list(dict.fromkeys([*FIXED_FACETS, *fields]))}
    sized = object_schema(
        ["name"],
        {
            "name": names,
            "size": {"type": "integer", "minimum": 1, "maximum": FACET_SIZE_MAX, "default": 20},
        },
    )
    return nullable(
        "array",
        items={"oneOf": [names, sized]},
        description=EXTENSION + "counts of matching documents and pages over every full match, "
        "per facet: dataset, year, month, cfr (CFR sections cited), a catalog field of the "
        "searched datasets, or country, state, city (where firm-facing documents' firms are); "
        "the response gets `facets`",
    )


def search_request_schema(catalog: Catalog) -> dict[str, Any]:
    """The v3 search body over `catalog`'s datasets."""
    dated = _date_fields(catalog)
    bound = f"inclusive bound on each dataset's date field ({dated}); others report skipped"
    return object_schema(
        ["keywords"],
        {
            "keywords": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_KEYWORDS,
                "items": {"type": "string", "maxLength": MAX_KEYWORD_CHARS},
                "description": "all words of one item must match a page; items are alternatives",
            },
            "query": nullable("string", maxLength=MAX_QUERY_CHARS),
            "datasets": nullable(
                "array", minItems=1, items={"type": "string", "enum": catalog.ids}
            ),
            "filters": nullable(
                "object",
                properties=_dataset_filters(catalog),
                additionalProperties=False,
                description="keyed by dataset id; each value that dataset's own filters",
            ),
            "date_from": nullable("string", format="date", description=bound),
            "date_to": nullable("string", format="date", description=bound),
            "limit": nullable("integer", minimum=1, maximum=LIMIT_MAX, default=LIMIT_DEFAULT),
            "offset": nullable(
                "integer",
                minimum=0,
                maximum=OFFSET_MAX,
                default=_default(SearchAPI.search, "offset"),
            ),
            "sort": nullable(
                "string",
                enum=[*SORTS, None],
                default="relevance",
                description=EXTENSION + "`date` (newest first) or `date_asc` orders the "
                "documents of every full match by date, undated last",
            ),
            "facets": _facets_schema(catalog),
            "syntax": nullable(
                "string",
                enum=list(SYNTAXES),
                default="plain",
                description=SYNTAX_HELP,
            ),
            "places": nullable(
                "boolean",
                default=False,
                description=EXTENSION + "`true` adds to the `fields` of each result of a "
                "firm-facing dataset (483s, warning letters, inspections, recalls, CRLs) its "
                "firm's `country` (ISO 3166-1 alpha-2), `state` (subdivision code) and `city`, "
                "null where the index read none",
            ),
        },
        closed=False,
    )


def matches_request_schema(catalog: Catalog) -> dict[str, Any]:
    """The body of `/api/v3/matches`: a search's, with `order` and a window of the matches."""
    schema = search_request_schema(catalog)
    props = schema["properties"]
    props["order"] = nullable("string", enum=[*ORDERS, None], default="date")
    props["limit"] = nullable(
        "integer", minimum=1, maximum=MATCHES_LIMIT_MAX, default=MATCHES_LIMIT_MAX
    )
    props["offset"] = nullable("integer", minimum=0, maximum=MAX_INT, default=0)
    return schema


PAGE_PARAM = {"type": "integer", "minimum": PAGE_MIN, "maximum": MAX_INT}

SCHEMAS: dict[str, Any] = {
    "Error": object_schema(
        ["error"],
        {
            "error": object_schema(
                ["code", "message", "request_id"],
                {
                    "code": {"type": "string", "enum": CODES},
                    "message": {"type": "string"},
                    "field": {"type": "string", "description": "dotted path of the field at fault"},
                    "request_id": {"type": "string", "pattern": "^req_[0-9a-f]{24}$"},
                },
            )
        },
    ),
    "ErrorWithoutField": object_schema(
        ["error"],
        {
            "error": object_schema(
                ["code", "message", "request_id"],
                {
                    "code": {"type": "string", "enum": CODES},
                    "message": {"type": "string"},
                    "request_id": {"type": "string", "pattern": "^req_[0-9a-f]{24}$"},
                },
            )
        },
    ),
    "LegacyError": object_schema(["error"], {"error": {"type": "string"}}),
    "DatasetStatus": model_schema(
        DatasetStatus,
        {
            "status": {"type": "string", "enum": STATUSES},
            "matches": {"type": "integer", "minimum": 0},
            "pages": {"type": "integer", "minimum": 0},
            "loosened": {"const": True},
            "reason": {"type": "string"},
        },
    ),
    "SearchPage": object_schema(
        ["page_num", "score", "text"],
        {
            "page_num": {"type": "integer", "minimum": 1},
            "score": {"type": "number"},
            "text": {"type": "string"},
        },
    ),
    "SearchDocument": object_schema(
        ["document_id", "dataset", "title", "date", "url", "fields", "pages", "matched_pages"],
        {
            "document_id": {"type": "string"},
            "dataset": {"type": "string"},
            "title": {"type": "string"},
            "date": nullable("string", format="date"),
            "url": nullable("string"),
            "fields": {"type": "object"},
            "pages": {"type": "array", "minItems": 1, "maxItems": 3, "items": ref("SearchPage")},
            "matched_pages": {"type": "integer", "minimum": 1},
        },
    ),
    "SearchResponse": object_schema(
        ["results", "datasets", "total", "next_offset", "ranking"],
        {
            "results": {"type": "array", "items": ref("SearchDocument")},
            "datasets": {"type": "object", "additionalProperties": ref("DatasetStatus")},
            "total": {"type": "integer", "minimum": 0},
            "next_offset": nullable("integer", minimum=1),
            "ranking": {"type": "string", "enum": ["similarity", "bm25"]},
            "notices": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Extension (regnb), only with `syntax: query`, only when there "
                "is something to say: what the search did not do as written (a prefix "
                "expansion cut, a field some datasets lack, a phrase of stop words ignored).",
            },
            "facets": {
                "type": "object",
                "description": EXTENSION + "present when the request asked for facets",
                "additionalProperties": {"type": "array", "items": ref("FacetRow")},
            },
        },
    ),
    "FacetRow": object_schema(
        list(FACET_COLUMNS),
        {
            "value": nullable("string", description="null: documents without a date"),
            "documents": {"type": "integer", "minimum": 0},
            "pages": {"type": "integer", "minimum": 0},
        },
    ),
    "Match": object_schema(
        [*MATCH_COLUMNS, "fields"],
        {
            "document_id": {"type": "string"},
            "dataset": {"type": "string"},
            "title": {"type": "string"},
            "date": nullable("string", format="date"),
            "url": nullable("string"),
            "cfr": {"type": "array", "items": {"type": "string"}},
            "bm25": {"type": "number"},
            "pages": {"type": "integer", "minimum": 1},
            "fields": {"type": "object"},
        },
    ),
    "MatchesResponse": object_schema(
        ["matches", "total", "next_offset"],
        {
            "matches": {"type": "array", "items": ref("Match")},
            "total": {"type": "integer", "minimum": 0},
            "next_offset": nullable("integer", minimum=1),
        },
    ),
    "Dataset": object_schema(
        ["id", "name", "jurisdiction", "available", "enterprise"],
        {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "jurisdiction": {"type": "string"},
            "available": {"type": "boolean"},
            "enterprise": {"type": "boolean"},
            "date_field": nullable("string"),
            "filters": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "required": ["type", "description"],
                    "properties": {"type": {"type": "string"}, "description": {"type": "string"}},
                },
            },
            "fields": {"type": "array", "items": {"type": "string"}},
        },
    ),
    "DatasetList": object_schema(
        ["datasets"], {"datasets": {"type": "array", "items": ref("Dataset")}}
    ),
    "DocumentPage": object_schema(
        ["page_num", "text"],
        {"page_num": {"type": "integer", "minimum": 1}, "text": {"type": "string"}},
    ),
    "DocumentRead": object_schema(
        ["document_id", "dataset", "title", "url", "total_pages", "pages", "next_page_from"],
        {
            "document_id": {"type": "string"},
            "dataset": {"type": "string"},
            "title": {"type": "string"},
            "url": nullable("string"),
            "total_pages": {"type": "integer", "minimum": 1},
            "pages": {
                "type": "array",
                "maxItems": SETTINGS["read_max_pages"],
                "items": ref("DocumentPage"),
            },
            "next_page_from": nullable("integer", minimum=2),
        },
    ),
    "LegacySearchRequest": object_schema(
        ["query_text"],
        {
            "query_text": {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_TEXT_CHARS},
            "top_k": nullable(
                "integer", minimum=1, maximum=LEGACY_TOP_K_MAX, default=LEGACY_SEARCH_TOP_K
            ),
            "offset": nullable("integer", minimum=0, maximum=MAX_INT, default=0),
            "dataset_to_search": nullable("array", items={"type": "string"}),
            "year_from": nullable("integer", minimum=0, maximum=YEAR_MAX),
            "year_to": nullable("integer", minimum=0, maximum=YEAR_MAX),
        },
        closed=False,
    ),
    "LegacySearchResult": object_schema(
        list(LEGACY_COLUMNS),
        {
            "id": {"type": "string"},
            "doc_id": {"type": "string"},
            "dataset": {"type": "string"},
            "page_num": {"type": "integer", "minimum": 0},
            "score": {"type": "number"},
            "name": {"type": "string"},
            "url": nullable("string"),
            "company": nullable("string"),
            "year_decision": nullable("integer"),
            "text": {"type": "string"},
            "highlight": {"type": "string"},
        },
    ),
    "LegacySearchResponse": object_schema(
        ["results", "total"],
        {
            "results": {"type": "array", "items": ref("LegacySearchResult")},
            "total": {"type": "integer", "minimum": 0},
        },
    ),
    "LegacyContentsRequest": object_schema(
        ["doc_id"],
        {
            "doc_id": {"type": "string"},
            "top_k": nullable(
                "integer", minimum=1, maximum=LEGACY_TOP_K_MAX, default=LEGACY_CONTENTS_TOP_K
            ),
            "offset": nullable("integer", minimum=0, maximum=MAX_INT, default=0),
        },
        closed=False,
    ),
    "LegacyContentsResponse": object_schema(
        ["doc_id", "dataset", "name", "url", "company", "year_decision", "pages", "total_pages"],
        {
            "doc_id": {"type": "string"},
            "dataset": {"type": "string"},
            "name": {"type": "string"},
            "url": nullable("string"),
            "company": nullable("string"),
            "year_decision": nullable("integer"),
            "pages": {
                "type": "array",
                "items": object_schema(
                    ["page_num", "text"],
                    {"page_num": {"type": "integer", "minimum": 0}, "text": {"type": "string"}},
                ),
            },
            "total_pages": {"type": "integer", "minimum": 1},
        },
    ),
}

PATHS: dict[str, Any] = {
    "/api/v3/search": {
        "post": {
            "operationId": "search",
            "summary": "Search documents: best first, each with up to 3 matching pages",
            "security": KEY,
            "requestBody": request_body("SearchRequest"),
            "responses": {
                "200": ok_response("SearchResponse", "The search response envelope"),
                **error_responses(
                    ["400", "401", "405", "413", "429", "500", "502", "503", "504"], "Error"
                ),
            },
        }
    },
    "/api/v3/matches": {
        "post": {
            "operationId": "matches",
            "summary": EXTENSION + "every matching document of a search, in date or BM25 order "
            "(a window of `limit` from `offset`), under the search's limits",
            "security": KEY,
            "requestBody": request_body("MatchesRequest"),
            "responses": {
                "200": ok_response("MatchesResponse", "Matching documents"),
                **error_responses(
                    ["400", "401", "405", "413", "429", "500", "503", "504"], "Error"
                ),
            },
        }
    },
    "/api/v3/datasets": {
        "get": {
            "operationId": "listDatasets",
            "summary": "Every dataset, with the filters and fields of the searchable ones",
            "security": KEY,
            "responses": {
                "200": ok_response("DatasetList", "The dataset list"),
                **error_responses(["401", "405", "429", "500"], "ErrorWithoutField"),
            },
        }
    },
    "/api/v3/documents/{document_id}": {
        "get": {
            "operationId": "readDocument",
            "summary": f"Read a document's pages (at most {SETTINGS['read_max_pages']} pages or "
            f"{SETTINGS['read_max_bytes']:,} bytes of text a response)",
            "security": KEY,
            "parameters": [
                path_parameter("document_id"),
                {
                    "name": "page_from",
                    "in": "query",
                    "schema": {**PAGE_PARAM, "default": PAGE_FROM_DEFAULT},
                },
                {"name": "page_to", "in": "query", "schema": PAGE_PARAM},
            ],
            "responses": {
                "200": ok_response("DocumentRead", "The pages read"),
                **error_responses(
                    ["400", "401", "403", "404", "405", "429", "500", "504"], "Error"
                ),
            },
        }
    },
    "/api/v3/openapi.json": {
        "get": {
            "operationId": "openapi",
            "summary": "This document",
            "security": [],
            "responses": {
                "200": {
                    "description": "OpenAPI 3.1 document",
                    "headers": {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}},
                    "content": json_content({"type": "object"}),
                },
                **error_responses(["405"], "Error"),
            },
        }
    },
    "/api/search": {
        "post": {
            "operationId": "legacySearch",
            "summary": "Older page-level BM25 search (0-based page numbers)",
            "security": KEY,
            "requestBody": request_body("LegacySearchRequest"),
            "responses": {
                "200": ok_response("LegacySearchResponse", "Pages by relevance", v3=False),
                **error_responses(
                    ["400", "401", "405", "429", "500", "503"], "LegacyError", v3=False
                ),
            },
        }
    },
    "/api/contents": {
        "post": {
            "operationId": "legacyContents",
            "summary": "Older page-wise document reader (0-based page numbers)",
            "security": KEY,
            "requestBody": request_body("LegacyContentsRequest"),
            "responses": {
                "200": ok_response("LegacyContentsResponse", "The pages read", v3=False),
                **error_responses(
                    ["400", "401", "403", "404", "405", "429", "500"], "LegacyError", v3=False
                ),
            },
        }
    },
}


def v3_schemas(catalog: Catalog) -> dict[str, Any]:
    """The components/schemas entries of the v3 and legacy endpoints, a fresh copy; the search
    and matches bodies over `catalog`'s datasets."""
    return {
        **copy.deepcopy(SCHEMAS),
        "SearchRequest": search_request_schema(catalog),
        "MatchesRequest": matches_request_schema(catalog),
    }


def v3_paths() -> dict[str, Any]:
    """The OpenAPI `paths` entries of the v3 and legacy endpoints, a fresh copy."""
    return copy.deepcopy(PATHS)
