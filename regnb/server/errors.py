"""The one place where a RegnbError becomes an HTTP response (v3 and legacy shapes): the status
of each error class (`STATUSES`; the core's errors carry codes, not statuses) and, for the remote
client, the class a code and status stand for (`error_class_of`)."""

from __future__ import annotations

import enum
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from regnb import errors
from regnb.errors import (
    Busy,
    InternalError,
    InvalidRequest,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    RegnbError,
)

__all__ = [
    "REQUEST_ID_HEADER",
    "STATUSES",
    "Style",
    "endpoint",
    "error_class_of",
    "error_response",
    "http_exception_handler",
    "http_status",
    "json_bytes",
    "json_response",
    "new_request_id",
    "request_id",
    "style_of_path",
]

log = logging.getLogger("regnb.server")

REQUEST_ID_HEADER = "X-Request-Id"
V3_PREFIX = "/api/v3"
CLIENT_CLOSED = 499  # nginx's "client closed request"; nothing is sent to a client that left
HIDDEN = {
    500: "internal error; the request id identifies it in the server log",
    502: "a dependency failed; the request id identifies it in the server log",
}
Handler = Callable[[Request], Awaitable[Response]]

STATUSES: dict[type[RegnbError], int] = {
    RegnbError: 500,
    errors.InvalidRequest: 400,
    errors.UnknownDataset: 400,
    errors.InvalidFilter: 400,
    errors.MissingApiKey: 401,
    errors.InvalidApiKey: 401,
    errors.QuotaExhausted: 402,
    errors.Forbidden: 403,
    errors.NotFound: 404,
    errors.MethodNotAllowed: 405,
    errors.TurnInFlight: 409,
    errors.IdempotencyKeyInUse: 409,
    errors.PayloadTooLarge: 413,
    errors.IdempotencyKeyReused: 422,
    errors.RateLimited: 429,
    errors.ConcurrentSearch: 429,
    errors.ConcurrentConversations: 429,
    errors.UpstreamError: 502,
    errors.RankingFailed: 503,
    errors.Busy: 503,
    errors.Unavailable: 503,
    errors.SearchTimeout: 504,
    errors.RankingTimeout: 503,
    errors.InternalError: 500,
}
"""The HTTP status of each error class (a subclass not listed has its parent's)."""


def http_status(error: RegnbError | type[RegnbError]) -> int:
    """The HTTP status an error (or error class) is answered with."""
    cls = error if isinstance(error, type) else type(error)
    return next(STATUSES[c] for c in cls.__mro__ if c in STATUSES)


def error_class_of(code: str, status: int | None = None) -> type[RegnbError]:
    """The class of a spec error `code` answered with `status` (which picks one where a code has
    two: `upstream_error` at 503 is RankingFailed, `timeout` at 503 RankingTimeout)."""
    matches = [
        c for c in errors.error_classes()[1:] if c.code == code and c is not errors.CorpusError
    ]
    exact = [c for c in matches if http_status(c) == status]
    return (exact or matches or [RegnbError])[0]


class Style(enum.Enum):
    """How an endpoint writes its errors."""

    V3 = "v3"  # {"error": {"code", "message", "field"?, "request_id"}}
    V3_NO_FIELD = "v3_no_field"  # the dataset list: the same without `field`
    LEGACY = "legacy"  # {"error": "<message>"}


def new_request_id() -> str:
    """`req_` and 24 lower-case hex characters."""
    return "req_" + secrets.token_hex(12)


def request_id(request: Request) -> str:
    """The id the request-id middleware gave this request."""
    state = request.scope.setdefault("state", {})
    if "request_id" not in state:
        state["request_id"] = new_request_id()
    return str(state["request_id"])


def style_of_path(path: str) -> Style:
    if path == V3_PREFIX or path.startswith(V3_PREFIX + "/"):
        return Style.V3
    return Style.LEGACY


def json_bytes(content: Any) -> bytes:
    """Compact UTF-8 JSON, as Starlette's JSONResponse writes it."""
    return json.dumps(
        content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")


def json_response(
    content: Any, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    body = content if isinstance(content, bytes) else json_bytes(content)
    return Response(body, status, headers=headers, media_type="application/json")


def _legacy_status(exc: RegnbError, status: int) -> int:
    """The spec's legacy statuses (400, 401, 404, 429, 500), plus 403, 405 and busy's 503."""
    if isinstance(exc, PayloadTooLarge) or status == 400:
        return 400
    if status in (401, 403, 404, 405, 429) or isinstance(exc, Busy):
        return status
    return 500


def error_response(
    exc: RegnbError,
    rid: str,
    style: Style,
    headers: dict[str, str] | None = None,
    *,
    status: int | None = None,
) -> Response:
    """The error's status (`status` when given, else its class's) and body in the endpoint's
    style; Retry-After on every 429 and 503."""
    own = status if status is not None else http_status(exc)
    status = own if style is not Style.LEGACY else _legacy_status(exc, own)
    message = HIDDEN.get(own, exc.message)
    if message != exc.message:
        log.error("%s %s: %s", rid, exc.code, exc.message)
    headers = dict(headers or {})
    if status in (429, 503):
        headers["Retry-After"] = str(max(1, int(exc.retry_after or 1)))
    if style is Style.LEGACY:
        return json_response({"error": message}, status, headers)
    error: dict[str, Any] = {"code": exc.code, "message": message}
    if exc.field is not None and style is Style.V3:
        error["field"] = exc.field
    error["request_id"] = rid
    return json_response({"error": error}, status, headers)


def endpoint(handler: Handler, style: Style) -> Handler:
    """Run a route; any exception becomes the endpoint's error response (never a traceback).

    A client that leaves while its body is read is logged in one line, not as a failure.
    """

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except RegnbError as exc:
            return error_response(exc, request_id(request), style)
        except ClientDisconnect:
            rid = request_id(request)
            log.info("%s %s %s: client disconnected", rid, request.method, request.url.path)
            return Response(status_code=CLIENT_CLOSED)
        except Exception:
            rid = request_id(request)
            log.exception("%s %s %s failed", rid, request.method, request.url.path)
            return error_response(InternalError(HIDDEN[500]), rid, style)

    run.__name__ = getattr(handler, "__name__", "endpoint")
    run.__doc__ = handler.__doc__
    return run


async def http_exception_handler(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 and 405 (no route, wrong method), in the path's error style."""
    assert isinstance(exc, HTTPException)
    path = request.url.path
    headers: dict[str, str] = {}
    error: RegnbError
    status = None
    if exc.status_code == 405:
        allow = (exc.headers or {}).get("Allow", "")
        headers["Allow"] = allow
        error = MethodNotAllowed(f"{request.method} is not allowed on {path}; allowed: {allow}")
    elif exc.status_code == 404:
        error = NotFound(f"{path} is not an endpoint")
    else:
        error = InvalidRequest(str(exc.detail))
        status = exc.status_code
    return error_response(error, request_id(request), style_of_path(path), headers, status=status)
