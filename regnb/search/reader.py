"""The pages of a document: v3 reads within the page and size limits, and legacy contents."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from regnb.catalog import Catalog
from regnb.documents.labels import is_label, page_section
from regnb.errors import Forbidden, InvalidRequest, NotFound
from regnb.index.store import IndexStore
from regnb.present.names import DatasetNames
from regnb.results import ContentsResult, DocumentRead
from regnb.search import legacy
from regnb.validate import check_int, check_plan

__all__ = ["Reader"]


class Reader:
    """Reads documents of one index for a plan (`default_plan`: the engine's, for a call that
    names none); a read returns at most `max_pages` pages and, past its first page, `max_bytes`."""

    def __init__(
        self,
        stores: Callable[[], IndexStore],
        catalog: Catalog,
        *,
        max_pages: int,
        max_bytes: int,
    ) -> None:
        self.stores, self.catalog = stores, catalog
        self.max_pages, self.max_bytes = max_pages, max_bytes
        self.names = DatasetNames.of(catalog)  # what results show: this catalog's names

    def document(
        self, document_id: object, plan: str, store: IndexStore | None = None
    ) -> dict[str, Any]:
        """The document's row (in `store`, default the current snapshot), if it exists and
        `plan` may read its dataset."""
        if not isinstance(document_id, str) or not document_id:
            raise InvalidRequest("document_id must be a non-empty string", field="document_id")
        store = store or self.stores()
        row = store.rows.document(document_id)
        if row is None:
            damage = store.damage_holding(document_id)
            if damage is not None:  # not missing: in a damaged segment, or maybe
                raise damage.error
            raise NotFound(f"no document {document_id!r}", field="document_id")
        dataset = self.catalog[row["dataset"]]
        if not dataset.open_to(check_plan(plan)):
            raise Forbidden(f"{dataset.id} needs an enterprise plan", field="document_id")
        return row

    def read(
        self,
        document_id: str,
        page_from: int,
        page_to: int | None,
        *,
        plan: str | None,
        default_plan: str,
    ) -> DocumentRead:
        """Pages `page_from`..`page_to` of a document, as many as the limits allow."""
        page_from = check_int(page_from, "page_from", 1)
        if page_to is not None:
            page_to = check_int(page_to, "page_to", 1)
            if page_to < page_from:
                raise InvalidRequest(
                    f"page_to {page_to} is before page_from {page_from}", field="page_to"
                )
        store = self.stores()  # one snapshot: page ids are its own
        row = self.document(document_id, default_plan if plan is None else plan, store)
        total = int(row["page_count"])
        last = min(total, page_to or total, page_from + self.max_pages - 1)
        pages: list[tuple[int, str]] = []
        size = 0
        for num, text in _page_range(store, row, page_from, last):
            nbytes = len(text.encode("utf-8"))
            if pages and size + nbytes > self.max_bytes:
                break
            pages.append((num, text))
            size += nbytes
        chosen = pages[-1][0] if pages else 0
        next_from = chosen + 1 if chosen and chosen < total else None
        return DocumentRead(
            document_id=row["document_id"],
            dataset=row["dataset"],
            title=row["title"],
            url=row["url"],
            total_pages=total,
            page_list=[{"page_num": n, "text": t} for n, t in pages],
            next_page_from=next_from,
            names=self.names,
            sections=_sections(row, pages),
        )

    def legacy_contents(
        self, doc_id: str, top_k: int, offset: int, *, plan: str | None, default_plan: str
    ) -> ContentsResult:
        """Pages of a document by `doc_id` (relative path or URL form), 0-based page numbers."""
        if not isinstance(doc_id, str) or not doc_id.strip():
            raise InvalidRequest("doc_id must be a non-empty string", field="doc_id")
        top_k, offset = legacy.check_window(top_k, offset)
        dataset, document_id = legacy.parse_doc_id(doc_id)
        store = self.stores()
        row = store.rows.document(document_id)
        if row is None or (dataset is not None and row["dataset"] != dataset):
            row = store.rows.document_by_url(doc_id.strip())
        if row is None:
            raise NotFound(f"document not found: {doc_id}", field="doc_id")
        allowed = self.document(row["document_id"], default_plan if plan is None else plan, store)
        return replace(legacy.contents(store, allowed, top_k, offset), names=self.names)


def _sections(row: dict[str, Any], pages: list[tuple[int, str]]) -> dict[int, str]:
    """A drug label's section of each page read, by page number (none for other documents)."""
    if not is_label(row["dataset"], _fields(row)):
        return {}
    found = {num: page_section(text) for num, text in pages}
    return {num: name for num, name in found.items() if name is not None}


def _fields(row: dict[str, Any]) -> dict[str, Any]:
    fields = row.get("fields")
    if isinstance(fields, str):
        fields = json.loads(fields)
    return fields if isinstance(fields, dict) else {}


def _page_range(
    store: IndexStore, row: dict[str, Any], first: int, last: int
) -> list[tuple[int, str]]:
    """The document's pages `first`..`last`; a read that fails in a damaged segment is
    IndexDamaged (internal_error: the message names the segment and the repair)."""
    if first > last:
        return []
    try:
        return list(store.rows.page_range(row, first, last))
    except Exception as exc:
        if store.diagnose([row["dataset"]], exc):
            damage = store.damage_to(row["dataset"])
            assert damage is not None
            raise damage.error from exc
        raise
