"""Where the firms of the documents found are, held against the places a question names ("Indian
API makers", "firms outside the United States", "only those in California").

A document's place is the one the index read for its firm (`country`, `state`, `city` among
its fields, from its record's fields or its first page's address: `regnb.index.places`), else,
from an index without places, read here the same way (`regnb.documents.places.document_place`):
facts about the firm, not words of the text, so that a letter that mentions "Chinese medicine"
is not a Chinese firm's. Where a document gives no address, or not the part asked (a state where
only the country is read), a document is in the place when its first page names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from regnb.agent._stages import Found
from regnb.documents import places
from regnb.documents.places import Place, state_names

__all__ = ["document_place", "firms_where", "placed"]


def document_place(doc: Found, first_page: str | None) -> Place | None:
    """The document's firm's place: the index's (among its fields, where the search asked for
    places), else read from its fields or from the address on its first page."""
    return places.document_place(doc.fields, first_page)


def _names(text: str, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE) is not None


def _decided(place: Place | None, asked: Place) -> bool:
    """Whether the document's place says whether it lies in `asked` (it knows every part asked)."""
    if place is None or not place.country:
        return False
    if asked.country and place.country != asked.country:
        return True  # another country: not in it, whatever the rest
    return not ((asked.state and not place.state) or (asked.city and not place.city))


def _where(place: Place | None, page: Callable[[], str], asked: Place) -> bool | None:
    """Whether the document's firm is in `asked`: from its place where that decides it, else
    from its first page (`page()`, read only then) naming the place (a state, a city, a country
    other than the US, whose name every FDA document holds) or, for a state, naming another
    state only; None where nothing says."""
    if _decided(place, asked):
        return place is not None and place.within(asked)
    if asked.country == "US" and not asked.state and not asked.city:
        return None
    text = page()
    if _names(text, asked.name):
        return True
    if asked.state and not asked.city and asked.country:
        others = [n for c, n in state_names(asked.country).items() if c != asked.state]
        if any(_names(text, n) for n in others):
            return False
    return None


def _once(first_page: Callable[[Found], str], doc: Found) -> Callable[[], str]:
    """The document's first page, read on the first call only (a place the index read for its
    firm needs none)."""
    read: list[str] = []

    def page() -> str:
        if not read:
            read.append(first_page(doc))
        return read[0]

    return page


def _listed(places: Sequence[Place]) -> str:
    names = [p.name for p in places]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def firms_where(places_in: Sequence[str], places_out: Sequence[str]) -> str:
    """ "firms in Texas", "firms outside United States": what a place filter asks of firms."""
    where = []
    if places_in:
        where.append(f"in {_listed([Place.from_code(c) for c in places_in])}")
    if places_out:
        where.append(f"outside {_listed([Place.from_code(c) for c in places_out])}")
    return f"firms {' and '.join(where)}"


def placed(
    found: Sequence[Found],
    places_in: Sequence[str],
    places_out: Sequence[str],
    first_page: Callable[[Found], str],
) -> tuple[list[Found], list[str]]:
    """The documents whose firms lie in one of `places_in` (`Place.code`s; none: anywhere) and
    in none of `places_out`, best first as found, then those whose place no field or page says
    (the index of a scanned form may hold no address), and notes that say what was kept."""
    inside = [Place.from_code(c) for c in places_in]
    outside = [Place.from_code(c) for c in places_out]
    if not (inside or outside) or not found:
        return list(found), []
    known: list[Found] = []
    unknown: list[Found] = []
    for doc in found:
        page = _once(first_page, doc)
        place = document_place(doc, None) or document_place(doc, page())
        said_in = [_where(place, page, p) for p in inside]
        said_out = [_where(place, page, p) if _decided(place, p) else None for p in outside]
        if any(said_out) or (inside and all(s is False for s in said_in)):
            continue  # known to be elsewhere
        settled = any(said_in) if inside else None not in said_out
        if settled:
            known.append(replace(doc, placed=True))
        else:
            unknown.append(doc)
    firms = firms_where(places_in, places_out)
    before, placed_in, open_ = (len({f.document_id for f in d}) for d in (found, known, unknown))
    if not known and not unknown:
        return [], [f"None of the {before} documents found is from {firms}."]
    said = (
        f"Only the documents of {firms}: {placed_in} of the {before} found, by their address "
        "(or, without one, as their first page names the place)"
    )
    if open_:
        gives = "gives no place and is" if open_ == 1 else "give no place and are"
        said += f"; {open_} more {gives} kept after them"
    left = before - placed_in - open_
    if left:
        said += f"; {left} elsewhere left out"
    return [*known, *unknown], [f"{said}. Counts over every match are of firms anywhere."]
