"""`regnb serve` in its own process, over real HTTP on a loopback port."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

import regnb
from regnb.server.accounts import Accounts
from regnb.server.testing import sample_documents
from tests.serving import STARTUP_S, regnb_serve


@contextmanager
def serving(tmp_path: Path, log_level: str) -> Iterator[tuple[str, str, Path]]:
    """`regnb serve` over the sample corpus: (base URL, an enterprise key, the server's log)."""
    corpus = tmp_path / "corpus"
    regnb.write_corpus(corpus, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    with Accounts() as accounts:
        key = accounts.create_key("acme", "enterprise").key
    log_path = tmp_path / "serve.log"
    args = ["--corpus", str(corpus), "--fast-encoder", "--log-level", log_level]
    with regnb_serve(args, env=os.environ, log=log_path) as base:
        yield base, key, log_path


@pytest.fixture
def served(tmp_path: Path, regnb_home: Path) -> Iterator[tuple[str, str]]:
    with serving(tmp_path, "warning") as (base, key, _):
        yield base, key


def test_serve_answers_over_http(served: tuple[str, str]) -> None:
    base, key = served
    with httpx.Client(base_url=base, headers={"x-api-key": key}) as client:
        resp = client.post(
            "/api/v3/search",
            content=b'{"keywords": ["sterility"], "limit": 2}',
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert resp.status_code == 200
        assert resp.headers["x-request-id"].startswith("req_")
        body = resp.json()
        assert len(body["results"]) == 2 and body["next_offset"] == 2

        doc = body["results"][0]["document_id"]
        read = client.get(f"/api/v3/documents/{doc}", params={"page_from": 1, "page_to": 1})
        assert read.status_code == 200 and read.json()["pages"][0]["page_num"] == 1

        assert client.get("/api/v3/datasets").status_code == 200
        legacy = client.post("/api/search", json={"query_text": "sterility", "top_k": 1})
        assert legacy.status_code == 200 and legacy.json()["results"][0]["page_num"] == 0

        missing = client.get("/api/v3/nowhere")
        assert missing.status_code == 404
        assert missing.json()["error"]["request_id"] == missing.headers["x-request-id"]

        unauthorised = httpx.get(f"{base}/api/v3/datasets")
        assert unauthorised.json()["error"]["code"] == "missing_api_key"


def test_serve_refuses_a_streamed_body_over_the_limit(served: tuple[str, str]) -> None:
    base, key = served

    def chunks() -> Iterator[bytes]:
        yield b'{"keywords": ["sterility"], "query": "'
        for _ in range(17):
            yield b"x" * 65_536
        yield b'"}'

    with httpx.Client(base_url=base, headers={"x-api-key": key}) as client:
        resp = client.post("/api/v3/search", content=chunks())
    assert resp.request.headers["transfer-encoding"] == "chunked"
    assert resp.status_code == 413
    assert resp.json()["error"]["code"] == "payload_too_large"


SECRETS = {
    "api_key": "sk_url_api_key",
    "KEY": "sk_url_key",
    "x-api-key": "sk_url_x_api_key",
    "Token": "sk_url_token",
    "apikey": "sk_url_apikey",
    "access_token": "sk_url_access_token",
    "secret": "sk_url_secret",
    "password": "sk_url_password",
}


def test_serve_never_logs_a_key_sent_in_the_url(tmp_path: Path, regnb_home: Path) -> None:
    with serving(tmp_path, "info") as (base, key, log_path):
        paths = [f"/api/v3/datasets?limit=2&{name}={value}" for name, value in SECRETS.items()]
        paths.append(f"/api/v3/nowhere?api_key={key}")
        anywhere = [  # a key under any name, in a path, inside a value
            f"/api/v3/datasets?k={key}",
            f"/api/v3/documents/{key}",
            f"/api/v3/datasets?note=mine%20is%20{key.replace('_', '%5F')}",
        ]
        with httpx.Client(base_url=base, headers={"x-api-key": key}) as client:
            for path in paths + anywhere:
                assert client.get(path).status_code in (200, 400, 404)
            client.post(f"/api/search?token={key}", json={"query_text": "sterility"})
        deadline = time.monotonic() + STARTUP_S
        gets = len(paths) + len(anywhere) + 1  # + the start probe
        while log_path.read_text().count("GET /api/v3/") < gets:
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        while "POST /api/search" not in log_path.read_text():
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
    text = log_path.read_text()
    assert key not in text and key[4:] not in text and key[10:30] not in text
    assert "GET /api/v3/datasets?k=rnb_*** HTTP/1.1" in text
    assert "GET /api/v3/documents/rnb_*** HTTP/1.1" in text
    assert not [value for value in SECRETS.values() if value in text]
    assert "/api/v3/datasets?limit=2&api_key=*** HTTP/1.1" in text
    assert text.count("=***") == len(paths) + 1


def test_keys_delete_of_an_unknown_key_is_a_not_found_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Like every other command: one `error: CODE (FIELD): message` line and exit status 2."""
    from regnb.cli import main

    assert main(["keys", "delete", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: not_found (key): no such key"), err
    assert err.count("\n") == 1


def test_serve_a_corpus_on_s3(tmp_path: Path, regnb_home: Path, s3_bucket: str) -> None:
    """`regnb serve --corpus s3://...` against a moto S3 server on loopback (the environment
    names its endpoint and credentials, as for boto and pyarrow)."""
    url = f"{s3_bucket}/corpus"
    regnb.write_corpus(url, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    with Accounts() as accounts:
        key = accounts.create_key("acme", "enterprise").key
    args = ["--corpus", url, "--fast-encoder", "--log-level", "warning"]
    with (
        regnb_serve(args, env=os.environ, log=tmp_path / "serve.log") as base,
        httpx.Client(base_url=base, headers={"x-api-key": key}) as client,
    ):
        resp = client.post("/api/v3/search", json={"keywords": ["sterility"], "limit": 2})
        assert resp.status_code == 200 and len(resp.json()["results"]) == 2
        doc = resp.json()["results"][0]["document_id"]
        assert client.get(f"/api/v3/documents/{doc}").status_code == 200
