"""The firm routes, extensions of the spec: `GET /api/v3/firms?q=` (the firms a name or an
identifier may mean) and `GET /api/v3/firms/{firm_id}/timeline` (a firm and every document about
it); and their OpenAPI paths and schemas. Both call the engine's `firm` and `timeline`
(`regnb.firms.timeline`), authenticated and rate-limited as every v3 route; a timeline also takes a
search slot, as it reads many documents."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from regnb.errors import InvalidRequest, NotFound
from regnb.firms.lookup import FIRMS_LIMIT_MAX
from regnb.firms.timeline import firm_records, timeline_records
from regnb.server._body import query_int
from regnb.server._conversations import check_query
from regnb.server._openapi import EXTENSION, KEY, error_responses, ok_response
from regnb.server._state import ServerState
from regnb.server.errors import Style, endpoint, json_bytes, json_response

__all__ = ["FirmRoutes", "firm_arguments", "firm_paths", "firm_schemas"]

PREFIX = "/api/v3/firms"
LIMIT_DEFAULT = 20


def firm_arguments(request: Request) -> dict[str, Any]:
    """`Engine.firm` arguments from the query: `q` (required, not blank), `datasets` (ids
    separated by commas) and `limit`; any other parameter is refused."""
    check_query(request, ("q", "datasets", "limit"))
    q = request.query_params.get("q")
    if q is None:
        raise InvalidRequest("q is required: a firm's name, an identifier or a firm id", field="q")
    if not q.strip():
        raise InvalidRequest("q must not be blank", field="q")
    args: dict[str, Any] = {"name_or_id": q, "limit": query_int(request, "limit", LIMIT_DEFAULT)}
    datasets = request.query_params.get("datasets")
    if datasets is not None:
        args["datasets"] = [d.strip() for d in datasets.split(",")]
    return args


class FirmRoutes:
    """Handlers of the firm endpoints."""

    def __init__(self, state: ServerState) -> None:
        self.state = state

    def routes(self) -> list[Route]:
        return [
            Route(PREFIX, endpoint(self.firms, Style.V3), methods=["GET"]),
            Route(
                f"{PREFIX}/{{firm_id}}/timeline", endpoint(self.timeline, Style.V3), methods=["GET"]
            ),
        ]

    async def firms(self, request: Request) -> Response:
        """GET /api/v3/firms?q=: `{"firms": [...]}`, best match first."""
        state = self.state
        caller = await state.authenticate(request)
        args = firm_arguments(request)

        def run() -> bytes:
            found = state.engine.firm(**args, plan=caller.plan)
            return json_bytes({"firms": firm_records(found)})

        return json_response(await state.blocking(run, "firm lookup"))

    async def timeline(self, request: Request) -> Response:
        """GET /api/v3/firms/{firm_id}/timeline: `{"firm": {...}, "events": [...]}`."""
        state = self.state
        caller = await state.authenticate(request)
        check_query(request)
        firm_id = request.path_params["firm_id"]

        def run() -> bytes:
            try:
                timeline = state.engine.timeline(firm_id, plan=caller.plan)
            except NotFound as error:  # the firm, not the path: its field says which
                raise NotFound(error.message, field="firm_id") from None
            return json_bytes({"firm": timeline.firm, "events": timeline_records(timeline)})

        return json_response(await state.search(caller, run))


_STRINGS = {"type": "array", "items": {"type": "string"}}


def _closed(props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": list(props),
        "properties": props,
        "additionalProperties": False,
    }


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
        "FirmList": _closed(
            {"firms": {"type": "array", "items": {"$ref": "#/components/schemas/Firm"}}}
        ),
        "TimelineEvent": _closed(event),
        "Timeline": _closed(
            {
                "firm": {"$ref": "#/components/schemas/Firm"},
                "events": {
                    "type": "array",
                    "items": {"$ref": "#/components/schemas/TimelineEvent"},
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
                "parameters": [
                    {
                        "name": "firm_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {
                    "200": ok_response("Timeline", "The firm's timeline"),
                    **error_responses(["400", "401", "404", "405", "429", "500", "503", "504"]),
                },
            }
        },
    }
