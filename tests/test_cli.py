"""The `regnb` command over a small corpus."""

from __future__ import annotations

import json

import pytest

import regnb
from regnb.cli import main

from .conftest import doc


@pytest.fixture
def corpus(tmp_path):
    regnb.write_corpus(
        tmp_path,
        {"fda_483": [doc("Acme sterility 483", ["sterility failure", "second page"])]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_search_prints_a_table(corpus, capsys):
    code, out, _ = run(capsys, "search", "sterility", "--corpus", str(corpus), "--fast-encoder")
    assert code == 0
    assert "1 documents, ranking: similarity" in out and "Acme sterility 483" in out
    assert "matches=2 pages=2" in out  # the title matches both pages


def test_search_json_prints_the_envelope(corpus, capsys):
    code, out, _ = run(
        capsys,
        "search",
        "sterility",
        "-d",
        "fda_483",
        "--json",
        "--corpus",
        str(corpus),
        "--fast-encoder",
    )
    body = json.loads(out)
    assert code == 0 and body["ranking"] == "bm25" and body["total"] == 1


def test_read_and_index(corpus, capsys):
    code, out, _ = run(capsys, "index", "--corpus", str(corpus), "--fast-encoder")
    assert code == 0 and "1 documents, 2 pages" in out
    did = (
        regnb.open(corpus, encoder=regnb.HashingEncoder())
        .search(["sterility"])
        .to_dict()["results"][0]["document_id"]
    )
    code, out, _ = run(capsys, "read", did, "--corpus", str(corpus), "--fast-encoder", "--json")
    assert json.loads(out)["total_pages"] == 2


def test_errors_print_code_and_field(corpus, capsys):
    code, _, err = run(capsys, "search", "the", "--corpus", str(corpus), "--fast-encoder")
    assert code == 2 and "invalid_request (keywords[0])" in err
