"""A query's postings read as candidate pages: a segment at a time, each in one compiled pass
(`regnb.index.kernels`), by a few threads (the compiled reads run without the GIL), then joined
in page-id order (`QueryPostings`).

A ranked search needs only the pages that can count. It hands the read `Floors`, a protocol
that the search's pruning implements: each segment is then read through a gate, for the pages
holding enough words of an item (`Floors.needs`) that may reach its datasets' floor
(`Floors.floor`), and what it gave is recorded (`Floors.record`), so that the segments read after
it start from a higher floor. A later read of the same `PostingRead` reads again only the
segments read through a gate: the search decides what each read needs.
"""

from __future__ import annotations

import functools
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from regnb.errors import SearchTimeout
from regnb.index.arrays import concat
from regnb.index.bm25 import bm25_from_norms, bm25_scale, bound_scale

if TYPE_CHECKING:
    from regnb.index.store import IndexStore

__all__ = [
    "Candidates",
    "Floors",
    "PostingRead",
    "PostingReader",
    "QueryPostings",
    "kernels_ready",
    "term_masks",
]

READERS = min(4, os.cpu_count() or 1)  # threads reading one search's segments
INLINE_POSTINGS = 20_000  # postings of a segment's lists below which it is read inline
MAX_RUNS = 4_096  # runs of one dataset's pages beyond which candidates are split by a sort
Ranges = tuple[np.ndarray, np.ndarray, np.ndarray]  # `Segment.term_ranges`: positions, starts, ends
Part = tuple[np.ndarray, np.ndarray, np.ndarray]  # a segment's candidates: pages, scores, bit sets


_COMPILED = threading.Event()
_COMPILING = threading.Lock()


def kernels_ready(progress: bool = True) -> None:
    """The compiled kernels, compiled or loaded from numba's cache once per process (about 20 s on
    a cold, busy machine the first time after an install, with a progress bar; under a second
    after). A search calls this before its time budget starts, so that it never spends its
    budget compiling."""
    if _COMPILED.is_set():
        return
    with _COMPILING:
        if not _COMPILED.is_set():
            from regnb.index import kernels as _kernels

            _kernels.compile_all(progress)
            _COMPILED.set()


def term_masks(terms: Sequence[int], columns: Mapping[int, int]) -> dict[int, int]:
    """The bit masks (by word) of the terms' columns in a candidate's bit set."""
    masks: dict[int, int] = {}
    for t in terms:
        if t in columns:
            c = columns[t]
            masks[c // 64] = masks.get(c // 64, 0) | (1 << (c % 64))
    return masks


@dataclass
class Candidates:
    """A dataset's matching pages: how many (capped) and the best ones by BM25, best first."""

    matches: int
    page_ids: list[int]
    scores: list[float]


@dataclass
class QueryPostings:
    """The postings of a query's terms, read once per search, as candidate pages: the pages
    holding at least one of the terms (global ids, ascending), each one's BM25 summed over the
    scored terms, and each one's bit set of the terms it holds (`bits`, uint64, a row per
    candidate; term `columns[t]` at bit c % 64 of word c // 64). `ds_runs` (the first page id of
    each run of pages of one dataset, and the dataset's code) splits the candidates by
    dataset."""

    candidates: np.ndarray
    candidate_score: np.ndarray
    bits: np.ndarray
    columns: Mapping[int, int]
    n_pages: int
    page_ds: np.ndarray | None = None
    ds_runs: tuple[np.ndarray, np.ndarray] | None = None
    _counts: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict, repr=False)
    _by_ds: dict[int, np.ndarray] | None = field(default=None, repr=False)

    @property
    def score(self) -> np.ndarray:
        """BM25 of every page id over all the query's terms (0 where a page holds none)."""
        out = np.zeros(self.n_pages, np.float64)
        out[self.candidates] = self.candidate_score
        return out

    def counts(self, item: Sequence[int]) -> np.ndarray:
        """For every candidate, how many of the item's distinct terms it holds."""
        key = tuple(sorted(set(item)))
        if key not in self._counts:
            out = np.zeros(self.candidates.size, np.int16)
            for word, mask in term_masks(key, self.columns).items():
                out += np.bitwise_count(self.bits[:, word] & np.uint64(mask)).astype(np.int16)
            self._counts[key] = out
        return self._counts[key]

    def in_dataset(self, code: int) -> np.ndarray:
        """Indices (ascending) of the candidates of one dataset."""
        if self._by_ds is None:
            self._by_ds = self._split()
        return self._by_ds.get(code, np.empty(0, np.int64))

    def _split(self) -> dict[int, np.ndarray]:
        cands = self.candidates
        if self.page_ds is None or not cands.size:
            return {}
        if self.ds_runs is not None and self.ds_runs[0].size <= MAX_RUNS:
            starts, codes = self.ds_runs
            bounds = np.append(np.searchsorted(cands, starts), cands.size).tolist()
            ranges: dict[int, list[np.ndarray]] = {}
            for i, code in enumerate(codes.tolist()):
                if bounds[i + 1] > bounds[i]:
                    ranges.setdefault(code, []).append(np.arange(bounds[i], bounds[i + 1]))
            return {c: np.concatenate(r) for c, r in ranges.items()}
        page_codes = self.page_ds[cands]
        order = np.argsort(page_codes, kind="stable")
        bounds_at = np.flatnonzero(np.diff(page_codes[order])) + 1
        return {int(page_codes[part[0]]): part for part in np.split(order, bounds_at)}

    def prepare(self, term_sets: Sequence[Sequence[int]]) -> None:
        """Compute every array a search reads, before datasets are matched in parallel."""
        self.in_dataset(-1)
        for ids in term_sets:
            if ids:
                self.counts(ids)


class Floors(Protocol):
    """What one read of a ranked search may skip, given by the search; the reader threads call
    it under one lock."""

    def needs(self) -> Sequence[tuple[tuple[int, ...], int]]:
        """The items that can match (each one's term ids), each with the words a page must
        hold; a segment is read for the pages holding that many words of some item."""

    def floor(self, codes: Sequence[int]) -> float | None:
        """For a segment holding the datasets `codes`: None where it must be read whole; else
        the score its pages must be able to reach to be read (-inf: any)."""

    def record(
        self,
        codes: Sequence[int],
        pages: np.ndarray,
        page_codes: Callable[[], np.ndarray],
        score: np.ndarray,
        bits: np.ndarray,
        columns: Mapping[int, int],
    ) -> None:
        """What a segment holding the datasets `codes` gave through its gate: its candidates
        (`pages`, global ids; `page_codes` gives each one's dataset), their scores and bit sets
        (`columns`: each term's bit)."""


@dataclass
class PostingRead:
    """One query's read of its terms' postings, as far as it has gone: the terms in reading
    order (each one's BM25 scale, whether it is scored, its bit in a candidate's bit set), the
    segments holding one of them with the terms' place in each, each segment's candidates as
    read, and the segments read through a gate (which a later read may read again)."""

    order: list[int]
    scales: np.ndarray
    flags: np.ndarray
    columns: dict[int, int]
    segments: list[tuple[int, Ranges]]
    segment_codes: Sequence[Sequence[int]] = field(repr=False)
    parts: dict[int, Part] = field(default_factory=dict, repr=False)
    gated: dict[int, Ranges] = field(default_factory=dict, repr=False)

    def gated_datasets(self) -> set[int]:
        """The datasets of the segments read through a gate."""
        return {c for s in self.gated for c in self.segment_codes[s]}


class PostingReader:
    """A snapshot's posting lists (`IndexStore.postings`): one term's weights, and a query's
    postings as candidate pages."""

    def __init__(self, store: IndexStore) -> None:
        self.store = store
        self._local = threading.local()
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def weights(self, term_id: int) -> tuple[np.ndarray, np.ndarray]:
        """(global page ids, BM25 weights) of one term's live postings, segment by segment."""
        store = self.store
        n, df = store.state.n_pages, float(store.df[term_id])
        pages, weights = [], []
        for seg, base, whole in zip(
            store.segments, store.page_base, store.segment_whole, strict=False
        ):
            local, tf = seg.postings(term_id)
            if local.size == 0:
                continue
            glob = local + base if base else local
            if not whole:
                live = store.page_live[glob]
                glob, tf = glob[live], tf[live]
            pages.append(glob)
            weights.append(bm25_from_norms(tf, df, n, store.page_norm[glob]))
        if not pages:
            return np.empty(0, np.int64), np.empty(0, np.float32)
        return np.concatenate(pages), np.concatenate(weights)

    def read_all(
        self,
        term_ids: Sequence[int],
        *,
        scored: Iterable[int] | None = None,
        deadline: float | None = None,
        datasets: Iterable[int] | None = None,
    ) -> QueryPostings:
        """Every live posting of the given terms as candidate pages (`begin`, one `read`,
        `joined`)."""
        posting_read = self.begin(term_ids, scored=scored, datasets=datasets)
        self.read(posting_read, deadline=deadline)
        return self.joined(posting_read)

    def begin(
        self,
        term_ids: Sequence[int],
        *,
        scored: Iterable[int] | None = None,
        datasets: Iterable[int] | None = None,
    ) -> PostingRead:
        """A read of the given terms' postings, to be scored with the corpus-wide statistics
        over the `scored` terms (default: all), from the segments holding one of `datasets`
        (codes; default: all) and one of the terms. Nothing is read yet."""
        store = self.store
        order = store.term_order(term_ids)
        weighed = set(order if scored is None else scored)
        n = store.state.n_pages
        scales = np.array([bm25_scale(float(store.df[t]), n) for t in order] or [0.0], np.float32)[
            : len(order)
        ]
        flags = np.array([t in weighed for t in order], np.bool_)
        columns = {t: j for j, t in enumerate(order)}
        wanted = None if datasets is None else set(datasets)
        segments = []
        for s, codes in enumerate(store.segment_codes):
            if wanted is not None and wanted.isdisjoint(codes):
                continue
            ranges = store.segments[s].term_ranges(order)
            if (ranges[2] > ranges[1]).any():  # else it holds none of the terms
                segments.append((s, ranges))
        return PostingRead(order, scales, flags, columns, segments, store.segment_codes)

    def read(
        self,
        posting_read: PostingRead,
        *,
        deadline: float | None = None,
        floors: Floors | None = None,
        datasets: Iterable[int] | None = None,
    ) -> None:
        """Read the segments of `posting_read` that hold one of `datasets` (codes; default: all)
        and were not read whole yet, each in one compiled pass; SearchTimeout past `deadline`.
        With `floors`, a segment is read only for the pages they let through (every term must
        then be scored, else it is read whole), and on the first read each dataset's first
        segment is read before the others, so that they start with its floor."""
        from regnb.index import (
            kernels as _kernels,  # numba: loaded by the first search, not by `import regnb`
        )

        store, pr = self.store, posting_read
        if not pr.flags.all():  # a floor bounds the whole score: every term must count
            floors = None
        wanted = None if datasets is None else set(datasets)

        def read(s: int, ranges: Ranges, gate: Any) -> Part:
            if deadline is not None and time.perf_counter() > deadline:
                raise SearchTimeout("the search ran out of time")
            seg, base = store.segments[s], int(store.page_base[s])
            window = slice(base, base + seg.n_pages)
            pages, score, bits = _kernels.segment_postings(
                self._workspace(),  # this thread's
                seg.n_pages,
                self._lists(s, ranges),
                pr.scales,
                pr.flags,
                store.page_norm[window],
                None if store.segment_whole[s] else store.page_live[window],
                gate,
            )
            return pages.astype(np.int64) + base, score, bits

        lock = threading.Lock()  # around the floors' state, shared by the readers

        def read_one(s: int, ranges: Ranges) -> None:
            """Segment `s`, through a gate where the floors allow one, what it gave recorded."""
            if floors is None:
                pr.parts[s] = read(s, ranges, None)
                pr.gated.pop(s, None)
                return
            with lock:
                gate = self._gate(s, ranges, pr, floors)
            if gate is None:
                pr.parts[s] = read(s, ranges, None)
                pr.gated.pop(s, None)
                return
            pr.gated[s] = ranges
            pr.parts.pop(s, None)
            if gate.items:  # else no page of it can match
                pr.parts[s] = read(s, ranges, gate)
                pages, score, bits = pr.parts[s]
                of = functools.partial(store.page_ds.__getitem__, pages)
                with lock:
                    floors.record(store.segment_codes[s], pages, of, score, bits, pr.columns)

        first = not pr.parts and not pr.gated
        todo = [
            (s, ranges)
            for s, ranges in pr.segments
            if (s in pr.gated or s not in pr.parts)
            and (wanted is None or not wanted.isdisjoint(store.segment_codes[s]))
        ]
        if floors is not None and first:  # each dataset's first segment first: it sets the floors
            firsts, seen = [], set[int]()
            for s, ranges in todo:
                if not seen.issuperset(store.segment_codes[s]):
                    seen.update(store.segment_codes[s])
                    firsts.append((s, ranges))
            self._read_all(read_one, firsts)
            todo = [(s, r) for s, r in todo if s not in pr.parts and s not in pr.gated]
        self._read_all(read_one, todo)

    def joined(self, posting_read: PostingRead) -> QueryPostings:
        """What the reads gave, joined in page-id order."""
        from regnb.index import kernels as _kernels

        store, pr = self.store, posting_read
        joined = [pr.parts[s] for s in sorted(pr.parts)]
        words = max(1, -(-len(pr.order) // _kernels.WORD))
        return QueryPostings(
            concat([p for p, _, _ in joined], np.int64),
            concat([sc for _, sc, _ in joined], np.float64),
            np.concatenate([b for _, _, b in joined])
            if joined
            else np.zeros((0, words), np.uint64),
            pr.columns,
            store.page_space,
            store.page_ds,
            store.ds_runs,
        )

    def _gate(self, s: int, ranges: Ranges, pr: PostingRead, floors: Floors) -> Any:
        """Which pages of segment `s` a pruned read reads (`regnb.index.kernels.Gate`), or None:
        all of them. `ranges`: the query's terms in the segment (`Segment.term_ranges`)."""
        from regnb.index import kernels as _kernels

        store = self.store
        floor = floors.floor(store.segment_codes[s])
        if floor is None:
            return None
        at, lo, hi = ranges
        sizes = (hi - lo).tolist()
        items, needs = [], []
        for item, need in floors.needs():
            held = sorted((pr.columns[t] for t in item), key=lambda j: (sizes[j], j))
            if sum(1 for j in held if sizes[j]) >= need:  # else no page of it holds enough
                items.append(held)
                needs.append(need)
        if floor == -math.inf or not items:
            return _kernels.Gate(items, needs)
        blocks = store.segments[s].blocks()
        part = np.where(hi > lo, blocks.bound[at] if blocks.bound.size else 0.0, 0.0)
        scale = bound_scale(blocks.avgdl, store.state.avgdl)
        bounds = part * pr.scales.astype(np.float64) * scale
        # a hair under the floor: a page scoring exactly the floor (a tie) is still read, though
        # a sum in another order may round below it
        return _kernels.Gate(items, needs, floor - 1e-9 * abs(floor), bounds, scale)

    def _lists(self, s: int, ranges: Ranges) -> Any:
        """The query's terms in segment `s` for `regnb.index.kernels` (`Lists`)."""
        from regnb.index import kernels as _kernels

        seg, (at, lo, hi) = self.store.segments[s], ranges
        blocks = seg.blocks()
        held = hi > lo
        starts = blocks.skip_start
        return _kernels.Lists(
            seg.post_gaps.parts(),
            seg.post_tf.parts(),
            lo,
            hi,
            np.where(held, starts[at], 0) if starts.size > 1 else np.zeros_like(lo),
            np.where(held, starts[np.minimum(at + 1, starts.size - 1)], 0)
            if starts.size > 1
            else np.zeros_like(lo),
            blocks.skip_page,
            blocks.skip_bound,
        )

    def _read_all(
        self, read_one: Callable[[int, Ranges], None], todo: list[tuple[int, Ranges]]
    ) -> None:
        """`read_one` of each segment, in order: the segments with many postings (but one) by
        `READERS` threads, the others on the calling thread meanwhile (handing a small read to
        a thread costs more than the read, and on a busy machine the thread waits for a core);
        the first failure is raised, and the reads not yet started are dropped."""
        pooled = [(s, r) for s, r in todo if int((r[2] - r[1]).sum()) >= INLINE_POSTINGS]
        if len(pooled) < 2 or READERS < 2:
            for s, ranges in todo:
                read_one(s, ranges)
            return
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(READERS, thread_name_prefix="regnb-postings")
        handed = {s for s, _ in pooled[1:]}
        futures = [self._pool.submit(read_one, s, r) for s, r in pooled[1:]]
        try:
            for s, ranges in todo:
                if s not in handed:
                    read_one(s, ranges)
            for future in futures:
                future.result()
        finally:  # after a failure (a timeout), the reads not started are not started
            for future in futures:
                future.cancel()

    def _workspace(self) -> Any:
        """This thread's work arrays for reading postings (`regnb.index.kernels.Workspace`)."""
        from regnb.index import kernels as _kernels

        space = getattr(self._local, "space", None)
        if space is None:
            space = self._local.space = _kernels.Workspace()
        return space
