"""Searches in the query syntax on small corpora with known answers: phrases checked against a
brute-force reading of every page, exclusions, OR-groups, fields, titles, prefixes, citations,
loosening over plain words only, and what the result says it did not do."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

import regnb
from regnb import query, text
from regnb.catalog import load_catalog
from regnb.errors import InvalidRequest, SearchTimeout
from regnb.index.rows import phrase_rows
from regnb.query import Field
from regnb.request import DocFilter
from regnb.search.matching import phrase_pattern
from regnb.search.procedure import field_filter
from tests.conftest import doc

VOCABULARY = ["alpha", "beta", "gamma", "delta", "the", "of"]


def titles(res: regnb.SearchResult) -> set[str]:
    return {r["title"] for r in res.results}


def random_corpus(seed: int = 7, n: int = 80) -> list[dict[str, object]]:
    rng = random.Random(seed)
    return [doc(f"doc{i}", [" ".join(rng.choices(VOCABULARY, k=10))]) for i in range(n)]


def has_phrase(terms: list[str], phrase: list[str], slop: int) -> bool:
    """Brute force: the phrase's terms in order, at most `slop` terms between consecutive ones."""

    def from_(pos: int, k: int) -> bool:
        if k == len(phrase):
            return True
        window = terms[pos : pos + slop + 1]
        return any(t == phrase[k] and from_(pos + j + 1, k + 1) for j, t in enumerate(window))

    return any(t == phrase[0] and from_(i + 1, 1) for i, t in enumerate(terms))


@pytest.mark.parametrize(
    ("item", "phrase", "slop"),
    [
        ('"alpha beta"', "alpha beta", 0),
        ('"beta alpha"', "beta alpha", 0),
        ('"alpha beta"~1', "alpha beta", 1),
        ('"alpha beta gamma"~2', "alpha beta gamma", 2),
        ('"alpha the of beta"', "alpha beta", 0),  # stop words are not on the page either
        ('"delta delta"', "delta delta", 0),
    ],
)
def test_phrases_match_what_a_brute_force_reading_of_every_page_finds(
    make_engine, item, phrase, slop
):
    docs = random_corpus()
    eng = make_engine({"fda_483": docs})
    expected = {
        d["title"]
        for d in docs
        if has_phrase(text.terms(f"{d['title']} {d['pages'][0]}"), text.terms(phrase), slop)
    }
    res = eng.search_all([item], datasets=["fda_483"])
    assert expected and len(expected) < len(docs)  # the case tells pages apart
    assert titles(res) == expected
    status = eng.search([item], datasets=["fda_483"]).dataset_statuses["fda_483"]
    assert status["matches"] == len(expected)


def test_an_excluded_phrase_drops_only_the_pages_with_the_phrase(make_engine):
    docs = random_corpus(seed=3)
    eng = make_engine({"fda_483": docs})
    got = titles(eng.search_all(['gamma -"alpha beta"'], datasets=["fda_483"]))
    expected = {
        d["title"]
        for d in docs
        if "gamma" in d["pages"][0]
        and not has_phrase(text.terms(d["pages"][0]), ["alpha", "beta"], 0)
    }
    assert got == expected and expected


CORPUS = {
    "fda_warning_letters": [
        doc(
            "Warning letter to Hospira",
            ["media fill failures and sterility testing"],
            fields={"company": "Hospira Inc", "issuing_office": "CDER"},
        ),
        doc(
            "Warning letter to Acme",
            ["fill the media with aseptic sterility checks"],
            fields={"company": "Acme Labs", "issuing_office": "CDER"},
        ),
        doc(
            "Sterility report",
            ["sterility assurance of water systems"],
            fields={"company": "Northbridge", "issuing_office": "CBER"},
        ),
    ],
    "fda_483": [
        doc(
            "Form 483 Northbridge",
            ["sterilization and sterility of media fill runs"],
            fields={"fei_number": "3000975914"},
        ),
        doc("Form 483 Other", ["water system cleaning"], fields={"fei_number": "3000000001"}),
    ],
}


@pytest.fixture
def eng(make_engine):
    return make_engine(CORPUS)


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        (
            "media fill",
            {"Warning letter to Hospira", "Warning letter to Acme", "Form 483 Northbridge"},
        ),
        ('"media fill"', {"Warning letter to Hospira", "Form 483 Northbridge"}),
        ('"fill media"', {"Warning letter to Acme"}),  # "fill the media": "the" is a stop word
        ('"media sterility"', set()),
        ('"media sterility"~1', {"Warning letter to Acme"}),
        ('"media sterility"~2', {"Warning letter to Hospira", "Warning letter to Acme"}),
        (
            "sterility -aseptic",
            {"Warning letter to Hospira", "Sterility report", "Form 483 Northbridge"},
        ),
        (
            "sterility NOT aseptic",
            {"Warning letter to Hospira", "Sterility report", "Form 483 Northbridge"},
        ),
        ('sterility -"media fill"', {"Warning letter to Acme", "Sterility report"}),
        ("sterility (aseptic OR water)", {"Warning letter to Acme", "Sterility report"}),
        ("sterility aseptic OR water", {"Warning letter to Acme", "Sterility report"}),
        ("sterility title:report", {"Sterility report"}),
        (
            'sterility title:"warning letter"',
            {"Warning letter to Hospira", "Warning letter to Acme"},
        ),
        ("title:hospira", {"Warning letter to Hospira"}),
        ("sterility company:hospira", {"Warning letter to Hospira"}),
        ('sterility company:"acme labs"', {"Warning letter to Acme"}),
        (
            "sterility -company:hospira",
            {"Warning letter to Acme", "Sterility report", "Form 483 Northbridge"},
        ),
        ("sterility issuing_office:cber", {"Sterility report"}),
        ("sterility fei_number:3000975914", {"Form 483 Northbridge"}),
        (
            "steril*",
            {
                "Warning letter to Hospira",
                "Warning letter to Acme",
                "Sterility report",
                "Form 483 Northbridge",
            },
        ),
        ("media -steril*", set()),
        ("cfr:211.113 sterility", set()),  # no CFR postings in this corpus
    ],
)
def test_operators_select_the_pages(eng, item, expected):
    assert titles(eng.search([item])) == expected


@pytest.mark.parametrize(
    "item",
    ["510(k)", "21 CFR 211.113(b)", "LA-EP2006", "K123456", "COVID-19", "sterility (b)"],
)
def test_identifiers_give_the_same_results_in_both_syntaxes(make_engine, item):
    eng = make_engine(
        {
            "fda_483": [
                doc("One", ["cleared by 510(k) K123456 under 21 CFR 211.113(b) for COVID-19"]),
                doc("Two", ["lot LA-EP2006 and sterility (b) checks"]),
                doc("Three", ["nothing of note"]),
            ]
        }
    )
    plain = eng.search([item], syntax="plain").to_dict()
    assert eng.search([item]).to_dict() == plain
    assert plain["total"] >= 1


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("cfr:211.113", {"Aseptic", "Both"}),
        ("cfr:211.113(b)", {"Aseptic", "Both"}),
        ('cfr:"21 CFR 211.113"', {"Aseptic", "Both"}),
        ("cfr:211", {"Aseptic", "Both", "Records"}),
        ("cfr:211.192 -cfr:211.113", {"Records"}),
        ("cfr:820", set()),
        ("cfr:42/493.1253", {"Lab"}),
    ],
)
def test_cfr_terms_find_the_pages_citing_a_section_or_part(make_engine, item, expected):
    eng = make_engine(
        {
            "fda_warning_letters": [
                doc("Aseptic", ["violations of 21 CFR 211.113(b) were seen"]),
                doc("Both", ["see 21 C.F.R. 211.113 and § 211.192"]),
                doc("Records", ["records under 21 CFR 211.192 only"]),
                doc("Lab", ["the laboratory under 42 CFR 493.1253"]),
                doc("None", ["211.113 written without any CFR"]),
            ]
        }
    )
    assert titles(eng.search([item])) == expected


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("fei:3002806560", {"Letter", "Fielded"}),
        ("fei:3002806560 sterility", {"Letter"}),
        ("nda:021164", {"Letter"}),
        ("app:021164", {"Letter", "Untyped"}),
        ("k:K123456", {"Device"}),
        ("nct:NCT01234567", {"Fielded"}),
        ("fei:3002806560 -nda:021164", {"Fielded"}),
        ("fei:1234567", set()),
    ],
)
def test_identifier_terms_find_the_pages_and_documents_holding_them(make_engine, item, expected):
    eng = make_engine(
        {
            "fda_warning_letters": [
                doc("Letter", ["sterility at FEI 3002806560 under NDA 21-164"]),
                doc("Untyped", ["Application Number: 021164"]),
                doc("Device", ["cleared as K123456"]),
                doc("Plain", ["3002806560 and 021164 written bare"]),
            ],
            "fda_483": [
                doc(
                    "Fielded",
                    ["a page that names no number", "NCT01234567"],
                    fields={"fei_number": "3002806560"},
                ),
            ],
        }
    )
    assert titles(eng.search([item])) == expected


def test_loosening_counts_only_the_plain_words(eng):
    res = eng.search(['sterility cleaning validation "media fill"'], datasets=["fda_483"])
    # no page holds all three plain words; loosened, the phrase still holds
    assert titles(res) == {"Form 483 Northbridge"}
    assert res.dataset_statuses["fda_483"]["loosened"] is True


def test_an_item_without_plain_words_never_loosens(eng):
    res = eng.search(['"water sterility"'], datasets=["fda_483", "fda_warning_letters"])
    assert res.total == 0
    assert {s["status"] for s in res.dataset_statuses.values()} == {"no_match"}


def test_bm25_counts_the_positive_terms_only(eng):
    with_exclusion = eng.search(["sterility -water"], datasets=["fda_warning_letters"])
    without = eng.search(["sterility"], datasets=["fda_warning_letters"])
    scores = {r["title"]: r["pages"][0]["score"] for r in without.results}
    for r in with_exclusion.results:
        assert r["pages"][0]["score"] == scores[r["title"]]


def test_a_cut_prefix_expansion_is_noted(make_engine):
    eng = make_engine(
        {"fda_483": [doc("A", ["stereo stern sterol"]), doc("B", ["steroid"])]}, prefix_terms=2
    )
    res = eng.search(["ster*"])
    assert res.notices == [
        "keywords[0]: ster* matches more than 2 terms; only the first 2 (in alphabetical "
        "order) were searched"
    ]
    assert titles(res) == {"A"}  # steroid, the fourth term, was left out
    assert res.to_dict()["notices"] == res.notices
    assert "1 notice" in repr(res) and "ster*" in res._repr_html_()
    assert eng.search(["ster*"], limit=1).notices == res.notices


def test_a_field_some_datasets_lack_is_noted(eng):
    res = eng.search(["sterility company:hospira"])
    assert res.notices == [
        "keywords[0]: company:hospira is not a field of fda_483; no page there meets it"
    ]
    assert titles(res) == {"Warning letter to Hospira"}


def test_without_notices_the_envelope_is_the_spec_s(eng):
    assert "notices" not in eng.search(['"media fill"']).to_dict()
    assert eng.search(['"media fill"']).notices == []


def test_an_unknown_field_is_refused_with_a_suggestion(eng):
    with pytest.raises(InvalidRequest) as caught:
        eng.search(["sterility compny:hospira"])
    assert caught.value.field == "keywords[0]"
    assert str(caught.value) == (
        "keywords[0]: no dataset searched has a field 'compny' at character 11; "
        "did you mean 'company'?"
    )
    with pytest.raises(InvalidRequest, match="has a field 'company'"):
        eng.search(["water", "sterility company:hospira"], datasets=["fda_483"])


@pytest.mark.parametrize(
    ("keywords", "field"),
    [
        (['"open'], "keywords[0]"),
        (["water", "sterility OR"], "keywords[1]"),
        (["water", "-aseptic"], "keywords[1]"),
    ],
)
def test_malformed_items_are_invalid_requests_naming_the_item(eng, keywords, field):
    with pytest.raises(InvalidRequest) as caught:
        eng.search(keywords)
    assert caught.value.field == field
    assert caught.value.code == "invalid_request"


def test_syntax_must_be_query_or_plain(eng):
    with pytest.raises(InvalidRequest) as caught:
        eng.search(["water"], syntax="lucene")
    assert caught.value.field == "syntax"


def test_plain_reading_takes_operators_as_words_and_warns(eng, monkeypatch):
    monkeypatch.setattr(query, "_warned", type(query._warned)())
    with pytest.warns(query.QuerySyntaxWarning):
        res = eng.search(['"fill media"'], syntax="plain")
    assert titles(res) == titles(eng.search(["media fill"]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        eng.search(["media fill"], syntax="plain")


def test_the_checked_request_carries_the_syntax(eng):
    req = eng.check_search(['"media fill"'])
    assert req.syntax == "query"
    assert req.to_body()["syntax"] == "query"
    assert "syntax" not in eng.check_search(["media fill"], syntax="plain").to_body()
    assert eng.search(req).to_dict() == eng.search(['"media fill"']).to_dict()


PHRASE_CASES = [
    (["media", "fill"], 0, "a media fill b", True),
    (["media", "fill"], 0, "media fill", True),
    (["media", "fill"], 0, "fill media", False),
    (["media", "fill"], 0, "multimedia fill", False),
    (["media", "fill"], 0, "media fills", False),
    (["media", "fill"], 1, "media x fill", True),
    (["media", "fill"], 1, "media x y fill", False),
    (["a", "b", "c"], 2, "a x b x x c", True),
    (["a", "b", "c"], 2, "a x x x b c", False),
    (["cfr:211"], 0, "x cfr:211 y", True),
]


@pytest.mark.parametrize(("terms", "slop", "joined", "found"), PHRASE_CASES)
def test_phrase_patterns_match_terms_in_order_within_the_slop(terms, slop, joined, found):
    import re

    pattern = phrase_pattern(terms, slop)
    assert bool(re.search(pattern, joined)) is found


@pytest.mark.parametrize(("terms", "slop", "joined", "found"), PHRASE_CASES)
def test_phrase_rows_find_what_the_pattern_matches(terms, slop, joined, found):
    codes = {t: k for k, t in enumerate(dict.fromkeys(terms))}
    words = [codes.get(w, len(codes)) for w in joined.split()]
    # the words as the second of three streams, between the phrase less its last term and
    # less its first: no match reaches across streams
    first = [codes[t] for t in terms[:-1]] or [len(codes)]
    last = [codes[t] for t in terms[1:]] or [len(codes)]
    stream = np.asarray(first + words + last, np.int32)
    rows = np.repeat([0, 1, 2], [len(first), len(words), len(last)])
    got = phrase_rows(stream, rows, 3, [codes[t] for t in terms], slop)
    assert got.tolist() == [False, found, False]


@pytest.mark.parametrize(
    ("dataset", "cond", "expected"),
    [
        (
            "fda_483",
            Field("fei_number", "300-097-5914", ("300", "097", "5914")),
            DocFilter("exact", "fei_number", "300-097-5914", "fei_number"),
        ),
        (
            "fda_warning_letters",
            Field("company", "hospira", ("hospira",)),
            DocFilter("keyword", "company", "hospira", "company"),
        ),
        (
            "fda_warning_letters",
            Field("company", "acme labs", ("acm", "lab"), quoted=True),
            DocFilter("phrase", "company", phrase_pattern(["acm", "lab"], 0), "company"),
        ),
        (  # a field that is not a filter matches by its words
            "fda_warning_letters",
            Field("posted_date", "2020", ("2020",)),
            DocFilter("keyword", "posted_date", "2020", "posted_date"),
        ),
        (  # a filter reading another field reads that field
            "fda_clinical_trials",
            Field("condition", "asthma", ("asthma",)),
            DocFilter("keyword", "conditions", "asthma", "condition"),
        ),
        ("fda_483", Field("company", "hospira", ("hospira",)), None),
        ("fda_483", Field("date_from", "2020", ("2020",)), None),
    ],
)
def test_a_field_condition_is_the_filter_its_dataset_has(dataset, cond, expected):
    assert field_filter(load_catalog()[dataset], cond) == expected


def test_phrase_verification_on_the_pages_stops_at_the_deadline(eng):
    store = eng.store
    with pytest.raises(SearchTimeout):  # where a segment has no positions to read them from
        store.rows.read_phrase_pages(np.arange(3), ["media", "fill"], deadline=0.0)
    found = store.rows.phrase_pages(np.arange(store.n_pages), ["media", "fill"])
    assert found.sum() == 2
