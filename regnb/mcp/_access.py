"""Whose call a tool runs, and under which limits: `Access`. Over stdio the local user's
(`LocalAccess`: the engine's plan, the account `local`, no limits); over HTTP an API key's
(`regnb.server._mcp`: the key's plan and account, its rate limit and search slots)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, TypeVar

import anyio.to_thread

if TYPE_CHECKING:
    from regnb.conversations.service import ConversationService
    from regnb.engine import Engine
    from regnb.interface import EngineAPI

__all__ = ["Access", "LocalAccess"]

T = TypeVar("T")


class Access(Protocol):
    """A caller of the tools: the engine, its plan, its conversations' account, its limits."""

    @property
    def engine(self) -> EngineAPI: ...

    @property
    def plan(self) -> str: ...

    @property
    def account(self) -> str: ...

    @property
    def conversations(self) -> ConversationService: ...

    async def search(self, fn: Callable[[], T]) -> T:
        """`fn()` in a worker thread, under the caller's search limits."""
        ...

    async def blocking(self, fn: Callable[[], T], what: str) -> T:
        """`fn()` in a worker thread, within the request time limit (`what` names it)."""
        ...

    def links(self) -> AbstractContextManager[None]:
        """Within it, a conversation's `url` points where this caller reads it."""
        ...


class LocalAccess:
    """The local user of a corpus (`regnb mcp`): the engine's plan and conversations."""

    def __init__(self, engine: Engine) -> None:
        from regnb.conversations import LOCAL_ACCOUNT

        self._engine = engine
        self.account = LOCAL_ACCOUNT

    @property
    def engine(self) -> EngineAPI:
        return self._engine

    @property
    def plan(self) -> str:
        return self._engine.plan

    @property
    def conversations(self) -> ConversationService:
        return self._engine.conversation_service()

    async def search(self, fn: Callable[[], T]) -> T:
        return await anyio.to_thread.run_sync(fn)

    async def blocking(self, fn: Callable[[], T], what: str) -> T:
        return await anyio.to_thread.run_sync(fn)

    def links(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()  # REGNB_PUBLIC_URL, else http://localhost:8000
