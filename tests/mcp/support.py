"""An MCP client session of the SDK's own, over stdio (`regnb mcp` in a process of its own) or
over streamable HTTP (an app served by uvicorn on loopback, in a thread of the test)."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx2
import uvicorn
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from starlette.types import ASGIApp

from tests.serving import STARTUP_S, free_port

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def uvicorn_thread(app: ASGIApp) -> Iterator[str]:
    """`app` served on a free loopback port until the block ends; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_S
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped before it started"
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


@asynccontextmanager
async def http_session(base: str, key: str | None) -> AsyncIterator[ClientSession]:
    """An initialised session with `/mcp` at `base`, sending `key` as x-api-key (None: none)."""
    headers = {"x-api-key": key} if key is not None else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120)) as client,
        streamable_http_client(f"{base}/mcp", http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@asynccontextmanager
async def stdio_session(*args: str, home: Path) -> AsyncIterator[ClientSession]:
    """An initialised session with `python -m regnb.cli mcp *args` (REGNB_HOME `home`)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "regnb.cli", "mcp", *args],
        env={"REGNB_HOME": str(home)},
        cwd=ROOT,  # this checkout's regnb, first on sys.path
    )
    with (home / "mcp-stderr.log").open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


def structured(result: Any) -> dict[str, Any]:
    """A successful call's JSON object; its text content says the same."""
    assert not result.is_error, result.content[0].text
    value: dict[str, Any] = result.structured_content
    assert json.loads(result.content[0].text) == value
    return value


def tool_error(result: Any) -> dict[str, Any]:
    """A tool error's spec error object (`code`, `message`, `field`)."""
    assert result.is_error, result.content
    error: dict[str, Any] = result.structured_content["error"]
    where = f" ({error['field']})" if "field" in error else ""
    assert result.content[0].text == f"{error['code']}{where}: {error['message']}"
    return error
