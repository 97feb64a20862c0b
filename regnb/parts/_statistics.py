"""What the research agent asks of a corpus besides search and read: how common words are, and
which sentences are boilerplate in a dataset."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence

from regnb.store import IndexStore
from regnb.text import Normaliser

__all__ = ["COMMON_FILE", "CorpusStatistics"]

COMMON_SAMPLE = 2_000  # documents read per dataset to find its common sentences
COMMON_PAGES = 20  # ... and pages read per document
COMMON_FILE = "common_sentences.json"


class CorpusStatistics:
    """Word frequencies and common sentences of one index; the common sentences are kept in
    memory and in the index folder."""

    def __init__(self, store: IndexStore, normaliser: Normaliser) -> None:
        self.store, self.normaliser = store, normaliser
        self._common: dict[str, frozenset[str]] = {}
        self._lock = threading.Lock()

    def document_frequency(self, words: Sequence[str]) -> dict[str, float]:
        """For each word, the share of the corpus's pages that hold it (after the index's
        normalisation); stop words and words the corpus lacks give 0.0."""
        mapping = self.normaliser.word_terms(list(words))
        df = self.store.term_df(sorted({t for t in mapping.values() if t}))
        n = max(self.store.n_pages, 1)
        return {w: df.get(mapping.get(w.lower()) or "", 0) / n for w in words}

    def common_sentences(self, dataset: str) -> frozenset[str]:
        """Keys (`furniture.sentence_key`) of the sentences whose near-copies are in a large
        share of a dataset's documents, found once per index from a fixed sample."""
        with self._lock:
            if dataset not in self._common:
                self._common[dataset] = self._load_common(dataset)
            return self._common[dataset]

    def _load_common(self, dataset: str) -> frozenset[str]:
        from regnb.agent.furniture import common_sentences

        path = self.store.files.folder / COMMON_FILE
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = {}
        if isinstance(stored.get(dataset), list):
            return frozenset(stored[dataset])
        found = common_sentences(
            self.store.sample_documents(dataset, COMMON_SAMPLE, pages=COMMON_PAGES)
        )
        stored[dataset] = sorted(found)
        tmp = path.with_name(f".{COMMON_FILE}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            tmp.write_text(json.dumps(stored, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)  # a read-only index: kept in memory only
        return found
