"""Each dataset's best pages in one compiled pass (`DatasetBest`), against numpy written
plainly: counts, the best pages best first (ties by page id), floors, several runs recorded."""

from __future__ import annotations

import numpy as np
import pytest


def reference(
    codes: np.ndarray,
    pages: np.ndarray,
    score: np.ndarray,
    held: list[np.ndarray],
    needs: list[int],
    wanted: set[int],
    allowed: np.ndarray,
    budget: int,
) -> dict[int, tuple[int, list[int], list[float]]]:
    """What `DatasetBest` should keep: per dataset, its matches and its `budget` best."""
    matched = np.zeros(codes.size, bool)
    for have, need in zip(held, needs, strict=True):
        if need > 0:
            matched |= have >= need
    out = {}
    for code in sorted(wanted):
        at = np.flatnonzero(matched & (codes == code) & allowed)
        order = np.lexsort((pages[at], -score[at]))[:budget]
        out[code] = (int(at.size), pages[at][order].tolist(), score[at][order].tolist())
    return out


def candidates(seed: int, n: int = 3_000, terms: int = 70):
    """Random candidates: datasets 0..5, scores with many ties, a bit set of `terms` terms."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 6, n).astype(np.int16)
    pages = np.sort(rng.choice(10 * n, n, replace=False)).astype(np.int64)
    score = rng.integers(0, 40, n).astype(np.float64) / 4  # ties
    has = rng.random((n, terms)) < 0.3
    bits = np.zeros((n, -(-terms // 64)), np.uint64)
    for j in range(terms):
        bits[has[:, j], j // 64] |= np.uint64(1 << (j % 64))
    return codes, pages, score, bits, has


@pytest.mark.parametrize(
    ("items", "needs", "budget"),
    [
        ([[0, 1, 2]], [3], 50),  # every word of one item
        ([[0, 1, 2], [65, 3]], [2, 1], 7),  # two items, a term in the second word
        ([[5, 66, 67, 68]], [4], 1_000),  # fewer matches than the budget
        ([[0, 1], [9]], [0, 1], 20),  # an item that cannot match (need 0)
        ([[0, 1]], [3], 20),  # an item needing more words than it has: no match
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_dataset_best_keeps_each_datasets_count_and_best_pages(items, needs, budget, seed):
    from regnb.index.best_kernels import DatasetBest

    codes, pages, score, bits, has = candidates(seed)
    columns = {t: t for t in range(has.shape[1])}
    wanted = {0, 2, 3, 5}
    allowed = pages % 7 != 0
    best = DatasetBest(items, needs, columns, 6, budget, sorted(wanted))
    best.record(codes, pages, score, bits, allowed)
    held = [has[:, item].sum(axis=1) for item in items]
    expect = reference(codes, pages, score, held, needs, wanted, allowed, budget)
    got = {c: (best.matches(c), best.best(c)[0].tolist(), best.best(c)[1].tolist()) for c in wanted}
    assert got == expect
    assert all(best.matches(c) == 0 for c in (1, 4))  # not wanted: not counted


def test_runs_recorded_one_by_one_keep_what_one_run_keeps():
    """A segment at a time (as a pruned read records them) or all at once: the same."""
    from regnb.index.best_kernels import DatasetBest

    codes, pages, score, bits, has = candidates(3)
    columns = {t: t for t in range(has.shape[1])}
    whole = DatasetBest([[0, 1]], [1], columns, 6, 30, range(6))
    whole.record(codes, pages, score, bits)
    parts = DatasetBest([[0, 1]], [1], columns, 6, 30, range(6))
    for lo in range(0, codes.size, 700):
        part = slice(lo, lo + 700)
        parts.record(codes[part], pages[part], score[part], bits[part])
    for c in range(6):
        assert parts.matches(c) == whole.matches(c) > 0
        assert [a.tolist() for a in parts.best(c)] == [a.tolist() for a in whole.best(c)]


def test_a_floor_is_the_lowest_best_score_once_the_budget_is_full():
    from regnb.index.best_kernels import DatasetBest

    bits = np.ones((4, 1), np.uint64)
    best = DatasetBest([[0]], [1], {0: 0}, 3, 3, [1])
    codes = np.array([1, 1, 2, 1], np.int16)
    best.record(codes[:2], np.arange(2), np.array([5.0, 2.0]), bits[:2])
    assert best.floor(1) is None  # two of three
    best.record(codes[2:], np.arange(2, 4), np.array([9.0, 3.0]), bits[2:])
    assert best.floor(1) == 2.0
    best.record(np.array([1], np.int16), np.array([7]), np.array([4.0]), bits[:1])
    assert best.floor(1) == 3.0
    assert best.best(1)[0].tolist() == [0, 7, 3]
    assert best.matches(2) == 0  # dataset 2 not wanted


def test_candidates_of_datasets_beyond_the_ones_counted_are_passed_over():
    from regnb.index.best_kernels import DatasetBest

    best = DatasetBest([[0]], [1], {0: 0}, 2, 5, [1])
    best.record(
        np.array([9, 1, -1], np.int16),
        np.array([1, 2, 3]),
        np.array([1.0, 2.0, 3.0]),
        np.ones((3, 1), np.uint64),
    )
    assert best.matches(1) == 1
    assert best.best(1)[0].tolist() == [2]
