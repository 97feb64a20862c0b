"""One exception hierarchy for regnb; it knows nothing about HTTP: each error carries the spec's
`code` and the request `field` at fault, and `regnb.server.errors` gives each class its status.

RegnbError                      code, message, field
├── InvalidRequest               invalid_request
│   └── FeatureNotOffered        invalid_request (a server without an extension of regnb serve)
├── UnknownDataset               unknown_dataset
├── InvalidFilter                invalid_filter
├── MissingApiKey                missing_api_key
├── InvalidApiKey                invalid_api_key
├── QuotaExhausted               quota_exhausted
├── Forbidden                    forbidden
├── NotFound                     not_found
├── MethodNotAllowed             method_not_allowed
├── TurnInFlight                 turn_in_flight
├── IdempotencyKeyInUse          idempotency_key_in_use
├── PayloadTooLarge              payload_too_large
├── IdempotencyKeyReused         idempotency_key_reused
├── RateLimited                  rate_limited
├── ConcurrentSearch             concurrent_search
├── ConcurrentConversations      concurrent_conversations
├── UpstreamError                upstream_error
│   └── RankingFailed            upstream_error  (the query could not be embedded)
├── Busy                         busy
├── Unavailable                  unavailable     (the database does not answer; an extension)
├── SearchTimeout                timeout
│   └── RankingTimeout           timeout         (ranking ran out of time)
├── InternalError                internal_error
└── CorpusError                  internal_error  (a shard or corpus that cannot be read)
    └── IndexDamaged             internal_error  (a segment of the index not as written)

`error_class(code)` and `error_from_dict(body)` map the spec's error objects back to these classes
(the remote client raises the same exceptions as the local engine; where a code has two classes,
the HTTP status picks one: `regnb.server.errors.error_class_of`).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ERROR_CODES",
    "Busy",
    "ConcurrentConversations",
    "ConcurrentSearch",
    "CorpusError",
    "FeatureNotOffered",
    "Forbidden",
    "IdempotencyKeyInUse",
    "IdempotencyKeyReused",
    "IndexDamaged",
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
    "Unavailable",
    "UnknownDataset",
    "UpstreamError",
    "error_class",
    "error_classes",
    "error_from_dict",
]


class RegnbError(Exception):
    """Base of every regnb error: `code` is the spec's error code, `field` the request field at fault."""

    code = "internal_error"

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

    code = "invalid_request"


class FeatureNotOffered(InvalidRequest):
    """The server does not offer an extension that the call needs (facets, sort, the query
    syntax, every match): raised by the remote client, never sent over HTTP; `field` names the
    argument (`facets`, `sort`, `syntax`, `matches`)."""


class UnknownDataset(RegnbError):
    """A dataset id that the catalog does not list."""

    code = "unknown_dataset"


class InvalidFilter(RegnbError):
    """A filter the dataset does not list, a wrong-typed value, or a filter the search cannot use."""

    code = "invalid_filter"


class MissingApiKey(RegnbError):
    """No `x-api-key` header."""

    code = "missing_api_key"


class InvalidApiKey(RegnbError):
    """The key does not exist or was deleted."""

    code = "invalid_api_key"


class QuotaExhausted(RegnbError):
    """The free plan's monthly questions are used up."""

    code = "quota_exhausted"


class Forbidden(RegnbError):
    """The plan does not give access to this dataset or file."""

    code = "forbidden"


class NotFound(RegnbError):
    """No such document, conversation or endpoint."""

    code = "not_found"


class MethodNotAllowed(RegnbError):
    """The route does not take this method."""

    code = "method_not_allowed"


class TurnInFlight(RegnbError):
    """The conversation is still running its previous message."""

    code = "turn_in_flight"


class IdempotencyKeyInUse(RegnbError):
    """A request with this idempotency key is still being processed."""

    code = "idempotency_key_in_use"


class PayloadTooLarge(RegnbError):
    """The request body is over the size limit."""

    code = "payload_too_large"


class IdempotencyKeyReused(RegnbError):
    """The idempotency key was already used with a different message."""

    code = "idempotency_key_reused"


class RateLimited(RegnbError):
    """Too many requests in the last minute on this key."""

    code = "rate_limited"


class ConcurrentSearch(RegnbError):
    """Another search from the account is still running."""

    code = "concurrent_search"


class ConcurrentConversations(RegnbError):
    """The account already has its maximum of running conversations."""

    code = "concurrent_conversations"


class UpstreamError(RegnbError):
    """A dependency failed (the catalog, the ranking model)."""

    code = "upstream_error"


class RankingFailed(UpstreamError):
    """The ranking model failed (the query could not be embedded)."""


class Busy(RegnbError):
    """The server already runs its maximum of searches."""

    code = "busy"


class Unavailable(RegnbError):
    """A service regnb depends on (its PostgreSQL database) did not answer, or not in time: try
    again after `retry_after` seconds (an extension of the spec's codes)."""

    code = "unavailable"

    def __init__(self, message: str, **kwargs: Any) -> None:
        kwargs.setdefault("retry_after", UNAVAILABLE_RETRY_S)
        super().__init__(message, **kwargs)


UNAVAILABLE_RETRY_S = 5


class SearchTimeout(RegnbError):
    """The search or document read took too long."""

    code = "timeout"


class RankingTimeout(SearchTimeout):
    """Ranking ran out of time."""


class InternalError(RegnbError):
    """A failure on regnb's side."""

    code = "internal_error"


class CorpusError(InternalError):
    """A shard, manifest or catalog file of a corpus cannot be read; the message names the file."""


class IndexDamaged(CorpusError):
    """A segment of the index whose files are not as written (`regnb.index.checksums`): the
    message names the segment, the file and the repair (`of`)."""

    segment = ""
    problem = ""

    @classmethod
    def of(cls, segment: str, problem: str) -> IndexDamaged:
        """The error of a segment's problem (`texts.bin truncated`)."""
        error = cls(f"index damaged: segment {segment}: {problem}; run `regnb index` to repair")
        error.segment, error.problem = segment, problem
        return error


def _classes() -> list[type[RegnbError]]:
    found: list[type[RegnbError]] = []
    todo: list[type[RegnbError]] = [RegnbError]
    while todo:
        cls = todo.pop(0)
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def error_classes() -> list[type[RegnbError]]:
    """Every error class, each before its subclasses (the hierarchy drawn above, breadth first)."""
    return _classes()


def error_class(code: str) -> type[RegnbError]:
    """The class of a spec error `code` (the first of the hierarchy where a code has two)."""
    matches = [c for c in _classes()[1:] if c.code == code and c is not CorpusError]
    return matches[0] if matches else RegnbError


def error_from_dict(body: dict[str, object], cls: type[RegnbError] | None = None) -> RegnbError:
    """The exception a spec error object stands for: `{code, message, field?, request_id?}`;
    `cls` chooses the class where its code has two."""
    code = str(body.get("code") or "internal_error")
    cls = cls or error_class(code)
    field = body.get("field")
    rid = body.get("request_id")
    error = cls(
        str(body.get("message") or code),
        field=str(field) if field is not None else None,
        request_id=str(rid) if rid is not None else None,
    )
    error.code = code  # an unknown code is kept as it was sent
    return error


ERROR_CODES: tuple[str, ...] = tuple(
    dict.fromkeys(c.code for c in _classes() if c is not RegnbError)
)
"""Every error code of the spec, in the order of the hierarchy above."""
