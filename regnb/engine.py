"""The engine: one corpus, its catalog and index; every public operation goes through here."""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from regnb import legacy, shards
from regnb.catalog import Catalog, load_catalog
from regnb.client.paging import PagingMethods
from regnb.conversation import ConversationMethods
from regnb.conversations.local import LocalConversations
from regnb.encoder import Encoder, MiniLMEncoder, bulk_encoder, default_encoder
from regnb.errors import CorpusError, Forbidden, InvalidRequest, NotFound
from regnb.index import ensure_index
from regnb.request import SearchRequest
from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult
from regnb.search import Searcher
from regnb.settings import Settings
from regnb.store import IndexStore
from regnb.text import Normaliser
from regnb.validate import check_int, check_plan, search_request, spec_arguments

__all__ = ["Engine", "demo_corpus_path"]

COMMON_SAMPLE = 2_000  # documents read per dataset to find its common sentences
COMMON_PAGES = 20  # ... and pages read per document
COMMON_FILE = "common_sentences.json"


def demo_corpus_path() -> Path:
    """The demo corpus: shipped inside the wheel, or `data/demo` of a source checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_demo_corpus", here.parent / "data" / "demo"):
        if (candidate / shards.MANIFEST).exists():
            return candidate
    raise CorpusError(
        "the demo corpus is not installed; build it with: python data/demogen --out data/demo"
    )


class Engine(LocalConversations, ConversationMethods, PagingMethods):
    """Search, read and list one corpus, and hold research conversations over it.
    Open it with `regnb.open()`; it implements `regnb.interface.EngineAPI`."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        plan: str = "enterprise",
        encoder: Encoder | None = None,
        settings: Settings | None = None,
        progress: bool = True,
    ) -> None:
        self.settings = settings or Settings.from_env()
        self.path = Path(path).expanduser() if path is not None else demo_corpus_path()
        self.plan = check_plan(plan)
        self.catalog: Catalog = load_catalog(self.path)
        files = ensure_index(
            self.path,
            self.catalog,
            self.settings.index_dir,
            progress=progress,
            threads=self.settings.threads,
        )
        self.store = IndexStore(files, threads=self.settings.threads)
        self._encoder = encoder
        self._given_encoder = encoder is not None
        if encoder is not None:
            self._check_encoder(encoder)
        elif MiniLMEncoder.name != self.store.encoder_name:
            self._check_encoder(MiniLMEncoder)  # type: ignore[arg-type]  # without loading it
        self.normaliser = Normaliser()
        self._query_cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._common: dict[str, frozenset[str]] = {}
        self._common_lock = threading.Lock()
        self.searcher = Searcher(
            self.store,
            self.catalog,
            self.embed_query,
            budget=self.settings.page_budget,
            cap=self.settings.match_count_cap,
            timeout_s=self.settings.search_timeout_s,
            similarity_weight=self.settings.similarity_weight,
        )

    def close(self) -> None:
        self.close_conversations()
        self.searcher.close()
        self.store.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<regnb.Engine {self.path} plan={self.plan}>"

    def _check_encoder(self, encoder: Encoder) -> None:
        if encoder.name != self.store.encoder_name:
            raise InvalidRequest(
                f"the corpus at {self.path} was embedded with {self.store.encoder_name}; "
                f"it cannot be searched with {encoder.name}: open it with the encoder it was "
                "embedded with",
                field="encoder",
            )

    @property
    def encoder(self) -> Encoder:
        """The query encoder (the corpus's model unless one was given), loaded on first use."""
        if self._encoder is None:
            encoder = default_encoder()
            self._check_encoder(encoder)
            self._encoder = encoder
        return self._encoder

    def embed_query(self, text: str) -> np.ndarray:
        """The query's embedding, from a bounded in-memory cache."""
        with self._cache_lock:
            if text in self._query_cache:
                self._query_cache.move_to_end(text)
                return self._query_cache[text]
        vector = self.encoder.encode([text])[0]
        with self._cache_lock:
            self._query_cache[text] = vector
            while len(self._query_cache) > self.settings.query_cache_size:
                self._query_cache.popitem(last=False)
        return vector

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts` with the corpus's encoder (rows L2-normalised, float32); bulk
        work runs on a session of its own, apart from the queries'."""
        if not texts:
            return np.zeros((0, self.store.dim), dtype=np.float32)
        if self._given_encoder or self.store.encoder_name != MiniLMEncoder.name:
            return self.encoder.encode(list(texts))
        return bulk_encoder().encode(list(texts))

    def document_frequency(self, words: Sequence[str]) -> dict[str, float]:
        """For each word, the share of the corpus's pages that hold it (after the index's
        normalisation); stop words and words the corpus lacks give 0.0."""
        mapping = self.normaliser.word_terms(list(words))
        df = self.store.term_df(sorted({t for t in mapping.values() if t}))
        n = max(self.store.n_pages, 1)
        return {w: df.get(mapping.get(w.lower()) or "", 0) / n for w in words}

    def common_sentences(self, dataset: str) -> frozenset[str]:
        """Keys (`furniture.sentence_key`) of the sentences whose near-copies are in a large
        share of a dataset's documents: furniture whatever their words. Found once per index
        from a fixed sample of the dataset, kept in memory and in the index folder."""
        with self._common_lock:
            if dataset not in self._common:
                self._common[dataset] = self._load_common(dataset)
            return self._common[dataset]

    def _load_common(self, dataset: str) -> frozenset[str]:
        from regnb.agent.furniture import common_sentences

        path = self.index_path / COMMON_FILE
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

    @spec_arguments
    def check_search(
        self,
        keywords: Sequence[str] | str,
        query: str | None = None,
        *,
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        limit: int = 20,
        offset: int = 0,
        plan: str | None = None,
    ) -> SearchRequest:
        """A search checked once against the catalog; raises the spec's 400 errors."""
        if isinstance(keywords, str):
            keywords = [keywords]
        return search_request(
            self.catalog,
            self.normaliser.terms,
            {
                "keywords": keywords,
                "query": query,
                "datasets": datasets,
                "filters": filters,
                "date_from": date_from,
                "date_to": date_to,
                "limit": limit,
                "offset": offset,
                "plan": self.plan if plan is None else plan,
            },
        )

    @spec_arguments
    def search(
        self,
        keywords: Sequence[str] | str | SearchRequest,
        query: str | None = None,
        *,
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        limit: int = 20,
        offset: int = 0,
        plan: str | None = None,
    ) -> SearchResult:
        """v3 search: documents best first, each with up to 3 of its best matching pages.

        `keywords` are alternatives; every word of one item must match a page. A request
        checked before (`check_search`) runs as it is."""
        if isinstance(keywords, SearchRequest):
            return self.searcher.run(keywords)
        req = self.check_search(
            keywords,
            query,
            datasets=datasets,
            filters=filters,
            date_from=date_from,
            date_to=date_to,
            limit=limit,
            offset=offset,
            plan=plan,
        )
        return self.searcher.run(req)

    def _document(self, document_id: object, plan: str | None) -> dict[str, Any]:
        if not isinstance(document_id, str) or not document_id:
            raise InvalidRequest("document_id must be a non-empty string", field="document_id")
        row = self.store.document(document_id)
        if row is None:
            raise NotFound(f"no document {document_id!r}", field="document_id")
        dataset = self.catalog[row["dataset"]]
        if not dataset.open_to(check_plan(self.plan if plan is None else plan)):
            raise Forbidden(f"{dataset.id} needs an enterprise plan", field="document_id")
        return row

    @spec_arguments
    def read(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead:
        """Pages `page_from`..`page_to` of a document (at most 100 pages or 2 MB a response)."""
        page_from = check_int(page_from, "page_from", 1)
        if page_to is not None:
            page_to = check_int(page_to, "page_to", 1)
            if page_to < page_from:
                raise InvalidRequest(
                    f"page_to {page_to} is before page_from {page_from}", field="page_to"
                )
        row = self._document(document_id, plan)
        total = int(row["page_count"])
        last = min(total, page_to or total, page_from + self.settings.read_max_pages - 1)
        pages: list[tuple[int, str]] = []
        size = 0
        for num, text in self.store.page_range(row, page_from, last) if page_from <= last else []:
            nbytes = len(text.encode("utf-8"))
            if pages and size + nbytes > self.settings.read_max_bytes:
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
        )

    @property
    def index_path(self) -> Path:
        """The folder of this corpus version's index (under REGNB_HOME/index/)."""
        return self.store.files.folder

    def counts(self) -> pd.DataFrame:
        """Documents and pages per dataset of the corpus, in catalog order."""
        found = self.store.counts()
        rows = [(d, *found[d]) for d in self.catalog.ids if d in found]
        frame = pd.DataFrame(rows, columns=["dataset", "documents", "pages"])
        return frame.astype({"documents": "Int64", "pages": "Int64"})

    def datasets(self, refresh: bool = False) -> Catalog:
        """The catalog: `.to_frame()` for a DataFrame, `.to_dict()` for the spec's response.
        `refresh` is the interface's (a client's copy is fetched again): a local engine's catalog
        is always its own current one."""
        return self.catalog

    def legacy_search(
        self,
        query_text: str,
        top_k: int = 20,
        offset: int = 0,
        *,
        dataset_to_search: Sequence[str] | None = None,
        year_from: int | None = None,
        year_to: int | None = None,
        plan: str | None = None,
    ) -> LegacySearchResult:
        """Page-level BM25 over every page; 0-based `page_num`, `<b>` highlights."""
        legacy.check_query_text(query_text)
        datasets = legacy.check_datasets(
            self.catalog, dataset_to_search, check_plan(plan or self.plan)
        )
        return legacy.search(
            self.store, self.normaliser, query_text, top_k, offset, datasets, year_from, year_to
        )

    def legacy_contents(
        self, doc_id: str, top_k: int = 10, offset: int = 0, *, plan: str | None = None
    ) -> ContentsResult:
        """Pages of a document by `doc_id` (relative path or URL form), 0-based page numbers."""
        if not isinstance(doc_id, str) or not doc_id.strip():
            raise InvalidRequest("doc_id must be a non-empty string", field="doc_id")
        top_k, offset = legacy.check_window(top_k, offset)
        dataset, document_id = legacy.parse_doc_id(doc_id)
        row = self.store.document(document_id)
        if row is None or (dataset is not None and row["dataset"] != dataset):
            row = self.store.document_by_url(doc_id.strip())
        if row is None:
            raise NotFound(f"document not found: {doc_id}", field="doc_id")
        return legacy.contents(self.store, self._document(row["document_id"], plan), top_k, offset)
