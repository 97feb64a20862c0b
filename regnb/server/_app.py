"""`create_app`: the Starlette application that serves the spec's interface over one engine."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, cast

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from regnb.conversations._local import open_service
from regnb.conversations.agents import default_agent_factory
from regnb.conversations.service import ConversationService
from regnb.engine import Engine
from regnb.interface import EngineAPI
from regnb.server._conversations import ConversationRoutes
from regnb.server._firms import FirmRoutes
from regnb.server._legacy import LegacyRoutes
from regnb.server._limits import Clock
from regnb.server._logs import install_log_filter
from regnb.server._mcp import PATH as MCP_PATH
from regnb.server._mcp import McpEndpoint
from regnb.server._state import ServerState
from regnb.server._v3 import V3Routes
from regnb.server.accounts import Accounts
from regnb.server.errors import (
    REQUEST_ID_HEADER,
    Style,
    http_exception_handler,
    new_request_id,
    style_of_path,
)
from regnb.server.openapi import openapi_document
from regnb.settings import Settings

if TYPE_CHECKING:
    from regnb.conversations.agents import AgentSource

__all__ = ["RequestIdMiddleware", "create_app", "serving_conversations"]


def serving_conversations(
    engine: EngineAPI, settings: Settings
) -> Callable[[], ConversationService]:
    """What makes a serving process's conversation service: the store under `settings.home`,
    the runs answered by a local engine's own agents (`Engine.agent_factory`: tests set a fake
    one), else by the extractive agent over `engine`."""
    agent = (
        engine.agents
        if isinstance(engine, Engine)
        else default_agent_factory(cast("AgentSource", engine), settings)
    )
    return functools.partial(open_service, agent, settings)


class RequestIdMiddleware:
    """Gives every request an id; every v3 response carries it in `X-Request-Id`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = new_request_id()
        scope.setdefault("state", {})["request_id"] = rid
        if style_of_path(scope["path"]) is not Style.V3:
            await self.app(scope, receive, send)
            return

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[REQUEST_ID_HEADER] = rid
            await send(message)

        await self.app(scope, receive, send_with_id)


def create_app(
    engine: EngineAPI | None = None,
    *,
    settings: Settings | None = None,
    accounts: Accounts | None = None,
    clock: Clock | None = None,
    conversations: Callable[[], ConversationService] | None = None,
) -> Starlette:
    """The ASGI app over `engine` (default: the demo corpus's engine).

    `settings` gives the limits (default: a local engine's, else read from `REGNB_*`); `accounts`
    the keys (default: `<REGNB_HOME>/accounts.sqlite3`, or PostgreSQL with REGNB_DATABASE_URL;
    closed when the app shuts down); `clock` the rate limiter's time source (seconds; default
    monotonic, or the database's clock); `conversations` makes the conversation service
    (default: `serving_conversations`).
    """
    if engine is None:
        import regnb

        engine = regnb.default_engine()
    if settings is None:
        settings = engine.settings if isinstance(engine, Engine) else Settings.from_env()
    if conversations is None:
        conversations = serving_conversations(engine, settings)
    install_log_filter()
    install_log_filter("regnb.server")
    owned = accounts is None
    accounts = accounts if accounts is not None else Accounts.open(settings)
    state = ServerState(engine, settings, accounts, clock, conversations=conversations)
    mcp = McpEndpoint(state)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        state.start()
        try:
            async with mcp.running():
                yield
        finally:
            state.close()
            if owned:
                accounts.close()

    app = Starlette(
        routes=[
            *V3Routes(state, openapi_document).routes(),
            *ConversationRoutes(state).routes(),
            *FirmRoutes(state).routes(),
            *LegacyRoutes(state).routes(),
            Route(MCP_PATH, mcp),  # an extension: the MCP tools (regnb.server._mcp)
        ],
        middleware=[Middleware(RequestIdMiddleware)],
        exception_handlers={HTTPException: http_exception_handler},
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False
    app.state.regnb = state
    return app
