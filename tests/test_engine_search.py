"""The v3 search procedure, on small corpora with known answers."""

from __future__ import annotations

import threading
from typing import Any

import pytest

import regnb
from regnb.search import procedure

from .conftest import doc


def ids(res: regnb.SearchResult) -> list[str]:
    return [r["title"] for r in res.to_dict()["results"]]


def test_every_word_of_an_item_must_match_and_items_are_alternatives(make_engine):
    eng = make_engine(
        {
            "fda_483": [
                doc("A", ["sterility failure in aseptic filling"]),
                doc("B", ["sterility testing only"]),
                doc("C", ["aseptic filling line"]),
                doc("D", ["unrelated water system"]),
            ]
        }
    )
    res = eng.search(["sterility aseptic"], datasets=["fda_483"])
    assert ids(res) == ["A"]
    res = eng.search(["sterility aseptic", "water"], datasets=["fda_483"])
    assert sorted(ids(res)) == ["A", "D"]
    assert res.to_dict()["datasets"]["fda_483"] == {"status": "ok", "matches": 2, "pages": 2}


def test_title_words_find_every_page_of_the_document(make_engine):
    eng = make_engine(
        {
            "fda_483": [
                doc("Northbridge Pharma FEI 3001234567", ["page one text", "page two text"]),
                doc("Other firm", ["mentions nothing"]),
            ]
        }
    )
    res = eng.search(["northbridge"], datasets=["fda_483"])
    assert ids(res) == ["Northbridge Pharma FEI 3001234567"]
    assert res.to_dict()["results"][0]["matched_pages"] == 2
    assert ids(eng.search(["3001234567 page"], datasets=["fda_483"])) == [
        "Northbridge Pharma FEI 3001234567"
    ]


@pytest.mark.parametrize(
    ("item", "text"),
    [
        ("211.113(b)", "violations of 21 CFR 211.113(b) were observed"),
        ("K123456", "cleared under K123456 as substantially equivalent"),
        ("NCT01234567", "registered as NCT01234567"),
        ("510(k)", "a 510(k) premarket notification"),
        ("inspections", "the inspection found"),
        ("café", "cafe menu"),
    ],
)
def test_digits_alphanumerics_stems_and_accents_are_searchable(make_engine, item, text):
    eng = make_engine({"fda_483": [doc("T", [text]), doc("U", ["nothing here at all"])]})
    assert ids(eng.search([item], datasets=["fda_483"])) == ["T"]


def test_loosening_takes_pages_with_at_least_40_percent_of_the_words(make_engine):
    # 5 words: ceil(0.4 * 5) = 2 words are enough once loosened; 1 word is not
    eng = make_engine(
        {
            "fda_483": [
                doc("two of five", ["alpha bravo filler"]),
                doc("one of five", ["charlie filler"]),
            ]
        }
    )
    res = eng.search(["alpha bravo charlie delta echo"], datasets=["fda_483"])
    assert ids(res) == ["two of five"]
    assert res.to_dict()["datasets"]["fda_483"] == {
        "status": "ok",
        "matches": 0,
        "pages": 1,
        "loosened": True,
    }


def test_loosening_falls_back_to_any_word(make_engine):
    eng = make_engine({"fda_483": [doc("one of five", ["charlie filler"]), doc("none", ["zulu"])]})
    res = eng.search(["alpha bravo charlie delta echo"], datasets=["fda_483"])
    assert ids(res) == ["one of five"]
    assert res.to_dict()["datasets"]["fda_483"]["loosened"] is True


def test_three_word_item_needs_two_words_when_loosened(make_engine):
    eng = make_engine(
        {"fda_483": [doc("two", ["alpha bravo"]), doc("one", ["alpha"]), doc("x", ["q"])]}
    )
    assert ids(eng.search(["alpha bravo charlie"], datasets=["fda_483"])) == ["two"]


def test_no_match_anywhere(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha"])], "fda_recalls": [doc("B", ["bravo"])]})
    res = eng.search(["zulu"], datasets=["fda_483", "fda_recalls"])
    assert res.total == 0 and res.to_dict()["results"] == []
    assert res.to_dict()["datasets"] == {
        "fda_483": {"status": "no_match"},
        "fda_recalls": {"status": "no_match"},
    }
    assert res.to_dict()["next_offset"] is None


def test_loosened_documents_come_after_all_others(make_engine):
    eng = make_engine(
        {
            # full match, but weak: the words once in a long page
            "fda_483": [doc("full", ["alpha bravo " + "filler " * 200])],
            # loosened only: strong single-word pages
            "fda_recalls": [doc(f"loose{i}", ["alpha alpha alpha"]) for i in range(3)],
        }
    )
    res = eng.search(["alpha bravo"], query="alpha", datasets=["fda_483", "fda_recalls"])
    titles = ids(res)
    assert titles[0] == "full" and sorted(titles[1:]) == ["loose0", "loose1", "loose2"]
    statuses = res.to_dict()["datasets"]
    assert statuses["fda_recalls"]["loosened"] is True
    assert "loosened" not in statuses["fda_483"]
    scores = [r["pages"][0]["score"] for r in res.to_dict()["results"]]
    assert scores[1] > scores[0]  # the score rises again where loosened documents start


def test_budget_is_shared_in_proportion_to_matches(make_engine):
    eng = make_engine(
        {
            "fda_483": [doc(f"a{i}", ["alpha"]) for i in range(30)],
            "fda_recalls": [doc(f"b{i}", ["alpha"]) for i in range(10)],
            "fda_crl": [doc(f"c{i}", ["alpha"]) for i in range(2)],
        },
        page_budget=20,
    )
    res = eng.search(["alpha"], datasets=["fda_483", "fda_recalls", "fda_crl"], limit=50)
    st = res.to_dict()["datasets"]
    # 20 * 30/42 = 14.3, 20 * 10/42 = 4.8, 20 * 2/42 = 0.95: floors 14, 4, 0 -> min 1, remainder
    assert (st["fda_483"]["pages"], st["fda_recalls"]["pages"], st["fda_crl"]["pages"]) == (
        14,
        5,
        1,
    )
    assert (st["fda_483"]["matches"], st["fda_recalls"]["matches"], st["fda_crl"]["matches"]) == (
        30,
        10,
        2,
    )
    assert res.total == 20


def test_loosened_datasets_get_five_pages_plus_what_is_left(make_engine):
    eng = make_engine(
        {
            "fda_483": [doc(f"a{i}", ["alpha bravo"]) for i in range(3)],
            "fda_recalls": [doc(f"b{i}", ["alpha"]) for i in range(12)],
        },
        page_budget=10,
    )
    res = eng.search(["alpha bravo"], datasets=["fda_483", "fda_recalls"], limit=50)
    st = res.to_dict()["datasets"]
    # the full-match dataset can use 3 of the 5 left after the loosened one's 5: 2 go back
    assert st["fda_483"]["pages"] == 3
    assert st["fda_recalls"] == {"status": "ok", "matches": 0, "pages": 7, "loosened": True}


def test_with_no_full_match_loosened_datasets_split_evenly(make_engine):
    eng = make_engine(
        {
            "fda_483": [doc(f"a{i}", ["alpha"]) for i in range(12)],
            "fda_recalls": [doc(f"b{i}", ["bravo"]) for i in range(12)],
            "fda_crl": [doc(f"c{i}", ["alpha"]) for i in range(2)],
        },
        page_budget=12,
    )
    res = eng.search(["alpha bravo"], datasets=["fda_483", "fda_recalls", "fda_crl"], limit=50)
    st = res.to_dict()["datasets"]
    assert [st[d]["pages"] for d in ("fda_483", "fda_recalls", "fda_crl")] == [5, 5, 2]
    assert all(st[d]["loosened"] for d in st)


def test_matches_are_counted_up_to_the_cap(make_engine):
    eng = make_engine({"fda_483": [doc(f"a{i}", ["alpha"]) for i in range(8)]}, match_count_cap=5)
    res = eng.search(["alpha"], datasets=["fda_483"])
    assert res.to_dict()["datasets"]["fda_483"]["matches"] == 5
    assert res.to_dict()["datasets"]["fda_483"]["pages"] == 8


def test_at_most_three_pages_per_document_best_first(make_engine):
    pages = ["alpha " * n + "filler " * 20 for n in (1, 5, 2, 9, 3)]
    eng = make_engine({"fda_483": [doc("five pages", pages)]})
    res = eng.search(["alpha"], datasets=["fda_483"]).to_dict()
    only = res["results"][0]
    assert only["matched_pages"] == 5
    assert [p["page_num"] for p in only["pages"]] == [4, 2, 5]
    assert [p["score"] for p in only["pages"]] == sorted(
        [p["score"] for p in only["pages"]], reverse=True
    )
    assert only["pages"][0]["text"] == pages[3]


def test_pagination_reaches_every_document_once(make_engine):
    eng = make_engine(
        {
            "fda_483": [doc(f"a{i}", ["alpha " * (i % 5 + 1), "alpha"]) for i in range(23)],
            "fda_recalls": [doc(f"b{i}", ["alpha beta"]) for i in range(9)],
        }
    )
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = eng.search(["alpha"], query="alpha", offset=offset, limit=7).to_dict()
        assert page["total"] == 32
        seen += [r["document_id"] for r in page["results"]]
        offset = page["next_offset"]
    assert len(seen) == len(set(seen)) == 32
    past = eng.search(["alpha"], offset=40, limit=7).to_dict()
    assert past["results"] == [] and past["next_offset"] is None and past["total"] == 32


def test_ranking_is_bm25_for_one_dataset_without_query(make_engine):
    eng = make_engine(
        {
            "fda_483": [doc("weak", ["alpha " + "filler " * 50]), doc("strong", ["alpha alpha"])],
            "fda_recalls": [doc("r", ["alpha"])],
        }
    )
    res = eng.search(["alpha"], datasets=["fda_483"])
    assert res.ranking == "bm25" and ids(res) == ["strong", "weak"]
    assert eng.search(["alpha"], query="alpha", datasets=["fda_483"]).ranking == "similarity"
    assert eng.search(["alpha"], datasets=["fda_483", "fda_recalls"]).ranking == "similarity"


def test_similarity_ranks_by_meaning_of_the_query(make_engine):
    eng = make_engine(
        {
            "fda_483": [
                doc("water", ["alpha purified water system microbial"]),
                doc("labels", ["alpha label printing mixup"]),
            ],
            "fda_recalls": [doc("other", ["alpha"])],
        }
    )
    res = eng.search(["alpha"], query="label printing mixup")
    assert ids(res)[0] == "labels"
    res = eng.search(["alpha"], query="purified water microbial")
    assert ids(res)[0] == "water"


def test_result_shape_follows_the_spec(make_engine):
    eng = make_engine(
        {
            "fda_483": [
                doc(
                    "Acme 483",
                    ["alpha"],
                    date="2019-03-04",
                    url="https://x.invalid/1",
                    fields={"facility_name": "Acme", "fei_number": "3001234567"},
                )
            ]
        }
    )
    body = eng.search(["alpha"], datasets=["fda_483"]).to_dict()
    assert set(body) == {"results", "datasets", "total", "next_offset", "ranking"}
    result = body["results"][0]
    assert set(result) == {
        "document_id",
        "dataset",
        "title",
        "date",
        "url",
        "fields",
        "pages",
        "matched_pages",
    }
    assert result["date"] == "2019-03-04"
    assert result["fields"] == {
        "facility_name": "Acme",
        "fei_number": "3001234567",
        "record_date": "2019-03-04",
        "record_id": None,
        "title": "Acme 483",
        "url": "https://x.invalid/1",
    }
    assert set(result["pages"][0]) == {"page_num", "score", "text"}


def test_dataframes(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha", "alpha beta"])]})
    res = eng.search(["alpha"], datasets=["fda_483"])
    assert list(res.documents.columns[:3]) == ["document_id", "dataset", "title"]
    assert len(res.documents) == 1 and len(res.pages) == 2
    assert res.statuses.set_index("dataset").loc["fda_483", "status"] == "ok"
    assert res.pages.page_num.dtype == "Int64" and res.statuses.matches.dtype == "Int64"
    assert "FDA Form 483 Inspection Observations" in res._repr_html_()


def test_default_datasets_follow_the_plan(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha"])], "fda_crl": [doc("C", ["alpha"])]})
    enterprise = eng.search(["alpha"]).to_dict()["datasets"]
    free = eng.search(["alpha"], plan="free").to_dict()["datasets"]
    assert "fda_crl" in enterprise and "fda_crl" not in free
    assert "ema_epar" not in enterprise
    assert len(enterprise) == 15 and len(free) == 11


def test_named_datasets_report_forbidden_and_not_available(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha"])], "fda_crl": [doc("C", ["alpha"])]})
    res = eng.search(["alpha"], datasets=["fda_crl", "ema_epar", "fda_483"], plan="paid")
    assert res.to_dict()["datasets"] == {
        "fda_crl": {"status": "forbidden"},
        "ema_epar": {"status": "not_available"},
        "fda_483": {"status": "ok", "matches": 1, "pages": 1},
    }
    assert ids(res) == ["A"]


def test_dated_search_skips_datasets_without_a_date_field(make_engine):
    own = {
        "id": "acme_sops",
        "name": "ACME SOPs",
        "jurisdiction": "US · ACME",
        "available": True,
        "enterprise": False,
        "date_field": None,
        "filters": {},
        "fields": ["title", "url"],
    }
    eng = make_engine(
        {"acme_sops": [doc("SOP", ["alpha"], date=None)], "fda_483": [doc("A", ["alpha"])]},
        catalog=[own],
    )
    res = eng.search(["alpha"], datasets=["acme_sops", "fda_483"], date_from="2000-01-01")
    assert res.to_dict()["datasets"]["acme_sops"] == {
        "status": "skipped",
        "reason": "no date field",
    }
    assert ids(res) == ["A"]
    undated = eng.search(["alpha"], datasets=["acme_sops"]).to_dict()
    assert undated["results"][0]["date"] is None


def test_top_level_dates_are_inclusive_bounds_on_each_dataset_date_field(make_engine):
    eng = make_engine(
        {
            "fda_483": [doc(f"d{y}", ["alpha"], date=f"{y}-06-30") for y in (2010, 2015, 2020)],
            "fda_recalls": [doc("r2015", ["alpha"], date="2015-06-30")],
        }
    )
    res = eng.search(["alpha"], date_from="2015-06-30", date_to="2020-06-29")
    assert sorted(ids(res)) == ["d2015", "r2015"]
    assert sorted(ids(eng.search(["alpha"], date_to="2015-06-30"))) == ["d2010", "d2015", "r2015"]


FILTER_DOCS = {
    "fda_483": [
        doc(
            "one",
            ["alpha"],
            date="2012-01-01",
            fields={
                "facility_name": "Northbridge Pharmaceuticals Inc.",
                "fei_number": "3001234567",
            },
        ),
        doc(
            "two",
            ["alpha"],
            date="2018-01-01",
            fields={"facility_name": "Calder Labs", "fei_number": "1000000001"},
        ),
    ],
    "fda_guidance": [
        doc("g1", ["alpha"], fields={"center": "CDRH", "status": "final"}),
        doc("g2", ["alpha"], fields={"center": "CDER", "status": "draft"}),
    ],
    "fda_faers": [
        doc("f1", ["alpha"], fields={"serious": True, "drug_name": "x"}),
        doc("f2", ["alpha"], fields={"serious": False, "drug_name": "y"}),
    ],
}


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"fda_483": {"facility_name": "northbridge pharmaceutical"}}, ["one"]),
        ({"fda_483": {"facility_name": "northbridge calder"}}, []),
        ({"fda_483": {"fei_number": "3001234567"}}, ["one"]),
        ({"fda_483": {"fei_number": "300-123-4567"}}, ["one"]),
        ({"fda_483": {"fei_number": "300123456"}}, []),
        ({"fda_483": {"title": "two"}}, ["two"]),
        ({"fda_483": {"date_from": "2015-01-01"}}, ["two"]),
        ({"fda_483": {"date_to": "2012-01-01"}}, ["one"]),
        ({"fda_guidance": {"center": "CDRH"}}, ["g1"]),
        ({"fda_guidance": {"status": "draft", "center": "CDER"}}, ["g2"]),
        ({"fda_faers": {"serious": True}}, ["f1"]),
        ({"fda_faers": {"serious": False}}, ["f2"]),
    ],
)
def test_filters_of_each_type(make_engine, filters, expected):
    eng = make_engine(FILTER_DOCS)
    (ds,) = filters
    res = eng.search(["alpha"], datasets=[ds], filters=filters)
    assert sorted(ids(res)) == expected
    status = res.to_dict()["datasets"][ds]["status"]
    assert status == ("ok" if expected else "no_match")


def test_a_slow_dataset_times_out_and_the_others_return(make_engine, monkeypatch):
    eng = make_engine(
        {
            "fda_483": [doc("A", ["alpha"])],
            "fda_recalls": [doc("B", ["alpha"], fields={"company": "Acme"})],
        },
        search_timeout_s=0.5,
    )
    release = threading.Event()
    real = eng.store.fields.allowed

    def slow(dataset: str, *args: Any, **kwargs: Any) -> Any:
        if dataset == "fda_recalls":
            release.wait(10)
        return real(dataset, *args, **kwargs)

    monkeypatch.setattr(eng.store.fields, "allowed", slow)
    try:
        res = eng.search(
            ["alpha"],
            datasets=["fda_483", "fda_recalls"],
            filters={"fda_recalls": {"company": "acme"}},
        )
    finally:
        release.set()
    assert res.to_dict()["datasets"]["fda_recalls"] == {"status": "timeout"}
    assert res.to_dict()["datasets"]["fda_483"]["status"] == "ok"
    assert ids(res) == ["A"]


def test_a_slow_postings_read_times_out_every_dataset(make_engine, monkeypatch):
    eng = make_engine(
        {"fda_483": [doc("A", ["alpha"])], "fda_recalls": [doc("B", ["alpha"])]},
        search_timeout_s=0.3,
    )

    def slow(posting_read: Any, *, deadline: float, **_: Any) -> Any:
        # a read that would run for hours: the store's watchdog must interrupt it
        with eng.store.cursor_until(deadline) as cur:
            return cur.execute("SELECT sum(i) FROM range(1000000000000) t(i)").fetchall()

    monkeypatch.setattr(eng.store.postings, "read", slow)
    res = eng.search(["alpha"], datasets=["fda_483", "fda_recalls"]).to_dict()
    assert res["datasets"] == {
        "fda_483": {"status": "timeout"},
        "fda_recalls": {"status": "timeout"},
    }
    assert res["results"] == [] and res["total"] == 0


def test_a_failing_dataset_reports_error_and_the_others_return(make_engine, monkeypatch, caplog):
    eng = make_engine({"fda_483": [doc("A", ["alpha"])], "fda_recalls": [doc("B", ["alpha"])]})
    real = procedure.dataset_matches

    def broken(post: Any, code: int | None, *args: Any, **kwargs: Any) -> Any:
        if code == eng.store.dataset_codes["fda_recalls"]:
            raise RuntimeError("disk on fire")
        return real(post, code, *args, **kwargs)

    def all_at_once(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk on fire")  # every dataset then matched on its own

    monkeypatch.setattr(procedure, "dataset_matches", broken)
    monkeypatch.setattr(procedure, "plain_candidates", all_at_once)
    res = eng.search(["alpha"], datasets=["fda_483", "fda_recalls"])
    assert res.to_dict()["datasets"]["fda_recalls"] == {"status": "error"}
    assert ids(res) == ["A"]


def test_query_embeddings_are_cached(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha"])], "fda_recalls": [doc("B", ["alpha"])]})
    calls: list[list[str]] = []
    real = eng.encoder.encode

    def counting(texts: list[str]) -> Any:
        calls.append(texts)
        return real(texts)

    eng.encoder.encode = counting  # type: ignore[method-assign]
    eng.search(["alpha"], query="same question")
    eng.search(["alpha"], query="same question")
    assert calls == [["same question"]]


def test_keywords_join_as_the_query_when_none_is_given(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha"])], "fda_recalls": [doc("B", ["alpha"])]})
    seen: list[str] = []
    real = eng.encoder.encode

    def spy(texts: list[str]) -> Any:
        seen.extend(texts)
        return real(texts)

    eng.encoder.encode = spy  # type: ignore[method-assign]
    eng.search(["alpha", "bravo charlie"])
    assert seen == ["alpha, bravo charlie"]


@pytest.mark.parametrize("item", ["ｓｔｅｒｉｌｉｔｙ", "ste\u200brility", "STERILITY"])
def test_full_width_and_zero_width_queries_find_the_plain_word(make_engine, item):
    eng = make_engine({"fda_483": [doc("A", ["sterility failure"]), doc("B", ["other"])]})
    assert ids(eng.search([item], datasets=["fda_483"])) == ["A"]


@pytest.mark.parametrize("page", ["ｓｔｅｒｉｌｉｔｙ failure", "ste\u200brility failure"])
def test_full_width_and_zero_width_page_text_is_found_and_kept_as_written(make_engine, page):
    eng = make_engine({"fda_483": [doc("A", [page]), doc("B", ["other"])]})
    res = eng.search(["sterility"], datasets=["fda_483"])
    assert ids(res) == ["A"]
    assert res.to_dict()["results"][0]["pages"][0]["text"] == page  # stored text unchanged


def test_keyword_filters_fold_like_the_index(make_engine):
    eng = make_engine(
        {
            "fda_recalls": [
                doc("A", ["alpha"], fields={"company": "Ａｃｍｅ Pharma"}),
                doc("B", ["alpha"], fields={"company": "Other"}),
            ]
        }
    )
    res = eng.search(
        ["alpha"], datasets=["fda_recalls"], filters={"fda_recalls": {"company": "acme"}}
    )
    assert ids(res) == ["A"]
