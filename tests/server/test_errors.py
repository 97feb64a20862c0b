"""The one place that turns failures into responses: a client that leaves mid-body is one log
line, not a 500 with a traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest

import regnb
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.errors import CLIENT_CLOSED
from regnb.server.testing import FakeClock

pytestmark = pytest.mark.anyio

ROUTES = ["/api/v3/search", "/api/search", "/api/contents"]


def scope(path: str, key: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"api_key=secret-in-the-url",
        "root_path": "",
        "headers": [(b"x-api-key", key.encode()), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 50000),
        "server": ("regnb.test", 80),
    }


@pytest.mark.parametrize("path", ROUTES)
async def test_client_that_leaves_mid_body_is_one_log_line(
    engine: regnb.Engine,
    accounts: Accounts,
    keys: dict,
    caplog: pytest.LogCaptureFixture,
    path: str,
) -> None:
    app = create_app(engine, accounts=accounts, clock=FakeClock())
    messages = iter(
        [
            {"type": "http.request", "body": b'{"keywords": ["steril', "more_body": True},
            {"type": "http.disconnect"},
        ]
    )
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return next(messages)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    with caplog.at_level(logging.DEBUG, logger="regnb"):
        await app(scope(path, keys["ent"]), receive, send)
    records = [r for r in caplog.records if r.name.startswith("regnb")]
    assert len(records) == 1, caplog.text
    record = records[0]
    assert record.levelno == logging.INFO and record.exc_info is None
    message = record.getMessage()
    assert message.endswith(f"POST {path}: client disconnected")
    assert message.startswith("req_") and "secret" not in message
    starts = [m for m in sent if m["type"] == "http.response.start"]
    assert [m["status"] for m in starts] == [CLIENT_CLOSED]
