"""Opening a remote engine: `connect`, `connect_async`, and the command line's choice between a
server (`--server URL` or `REGNB_SERVER`) and a local corpus."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx

from regnb.client._aio import AsyncClient
from regnb.client._sync import Client
from regnb.errors import InvalidRequest
from regnb.settings import SERVER_ENV, ClientSettings, RemoteSettings

__all__ = ["SERVER_ENV", "connect", "connect_async", "engine_from_args"]


def connect(
    base_url: str,
    api_key: str | None = None,
    *,
    plan: str | None = None,
    settings: ClientSettings | None = None,
    transport: httpx.BaseTransport | None = None,
) -> Client:
    """A client for the server at `base_url` with the local engine's methods, results and
    errors; the key is `api_key`, else `REGNB_API_KEY`. `plan` only records what the key's plan
    is (the server decides it); `settings` sets timeouts and retries (default:
    `REGNB_CLIENT_*`)."""
    return Client(base_url, api_key, plan=plan, settings=settings, transport=transport)


def connect_async(
    base_url: str,
    api_key: str | None = None,
    *,
    plan: str | None = None,
    settings: ClientSettings | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> AsyncClient:
    """`connect` whose methods are coroutines (`async with regnb.connect_async(...) as eng`)."""
    return AsyncClient(base_url, api_key, plan=plan, settings=settings, transport=transport)


def engine_from_args(
    server: str | None,
    corpus: str | Path | None = None,
    *,
    plan: str | None = None,
    fast_encoder: bool = False,
    api_key: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Any:
    """The engine a command reads from: the server `server` (else `REGNB_SERVER`) through
    `connect`, or the local corpus `corpus` (default: the demo corpus).

    An explicit `corpus` beats `REGNB_SERVER`, and `server=""` means local whatever the
    environment says. With a server, `corpus`, `fast_encoder` and `plan` are refused: they
    describe a local corpus, and the server takes the plan from the key."""
    remote = RemoteSettings.from_env(environ)
    if server is None and corpus is None:
        server = remote.server or None
    if not server:
        from regnb.encoder import HashingEncoder
        from regnb.engine import Engine

        encoder = HashingEncoder() if fast_encoder else None
        return Engine(corpus, plan=plan or "enterprise", encoder=encoder)
    for given, option in ((corpus is not None, "corpus"), (fast_encoder, "fast_encoder")):
        if given:
            flag = "--" + option.replace("_", "-")
            raise InvalidRequest(f"{flag} is for a local corpus; drop it or --server", field=option)
    if plan is not None:
        raise InvalidRequest(
            "--plan: the server decides the plan from the API key; drop --plan", field="plan"
        )
    return connect(server, api_key if api_key is not None else remote.api_key or None)
