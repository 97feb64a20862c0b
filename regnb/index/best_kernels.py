"""Each dataset's best pages among a search's candidates, in one compiled pass (numba).

A search keeps, for every dataset it ranks, the pages that match an item (enough of its words,
read from the candidates' bit sets of terms), their number, and the `budget` best of them by
BM25. `record` does that over any run of candidates (a segment's, as it is read, or all of
them): each candidate's dataset is looked up once, and every dataset's count and heap of its
best (lowest score on top; of equal scores, the higher page id) are updated in the same pass,
without the GIL. `DatasetBest` holds the heaps between passes: the floor a pruned read starts
from, and each dataset's best pages, best first, ties by page id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numba
import numpy as np

__all__ = ["DatasetBest", "record"]


@numba.njit(nogil=True, cache=True)
def _worse(s1: float, p1: int, s2: float, p2: int) -> bool:
    """Whether page p1 (score s1) ranks below page p2: a lower score, or of equal ones the
    higher page id."""
    return s1 < s2 or (s1 == s2 and p1 > p2)


@numba.njit(nogil=True, cache=True)
def _offer(scores: Any, pages: Any, n: int, budget: int, s: float, p: int) -> int:
    """Page p (score s) offered to a heap of the `budget` best (`scores`, `pages`: one
    dataset's row, the worst on top, `n` held); the number held after."""
    if n < budget:
        i = n
        n += 1
        while i > 0:  # sift up
            parent = (i - 1) // 2
            if not _worse(s, p, scores[parent], pages[parent]):
                break
            scores[i], pages[i] = scores[parent], pages[parent]
            i = parent
        scores[i], pages[i] = s, p
        return n
    if not _worse(scores[0], pages[0], s, p):
        return n
    i = 0
    while True:  # sift down from the top
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and _worse(
            scores[child + 1], pages[child + 1], scores[child], pages[child]
        ):
            child += 1
        if not _worse(scores[child], pages[child], s, p):
            break
        scores[i], pages[i] = scores[child], pages[child]
        i = child
    scores[i], pages[i] = s, p
    return n


@numba.njit(nogil=True, cache=True)
def _popcount(x: Any) -> int:
    """Set bits of a uint64."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(nogil=True, cache=True)
def record(
    codes: Any,
    pages: Any,
    score: Any,
    bits: Any,
    words: Any,
    masks: Any,
    starts: Any,
    needs: Any,
    wanted: Any,
    allowed: Any,
    heap_score: Any,
    heap_page: Any,
    held: Any,
    count: Any,
) -> None:
    """Count and keep the best of the candidates (`codes`: each one's dataset; `pages`, `score`,
    `bits`: its page id, BM25 and bit set) that match: of a dataset `wanted`, passing `allowed`
    (one flag a candidate; empty: all pass), and holding at least `needs[i]` of item i's terms
    (item i: the (word, mask) pairs `starts[i]`..`starts[i + 1]` of `words` and `masks`).
    `heap_score`, `heap_page` (a row a dataset), `held` and `count` are updated in place."""
    budget = heap_score.shape[1]
    n_items = needs.size
    for i in range(codes.size):
        c = codes[i]
        if c < 0 or c >= wanted.size or not wanted[c] or (allowed.size and not allowed[i]):
            continue
        matched = False
        for item in range(n_items):
            have = 0
            for k in range(starts[item], starts[item + 1]):
                have += _popcount(bits[i, words[k]] & masks[k])
            if have >= needs[item]:
                matched = True
                break
        if not matched:
            continue
        count[c] += 1
        held[c] = _offer(heap_score[c], heap_page[c], held[c], budget, score[i], pages[i])


class DatasetBest:
    """Every dataset's matches and best pages over the candidates `record`ed so far, for items
    of plain words: `items` (each one's term ids), `needs` (the words a page must hold per
    item), `columns` (each term's bit in a candidate's bit set), `n_codes` datasets, the
    `budget` best kept, `wanted` the dataset codes counted."""

    def __init__(
        self,
        items: Sequence[Sequence[int]],
        needs: Sequence[int],
        columns: Mapping[int, int],
        n_codes: int,
        budget: int,
        wanted: Sequence[int],
    ) -> None:
        words, masks, starts, kept = [], [], [0], []
        for item, need in zip(items, needs, strict=True):
            if not 0 < need <= len(item):  # no page holds enough of it
                continue
            by_word: dict[int, int] = {}
            for t in item:
                if t in columns:
                    c = columns[t]
                    by_word[c // 64] = by_word.get(c // 64, 0) | (1 << (c % 64))
            words += list(by_word)
            masks += list(by_word.values())
            starts.append(len(words))
            kept.append(need)
        self.words = np.asarray(words, np.int64)
        self.masks = np.asarray(masks, np.uint64)
        self.starts = np.asarray(starts, np.int64)
        self.needs = np.asarray(kept, np.int64)
        self.wanted = np.zeros(max(n_codes, 1), np.bool_)
        self.wanted[np.asarray(list(wanted), np.int64)] = True  # each below n_codes
        self.budget = budget
        size = (max(n_codes, 1), max(budget, 1))
        self.heap_score = np.zeros(size, np.float64)
        self.heap_page = np.zeros(size, np.int64)
        self.held = np.zeros(size[0], np.int64)
        self.count = np.zeros(size[0], np.int64)

    def record(
        self,
        codes: np.ndarray,
        pages: np.ndarray,
        score: np.ndarray,
        bits: np.ndarray,
        allowed: np.ndarray | None = None,
    ) -> None:
        """Count and keep the matching candidates of a run (each one's dataset, page id, BM25,
        bit set; `allowed`: which pass their dataset's filters, None: all)."""
        if not self.needs.size or not codes.size:
            return
        record(
            np.ascontiguousarray(codes, np.int16),
            np.ascontiguousarray(pages, np.int64),
            np.ascontiguousarray(score, np.float64),
            np.ascontiguousarray(bits, np.uint64),
            self.words,
            self.masks,
            self.starts,
            self.needs,
            self.wanted,
            np.zeros(0, np.bool_) if allowed is None else np.ascontiguousarray(allowed, np.bool_),
            self.heap_score,
            self.heap_page,
            self.held,
            self.count,
        )

    def matches(self, code: int) -> int:
        """The dataset's matches recorded."""
        return int(self.count[code])

    def floor(self, code: int) -> float | None:
        """The lowest of the dataset's `budget` best scores; None until it has `budget`."""
        if self.budget < 1 or self.held[code] < self.budget:
            return None
        return float(self.heap_score[code, 0])

    def best(self, code: int) -> tuple[np.ndarray, np.ndarray]:
        """The dataset's best pages and their scores, best first, ties by page id."""
        n = int(self.held[code])
        pages, scores = self.heap_page[code, :n], self.heap_score[code, :n]
        order = np.lexsort((pages, -scores))
        return pages[order], scores[order]


def signatures() -> dict[Any, tuple[Any, ...]]:
    """The argument types `DatasetBest.record` calls the kernel with (for `compile_all`)."""
    i64 = numba.typeof(np.zeros(1, np.int64))  # type: ignore[no-untyped-call]
    i16 = numba.typeof(np.zeros(1, np.int16))  # type: ignore[no-untyped-call]
    f64 = numba.typeof(np.zeros(1, np.float64))  # type: ignore[no-untyped-call]
    u64 = numba.typeof(np.zeros(1, np.uint64))  # type: ignore[no-untyped-call]
    flags = numba.typeof(np.zeros(1, np.bool_))  # type: ignore[no-untyped-call]
    bits = numba.typeof(np.zeros((1, 1), np.uint64))  # type: ignore[no-untyped-call]
    f64_2 = numba.typeof(np.zeros((1, 1), np.float64))  # type: ignore[no-untyped-call]
    i64_2 = numba.typeof(np.zeros((1, 1), np.int64))  # type: ignore[no-untyped-call]
    return {record: (i16, i64, f64, bits, i64, u64, i64, i64, flags, flags, f64_2, i64_2, i64, i64)}
