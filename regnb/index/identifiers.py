"""Identifiers at index time: the postings of the FEI, application, 510(k), PMA, De Novo, NCT and
product code numbers (`regnb.ids`) a batch of pages holds, and a table of each document's
identifiers, for its firm (`regnb.firms.timeline`).

A page's identifiers become terms `fei:3000975914`, `nda:021164` (`regnb.ids.index_terms`),
outside its BM25 length, as CFR citations do. A document's catalog fields (`fei_number`,
`application_number`...) give terms too, posted on its first page. Only the pages and records a
vectorised first pass finds (`regnb.ids.candidates`) are read with the regular expressions.

    identifiers table     doc_row, kind, value (normal form: `FEI 3000975914`, `NDA 021164`),
                          page_num (the first page holding it; 0: a catalog field)
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from regnb import ids

__all__ = ["IDENTIFIER_SCHEMA", "POSTING_SCHEMA", "identifier_tables"]

POSTING_SCHEMA = pa.schema([("page_id", pa.int32()), ("term", pa.string()), ("tf", pa.int32())])
IDENTIFIER_SCHEMA = pa.schema(
    [
        ("doc_row", pa.int32()),
        ("kind", pa.string()),
        ("value", pa.string()),
        ("page_num", pa.int32()),
    ]
)
# The catalog fields `regnb.ids.field_identifiers` reads, as they appear in a record's JSON.
_FIELDS = "|".join(ids.IDENTIFIER_FIELDS)
_HAS_FIELD = rf'"(?:{_FIELDS})":'


def _field_candidates(fields: pa.ChunkedArray | pa.Array) -> np.ndarray:
    hit = pc.match_substring_regex(fields, _HAS_FIELD).fill_null(False)
    return np.flatnonzero(np.asarray(hit.to_numpy(zero_copy_only=False), bool))


def identifier_tables(docs: pa.Table, pages: pa.Table) -> tuple[pa.Table, pa.Table]:
    """(postings: page_id, term, tf; identifiers: doc_row, kind, value, page_num) of a batch of
    documents (`fields` as JSON, `first_page_id` local) and their pages (`doc_row`, `page_num`,
    `text`; local page id = row)."""
    tf: Counter[tuple[int, str]] = Counter()
    found: dict[tuple[int, str, str], int] = {}  # (doc_row, kind, value): first page
    texts = pages.column("text")
    marked = ids.candidates(texts)
    kinds = np.stack([marked[k] for k in ids.KINDS], axis=1)
    at = np.flatnonzero(kinds.any(axis=1))
    doc_rows = pages.column("doc_row").take(pa.array(at)).to_pylist()
    page_nums = pages.column("page_num").take(pa.array(at)).to_pylist()
    for page_id, doc, num, page in zip(
        at.tolist(), doc_rows, page_nums, texts.take(pa.array(at)).to_pylist(), strict=True
    ):
        held = [k for k, has in zip(ids.KINDS, kinds[page_id], strict=True) if has]
        for identifier in ids.identifiers(page, held):
            tf.update((page_id, term) for term in identifier.terms)
            key = (doc, identifier.kind, identifier.value)
            found[key] = min(found.get(key, num), num)
    fields = docs.column("fields")
    chosen = _field_candidates(fields)
    firsts = docs.column("first_page_id").take(pa.array(chosen)).to_pylist()
    counts = docs.column("page_count").take(pa.array(chosen)).to_pylist()
    raw = fields.take(pa.array(chosen)).to_pylist()
    for doc, first, count, record in zip(chosen.tolist(), firsts, counts, raw, strict=True):
        for identifier in ids.field_identifiers(json.loads(record)):
            if count:
                tf.update((first, term) for term in identifier.terms)
            found[(doc, identifier.kind, identifier.value)] = 0
    postings = pa.table(
        {
            "page_id": pa.array([p for p, _ in tf], pa.int32()),
            "term": pa.array([t for _, t in tf], pa.string()),
            "tf": pa.array(list(tf.values()), pa.int32()),
        },
        schema=POSTING_SCHEMA,
    )
    table = pa.table(
        {
            "doc_row": pa.array([d for d, _, _ in found], pa.int32()),
            "kind": pa.array([k for _, k, _ in found], pa.string()),
            "value": pa.array([v for _, _, v in found], pa.string()),
            "page_num": pa.array(list(found.values()), pa.int32()),
        },
        schema=IDENTIFIER_SCHEMA,
    )
    return postings, table
