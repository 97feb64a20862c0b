"""What every route shares: the engine, the settings, the accounts and the limits (in this
process's memory, or shared by replicas through PostgreSQL with REGNB_DATABASE_URL)."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request

from regnb.conversations.service import ConversationService
from regnb.errors import InvalidApiKey, MissingApiKey, SearchTimeout
from regnb.interface import EngineAPI
from regnb.query import QuerySyntaxWarning
from regnb.request import SearchRequest
from regnb.server._limits import (
    AccountSlots,
    Clock,
    RateLimit,
    RateLimiter,
    SearchSlots,
    ServerSlots,
)
from regnb.server.accounts import Accounts, Caller
from regnb.settings import Settings

__all__ = ["ServerState"]

T = TypeVar("T")


class _Job:
    """Work for a worker thread that holds a server slot until it ends, or until it is dropped
    before it starts."""

    def __init__(self, fn: Callable[[], Any], slots: ServerSlots) -> None:
        self.fn, self.slots = fn, slots
        self.state = "pending"
        self.lock = threading.Lock()

    def __call__(self) -> Any:
        with self.lock:
            if self.state != "pending":
                return None
            self.state = "running"
        try:
            return self.fn()
        finally:
            self.slots.give_back()

    def drop(self) -> None:
        with self.lock:
            if self.state == "pending":
                self.state = "dropped"
                self.slots.give_back()


def _limits(settings: Settings, clock: Clock | None) -> tuple[RateLimit, SearchSlots]:
    """The rate limit and the account search slots: in this process, or in PostgreSQL (on the
    database's clock unless `clock` is given)."""
    rate, searches = settings.rate_limit_per_minute, settings.concurrent_searches_per_account
    if not settings.database_url:
        return (
            RateLimiter(rate, 60.0, clock or time.monotonic),
            AccountSlots(searches, settings.concurrent_search_wait_s),
        )
    from regnb.server._shared import SharedAccountSlots, SharedRateLimiter

    url = settings.database_url
    return (
        SharedRateLimiter(url, rate, 60.0, clock),
        SharedAccountSlots(url, searches, settings.concurrent_search_wait_s),
    )


class ServerState:
    """One serving process's engine, accounts, limits and conversations (`conversations` makes
    the service, again when the app starts after a shutdown closed it). `clock` times the rate
    limit (default: monotonic, or the database's with REGNB_DATABASE_URL)."""

    def __init__(
        self,
        engine: EngineAPI,
        settings: Settings,
        accounts: Accounts,
        clock: Clock | None = None,
        *,
        conversations: Callable[[], ConversationService],
    ) -> None:
        self.engine, self.settings, self.accounts = engine, settings, accounts
        self.rate, self.account_slots = _limits(settings, clock)
        self.server_slots = ServerSlots(settings.max_server_searches)
        self.open_conversations = conversations
        self.conversations = conversations()  # opens its store on first use

    def start(self) -> None:
        """At app start-up: a fresh conversation service if an earlier shutdown closed it (an
        app can be started again, as test clients do)."""
        if self.conversations.closed:
            self.conversations = self.open_conversations()

    def close(self) -> None:
        """At app shutdown: the conversation service, and the limits' connections (opened again
        on use)."""
        self.conversations.close()
        self.rate.disconnect()
        self.account_slots.disconnect()

    async def authenticate(self, request: Request) -> Caller:
        """The caller of a valid `x-api-key`, counted against the key's rate limit."""
        key = request.headers.get("x-api-key", "")
        if not key:
            raise MissingApiKey("the x-api-key header is missing")
        if self.settings.database_url:  # round trips to the database: off the event loop
            return await anyio.to_thread.run_sync(self._caller, key)
        # One keyed SELECT on a WAL database (readers never wait for writers): tens of
        # microseconds, cheaper inline than the hop to a worker thread.
        return self._caller(key)

    def _caller(self, key: str) -> Caller:
        caller = self.accounts.lookup(key)
        if caller is None:
            raise InvalidApiKey("the API key does not exist or was deleted")
        self.rate.hit(caller.key_id)
        return caller

    def check_search(self, args: dict[str, Any], plan: str) -> SearchRequest:
        """The search checked once, before it waits for a slot; the engine runs it as it is."""
        keywords = args["keywords"]
        options = {k: v for k, v in args.items() if k != "keywords"}
        with warnings.catch_warnings():  # plain items are the spec's reading over HTTP
            warnings.simplefilter("ignore", QuerySyntaxWarning)
            return self.engine.check_search(keywords, plan=plan, **options)

    async def blocking(self, fn: Callable[[], T], what: str) -> T:
        """`fn()` in a worker thread; SearchTimeout when it takes over `request_timeout_s`."""
        limit = self.settings.request_timeout_s
        with anyio.move_on_after(limit):
            return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)
        raise SearchTimeout(f"the {what} took longer than {limit:g} seconds")

    async def search(self, caller: Caller, fn: Callable[[], T]) -> T:
        """`fn()` under the account's and the server's search limits."""
        async with self.account_slots.hold(caller.account_id):
            self.server_slots.take()
            job = _Job(fn, self.server_slots)
            try:
                return await self.blocking(job, "search")
            finally:
                job.drop()
