"""One exception hierarchy for regnb; it knows nothing about HTTP transport beyond a status number.

RegnbError                      code, status, message, field
├── InvalidRequest              400 invalid_request
├── UnknownDataset              400 unknown_dataset
├── InvalidFilter               400 invalid_filter
├── MissingApiKey               401 missing_api_key
├── InvalidApiKey               401 invalid_api_key
├── QuotaExhausted              402 quota_exhausted
├── Forbidden                   403 forbidden
├── NotFound                    404 not_found
├── MethodNotAllowed            405 method_not_allowed
├── TurnInFlight                409 turn_in_flight
├── IdempotencyKeyInUse         409 idempotency_key_in_use
├── PayloadTooLarge             413 payload_too_large
├── IdempotencyKeyReused        422 idempotency_key_reused
├── RateLimited                 429 rate_limited
├── ConcurrentSearch            429 concurrent_search
├── ConcurrentConversations     429 concurrent_conversations
├── UpstreamError               502 upstream_error
│   └── RankingFailed           503 upstream_error  (the query could not be embedded)
├── Busy                        503 busy
├── SearchTimeout               504 timeout
│   └── RankingTimeout          503 timeout         (ranking ran out of time)
├── InternalError               500 internal_error
└── CorpusError                 500 internal_error  (a shard or corpus that cannot be read)

`error_class(code, status)` and `error_from_dict(body, status)` map the spec's error objects back to
these classes (the remote client raises the same exceptions as the local engine).
"""

from __future__ import annotations

__all__ = [
    "ERROR_CODES",
    "Busy",
    "ConcurrentConversations",
    "ConcurrentSearch",
    "CorpusError",
    "Forbidden",
    "IdempotencyKeyInUse",
    "IdempotencyKeyReused",
    "InternalError",
    "InvalidApiKey",
    "InvalidFilter",
    "InvalidRequest",
    "MethodNotAllowed",
    "MissingApiKey",
    "NotFound",
    "PayloadTooLarge",
    "QuotaExhausted",
    "RankingFailed",
    "RankingTimeout",
    "RateLimited",
    "RegnbError",
    "SearchTimeout",
    "TurnInFlight",
    "UnknownDataset",
    "UpstreamError",
    "error_class",
    "error_from_dict",
]


class RegnbError(Exception):
    """Base of every regnb error: `code` is the spec's error code, `field` the request field at fault."""

    code = "internal_error"
    status = 500

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        retry_after: int | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.retry_after = retry_after
        self.request_id = request_id

    def to_dict(self) -> dict[str, object]:
        """The spec's error object, without `request_id` (the HTTP layer adds it)."""
        body: dict[str, object] = {"code": self.code, "message": self.message}
        if self.field is not None:
            body["field"] = self.field
        return body

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, field={self.field!r}, {self.message!r})"


class InvalidRequest(RegnbError):
    """A value is missing, of the wrong type or out of range."""

    code, status = "invalid_request", 400


class UnknownDataset(RegnbError):
    """A dataset id that the catalog does not list."""

    code, status = "unknown_dataset", 400


class InvalidFilter(RegnbError):
    """A filter the dataset does not list, a wrong-typed value, or a filter the search cannot use."""

    code, status = "invalid_filter", 400


class MissingApiKey(RegnbError):
    """No `x-api-key` header."""

    code, status = "missing_api_key", 401


class InvalidApiKey(RegnbError):
    """The key does not exist or was deleted."""

    code, status = "invalid_api_key", 401


class QuotaExhausted(RegnbError):
    """The free plan's monthly questions are used up."""

    code, status = "quota_exhausted", 402


class Forbidden(RegnbError):
    """The plan does not give access to this dataset or file."""

    code, status = "forbidden", 403


class NotFound(RegnbError):
    """No such document, conversation or endpoint."""

    code, status = "not_found", 404


class MethodNotAllowed(RegnbError):
    """The route does not take this method."""

    code, status = "method_not_allowed", 405


class TurnInFlight(RegnbError):
    """The conversation is still running its previous message."""

    code, status = "turn_in_flight", 409


class IdempotencyKeyInUse(RegnbError):
    """A request with this idempotency key is still being processed."""

    code, status = "idempotency_key_in_use", 409


class PayloadTooLarge(RegnbError):
    """The request body is over the size limit."""

    code, status = "payload_too_large", 413


class IdempotencyKeyReused(RegnbError):
    """The idempotency key was already used with a different message."""

    code, status = "idempotency_key_reused", 422


class RateLimited(RegnbError):
    """Too many requests in the last minute on this key."""

    code, status = "rate_limited", 429


class ConcurrentSearch(RegnbError):
    """Another search from the account is still running."""

    code, status = "concurrent_search", 429


class ConcurrentConversations(RegnbError):
    """The account already has its maximum of running conversations."""

    code, status = "concurrent_conversations", 429


class UpstreamError(RegnbError):
    """A dependency failed (the catalog, the ranking model)."""

    code, status = "upstream_error", 502


class RankingFailed(UpstreamError):
    """The ranking model failed (the query could not be embedded)."""

    status = 503


class Busy(RegnbError):
    """The server already runs its maximum of searches."""

    code, status = "busy", 503


class SearchTimeout(RegnbError):
    """The search or document read took too long."""

    code, status = "timeout", 504


class RankingTimeout(SearchTimeout):
    """Ranking ran out of time."""

    status = 503


class InternalError(RegnbError):
    """A failure on regnb's side."""

    code, status = "internal_error", 500


class CorpusError(InternalError):
    """A shard, manifest or catalog file of a corpus cannot be read; the message names the file."""


def _classes() -> list[type[RegnbError]]:
    found: list[type[RegnbError]] = []
    todo: list[type[RegnbError]] = [RegnbError]
    while todo:
        cls = todo.pop(0)
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def error_class(code: str, status: int | None = None) -> type[RegnbError]:
    """The class of a spec error `code` (and HTTP `status` where a code has two)."""
    matches = [c for c in _classes()[1:] if c.code == code and c is not CorpusError]
    if not matches:
        return RegnbError
    exact = [c for c in matches if c.status == status]
    return (exact or matches)[0]


def error_from_dict(body: dict[str, object], status: int | None = None) -> RegnbError:
    """The exception a spec error object stands for: `{code, message, field?, request_id?}`."""
    code = str(body.get("code") or "internal_error")
    cls = error_class(code, status)
    field = body.get("field")
    rid = body.get("request_id")
    error = cls(
        str(body.get("message") or code),
        field=str(field) if field is not None else None,
        request_id=str(rid) if rid is not None else None,
    )
    if cls is RegnbError or (status is not None and cls.status != status):
        error.code = code
        if status is not None:
            error.status = status
    return error


ERROR_CODES: tuple[str, ...] = tuple(
    dict.fromkeys(c.code for c in _classes() if c is not RegnbError)
)
"""Every error code of the spec, in the order of the hierarchy above."""
