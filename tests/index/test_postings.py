"""A query's candidates: joined a segment at a time, split by dataset from its runs."""

from __future__ import annotations

import numpy as np


def test_candidates_split_by_dataset_from_runs_as_by_a_sort():
    from regnb.index import postings as _postings
    from regnb.index.postings import QueryPostings

    rng = np.random.default_rng(2)
    page_ds = np.repeat(rng.integers(0, 5, 300), rng.integers(1, 40, 300)).astype(np.int16)
    starts = np.concatenate([[0], np.flatnonzero(np.diff(page_ds)) + 1])
    cands = np.sort(rng.choice(page_ds.size, page_ds.size // 3, replace=False))

    def split(runs: tuple[np.ndarray, np.ndarray] | None) -> dict[int, list[int]]:
        post = QueryPostings(
            cands,
            np.zeros(cands.size),
            np.zeros((cands.size, 1), np.uint64),
            {},
            page_ds.size,
            page_ds,
            runs,
        )
        return {c: post.in_dataset(c).tolist() for c in range(6)}

    by_runs = split((starts, page_ds[starts]))
    by_sort = split(None)
    assert by_runs == by_sort
    assert by_runs == {c: np.flatnonzero(page_ds[cands] == c).tolist() for c in range(6)}
    assert starts.size <= _postings.MAX_RUNS
