"""The engine interface over HTTP: `connect()` gives a client for any server that speaks the
spec's contract, with the local engine's methods, results and errors.

    eng = regnb.connect("https://regsearch.example.com")      # key from REGNB_API_KEY
    res = eng.search(["media fill"], query="aseptic process simulation failures")
    everything = eng.search_all(["media fill"])
    conv = eng.ask("Summarise the 483 observations on cleaning validation"); conv.wait()

    Client          sync; one pooled httpx.Client         (_sync)
    AsyncClient     the same methods as coroutines        (_aio)
    _calls          each endpoint as a request and a decoder, no I/O
    _retry          429/503 after Retry-After, broken connections, bounded tries and time
    _errors         answers and connection failures as regnb's exceptions
    paging          search_all / read_all for any engine (the core's `regnb.paging`)
    _opening        connect, connect_async, and the command line's engine_from_args
    testing         an app in-process behind the sync client; scripted transports; fake time

The modules named with a `_` are the implementation: import from `regnb.client` itself.
Names are imported on first use, so that `import regnb.client` does not load httpx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from regnb.client._aio import AsyncClient
    from regnb.client._opening import SERVER_ENV, connect, connect_async, engine_from_args
    from regnb.client._settings import ClientSettings
    from regnb.client._sync import Client
    from regnb.paging import AsyncPagingMethods, PagingMethods

__all__ = [
    "SERVER_ENV",
    "AsyncClient",
    "AsyncPagingMethods",
    "Client",
    "ClientSettings",
    "PagingMethods",
    "connect",
    "connect_async",
    "engine_from_args",
]

_WHERE = {
    "SERVER_ENV": "_opening",
    "AsyncClient": "_aio",
    "AsyncPagingMethods": "paging",
    "Client": "_sync",
    "ClientSettings": "_settings",
    "PagingMethods": "paging",
    "connect": "_opening",
    "connect_async": "_opening",
    "engine_from_args": "_opening",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"regnb.client.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'regnb.client' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
