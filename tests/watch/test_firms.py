"""A watched firm (name or identifier), checked when saved, and the documents of the firm
entities it names."""

from __future__ import annotations

from typing import Any

import pytest

import regnb
from regnb.errors import InvalidRequest
from regnb.firms.timeline import document_events
from regnb.watch._firms import WatchedFirm, watched_firm

from ..conftest import doc


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hospira, Inc.", WatchedFirm("Hospira, Inc.", key="hospira")),
        ("The Acme Company LLC", WatchedFirm("The Acme Company LLC", key="acme")),
        ("FEI 3002806560", WatchedFirm("FEI 3002806560")),
        ("NDA 21-164", WatchedFirm("NDA 21-164")),
    ],
)
def test_a_watched_firm_is_a_name_key_or_identifiers(text, expected):
    assert watched_firm(text, "firms[0]") == expected


@pytest.mark.parametrize("text", ["", "  ", None, 3, "(The)", "..."])
def test_a_watched_firm_needs_a_name_or_identifier(text):
    with pytest.raises(InvalidRequest) as info:
        watched_firm(text, "firms[2]")
    assert info.value.field == "firms[2]"


CORPUS = {
    "fda_483": [
        doc(
            "a",
            ["Form FDA 483."],
            fields={"facility_name": "Hospira, Inc.", "fei_number": "3002806560"},
        ),
        doc("b", ["Form FDA 483."], fields={"facility_name": "Hospira Worldwide"}),
        doc("c", ["Form FDA 483."], fields={"facility_name": "Nubratori, Inc dba Nubratori Rx"}),
        doc("d", ["Form FDA 483."], fields={"facility_name": "Lake Forest, IL 60045"}),
    ],
    "fda_warning_letters": [
        doc("e", ["Warning letter."], fields={"company": "HOSPIRA INC"}),
        doc("f", ["Warning letter to the site, FEI 3002806560."], fields={"company": "Pfizer Inc"}),
    ],
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("firms") / "corpus"
    regnb.write_corpus(path, CORPUS, encoder=regnb.HashingEncoder(), progress=False)
    with regnb.Engine(path, encoder=regnb.HashingEncoder(), progress=False) as engine:
        yield engine


@pytest.mark.parametrize(
    ("watched", "titles"),
    [
        ("Hospira Inc", {"a", "e", "f"}),  # its variants, and the firm its FEI ties to it
        ("HOSPIRA, INC.", {"a", "e", "f"}),
        ("Hospira Worldwide", {"b"}),  # never merged by likeness
        ("Nubratori Rx", {"c"}),  # a "dba" name
        ("FEI 3002806560", {"a", "e", "f"}),
        ("Lake Forest", set()),  # an address line is no firm
        ("Hosp", set()),  # a prefix guesses: not watched
    ],
)
def test_a_watched_firm_is_every_document_of_the_firms_it_names(
    eng: Any, watched: str, titles: set[str]
) -> None:
    ids = eng.firms.document_ids([watched])
    assert set(document_events(eng, sorted(ids))["title"]) == titles
