"""SourcedCitation numbers of one answer: page citations (a document's page) and passage citations (a
block of that page, `parent_index` = the page's citation), numbered from the turn's first number."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from regnb.agent._stages import Found, Passage
from regnb.agent.types import SourcedCitation
from regnb.documents.labels import is_label, page_section
from regnb.documents.words import fold_spaces

__all__ = ["CitationBook", "page_url"]


def page_url(found: Found, page_num: int) -> str:
    """The source at that page, or the document reader's page when the source has no url."""
    if found.url:
        return f"{found.url}#page={page_num}"
    return f"/api/v3/documents/{found.document_id}?page_from={page_num}&page_to={page_num}"


def page_name(found: Found, page_num: int, text: str | None = None) -> str:
    """How a citation names a page: "<title>, page 3", or in a drug label, with the section the
    page is in (its `text` says): "<title>, boxed warning, page 1"."""
    title = fold_spaces(found.title)
    if text is not None and is_label(found.dataset, found.fields):
        section = page_section(text)
        if section is not None:
            return f"{title}, {section}, page {page_num}"
    return f"{title}, page {page_num}"


class CitationBook:
    """Hands out citation numbers: one per cited page, one per cited passage. `pages`: the
    text of the pages read, by (document id, page number), for the section a page of a label
    is cited by."""

    def __init__(
        self,
        first: int,
        dataset_name: Callable[[str], str],
        pages: Mapping[tuple[str, int], str] | None = None,
    ) -> None:
        self.next = first
        self.dataset_name = dataset_name
        self.pages = pages or {}
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
                    name=page_name(found, page_num, self.pages.get(key)),
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
