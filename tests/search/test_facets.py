"""Counts over every full match (`Engine.facets`, `search(facets=...)`): equal to a count by
brute force over the corpus, not capped by the page budget or the match count cap."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import numpy as np
import pandas as pd
import pytest

import regnb
from regnb.errors import InvalidRequest
from regnb.index.segments import NO_DATE
from regnb.search.facets import OTHER, cfr_sections, documents_of, periods, top_values
from tests.conftest import doc

WORDS = ["alpha", "bravo", "charlie", "delta", "echo"]
COMPANIES = ["Acme", "Bolt", "Crest", "Dune"]
ITEMS = ["alpha bravo", "charlie"]


def _page(rng: random.Random) -> str:
    return " ".join(rng.sample(WORDS, rng.randint(1, 3)))


def corpus(seed: int = 7) -> dict[str, list[dict[str, Any]]]:
    """Two datasets of seeded documents: 1 to 4 pages of vocabulary words, dated 2018 to 2021
    (some undated), warning letters with a company."""
    rng = random.Random(seed)
    out: dict[str, list[dict[str, Any]]] = {"fda_warning_letters": [], "fda_483": []}
    for i in range(60):
        ds = "fda_warning_letters" if i % 3 else "fda_483"
        day = None if i % 11 == 0 else f"{rng.choice([2018, 2019, 2021])}-0{rng.randint(1, 9)}-15"
        fields = {"company": rng.choice(COMPANIES)} if ds == "fda_warning_letters" else {}
        pages = [_page(rng) for _ in range(rng.randint(1, 4))]
        out[ds].append(doc(f"document {i}", pages, date=day, fields=fields))
    return out


def matches_page(text: str) -> bool:
    words = set(text.split())
    return any(set(item.split()) <= words for item in ITEMS)


def brute_force(docs: dict[str, list[dict[str, Any]]], key: Any) -> dict[Any, tuple[int, int]]:
    """(documents, pages) per `key(dataset, document)` over the pages that match."""
    counts: dict[Any, list[int]] = defaultdict(lambda: [0, 0])
    for ds, given in docs.items():
        for d in given:
            hits = sum(matches_page(p) for p in d["pages"])
            if hits:
                counts[key(ds, d)][0] += 1
                counts[key(ds, d)][1] += hits
    return {k: (v[0], v[1]) for k, v in counts.items()}


def as_counts(frame: pd.DataFrame) -> dict[Any, tuple[int, int]]:
    return {r.value: (r.documents, r.pages) for r in frame.itertuples()}


@pytest.fixture
def engine(make_engine: Any) -> regnb.Engine:
    """The seeded corpus with a page budget and a match cap far below its matches."""
    return make_engine(corpus(), page_budget=4, match_count_cap=3)


def _year(ds: str, d: dict[str, Any]) -> str | None:
    return d["date"][:4] if d["date"] else None


@pytest.mark.parametrize(
    ("facet", "key"),
    [
        ("dataset", lambda ds, d: ds),
        ("year", _year),
        ("month", lambda ds, d: d["date"][:7] if d["date"] else None),
    ],
)
def test_counts_equal_a_brute_force_count_over_the_corpus(engine, facet, key):
    found = engine.facets(ITEMS, by=[facet])[facet]
    expected = brute_force(corpus(), key)
    got = {k: v for k, v in as_counts(found).items() if v != (0, 0)}
    assert got == expected
    assert sum(n for n, _ in expected.values()) > 4  # more than the budget and the cap


def test_field_counts_equal_a_brute_force_count(engine):
    found = engine.facets(ITEMS, by=["company"], datasets=["fda_warning_letters"])["company"]
    expected = brute_force(
        {"fda_warning_letters": corpus()["fda_warning_letters"]},
        lambda ds, d: d["fields"]["company"],
    )
    assert as_counts(found) == expected
    docs = list(found["documents"])
    assert docs == sorted(docs, reverse=True)


def test_counts_are_not_capped_by_the_budget_or_the_match_cap(engine):
    res = engine.search(ITEMS, facets=["dataset"])
    total = res.facets["dataset"]["documents"].sum()
    assert total == sum(n for n, _ in brute_force(corpus(), lambda ds, d: 0).values())
    assert all(s.get("matches", 0) <= 3 for s in res.dataset_statuses.values())
    assert sum(s.get("pages", 0) for s in res.dataset_statuses.values()) <= 4
    assert res.facets["dataset"]["pages"].sum() > 4


def test_years_are_a_histogram_with_gaps_and_undated_last(engine):
    years = engine.facets(ITEMS, by=["year"])["year"]
    assert list(years["value"]) == ["2018", "2019", "2020", "2021", None]
    assert years.loc[years["value"] == "2020", "documents"].item() == 0


def test_filters_and_dates_narrow_the_counts(engine):
    years = engine.facets(ITEMS, by="year", date_from="2019-01-01", date_to="2019-12-31")["year"]
    assert list(years["value"]) == ["2019"]
    expected = brute_force(corpus(), _year)["2019"]
    assert tuple(years.iloc[0][["documents", "pages"]]) == expected
    one = engine.facets(
        ITEMS,
        by=["company"],
        datasets=["fda_warning_letters"],
        filters={"fda_warning_letters": {"company": "Acme"}},
    )["company"]
    assert list(one["value"]) == ["Acme"]


def test_a_size_keeps_the_top_values_and_sums_the_rest_as_other(engine):
    full = engine.facets(ITEMS, by=["company"], datasets=["fda_warning_letters"])["company"]
    cut = engine.facets(
        ITEMS, by=[{"name": "company", "size": 2}], datasets=["fda_warning_letters"]
    )["company"]
    assert list(cut["value"]) == [*full["value"][:2], OTHER]
    assert cut["documents"].sum() == full["documents"].sum()
    assert cut["pages"].sum() == full["pages"].sum()
    assert engine.facets(ITEMS, by="company", size=1, datasets=["fda_warning_letters"])["company"][
        "value"
    ].tolist() == [full["value"][0], OTHER]


def test_search_returns_facets_only_when_asked(engine):
    assert engine.search(ITEMS).facets == {}
    assert "facets" not in engine.search(ITEMS).to_dict()
    res = engine.search(ITEMS, facets=["year", "dataset"])
    assert list(res.facets) == ["year", "dataset"]
    assert res.to_dict()["facets"]["dataset"][0].keys() == {"value", "documents", "pages"}
    req = engine.check_search(ITEMS)
    assert list(engine.search(req, facets=["dataset"]).facets) == ["dataset"]


def test_forbidden_datasets_are_not_counted(make_engine):
    eng = make_engine(
        {"fda_483": [doc("A", ["alpha"])], "fda_crl": [doc("C", ["alpha"])]}, page_budget=4
    )
    assert eng.facets(["alpha"], by=["dataset"])["dataset"]["value"].tolist() == [
        "fda_483",
        "fda_crl",
    ]
    free = eng.facets(["alpha"], by=["dataset"], datasets=["fda_483", "fda_crl"], plan="free")
    assert free["dataset"]["value"].tolist() == ["fda_483"]


def test_only_full_matches_are_counted(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha filler"]), doc("B", ["bravo"])]})
    assert eng.search(["alpha bravo"]).total == 2  # loosened
    assert eng.facets(["alpha bravo"], by=["dataset"])["dataset"].empty


@pytest.mark.parametrize(
    ("by", "field", "message"),
    [
        (["yeer"], "facets[0]", "did you mean 'year'"),
        (["dataset", "compny"], "facets[1]", "did you mean 'company'"),
        (["year", "year"], "facets[1]", "repeats"),
        ([{"name": "year", "size": 0}], "facets[0].size", "1 to 1000"),
        ([{"name": "year", "size": 1001}], "facets[0].size", "1 to 1000"),
        ([{"name": "year", "color": 1}], "facets[0]", "unknown key"),
        ([{"size": 3}], "facets[0]", "facet name"),
        ([3], "facets[0]", "facet name"),
        ({"name": "year"}, "facets", "list"),
        (["fei_number"], "facets[0]", "unknown facet"),  # a field of a dataset not searched
    ],
)
def test_bad_facets_are_invalid_requests(engine, by, field, message):
    with pytest.raises(InvalidRequest) as err:
        engine.search(ITEMS, datasets=["fda_warning_letters"], facets=by)
    assert err.value.field == field
    assert message in err.value.message


def test_facets_name_is_checked_for_engine_facets_too(engine):
    with pytest.raises(InvalidRequest) as err:
        engine.facets(ITEMS, by=["dataset", "yeer"])
    assert err.value.field == "facets[1]"


def test_top_values_orders_by_documents_then_value():
    docs = np.array([2, 5, 2, 0, 1])
    pages = np.array([3, 9, 2, 0, 1])
    rows = top_values(["b", "a", "a2", "z", "c"], docs, pages, 2)
    assert [r["value"] for r in rows] == ["a", "a2", OTHER]
    assert rows[-1] == {"value": OTHER, "documents": 3, "pages": 4}
    assert top_values(["x"], np.array([0]), np.array([0]), 5) == []


def test_periods_fill_the_gaps_between_first_and_last():
    days = np.array(
        [
            (np.datetime64("2020-03-02") - np.datetime64("1970-01-01")).astype(int),
            NO_DATE,
            (np.datetime64("2020-05-31") - np.datetime64("1970-01-01")).astype(int),
        ],
        np.int32,
    )
    codes, labels = periods(days, "M")
    assert labels == ["2020-03", "2020-04", "2020-05"]
    assert codes.tolist() == [0, -1, 2]
    assert periods(np.array([NO_DATE], np.int32), "Y") == (pytest.approx([-1]), [])


def test_cfr_counts_the_sections_cited_by_matching_pages(make_engine):
    eng = make_engine(
        {
            "fda_warning_letters": [
                doc("A", ["sterility under 21 CFR 211.113(b)", "sterility again 21 CFR 211.113"]),
                doc("B", ["sterility and 21 CFR 211.192"]),
                doc("C", ["water 21 CFR 211.113"]),
            ]
        }
    )
    assert cfr_sections(eng.store)[0]
    cfr = eng.facets(["sterility"], by=["cfr"])["cfr"]
    assert as_counts(cfr) == {"21 CFR 211.113": (1, 2), "21 CFR 211.192": (1, 1)}


def test_documents_of_pages_in_order():
    docs, counts = documents_of(np.array([3, 3, 4, 7, 7, 7]))
    assert docs.tolist() == [3, 4, 7] and counts.tolist() == [2, 1, 3]
    assert documents_of(np.zeros(0, np.int32))[0].size == 0
