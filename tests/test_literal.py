"""What an item means as written: quoted words match the words themselves (case and accents
folded, stop words skipped), unquoted words their stems; an item of catalog fields alone finds
every document with the values."""

from __future__ import annotations

import random

import pytest

import regnb
from regnb import text
from tests.conftest import doc
from tests.search.test_syntax import has_phrase

CORPUS = {
    "fda_warning_letters": [
        doc(
            "Letter A",
            ["Your firm had lapses of DATA INTEGRITY in the laboratory."],
            fields={"company": "Hospira Inc"},
        ),
        doc(
            "Letter B",
            ["The data integration of the two systems was never validated."],
            fields={"company": "Hospira Inc"},
        ),
        doc(
            "Letter C",
            ["An integrated data system; integrity of the records was not assured."],
            fields={"company": "Acme Labs"},
        ),
        doc("Letter D", ["Sterility failures."], fields={"company": "Northbridge"}, date=None),
    ],
}


def titles(res: regnb.SearchResult) -> set[str]:
    return {r["title"] for r in res.results}


@pytest.fixture
def eng(make_engine):
    return make_engine(CORPUS)


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("data integrity", {"Letter A", "Letter B", "Letter C"}),  # stems: integr
        ('"data integrity"', {"Letter A"}),
        ('"Data Integrity"', {"Letter A"}),  # case folded
        ('"data integration"', {"Letter B"}),
        ('"integration"', {"Letter B"}),
        ("integration", {"Letter A", "Letter B", "Letter C"}),
        ('"integrity"', {"Letter A", "Letter C"}),
        ('"data integrity"~1', {"Letter A", "Letter C"}),  # data system integrity
        ('"data system"', {"Letter C"}),
        ('"data systems"', set()),
        ('data -"data integrity"', {"Letter B", "Letter C"}),
        ('"integrity records"', {"Letter C"}),  # "of the" are stop words
    ],
)
def test_quoted_words_match_as_written_and_unquoted_words_by_stem(eng, item, expected):
    assert titles(eng.search_all([item])) == expected


def test_a_field_alone_finds_every_document_with_the_value(eng):
    res = eng.search(["company:hospira"])
    assert titles(res) == {"Letter A", "Letter B"}
    assert res.total == 2
    assert res.dataset_statuses["fda_warning_letters"]["matches"] == 2  # one page per document
    assert titles(eng.search(['company:"acme labs"'])) == {"Letter C"}
    assert titles(eng.search(["company:hospira -integration"])) == set()
    assert titles(eng.search(["(company:acme OR company:northbridge)"])) == {
        "Letter C",
        "Letter D",
    }
    by_date = eng.search(["company:hospira OR company:northbridge"], sort="date")
    assert [r["title"] for r in by_date.results][-1] == "Letter D"  # undated last
    counts = eng.facets(["company:hospira"], by=["company"])["company"]
    assert counts.to_dict("records") == [{"value": "Hospira Inc", "documents": 2, "pages": 2}]


def test_exclusions_alone_are_refused(eng):
    with pytest.raises(regnb.InvalidRequest, match="exclusions only narrow"):
        eng.search(["-company:hospira"])


SURFACE = ["integrity", "integration", "integrated", "data", "datum", "the", "system", "systems"]


def test_quoted_phrases_match_what_a_reading_of_the_words_finds(make_engine):
    rng = random.Random(11)
    docs = [doc(f"doc{i}", [" ".join(rng.choices(SURFACE, k=8))]) for i in range(80)]
    eng = make_engine({"fda_483": docs})
    for phrase, slop in [("data integrity", 0), ("integration system", 1), ("systems", 0)]:
        item = f'"{phrase}"' + (f"~{slop}" if slop else "")
        expected = {
            d["title"]
            for d in docs
            if has_phrase(
                text.surface_words(f"{d['title']} {d['pages'][0]}"),
                text.surface_words(phrase),
                slop,
            )
        }
        stemmed = {
            d["title"]
            for d in docs
            if has_phrase(text.terms(f"{d['title']} {d['pages'][0]}"), text.terms(phrase), slop)
        }
        assert expected and expected < stemmed  # the case tells words from stems
        assert titles(eng.search_all([item], datasets=["fda_483"])) == expected
