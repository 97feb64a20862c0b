"""Every matching document (`Engine.matches`), and search sorted by date."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

import regnb
from regnb.errors import InvalidRequest
from regnb.results import MATCH_COLUMNS, match_records, matches_frame
from tests.search.test_facets import ITEMS, brute_force, corpus

from .conftest import doc


@pytest.fixture
def engine(make_engine: Any) -> regnb.Engine:
    return make_engine(corpus(), page_budget=4, match_count_cap=3)


def _days(frame: pd.DataFrame) -> list[Any]:
    return [None if pd.isna(d) else d for d in frame["date"]]


def test_every_matching_document_not_capped(engine):
    found = engine.matches(ITEMS)
    expected = brute_force(corpus(), lambda ds, d: d["title"])
    assert dict(zip(found["title"], found["pages"], strict=True)) == {
        k: v[1] for k, v in expected.items()
    }
    assert found.attrs["total"] == len(found) == len(expected) > 4
    assert list(found.columns[: len(MATCH_COLUMNS)]) == list(MATCH_COLUMNS)
    assert "company" in found.columns and "facility_name" in found.columns
    assert str(found["date"].dtype) == "datetime64[ns]"
    assert all(c == [] for c in found["cfr"])


@pytest.mark.parametrize("order", ["date", "date_asc"])
def test_matches_by_date_undated_last(engine, order):
    found = engine.matches(ITEMS, order=order)
    days = _days(found)
    dated = [d for d in days if d is not None]
    assert dated == sorted(dated, reverse=order == "date")
    assert days[len(dated) :] == [None] * (len(days) - len(dated))
    assert len(dated) < len(days)


def test_matches_by_bm25(engine):
    found = engine.matches(ITEMS, order="bm25")
    assert list(found["bm25"]) == sorted(found["bm25"], reverse=True)


def test_batches_concatenate_to_the_whole(engine):
    whole = engine.matches(ITEMS, order="date")
    batches = list(engine.matches(ITEMS, order="date", batch_size=7))
    assert [len(b) for b in batches[:-1]] == [7] * (len(batches) - 1)
    joined = pd.concat(batches, ignore_index=True)
    assert joined["document_id"].tolist() == whole["document_id"].tolist()
    assert all(b.attrs["total"] == len(whole) for b in batches)


def test_a_window_of_the_matches(engine):
    whole = engine.matches(ITEMS, order="bm25")
    part = engine.matches(ITEMS, order="bm25", offset=3, limit=4)
    assert part["document_id"].tolist() == whole["document_id"].tolist()[3:7]
    assert part.attrs["total"] == len(whole)


def test_no_match_is_an_empty_frame_with_the_columns(engine):
    found = engine.matches(["zulu"], datasets=["fda_warning_letters"])
    assert found.empty and found.attrs["total"] == 0
    assert list(found.columns[: len(MATCH_COLUMNS)]) == list(MATCH_COLUMNS)
    assert "company" in found.columns
    assert list(engine.matches(["zulu"], batch_size=5)) == []


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"order": "newest"}, "order"),
        ({"batch_size": 0}, "batch_size"),
        ({"limit": 0}, "limit"),
        ({"offset": -1}, "offset"),
        ({"datasets": ["fda_4833"]}, "datasets[0]"),
        ({"colour": 1}, "colour"),
    ],
)
def test_bad_matches_arguments(engine, kwargs, field):
    with pytest.raises(regnb.RegnbError) as err:
        engine.matches(ITEMS, **kwargs)
    assert err.value.field == field


def test_records_and_frames_round_trip(engine):
    frame = engine.matches(ITEMS, datasets=["fda_warning_letters"])
    records = match_records(frame)
    assert records[0].keys() == {*MATCH_COLUMNS, "fields"}
    assert isinstance(records[0]["date"], str | None)
    again = matches_frame(records, ["company"])
    pd.testing.assert_frame_equal(again, frame, check_like=False, check_dtype=False)


# --- search sorted by date ------------------------------------------------------------------


@pytest.mark.parametrize("sort", ["date", "date_asc"])
def test_search_sorted_by_date_over_every_full_match(engine, sort):
    res = engine.search(ITEMS, sort=sort, limit=50)
    results = res.results + engine.search(ITEMS, sort=sort, limit=50, offset=50).results
    expected = brute_force(corpus(), lambda ds, d: d["title"])
    assert res.total == len(expected) > 4
    assert sorted(ids := [r["title"] for r in results]) == sorted(expected)
    assert len(ids) == len(set(ids))
    days = [r["date"] for r in results]
    dated = [d for d in days if d]
    assert dated == sorted(dated, reverse=sort == "date")
    assert days[len(dated) :] == [None] * (len(days) - len(dated))
    for r in results:
        scores = [p["score"] for p in r["pages"]]
        assert scores == sorted(scores, reverse=True) and len(scores) <= 3
        assert r["matched_pages"] == expected[r["title"]][1]
    assert res.dataset_statuses == engine.search(ITEMS).dataset_statuses


def test_sorted_search_pages_like_relevance(engine):
    first = engine.search(ITEMS, sort="date", limit=5)
    second = engine.search(ITEMS, sort="date", limit=5, offset=5)
    assert first.next_offset == 5 and second.offset == 5
    whole = engine.matches(ITEMS, order="date")
    got = [r["document_id"] for r in first.results + second.results]
    assert got == whole["document_id"].tolist()[:10]


def test_without_full_matches_sort_orders_the_loosened_documents_by_date(make_engine):
    eng = make_engine(
        {
            "fda_483": [
                doc("old", ["alpha filler"], date="2001-01-01"),
                doc("new", ["bravo filler"], date="2020-01-01"),
                doc("none", ["zulu"]),
            ]
        }
    )
    res = eng.search(["alpha bravo"], sort="date")
    assert [r["title"] for r in res.results] == ["new", "old"]
    assert res.dataset_statuses["fda_483"].get("loosened") is True
    res = eng.search(["alpha bravo"], sort="date_asc")
    assert [r["title"] for r in res.results] == ["old", "new"]


@pytest.mark.parametrize("sort", ["newest", "", 1])
def test_bad_sort_is_an_invalid_request(engine, sort):
    with pytest.raises(InvalidRequest) as err:
        engine.search(ITEMS, sort=sort)
    assert err.value.field == "sort"


def test_request_body_carries_sort_and_facets_only_when_given(engine):
    assert "sort" not in engine.check_search(ITEMS).to_body()
    body = engine.check_search(ITEMS, sort="date", facets=["year", {"name": "company", "size": 3}])
    assert body.to_body()["sort"] == "date"
    assert body.to_body()["facets"] == ["year", {"name": "company", "size": 3}]


def test_best_pages_are_the_first_pages_of_a_search_by_date(engine):
    found = engine.matches(ITEMS)
    wanted = [*found["document_id"][:5], "no-such-document"]
    request = engine.check_search(ITEMS)
    best = engine.best_pages(request, wanted)
    assert set(best) == set(wanted[:5])
    by_date = engine.search(ITEMS, sort="date", limit=50).to_dict()["results"]
    first = {r["document_id"]: (r["pages"][0]["page_num"], r["pages"][0]["text"]) for r in by_date}
    assert best == {d: first[d] for d in wanted[:5]}


def test_best_pages_leave_out_documents_the_search_does_not_match(make_engine):
    eng = make_engine(
        {
            "fda_483": [
                doc("A", ["nothing here", "media fill failed", "media fill media fill"]),
                doc("B", ["unrelated page"]),
            ]
        }
    )
    ids = {r["title"]: r["document_id"] for r in eng.search(["page", "media"]).to_dict()["results"]}
    best = eng.best_pages(eng.check_search(["media fill"]), [ids["A"], ids["B"]])
    assert best == {ids["A"]: (3, "media fill media fill")}
    assert eng.best_pages(eng.check_search(["media fill"]), []) == {}
