"""When the remote client tries a call again: Retry-After, the bounds on tries and time, and
which broken connections allow a resend."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from regnb.client import Client
from regnb.client._retry import Attempts, parse_retry_after, transport_error_is_retryable
from regnb.client._settings import ClientSettings
from regnb.client.testing import LOSE_ANSWER, AppTransport, FakeTime, ScriptedTransport, Unclosed
from regnb.conversations.testing import FakeAgent
from regnb.errors import (
    Busy,
    ConcurrentSearch,
    IdempotencyKeyInUse,
    InternalError,
    InvalidRequest,
    RankingFailed,
    RateLimited,
    RegnbError,
    SearchTimeout,
    TurnInFlight,
    UpstreamError,
)
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.testing import FakeClock, make_keys

BASE = "http://regnb.test"

NOW = dt.datetime(2025, 6, 1, 12, 0, 0, tzinfo=dt.UTC)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("7", 7.0),
        (" 2 ", 2.0),
        ("0", 0.0),
        ("1.5", 1.5),
        ("-3", 0.0),
        ("Sun, 01 Jun 2025 12:00:30 GMT", 30.0),
        ("Sun, 01 Jun 2025 11:00:00 GMT", 0.0),
        (None, None),
        ("", None),
        ("soon", None),
        ("nan", None),
        ("inf", None),
    ],
)
def test_retry_after_reads_seconds_and_http_dates(header: str | None, seconds: float | None):
    assert parse_retry_after(header, NOW) == seconds


def error(cls: type[RegnbError], retry_after: int | None = None) -> RegnbError:
    return cls("x", retry_after=retry_after)


@pytest.mark.parametrize(
    ("err", "wait"),
    [
        (error(RateLimited, 7), 7.0),
        (error(ConcurrentSearch, 2), 2.0),
        (error(Busy, 1), 1.0),
        (error(RankingFailed, 3), 3.0),  # 503 upstream_error
        (error(Busy), 1.0),  # no Retry-After: the first backoff
        (error(IdempotencyKeyInUse), 1.0),
        (error(InvalidRequest), None),
        (error(TurnInFlight), None),
        (error(InternalError), None),
    ],
)
def test_429_503_and_a_key_in_use_are_tried_again_others_raise(err: RegnbError, wait: float | None):
    assert Attempts(ClientSettings(), Clock()).after_error(err) == wait


def test_tries_stop_at_max_tries():
    attempts = Attempts(ClientSettings(max_tries=3), Clock())
    waits = [attempts.after_error(error(Busy, 1)) for _ in range(4)]
    assert waits == [1.0, 1.0, None, None]


def test_a_wait_past_the_time_bound_gives_up_at_once():
    clock = Clock()
    attempts = Attempts(ClientSettings(max_retry_time_s=60), clock)
    assert attempts.after_error(error(RateLimited, 61)) is None
    assert attempts.after_error(error(RateLimited, 60)) == 60.0
    clock.now += 60
    assert attempts.after_error(error(RateLimited, 1)) is None


def test_backoff_doubles_up_to_its_cap_without_retry_after():
    attempts = Attempts(ClientSettings(max_tries=10, backoff_s=1, max_backoff_s=5), Clock())
    waits = [attempts.after_error(error(Busy)) for _ in range(5)]
    assert waits == [1.0, 2.0, 4.0, 5.0, 5.0]


REQUEST = httpx.Request("POST", "http://x/api/v3/search")


@pytest.mark.parametrize(
    ("exc", "repeatable", "retried"),
    [
        (httpx.ConnectError("refused", request=REQUEST), False, True),
        (httpx.ConnectTimeout("slow", request=REQUEST), False, True),
        (httpx.PoolTimeout("pool", request=REQUEST), False, True),
        (httpx.ReadError("reset", request=REQUEST), True, True),
        (httpx.ReadError("reset", request=REQUEST), False, False),
        (httpx.RemoteProtocolError("closed", request=REQUEST), True, True),
        (httpx.WriteError("broken pipe", request=REQUEST), True, True),
        (httpx.ReadTimeout("slow", request=REQUEST), True, False),
        (httpx.UnsupportedProtocol("ftp", request=REQUEST), True, False),
    ],
)
def test_a_request_that_never_left_is_resent_a_broken_one_only_when_repeatable(
    exc: httpx.TransportError, repeatable: bool, retried: bool
):
    assert transport_error_is_retryable(exc, repeatable) is retried
    wait = Attempts(ClientSettings(), Clock()).after_transport_error(exc, repeatable)
    assert (wait is not None) is retried


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, ClientSettings()),
        ({"REGNB_CLIENT_MAX_TRIES": "2"}, ClientSettings(max_tries=2)),
        ({"REGNB_CLIENT_READ_TIMEOUT_S": "90.5"}, ClientSettings(read_timeout_s=90.5)),
    ],
)
def test_settings_come_from_the_environment(env: dict[str, str], expected: ClientSettings):
    assert ClientSettings.from_env(env) == expected


def test_a_setting_that_is_not_a_number_names_its_variable():
    with pytest.raises(ValueError, match="REGNB_CLIENT_MAX_TRIES"):
        ClientSettings.from_env({"REGNB_CLIENT_MAX_TRIES": "many"})


def test_the_read_timeout_outlasts_the_servers_request_timeout_and_conversation_wait():
    from regnb.settings import Settings

    server = Settings(home=None)  # type: ignore[arg-type]
    client = ClientSettings()
    assert client.read_timeout_s > server.request_timeout_s
    assert client.read_timeout_s > server.conversation_wait_max_s


# --- against the server in-process -------------------------------------------------------


@pytest.fixture(scope="module")
def served(engine, tmp_path_factory) -> Iterator[tuple[AppTransport, dict[str, str], FakeClock]]:
    """An app allowing 3 requests a minute per key, on a clock the test moves."""
    accounts = Accounts(tmp_path_factory.mktemp("retry") / "accounts.sqlite3")
    settings = dataclasses.replace(engine.settings, rate_limit_per_minute=3)
    server_clock = FakeClock()
    engine.agent_factory = FakeAgent(engine)
    app = create_app(engine, settings=settings, accounts=accounts, clock=server_clock)
    transport = AppTransport(app)
    yield transport, make_keys(accounts), server_clock
    transport.close()
    app.state.regnb.conversations.close()
    accounts.close()


def canned(status: int, code: str, retry_after: str | None) -> httpx.Response:
    body = {"error": {"code": code, "message": code, "request_id": "req_" + "0" * 24}}
    headers = {"Retry-After": retry_after} if retry_after else {}
    return httpx.Response(status, json=body, headers=headers)


def scripted_client(
    served, *steps: Any, role: str = "ent", **settings: Any
) -> tuple[Client, ScriptedTransport, FakeTime]:
    transport, keys, server_clock = served
    server_clock.advance(61)  # a fresh minute: the rate limit does not interfere
    scripted = ScriptedTransport(Unclosed(transport), *steps)
    time = FakeTime()
    client = Client(
        BASE,
        keys[role],
        transport=scripted,
        settings=ClientSettings(**settings),
        clock=time.clock,
        sleep=time.sleep,
    )
    return client, scripted, time


def test_429_and_503_are_tried_again_after_retry_after(served, engine):
    client, scripted, time = scripted_client(
        served, canned(429, "rate_limited", "7"), canned(503, "busy", "2")
    )
    got = client.search(["sterility"], datasets=["fda_483"])
    assert got.to_dict() == engine.search(["sterility"], datasets=["fda_483"]).to_dict()
    assert time.waits == [7.0, 2.0]
    assert len(scripted.requests) == 3
    assert len({r.content for r in scripted.requests}) == 1  # the same request each time


def test_tries_are_bounded_and_the_last_error_is_raised(served):
    client, scripted, time = scripted_client(served, *[canned(503, "busy", "1")] * 10, max_tries=4)
    with pytest.raises(Busy) as info:
        client.read("anything")
    assert len(scripted.requests) == 4 and time.waits == [1.0, 1.0, 1.0]
    assert info.value.retry_after == 1 and info.value.request_id == "req_" + "0" * 24


def test_a_retry_after_past_the_time_bound_raises_at_once(served):
    client, scripted, time = scripted_client(
        served, canned(429, "rate_limited", "600"), max_retry_time_s=120
    )
    with pytest.raises(RateLimited) as info:
        client.datasets()
    assert len(scripted.requests) == 1 and time.waits == []
    assert info.value.retry_after == 600


def test_the_servers_own_rate_limit_is_waited_out(served, engine):
    server_clock = served[2]
    client, scripted, time = scripted_client(served, role="paid")
    time.on_sleep = server_clock.advance
    for _ in range(4):
        found = client.search(["sterility"], datasets=["fda_guidance"])
    assert found.to_dict() == engine.search(["sterility"], datasets=["fda_guidance"]).to_dict()
    assert [r.url.path for r in scripted.requests] == ["/api/v3/search"] * 5
    assert len(time.waits) == 1 and 0 < time.waits[0] <= 60


@pytest.mark.parametrize(
    ("call", "steps", "sent", "raised"),
    [
        # the connection never opened: any call is sent again, a stop included
        ("stop", [httpx.ConnectError("refused")], 2, None),
        ("search", [httpx.ConnectError("refused")] * 2, 3, None),
        # the answer was lost after the server acted: only a repeatable call is sent again
        ("search", [LOSE_ANSWER], 2, None),
        ("read", [httpx.RemoteProtocolError("server closed the connection")], 2, None),
        ("stop", [LOSE_ANSWER], 1, UpstreamError),
        # a read that timed out is not sent again
        ("search", [httpx.ReadTimeout("no answer")], 1, SearchTimeout),
    ],
)
def test_a_failed_connection_is_retried_only_where_a_resend_is_safe(
    served, engine, call, steps, sent, raised
):
    client, scripted, time = scripted_client(served)
    document_id = engine.search(["sterility"], datasets=["fda_guidance"]).results[0]["document_id"]
    conversation_id = client.start_conversation("hello").conversation_id if call == "stop" else ""
    run = {
        "search": lambda: client.search(["sterility"]),
        "read": lambda: client.read(document_id),
        "stop": lambda: client.stop_conversation(conversation_id),
    }[call]
    scripted.steps, scripted.requests = list(steps), []
    if raised is None:
        run()
    else:
        with pytest.raises(raised):
            run()
    assert len(scripted.requests) == sent
    assert time.waits == [1.0, 2.0][: sent - 1]
