"""Searching by where a firm is: `country:IN`, `-country:US`, `state:NJ`, `city:houston` in the
query syntax, facets `country`, `state` and `city`, every match's place columns and a search's
`places=True`, over a small corpus of firms in known places (`tests/places_corpus.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pandas as pd
import pytest

import regnb
from regnb.documents.places import Place
from regnb.query import Field, parse_item
from regnb.request import DocFilter
from regnb.search.procedure import place_filter
from regnb.server.testing import open_sample
from regnb.text import terms
from tests.places_corpus import EXPECTED, places_engine

FIRM_DATASETS = [
    "fda_warning_letters",
    "fda_483",
    "fda_crl",
    "fda_recall_enforcement",
]


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    yield from places_engine(tmp_path_factory.mktemp("places"))


def titles(res: regnb.SearchResult) -> set[str]:
    return {d["title"] for d in res.results}


def placed(where: Callable[[Place | None], bool]) -> set[str]:
    return {t for t, p in EXPECTED.items() if where(p) and not t.startswith("Guidance")}


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("sterility country:IN", placed(lambda p: p is not None and p.country == "IN")),
        ("sterility country:in", placed(lambda p: p is not None and p.country == "IN")),
        ("sterility country:india", placed(lambda p: p is not None and p.country == "IN")),
        ('sterility country:"P.R. China"', {"Letter to Pudong Chemicals"}),
        ("sterility country:DE", {"Complete response to Rhine Biologics"}),
        ("sterility -country:US", placed(lambda p: p is None or p.country != "US")),
        (
            "sterility state:TX",
            {"Letter to Gulf Labs", "Letter to Acme Compounding"},
        ),
        ('sterility state:"new jersey"', {"Letter to Texas Pharma"}),
        ("sterility state:ON", {"Letter to Maple Generics"}),
        ("sterility state:TX -city:austin", {"Letter to Gulf Labs"}),
        ("sterility city:newark", {"Letter to Texas Pharma", "Letter to Bay Devices"}),
        ("sterility city:newark state:CA", {"Letter to Bay Devices"}),
        ("sterility country:US state:FL", {"Recall by Thompson Foods"}),
        (
            "sterility (state:PA OR state:NJ)",
            {"Form 483 of Delaware Valley Sterile", "Letter to Texas Pharma"},
        ),
        ("sterility country:XX", set()),
    ],
)
def test_a_place_field_narrows_a_search_to_the_firms_there(
    eng: regnb.Engine, item: str, expected: set[str]
) -> None:
    res = eng.search([item], datasets=FIRM_DATASETS, limit=50)
    assert titles(res) == expected


def test_a_firm_named_after_a_place_is_where_its_address_is(eng: regnb.Engine) -> None:
    assert titles(eng.search(["sterility state:TX"], datasets=FIRM_DATASETS)) == {
        "Letter to Gulf Labs",
        "Letter to Acme Compounding",
    }  # not "Texas Pharma Inc", of Newark, NJ


def test_a_dataset_that_faces_no_firm_has_no_place(eng: regnb.Engine) -> None:
    res = eng.search(["sterility city:houston"], limit=50)
    assert titles(res) == {"Letter to Gulf Labs"}  # not the guidance that names Houston, TX
    assert any("city:houston is not a field of fda_guidance" in n for n in res.notices)
    with pytest.raises(regnb.InvalidRequest, match="no dataset searched has a field 'country'"):
        eng.search(["sterility country:US"], datasets=["fda_guidance"])


def test_a_place_alone_finds_every_document_of_firms_there(eng: regnb.Engine) -> None:
    res = eng.search(["country:IN"], limit=50)
    assert titles(res) == placed(lambda p: p is not None and p.country == "IN")
    assert all(d["pages"][0]["page_num"] == 1 for d in res.results)  # each by its first page
    us = eng.search(["country:US"], limit=50)
    assert titles(us) == placed(lambda p: p is not None and p.country == "US")
    assert us.total == len(titles(us))
    with pytest.raises(regnb.InvalidRequest, match="exclusions only narrow"):
        eng.search(["-country:US"])  # exclusions alone: an error, not the whole corpus


def test_facets_count_the_firms_by_country_state_and_city(eng: regnb.Engine) -> None:
    counts = eng.facets(["sterility"], by=["country", "state", "city"])
    countries = dict(zip(counts["country"]["value"], counts["country"]["documents"], strict=True))
    assert countries == {"US": 6, "IN": 1, "CN": 1, "CA": 1, "DE": 1}
    states = dict(zip(counts["state"]["value"], counts["state"]["documents"], strict=True))
    assert states["TX"] == 2 and states["NJ"] == 1 and states["ON"] == 1
    assert "Newark" in set(counts["city"]["value"])


def test_every_match_has_its_firms_place_as_columns(eng: regnb.Engine) -> None:
    frame = eng.matches(["sterility"])
    assert {"country", "state", "city"} <= set(frame.columns)
    by_title = {r.title: (r.country, r.state, r.city) for r in frame.itertuples()}
    for title, place in EXPECTED.items():
        got = tuple(None if pd.isna(v) else v for v in by_title[title])
        want = (place.country, place.state, place.city) if place else (None, None, None)
        assert got == want, title


def test_a_search_has_places_only_when_asked(eng: regnb.Engine) -> None:
    plain = eng.search(["sterility"], datasets=["fda_warning_letters"])
    assert all("country" not in d["fields"] for d in plain.results)
    res = eng.search(["sterility"], datasets=["fda_warning_letters"], places=True)
    got = {d["title"]: d["fields"] for d in res.results}
    deccan = got["Letter to Deccan Labs"]
    assert (deccan["country"], deccan["state"], deccan["city"]) == ("IN", "TS", "Hyderabad")
    assert got["Letter to Nowhere Inc"]["country"] is None
    wide = res.documents_of("fda_warning_letters").set_index("title")
    assert wide.loc["Letter to Maple Generics", ["country", "state", "city"]].tolist() == [
        "CA",
        "ON",
        "Toronto",
    ]
    checked = eng.check_search(["sterility"], places=True)
    assert checked.places and checked.to_body()["places"] is True
    assert "places" not in eng.check_search(["sterility"]).to_body()


def test_places_must_be_true_or_false(eng: regnb.Engine) -> None:
    with pytest.raises(regnb.InvalidRequest, match="places must be true or false"):
        eng.check_search(["sterility"], places="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("country:IN", DocFilter("exact", "country", "IN", "country")),
        ("country:india", DocFilter("exact", "country", "IN", "country")),
        ('country:"united states"', DocFilter("exact", "country", "US", "country")),
        ("state:nj", DocFilter("exact", "state", "NJ", "state")),
        ('state:"Tamil Nadu"', DocFilter("exact", "state", "TN", "state")),
        ("state:Guangdong", DocFilter("exact", "state", "GD", "state")),
        ("city:houston", DocFilter("keyword", "city", "houston", "city")),
    ],
)
def test_a_place_item_is_a_filter_on_its_code(item: str, expected: DocFilter) -> None:
    cond = next(n for n in parse_item(f"word {item}", terms).fields if isinstance(n, Field))
    assert place_filter(cond) == expected


def test_the_spec_datasets_list_is_unchanged(tmp_path_factory: pytest.TempPathFactory) -> None:
    root = tmp_path_factory.mktemp("sample")
    with open_sample(root / "corpus", root / "home") as sample:
        f483 = sample.datasets()["fda_483"].to_dict()
    assert list(f483["filters"]) == ["facility_name", "fei_number", "title", "date_from", "date_to"]
    assert f483["fields"] == [
        "facility_name",
        "fei_number",
        "record_date",
        "record_id",
        "title",
        "url",
    ]
