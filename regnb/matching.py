"""Page matching and BM25 scoring over the query's posting lists, in numpy.

The postings of a query's terms are fetched once per search (sorted by term, then page); each
dataset is a contiguous range of page ids, so its share of every posting list is found by binary
search, and counting and scoring are dense `bincount`s over the dataset's pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Candidates", "QueryPostings", "match_range", "score_all"]


@dataclass
class Candidates:
    """A dataset's matching pages: how many (capped) and the best ones by BM25, best first."""

    matches: int
    page_ids: list[int]
    scores: list[float]


@dataclass
class QueryPostings:
    """Posting lists of a query's terms: term id -> (page ids ascending, BM25 weights)."""

    lists: dict[int, tuple[np.ndarray, np.ndarray]]

    @classmethod
    def from_arrays(
        cls, terms: np.ndarray, pages: np.ndarray, weights: np.ndarray
    ) -> QueryPostings:
        """From rows sorted by (term, page)."""
        lists: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        if terms.size:
            starts = np.flatnonzero(np.r_[True, terms[1:] != terms[:-1]])
            ends = np.r_[starts[1:], terms.size]
            for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
                lists[int(terms[s])] = (pages[s:e], weights[s:e])
        return cls(lists)

    def within(self, term: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """The term's postings with `lo <= page < hi`, pages shifted to start at 0."""
        pages, weights = self.lists.get(term, (np.empty(0, np.int32), np.empty(0, np.float32)))
        a, b = np.searchsorted(pages, [lo, hi])
        return pages[a:b] - lo, weights[a:b]


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
    size = hi - lo
    if size <= 0:
        return Candidates(0, [], [])
    terms = sorted({t for item in items for t in item})
    parts = {t: post.within(t, lo, hi) for t in terms}
    matched = np.zeros(size, dtype=bool)
    for item, need in zip(items, needs, strict=True):
        present = [parts[t][0] for t in dict.fromkeys(item)]
        if not present or need > len(present):
            continue
        counts = np.bincount(np.concatenate(present), minlength=size)
        matched |= counts >= need
    if allowed is not None:
        matched &= allowed
    hits = np.flatnonzero(matched)
    if hits.size == 0:
        return Candidates(0, [], [])
    score = np.zeros(size, dtype=np.float64)
    for pages, weights in parts.values():
        score += np.bincount(pages, weights=weights, minlength=size)
    hit_scores = score[hits]
    order = np.lexsort((hits, -hit_scores))[:limit]
    return Candidates(
        min(int(hits.size), cap), (hits[order] + lo).tolist(), hit_scores[order].tolist()
    )


def score_all(post: QueryPostings, n_pages: int) -> np.ndarray:
    """BM25 of every page for all the query's terms (0 where a page holds none)."""
    score = np.zeros(n_pages, dtype=np.float64)
    for pages, weights in post.lists.values():
        score += np.bincount(pages, weights=weights, minlength=n_pages)
    return score
