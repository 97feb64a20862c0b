"""Compiled loops (numba) for the one step that touches every posting of a query's terms.

Reading a segment's postings for a search decodes each term's page-id gaps, weighs each posting
with BM25 and adds it to its page. In numpy those are a dozen passes over arrays as long as the
postings (decode, exceptions, gather of lengths, four arithmetic passes, union, bincount); here
they are one pass that stays in cache, without the GIL (a search's segments can be read by
several threads). The arithmetic is `regnb.index.bm25_from_norms` exactly: each posting's weight
in float32 as `(tf * scale) / (tf + norm)`, summed per page in float64 in the order of the terms,
so the scores are bit for bit those of the numpy formula.

Imported where a search first reads postings (numba loads in about half a second, and compiled
code is cached beside this module).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

__all__ = ["Gate", "Workspace", "essential", "segment_postings"]

WORD = 64  # terms per word of a candidate's bit set


@numba.njit(nogil=True, cache=True)
def _full_matches(
    gaps: Any,
    gap_at: Any,
    gap_big: Any,
    los: Any,
    his: Any,
    live: Any,
    item_terms: Any,
    item_starts: Any,
    seen: Any,
    admitted: Any,
    held: Any,
    held_pages: Any,
) -> int:
    """Mark in `seen` (1) and list in `admitted` the live pages holding every term of an item
    (item i's terms are `item_terms[item_starts[i]:item_starts[i + 1]]`, rarest first); returns
    how many. `held` (zeroed, left zeroed) and `held_pages` are work arrays."""
    n_admitted = 0
    check_live = live.size > 0
    for i in range(item_starts.size - 1):
        first, last = item_starts[i], item_starts[i + 1]
        n_held = 0
        for m in range(first, last):
            j = item_terms[m]
            g = np.searchsorted(gap_at, los[j])
            page = 0
            for k in range(los[j], his[j]):
                if g < gap_at.size and gap_at[g] == k:
                    page += gap_big[g]
                    g += 1
                else:
                    page += gaps[k]
                if m == first:
                    if not (check_live and not live[page]):
                        held[page] = 1
                        held_pages[n_held] = page
                        n_held += 1
                elif held[page] == m - first:
                    held[page] = m - first + 1
        for h in range(n_held):
            page = held_pages[h]
            if held[page] == last - first and seen[page] == 0:
                seen[page] = 1
                admitted[n_admitted] = page
                n_admitted += 1
            held[page] = 0
    return n_admitted


@numba.njit(nogil=True, cache=True)
def _above_floor(
    gaps: Any,
    gap_at: Any,
    gap_big: Any,
    tfs: Any,
    tf_at: Any,
    tf_big: Any,
    los: Any,
    his: Any,
    scales: Any,
    norm: Any,
    live: Any,
    item_terms: Any,
    item_starts: Any,
    bounds: Any,
    essential: Any,
    floor: float,
    seen: Any,
    admitted: Any,
    held: Any,
) -> int:
    """Mark in `seen` and list in `admitted` the live pages that may score `floor` or more
    (1): where an essential term's weight plus every other term's bound (`bounds`) reaches it
    (MaxScore); then those of them holding every term of an item (2). Returns how many were
    listed. `held` (zeroed, left zeroed) is a work array."""
    n_admitted = 0
    check_live = live.size > 0
    total = 0.0
    for j in range(los.size):
        total += bounds[j]
    for j in range(los.size):
        if not essential[j]:
            continue
        need = floor - (total - bounds[j])
        scale = scales[j]
        g = np.searchsorted(gap_at, los[j])
        t = np.searchsorted(tf_at, los[j])
        page = 0
        for k in range(los[j], his[j]):
            if g < gap_at.size and gap_at[g] == k:
                page += gap_big[g]
                g += 1
            else:
                page += gaps[k]
            if t < tf_at.size and tf_at[t] == k:
                tf = np.float32(tf_big[t])
                t += 1
            else:
                tf = np.float32(tfs[k])
            if (
                seen[page] == 0
                and not (check_live and not live[page])
                and np.float64((tf * scale) / (tf + norm[page])) >= need
            ):
                seen[page] = 1
                admitted[n_admitted] = page
                n_admitted += 1
    if n_admitted == 0:
        return 0
    for i in range(item_starts.size - 1):
        first, last = item_starts[i], item_starts[i + 1]
        for m in range(first, last):
            j = item_terms[m]
            g = np.searchsorted(gap_at, los[j])
            page = 0
            for k in range(los[j], his[j]):
                if g < gap_at.size and gap_at[g] == k:
                    page += gap_big[g]
                    g += 1
                else:
                    page += gaps[k]
                if seen[page] != 0 and held[page] == m - first:
                    held[page] = m - first + 1
        for h in range(n_admitted):
            page = admitted[h]
            if held[page] == last - first:
                seen[page] = 2
            held[page] = 0
    return n_admitted


@numba.njit(nogil=True, cache=True)
def _accumulate(
    gaps: Any,
    gap_at: Any,
    gap_big: Any,
    tfs: Any,
    tf_at: Any,
    tf_big: Any,
    los: Any,
    his: Any,
    scales: Any,
    scored: Any,
    norm: Any,
    live: Any,
    level: int,
    seen: Any,
    bits: Any,
    score: Any,
    touched: Any,
) -> int:
    """Add each term's postings (`los[j]:his[j]` of the gap and tf arrays, exceptions apart) to
    the pages' bit sets (`bits[page, j // 64]`) and, where `scored[j]`, to their scores; pages
    not `live` are skipped (`live` empty: every page is), and so are pages whose mark in `seen`
    is below `level`. Returns how many pages were touched, listed in `touched` in the order first
    seen."""
    n_touched = 0
    check_live = live.size > 0
    for j in range(los.size):
        word = j // WORD
        mask = np.uint64(1) << np.uint64(j % WORD)
        scale = scales[j]
        weigh = scored[j]
        g = np.searchsorted(gap_at, los[j])
        t = np.searchsorted(tf_at, los[j])
        page = 0
        for k in range(los[j], his[j]):
            if g < gap_at.size and gap_at[g] == k:
                page += gap_big[g]
                g += 1
            else:
                page += gaps[k]
            if t < tf_at.size and tf_at[t] == k:
                tf = np.float32(tf_big[t])
                t += 1
            else:
                tf = np.float32(tfs[k])
            if seen[page] < level or (check_live and not live[page]):
                continue
            fresh = True
            for w in range(bits.shape[1]):
                if bits[page, w] != 0:
                    fresh = False
                    break
            if fresh:
                touched[n_touched] = page
                n_touched += 1
            bits[page, word] |= mask
            if weigh:
                score[page] += np.float64((tf * scale) / (tf + norm[page]))
    return n_touched


@numba.njit(nogil=True, cache=True)
def _take(pages: Any, bits: Any, score: Any) -> tuple[Any, Any]:
    """The scores and bit sets of the given pages, their entries in the work arrays cleared."""
    out_score = np.empty(pages.size, np.float64)
    out_bits = np.empty((pages.size, bits.shape[1]), np.uint64)
    for i in range(pages.size):
        page = pages[i]
        out_score[i] = score[page]
        score[page] = 0.0
        for w in range(bits.shape[1]):
            out_bits[i, w] = bits[page, w]
            bits[page, w] = 0
    return out_score, out_bits


class Workspace:
    """Zeroed work arrays for one thread, grown to the largest segment and term count seen;
    `segment_postings` leaves them zeroed again."""

    def __init__(self) -> None:
        self.bits = np.zeros((0, 1), np.uint64)
        self.score = np.zeros(0, np.float64)
        self.touched = np.zeros(0, np.int32)
        self.seen = np.zeros(0, np.uint8)
        self.admitted = np.zeros(0, np.int32)
        self.held = np.zeros(0, np.uint16)
        self.held_pages = np.zeros(0, np.int32)

    def arrays(self, n_pages: int, words: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.bits.shape[0] < n_pages or self.bits.shape[1] != words:
            size = max(n_pages, self.bits.shape[0])
            self.bits = np.zeros((size, words), np.uint64)
            self.score = np.zeros(size, np.float64)
            self.touched = np.zeros(size, np.int32)
        if self.seen.size < n_pages:
            self.seen = np.zeros(n_pages, np.uint8)
            self.admitted = np.zeros(n_pages, np.int32)
            self.held = np.zeros(n_pages, np.uint16)
            self.held_pages = np.zeros(n_pages, np.int32)
        return self.bits[:n_pages], self.score[:n_pages], self.touched


@dataclass(frozen=True)
class Gate:
    """Which of a segment's pages a search reads (`regnb._matching.Pruning`): those holding
    every term of an item (`items`: each item's term positions, rarest first), and with a
    `floor`, only those of them that may score at least `floor`: `bounds` holds each term's
    bound on its weights in the segment (0 where it has no posting)."""

    items: list[list[int]]
    floor: float | None = None
    bounds: np.ndarray | None = None


def essential(bounds: np.ndarray, floor: float) -> np.ndarray:
    """The terms a page must hold to reach `floor`: all but the smallest bounds that together
    stay below it (MaxScore's essential lists)."""
    order = np.argsort(bounds, kind="stable")
    below = np.cumsum(bounds[order]) < floor
    out = np.ones(bounds.size, np.bool_)
    out[order[below]] = False
    return out


def segment_postings(
    space: Workspace,
    n_pages: int,
    gaps: tuple[np.ndarray, np.ndarray, np.ndarray],
    tfs: tuple[np.ndarray, np.ndarray, np.ndarray],
    ranges: tuple[np.ndarray, np.ndarray],
    scales: np.ndarray,
    scored: np.ndarray,
    norm: np.ndarray,
    live: np.ndarray | None,
    gate: Gate | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One segment's candidates for a query: the local pages (ascending, int32) holding at
    least one of the terms whose postings are `ranges` (start and end in the gap and tf arrays,
    each given as small values, exception positions, exception values), each one's BM25 summed
    over the `scored` terms (`scales`: each term's idf times (k1 + 1), float32), and each one's
    bit set of the terms it holds (uint64, term j at bit j % 64 of word j // 64). With a
    `gate`, only the pages it lets through (a floor needs every term scored)."""
    words = max(1, -(-len(scales) // WORD))
    bits, score, touched = space.arrays(n_pages, words)
    live_arr = np.zeros(0, np.bool_) if live is None else live
    seen = space.seen[:n_pages]
    level = 0
    if gate is not None:
        items = np.array([j for item in gate.items for j in item], np.int64)
        starts = np.cumsum([0] + [len(item) for item in gate.items]).astype(np.int64)
        held = space.held[:n_pages]
        if gate.floor is None or gate.bounds is None:
            n_admitted = _full_matches(
                *gaps,
                *ranges,
                live_arr,
                items,
                starts,
                seen,
                space.admitted,
                held,
                space.held_pages,
            )
            level = 1
        else:
            n_admitted = _above_floor(
                *gaps,
                *tfs,
                *ranges,
                scales,
                norm,
                live_arr,
                items,
                starts,
                gate.bounds,
                essential(gate.bounds, gate.floor),
                gate.floor,
                seen,
                space.admitted,
                held,
            )
            level = 2
    n_touched = _accumulate(
        *gaps,
        *tfs,
        ranges[0],
        ranges[1],
        scales,
        scored,
        norm,
        live_arr,
        level,
        seen,
        bits,
        score,
        touched,
    )
    if gate is not None:
        seen[space.admitted[:n_admitted]] = 0
    if n_touched * 16 > n_pages:  # many: one pass over the pages is cheaper than a sort
        touched_any = bits[:, 0] != 0 if words == 1 else bits.any(axis=1)  # bool: fast nonzero
        pages = np.flatnonzero(touched_any).astype(np.int32)
    else:
        pages = np.sort(touched[:n_touched])
    page_score, page_bits = _take(pages, bits, score)
    return pages, page_score, page_bits
