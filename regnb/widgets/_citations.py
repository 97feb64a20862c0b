"""The document behind a citation, through the engine's public methods only.

The spec's citation object has no document id: `name` ("<title>, page N"), the dataset's display
name, `page_num` and `url`. A url of the document reader (`/api/v3/documents/<id>?...`) names the
document; otherwise the title is searched in the cited dataset and the document whose url (or else
title) matches is taken. A passage citation's text is the conversation's `passage` where the
engine gives it (a local engine does), else the block cut from the page by its `block_id`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urldefrag

from regnb.errors import RegnbError

if TYPE_CHECKING:
    from regnb.interface import EngineAPI

__all__ = ["CitedPage", "block_passage", "find_document", "resolve_citation", "title_of"]

READER_URL = re.compile(r"/api/v3/documents/([^/?#]+)")
PAGE_SUFFIX = re.compile(r",\s*page\s+\d+\s*$")
TITLE_WORDS = 12  # enough words of a title to find its document; an item holds at most 300 chars
CANDIDATES = 10


@dataclass(frozen=True)
class CitedPage:
    """Where a citation points: the document, the page, and the passage to mark (or None)."""

    index: int
    document_id: str | None
    page: int
    passage: str | None
    citation: dict[str, Any]


def title_of(citation: dict[str, Any]) -> str:
    """The cited document's title: the citation's name without its ", page N"."""
    return PAGE_SUFFIX.sub("", str(citation.get("name") or "")).strip()


def _fold(text: object) -> str:
    return " ".join(str(text or "").split()).casefold()


def find_document(
    engine: EngineAPI, citation: dict[str, Any], dataset_ids: dict[str, str]
) -> str | None:
    """The cited document's id (None when it cannot be found); `dataset_ids` maps display
    names to ids."""
    url = str(citation.get("url") or "")
    reader = READER_URL.search(url)
    if reader:
        return unquote(reader.group(1))
    title = title_of(citation)
    dataset = dataset_ids.get(str(citation.get("dataset") or ""))
    if not title:
        return None
    words = " ".join(title.split()[:TITLE_WORDS])[:300]
    try:
        found = engine.search(
            [words], datasets=[dataset] if dataset else None, limit=CANDIDATES
        ).results
    except RegnbError:
        return None
    source = urldefrag(url).url
    for doc in found:
        if source and doc.get("url") and urldefrag(str(doc["url"])).url == source:
            return str(doc["document_id"])
    for doc in found:
        if _fold(doc.get("title")) == _fold(title):
            return str(doc["document_id"])
    return None


def block_passage(engine: EngineAPI, document_id: str, page: int, block_id: str) -> str | None:
    """A passage citation's text cut from its page by `block_id` (None when that fails)."""
    from regnb.documents.blocks import block_text

    try:
        read = engine.read(document_id, page, page)
        return block_text(read.page_list[0]["text"], block_id) if read.page_list else None
    except (RegnbError, ValueError):
        return None


def resolve_citation(
    engine: EngineAPI,
    cite: dict[str, Any],
    citations: list[dict[str, Any]],
    passages: dict[int, str | None],
    documents: dict[int, str] | None = None,
) -> CitedPage:
    """Where citation `cite` points: the document from `documents` (what a local engine's
    conversation knows), else found from the citation. The passage to mark is the cited
    passage's text (from `passages`, the conversation's, else cut from the page); for a page
    citation, that of its first passage citation among `citations`, if any."""
    doc_id = (documents or {}).get(int(cite["index"]))
    if doc_id is None:
        doc_id = find_document(engine, cite, {d.name: d.id for d in engine.datasets()})
    page = int(cite.get("page_num") or 1)
    if cite.get("block_id") is None:
        children = (c for c in citations if c.get("parent_index") == cite["index"])
        cite_of_passage = next(children, None)
    else:
        cite_of_passage = cite
    passage = None
    if cite_of_passage is not None:
        passage = passages.get(int(cite_of_passage["index"]))
        if not passage and doc_id is not None:
            passage = block_passage(engine, doc_id, page, str(cite_of_passage["block_id"]))
    return CitedPage(int(cite["index"]), doc_id, page, passage, cite)
