"""The index: built from the corpus's shards, read by the search.

    build        segments written from the shards, merged, kept up to date (`build_index`...)
    segments     one immutable segment: terms, postings, skip entries, page and document rows
    checksums    each segment file's size and sha256, checked at open (sizes) and in full
    health       the damaged segments of an index (`regnb index --check`) and their repair
    store        `IndexStore`: one snapshot of the live segments: terms, per-page arrays, readers
    postings     `PostingReader`: a query's postings as candidate pages, pruned by the search
    rows         `RowReader`: page texts, page and document rows, embeddings, phrases on the pages
    fields       `FieldReader`: filters, catalog fields and identifiers (DuckDB)
    kernels      the compiled reads of a segment's postings (numba)
    bm25         the one BM25 formula, and its bounds
    published    an index published beside a corpus on object storage, and its download
    identifiers  identifiers and their kinds, indexed as single terms
    current      `CorpusIndex`: the corpus folder, its catalog and its current store
    statistics   how common words are, and each dataset's boilerplate sentences
    arrays       small helpers the store and its readers share
    ray          segment builds on a Ray cluster

The index imports neither the search, the engine nor a front end (`.importlinter`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regnb._compat import exports

if TYPE_CHECKING:
    from regnb.index.build import (
        COMMON_FILE,
        INDEX_VERSION,
        IndexFiles,
        IndexState,
        add_blocks,
        bm25_from_norms,
        bm25_norms,
        bm25_weight,
        bm25_weights,
        build_index,
        ensure_index,
        merge,
        merge_index,
        merge_runs,
        needs_merge,
        publish,
        update,
        update_index,
    )

__all__ = [
    "COMMON_FILE",
    "INDEX_VERSION",
    "IndexFiles",
    "IndexState",
    "add_blocks",
    "bm25_from_norms",
    "bm25_norms",
    "bm25_weight",
    "bm25_weights",
    "build_index",
    "ensure_index",
    "merge",
    "merge_index",
    "merge_runs",
    "needs_merge",
    "publish",
    "update",
    "update_index",
]

__getattr__ = exports(__name__, dict.fromkeys(__all__, "build"))
