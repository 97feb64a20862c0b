"""What the research agent asks of a corpus besides search and read: how common words are, and
which sentences are boilerplate in a dataset.

A dataset's common sentences come from a fixed sample of its documents, which a day's additions
hardly change: they are kept in the index folder (a file the index's writers keep) with the
dataset's live documents when they were found, and found again only once the dataset's documents
have changed by more than `COMMON_REUSE_CHANGE`."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

from regnb.index.build import COMMON_FILE
from regnb.index.store import IndexStore
from regnb.text import Normaliser

__all__ = ["COMMON_FILE", "CorpusStatistics"]

COMMON_SAMPLE = 2_000  # documents read per dataset to find its common sentences
COMMON_PAGES = 20  # ... and pages read per document
COMMON_REUSE_CHANGE = (
    0.1  # share of a dataset's documents added or removed before it is found again
)


COUNTS_KEY = "_documents"  # in the file beside the datasets' keys: their live documents then


def _reusable(stored: dict[str, Any], dataset: str, docs: int) -> bool:
    """Whether the stored common sentences of a dataset still describe it at `docs` live
    documents (stored without a count: kept as they are)."""
    if not isinstance(stored.get(dataset), list):
        return False
    counts = stored.get(COUNTS_KEY)
    then = counts.get(dataset) if isinstance(counts, dict) else None
    if not isinstance(then, int):
        return True
    return abs(docs - then) <= COMMON_REUSE_CHANGE * max(then, 1)


class CorpusStatistics:
    """Word frequencies and common sentences of one index (its current snapshot, from
    `stores`); the common sentences are kept in memory and in the index folder."""

    def __init__(self, stores: Callable[[], IndexStore], normaliser: Normaliser) -> None:
        self._stores, self.normaliser = stores, normaliser
        self._common: dict[str, tuple[int, frozenset[str]]] = {}  # dataset: (generation, keys)
        self._lock = threading.Lock()

    def document_frequency(self, words: Sequence[str]) -> dict[str, float]:
        """For each word, the share of the corpus's pages that hold it (after the index's
        normalisation); stop words and words the corpus lacks give 0.0."""
        store = self.store
        mapping = self.normaliser.word_terms(list(words))
        df = store.term_df(sorted({t for t in mapping.values() if t}))
        n = max(store.n_pages, 1)
        return {w: df.get(mapping.get(w.lower()) or "", 0) / n for w in words}

    @property
    def store(self) -> IndexStore:
        return self._stores()

    def common_sentences(self, dataset: str) -> frozenset[str]:
        """Keys (`furniture.sentence_key`) of the sentences whose near-copies are in a large
        share of a dataset's documents, found from a fixed sample once per index and again when
        the dataset has changed much since."""
        store = self.store
        with self._lock:
            held = self._common.get(dataset)
            if held is None or held[0] != store.state.generation:
                held = (store.state.generation, self._load_common(store, dataset))
                self._common[dataset] = held
            return held[1]

    def _load_common(self, store: IndexStore, dataset: str) -> frozenset[str]:
        from regnb.documents.furniture import common_sentences

        path = store.files.folder / COMMON_FILE
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = {}
        if not isinstance(stored, dict):
            stored = {}
        docs = store.rows.counts().get(dataset, (0, 0))[0]
        if _reusable(stored, dataset, docs):
            return frozenset(stored[dataset])
        found = common_sentences(
            store.rows.sample_documents(dataset, COMMON_SAMPLE, pages=COMMON_PAGES)
        )
        stored[dataset] = sorted(found)
        counts = stored.get(COUNTS_KEY)
        stored[COUNTS_KEY] = {**(counts if isinstance(counts, dict) else {}), dataset: docs}
        tmp = path.with_name(f".{COMMON_FILE}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            tmp.write_text(json.dumps(stored, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)  # a read-only index: kept in memory only
        return found
