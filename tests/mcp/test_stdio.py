"""`regnb mcp` in a process of its own, driven by the SDK's own client over stdio: the tools are
listed, a search finds a document, a page of it is read, and research answers with citations
that verify on their pages, all as the local user of the corpus (`--plan` decides what it may
read)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

import regnb
from regnb.mcp._schemas import tool_specs
from regnb.server.testing import sample_documents
from regnb.settings import Settings

from .support import stdio_session, structured, tool_error

pytestmark = pytest.mark.anyio

QUESTION = "What did the warning letters to Beta Pharma say about sterility testing?"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, regnb.Engine]]:
    """The sample corpus, a REGNB_HOME whose index of it the servers share, and an engine over
    it that reads pages for the checks."""
    root = tmp_path_factory.mktemp("mcp-stdio")
    path, home = root / "corpus", root / "home"
    regnb.write_corpus(path, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    settings = dataclasses.replace(Settings.from_env(), home=home)
    with regnb.Engine(
        path, encoder=regnb.HashingEncoder(), settings=settings, progress=False
    ) as engine:
        yield path, home, engine


def words(text: str) -> str:
    return " ".join(text.split())


async def test_a_session_searches_reads_a_page_and_gets_a_verified_answer(corpus):
    path, home, engine = corpus
    async with stdio_session("--corpus", str(path), "--fast-encoder", home=home) as session:
        tools = [t.name for t in (await session.list_tools()).tools]
        found = structured(await session.call_tool("search", {"keywords": ["long record"]}))
        doc = found["results"][0]
        page = structured(
            await session.call_tool(
                "read", {"document_id": doc["document_id"], "page_from": 3, "page_to": 3}
            )
        )
        answer = structured(await session.call_tool("research", {"message": QUESTION}))
        bad = tool_error(
            await session.call_tool("read", {"document_id": doc["document_id"], "page_to": 0})
        )
    assert tools == list(tool_specs(engine.datasets()))
    assert doc["title"] == "Form 483 long record" and doc["url"] == "https://example.test/483/long"
    assert page["pages"] == [{"page_num": 3, "text": engine.read(doc["document_id"], 3, 3).text}]
    assert answer["status"] == "completed" and answer["citations"]
    for c in answer["citations"]:
        assert c["verified"] is True
        text = engine.read(c["document_id"], c["page_num"], c["page_num"]).text
        if c["block_id"] is not None:
            assert words(c["quote"]) in words(text)
    assert bad["code"] == "invalid_request" and bad["field"] == "page_to"


async def test_the_plan_option_decides_what_the_local_user_may_read(corpus):
    path, home, engine = corpus
    crl = engine.search(["sterility"], datasets=["fda_crl"]).to_dict()["results"][0]
    args = ("--corpus", str(path), "--fast-encoder", "--plan", "free")
    async with stdio_session(*args, home=home) as session:
        refused = tool_error(await session.call_tool("read", {"document_id": crl["document_id"]}))
        found = structured(
            await session.call_tool("search", {"keywords": ["sterility"], "datasets": ["fda_crl"]})
        )
    assert refused["code"] == "forbidden" and refused["field"] == "document_id"
    assert found["datasets"] == {"fda_crl": {"status": "forbidden"}}
