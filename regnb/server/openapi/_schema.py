"""The builders every part of the OpenAPI document shares: references, object schemas (a wire
model's from its `regnb.models` type), the 200 and error responses with their headers, and the
interface's error meanings."""

from __future__ import annotations

import dataclasses
from typing import Any

from regnb.models import Wire
from regnb.settings import Settings

__all__ = [
    "EXTENSION",
    "HEADERS",
    "KEY",
    "SETTINGS",
    "WHY",
    "error_responses",
    "json_content",
    "model_schema",
    "nullable",
    "object_schema",
    "ok_response",
    "path_parameter",
    "ref",
    "request_body",
]

EXTENSION = "regnb's extension (not in the interface): "
KEY: list[dict[str, list[str]]] = [{"apiKey": []}]
SETTINGS = {f.name: f.default for f in dataclasses.fields(Settings) if f.name != "home"}
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
HEADERS: dict[str, Any] = {
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
}


def ref(name: str) -> dict[str, str]:
    """A reference to the schema `name` of components/schemas."""
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(kind: str, **rules: Any) -> dict[str, Any]:
    """A value of type `kind` or null."""
    return {"type": [kind, "null"], **rules}


def object_schema(
    required: list[str], props: dict[str, Any], closed: bool = True
) -> dict[str, Any]:
    """An object of `props`; `closed` refuses any other property."""
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
    return object_schema(model.required_keys(), {key: props[key] for key in keys}, closed)


def json_content(schema: dict[str, Any]) -> dict[str, Any]:
    """A JSON body of `schema`."""
    return {"application/json": {"schema": schema}}


def request_body(schema: str) -> dict[str, Any]:
    """A required JSON request body of the schema `schema`."""
    return {"required": True, "content": json_content(ref(schema))}


def path_parameter(name: str) -> dict[str, Any]:
    """A string parameter of the path."""
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def error_responses(
    statuses: list[str], schema: str = "Error", *, why: dict[str, str] = WHY, v3: bool = True
) -> dict[str, Any]:
    """The error responses of `statuses`, each described by `why` (default: the interface's
    meanings); v3 ones carry X-Request-Id, 429 and 503 Retry-After, 405 Allow."""
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
            "description": why[status],
            "headers": headers,
            "content": json_content(ref(schema)),
        }
    return out


def ok_response(schema: str, description: str, v3: bool = True) -> dict[str, Any]:
    """A 200 response of the schema `schema`; a v3 one carries X-Request-Id."""
    headers = {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}} if v3 else {}
    return {"description": description, "headers": headers, "content": json_content(ref(schema))}
