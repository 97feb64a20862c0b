"""A watched firm (name or identifier) and the documents about it, until firm entities exist."""

from __future__ import annotations

from typing import Any

import pytest

from regnb.errors import InvalidRequest
from regnb.watch._firms import WatchedFirm, about, watched_firm


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hospira, Inc.", WatchedFirm("Hospira, Inc.", key="hospira")),
        ("The Acme Company LLC", WatchedFirm("The Acme Company LLC", key="acme")),
        ("FEI 3002806560", WatchedFirm("FEI 3002806560", ids=frozenset({("fei", "3002806560")}))),
        ("NDA 21-164", WatchedFirm("NDA 21-164", ids=frozenset({("application", "021164")}))),
    ],
)
def test_a_watched_firm_is_a_name_key_or_identifiers(text, expected):
    assert watched_firm(text, "firms[0]") == expected


@pytest.mark.parametrize("text", ["", "  ", None, 3, "(The)", "..."])
def test_a_watched_firm_needs_a_name_or_identifier(text):
    with pytest.raises(InvalidRequest) as info:
        watched_firm(text, "firms[2]")
    assert info.value.field == "firms[2]"


@pytest.mark.parametrize(
    ("watched", "title", "fields", "expected"),
    [
        ("Hospira Inc", "483", {"facility_name": "Hospira, Inc."}, True),
        ("Hospira Inc", "483", {"company": "HOSPIRA INC"}, True),
        ("Hospira Inc", "483", {"recalling_firm": "Hospira Worldwide"}, False),
        ("Nubratori Rx", "483", {"company": "Nubratori, Inc dba Nubratori Rx"}, True),
        ("Hospira", "Letter to Hospira", {"company": None}, False),  # the title is not a field
        ("Hospira", "x", {"company": "Lake Forest, IL 60045"}, False),  # an address line
        ("FEI 3002806560", "x", {"fei_number": "3002806560"}, True),
        ("FEI 3002806560", "Establishment FEI 3002806560", {}, True),
        ("FEI 3002806560", "x", {"fei_number": "3002806561"}, False),
        ("NDA 021164", "x", {"application_number": "021164", "submission_type": "NDA"}, True),
        ("NDA 021164", "x", {"application_number": "NDA021164"}, True),
    ],
)
def test_about(watched: str, title: str, fields: dict[str, Any], expected: bool) -> None:
    assert about(watched_firm(watched, "firms[0]"), title, fields) is expected
