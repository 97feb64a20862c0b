"""Where the firms of the documents found are, held against the places a question names ("Indian
API makers", "firms outside the United States", "only those in California").

A document's place is read from its record's fields (a recall's `city`, `state`, `country`) or
from its first page (a warning letter's "located at ...", a 483's address field): facts about
the firm, not words of the text, so that a letter that mentions "Chinese medicine" is not a
Chinese firm's. Where a document gives no address, or not the part asked (a state where only
the country is read), a document is in the place when its first page names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from regnb.agent._stages import Found
from regnb.documents.places import Place, address_place, fields_place

__all__ = ["document_place", "placed"]

# Fields that name a document's firm, blanked from its first page before its address is read
# (so that "Texas Pharma Inc" is not a firm in Texas).
_FIRM_FIELDS = (
    "company",
    "facility_name",
    "firm_name",
    "recalling_firm",
    "applicant",
    "sponsor",
    "manufacturer",
)


def document_place(doc: Found, first_page: str | None) -> Place | None:
    """The document's firm's place: from its fields, else from the address on its first page."""
    place = fields_place(doc.fields)
    if place is not None or not first_page:
        return place
    firm = next((str(doc.fields[f]) for f in _FIRM_FIELDS if doc.fields.get(f)), None)
    return address_place(first_page, firm)


def _names(text: str, place: Place) -> bool:
    """Whether `text` names the place (a state, a city or a country other than the US, whose
    name every FDA document holds)."""
    if place.country == "US" and not place.state and not place.city:
        return False
    return re.search(rf"\b{re.escape(place.name)}\b", text, re.IGNORECASE) is not None


def _decided(place: Place | None, asked: Place) -> bool:
    """Whether the document's place says whether it lies in `asked` (it knows every part asked)."""
    if place is None or not place.country:
        return False
    if asked.country and place.country != asked.country:
        return True  # another country: not in it, whatever the rest
    return not ((asked.state and not place.state) or (asked.city and not place.city))


def _inside(place: Place | None, text: str, asked: Place) -> bool:
    if _decided(place, asked):
        return place is not None and place.within(asked)
    return _names(text, asked)


def _outside(place: Place | None, asked: Place) -> bool:
    """Whether the document is known to lie in `asked` (a document of unknown place is kept)."""
    return _decided(place, asked) and place is not None and place.within(asked)


def _listed(places: Sequence[Place]) -> str:
    names = [p.name for p in places]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def placed(
    found: Sequence[Found],
    places_in: Sequence[str],
    places_out: Sequence[str],
    first_page: Callable[[Found], str],
) -> tuple[list[Found], list[str]]:
    """The documents whose firms lie in one of `places_in` (`Place.code`s; none: anywhere) and
    in none of `places_out`, best first as found, and notes that say what was kept."""
    inside = [Place.from_code(c) for c in places_in]
    outside = [Place.from_code(c) for c in places_out]
    if not (inside or outside) or not found:
        return list(found), []
    kept = []
    for doc in found:
        text = first_page(doc)
        place = document_place(doc, text)
        if inside and not any(_inside(place, text, p) for p in inside):
            continue
        if any(_outside(place, p) for p in outside):
            continue
        kept.append(doc)
    where = []
    if inside:
        where.append(f"in {_listed(inside)}")
    if outside:
        where.append(f"outside {_listed(outside)}")
    firms = f"firms {' and '.join(where)}"
    before = len({f.document_id for f in found})
    if not kept:
        return [], [f"None of the {before} documents found is from {firms}."]
    after = len({f.document_id for f in kept})
    return kept, [
        f"Only the documents of {firms}: {after} of the {before} found, where a firm is as its "
        "address gives it (or, without one, as its first page names the place); counts over "
        "every match are of firms anywhere."
    ]
