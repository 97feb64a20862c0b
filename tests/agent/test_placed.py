"""Where the firms of the documents found are, held against the places a question names."""

from __future__ import annotations

from typing import Any

from regnb.agent._placed import document_place, placed
from regnb.agent._stages import Found
from regnb.documents.places import Place


def found(document_id: str, fields: dict[str, Any] | None = None) -> Found:
    return Found(
        document_id=document_id,
        dataset="fda_warning_letters",
        title=f"Warning Letter {document_id}",
        date="2021-01-01",
        url=None,
        fields=fields or {},
        score=1.0,
        pages=(1,),
        weak=False,
    )


PAGES = {
    "houston": "WARNING LETTER\n\nYour facility located at 7601 N Sam Houston Pkwy W Ste 100, "
    "Houston, TX 77064 was inspected.",
    "hyderabad": "WARNING LETTER\n\nYour facility located at Plot 12, IDA Bollaram, Hyderabad, "
    "Telangana 502325, India was inspected.",
    "chinese-medicine": "WARNING LETTER\n\nYour firm located at 12 Main Street, Newark, NJ 07102 "
    "sells Chinese medicine products.",
    "no-address": "WARNING LETTER\n\nFDA inspected your facility in California.",
    "bare": "WARNING LETTER\n\nFDA inspected your facility.",
}


def first_page(doc: Found) -> str:
    return PAGES.get(doc.document_id, "")


def ids(docs: list[Found]) -> list[str]:
    return [d.document_id for d in docs]


def test_a_firms_place_is_read_from_its_fields_before_its_page() -> None:
    assert document_place(found("bare", {"country": "IN", "city": "Pune"}), "") == Place(
        "IN", None, "Pune"
    )
    place = document_place(found("houston"), PAGES["houston"])
    assert place is not None and place.within(Place("US", "TX"))


def test_a_nationality_keeps_the_firms_of_that_country_not_the_documents_that_say_it() -> None:
    docs = [found(k) for k in ("houston", "hyderabad", "chinese-medicine")]
    kept, notes = placed(docs, ["IN"], [], first_page)
    assert ids(kept) == ["hyderabad"]
    assert notes and notes[0].startswith("Only the documents of firms in India: 1 of the 3 found")
    kept, _ = placed(docs, ["CN"], [], first_page)  # "Chinese medicine" is not a Chinese firm
    assert kept == []


def test_outside_the_us_drops_the_us_firms_and_keeps_those_of_unknown_place_after() -> None:
    docs = [found(k) for k in ("bare", "houston", "hyderabad", "chinese-medicine")]
    kept, notes = placed(docs, [], ["US"], first_page)
    assert ids(kept) == ["hyderabad", "bare"]
    assert notes[0].startswith(
        "Only the documents of firms outside the United States: 1 of the 4 found, by their "
        "address (or, without one, as their first page names the place); 1 more gives no place "
        "and is kept after them; 2 elsewhere left out."
    )


def test_without_an_address_a_state_is_read_from_the_first_page() -> None:
    docs = [found(k) for k in ("no-address", "bare", "houston")]
    assert ids(placed(docs, ["US-CA"], [], first_page)[0]) == ["no-address", "bare"]
    assert ids(placed(docs, ["US-TX"], [], first_page)[0]) == ["houston", "bare"]
    assert ids(placed(docs, ["US:Houston"], [], first_page)[0]) == ["houston", "no-address", "bare"]
    # a page that names another state only is a firm elsewhere
    assert ids(placed([found("no-address")], ["US-TX"], [], first_page)[0]) == []


def test_nothing_in_the_place_says_so_and_no_place_keeps_everything() -> None:
    docs = [found("houston"), found("hyderabad")]
    kept, notes = placed(docs, ["US-OH"], [], first_page)
    assert kept == [] and notes == ["None of the 2 documents found is from firms in Ohio."]
    assert placed(docs, [], [], first_page) == (docs, [])


def test_the_place_the_index_read_is_used_without_reading_a_page() -> None:
    stored = {
        "houston": {"country": "US", "state": "TX", "city": "Houston"},
        "hyderabad": {"country": "IN", "state": "TS", "city": "Hyderabad"},
    }
    docs = [found(k, stored[k]) for k in ("houston", "hyderabad")]
    read: list[str] = []

    def counted(doc: Found) -> str:
        read.append(doc.document_id)
        return first_page(doc)

    kept, _ = placed(docs, ["IN"], [], counted)
    assert ids(kept) == ["hyderabad"] and read == []
    kept, _ = placed(docs, ["US:Houston"], [], counted)
    assert ids(kept) == ["houston"] and read == []
    # an index without places: each page is read once, however many places are asked
    placed([found("houston")], ["US-TX", "US-CA"], ["IN"], counted)
    assert read == ["houston"]


def test_the_places_asked_are_searched_as_place_items() -> None:
    from regnb.agent._searching import place_items
    from regnb.agent._stages import Plan, Scope

    plan = Plan("m", "q", scope=Scope(places_in=("MX:Zapopan", "US-NJ", "IN")))
    assert place_items(plan) == ['city:"zapopan"', "state:NJ", "country:IN"]
    assert place_items(Plan("m", "q")) == []


def test_documents_found_in_the_places_asked_come_before_the_rest() -> None:
    from regnb.agent._searching import _placed_first
    from regnb.results import SearchResult

    def result(ids: list[str], status: str = "ok") -> SearchResult:
        rows = [{"document_id": i} for i in ids]
        statuses = {"d": {"status": status}}
        return SearchResult(rows, statuses, len(ids), next_offset=None, ranking="bm25")

    merged = _placed_first(result(["b"]), result(["a", "b", "c"]), "d")
    assert [r["document_id"] for r in merged.results] == ["b", "a", "c"]
    # nothing found anywhere with every word: the places' documents and their status
    merged = _placed_first(result(["b"]), result([], "no_match"), "d")
    assert [r["document_id"] for r in merged.results] == ["b"]
    assert merged.dataset_statuses["d"]["status"] == "ok"
    assert _placed_first(result([]), result(["a"]), "d").results == [{"document_id": "a"}]
