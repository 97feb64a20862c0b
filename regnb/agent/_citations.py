"""SourcedCitation numbers of one answer: page citations (a document's page) and passage citations (a
block of that page, `parent_index` = the page's citation), numbered from the turn's first number."""

from __future__ import annotations

from collections.abc import Callable

from regnb.agent._stages import Found, Passage
from regnb.agent.types import SourcedCitation
from regnb.documents.words import fold_spaces

__all__ = ["CitationBook", "page_url"]


def page_url(found: Found, page_num: int) -> str:
    """The source at that page, or the document reader's page when the source has no url."""
    if found.url:
        return f"{found.url}#page={page_num}"
    return f"/api/v3/documents/{found.document_id}?page_from={page_num}&page_to={page_num}"


class CitationBook:
    """Hands out citation numbers: one per cited page, one per cited passage."""

    def __init__(self, first: int, dataset_name: Callable[[str], str]) -> None:
        self.next = first
        self.dataset_name = dataset_name
        self.citations: list[SourcedCitation] = []
        self._pages: dict[tuple[str, int], int] = {}
        self._passages: dict[tuple[str, int, str], int] = {}

    def _take(self) -> int:
        number = self.next
        self.next += 1
        return number

    def page(self, found: Found, page_num: int) -> int:
        """The page citation's number (made on first use)."""
        key = (found.document_id, page_num)
        if key not in self._pages:
            self._pages[key] = self._take()
            self.citations.append(
                SourcedCitation(
                    index=self._pages[key],
                    name=f"{fold_spaces(found.title)}, page {page_num}",
                    dataset=self.dataset_name(found.dataset),
                    date=None if found.date is None else str(found.date),
                    page_num=page_num,
                    url=page_url(found, page_num),
                    document_id=found.document_id,
                    dataset_id=found.dataset,
                )
            )
        return self._pages[key]

    def passage(self, passage: Passage) -> int:
        """The passage citation's number (its page citation made first when needed)."""
        key = (passage.found.document_id, passage.page_num, passage.unit.block_id)
        if key not in self._passages:
            parent = self.page(passage.found, passage.page_num)
            page = self.by_index(parent)
            self._passages[key] = self._take()
            self.citations.append(
                SourcedCitation(
                    index=self._passages[key],
                    name=page.name,
                    dataset=page.dataset,
                    date=page.date,
                    page_num=page.page_num,
                    url=page.url,
                    document_id=page.document_id,
                    dataset_id=page.dataset_id,
                    block_id=passage.unit.block_id,
                    parent_index=parent,
                    passage=passage.unit.text,
                )
            )
        return self._passages[key]

    def by_index(self, index: int) -> SourcedCitation:
        return next(c for c in self.citations if c.index == index)

    def pages_of(self, document_id: str) -> list[int]:
        """The page citations of a document, by page number."""
        return [n for (doc, _), n in sorted(self._pages.items()) if doc == document_id]
