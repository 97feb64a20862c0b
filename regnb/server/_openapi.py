"""The OpenAPI 3.1 document of the whole interface, served at `/api/v3/openapi.json`.

Nothing here is a copy: error codes come from `regnb.errors`, bounds from the validation module,
defaults from the engine interface's signatures and the settings, the properties and required
fields of a wire object from its `regnb.models` type (`model_schema`), and the datasets, their
filters and date fields from the catalog the document is built for.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
from typing import Any

from regnb.catalog import Catalog, load_catalog
from regnb.errors import ERROR_CODES
from regnb.interface import SearchAPI
from regnb.models import DatasetStatus, Wire
from regnb.query import SYNTAXES
from regnb.request import ORDERS, SORTS
from regnb.results import FACET_COLUMNS, LEGACY_COLUMNS, MATCH_COLUMNS
from regnb.server._body import MAX_INT
from regnb.settings import Settings
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

__all__ = [
    "EXTENSION",
    "KEY",
    "error_responses",
    "matches_request_schema",
    "model_schema",
    "ok_response",
    "openapi_document",
    "search_request_schema",
]

EXTENSION = "regnb's extension (not in the interface): "
MATCHES_LIMIT_MAX = 1000  # regnb.server._v3.MATCHES_LIMIT_MAX

PAGE_MIN = 1  # pages are numbered from 1 in v3 (the validation module has no name for it)


def _default(method: Any, name: str) -> Any:
    """The default of a parameter of an engine interface method."""
    return inspect.signature(method).parameters[name].default


SETTINGS = {f.name: f.default for f in dataclasses.fields(Settings) if f.name != "home"}
PAGE_FROM_DEFAULT = _default(SearchAPI.read, "page_from")
LEGACY_SEARCH_TOP_K = _default(SearchAPI.legacy_search, "top_k")
LEGACY_CONTENTS_TOP_K = _default(SearchAPI.legacy_contents, "top_k")
CODES = list(ERROR_CODES)
STATUSES = ["ok", "no_match", "skipped", "not_available", "forbidden", "timeout", "error"]
WHY = {
    "400": "Invalid request: body, value, dataset or filter",
    "401": "Missing or invalid API key",
    "403": "The document's dataset needs an enterprise plan",
    "404": "No such document",
    "405": "The route does not take this method",
    "413": "Request body over the size limit",
    "429": "Rate limit (rate_limited) or another search of the account (concurrent_search)",
    "500": "Failure on the service's side",
    "502": "A dependency failed",
    "503": "Too many searches on the server (busy), or ranking failed",
    "504": "The search or the document read took too long",
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(kind: str, **rules: Any) -> dict[str, Any]:
    return {"type": [kind, "null"], **rules}


def _obj(required: list[str], props: dict[str, Any], closed: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "required": required, "properties": props}
    if closed:
        out["additionalProperties"] = False
    return out


def model_schema(model: type[Wire], props: dict[str, Any], closed: bool = True) -> dict[str, Any]:
    """The object schema of a wire model: `props` holds one schema per field, and the properties
    follow the fields' order; `required` is the keys the model always sends. A schema that names
    other properties than the model's fields is refused, so the two cannot drift apart."""
    keys = model.wire_keys()
    if set(props) != set(keys):
        raise ValueError(
            f"the schema of {model.__name__} names {sorted(props)}, its fields are {keys}"
        )
    return _obj(model.required_keys(), {key: props[key] for key in keys}, closed)


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _errors(statuses: list[str], schema: str, v3: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for status in statuses:
        headers: dict[str, Any] = {}
        if v3:
            headers["X-Request-Id"] = {"$ref": "#/components/headers/RequestId"}
        if status in ("429", "503"):
            headers["Retry-After"] = {"$ref": "#/components/headers/RetryAfter"}
        if status == "405":
            headers["Allow"] = {"$ref": "#/components/headers/Allow"}
        out[status] = {
            "description": WHY[status],
            "headers": headers,
            "content": _json(_ref(schema)),
        }
    return out


def _ok(schema: str, description: str, v3: bool = True) -> dict[str, Any]:
    headers = {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}} if v3 else {}
    return {"description": description, "headers": headers, "content": _json(_ref(schema))}


def error_responses(statuses: list[str], schema: str = "Error") -> dict[str, Any]:
    """The v3 error responses of `statuses` (for the paths other modules add)."""
    return _errors(statuses, schema)


def ok_response(schema: str, description: str) -> dict[str, Any]:
    """A v3 200 response of `schema` (for the paths other modules add)."""
    return _ok(schema, description)


def _body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": _json(_ref(schema))}


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
    fields = [f for d in catalog if d.available for f in d.fields]
    names = {"type": "string", "enum": list(dict.fromkeys([*FIXED_FACETS, *fields]))}
    sized = _obj(
        ["name"],
        {
            "name": names,
            "size": {"type": "integer", "minimum": 1, "maximum": FACET_SIZE_MAX, "default": 20},
        },
    )
    return _nullable(
        "array",
        items={"oneOf": [names, sized]},
        description=EXTENSION + "counts of matching documents and pages over every full match, "
        "per facet: dataset, year, month, cfr (CFR sections cited) or a catalog field of the "
        "searched datasets; the response gets `facets`",
    )


def search_request_schema(catalog: Catalog) -> dict[str, Any]:
    """The v3 search body over `catalog`'s datasets."""
    dated = _date_fields(catalog)
    bound = f"inclusive bound on each dataset's date field ({dated}); others report skipped"
    return _obj(
        ["keywords"],
        {
            "keywords": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_KEYWORDS,
                "items": {"type": "string", "maxLength": MAX_KEYWORD_CHARS},
                "description": "all words of one item must match a page; items are alternatives",
            },
            "query": _nullable("string", maxLength=MAX_QUERY_CHARS),
            "datasets": _nullable(
                "array", minItems=1, items={"type": "string", "enum": catalog.ids}
            ),
            "filters": _nullable(
                "object",
                properties=_dataset_filters(catalog),
                additionalProperties=False,
                description="keyed by dataset id; each value that dataset's own filters",
            ),
            "date_from": _nullable("string", format="date", description=bound),
            "date_to": _nullable("string", format="date", description=bound),
            "limit": _nullable("integer", minimum=1, maximum=LIMIT_MAX, default=LIMIT_DEFAULT),
            "offset": _nullable(
                "integer",
                minimum=0,
                maximum=OFFSET_MAX,
                default=_default(SearchAPI.search, "offset"),
            ),
            "sort": _nullable(
                "string",
                enum=[*SORTS, None],
                default="relevance",
                description=EXTENSION + "`date` (newest first) or `date_asc` orders the "
                "documents of every full match by date, undated last",
            ),
            "facets": _facets_schema(catalog),
            "syntax": _nullable(
                "string",
                enum=list(SYNTAXES),
                default="plain",
                description=SYNTAX_HELP,
            ),
        },
        closed=False,
    )


def matches_request_schema(catalog: Catalog) -> dict[str, Any]:
    """The body of `/api/v3/matches`: a search's, with `order` and a window of the matches."""
    schema = search_request_schema(catalog)
    props = schema["properties"]
    props["order"] = _nullable("string", enum=[*ORDERS, None], default="date")
    props["limit"] = _nullable(
        "integer", minimum=1, maximum=MATCHES_LIMIT_MAX, default=MATCHES_LIMIT_MAX
    )
    props["offset"] = _nullable("integer", minimum=0, maximum=MAX_INT, default=0)
    return schema


SYNTAX_HELP = (
    "Extension (regnb): how keyword items read. `plain` (absent or null: the interface's "
    'meaning) reads every item as plain words. `query` reads `"a phrase"`, `"a phrase"~3`, '
    "`-word`, `NOT word`, `a OR b`, parentheses, `title:word`, `field:value` (a catalog field "
    "of the datasets searched), `cfr:211.113` and `prefix*` inside each item; a malformed item "
    "is a 400 invalid_request naming `keywords[i]` and the character."
)


KEY: list[dict[str, list[str]]] = [{"apiKey": []}]
PAGE_PARAM = {"type": "integer", "minimum": PAGE_MIN, "maximum": MAX_INT}

SCHEMAS: dict[str, Any] = {
    "Error": _obj(
        ["error"],
        {
            "error": _obj(
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
    "ErrorWithoutField": _obj(
        ["error"],
        {
            "error": _obj(
                ["code", "message", "request_id"],
                {
                    "code": {"type": "string", "enum": CODES},
                    "message": {"type": "string"},
                    "request_id": {"type": "string", "pattern": "^req_[0-9a-f]{24}$"},
                },
            )
        },
    ),
    "LegacyError": _obj(["error"], {"error": {"type": "string"}}),
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
    "SearchPage": _obj(
        ["page_num", "score", "text"],
        {
            "page_num": {"type": "integer", "minimum": 1},
            "score": {"type": "number"},
            "text": {"type": "string"},
        },
    ),
    "SearchDocument": _obj(
        ["document_id", "dataset", "title", "date", "url", "fields", "pages", "matched_pages"],
        {
            "document_id": {"type": "string"},
            "dataset": {"type": "string"},
            "title": {"type": "string"},
            "date": _nullable("string", format="date"),
            "url": _nullable("string"),
            "fields": {"type": "object"},
            "pages": {"type": "array", "minItems": 1, "maxItems": 3, "items": _ref("SearchPage")},
            "matched_pages": {"type": "integer", "minimum": 1},
        },
    ),
    "SearchResponse": _obj(
        ["results", "datasets", "total", "next_offset", "ranking"],
        {
            "results": {"type": "array", "items": _ref("SearchDocument")},
            "datasets": {"type": "object", "additionalProperties": _ref("DatasetStatus")},
            "total": {"type": "integer", "minimum": 0},
            "next_offset": _nullable("integer", minimum=1),
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
                "additionalProperties": {"type": "array", "items": _ref("FacetRow")},
            },
        },
    ),
    "FacetRow": _obj(
        list(FACET_COLUMNS),
        {
            "value": _nullable("string", description="null: documents without a date"),
            "documents": {"type": "integer", "minimum": 0},
            "pages": {"type": "integer", "minimum": 0},
        },
    ),
    "Match": _obj(
        [*MATCH_COLUMNS, "fields"],
        {
            "document_id": {"type": "string"},
            "dataset": {"type": "string"},
            "title": {"type": "string"},
            "date": _nullable("string", format="date"),
            "url": _nullable("string"),
            "cfr": {"type": "array", "items": {"type": "string"}},
            "bm25": {"type": "number"},
            "pages": {"type": "integer", "minimum": 1},
            "fields": {"type": "object"},
        },
    ),
    "MatchesResponse": _obj(
        ["matches", "total", "next_offset"],
        {
            "matches": {"type": "array", "items": _ref("Match")},
            "total": {"type": "integer", "minimum": 0},
            "next_offset": _nullable("integer", minimum=1),
        },
    ),
    "Dataset": _obj(
        ["id", "name", "jurisdiction", "available", "enterprise"],
        {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "jurisdiction": {"type": "string"},
            "available": {"type": "boolean"},
            "enterprise": {"type": "boolean"},
            "date_field": _nullable("string"),
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
    "DatasetList": _obj(["datasets"], {"datasets": {"type": "array", "items": _ref("Dataset")}}),
    "DocumentPage": _obj(
        ["page_num", "text"],
        {"page_num": {"type": "integer", "minimum": 1}, "text": {"type": "string"}},
    ),
    "DocumentRead": _obj(
        ["document_id", "dataset", "title", "url", "total_pages", "pages", "next_page_from"],
        {
            "document_id": {"type": "string"},
            "dataset": {"type": "string"},
            "title": {"type": "string"},
            "url": _nullable("string"),
            "total_pages": {"type": "integer", "minimum": 1},
            "pages": {
                "type": "array",
                "maxItems": SETTINGS["read_max_pages"],
                "items": _ref("DocumentPage"),
            },
            "next_page_from": _nullable("integer", minimum=2),
        },
    ),
    "LegacySearchRequest": _obj(
        ["query_text"],
        {
            "query_text": {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_TEXT_CHARS},
            "top_k": _nullable(
                "integer", minimum=1, maximum=LEGACY_TOP_K_MAX, default=LEGACY_SEARCH_TOP_K
            ),
            "offset": _nullable("integer", minimum=0, maximum=MAX_INT, default=0),
            "dataset_to_search": _nullable("array", items={"type": "string"}),
            "year_from": _nullable("integer", minimum=0, maximum=YEAR_MAX),
            "year_to": _nullable("integer", minimum=0, maximum=YEAR_MAX),
        },
        closed=False,
    ),
    "LegacySearchResult": _obj(
        list(LEGACY_COLUMNS),
        {
            "id": {"type": "string"},
            "doc_id": {"type": "string"},
            "dataset": {"type": "string"},
            "page_num": {"type": "integer", "minimum": 0},
            "score": {"type": "number"},
            "name": {"type": "string"},
            "url": _nullable("string"),
            "company": _nullable("string"),
            "year_decision": _nullable("integer"),
            "text": {"type": "string"},
            "highlight": {"type": "string"},
        },
    ),
    "LegacySearchResponse": _obj(
        ["results", "total"],
        {
            "results": {"type": "array", "items": _ref("LegacySearchResult")},
            "total": {"type": "integer", "minimum": 0},
        },
    ),
    "LegacyContentsRequest": _obj(
        ["doc_id"],
        {
            "doc_id": {"type": "string"},
            "top_k": _nullable(
                "integer", minimum=1, maximum=LEGACY_TOP_K_MAX, default=LEGACY_CONTENTS_TOP_K
            ),
            "offset": _nullable("integer", minimum=0, maximum=MAX_INT, default=0),
        },
        closed=False,
    ),
    "LegacyContentsResponse": _obj(
        ["doc_id", "dataset", "name", "url", "company", "year_decision", "pages", "total_pages"],
        {
            "doc_id": {"type": "string"},
            "dataset": {"type": "string"},
            "name": {"type": "string"},
            "url": _nullable("string"),
            "company": _nullable("string"),
            "year_decision": _nullable("integer"),
            "pages": {
                "type": "array",
                "items": _obj(
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
            "requestBody": _body("SearchRequest"),
            "responses": {
                "200": _ok("SearchResponse", "The search response envelope"),
                **_errors(["400", "401", "405", "413", "429", "500", "502", "503", "504"], "Error"),
            },
        }
    },
    "/api/v3/matches": {
        "post": {
            "operationId": "matches",
            "summary": EXTENSION + "every matching document of a search, in date or BM25 order "
            "(a window of `limit` from `offset`), under the search's limits",
            "security": KEY,
            "requestBody": _body("MatchesRequest"),
            "responses": {
                "200": _ok("MatchesResponse", "Matching documents"),
                **_errors(["400", "401", "405", "413", "429", "500", "503", "504"], "Error"),
            },
        }
    },
    "/api/v3/datasets": {
        "get": {
            "operationId": "listDatasets",
            "summary": "Every dataset, with the filters and fields of the searchable ones",
            "security": KEY,
            "responses": {
                "200": _ok("DatasetList", "The dataset list"),
                **_errors(["401", "405", "429", "500"], "ErrorWithoutField"),
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
                {
                    "name": "document_id",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string"},
                },
                {
                    "name": "page_from",
                    "in": "query",
                    "schema": {**PAGE_PARAM, "default": PAGE_FROM_DEFAULT},
                },
                {"name": "page_to", "in": "query", "schema": PAGE_PARAM},
            ],
            "responses": {
                "200": _ok("DocumentRead", "The pages read"),
                **_errors(["400", "401", "403", "404", "405", "429", "500", "504"], "Error"),
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
                    "content": _json({"type": "object"}),
                },
                **_errors(["405"], "Error"),
            },
        }
    },
    "/api/search": {
        "post": {
            "operationId": "legacySearch",
            "summary": "Older page-level BM25 search (0-based page numbers)",
            "security": KEY,
            "requestBody": _body("LegacySearchRequest"),
            "responses": {
                "200": _ok("LegacySearchResponse", "Pages by relevance", v3=False),
                **_errors(["400", "401", "405", "429", "500", "503"], "LegacyError", v3=False),
            },
        }
    },
    "/api/contents": {
        "post": {
            "operationId": "legacyContents",
            "summary": "Older page-wise document reader (0-based page numbers)",
            "security": KEY,
            "requestBody": _body("LegacyContentsRequest"),
            "responses": {
                "200": _ok("LegacyContentsResponse", "The pages read", v3=False),
                **_errors(
                    ["400", "401", "403", "404", "405", "429", "500"], "LegacyError", v3=False
                ),
            },
        }
    },
}

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "regnb: regulatory document search",
        "version": "3",
        "description": "The service interface served locally by `regnb serve`. Every v3 response "
        "carries X-Request-Id; every 429 and 503 carries Retry-After. Any other path under "
        f"/api/v3/ answers 404 not_found. Request bodies are at most {SETTINGS['max_body_bytes']:,} "
        "bytes (v3: 413 payload_too_large; legacy: 400).",
    },
    "paths": PATHS,
    "components": {
        "securitySchemes": {"apiKey": {"type": "apiKey", "in": "header", "name": "x-api-key"}},
        "headers": {
            "RequestId": {
                "required": True,
                "schema": {"type": "string", "pattern": "^req_[0-9a-f]{24}$"},
            },
            "RetryAfter": {
                "required": True,
                "description": "seconds",
                "schema": {"type": "string", "pattern": "^[1-9][0-9]*$"},
            },
            "Allow": {"required": True, "schema": {"type": "string", "minLength": 1}},
        },
        "schemas": SCHEMAS,
    },
}


def openapi_document(catalog: Catalog | None = None) -> dict[str, Any]:
    """The whole interface's document for a server over `catalog` (default: the package's
    catalog), a fresh copy: search, documents, datasets, legacy, conversations and firms."""
    from regnb.server._conversations import conversation_paths, conversation_schemas
    from regnb.server._firms import firm_paths, firm_schemas

    document = copy.deepcopy(DOCUMENT)
    catalog = catalog if catalog is not None else load_catalog()
    document["components"]["schemas"]["SearchRequest"] = search_request_schema(catalog)
    document["components"]["schemas"]["MatchesRequest"] = matches_request_schema(catalog)
    document["components"]["schemas"].update(conversation_schemas())
    document["paths"].update(conversation_paths())
    document["components"]["schemas"].update(firm_schemas())
    document["paths"].update(firm_paths())
    return document
