"""Produced files on disk (`regnb.conversations._files`): private to the server's account (0600
in 0700 folders, as the databases and the secret), and a file deleted from disk is listed as
gone (`available: false`) and answers 404 `not_found` with a reason, over HTTP and in Python."""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

import regnb
from regnb.conversations._files import mark_gone, read_produced, write_produced
from regnb.conversations._store import ConversationStore
from regnb.conversations.service import ConversationService
from regnb.conversations.testing import FakeAgent, open_service
from regnb.server import create_app
from regnb.server.accounts import Accounts
from regnb.server.openapi import openapi_document

WAIT = 30.0
DOC = openapi_document()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def loose_umask() -> Iterator[None]:
    """A umask that leaves every bit asked for: the modes below are the code's, not the umask's."""
    old = os.umask(0)
    yield
    os.umask(old)


def finished(service: ConversationService, message: str) -> tuple[str, dict[str, str]]:
    cid = service.start("local", "enterprise", message).body.conversation_id
    body = service.read("local", cid, WAIT).to_dict()
    assert body["status"] == "completed", body
    return cid, {d["title"]: d["id"] for d in body["documents"]}


# --- modes -----------------------------------------------------------------------------------


def test_write_produced_makes_a_0600_file_in_a_0700_folder(tmp_path: Path, loose_umask) -> None:
    path = write_produced(tmp_path / "run_1", "doc_1.docx", b"PK memo")
    assert path.read_bytes() == b"PK memo"
    assert mode(path) == 0o600 and mode(path.parent) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["doc_1.docx"]  # no temporary left


def test_produced_word_excel_and_png_files_are_private_like_the_databases(
    tmp_path: Path, loose_umask
) -> None:
    service = open_service(tmp_path)
    try:
        finished(service, "q [file] [docx] [image]")
        files = sorted(p for p in service.store.files.rglob("*") if p.is_file())
        assert sorted(p.suffix for p in files) == [".docx", ".png", ".xlsx"]
        assert {mode(p) for p in files} == {0o600}
        assert {mode(p.parent) for p in files} == {0o700}
        assert mode(service.store.path) == 0o600  # the database they sit beside
    finally:
        service.close()


# --- a file deleted from disk ------------------------------------------------------------------


def test_read_produced_of_a_deleted_file_is_not_found_with_its_reason(tmp_path: Path) -> None:
    row = {"document_id": "doc_1", "title": "Memo", "filename": "memo.docx", "path": "r/d.docx"}
    with pytest.raises(regnb.NotFound) as err:
        read_produced(tmp_path, row)
    assert err.value.code == "not_found"
    assert "doc_1" in err.value.message and "memo.docx" in err.value.message
    assert "deleted" in err.value.message


def test_mark_gone_flags_only_missing_files_and_images(tmp_path: Path) -> None:
    write_produced(tmp_path / "r", "here.png", b"x")
    rows = [
        {"document_id": "a", "type": "text", "path": None},
        {"document_id": "b", "type": "image", "path": "r/here.png"},
        {"document_id": "c", "type": "file", "path": "r/gone.xlsx"},
    ]
    marked = mark_gone(tmp_path, rows)
    assert [r.get("available") for r in marked] == [None, None, False]
    assert "available" not in rows[2]  # the rows given are left as they were


def test_local_download_of_a_deleted_file_raises_not_found(tmp_path: Path) -> None:
    service = open_service(tmp_path)
    try:
        cid, docs = finished(service, "q [file] [image]")
        (service.store.files / service_path(service, cid, docs["Letters"])).unlink()
        with pytest.raises(regnb.NotFound, match="deleted from disk"):
            service.file("local", "enterprise", cid, docs["Letters"])
        assert service.file("local", "enterprise", cid, docs["Chart"]).filename == "chart.png"
        listed = {d["title"]: d for d in service.read("local", cid).to_dict()["documents"]}
        assert listed["Letters"]["available"] is False and "available" not in listed["Chart"]
    finally:
        service.close()


def service_path(service: ConversationService, cid: str, document_id: str) -> str:
    with service.store.read() as tx:
        row = tx.document(cid, document_id)
    assert row is not None
    return str(row["path"])


@dataclasses.dataclass
class Served:
    client: httpx.AsyncClient
    service: ConversationService
    key: str

    async def get(self, path: str) -> httpx.Response:
        return await self.client.get(path, headers={"x-api-key": self.key})


@pytest.fixture
def serve(engine: regnb.Engine, accounts: Accounts, tmp_path: Path):
    @asynccontextmanager
    async def make() -> AsyncIterator[Served]:
        settings = dataclasses.replace(
            engine.settings, home=tmp_path / "home", rate_limit_per_minute=0
        )
        app = create_app(engine, settings=settings, accounts=accounts)
        state = app.state.regnb
        state.conversations.close()
        state.conversations = ConversationService(
            FakeAgent(engine), ConversationStore.under(settings.home), settings
        )
        key = accounts.create_key("acme", "enterprise").key
        transport = httpx.ASGITransport(app=app)
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://regnb.test") as c:
                yield Served(c, state.conversations, key)
        finally:
            state.conversations.close()

    return make


def schema_of(path: str, status: str = "200") -> dict[str, Any]:
    ref = DOC["paths"][path]["get"]["responses"][status]["content"]["application/json"]["schema"]
    return {**DOC, "$ref": ref["$ref"]}


@pytest.mark.anyio
async def test_http_download_of_a_deleted_file_is_404_and_the_listing_says_it_is_gone(
    serve,
) -> None:
    async with serve() as s:
        start = await s.client.post(
            "/api/v3/conversations",
            json={"message": "q [file] [image] [text]"},
            headers={"x-api-key": s.key},
        )
        cid = start.json()["conversation_id"]
        done = (await s.get(f"/api/v3/conversations/{cid}?wait={WAIT}")).json()
        assert done["status"] == "completed"
        docs = {d["title"]: d["id"] for d in done["documents"]}
        (s.service.store.files / service_path(s.service, cid, docs["Chart"])).unlink()

        read = await s.get(f"/api/v3/conversations/{cid}")
        jsonschema.validate(read.json(), schema_of("/api/v3/conversations/{conversation_id}"))
        listed = {d["title"]: d for d in read.json()["documents"]}
        assert listed["Chart"]["available"] is False
        assert "available" not in listed["Letters"] and "available" not in listed["Report"]

        path = f"/api/v3/conversations/{cid}/documents/{docs['Chart']}"
        entry = await s.get(path)
        assert entry.status_code == 200 and entry.json()["available"] is False
        jsonschema.validate(
            entry.json(),
            schema_of("/api/v3/conversations/{conversation_id}/documents/{document_id}"),
        )
        gone = await s.get(httpx.URL(entry.json()["url"]).path)
        assert gone.status_code == 404, gone.text
        error = gone.json()["error"]
        assert error["code"] == "not_found" and "deleted from disk" in error["message"]

        letters = (await s.get(f"/api/v3/conversations/{cid}/documents/{docs['Letters']}")).json()
        assert (await s.get(httpx.URL(letters["url"]).path)).status_code == 200
