"""The two older endpoints: page-level BM25 search and the page-wise document reader, with
their own input rules, `doc_id` forms, 0-based page numbers and `<b>` highlights."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from regnb.catalog import Catalog
from regnb.errors import InvalidRequest, UnknownDataset
from regnb.index.store import IndexStore
from regnb.results import ContentsResult, LegacySearchResult
from regnb.text import Normaliser
from regnb.validate import (
    LEGACY_TOP_K_MAX,
    MAX_QUERY_TEXT_CHARS,
    YEAR_MAX,
    check_int,
    did_you_mean,
)

__all__ = [
    "COMPANY_FIELDS",
    "check_datasets",
    "check_query_text",
    "check_window",
    "company_of",
    "contents",
    "highlight",
    "legacy_doc_id",
    "parse_doc_id",
    "search",
]

COMPANY_FIELDS = (
    "company",
    "sponsor",
    "applicant",
    "firm_name",
    "recalling_firm",
    "manufacturer",
    "facility_name",
)
WORD = re.compile(r"[^\W_]+")
SNIPPET_CHARS = 300


def company_of(fields: dict[str, Any]) -> str | None:
    """The firm a document is about, from the first company-like field it has."""
    for name in COMPANY_FIELDS:
        if fields.get(name):
            return str(fields[name])
    return None


def legacy_doc_id(dataset: str, document_id: str) -> str:
    """The relative path form of a legacy `doc_id`."""
    return f"{dataset}/{document_id}"


def parse_doc_id(doc_id: str) -> tuple[str | None, str]:
    """(dataset or None, document_id) from the relative path form or a URL ending in it."""
    path = re.sub(r"^[a-z][a-z0-9+.-]*://[^/]+", "", doc_id.strip()).split("?")[0].strip("/")
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 2:
        return parts[-2], parts[-1]
    return None, parts[-1] if parts else ""


def highlight(text: str, terms: set[str], normaliser: Normaliser) -> str:
    """A snippet of the page around its first matched word, matched words in `<b>` tags."""
    words = [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]
    mapping = normaliser.word_terms([w for _, _, w in words])
    hits = [(s, e) for s, e, w in words if mapping.get(w.lower()) in terms]
    if not hits:
        return html.escape(text[:SNIPPET_CHARS])
    start = max(0, hits[0][0] - SNIPPET_CHARS // 3)
    end = min(len(text), start + SNIPPET_CHARS)
    parts, pos = [], start
    for s, e in hits:
        if s < start or e > end:
            continue
        parts += [html.escape(text[pos:s]), "<b>", html.escape(text[s:e]), "</b>"]
        pos = e
    parts.append(html.escape(text[pos:end]))
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return prefix + "".join(parts).strip() + suffix


def check_query_text(query_text: object) -> str:
    """A non-empty string of at most 2,000 characters."""
    if not isinstance(query_text, str) or not query_text.strip():
        raise InvalidRequest("query_text must be a non-empty string", field="query_text")
    if len(query_text) > MAX_QUERY_TEXT_CHARS:
        raise InvalidRequest(
            f"query_text is {len(query_text)} characters; at most {MAX_QUERY_TEXT_CHARS}",
            field="query_text",
        )
    return query_text


def check_datasets(catalog: Catalog, dataset_to_search: object, plan: str) -> list[str]:
    """The datasets to search: those named (all when none), less what the plan cannot read."""
    if dataset_to_search is None:
        dataset_to_search = []
    if isinstance(dataset_to_search, str) or not isinstance(dataset_to_search, list | tuple):
        raise InvalidRequest(
            "dataset_to_search must be a list of dataset ids", field="dataset_to_search"
        )
    for i, ds in enumerate(dataset_to_search):
        if not isinstance(ds, str) or ds not in catalog:
            hint = did_you_mean(ds, catalog.ids)
            raise UnknownDataset(f"unknown dataset {ds!r}{hint}", field=f"dataset_to_search[{i}]")
    chosen = list(dataset_to_search) or catalog.ids
    return [d for d in chosen if catalog[d].available and catalog[d].open_to(plan)]


def _year(value: object, field: str) -> int | None:
    return None if value is None else check_int(value, field, 0, YEAR_MAX)


def search(
    store: IndexStore,
    normaliser: Normaliser,
    query_text: str,
    top_k: int,
    offset: int,
    datasets: Sequence[str],
    year_from: object = None,
    year_to: object = None,
) -> LegacySearchResult:
    """Pages holding any query word, by BM25 summed over the words; 0-based page numbers."""
    query_text = check_query_text(query_text)
    top_k, offset = check_window(top_k, offset)
    first, last = _year(year_from, "year_from"), _year(year_to, "year_to")
    terms = sorted(set(normaliser.terms(query_text)))
    ids = store.term_ids(terms)
    score = store.postings.read_all(list(ids.values())).score
    keep = store.rows.pages_in(
        datasets,
        f"{first:04d}-01-01" if first is not None else None,
        f"{last:04d}-12-31" if last is not None else None,
    )
    hits = np.flatnonzero(keep & (score > 0))
    chosen = hits[np.lexsort((hits, -score[hits]))[offset : offset + top_k]].tolist()
    rows = {r["page_id"]: r for r in store.rows.pages(chosen)}
    wanted = set(ids)
    results = [_result(rows[p], float(score[p]), wanted, normaliser) for p in chosen]
    return LegacySearchResult(results, int(hits.size))


def _result(
    row: dict[str, Any], score: float, terms: set[str], normaliser: Normaliser
) -> dict[str, Any]:
    doc_id = legacy_doc_id(row["dataset"], row["document_id"])
    return {
        "id": f"{doc_id}#{row['page_num'] - 1}",
        "doc_id": doc_id,
        "dataset": row["dataset"],
        "page_num": row["page_num"] - 1,
        "score": round(score, 6),
        "name": row["title"],
        "url": row["url"],
        "company": company_of(row["fields"]),
        "year_decision": row["date"].year if row["date"] else None,
        "text": row["text"],
        "highlight": highlight(row["text"], terms, normaliser),
    }


def check_window(top_k: object, offset: object) -> tuple[int, int]:
    """`top_k` (1 to 100) and `offset` (at least 0)."""
    return check_int(top_k, "top_k", 1, LEGACY_TOP_K_MAX), check_int(offset, "offset", 0)


def contents(store: IndexStore, row: dict[str, Any], top_k: int, offset: int) -> ContentsResult:
    """`top_k` pages of a document from `offset`, 0-based."""
    total = int(row["page_count"])
    first, last = offset + 1, min(offset + top_k, total)
    pages = store.rows.page_range(row, first, last) if first <= last else []
    return ContentsResult(
        {
            "doc_id": legacy_doc_id(row["dataset"], row["document_id"]),
            "dataset": row["dataset"],
            "name": row["title"],
            "url": row["url"],
            "company": company_of(row["fields"]),
            "year_decision": row["date"].year if row["date"] else None,
            "pages": [{"page_num": n - 1, "text": t} for n, t in pages],
            "total_pages": total,
        }
    )
