"""Links in responses (`url` of conversations and of produced files) start with the base URL the
client reached the server at, unless REGNB_PUBLIC_URL names one: by the pure rule
(`regnb.server._links`), in-process, and over `regnb serve` on a port that is not 8000, where a
research turn's file is downloaded through `regnb.connect` and ResearchChat shows the answer."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

import regnb
from regnb.conversations._store import ConversationStore
from regnb.conversations._views import link_base, links_from
from regnb.conversations.service import ConversationService
from regnb.conversations.testing import FakeAgent
from regnb.errors import UpstreamError
from regnb.server import create_app
from regnb.server._links import base_url
from regnb.server.accounts import Accounts
from regnb.server.testing import sample_documents
from regnb.settings import Settings
from tests.serving import regnb_serve

WAIT = 30.0

# --- the rule --------------------------------------------------------------------------------

FORWARDED = {
    "x-forwarded-proto": "https",
    "x-forwarded-host": "research.example.org",
    "x-forwarded-prefix": "/regnb",
}


@pytest.mark.parametrize(
    ("scheme", "host", "root", "headers", "trust", "expected"),
    [
        ("http", "127.0.0.1:18777", "", {}, False, "http://127.0.0.1:18777"),
        ("http", "localhost:18777", "", {}, False, "http://localhost:18777"),
        ("https", "regnb.example", "", {}, False, "https://regnb.example"),
        ("http", "[::1]:8080", "", {}, False, "http://[::1]:8080"),
        ("http", "h:9", "/api-root", {}, False, "http://h:9/api-root"),
        ("http", "h:9", "/api-root/", {}, False, "http://h:9/api-root"),
        # proxy headers count only when trusted
        ("http", "h:9", "", FORWARDED, False, "http://h:9"),
        ("http", "h:9", "", FORWARDED, True, "https://research.example.org/regnb"),
        ("http", "h:9", "/x", {"x-forwarded-proto": "https"}, True, "https://h:9/x"),
        ("http", "h:9", "", {"x-forwarded-host": "a.test:8443"}, True, "http://a.test:8443"),
        # of a chain, the value the nearest proxy wrote (the last)
        ("http", "h:9", "", {"x-forwarded-host": "evil.test, good.test"}, True, "http://good.test"),
        ("http", "h:9", "", {"x-forwarded-proto": "http, https"}, True, "https://h:9"),
        # values that are not a plain scheme, host or path are ignored
        ("http", "h:9", "", {"x-forwarded-proto": "javascript"}, True, "http://h:9"),
        ("http", "h:9", "", {"x-forwarded-host": "a.test/evil"}, True, "http://h:9"),
        ("http", "h:9", "", {"x-forwarded-host": "user@a.test"}, True, "http://h:9"),
        ("http", "h:9", "", {"x-forwarded-prefix": "//evil.test"}, True, "http://h:9"),
        ("http", "h:9", "", {"x-forwarded-prefix": "/a b"}, True, "http://h:9"),
        ("http", "h:9", "", {"x-forwarded-prefix": ""}, True, "http://h:9"),
        ("http", "bad/host", "", {}, False, "http://10.0.0.1:8000"),
        ("http", None, "", {}, False, "http://10.0.0.1:8000"),
        ("ws", "h:9", "", {}, False, "http://h:9"),
    ],
)
def test_base_url_is_the_requests_own_with_proxy_headers_only_when_trusted(
    scheme: str,
    host: str | None,
    root: str,
    headers: dict[str, str],
    trust: bool,
    expected: str,
) -> None:
    got = base_url(scheme, host, root, headers, server=("10.0.0.1", 8000), trust_proxy=trust)
    assert got == expected


def test_link_base_prefers_the_public_url_then_the_request_then_localhost() -> None:
    assert link_base("") == "http://localhost:8000"
    with links_from("http://127.0.0.1:18777"):
        assert link_base("") == "http://127.0.0.1:18777"
        assert link_base("https://regnb.example/") == "https://regnb.example"
    assert link_base("") == "http://localhost:8000"


def test_public_url_is_empty_by_default_and_trust_proxy_headers_off(monkeypatch) -> None:
    for name in ("REGNB_PUBLIC_URL", "REGNB_TRUST_PROXY_HEADERS"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings.from_env()
    assert settings.public_url == "" and settings.trust_proxy_headers is False
    monkeypatch.setenv("REGNB_TRUST_PROXY_HEADERS", "1")
    assert Settings.from_env().trust_proxy_headers is True
    monkeypatch.setenv("REGNB_TRUST_PROXY_HEADERS", "maybe")
    with pytest.raises(ValueError, match="REGNB_TRUST_PROXY_HEADERS"):
        Settings.from_env()


# --- in-process ------------------------------------------------------------------------------


@pytest.fixture
def serve(engine: regnb.Engine, accounts: Accounts, tmp_path: Path):
    @asynccontextmanager
    async def make(**settings: Any) -> AsyncIterator[tuple[httpx.AsyncClient, str]]:
        base = dataclasses.replace(
            engine.settings, home=tmp_path / "home", rate_limit_per_minute=0, **settings
        )
        app = create_app(engine, settings=base, accounts=accounts)
        state = app.state.regnb
        state.conversations.close()
        state.conversations = ConversationService(
            FakeAgent(engine), ConversationStore.under(base.home), base
        )
        key = accounts.create_key("acme", "enterprise").key
        transport = httpx.ASGITransport(app=app)
        try:
            async with httpx.AsyncClient(
                transport=transport, base_url="http://regnb.test:8123", headers={"x-api-key": key}
            ) as client:
                yield client, key
        finally:
            state.conversations.close()

    return make


async def links(client: httpx.AsyncClient, headers: dict[str, str]) -> list[str]:
    """The `url` of a start, a list, a read and a produced file's download link."""
    start = await client.post(
        "/api/v3/conversations", json={"message": "q [file]"}, headers=headers
    )
    cid = start.json()["conversation_id"]
    read = (await client.get(f"/api/v3/conversations/{cid}?wait={WAIT}", headers=headers)).json()
    listed = (await client.get("/api/v3/conversations", headers=headers)).json()
    doc = read["documents"][0]["id"]
    path = f"/api/v3/conversations/{cid}/documents/{doc}"
    file = (await client.get(path, headers=headers)).json()
    return [start.json()["url"], listed["conversations"][0]["url"], read["url"], file["url"]]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("settings", "headers", "base"),
    [
        ({}, {}, "http://regnb.test:8123"),
        ({}, FORWARDED, "http://regnb.test:8123"),
        ({"trust_proxy_headers": True}, FORWARDED, "https://research.example.org/regnb"),
        ({"public_url": "https://public.example/"}, FORWARDED, "https://public.example"),
    ],
    ids=["request", "untrusted-proxy-headers", "trusted-proxy-headers", "public-url"],
)
async def test_every_link_starts_with_the_base_the_client_reached(
    serve, settings: dict[str, Any], headers: dict[str, str], base: str
) -> None:
    async with serve(**settings) as (client, _):
        got = await links(client, headers)
        assert all(url.startswith(base + "/api/v3/") for url in got), got
        download = await client.get(got[-1].removeprefix(base))  # as the proxy passes it on
        assert download.status_code == 200 and download.content == b"PK fake"


# --- over `regnb serve` on its own port ------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path, regnb_home: Path) -> Iterator[tuple[str, str]]:
    """`regnb serve --port N` over the sample corpus with the research agent, REGNB_PUBLIC_URL
    unset: (base URL, an enterprise key)."""
    corpus = tmp_path / "corpus"
    regnb.write_corpus(corpus, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    with Accounts() as accounts:
        key = accounts.create_key("acme", "enterprise").key
    env = {k: v for k, v in os.environ.items() if k != "REGNB_PUBLIC_URL"}
    env["REGNB_RATE_LIMIT_PER_MINUTE"] = "0"
    args = ["--corpus", str(corpus), "--fast-encoder", "--log-level", "warning"]
    with regnb_serve(args, env=env, log=tmp_path / "serve.log") as base:
        yield base, key


QUESTION = "Which firms failed sterility testing? Put them in an Excel table."


def test_a_research_file_downloads_through_connect_from_a_server_on_its_own_port(
    served: tuple[str, str], tmp_path: Path
) -> None:
    base, key = served
    with regnb.connect(base, key) as remote:
        conv = remote.ask(QUESTION).wait(WAIT, progress=False)
        assert conv.status == "completed", conv.to_dict()
        docs = conv.documents
        assert list(docs["type"]) == ["file"]
        document = conv.document(docs["id"][0])
        assert document["url"].startswith(f"{base}/api/v3/files/")
        assert conv.to_dict()["url"].startswith(f"{base}/api/v3/conversations/")
        saved = conv.download(docs["id"][0], tmp_path)
    assert saved.suffix == ".xlsx" and saved.read_bytes()[:2] == b"PK"


def test_research_chat_over_a_remote_engine_shows_the_finished_answer_and_its_file(
    served: tuple[str, str],
) -> None:
    pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")
    from regnb.widgets import ResearchChat
    from regnb.widgets._polling import ManualScheduler

    base, key = served
    with regnb.connect(base, key) as remote:
        clock = ManualScheduler()
        chat = ResearchChat(remote, scheduler=clock)
        assert chat.send(QUESTION)
        end = time.monotonic() + WAIT
        while chat.running:
            assert time.monotonic() < end, chat.data
            clock.tick()
            time.sleep(0.05)
        assert chat.data is not None and chat.data["status"] == "completed"
        assert chat.data["turns"][-1]["answer"] and len(chat.turns.children) == 1
        assert chat.unfetched == {} and len(chat.files) == 1
        assert "could not" not in chat.errors.general.value


# --- ResearchChat when a file cannot be fetched ----------------------------------------------


def test_research_chat_shows_the_answer_even_when_a_file_cannot_be_fetched(
    local_source: Any,
) -> None:
    pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")
    import html

    from regnb.widgets import ResearchChat
    from regnb.widgets._polling import ManualScheduler
    from regnb.widgets.testing import ProtocolOnly, ScriptedConversations

    class Unreachable(ScriptedConversations):
        """Downloads fail as a remote client's did when links named http://localhost:8000."""

        def download_document(self, conversation_id: str, document_id: str) -> tuple[str, bytes]:
            raise UpstreamError("could not reach http://localhost:8000/api/v3/files/t")

    engine, source = local_source
    clock = ManualScheduler()
    chat = ResearchChat(ProtocolOnly(engine, Unreachable(source, steps=2)), scheduler=clock)
    assert chat.send("Chart it [image] [text]")
    while clock.tick():
        pass
    assert chat.data is not None and chat.data["status"] == "completed"
    answer = html.unescape(chat.turns.children[0].children[1].value)
    assert "In short:" in answer
    shown = html.unescape("".join(c.value for c in chat.documents.children))
    assert "Chart" in shown and "could not reach http://localhost:8000" in shown
    assert set(chat.unfetched) == {"doc_1", "doc_2"} and chat.errors.general.value == ""


@pytest.fixture
def local_source(engine: regnb.Engine) -> tuple[regnb.Engine, Any]:
    from regnb.widgets.testing import Source

    doc = engine.search(["sterility"], limit=1).results[0]
    return engine, Source(doc["document_id"], doc["title"], "FDA", doc["date"], doc["url"], 1)
