"""The engine interface over HTTP: `connect()` gives a client for any server that speaks the
spec's contract, with the local engine's methods, results and errors.

    eng = regnb.connect("https://regsearch.example.com")      # key from REGNB_API_KEY
    res = eng.search(["media fill"], query="aseptic process simulation failures")
    everything = eng.search_all(["media fill"])
    conv = eng.ask("Summarise the 483 observations on cleaning validation"); conv.wait()

    Client          sync; one pooled httpx.Client         (sync.py)
    AsyncClient     the same methods as coroutines        (aio.py)
    calls           each endpoint as a request and a decoder, no I/O
    retry           429/503 after Retry-After, broken connections, bounded tries and time
    errors          answers and connection failures as regnb's exceptions
    paging          search_all / read_all for any engine, local or remote
"""

from __future__ import annotations

from regnb.client.aio import AsyncClient
from regnb.client.connect import SERVER_ENV, connect, connect_async, engine_from_args
from regnb.client.paging import AsyncPagingMethods, PagingMethods
from regnb.client.settings import ClientSettings
from regnb.client.sync import Client

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
