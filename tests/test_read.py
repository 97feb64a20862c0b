"""Document read: ranges, caps, next_page_from, plans, errors."""

from __future__ import annotations

import pytest

import regnb
from regnb.server.errors import http_status

from .conftest import doc


@pytest.fixture
def eng(make_engine):
    pages = [f"page {n} text" for n in range(1, 251)]
    return make_engine(
        {
            "fda_483": [doc("Long", pages), doc("Short", ["one", "two"])],
            "fda_crl": [doc("CRL", ["secret"])],
        },
        read_max_bytes=2_000_000,
    )


def doc_id(eng: regnb.Engine, title: str) -> str:
    res = eng.search([title], datasets=["fda_483", "fda_crl"], limit=50)
    return next(r["document_id"] for r in res.to_dict()["results"] if r["title"] == title)


def test_reads_a_range(eng):
    body = eng.read(doc_id(eng, "Short")).to_dict()
    assert body["total_pages"] == 2 and body["next_page_from"] is None
    assert body["pages"] == [{"page_num": 1, "text": "one"}, {"page_num": 2, "text": "two"}]
    assert set(body) == {
        "document_id",
        "dataset",
        "title",
        "url",
        "total_pages",
        "pages",
        "next_page_from",
    }
    assert eng.read(doc_id(eng, "Short"), 2, 2).to_dict()["pages"] == [
        {"page_num": 2, "text": "two"}
    ]


def test_at_most_100_pages_then_continue(eng):
    did = doc_id(eng, "Long")
    first = eng.read(did).to_dict()
    assert len(first["pages"]) == 100 and first["next_page_from"] == 101
    second = eng.read(did, first["next_page_from"]).to_dict()
    assert second["pages"][0]["page_num"] == 101 and second["next_page_from"] == 201
    third = eng.read(did, 201).to_dict()
    assert len(third["pages"]) == 50 and third["next_page_from"] is None


def test_a_range_that_ends_early_says_where_to_continue(eng):
    body = eng.read(doc_id(eng, "Long"), 10, 12).to_dict()
    assert [p["page_num"] for p in body["pages"]] == [10, 11, 12]
    assert body["next_page_from"] == 13


def test_a_range_past_the_end_is_empty(eng):
    body = eng.read(doc_id(eng, "Short"), 5).to_dict()
    assert body["pages"] == [] and body["next_page_from"] is None and body["total_pages"] == 2


def test_the_byte_cap_cuts_the_response(make_engine):
    big = "x" * 1000
    eng = make_engine({"fda_483": [doc("Big", [f"alpha {big}"] * 10)]}, read_max_bytes=3500)
    did = eng.search(["alpha"], datasets=["fda_483"]).to_dict()["results"][0]["document_id"]
    body = eng.read(did).to_dict()
    assert len(body["pages"]) == 3 and body["next_page_from"] == 4


def test_one_page_over_the_byte_cap_still_comes_alone(make_engine):
    eng = make_engine({"fda_483": [doc("Huge", ["alpha " + "y" * 5000, "b"])]}, read_max_bytes=100)
    did = eng.search(["alpha"], datasets=["fda_483"]).to_dict()["results"][0]["document_id"]
    body = eng.read(did).to_dict()
    assert len(body["pages"]) == 1 and body["next_page_from"] == 2


@pytest.mark.parametrize(
    ("page_from", "page_to", "field"),
    [
        (0, None, "page_from"),
        (-1, None, "page_from"),
        ("1", None, "page_from"),
        (1, 0, "page_to"),
        (5, 4, "page_to"),
        (True, None, "page_from"),
    ],
)
def test_bad_page_ranges(eng, page_from, page_to, field):
    with pytest.raises(regnb.InvalidRequest) as info:
        eng.read(doc_id(eng, "Short"), page_from, page_to)
    assert info.value.field == field


def test_unknown_document_is_not_found(eng):
    with pytest.raises(regnb.NotFound) as info:
        eng.read("nope")
    assert http_status(info.value) == 404


def test_enterprise_dataset_is_forbidden_on_other_plans(eng):
    did = doc_id(eng, "CRL")
    assert eng.read(did).to_dict()["pages"][0]["text"] == "secret"
    for plan in ("free", "paid"):
        with pytest.raises(regnb.Forbidden) as info:
            eng.read(did, plan=plan)
        assert http_status(info.value) == 403
