"""Identifiers at index time: the postings of a batch of pages and each document's identifiers,
from page texts and catalog fields."""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa
import pytest

from regnb.index.identifiers import identifier_tables


def batch(docs: list[tuple[dict[str, Any], list[str]]]) -> tuple[pa.Table, pa.Table]:
    """Segment-shaped document rows (fields as JSON, local first pages) and pages."""
    first, doc_rows, nums, texts = [], [], [], []
    for row, (_, pages) in enumerate(docs):
        first.append(len(texts))
        for num, text in enumerate(pages, 1):
            doc_rows.append(row)
            nums.append(num)
            texts.append(text)
    documents = pa.table(
        {
            "fields": pa.array([json.dumps(fields) for fields, _ in docs]),
            "first_page_id": pa.array(first, pa.int32()),
            "page_count": pa.array([len(p) for _, p in docs], pa.int32()),
        }
    )
    pages = pa.table(
        {
            "doc_row": pa.array(doc_rows, pa.int32()),
            "page_num": pa.array(nums, pa.int32()),
            "text": pa.chunked_array([pa.array(texts, pa.string())]),
        }
    )
    return documents, pages


def postings(docs: list[tuple[dict[str, Any], list[str]]]) -> set[tuple[int, str, int]]:
    found, _ = identifier_tables(*batch(docs))
    return set(zip(*(found.column(c).to_pylist() for c in ("page_id", "term", "tf")), strict=True))


def identifiers(docs: list[tuple[dict[str, Any], list[str]]]) -> set[tuple[int, str, str, int]]:
    _, table = identifier_tables(*batch(docs))
    columns = (table.column(c).to_pylist() for c in ("doc_row", "kind", "value", "page_num"))
    return set(zip(*columns, strict=True))


def test_a_pages_identifiers_are_its_postings_with_their_counts() -> None:
    docs = [({}, ["no number", "FEI 3002806560 and again FEI 3002806560, NDA 21-164"])]
    assert postings(docs) == {
        (1, "fei:3002806560", 1),
        (1, "app:021164", 1),
        (1, "nda:021164", 1),
    }


def test_a_documents_fields_are_posted_on_its_first_page() -> None:
    docs = [
        ({"company": "Acme"}, ["nothing"]),
        ({"fei_number": "3002806560"}, ["page one", "FEI 3002806560"]),
    ]
    assert postings(docs) == {(1, "fei:3002806560", 1), (2, "fei:3002806560", 1)}


def test_a_field_and_its_first_page_add_up() -> None:
    docs = [({"nct_id": "NCT01234567"}, ["study NCT01234567"])]
    assert postings(docs) == {(0, "nct:01234567", 2)}


@pytest.mark.parametrize(
    ("docs", "expected"),
    [
        (
            [({}, ["p1", "K123456 here", "K123456 there, FEI 1234567"])],
            {(0, "510k", "K123456", 2), (0, "fei", "1234567", 3)},
        ),
        (
            [({"company": "Acme"}, ["x"]), ({"application_number": "NDA 021164"}, ["NDA 021164"])],
            {(1, "application", "NDA 021164", 0)},
        ),
        ([({"fei_number": "3002806560"}, [])], {(0, "fei", "3002806560", 0)}),
        ([({"fei_number": None}, ["nothing here"])], set()),
    ],
)
def test_each_document_lists_its_identifiers_with_the_first_page_holding_them(
    docs: list[tuple[dict[str, Any], list[str]]], expected: set[tuple[int, str, str, int]]
) -> None:
    assert identifiers(docs) == expected


def test_a_document_without_pages_posts_nothing() -> None:
    assert postings([({"fei_number": "3002806560"}, [])]) == set()
