"""When to try a call again: pure rules over the attempt count, the time spent and the server's
`Retry-After`, so that they are tested without sleeping.

Tried again: 429 and 503 (after `Retry-After`), 409 `idempotency_key_in_use` (the first send of
the same message is still being processed), and a connection that fails. A connection that never
opened is safe to retry for any call; one that broke after the request went out only for calls
that are safe to repeat (reads, searches, and message sends, whose `Idempotency-Key` makes the
server start one run whatever the number of tries).
"""

from __future__ import annotations

import datetime as dt
import email.utils
import math
from collections.abc import Callable
from typing import cast

import httpx

from regnb.errors import IdempotencyKeyInUse, RegnbError
from regnb.server.errors import http_status
from regnb.settings import ClientSettings

__all__ = ["RETRY_STATUSES", "Attempts", "parse_retry_after", "transport_error_is_retryable"]

RETRY_STATUSES = frozenset({429, 503})

# The request surely never reached the server: any call may be sent again.
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# The connection broke while the request or its answer travelled: only repeatable calls.
BROKEN = (httpx.ReadError, httpx.WriteError, httpx.CloseError, httpx.RemoteProtocolError)


def parse_retry_after(value: str | None, now: dt.datetime | None = None) -> float | None:
    """Seconds from a `Retry-After` header: delta-seconds or an HTTP date; None when absent or
    unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        seconds = (when - (now or dt.datetime.now(dt.UTC))).total_seconds()
    if math.isnan(seconds) or math.isinf(seconds):
        return None
    return max(0.0, seconds)


def transport_error_is_retryable(exc: httpx.TransportError, repeatable: bool) -> bool:
    """Whether a call that failed with `exc` may be sent again."""
    if isinstance(exc, NOT_SENT):
        return True
    return repeatable and isinstance(exc, BROKEN)


class Attempts:
    """The tries of one call: how long to wait before the next, or None to give up."""

    def __init__(self, settings: ClientSettings, clock: Callable[[], float]) -> None:
        self.settings, self.clock = settings, clock
        self.started = clock()
        self.tries = 1

    def _wait(self, seconds: float) -> float | None:
        """`seconds` when another try is allowed and fits in the time bound, else None."""
        if self.tries >= self.settings.max_tries:
            return None
        if self.clock() - self.started + seconds > self.settings.max_retry_time_s:
            return None
        self.tries += 1
        return seconds

    def _backoff(self) -> float:
        delay = self.settings.backoff_s * 2 ** (self.tries - 1)
        return min(cast(float, delay), self.settings.max_backoff_s)

    def after_error(self, error: RegnbError) -> float | None:
        """The wait before trying again after the server answered `error`, or None."""
        if http_status(error) in RETRY_STATUSES:
            wait = self._backoff() if error.retry_after is None else float(error.retry_after)
            return self._wait(wait)
        if isinstance(error, IdempotencyKeyInUse):
            return self._wait(self._backoff())
        return None

    def after_transport_error(self, exc: httpx.TransportError, repeatable: bool) -> float | None:
        """The wait before trying again after the connection failed with `exc`, or None."""
        if not transport_error_is_retryable(exc, repeatable):
            return None
        return self._wait(self._backoff())
