"""Page matching and BM25 scoring over the query's posting lists, in numpy.

The postings of a query's terms are read once per search. Counting (how many of an item's words
a page holds) and scoring (BM25 summed over the query's distinct terms) run over the candidate
pages (those holding at least one query term), not over the corpus: the postings are sorted
into candidates once (`np.unique`, or one pass over a page-id range where the postings are
nearly as many as the pages), and each dataset's candidates are one slice of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "Candidates",
    "PageTest",
    "QueryPostings",
    "best_candidates",
    "match_candidates",
    "matched_mask",
]

PageTest = Callable[[np.ndarray], np.ndarray]
"""Which of the given page ids pass a dataset's filters (a bool per page)."""

DENSE_RATIO = 8  # postings per page-id above which one pass over the page ids is cheaper


@dataclass
class Candidates:
    """A dataset's matching pages: how many (capped) and the best ones by BM25, best first."""

    matches: int
    page_ids: list[int]
    scores: list[float]


@dataclass
class QueryPostings:
    """The postings of a query's terms, one row per (page, term), and the dataset code of every
    page id (to split candidates by dataset)."""

    terms: np.ndarray
    pages: np.ndarray
    weights: np.ndarray
    n_pages: int
    page_ds: np.ndarray | None = None
    spans: dict[int, tuple[int, int]] | None = None  # term: its rows, where rows are by term
    _pages_sorted: np.ndarray | None = field(default=None, repr=False)
    _inverse: np.ndarray | None = field(default=None, repr=False)
    _cand_score: np.ndarray | None = field(default=None, repr=False)
    _counts: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict, repr=False)
    _by_ds: dict[int, np.ndarray] | None = field(default=None, repr=False)

    @property
    def score(self) -> np.ndarray:
        """BM25 of every page id over all the query's terms (0 where a page holds none)."""
        return np.bincount(self.pages, weights=self.weights, minlength=self.n_pages)

    @property
    def candidates(self) -> np.ndarray:
        """The pages holding at least one query term, ascending."""
        if self._pages_sorted is None:
            self._sort()
        assert self._pages_sorted is not None
        return self._pages_sorted

    def _sort(self) -> None:
        if self.pages.size * DENSE_RATIO > self.n_pages:
            present = np.zeros(self.n_pages, dtype=bool)
            present[self.pages] = True
            cands = np.flatnonzero(present)
            rank = np.empty(self.n_pages, dtype=np.int64)
            rank[cands] = np.arange(cands.size)
            inverse = rank[self.pages]
        else:
            cands, inverse = np.unique(self.pages, return_inverse=True)
        self._pages_sorted, self._inverse = cands, inverse.reshape(-1)

    @property
    def inverse(self) -> np.ndarray:
        """For each posting row, its page's index among the candidates."""
        if self._inverse is None:
            self._sort()
        assert self._inverse is not None
        return self._inverse

    @property
    def candidate_score(self) -> np.ndarray:
        """BM25 of each candidate (summed in postings order, as a dense count would)."""
        if self._cand_score is None:
            self._cand_score = np.bincount(
                self.inverse, weights=self.weights, minlength=self.candidates.size
            )
        return self._cand_score

    def counts(self, item: Sequence[int]) -> np.ndarray:
        """For every candidate, how many of the item's distinct terms it holds."""
        key = tuple(sorted(set(item)))
        if key not in self._counts:
            if self.spans is not None:  # each term's rows are one slice
                rows = [self.spans[t] for t in key if t in self.spans]
                hits = np.concatenate([self.inverse[a:b] for a, b in rows] or [np.zeros(0, int)])
            else:
                hits = self.inverse[np.isin(self.terms, np.asarray(key, dtype=self.terms.dtype))]
            self._counts[key] = np.bincount(hits, minlength=self.candidates.size).astype(np.int16)
        return self._counts[key]

    def in_dataset(self, code: int) -> np.ndarray:
        """Indices (ascending) of the candidates of one dataset."""
        if self._by_ds is None:
            self._by_ds = {}
            if self.page_ds is not None and self.candidates.size:
                codes = self.page_ds[self.candidates]
                order = np.argsort(codes, kind="stable")
                ordered = codes[order]
                bounds = np.flatnonzero(np.diff(ordered)) + 1
                for part in np.split(order, bounds):
                    self._by_ds[int(codes[part[0]])] = part
        return self._by_ds.get(code, np.empty(0, np.int64))

    def prepare(self, items: Sequence[Sequence[int]]) -> None:
        """Compute every array a search reads, before datasets are matched in parallel."""
        _ = self.candidate_score
        self.in_dataset(-1)
        for item in items:
            if item:
                self.counts(item)


def matched_mask(
    post: QueryPostings,
    idx: np.ndarray,
    items: Sequence[Sequence[int]],
    needs: Sequence[int],
    allowed: PageTest | None,
) -> np.ndarray:
    """Which of the candidates `idx` (indices into `post.candidates`) match: hold at least
    `needs[i]` of item i's terms for some i, and pass the filters (`allowed`). Ranking,
    counting and export all select pages with this one test."""
    matched = np.zeros(idx.size, dtype=bool)
    for item, need in zip(items, needs, strict=True):
        if item and need <= len(set(item)):
            matched |= post.counts(item)[idx] >= need
    if allowed is not None and matched.any():
        matched[matched] &= allowed(post.candidates[idx[matched]])
    return matched


def best_candidates(post: QueryPostings, chosen: np.ndarray, *, limit: int, cap: int) -> Candidates:
    """The best `limit` of the chosen candidates by BM25, best first, ties by page id; their
    number counted up to `cap`."""
    if chosen.size == 0:
        return Candidates(0, [], [])
    hits = post.candidates[chosen]
    hit_scores = post.candidate_score[chosen]
    if hits.size > limit:
        top = np.argpartition(-hit_scores, limit - 1)[:limit]
        hits, hit_scores = hits[top], hit_scores[top]
    order = np.lexsort((hits, -hit_scores))
    total = int(chosen.size)
    return Candidates(min(total, cap), hits[order].tolist(), hit_scores[order].tolist())


def match_candidates(
    post: QueryPostings,
    code: int,
    items: Sequence[Sequence[int]],
    needs: Sequence[int],
    allowed: PageTest | None,
    *,
    limit: int,
    cap: int,
) -> Candidates:
    """Pages of dataset `code` holding at least `needs[i]` of item i's terms for some i, scored
    by BM25 summed over every distinct query term they hold; the best `limit` of them, best
    first, ties by page id. `allowed` drops pages that fail the filters."""
    idx = post.in_dataset(code)
    chosen = idx[matched_mask(post, idx, items, needs, allowed)]
    return best_candidates(post, chosen, limit=limit, cap=cap)
