"""The firm routes, extensions of the spec: `GET /api/v3/firms?q=` (the firms a name or an
identifier may mean) and `GET /api/v3/firms/{firm_id}/timeline` (a firm and every document about
it); their OpenAPI paths are in `regnb.server.openapi.firms`. Both call the engine's `firm` and
`timeline` (`regnb.firms.timeline`), authenticated and rate-limited as every v3 route; a timeline
also takes a search slot, as it reads many documents."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from regnb.errors import InvalidRequest, NotFound
from regnb.firms.timeline import firm_records, timeline_records
from regnb.server._body import check_query, query_int
from regnb.server._state import ServerState
from regnb.server.errors import Style, endpoint, json_bytes, json_response

__all__ = ["FirmRoutes", "firm_arguments"]

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
