"""Result objects round-trip through the spec's JSON: `from_dict(to_dict())` gives them back."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest

import regnb
from regnb.catalog import Catalog
from regnb.results import (
    ContentsResult,
    DocumentRead,
    LegacySearchResult,
    SearchResult,
    field_dtype,
)

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


def big_page(n: int) -> dict[str, Any]:
    return {"page_num": n, "score": 0.5, "text": f"sterility page {n}. " + "x " * 1500}


def big_document(n: int, dataset: str = "fda_483") -> dict[str, Any]:
    return {
        "document_id": f"d{n}",
        "dataset": dataset,
        "title": "A very long title " * 20,
        "date": "2021-05-06",
        "url": f"https://x.invalid/{n}",
        "fields": {
            "facility_name": "Acme " * 50,
            "fei_number": str(n),
            "record_date": "2021-05-06",
        },
        "pages": [big_page(p) for p in (1, 2, 3)],
        "matched_pages": 3,
    }


STATUSES = {
    "fda_483": {"status": "ok", "matches": 9000, "pages": 400},
    "fda_recalls": {"status": "ok", "matches": 0, "pages": 100, "loosened": True},
    "fda_guidance": {"status": "skipped", "reason": "no date field"},
    **{ds: {"status": "no_match"} for ds in ("fda_drug", "fda_pma", "fda_ufa")},
}


def big_search(datasets: dict[str, dict[str, Any]] = STATUSES) -> SearchResult:
    body = {
        "results": [big_document(n) for n in range(50)],
        "datasets": datasets,
        "total": 500,
        "next_offset": 50,
        "ranking": "similarity",
    }
    return SearchResult.from_dict(body, keywords=["sterility"], query="sterility failures")


def big_objects() -> list[Any]:
    pages = [{"page_num": n, "text": "x " * 20000} for n in range(1, 101)]
    legacy_row = {"name": "N " * 200, "dataset": "fda_483", "page_num": 0, "score": 1.0}
    return [
        big_search(),
        DocumentRead("d", "fda_483", "T " * 300, "https://x.invalid", 900, pages, 101),
        LegacySearchResult([legacy_row] * 100, 10_000),
        ContentsResult(
            {"name": "N " * 200, "dataset": "fda_483", "pages": pages, "total_pages": 900}
        ),
        regnb.load_catalog(),
        regnb.load_catalog()["fda_483"],
    ]


@pytest.mark.parametrize("obj", big_objects(), ids=lambda o: type(o).__name__)
def test_repr_is_one_short_line_even_for_big_results(obj):
    text = repr(obj)
    assert len(text) < 200 and "\n" not in text
    assert text.startswith(f"<{type(obj).__name__}")


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (
            big_search(),
            "<SearchResult: 500 documents, 50 shown (similarity), 6 datasets: "
            "2 ok, 3 no_match, 1 skipped>",
        ),
        (LegacySearchResult([], 0), "<LegacySearchResult: 0 of 0 pages>"),
        (Catalog([]), "<Catalog: 0 datasets, 0 available>"),
    ],
)
def test_repr_says_what_it_holds(obj, expected):
    assert repr(obj) == expected


def test_statuses_have_nullable_types():
    frame = big_search().statuses.set_index("dataset")
    assert dict(frame.dtypes.astype(str)) == {
        "status": "string",
        "matches": "Int64",
        "pages": "Int64",
        "loosened": "boolean",
        "reason": "string",
    }
    assert frame.loc["fda_483", "matches"] == 9000 and frame.loc["fda_recalls", "loosened"]
    assert pd.isna(frame.loc["fda_drug", "matches"]) and not frame.loc["fda_drug", "loosened"]
    assert frame.loc["fda_guidance", "reason"] == "no date field"
    assert frame.reason.isna().sum() == 5


def test_documents_have_proper_types(eng):
    frame = eng.search(["sterility"]).documents
    assert str(frame.date.dtype).startswith("datetime64")
    assert frame.score.dtype == "float64" and frame.matched_pages.dtype == "Int64"
    assert all(frame[c].dtype == "string" for c in ("document_id", "dataset", "title", "url"))
    assert frame.date[0] == pd.Timestamp("2020-01-01")


def test_an_empty_result_has_the_same_column_types(eng):
    full = eng.search(["sterility"])
    empty = SearchResult.from_dict({**full.to_dict(), "results": [], "total": 0})
    for name in ("documents", "pages", "statuses"):
        assert getattr(empty, name).dtypes.equals(getattr(full, name).dtypes), name
    assert full.documents.date.dtype == "datetime64[ns]"


def test_one_dataset_spreads_its_fields_into_columns(eng):
    frame = eng.search(["sterility"], datasets=["fda_483"]).documents
    assert "fields" not in frame
    assert list(frame.columns[8:]) == ["facility_name", "fei_number", "record_date", "record_id"]
    assert frame.fei_number[0] == "3001234567" and frame.fei_number.dtype == "string"
    assert str(frame.record_date.dtype).startswith("datetime64")


def cfr_search() -> SearchResult:
    pages = [
        {"page_num": 1, "score": 2.0, "text": "Failed 21 CFR 211.113(b) and § 211.192."},
        {"page_num": 4, "score": 1.0, "text": "See 21 CFR Part 820 and 21 CFR 211.113(c)."},
    ]
    results = [
        {**big_document(1), "pages": pages},
        {**big_document(2), "pages": [{"page_num": 1, "score": 0.5, "text": "no citation"}]},
    ]
    body = {"results": results, "datasets": {}, "total": 2, "next_offset": None}
    return SearchResult.from_dict({**body, "ranking": "similarity"}, keywords=["x"])


def test_each_document_lists_the_cfr_sections_its_returned_pages_cite():
    res = cfr_search()
    cited = res.documents.cfr.tolist()
    assert cited == [["21 CFR 211.113", "21 CFR 211.192", "21 CFR 820"], []]
    assert list(res.documents.columns[:8]) == [
        "document_id", "dataset", "title", "date", "url", "score", "matched_pages", "cfr",
    ]  # fmt: skip


def test_the_cfr_column_is_not_in_the_envelope_and_reads_alike_from_it():
    res = cfr_search()
    body = res.to_dict()
    assert all("cfr" not in r for r in body["results"])
    again = SearchResult.from_dict(body, keywords=["x"])
    assert again.documents.cfr.tolist() == res.documents.cfr.tolist()


def test_several_datasets_keep_a_fields_column_and_offer_wide_and_per_dataset(eng):
    res = eng.search(["sterility"])
    assert isinstance(res.documents.fields[0], dict)
    wide = res.documents_wide.set_index("title")
    assert wide.loc["Acme 483", "facility_name"] == "Acme"
    assert wide.loc["Beta recall", "company"] == "Beta"
    assert pd.isna(wide.loc["Beta recall", "facility_name"])
    recalls = res.documents_of("fda_recalls")
    assert list(recalls.title) == ["Beta recall"] and "company" in recalls
    with pytest.raises(KeyError, match="fda_nope"):
        res.documents_of("fda_nope")


@pytest.mark.parametrize(
    ("values", "dtype"),
    [
        (["a", None], "string"),
        ([True, None], "boolean"),
        ([1, None], "Int64"),
        ([1, 2.5], "Float64"),
        (["2020-01-02", None], "datetime64"),
        (["2020-01", "2020-01-02"], "string"),
        ([["a", "b"], None], "object"),
        (["a", 1], "object"),
        ([None, None], "string"),
    ],
)
def test_field_columns_are_typed_by_their_values(values, dtype):
    typed = field_dtype(pd.Series(values, dtype=object))
    assert str(typed.dtype).startswith(dtype)


def test_pages_have_their_best_passage(eng):
    res = eng.search(["media fill"])
    res.keywords = ["media fill"]
    pages = res.pages
    assert pages.page_num.dtype == "Int64" and pages.passage.dtype == "string"
    assert list(pages.passage) == ["media fill"]


def test_keywords_and_query_stay_out_of_the_envelope():
    res = big_search()
    assert res.keywords == ["sterility"] and res.query == "sterility failures"
    assert set(res.to_dict()) == {"results", "datasets", "total", "next_offset", "ranking"}
    assert SearchResult.from_dict(res.to_dict()).keywords == []


@pytest.mark.parametrize(
    ("returned", "total", "next_offset", "offset"),
    [(20, 57, 20, 0), (20, 57, 40, 20), (17, 57, None, 40), (0, 3, None, 3), (0, 0, None, 0)],
)
def test_offset_of_the_slice(returned, total, next_offset, offset):
    body = {"results": [big_document(n) for n in range(returned)], "datasets": {}}
    res = SearchResult.from_dict(
        {**body, "total": total, "next_offset": next_offset, "ranking": "bm25"}
    )
    assert res.offset == offset


def test_legacy_frames_have_integer_pages_and_years(eng):
    found = eng.legacy_search("sterility")
    frame = found.results
    assert frame.page_num.dtype == "Int64" and frame.year_decision.dtype == "Int64"
    assert frame.score.dtype == "float64" and frame.name.dtype == "string"
    assert LegacySearchResult([], 0).results.columns.tolist()[:3] == ["id", "doc_id", "dataset"]
    contents = eng.legacy_contents(found.rows[0]["doc_id"])
    assert contents.pages.page_num.dtype == "Int64"
    assert list(contents.pages.page_num) == list(range(len(contents.pages)))


def test_document_read_pages_have_integer_page_numbers(eng):
    res = eng.search(["sterility"], datasets=["fda_483"])
    pages = eng.read(res.documents.document_id[0]).pages
    assert pages.page_num.dtype == "Int64" and list(pages.page_num) == [1, 2]


def test_facet_counts_travel_in_the_envelope_only_when_asked_for_and_read_as_frames():
    from regnb.results import SearchResult

    plain = SearchResult([], {}, 0, None, "bm25")
    assert "facets" not in plain.to_dict() and plain.facets == {}
    counts = {"year": [{"value": "2021", "documents": 3, "pages": 5}], "cfr": []}
    res = SearchResult([], {}, 0, None, "bm25", facet_counts=counts)
    body = res.to_dict()
    assert body["facets"] == counts
    back = SearchResult.from_dict(body)
    assert back.facet_counts == counts
    frames = back.facets
    assert list(frames["year"].columns) == ["value", "documents", "pages"]
    assert frames["year"].iloc[0].tolist() == ["2021", 3, 5]
    assert frames["cfr"].empty and list(frames["cfr"].columns) == ["value", "documents", "pages"]
