"""Terms a page holds that no word of it makes, read when the index is built: the section of
each page of a drug label (`section:boxed_warning`, `regnb.documents.labels`) and, on every
document's first page, `doc:first`, so that a search of catalog fields alone
(`company:"Hospira"`) has one page per document to match. Both are outside the page's BM25
length, as CFR citations are."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from regnb.documents.labels import LABEL_DATASETS, is_label, page_section, section_term
from regnb.query import FIRST_PAGE_TERM

__all__ = ["FIRST_PAGE", "first_page_postings", "section_postings"]

FIRST_PAGE = FIRST_PAGE_TERM
SCHEMA = pa.schema([("page_id", pa.int32()), ("term", pa.string()), ("tf", pa.int32())])


def _table(page_ids: list[int], terms: list[str]) -> pa.Table:
    return pa.table(
        {
            "page_id": pa.array(page_ids, pa.int32()),
            "term": pa.array(terms, pa.string()),
            "tf": pa.array(np.ones(len(terms), np.int32)),
        },
        schema=SCHEMA,
    )


def first_page_postings(docs: pa.Table) -> pa.Table:
    """`doc:first` on the first page (`first_page_id`, local) of every document with pages."""
    first = np.asarray(docs.column("first_page_id").to_numpy(zero_copy_only=False), np.int64)
    counts = np.asarray(docs.column("page_count").to_numpy(zero_copy_only=False), np.int64)
    ids = first[counts > 0].tolist()
    return _table(ids, [FIRST_PAGE] * len(ids))


def section_postings(docs: pa.Table, pages: pa.Table) -> pa.Table:
    """`section:<name>` on each page of a drug label (`regnb.documents.labels.is_label`) whose
    first line says its section. `docs`: `dataset`, `fields` (JSON), `first_page_id` (local),
    `page_count`; `pages`: `text` (local page id = row)."""
    datasets = docs.column("dataset")
    chosen = np.flatnonzero(
        np.asarray(pc.is_in(datasets, pa.array(sorted(LABEL_DATASETS))).to_numpy(), bool)
    )
    page_ids: list[int] = []
    terms: list[str] = []
    take = pa.array(chosen)
    for dataset, raw, first, count in zip(
        datasets.take(take).to_pylist(),
        docs.column("fields").take(take).to_pylist(),
        docs.column("first_page_id").take(take).to_pylist(),
        docs.column("page_count").take(take).to_pylist(),
        strict=True,
    ):
        if not count or not is_label(dataset, json.loads(raw or "{}")):
            continue
        texts = pages.column("text").slice(int(first), int(count)).to_pylist()
        for page_id, text in enumerate(texts, start=first):
            name = page_section(text or "")
            if name is not None:
                page_ids.append(page_id)
                terms.append(section_term(name))
    return _table(page_ids, terms)
