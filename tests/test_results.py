"""Result objects round-trip through the spec's JSON: `from_dict(to_dict())` gives them back."""

from __future__ import annotations

import json

import pytest

import regnb
from regnb.catalog import Catalog

from .conftest import doc


@pytest.fixture(scope="module")
def eng(tmp_path_factory):
    path = tmp_path_factory.mktemp("results")
    regnb.write_corpus(
        path,
        {
            "fda_483": [
                doc(
                    "Acme 483",
                    ["sterility failure", "media fill"],
                    fields={"facility_name": "Acme", "fei_number": "3001234567"},
                    url="https://x.invalid/483/acme",
                )
            ],
            "fda_recalls": [doc("Beta recall", ["sterility recall"], fields={"company": "Beta"})],
        },
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    with regnb.Engine(path, encoder=regnb.HashingEncoder(), progress=False) as engine:
        yield engine


def roundtrip(obj):
    body = json.loads(json.dumps(obj.to_dict()))  # as it travels over HTTP
    back = type(obj).from_dict(body)
    assert back.to_dict() == obj.to_dict()
    return back


def test_search_result_roundtrip(eng):
    res = eng.search(["sterility"], query="sterility failures")
    back = roundtrip(res)
    assert back.documents.equals(res.documents)
    assert back.statuses.equals(res.statuses)


def test_document_read_roundtrip(eng):
    res = eng.search(["sterility"], datasets=["fda_483"])
    read = eng.read(res.documents.document_id[0], 1, 1)
    back = roundtrip(read)
    assert back.pages.equals(read.pages) and back.next_page_from == 2


def test_legacy_results_roundtrip(eng):
    found = roundtrip(eng.legacy_search("sterility"))
    assert found.total == 2
    contents = roundtrip(eng.legacy_contents(found.rows[0]["doc_id"]))
    assert contents.pages.equals(eng.legacy_contents(found.rows[0]["doc_id"]).pages)


def test_catalog_roundtrip(eng):
    catalog = eng.datasets()
    back = Catalog.from_dict(json.loads(json.dumps(catalog.to_dict())))
    assert back.to_dict() == catalog.to_dict()
    assert back["fda_483"].filter_kind("fei_number") == "exact"
    assert back["ema_epar"].available is False and back["ema_epar"].fields == []
