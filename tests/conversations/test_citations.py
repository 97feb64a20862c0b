"""A turn's stored citations checked on their pages: a passage holds only where it is its block's
text on the page read now; a page that cannot be read verifies nothing."""

from __future__ import annotations

from typing import Any

import pytest

from regnb.conversations.citations import checked_citations

PAGE = "First block of the page.\n\nSterility testing failed for lot 7.\n\nThird block."


def row(idx: int, **overrides: Any) -> dict[str, Any]:
    base = {
        "idx": idx,
        "name": "A letter, page 1",
        "dataset": "FDA Warning Letters",
        "date": "2022-01-10",
        "page_num": 1,
        "url": "https://example.test/wl#page=1",
        "block_id": None,
        "parent_index": None,
        "document_id": "doc1",
        "dataset_id": "fda_warning_letters",
        "passage": None,
    }
    return {**base, **overrides}


def pages(document_id: str, page: int) -> str | None:
    return PAGE if (document_id, page) == ("doc1", 1) else None


@pytest.mark.parametrize(
    ("stored", "verified", "quote"),
    [
        (
            row(2, block_id="¶2", parent_index=1, passage="Sterility testing failed for lot 7."),
            True,
            "Sterility testing failed for lot 7.",
        ),
        (
            row(2, block_id="¶2", parent_index=1, passage="Sterility testing failed for lot 8."),
            False,
            "Sterility testing failed for lot 8.",
        ),
        (
            row(2, block_id="¶3", parent_index=1, passage="Sterility testing failed for lot 7."),
            False,
            "Sterility testing failed for lot 7.",
        ),
        (row(2, block_id="¶2", parent_index=1), True, "Sterility testing failed for lot 7."),
        (row(2, block_id="¶9", parent_index=1), False, None),
        (row(2, block_id="¶2", parent_index=1, document_id="gone", passage="x"), False, "x"),
        (row(2), True, None),
        (row(2, page_num=5), False, None),
    ],
)
def test_a_citation_is_verified_only_where_it_holds_on_its_page(stored, verified, quote):
    [checked] = checked_citations([stored], pages)
    assert (checked.verified, checked.quote) == (verified, quote)
    assert checked.document_id == stored["document_id"] and checked.index == 2


def test_each_page_is_read_once():
    reads: list[tuple[str, int]] = []

    def counting(document_id: str, page: int) -> str | None:
        reads.append((document_id, page))
        return pages(document_id, page)

    rows = [row(1), row(2, block_id="¶2", parent_index=1), row(3, block_id="¶1", parent_index=1)]
    checked = checked_citations(rows, counting)
    assert reads == [("doc1", 1)]
    assert [c.to_dict()["quote"] for c in checked] == [
        None,
        "Sterility testing failed for lot 7.",
        "First block of the page.",
    ]
