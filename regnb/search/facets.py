"""Counts over every full match of a search: matching documents and pages per dataset, per year
or month of the date field, per value of a catalog field, per CFR section cited, per section of
a drug label (`regnb.documents.labels`).

Array work only: a facet is a code per document (or per (page, section) posting), and its counts
are `np.bincount`s over the codes of the matching documents. What belongs to the index (each
field's value codes, the pages citing each CFR section) is made once and kept on the store.
Values of a field or a CFR section are ordered by documents (most first), then value; past the
facet's `size` they are summed into one last row `(other)`, where a document counts once per
value it has. Years and months are a histogram: every period from the first to the last in
order, gaps included with zero counts, then `None` for undated documents if any.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from regnb.documents.cfr import CFR_PREFIX, term_value
from regnb.documents.labels import SECTION_PREFIX, term_section
from regnb.index.segments import NO_DATE
from regnb.index.store import IndexStore
from regnb.request import Facet
from regnb.results import FACET_OTHER

if TYPE_CHECKING:
    from regnb.search.procedure import FullMatches

__all__ = ["OTHER", "cfr_sections", "count_facets", "label_sections"]

OTHER = FACET_OTHER
CFR_TERMS_MAX = 200_000  # section terms read for the facet; more would be a broken index

Rows = list[dict[str, Any]]


def _rows(values: Sequence[Any], docs: np.ndarray, pages: np.ndarray) -> Rows:
    return [
        {"value": v, "documents": int(d), "pages": int(p)}
        for v, d, p in zip(values, docs.tolist(), pages.tolist(), strict=True)
    ]


def top_values(values: Sequence[str], docs: np.ndarray, pages: np.ndarray, size: int) -> Rows:
    """Values with at least one document, by documents (most first) then value; the first
    `size`, then the others summed as one `(other)` row."""
    present = np.flatnonzero(docs)
    if not present.size:
        return []
    names = np.asarray(values, dtype=object)[present]
    order = present[np.lexsort((names.astype(str), -docs[present]))]
    kept, rest = order[:size], order[size:]
    rows = _rows([values[i] for i in kept.tolist()], docs[kept], pages[kept])
    if rest.size:
        rows.append(
            {"value": OTHER, "documents": int(docs[rest].sum()), "pages": int(pages[rest].sum())}
        )
    return rows


def by_document(codes: np.ndarray, n: int, doc_pages: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(documents, pages) per code 0..n-1: `codes[i]` is matching document i's code (-1:
    none), `doc_pages[i]` its matching pages."""
    keep = codes >= 0
    return (
        np.bincount(codes[keep], minlength=n).astype(np.int64),
        np.bincount(codes[keep], weights=doc_pages[keep], minlength=n).astype(np.int64),
    )


def periods(days: np.ndarray, unit: str) -> tuple[np.ndarray, list[str]]:
    """Each day's period (`Y` or `M`) as a code from the first period, and the periods' labels
    from first to last (`2021`, `2021-03`); undated days get -1."""
    dated = days != NO_DATE
    if not dated.any():
        return np.full(days.size, -1, np.int64), []
    stamps = days[dated].astype("datetime64[D]").astype(f"datetime64[{unit}]")
    index = stamps.astype(np.int64)
    low, high = int(index.min()), int(index.max())
    codes = np.full(days.size, -1, np.int64)
    codes[dated] = index - low
    labels = np.arange(low, high + 1).astype(f"datetime64[{unit}]").astype(str).tolist()
    return codes, labels


def cfr_sections(store: IndexStore) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The CFR sections cited in the index (`21 CFR 211.113`), and the pages citing them: (the
    sections, page ids, section codes), one row per (page, section); kept on the store."""

    def terms() -> dict[str, int]:
        found, _ = store.prefix_terms(CFR_PREFIX, CFR_TERMS_MAX)
        return {t: i for t, i in found.items() if "." in t}

    names, pages, codes = store.fields.cached_term_pages("cfr-sections", terms)
    return [term_value(t) for t in names], pages, codes


def label_sections(store: IndexStore) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The label sections in the index ("boxed warning") and their pages: (the sections, page
    ids, section codes), one row per page; kept on the store."""

    def terms() -> dict[str, int]:
        found, _ = store.prefix_terms(SECTION_PREFIX, CFR_TERMS_MAX)
        return dict(found)

    names, pages, codes = store.fields.cached_term_pages("label-sections", terms)
    return [term_section(t) for t in names], pages, codes


def count_terms(
    store: IndexStore, pages: np.ndarray, size: int, terms: tuple[list[str], np.ndarray, np.ndarray]
) -> Rows:
    """Documents and pages per value of a facet read from postings (`terms`: the values, and
    their pages and value codes, one row per (page, value): `cfr_sections`, `label_sections`)."""
    names, cited, codes = terms
    if not names or not pages.size:
        return []
    hit = np.zeros(store.page_space, bool)
    hit[pages] = True
    mine = hit[cited]
    codes = codes[mine].astype(np.int64)
    page_counts = np.bincount(codes, minlength=len(names))
    pairs = np.unique(store.page_doc[cited[mine]].astype(np.int64) * len(names) + codes)
    doc_counts = np.bincount(pairs % len(names), minlength=len(names))
    return top_values(names, doc_counts, page_counts, size)


def documents_of(page_docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct documents of pages in page order (a document's pages are adjacent, so its
    rows ascend with them) and how many of the pages each has."""
    if not page_docs.size:
        return page_docs.astype(np.int64), np.zeros(0, np.int64)
    start = np.flatnonzero(np.concatenate([[True], page_docs[1:] != page_docs[:-1]]))
    return page_docs[start].astype(np.int64), np.diff(np.append(start, page_docs.size))


def count_facets(
    store: IndexStore, matches: FullMatches, facets: Sequence[Facet]
) -> dict[str, Rows]:
    """Each facet's rows (`value`, `documents`, `pages`) over the full matches."""
    pages = matches.pages
    docs, doc_pages = documents_of(store.page_doc[pages])
    out: dict[str, Rows] = {}
    for facet in facets:
        if facet.name in ("cfr", "section"):
            terms = cfr_sections(store) if facet.name == "cfr" else label_sections(store)
            out[facet.name] = count_terms(store, pages, facet.size, terms)
        elif facet.name in ("year", "month"):
            codes, labels = periods(store.doc_day[docs], "Y" if facet.name == "year" else "M")
            n_docs, n_pages = by_document(codes, len(labels), doc_pages)
            rows = _rows(labels, n_docs, n_pages)
            undated = codes < 0
            if undated.any():
                rows.append(
                    {
                        "value": None,
                        "documents": int(undated.sum()),
                        "pages": int(doc_pages[undated].sum()),
                    }
                )
            out[facet.name] = rows
        elif facet.name == "dataset":
            names = sorted(store.dataset_codes, key=store.dataset_codes.__getitem__)
            codes = store.doc_ds[docs].astype(np.int64)
            n_docs, n_pages = by_document(codes, len(names), doc_pages)
            out[facet.name] = top_values(names, n_docs, n_pages, len(names))
        else:
            field_codes, values = store.fields.field_codes(facet.name)
            codes = field_codes[docs].astype(np.int64)
            n_docs, n_pages = by_document(codes, len(values), doc_pages)
            out[facet.name] = top_values(values, n_docs, n_pages, facet.size)
    return out
