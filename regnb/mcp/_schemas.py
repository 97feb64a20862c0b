"""Each tool's description and input schema, taken from the served OpenAPI document
(`regnb.server.openapi`) of the same catalog: a tool is an operation of the document, its input
the operation's request body or its parameters, its description the operation's summary. What
an assistant's context needs on top (smaller windows, paging a timeline, a follow-up's
conversation id) is written here as a change of that schema, never as a second copy."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from regnb.catalog import Catalog
from regnb.server.openapi import openapi_document
from regnb.server.openapi._schema import EXTENSION

__all__ = [
    "MATCHES_LIMIT_DEFAULT",
    "MATCHES_LIMIT_MAX",
    "PASSAGE_CHARS",
    "READ_PAGES_MAX",
    "TIMELINE_LIMIT_DEFAULT",
    "TIMELINE_LIMIT_MAX",
    "ToolSpec",
    "tool_specs",
]

MATCHES_LIMIT_DEFAULT, MATCHES_LIMIT_MAX = 50, 200  # HTTP: 1000 a window
READ_PAGES_MAX = 10  # HTTP: 100 pages or 2 MB a read
TIMELINE_LIMIT_DEFAULT, TIMELINE_LIMIT_MAX = 50, 200
PASSAGE_CHARS = 300  # a search result's page, cut to its best passage

FACETS_OUT = ("limit", "offset", "sort", "facets", "places")  # a search's, not a count's


@dataclass(frozen=True)
class ToolSpec:
    """A tool as `tools/list` shows it."""

    name: str
    description: str
    input_schema: dict[str, Any]


def _inline(value: Any, schemas: dict[str, Any]) -> Any:
    """`value` with every `#/components/schemas/` reference replaced by the schema it names."""
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            return _inline(schemas[ref.rsplit("/", 1)[1]], schemas)
        return {k: _inline(v, schemas) for k, v in value.items()}
    if isinstance(value, list):
        return [_inline(v, schemas) for v in value]
    return value


def _closed(schema: dict[str, Any]) -> dict[str, Any]:
    """An argument the tool does not define is refused by name (the HTTP layer refuses an
    unknown body field the same way)."""
    return {**schema, "additionalProperties": False}


class _Document:
    """The operations of an OpenAPI document, by operation id."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.schemas = document["components"]["schemas"]
        self.operations = {
            op["operationId"]: op
            for item in document["paths"].values()
            for op in item.values()
            if isinstance(op, dict) and "operationId" in op
        }

    def summary(self, operation: str) -> str:
        text = str(self.operations[operation]["summary"]).removeprefix(EXTENSION)
        return text[:1].upper() + text[1:]

    def body(self, operation: str) -> dict[str, Any]:
        """The operation's JSON request body schema, references inlined."""
        content = self.operations[operation]["requestBody"]["content"]
        return _closed(_inline(copy.deepcopy(content["application/json"]["schema"]), self.schemas))

    def parameters(self, operation: str) -> dict[str, Any]:
        """The operation's path and query parameters as one object schema."""
        props: dict[str, Any] = {}
        required: list[str] = []
        for p in self.operations[operation].get("parameters", []):
            if p["in"] not in ("path", "query"):
                continue
            schema = copy.deepcopy(p["schema"])
            if "description" in p:
                schema["description"] = p["description"]
            props[p["name"]] = schema
            if p.get("required"):
                required.append(p["name"])
        return {
            "type": "object",
            "required": required,
            "properties": props,
            "additionalProperties": False,
        }


def _window(schema: dict[str, Any], name: str, default: int, most: int, what: str) -> None:
    """`name` of `schema` bounded for an assistant's context."""
    schema["properties"][name] = {
        "type": ["integer", "null"],
        "minimum": 1,
        "maximum": most,
        "default": default,
        "description": what,
    }


def tool_specs(catalog: Catalog | None = None) -> dict[str, ToolSpec]:
    """Every tool over `catalog` (default: the package's), by name."""
    doc = _Document(openapi_document(catalog))
    search = doc.body("search")

    matches = doc.body("matches")
    _window(
        matches,
        "limit",
        MATCHES_LIMIT_DEFAULT,
        MATCHES_LIMIT_MAX,
        "matches in this window (follow `next_offset` for the next)",
    )

    facets = copy.deepcopy(search)
    props = facets["properties"]
    names = props["facets"]["items"]["oneOf"][0]
    size = props["facets"]["items"]["oneOf"][1]["properties"]["size"]
    for name in FACETS_OUT:
        del props[name]
    props["by"] = {
        "type": ["array", "null"],
        "minItems": 1,
        "items": names,
        "default": ["dataset", "year"],
        "description": "the facets to count by",
    }
    props["size"] = {**size, "type": ["integer", "null"], "description": "values per facet"}

    read = doc.parameters("readDocument")
    read["properties"]["page_to"]["description"] = f"at most {READ_PAGES_MAX} pages a call"

    timeline = doc.parameters("firmTimeline")
    timeline["properties"]["offset"] = {
        "type": ["integer", "null"],
        "minimum": 0,
        "default": 0,
        "description": "the first event of this window",
    }
    _window(timeline, "limit", TIMELINE_LIMIT_DEFAULT, TIMELINE_LIMIT_MAX, "events in this window")

    research = doc.body("startConversation")
    research["properties"]["conversation_id"] = {
        "type": ["string", "null"],
        "description": "a conversation to continue: a follow-up, or the reply to its "
        "clarifying question",
    }

    search_text = (
        f"{doc.summary('search')}. Results are documents, each with its id, URL and the best "
        f"passages (up to {PASSAGE_CHARS} characters) of its best pages; `total` counts every "
        "document and `next_offset` pages on."
    )
    specs = [
        ToolSpec("search", search_text, search),
        ToolSpec(
            "read",
            f"{doc.summary('readDocument').split(' (')[0]}: at most {READ_PAGES_MAX} pages a "
            "call; `next_page_from` is where the next call starts.",
            read,
        ),
        ToolSpec("datasets", doc.summary("listDatasets") + ".", doc.parameters("listDatasets")),
        ToolSpec(
            "facets",
            "Exact counts of matching documents and pages over every full match of a search, "
            "per facet (dataset, year, month, cfr, a catalog field, country, state, city).",
            facets,
        ),
        ToolSpec(
            "matches",
            f"{doc.summary('matches').split(' (')[0]}: `limit` of them from `offset`, with "
            "`total` and `next_offset`.",
            matches,
        ),
        ToolSpec("firm", doc.summary("findFirms") + ".", doc.parameters("findFirms")),
        ToolSpec(
            "timeline",
            f"{doc.summary('firmTimeline')}; `limit` events from `offset`, with `total`.",
            timeline,
        ),
        ToolSpec(
            "research",
            "Research a question over the documents: reports each step as progress and returns "
            "a markdown answer with numbered citations (document id, page, quoted passage, "
            "each verified on its page), or a clarifying question (`needs_input`) to answer "
            "with a follow-up that names the `conversation_id`.",
            research,
        ),
    ]
    return {s.name: s for s in specs}
