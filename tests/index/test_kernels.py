"""The compiled reads of a segment's postings: candidates, bit sets and scores bit for bit as
numpy gives them, gated reads that find every page that can count, probes by skip entries."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest


def _small(values: np.ndarray, dtype: type) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What `_segments._save_small` writes and `SmallInts.parts` gives, in memory."""
    top = np.iinfo(dtype).max
    big = np.flatnonzero(values > top)
    return np.where(values > top, 0, values).astype(dtype), big, values[big].astype(np.int64)


class _Postings:
    """Random posting lists over `n_pages` pages (some long enough for skip entries, gaps and
    tfs too large for their small types), and what numpy says a search reads from them."""

    def __init__(self, n_terms: int, n_pages: int, seed: int, with_live: bool) -> None:
        from regnb.index.bm25 import bm25_norms, bm25_scale
        from regnb.index.segments import SKIP_MIN, Blocks

        rng = np.random.default_rng(seed)
        self.n_pages = n_pages
        self.lists, self.tfs = [], []
        for j in range(n_terms):
            size = int(rng.integers(0, [5, 400, 3 * SKIP_MIN][j % 3]))
            self.lists.append(np.sort(rng.choice(n_pages, size, replace=False)).astype(np.int64))
            self.tfs.append(rng.integers(1, 300 if j == 1 else 6, size))
        ends = np.cumsum([0] + [a.size for a in self.lists])
        pages = np.concatenate(self.lists)
        tf = np.concatenate(self.tfs)
        self.dl = rng.integers(1, 400, n_pages)
        self.blocks = Blocks.of(tf, pages, ends, self.dl)
        self.avgdl = 120.0  # the corpus's, not the segment's: bounds are scaled for it
        self.norm = bm25_norms(self.dl, self.avgdl).astype(np.float32)
        self.live = rng.random(n_pages) > 0.2 if with_live else None
        self.dfs = rng.integers(1, 10_000, n_terms).astype(float)
        self.scales = np.array([bm25_scale(df, 50_000) for df in self.dfs], np.float32)
        gaps = np.diff(pages, prepend=0)
        gaps[ends[:-1][ends[:-1] < pages.size]] = pages[ends[:-1][ends[:-1] < pages.size]]
        self.gaps, self.tf_parts, self.ends = _small(gaps, np.uint16), _small(tf, np.uint8), ends

    def lists_(self) -> Any:
        from regnb.index import kernels as _kernels

        starts = self.blocks.skip_start
        return _kernels.Lists(
            self.gaps,
            self.tf_parts,
            self.ends[:-1],
            self.ends[1:],
            starts[:-1],
            starts[1:],
            self.blocks.skip_page,
            self.blocks.skip_bound,
        )

    def reference(self, scored: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every page holding a term: ascending, BM25 over the scored terms, bit sets."""
        from regnb.index.bm25 import bm25_from_norms

        live = self.live
        kept = [a if live is None else a[live[a]] for a in self.lists]
        tfs = [t if live is None else t[live[a]] for a, t in zip(self.lists, self.tfs, strict=True)]
        pages = np.unique(np.concatenate(kept))
        weights = [
            bm25_from_norms(t, self.dfs[j], 50_000, self.norm[a]) if scored[j] else np.zeros(a.size)
            for j, (a, t) in enumerate(zip(kept, tfs, strict=True))
        ]
        at = np.searchsorted(pages, np.concatenate(kept))
        score = np.bincount(at, weights=np.concatenate(weights), minlength=pages.size)
        bits = np.zeros((pages.size, -(-len(self.lists) // 64)), np.uint64)
        for j, a in enumerate(kept):
            bits[np.searchsorted(pages, a), j // 64] |= np.uint64(1) << np.uint64(j % 64)
        return pages, score, bits


@pytest.mark.parametrize(
    ("n_terms", "n_pages", "with_live"), [(5, 300_000, False), (70, 3_000, True)]
)
def test_the_compiled_pass_over_postings_equals_numpy(
    n_terms: int, n_pages: int, with_live: bool
) -> None:
    """Candidates, bit sets and scores (bit for bit) as numpy gives them, with gaps and tfs too
    large for their small types, deleted pages, unscored terms, and more than 64 terms."""
    from regnb.index import kernels as _kernels

    data = _Postings(n_terms, n_pages, 3, with_live)
    scored = np.array([j % 4 != 2 for j in range(n_terms)])
    space = _kernels.Workspace()
    want = data.reference(scored)
    for _ in range(2):  # the work arrays are left clean for the next segment
        got = _kernels.segment_postings(
            space, n_pages, data.lists_(), data.scales, scored, data.norm, data.live
        )
        for g, w in zip(got, want, strict=True):
            assert g.tolist() == w.tolist()
    assert not space.bits.any() and not space.score.any()


def _gated_reads(seed: int) -> list[tuple[int, int]]:
    """Checks a gated read of random lists at no floor and three; how many pages each let
    through, and how many hold enough words of an item."""
    from regnb.index import kernels as _kernels
    from regnb.index.bm25 import bound_scale

    n_terms = 6
    data = _Postings(n_terms, 20_000, seed, with_live=seed % 2 == 1)
    scored = np.ones(n_terms, bool)
    pages, score, bits = data.reference(scored)
    rng = np.random.default_rng(seed)
    # one word with a long list (every third term's is), and two to four others, of which a
    # page must hold all (seeds 0 to 2) or all but one (loosened: seeds 3 to 5)
    items = [
        [2 + 3 * (seed % 2)],
        sorted(rng.choice(n_terms, int(rng.integers(2, 5)), replace=False).tolist()),
    ]
    needs = [len(item) - (seed >= 3 and len(item) > 1) for item in items]
    held = np.zeros(pages.size, bool)
    for item, need in zip(items, needs, strict=True):
        mask = np.uint64(sum(1 << j for j in item))
        held |= np.bitwise_count(bits[:, 0] & mask) >= need
    sizes = data.ends[1:] - data.ends[:-1]
    gated = [
        (sorted(item, key=lambda j: (sizes[j], j)), need)
        for item, need in zip(items, needs, strict=True)
        if sum(sizes[item] > 0) >= need
    ]
    scale = bound_scale(data.blocks.avgdl, data.avgdl)
    bounds = data.blocks.bound * data.scales.astype(np.float64) * scale
    floors = [None, *np.quantile(score[held], [0.5, 0.9, 0.99]).tolist()] if held.any() else [None]
    let_through = []
    for floor in floors:
        gate = _kernels.Gate(
            [item for item, _ in gated],
            [need for _, need in gated],
            floor,
            None if floor is None else bounds,
            scale,
        )
        got = _kernels.segment_postings(
            _kernels.Workspace(),
            data.n_pages,
            data.lists_(),
            data.scales,
            scored,
            data.norm,
            data.live,
            gate,
        )
        needed = held if floor is None else held & (score >= floor)
        assert set(pages[needed].tolist()) <= set(got[0].tolist()) <= set(pages[held].tolist())
        at = np.searchsorted(pages, got[0])
        assert got[1].tolist() == score[at].tolist() and got[2].tolist() == bits[at].tolist()
        let_through.append((got[0].size, int(held.sum())))
    return let_through


@pytest.mark.parametrize("seed", range(6))
def test_a_gated_read_finds_every_full_match_that_can_reach_the_floor(seed: int) -> None:
    """Through a gate, a segment gives every page holding all the words of an item, or all but
    one (and with a floor, every such page scoring at least the floor), no other, and each with the
    score and bit set of a whole read: lists probed by their skip entries, runs of postings
    that cannot reach the floor skipped."""
    _gated_reads(seed)


def test_a_high_floor_lets_fewer_pages_through() -> None:
    through = [_gated_reads(seed)[-1] for seed in range(6)]  # each at its highest floor
    assert sum(got for got, _ in through) < 0.8 * sum(held for _, held in through)


def test_a_probe_finds_exactly_the_pages_a_list_holds() -> None:
    from regnb.index import kernels as _kernels

    data = _Postings(3, 50_000, 7, with_live=False)
    lists = data.lists_()
    rng = np.random.default_rng(1)
    for j in range(3):
        wanted = np.sort(rng.choice(data.n_pages, 500, replace=False)).astype(np.int32)
        wanted[:5] = data.lists[j][:5] if data.lists[j].size >= 5 else wanted[:5]
        wanted = np.unique(wanted)
        found = np.empty(wanted.size, np.int64)
        where = (lists.los, lists.his, lists.s0s, lists.s1s, lists.skip_page, lists.skip_bound)
        _kernels._probe(lists.gaps, where, j, wanted, wanted.size, found)
        held = np.isin(wanted, data.lists[j])
        assert (found >= 0).tolist() == held.tolist()
        assert (found[held] - lists.los[j]).tolist() == np.searchsorted(
            data.lists[j], wanted[held]
        ).tolist()


_EVERY_TYPE = """
import sys, tempfile
from pathlib import Path
import numba
from regnb.index import kernels
from tests.index.test_segments import open_, queries, write_batches

kernels.compile_all(progress=False)
def signatures():
    return {name: len(getattr(kernels, name).signatures) for name in dir(kernels)
            if isinstance(getattr(kernels, name), numba.core.registry.CPUDispatcher)}
before = signatures()
root = Path(tempfile.mkdtemp())
write_batches(root / "corpus", 6)
open_(root / "corpus", root / "h", 1).close()
write_batches(root / "corpus", 1, seed=9, start=200)  # an incremental add: in-memory segments
with open_(root / "corpus", root / "h", 1, page_budget=4, match_count_cap=6) as eng:
    for query in [*queries(seed=5, n=20), {"keywords": ["sterile zyxwv"], "limit": 50}]:
        eng.search(**query)
        eng.facets(query["keywords"], by=["year"])
after = signatures()
grown = {name: (before[name], after[name]) for name in after if after[name] != before[name]}
assert any(before.values()), before
print("GROWN", grown)
sys.exit(1 if grown else 0)
"""


def test_compile_all_compiles_every_type_a_search_calls_a_kernel_with() -> None:
    """After `compile_all` no search compiles anything (pruned and whole reads, segments read
    from disk and built in memory): the first search of a fresh install does not pay for
    compiling inside its time budget. In a fresh process, so that no other test's calls count."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _EVERY_TYPE], cwd=root, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
