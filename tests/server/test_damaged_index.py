"""A server over a damaged index: it starts, a search answers 200 with the damaged datasets'
status `error` and a reason, and a document in a damaged segment is a 500 whose log line names
the segment and the repair."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import regnb
from regnb.server import create_app
from regnb.server.accounts import Accounts
from tests import damage_support as damage

from .test_openapi import validate
from .test_server import h


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    damage.write_corpus(tmp_path / "corpus")
    return tmp_path / "corpus"


@pytest.fixture
def titles(corpus: Path) -> dict[str, str]:
    """Document ids by title, read before any damage."""
    with damage.open_engine(corpus) as eng:
        return {r["title"]: r["document_id"] for r in damage.search(eng)["results"]}


def serve(corpus: Path, accounts: Accounts) -> Iterator[TestClient]:
    engine: regnb.Engine = damage.open_engine(corpus)
    try:
        with TestClient(create_app(engine, accounts=accounts)) as client:
            yield client
    finally:
        engine.close()


def search(client: TestClient, key: str) -> dict:
    body = {"keywords": ["sterility"], "datasets": damage.DATASETS, "limit": 50}
    resp = client.post("/api/v3/search", json=body, headers=h(key))
    validate(resp)
    assert resp.status_code == 200
    return resp.json()


def assert_damaged(result: dict, segment: str) -> None:
    for ds in damage.FIRST:
        status = result["datasets"][ds]
        assert status["status"] == "error" and segment in status["reason"], status
    assert result["datasets"][damage.SECOND]["status"] == "ok"
    assert {r["dataset"] for r in result["results"]} == {damage.SECOND}


def test_the_app_starts_over_a_segment_file_deleted(
    corpus: Path,
    titles: dict[str, str],
    accounts: Accounts,
    keys: dict[str, str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    folder = damage.first_segment()
    (folder / "docs.arrow").unlink()
    for client in serve(corpus, accounts):
        assert_damaged(search(client, keys["ent"]), folder.name)
        resp = client.get(f"/api/v3/documents/{titles['fda_483 record 0']}", headers=h(keys["ent"]))
        validate(resp)
        assert resp.status_code == 500  # the spec's internal_error; its log line says why
        error = resp.json()["error"]
        assert error["code"] == "internal_error"
        (line,) = [r for r in caplog.records if error["request_id"] in r.getMessage()]
        assert folder.name in line.getMessage() and "regnb index" in line.getMessage()
        assert line.exc_info is None  # one line, no traceback


def test_overwritten_page_texts_answer_200_not_500(
    corpus: Path, titles: dict[str, str], accounts: Accounts, keys: dict[str, str]
) -> None:
    folder = damage.first_segment()
    damage.overwrite(folder / "texts.bin")
    for client in serve(corpus, accounts):
        assert_damaged(search(client, keys["ent"]), folder.name)
        sound = titles[f"{damage.SECOND} record 0"]
        resp = client.get(f"/api/v3/documents/{sound}", headers=h(keys["ent"]))
        assert resp.status_code == 200
