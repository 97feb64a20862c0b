"""A turn's citations checked on their pages as the reader returns them now, for a front end
that hands an answer to someone who cannot open the pages (an assistant over MCP).

`checked_citations(rows, read_page)` gives each stored citation with the document and page it
names, the passage it quotes, and `verified`: the page can be read and, for a passage citation,
the passage is the text of its block on that page (the agent's own test, `passage_holds`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from regnb.agent._verify import passage_holds
from regnb.conversations._runner import citations_from_rows
from regnb.documents.blocks import block_text

__all__ = ["CheckedCitation", "checked_citations"]

PageReader = Callable[[str, int], "str | None"]
"""The text of a document's page, or None when it cannot be read (gone, forbidden)."""


@dataclass(frozen=True)
class CheckedCitation:
    """A numbered citation with where it points and whether it holds there."""

    index: int
    document_id: str
    dataset: str  # the dataset's id
    name: str  # "<title>, page <n>"
    date: str | None
    page_num: int | None
    url: str
    quote: str | None  # a passage citation's text; None for a page citation
    block_id: str | None
    parent_index: int | None
    verified: bool

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _cut(page: str, block_id: str) -> str | None:
    try:
        return block_text(page, block_id)
    except ValueError:
        return None


def checked_citations(
    rows: Sequence[dict[str, Any]], read_page: PageReader
) -> list[CheckedCitation]:
    """Stored citation rows (`ConversationService.citation_rows`) checked on their pages, each
    page read once. A passage the store did not keep is cut from the page by its block id."""
    pages: dict[tuple[str, int], str | None] = {}
    out: list[CheckedCitation] = []
    for c in citations_from_rows(rows):
        page: str | None = None
        if c.page_num is not None:
            key = (c.document_id, c.page_num)
            if key not in pages:
                pages[key] = read_page(*key)
            page = pages[key]
        quote = c.passage
        if c.block_id is not None and quote is None and page is not None:
            quote = _cut(page, c.block_id)
        verified = page is not None
        if c.block_id is not None:
            verified = verified and passage_holds(page or "", dataclasses.replace(c, passage=quote))
        out.append(
            CheckedCitation(
                index=c.index,
                document_id=c.document_id,
                dataset=c.dataset_id,
                name=c.name,
                date=c.date,
                page_num=c.page_num,
                url=c.url,
                quote=quote if c.block_id is not None else None,
                block_id=c.block_id,
                parent_index=c.parent_index,
                verified=verified,
            )
        )
    return out
