"""Research conversations through the remote client: the same objects as a local service, one
run per message however often a send is tried, polling with wait=45, and downloads."""

from __future__ import annotations

import dataclasses
import json
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest

from regnb import errors
from regnb.client import Client, ClientSettings, connect
from regnb.client._calls import IDEMPOTENCY_HEADER
from regnb.client.testing import LOSE_ANSWER, AppTransport, FakeTime, ScriptedTransport, Unclosed
from regnb.conversations.conversation import Conversation, Markdown
from regnb.conversations.testing import FAKE_PNG, FakeAgent, open_service, wait_until
from regnb.server import create_app
from regnb.server._conversations import http_account
from regnb.server.accounts import Accounts
from regnb.server.errors import http_status
from regnb.server.testing import make_keys

BASE = "http://regnb.test"


@dataclasses.dataclass
class Server:
    transport: AppTransport
    keys: dict[str, str]
    agent: FakeAgent
    service: Any
    accounts: Accounts

    def client(self, role: str = "ent", transport: httpx.BaseTransport | None = None, **kw: Any):
        return connect(BASE, self.keys[role], transport=transport or Unclosed(self.transport), **kw)

    def account(self, role: str) -> str:
        caller = self.accounts.lookup(self.keys[role])
        assert caller is not None
        return http_account(caller)


@pytest.fixture(scope="module")
def server(engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The sample engine served with the fake agent; a free account has one question a month."""
    agent = FakeAgent(engine)
    engine.agent_factory = agent
    accounts = Accounts(tmp_path_factory.mktemp("conv") / "accounts.sqlite3")
    settings = dataclasses.replace(
        engine.settings, rate_limit_per_minute=0, public_url=BASE, free_monthly_questions=1
    )
    app = create_app(engine, settings=settings, accounts=accounts)
    transport = AppTransport(app)
    service = app.state.regnb.conversations
    yield Server(transport, make_keys(accounts), agent, service, accounts)
    agent.gate = None
    transport.close()
    service.close()
    accounts.close()


@pytest.fixture
def held(server: Server) -> Iterator[threading.Event]:
    """Runs wait at their first step until the test sets the event (or the test ends)."""
    gate = threading.Event()
    server.agent.gate = gate
    yield gate
    gate.set()
    server.agent.gate = None


def without_times(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in t.items() if k != "submitted_at"} for t in turns]


def test_ask_and_wait_give_what_a_local_service_gives(server: Server, tmp_path: Path):
    message = "Which plants failed sterility assurance? [text]"
    with server.client() as client:
        conv = client.ask(message).wait(progress=False)
        remote = client.read_conversation(conv.id).to_dict()
    assert remote == server.service.read(server.account("ent"), conv.id).to_dict()
    local_service = open_service(tmp_path, FakeAgent(server.agent.engine))
    try:
        started = local_service.start("local", "enterprise", message, None).body
        local = local_service.read("local", started.conversation_id, 30).to_dict()
    finally:
        local_service.close()
    assert remote["status"] == local["status"] == "completed"
    assert without_times(remote["turns"]) == without_times(local["turns"])
    assert [(d["title"], d["type"]) for d in remote["documents"]] == [("Report", "text")]
    assert isinstance(conv.answer, Markdown) and conv.answer.startswith("**In short:**")
    assert list(conv.citations["index"]) == [1, 2]
    assert list(conv.documents["title"]) == ["Report"]


def test_wait_polls_with_wait_45_until_the_turn_leaves_running(server: Server, held):
    recorder = ScriptedTransport(Unclosed(server.transport))
    waits: list[str] = []

    def release_on_long_poll(request: httpx.Request) -> None:
        wait = request.url.params.get("wait")
        if wait is not None:
            waits.append(wait)
            if float(wait) > 0:
                held.set()  # the run may finish once the client waits on the server

    recorder.before = release_on_long_poll
    with server.client(transport=recorder) as client:
        conv = client.ask("Which sterility failures were cited?")
        assert conv.status in ("running", "completed")
        conv.wait(progress=False)
    assert conv.status == "completed"
    assert "45.0" in waits
    assert all(w in ("0", "45.0") for w in waits)


def test_reply_stop_and_the_list_work_over_http(server: Server, held):
    with server.client() as client:
        conv = client.ask("[clarify] sterility")
        held.set()
        conv.wait(progress=False)
        assert conv.status == "needs_input"
        assert conv.question == {
            "question": "Which dataset do you mean?",
            "options": ["Form 483", "Recalls"],
        }
        held.clear()
        conv.reply("Form 483")
        wait_until(lambda: server.agent.active > 0)
        with pytest.raises(errors.TurnInFlight) as info:
            client.send_message(conv.id, "and recalls?")
        assert info.value.request_id
        assert conv.stop() is True
        assert conv.status == "stopped"
        assert conv.stop() is False
        listed = client.conversations(limit=100)
    assert isinstance(listed, pd.DataFrame)
    assert conv.id in set(listed["conversation_id"])
    assert listed.attrs["total"] >= 1
    again = Conversation(server.client(), conv.id)
    assert again.turns == conv.turns


def keys_sent(recorder: ScriptedTransport) -> list[str | None]:
    return [r.headers.get(IDEMPOTENCY_HEADER) for r in recorder.requests if r.method == "POST"]


def scripted(server: Server, *steps: Any) -> tuple[Client, ScriptedTransport, FakeTime]:
    recorder = ScriptedTransport(Unclosed(server.transport), *steps)
    time = FakeTime()
    client = Client(
        BASE, server.keys["ent"], transport=recorder, clock=time.clock, sleep=time.sleep
    )
    return client, recorder, time


@pytest.mark.parametrize(
    "failure",
    [LOSE_ANSWER, httpx.ConnectError("refused"), httpx.RemoteProtocolError("reset")],
    ids=["answer lost", "refused", "reset"],
)
def test_a_start_tried_again_starts_one_run(server: Server, failure: Any):
    before = len(server.agent.requests)
    total = server.service.list_conversations(server.account("ent"), "all", 1, 0).total
    client, recorder, time = scripted(server, failure)
    started = client.start_conversation("Cleaning validation gaps?")
    conv = client.conversation(started.conversation_id).wait(progress=False)
    assert conv.status == "completed"
    sent = keys_sent(recorder)
    assert len(sent) == 2 and sent[0] == sent[1] and uuid.UUID(sent[0] or "").version == 4
    assert len(server.agent.requests) == before + 1
    after = server.service.list_conversations(server.account("ent"), "all", 1, 0).total
    assert after == total + 1
    assert time.waits == [1.0]


def test_a_follow_up_tried_again_starts_one_run(server: Server):
    with server.client() as plain:
        conv = plain.ask("First question on sterility").wait(progress=False)
    before = len(server.agent.requests)
    client, recorder, _ = scripted(server, LOSE_ANSWER)
    answer = client.send_message(conv.id, "And a follow-up")
    assert answer.turn_index == 1
    client.conversation(conv.id).wait(progress=False)
    sent = keys_sent(recorder)
    assert len(sent) == 2 and sent[0] == sent[1]
    assert len(server.agent.requests) == before + 1
    assert [t.message for t in client.read_conversation(conv.id).turns] == [
        "First question on sterility",
        "And a follow-up",
    ]


def test_a_key_given_twice_returns_the_first_run_and_a_new_message_is_refused(server: Server):
    with server.client() as client:
        first = client.start_conversation("Media fill failures?", idempotency_key="analyst-1")
        again = client.start_conversation("Media fill failures?", idempotency_key="analyst-1")
        assert again.conversation_id == first.conversation_id
        with pytest.raises(errors.IdempotencyKeyReused) as info:
            client.start_conversation("Another question", idempotency_key="analyst-1")
    assert http_status(info.value) == 422 and info.value.request_id


def test_a_free_plans_quota_and_office_files_are_refused_as_locally(server: Server):
    with server.client("free") as client:
        conv = client.ask("Chart and memo [docx] [image]").wait(progress=False)
        with pytest.raises(errors.QuotaExhausted) as quota:
            client.start_conversation("A second question this month")
        docs = {d["title"]: d["id"] for d in conv.to_dict()["documents"]}
        with pytest.raises(errors.Forbidden) as office:
            client.download_document(conv.id, docs["Memo"])
        name, data = client.download_document(conv.id, docs["Chart"])
    assert http_status(quota.value) == 402 and quota.value.request_id
    assert http_status(office.value) == 403
    assert (name, data) == ("chart.png", FAKE_PNG)


def test_produced_documents_download_as_the_local_engine_saves_them(server: Server, tmp_path):
    with server.client("paid") as client:
        conv = client.ask("Letters and a report [text] [file] [image]").wait(progress=False)
        docs = {d["title"]: d for d in conv.to_dict()["documents"]}
        report = client.produced_document(conv.id, docs["Report"]["id"])
        letters = client.produced_document(conv.id, docs["Letters"]["id"])
        assert report.content == conv.answer
        assert letters.url is not None and letters.url.startswith(BASE + "/")
        assert letters.expires_in == 300
        assert client.download_document(conv.id, docs["Letters"]["id"]) == (
            "letters.xlsx",
            b"PK fake",
        )
        assert client.download_document(conv.id, docs["Report"]["id"]) == (
            "Report.md",
            str(conv.answer).encode(),
        )
        saved = conv.download(docs["Chart"]["id"], tmp_path)
    assert saved == tmp_path / "chart.png" and saved.read_bytes() == FAKE_PNG
    account = server.account("paid")
    local = server.service.file(account, "paid", conv.id, docs["Report"]["id"])
    assert (local.filename, local.data) == ("Report.md", str(conv.answer).encode())


class ElsewhereLinks(httpx.BaseTransport):
    """Rewrites produced documents' download links to another host (still served in-process)."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner
        self.downloads: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host == "cdn.example.com":
            self.downloads.append(request)
        response = self.inner.handle_request(request)
        if "/documents/" not in request.url.path or response.status_code != 200:
            return response
        body = json.loads(response.content)
        if "url" in body:
            body["url"] = body["url"].replace(BASE, "http://cdn.example.com")
        return httpx.Response(200, json=body, request=request)


def test_the_key_never_goes_to_a_download_link_on_another_host(server: Server):
    transport = ElsewhereLinks(Unclosed(server.transport))
    with server.client("paid", transport=transport) as client:
        conv = client.ask("Chart please [image]").wait(progress=False)
        chart = conv.to_dict()["documents"][0]["id"]
        _, data = client.download_document(conv.id, chart)  # the signed link opens on its own
        assert data
    assert [r.url.host for r in transport.downloads] == ["cdn.example.com"]
    assert "x-api-key" not in transport.downloads[0].headers


def test_too_many_running_conversations_is_a_429_that_is_tried_again(server: Server, held):
    with server.client("other", settings=ClientSettings(max_tries=1)) as client:
        for n in range(3):
            client.start_conversation(f"held question {n}")
        with pytest.raises(errors.ConcurrentConversations) as info:
            client.start_conversation("one too many")
    assert http_status(info.value) == 429 and info.value.retry_after and info.value.request_id
    account = server.account("other")

    def runs_end(seconds: float) -> None:  # while the client waits, the held runs finish
        held.set()
        wait_until(lambda: server.service.list_conversations(account, "running", 1, 0).total == 0)

    time = FakeTime()
    time.on_sleep = runs_end
    client = Client(
        BASE,
        server.keys["other"],
        transport=Unclosed(server.transport),
        clock=time.clock,
        sleep=time.sleep,
    )
    started = client.start_conversation("one too many, later")
    assert started.turn_index == 0 and len(time.waits) == 1
