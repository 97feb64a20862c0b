"""Legacy page-level search and contents."""

from __future__ import annotations

import pytest

import regnb

from .conftest import doc


@pytest.fixture
def eng(make_engine):
    return make_engine(
        {
            "fda_warning_letters": [
                doc(
                    "Letter to Acme",
                    ["Sterility failures found.", "Aseptic sterility again"],
                    date="2019-04-01",
                    url="https://x.invalid/wl/1",
                    fields={"company": "Acme Labs"},
                ),
            ],
            "fda_483": [doc("Beta 483", ["water system", "sterility"], date="2012-02-02")],
            "fda_crl": [doc("CRL", ["sterility secret"], date="2015-01-01")],
        }
    )


def test_pages_ranked_by_bm25_with_zero_based_page_numbers(eng):
    body = eng.legacy_search("sterility aseptic").to_dict()
    assert body["total"] == 4
    first = body["results"][0]
    assert first["page_num"] == 1 and first["name"] == "Letter to Acme"
    assert first["company"] == "Acme Labs" and first["year_decision"] == 2019
    assert first["url"] == "https://x.invalid/wl/1"
    assert first["highlight"] == "<b>Aseptic</b> <b>sterility</b> again"
    assert set(first) == {
        "id",
        "doc_id",
        "dataset",
        "page_num",
        "score",
        "name",
        "url",
        "company",
        "year_decision",
        "text",
        "highlight",
    }
    scores = [r["score"] for r in body["results"]]
    assert scores == sorted(scores, reverse=True)
    assert len({r["id"] for r in body["results"]}) == 4


def test_paging_years_and_datasets(eng):
    assert len(eng.legacy_search("sterility", top_k=2).to_dict()["results"]) == 2
    tail = eng.legacy_search("sterility", top_k=2, offset=3).to_dict()
    assert len(tail["results"]) == 1 and tail["total"] == 4
    assert eng.legacy_search("sterility", offset=10).to_dict() == {"results": [], "total": 4}
    years = eng.legacy_search("sterility", year_from=2013, year_to=2016).to_dict()
    assert [r["name"] for r in years["results"]] == ["CRL"]
    only = eng.legacy_search("sterility", dataset_to_search=["fda_483"]).to_dict()
    assert [r["dataset"] for r in only["results"]] == ["fda_483"]


def test_enterprise_datasets_are_left_out_on_other_plans(eng):
    free = eng.legacy_search("sterility", plan="free").to_dict()
    assert "fda_crl" not in {r["dataset"] for r in free["results"]}


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"query_text": ""}, "query_text"),
        ({"query_text": "x", "top_k": 0}, "top_k"),
        ({"query_text": "x", "top_k": 101}, "top_k"),
        ({"query_text": "x", "offset": -1}, "offset"),
        ({"query_text": "x", "year_from": "2019"}, "year_from"),
    ],
)
def test_bad_legacy_search_input(eng, kwargs, field):
    with pytest.raises(regnb.InvalidRequest) as info:
        eng.legacy_search(**kwargs)
    assert info.value.field == field


def test_contents_pages_by_either_doc_id_form(eng):
    hit = eng.legacy_search("acme").to_dict()["results"][0]
    rel = eng.legacy_contents(hit["doc_id"]).to_dict()
    assert rel["total_pages"] == 2 and [p["page_num"] for p in rel["pages"]] == [0, 1]
    assert rel["name"] == "Letter to Acme" and rel["company"] == "Acme Labs"
    full = eng.legacy_contents(f"https://regnb.invalid/api/{hit['doc_id']}").to_dict()
    assert full == rel
    assert eng.legacy_contents("https://x.invalid/wl/1").to_dict() == rel
    page = eng.legacy_contents(hit["doc_id"], top_k=1, offset=1).to_dict()
    assert page["pages"] == [{"page_num": 1, "text": "Aseptic sterility again"}]
    assert eng.legacy_contents(hit["doc_id"], offset=5).to_dict()["pages"] == []


def test_contents_of_unknown_document(eng):
    with pytest.raises(regnb.NotFound):
        eng.legacy_contents("fda_483/nope")


@pytest.mark.parametrize("size", [2001, 990_000])
def test_a_query_text_over_2000_characters_is_refused(eng, size):
    with pytest.raises(regnb.InvalidRequest) as info:
        eng.legacy_search("sterility " * (size // 10 + 1))
    assert info.value.field == "query_text" and "at most 2000" in info.value.message


def test_a_query_text_of_2000_characters_is_searched(eng):
    assert eng.legacy_search(("sterility " * 200)[:2000]).total == 4


def test_an_unknown_dataset_suggests_the_closest_one(eng):
    with pytest.raises(regnb.UnknownDataset) as info:
        eng.legacy_search("sterility", dataset_to_search=["fda_483", "fda483"])
    assert info.value.field == "dataset_to_search[1]"
    assert info.value.message == "unknown dataset 'fda483'; did you mean 'fda_483'?"
    with pytest.raises(regnb.UnknownDataset) as far:
        eng.legacy_search("sterility", dataset_to_search=["zzz"])
    assert far.value.message == "unknown dataset 'zzz'"
