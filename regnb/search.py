"""The v3 search procedure: match per dataset (loosening when nothing matches), share the page
budget, rank by meaning or BM25, group pages into documents, slice."""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import duckdb
import numpy as np

from regnb.budget import split_budget
from regnb.catalog import Catalog
from regnb.errors import RankingFailed
from regnb.matching import Candidates, QueryPostings
from regnb.results import SearchResult
from regnb.store import DocFilter, IndexStore
from regnb.validate import SearchRequest

__all__ = ["LOOSEN_FRACTION", "PAGES_PER_DOCUMENT", "Searcher", "blend", "loosen_needs"]

log = logging.getLogger("regnb.search")

LOOSEN_FRACTION = 0.4
PAGES_PER_DOCUMENT = 3
DATE_KINDS = ("date_from", "date_to")
SIMILARITY_WEIGHT = 0.7


def loosen_needs(sizes: list[int], level: int) -> list[int]:
    """Words a page must hold per item: all (level 0), at least 40% (level 1), any (level 2)."""
    if level == 0:
        return list(sizes)
    if level == 1:
        return [max(1, math.ceil(LOOSEN_FRACTION * n)) for n in sizes]
    return [1 for _ in sizes]


def blend(cosine: np.ndarray, bm25: np.ndarray, weight: float = SIMILARITY_WEIGHT) -> np.ndarray:
    """One similarity scale for every dataset of a search: the cosine blended with the keyword
    evidence normalised by the best BM25 among the ranked pages."""
    top = float(bm25.max()) if bm25.size else 0.0
    evidence = bm25 / top if top > 0 else np.zeros_like(bm25)
    return weight * cosine + (1.0 - weight) * evidence


@dataclass
class DatasetRun:
    """One dataset's matching, as the worker saw it."""

    candidates: Candidates | None = None
    loosened: bool = False
    error: str | None = None
    cursor: duckdb.DuckDBPyConnection | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)


class Searcher:
    """Runs searches over one index; datasets are matched in parallel under one deadline."""

    def __init__(
        self,
        store: IndexStore,
        catalog: Catalog,
        embed_query: Callable[[str], np.ndarray],
        *,
        budget: int,
        cap: int,
        timeout_s: float,
        similarity_weight: float = SIMILARITY_WEIGHT,
        workers: int = 4,
    ) -> None:
        self.store, self.catalog, self.embed_query = store, catalog, embed_query
        self.similarity_weight = similarity_weight
        self.budget, self.cap, self.timeout_s = budget, cap, timeout_s
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="regnb-match")

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def run(self, req: SearchRequest, term_items: list[list[str]]) -> SearchResult:
        started = time.perf_counter()
        deadline = started + self.timeout_s
        statuses, runnable = self._statuses(req)
        ids = self.store.term_ids(sorted({t for item in term_items for t in item}))
        items = [[ids[t] for t in dict.fromkeys(item) if t in ids] for item in term_items]
        sizes = [len(set(item)) for item in term_items]
        runs = self._match_all(req, runnable, items, sizes, deadline)
        full, loose = {}, {}
        for ds, run in runs.items():
            if run.error is not None:
                statuses[ds] = {"status": run.error}
            elif run.candidates is None or not run.candidates.page_ids:
                statuses[ds] = {"status": "no_match"}
            elif run.loosened:
                loose[ds] = len(run.candidates.page_ids)
            else:
                full[ds] = (run.candidates.matches, len(run.candidates.page_ids))
        shares = split_budget(self.budget, full, loose)
        pages: list[tuple[int, float, str]] = []
        for ds, n in shares.items():
            cand = runs[ds].candidates
            assert cand is not None
            pages += [(p, s, ds) for p, s in zip(cand.page_ids[:n], cand.scores[:n], strict=True)]
            statuses[ds] = {
                "status": "ok",
                "matches": 0 if ds in loose else cand.matches,
                "pages": n,
            }
            if ds in loose:
                statuses[ds]["loosened"] = True
        matched_at = time.perf_counter()
        ranking = "bm25" if len(req.datasets) == 1 and req.query is None else "similarity"
        scores = self._rank(req, pages, ranking)
        result = self._group(req, pages, scores, set(loose), statuses, ranking)
        result.timings = {
            "match_ms": (matched_at - started) * 1000,
            "total_ms": (time.perf_counter() - started) * 1000,
        }
        return result

    def _statuses(self, req: SearchRequest) -> tuple[dict[str, dict[str, Any]], list[str]]:
        statuses: dict[str, dict[str, Any]] = {}
        runnable = []
        for ds in req.datasets:
            entry = self.catalog[ds]
            if not entry.available:
                statuses[ds] = {"status": "not_available"}
            elif entry.enterprise and req.plan != "enterprise":
                statuses[ds] = {"status": "forbidden"}
            elif req.dated and entry.date_field is None:
                statuses[ds] = {"status": "skipped", "reason": "no date field"}
            else:
                statuses[ds] = {"status": "no_match"}
                runnable.append(ds)
        return statuses, runnable

    def _match_all(
        self,
        req: SearchRequest,
        datasets: list[str],
        items: list[list[int]],
        sizes: list[int],
        deadline: float,
    ) -> dict[str, DatasetRun]:
        runs = {ds: DatasetRun() for ds in datasets}
        if not datasets:
            return runs
        cursor = self.store.cursor()
        watchdog = threading.Timer(max(deadline - time.perf_counter(), 0), cursor.interrupt)
        watchdog.start()
        try:
            post = self.store.postings(cursor, [t for item in items for t in item])
            post.prepare(items)
        except duckdb.InterruptException:
            for run in runs.values():
                run.error = "timeout"
            return runs
        finally:
            watchdog.cancel()
        # Filters run SQL, which can be slow on a large dataset: those datasets run in worker
        # threads under the deadline. The others are bounded numpy work over arrays in hand.
        queried = [
            ds for ds in datasets if any(f.kind not in DATE_KINDS for f in req.filters.get(ds, []))
        ]
        futures: dict[Future[None], str] = {
            self._pool.submit(self._match_one, req, ds, post, items, sizes, runs[ds]): ds
            for ds in queried
        }
        for ds in datasets:
            if ds in queried:
                continue
            if time.perf_counter() > deadline:
                runs[ds].error = "timeout"
                continue
            try:
                self._match_one(req, ds, post, items, sizes, runs[ds])
            except Exception:
                log.exception("dataset %s failed", ds)
                runs[ds].error = "error"
        done, pending = wait(futures, timeout=max(deadline - time.perf_counter(), 0))
        for future in pending:
            run = runs[futures[future]]
            run.cancelled.set()
            run.error = "timeout"
            if run.cursor is not None:
                run.cursor.interrupt()
            future.cancel()
        for future in done:
            run = runs[futures[future]]
            if future.exception() is not None and run.error is None:
                log.error("dataset %s failed", futures[future], exc_info=future.exception())
                run.error = "error"
        return runs

    def _match_one(
        self,
        req: SearchRequest,
        ds: str,
        post: QueryPostings,
        items: list[list[int]],
        sizes: list[int],
        run: DatasetRun,
    ) -> None:
        filters = list(req.filters.get(ds, []))
        cursor = self.store.cursor() if any(f.kind not in DATE_KINDS for f in filters) else None
        run.cursor = cursor
        date_field = self.catalog[ds].date_field
        if req.date_from:
            filters.append(DocFilter("date_from", date_field or "date", req.date_from))
        if req.date_to:
            filters.append(DocFilter("date_to", date_field or "date", req.date_to))
        allowed = self.store.allowed(cursor, ds, filters) if ds in self.store.ranges else None
        levels = [0, 1, 2] if any(n > 1 for n in sizes) else [0]
        for level in levels:
            if run.cancelled.is_set():
                return
            cand = self.store.match(
                cursor,
                ds,
                post,
                items,
                loosen_needs(sizes, level),
                allowed,
                limit=self.budget,
                cap=self.cap,
            )
            if cand.page_ids:
                run.candidates, run.loosened = cand, level > 0
                return
        run.candidates = Candidates(0, [], [])

    def _rank(
        self, req: SearchRequest, pages: list[tuple[int, float, str]], ranking: str
    ) -> np.ndarray:
        bm25 = np.array([s for _, s, _ in pages], dtype=np.float32)
        if ranking == "bm25" or not pages:
            return bm25
        text = req.query or ", ".join(req.keywords)
        try:
            vector = self.embed_query(text)
        except Exception as exc:
            raise RankingFailed(f"ranking failed: the query could not be embedded ({exc})") from exc
        page_ids = np.array([p for p, _, _ in pages], dtype=np.int64)
        order = np.argsort(page_ids)
        matrix = np.empty((len(pages), self.store.dim), dtype=np.float32)
        matrix[order] = self.store.embeddings[page_ids[order]]
        return blend(matrix @ vector.astype(np.float32), bm25, self.similarity_weight)

    def _group(
        self,
        req: SearchRequest,
        pages: list[tuple[int, float, str]],
        scores: np.ndarray,
        loosened: set[str],
        statuses: dict[str, dict[str, Any]],
        ranking: str,
    ) -> SearchResult:
        doc_of = self.store.doc_rows([p for p, _, _ in pages])
        grouped: dict[int, list[tuple[float, int]]] = {}
        dataset_of: dict[int, str] = {}
        for (page_id, _, ds), score in zip(pages, scores.tolist(), strict=True):
            doc = doc_of[page_id]
            grouped.setdefault(doc, []).append((score, page_id))
            dataset_of[doc] = ds
        for hits in grouped.values():
            hits.sort(key=lambda h: (-h[0], h[1]))
        order = sorted(
            grouped, key=lambda d: (dataset_of[d] in loosened, -grouped[d][0][0], grouped[d][0][1])
        )
        total = len(order)
        window = order[req.offset : req.offset + req.limit]
        shown = [pid for d in window for _, pid in grouped[d][:PAGES_PER_DOCUMENT]]
        rows = {r["page_id"]: r for r in self.store.pages(shown)}
        results = []
        for doc in window:
            hits = grouped[doc]
            first = rows[hits[0][1]]
            dataset = self.catalog[first["dataset"]]
            fields = {f: first["fields"].get(f) for f in dataset.fields}
            date = fields.get(dataset.date_field) if dataset.date_field else None
            results.append(
                {
                    "document_id": first["document_id"],
                    "dataset": first["dataset"],
                    "title": first["title"],
                    "date": date,
                    "url": first["url"],
                    "fields": fields,
                    "pages": [
                        {
                            "page_num": rows[p]["page_num"],
                            "score": round(float(s), 6),
                            "text": rows[p]["text"],
                        }
                        for s, p in hits[:PAGES_PER_DOCUMENT]
                    ],
                    "matched_pages": len(hits),
                }
            )
        end = req.offset + req.limit
        return SearchResult(
            results=results,
            dataset_statuses=statuses,
            total=total,
            next_offset=end if end < total else None,
            ranking=ranking,
        )
