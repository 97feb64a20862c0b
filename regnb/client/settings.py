"""The remote client's settings: timeouts and retry bounds, each with a default, a line of help
and the `REGNB_CLIENT_*` variable that overrides it."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["ClientSettings"]


@dataclass(frozen=True)
class ClientSettings:
    """How long the client waits and how often it tries again."""

    connect_timeout_s: float = 10.0
    """REGNB_CLIENT_CONNECT_TIMEOUT_S: time to open a connection to the server."""
    read_timeout_s: float = 75.0
    """REGNB_CLIENT_READ_TIMEOUT_S: time to wait for an answer; above the server's 45 s request
    timeout and the 45 s conversation wait, so the server's own answer (504, or the conversation
    as it stands) always comes first."""
    write_timeout_s: float = 30.0
    """REGNB_CLIENT_WRITE_TIMEOUT_S: time to send a request body."""
    pool_timeout_s: float = 30.0
    """REGNB_CLIENT_POOL_TIMEOUT_S: time to wait for a free connection of the pool."""
    max_connections: int = 10
    """REGNB_CLIENT_MAX_CONNECTIONS: connections kept open to the server, reused by each call."""
    max_tries: int = 5
    """REGNB_CLIENT_MAX_TRIES: tries of one call (the first included) on 429, 503 or a broken
    connection."""
    max_retry_time_s: float = 120.0
    """REGNB_CLIENT_MAX_RETRY_TIME_S: a call is not tried again once this much time has passed
    since its first try, nor when the server's Retry-After would take it past this bound."""
    backoff_s: float = 1.0
    """REGNB_CLIENT_BACKOFF_S: first wait before trying again when the server gives no
    Retry-After (a broken connection); it doubles at each try."""
    max_backoff_s: float = 30.0
    """REGNB_CLIENT_MAX_BACKOFF_S: the longest of those doubling waits."""

    @classmethod
    def from_env(cls, environ: Any = None) -> ClientSettings:
        """Every setting from its `REGNB_CLIENT_*` variable, else the default."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            name = f"REGNB_CLIENT_{f.name.upper()}"
            raw = environ.get(name)
            if raw is None:
                continue
            kind = type(f.default)
            try:
                values[f.name] = kind(raw)
            except ValueError:
                raise ValueError(f"{name} must be a number, got {raw!r}") from None
        return cls(**values)
