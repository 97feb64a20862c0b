"""A server's answer or a failed connection as the exception the local engine would raise.

v3 errors carry the spec's error object and map back by `code` and status (`error_class_of`, from
the server's own status table);
the legacy endpoints' `{"error": "<message>"}` has no code, so its status picks the class. A body
that is not the spec's (a proxy's HTML page) falls back to the status too.
"""

from __future__ import annotations

import enum
import json
import math
from typing import Any

import httpx

from regnb.client._retry import parse_retry_after
from regnb.errors import (
    Busy,
    Forbidden,
    InternalError,
    InvalidApiKey,
    InvalidRequest,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    QuotaExhausted,
    RateLimited,
    RegnbError,
    SearchTimeout,
    TurnInFlight,
    UpstreamError,
    error_from_dict,
)
from regnb.server.errors import error_class_of

__all__ = ["STATUS_CLASSES", "Style", "error_from_response", "transport_error"]

REQUEST_ID_HEADER = "x-request-id"
SNIPPET_CHARS = 200

STATUS_CLASSES: dict[int, type[RegnbError]] = {
    400: InvalidRequest,
    401: InvalidApiKey,
    402: QuotaExhausted,
    403: Forbidden,
    404: NotFound,
    405: MethodNotAllowed,
    409: TurnInFlight,
    413: PayloadTooLarge,
    429: RateLimited,
    500: InternalError,
    502: UpstreamError,
    503: Busy,
    504: SearchTimeout,
}
"""The class of an error whose body names no code: each status's most common code."""


class Style(enum.Enum):
    """How an endpoint writes its errors."""

    V3 = "v3"  # {"error": {"code", "message", "field"?, "request_id"}}
    LEGACY = "legacy"  # {"error": "<message>"}


def _body(response: httpx.Response) -> Any:
    try:
        return json.loads(response.content)
    except ValueError:
        return None


def _by_status(response: httpx.Response, message: str) -> RegnbError:
    status = response.status_code
    cls = STATUS_CLASSES.get(status)
    if cls is None:  # a status the spec does not use: named in the message
        cls = InternalError if status >= 500 else InvalidRequest
        return cls(f"HTTP {status}: {message}")
    return cls(message)


def _no_spec_body(response: httpx.Response) -> str:
    text = " ".join(response.text.split())[:SNIPPET_CHARS]
    where = f"{response.request.method} {response.request.url}"
    return f"HTTP {response.status_code} from {where}: {text or 'no body'}"


def error_from_response(response: httpx.Response, style: Style) -> RegnbError:
    """The exception an error response stands for, with `request_id` and `retry_after` set."""
    body = _body(response)
    payload = body.get("error") if isinstance(body, dict) else None
    if isinstance(payload, dict) and payload.get("code"):
        cls = error_class_of(str(payload["code"]), response.status_code)
        error = error_from_dict(payload, cls)
    elif isinstance(payload, str) and payload:
        error = _by_status(response, payload)
    else:
        error = _by_status(response, _no_spec_body(response))
    if error.request_id is None and style is Style.V3:
        error.request_id = response.headers.get(REQUEST_ID_HEADER)
    seconds = parse_retry_after(response.headers.get("retry-after"))
    if seconds is not None:
        error.retry_after = math.ceil(seconds)
    return error


def transport_error(exc: httpx.TransportError, url: str) -> RegnbError:
    """A failed connection: SearchTimeout when the server did not answer in time, else
    UpstreamError (the server is the client's dependency); the httpx error is the cause."""
    if isinstance(exc, httpx.ReadTimeout | httpx.WriteTimeout):
        return SearchTimeout(f"no answer from {url} in time ({type(exc).__name__}: {exc})")
    return UpstreamError(f"could not reach {url} ({type(exc).__name__}: {exc})")
