"""Every dataset's best candidates at once (`plain_candidates`, one compiled pass a level)
against the per-dataset rule (`dataset_matches`, `best_candidates`, `loosen`)."""

from __future__ import annotations

import numpy as np
import pytest

from regnb.index.postings import Candidates, QueryPostings
from regnb.search.matching import (
    Lexicon,
    MatchItem,
    best_candidates,
    dataset_matches,
    loosen,
    plain_candidates,
)


def postings(seed: int) -> QueryPostings:
    """Candidates of 4 datasets (runs of pages), 6 terms, distinct scores."""
    rng = np.random.default_rng(seed)
    page_ds = np.repeat(np.arange(4), 500).astype(np.int16)
    cands = np.sort(rng.choice(page_ds.size, 1_200, replace=False)).astype(np.int64)
    has = rng.random((cands.size, 6)) < np.array([0.5, 0.4, 0.3, 0.05, 0.02, 0.6])
    has[page_ds[cands] == 3, :3] = False  # dataset 3: none of terms 0-2 (loosens)
    bits = (has * (1 << np.arange(6))).sum(axis=1).astype(np.uint64)[:, None]
    return QueryPostings(
        cands,
        rng.permutation(cands.size) / 7.0,
        bits,
        {t: t for t in range(6)},
        page_ds.size,
        page_ds,
    )


def one_by_one(post, codes, items, tests, limit, cap):
    """The per-dataset path: each dataset loosened until it matches."""
    out = {}
    for ds, code in codes.items():

        def attempt(level, needs, ds=ds, code=code):
            chosen = dataset_matches(post, code, items, needs, tests.get(code), Lexicon({}))
            cand = best_candidates(post, chosen, limit=limit, cap=cap)
            if cand.page_ids:
                out[ds] = (cand, level > 0)
                return True
            return False

        loosen([m.size for m in items], attempt)
    return out


@pytest.mark.parametrize(
    "items",
    [
        [MatchItem((0, 1, 2), 3)],
        [MatchItem((0, 1, 2), 3), MatchItem((4,), 1)],
        [MatchItem((0, 3), 3)],  # a word the index lacks: level 0 cannot match
        [MatchItem((5,), 1)],
    ],
)
@pytest.mark.parametrize(("limit", "cap"), [(500, 10_000), (10, 25)])
def test_plain_candidates_are_each_datasets_own(items, limit, cap):
    post = postings(4)
    codes = {"a": 0, "b": 1, "c": 2, "d": 3, "absent": 7}
    tests = {1: lambda pages: pages % 3 != 0}  # a date filter, as a page test
    got = plain_candidates(post, codes, items, tests, limit=limit, cap=cap)
    want = one_by_one(post, codes, items, tests, limit, cap)
    assert got == want
    assert "absent" not in got


def test_a_dataset_matching_only_loosened_is_loosened():
    post = postings(5)
    got = plain_candidates(post, {"d": 3}, [MatchItem((0, 3, 4), 3)], {}, limit=5, cap=9)
    cand, loosened = got["d"]
    assert loosened and isinstance(cand, Candidates) and cand.page_ids
