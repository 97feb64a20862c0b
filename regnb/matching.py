"""Page matching and BM25 scoring over the query's posting lists, in numpy.

The postings of a query's terms are read once per search. Counting (how many of an item's words
a page holds) and scoring (BM25 summed over the query's distinct terms) are dense `bincount`s
over every page of the corpus, done once; each dataset is a contiguous range of page ids, so its
matching is a slice of those arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Candidates", "QueryPostings", "match_range"]


@dataclass
class Candidates:
    """A dataset's matching pages: how many (capped) and the best ones by BM25, best first."""

    matches: int
    page_ids: list[int]
    scores: list[float]


@dataclass
class QueryPostings:
    """The postings of a query's terms, one row per (page, term), in any order."""

    terms: np.ndarray
    pages: np.ndarray
    weights: np.ndarray
    n_pages: int
    _score: np.ndarray | None = field(default=None, repr=False)
    _counts: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def score(self) -> np.ndarray:
        """BM25 of every page over all the query's terms (0 where a page holds none)."""
        if self._score is None:
            self._score = np.bincount(self.pages, weights=self.weights, minlength=self.n_pages)
        return self._score

    def counts(self, item: Sequence[int]) -> np.ndarray:
        """For every page, how many of the item's distinct terms it holds."""
        key = tuple(sorted(set(item)))
        if key not in self._counts:
            hit = np.isin(self.terms, np.asarray(key, dtype=self.terms.dtype))
            self._counts[key] = np.bincount(self.pages[hit], minlength=self.n_pages).astype(
                np.int16
            )
        return self._counts[key]

    def prepare(self, items: Sequence[Sequence[int]]) -> None:
        """Compute every array a search reads, before datasets are matched in parallel."""
        _ = self.score
        for item in items:
            if item:
                self.counts(item)


def match_range(
    post: QueryPostings,
    lo: int,
    hi: int,
    items: Sequence[Sequence[int]],
    needs: Sequence[int],
    allowed: np.ndarray | None,
    *,
    limit: int,
    cap: int,
) -> Candidates:
    """Pages in [lo, hi) holding at least `needs[i]` of item i's terms for some i, scored by BM25
    summed over every distinct query term they hold; the best `limit` of them, best first.
    `allowed` (bool per page of the range) drops pages that fail the filters."""
    if hi <= lo:
        return Candidates(0, [], [])
    matched = np.zeros(hi - lo, dtype=bool)
    for item, need in zip(items, needs, strict=True):
        if item and need <= len(set(item)):
            matched |= post.counts(item)[lo:hi] >= need
    if allowed is not None:
        matched &= allowed
    hits = np.flatnonzero(matched)
    if hits.size == 0:
        return Candidates(0, [], [])
    hit_scores = post.score[lo:hi][hits]
    if hits.size > limit:
        top = np.argpartition(-hit_scores, limit - 1)[:limit]
        hits, hit_scores = hits[top], hit_scores[top]
    order = np.lexsort((hits, -hit_scores))
    total = int(np.count_nonzero(matched))
    return Candidates(min(total, cap), (hits[order] + lo).tolist(), hit_scores[order].tolist())
