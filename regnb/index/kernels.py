"""Compiled loops (numba) for the one step that touches the postings of a query's terms.

Reading a segment's postings for a search decodes each term's page-id gaps, weighs each posting
with BM25 and adds it to its page. In numpy those are a dozen passes over arrays as long as the
postings; here they are one pass that stays in cache, without the GIL. The arithmetic is
`regnb.index.bm25.bm25_from_norms` exactly: each posting's weight in float32 as
`(tf * scale) / (tf + norm)`, summed per page in float64 in the order of the terms, so the
scores are bit for bit those of the numpy formula.

A pruned read (`Gate`, from the search's `regnb.index.postings.Floors`) reads less:
- the pages holding every word of an item (or as many of them as the search asks) are found by
  reading the item's rarest lists and probing the others for those pages only: a probe jumps by
  the list's skip entries (the page at every `SKIP`-th posting, `regnb.index.segments.Blocks`) and
  decodes at most one run of postings;
- above a floor, only the essential lists (MaxScore) are read, merged in page order, and of
  them only the runs whose bound (with the other terms' bounds) can reach the floor (block-max);
  the other lists are probed for the pages left;
- the pages let through are then scored by probing every term's list (`_weigh`).

Imported where a search first reads postings (numba loads in about half a second, and compiled
code is cached beside this module).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from regnb.index import best_kernels
from regnb.index.best_kernels import record as record_best  # noqa: F401  (compiled by compile_all)
from regnb.index.position_kernels import phrase_hits
from regnb.index.segments import SKIP

__all__ = ["Gate", "Lists", "Workspace", "compile_all", "essential", "segment_postings"]

WORD = 64  # terms per word of a candidate's bit set
DENSE = 64  # postings per page looked for above which probing beats one pass over the list


@numba.njit(nogil=True, cache=True)
def _tf(k: int, tfs: Any) -> Any:
    """The tf of posting k, as float32 (`tfs`: small values, exception positions and values)."""
    tf_small, tf_at, tf_big = tfs
    if tf_at.size:
        t = np.searchsorted(tf_at, k)
        if t < tf_at.size and tf_at[t] == k:
            return np.float32(tf_big[t])
    return np.float32(tf_small[k])


@numba.njit(nogil=True, cache=True)
def _ascending(values: Any, flags: Any) -> Any:
    """The distinct values (pages of a segment), ascending: where they are many, flagged in
    `flags` (zeroed, a byte per page, left zeroed) and collected in one pass over the pages;
    else merge sorted (numba's np.sort, a quicksort, is slow on runs already in order)."""
    if values.size * 8 > flags.size:
        for v in values:
            flags[v] = 1
        out = np.empty(values.size, values.dtype)
        n = 0
        for page in range(flags.size):
            if flags[page]:
                out[n] = page
                n += 1
                flags[page] = 0
        return out[:n]
    ordered = values[np.argsort(values, kind="mergesort")]
    n = 0
    for i in range(ordered.size):
        if n == 0 or ordered[i] != ordered[n - 1]:
            ordered[n] = ordered[i]
            n += 1
    return ordered[:n]


@numba.njit(nogil=True, cache=True)
def _probe(gaps: Any, lists: Any, j: int, pages: Any, n: int, found: Any) -> None:
    """For each of `pages[:n]` (ascending), the position of its posting in term j's list, or
    -1 (`found`). `gaps`: small values, exception positions, exception values; `lists`: los,
    his, s0s, s1s, skip_page, skip_bound (`Lists`). Jumps by the list's skip entries (the page
    of every `SKIP`-th posting) and decodes from there."""
    small, gap_at, gap_big = gaps
    los, his, s0s, s1s, skip_page, _ = lists
    lo, hi, s0 = los[j], his[j], s0s[j]
    k = lo - 1  # the cursor: posting k, on `page` (-1 before the first)
    page = -1
    g = np.searchsorted(gap_at, lo)
    b = -1
    entries = s1s[j] - s0
    for i in range(n):
        p = pages[i]
        jump = b
        while jump + 1 < entries and skip_page[s0 + jump + 1] <= p:
            jump += 1
        if jump > b:
            b = jump
            if lo + b * SKIP > k:
                k = lo + b * SKIP
                page = skip_page[s0 + b]
                g = np.searchsorted(gap_at, k + 1)
        while page < p and k + 1 < hi:
            k += 1
            if g < gap_at.size and gap_at[g] == k:
                gap = gap_big[g]
                g += 1
            else:
                gap = small[k]
            page = gap if k == lo else page + gap
        found[i] = k if page == p else -1


@numba.njit(nogil=True, cache=True)
def _find(gaps: Any, lists: Any, j: int, pages: Any, n: int, found: Any, marks: Any) -> None:
    """`_probe`, or where the pages are many for the list, one pass over the list looking each
    posting's page up in `marks` (zeroed, left zeroed: a page's index among `pages` plus 1)."""
    lo, hi = lists[0][j], lists[1][j]
    if n * DENSE < hi - lo:
        _probe(gaps, lists, j, pages, n, found)
        return
    small, gap_at, gap_big = gaps
    for i in range(n):
        found[i] = -1
        marks[pages[i]] = i + 1
    g = np.searchsorted(gap_at, lo)
    page = 0
    for k in range(lo, hi):
        if g < gap_at.size and gap_at[g] == k:
            page += gap_big[g]
            g += 1
        else:
            page += small[k]
        m = marks[page]
        if m:
            found[m - 1] = k
    for i in range(n):
        marks[pages[i]] = 0


@numba.njit(nogil=True, cache=True)
def _scan(
    gaps: Any,
    tfs: Any,
    los: Any,
    his: Any,
    scales: Any,
    scored: Any,
    norm: Any,
    live: Any,
    bits: Any,
    score: Any,
    touched: Any,
) -> int:
    """Add each term's postings (`los[j]:his[j]` of the gap and tf arrays: small values,
    exception positions, exception values) to the pages' bit sets (`bits[page, j // 64]`) and,
    where `scored[j]`, to their scores; pages not `live` are skipped (`live` empty: every page
    is). Returns how many pages were touched, listed in `touched` in the order first seen."""
    small, gap_at, gap_big = gaps
    tf_small, tf_at, tf_big = tfs
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
                page += small[k]
            if t < tf_at.size and tf_at[t] == k:
                tf = np.float32(tf_big[t])
                t += 1
            else:
                tf = np.float32(tf_small[k])
            if check_live and not live[page]:
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


@numba.njit(nogil=True, cache=True)
def _holding(
    gaps: Any,
    lists: Any,
    terms: Any,
    need: int,
    pages: Any,
    counts: Any,
    n: int,
    marks: Any,
) -> int:
    """Keep (in place, in order) those of `pages[:n]` that hold at least `need` terms, counting
    those of `counts[:n]` (terms already found) and of the lists of `terms` (`gaps`, `lists`:
    as `_probe`'s); returns how many are kept. A page is dropped as soon as the lists left
    cannot make up its count. `marks`: `_find`'s work array."""
    found = np.empty(n, np.int64)
    for m in range(terms.size):
        if n == 0:
            break
        _find(gaps, lists, terms[m], pages, n, found, marks)
        left = terms.size - m - 1
        kept = 0
        for i in range(n):
            count = counts[i] + (1 if found[i] >= 0 else 0)
            if count + left >= need:
                pages[kept] = pages[i]
                counts[kept] = count
                kept += 1
        n = kept
    kept = 0
    for i in range(n):
        if counts[i] >= need:
            pages[kept] = pages[i]
            kept += 1
    return kept


@numba.njit(nogil=True, cache=True)
def _matching_pages(
    gaps: Any,
    lists: Any,
    live: Any,
    item_terms: Any,
    item_starts: Any,
    item_needs: Any,
    held: Any,
    marks: Any,
    flags: Any,
) -> Any:
    """The live pages (ascending) holding at least `item_needs[i]` terms of some item i (item
    i's terms: `item_terms[item_starts[i]:item_starts[i + 1]]`, rarest first). Such a page holds
    one of the item's `len - need + 1` rarest terms: those lists are read, the others probed
    for their pages. `gaps`, `lists`: as `_probe`'s; `held` (zeroed, left zeroed), `marks` and
    `flags` are work arrays."""
    small, gap_at, gap_big = gaps
    los, his = lists[0], lists[1]
    check_live = live.size > 0
    total = 0
    for i in range(item_starts.size - 1):
        lead = item_starts[i + 1] - item_starts[i] - item_needs[i] + 1
        for m in range(item_starts[i], item_starts[i] + lead):
            total += his[item_terms[m]] - los[item_terms[m]]
    out = np.empty(total, np.int32)
    n_out = 0
    for i in range(item_starts.size - 1):
        first, last, need = item_starts[i], item_starts[i + 1], item_needs[i]
        lead = last - first - need + 1
        size = 0
        for m in range(first, first + lead):
            size += his[item_terms[m]] - los[item_terms[m]]
        pages = np.empty(size, np.int32)
        n = 0
        for m in range(first, first + lead):
            j = item_terms[m]
            g = np.searchsorted(gap_at, los[j])
            page = 0
            for k in range(los[j], his[j]):
                if g < gap_at.size and gap_at[g] == k:
                    page += gap_big[g]
                    g += 1
                else:
                    page += small[k]
                if check_live and not live[page]:
                    continue
                if held[page] == 0:
                    pages[n] = page
                    n += 1
                held[page] += 1
        if lead > 1:
            pages[:n] = _ascending(pages[:n], flags)
        counts = np.empty(n, np.int64)
        for h in range(n):
            counts[h] = held[pages[h]]
            held[pages[h]] = 0
        rest = item_terms[first + lead : last]
        n = _holding(gaps, lists, rest, need, pages, counts, n, marks)
        out[n_out : n_out + n] = pages[:n]
        n_out += n
    if item_starts.size <= 2:
        return out[:n_out].copy()
    return _ascending(out[:n_out], flags)  # the items' pages joined


POS, END, CUR, RUN, GX, TX = range(6)  # rows of a merge's cursors (`_next_run`)


@numba.njit(nogil=True, cache=True)
def _next_run(e: int, j: int, lists: Any, gaps: Any, tfs: Any, bound: float, cursor: Any) -> None:
    """Move list e (term j; `lists`: los, his, s0s, s1s, skip_page, skip_bound) of a merge to
    the first posting of its next run of `SKIP` postings whose bound (`skip_bound` times
    `bound`) can reach the need (`bound` 0 where the list has no skip entries: it is one run),
    or mark it done (`CUR` -1). `cursor[:, e]`: its posting (`POS`), the run's end (`END`), its
    page (`CUR`), the run (`RUN`), and the next gap and tf exceptions at or after it (`GX`,
    `TX`); `gaps`, `tfs`: small values, exception positions, exception values."""
    los, his, s0s, s1s, skip_page, skip_bound = lists
    small, gap_at, gap_big = gaps
    entries = s1s[j] - s0s[j]
    if entries == 0:
        if cursor[RUN, e] >= 0 or his[j] == los[j]:
            cursor[CUR, e] = -1
            return
        start = los[j]
        g = np.searchsorted(gap_at, start)
        cursor[RUN, e], cursor[POS, e], cursor[END, e] = 0, start, his[j]
        cursor[CUR, e] = gap_big[g] if g < gap_at.size and gap_at[g] == start else small[start]
        cursor[GX, e] = np.searchsorted(gap_at, start + 1)
        cursor[TX, e] = np.searchsorted(tfs[1], start)
        return
    b = cursor[RUN, e] + 1
    while b < entries and np.float64(skip_bound[s0s[j] + b]) < bound:
        b += 1
    if b >= entries:
        cursor[CUR, e] = -1
        return
    start = los[j] + b * SKIP
    cursor[RUN, e], cursor[POS, e], cursor[END, e] = b, start, min(start + SKIP, his[j])
    cursor[CUR, e] = skip_page[s0s[j] + b]
    cursor[GX, e] = np.searchsorted(gap_at, start + 1)
    cursor[TX, e] = np.searchsorted(tfs[1], start)


@numba.njit(nogil=True, cache=True)
def _merge_essential(
    gaps: Any,
    tfs: Any,
    lists: Any,
    scales: Any,
    bound_scale: float,
    norm: Any,
    live: Any,
    bounds: Any,
    essential: Any,
    floor: float,
    others: float,
    known: bool,
) -> tuple[Any, Any, Any]:
    """The live pages (ascending) whose weights over the essential lists plus the other terms'
    bounds (`others`) reach `floor`, each one's sum of those weights, and (where `known`) a bit
    per essential term it holds. The essential lists are merged in page order; a run of a list
    whose bound (`skip_bound` times the term's scale times `bound_scale`) plus every other
    term's bound cannot reach the floor is not read (block-max)."""
    small, gap_at, gap_big = gaps
    tf_small, tf_at, tf_big = tfs
    los, his = lists[0], lists[1]
    check_live = live.size > 0
    total = 0.0
    for j in range(los.size):
        total += bounds[j]
    ess = np.flatnonzero(essential)
    m = ess.size
    cursor = np.full((6, m), -1, np.int64)  # each list's place (`_next_run`)
    # a run is read where its bound can reach the need: skip_bound * scale * bound_scale
    run_need = np.empty(m, np.float64)
    for e in range(m):
        j = ess[e]
        need = floor - (total - bounds[j])
        run_need[e] = need / (np.float64(scales[j]) * bound_scale)
        _next_run(e, j, lists, gaps, tfs, run_need[e], cursor)
    size = 0
    for e in range(m):
        size += his[ess[e]] - los[ess[e]]
    pages = np.empty(size, np.int32)
    sums = np.empty(size, np.float64)
    have = np.empty(size, np.uint64)
    n = 0
    while True:
        p = -1
        for e in range(m):
            if cursor[CUR, e] >= 0 and (p < 0 or cursor[CUR, e] < p):
                p = cursor[CUR, e]
        if p < 0:
            break
        value = 0.0
        bits = np.uint64(0)
        for e in range(m):
            if cursor[CUR, e] != p:
                continue
            j = ess[e]
            k = cursor[POS, e]
            # the tf by the list's own cursor (`TX`), not by `_tf`: a call per posting, with the
            # arrays passed, makes the merge some 30% slower
            t = cursor[TX, e]
            while t < tf_at.size and tf_at[t] < k:
                t += 1
            cursor[TX, e] = t
            tf = (
                np.float32(tf_big[t])
                if t < tf_at.size and tf_at[t] == k
                else np.float32(tf_small[k])
            )
            value += np.float64((tf * scales[j]) / (tf + norm[p]))
            if known:
                bits |= np.uint64(1) << np.uint64(j)
            if k + 1 < cursor[END, e]:
                cursor[POS, e] = k + 1
                g = cursor[GX, e]
                if g < gap_at.size and gap_at[g] == k + 1:
                    cursor[CUR, e] = p + gap_big[g]
                    cursor[GX, e] = g + 1
                else:
                    cursor[CUR, e] = p + small[k + 1]
            else:
                _next_run(e, j, lists, gaps, tfs, run_need[e], cursor)
        if (check_live and not live[p]) or value + others < floor:
            continue
        pages[n] = p
        sums[n] = value
        have[n] = bits
        n += 1
    return pages[:n], sums[:n], have[:n]


@numba.njit(nogil=True, cache=True)
def _probe_others(
    gaps: Any,
    tfs: Any,
    lists: Any,
    scales: Any,
    norm: Any,
    bounds: Any,
    essential: Any,
    others: float,
    floor: float,
    pages: Any,
    sums: Any,
    have: Any,
    known: bool,
    marks: Any,
) -> int:
    """The other terms' lists probed for `pages` (ascending; `sums`: their weights so far,
    `have`: their terms' bits), largest bound first: each adds its weights and takes its bound
    off `others` (the other terms' bounds together), and a page is dropped as soon as it cannot
    reach `floor`. The pages left are kept in place, in order; returns how many."""
    n: int = pages.size
    left = np.flatnonzero(~essential)
    left = left[np.argsort(-bounds[left], kind="mergesort")]
    found = np.empty(n, np.int64)
    for other in left:
        if n == 0:
            break
        others -= bounds[other]
        _find(gaps, lists, int(other), pages, n, found, marks)
        scale = scales[other]
        kept = 0
        for i in range(n):
            total_i = sums[i]
            k = found[i]
            bits_i = have[i]
            if k >= 0:
                tf = _tf(k, tfs)
                total_i += np.float64((tf * scale) / (tf + norm[pages[i]]))
                if known:
                    bits_i |= np.uint64(1) << np.uint64(other)
            if total_i + others >= floor:
                pages[kept] = pages[i]
                sums[kept] = total_i
                have[kept] = bits_i
                kept += 1
        n = kept
    return n


@numba.njit(nogil=True, cache=True)
def _check_items(
    gaps: Any,
    lists: Any,
    item_terms: Any,
    item_starts: Any,
    item_needs: Any,
    pages: Any,
    have: Any,
    known: bool,
    marks: Any,
) -> Any:
    """Those of `pages` (ascending) holding at least `item_needs[i]` terms of some item i: from
    the terms each page was found to hold (`have`, a bit per term, where `known`), else by
    probing the items' lists for them."""
    n = pages.size
    if n == 0:
        return pages
    keep = np.zeros(n, np.bool_)
    if known:  # every term's presence is known for the pages: count the items' terms
        for i in range(n):
            for item in range(item_starts.size - 1):
                count = 0
                for m in range(item_starts[item], item_starts[item + 1]):
                    if have[i] & (np.uint64(1) << np.uint64(item_terms[m])):
                        count += 1
                if count >= item_needs[item]:
                    keep[i] = True
                    break
        return pages[keep]
    for i in range(item_starts.size - 1):
        trial = pages.copy()
        terms = item_terms[item_starts[i] : item_starts[i + 1]]
        held = _holding(gaps, lists, terms, item_needs[i], trial, np.zeros(n, np.int64), n, marks)
        at = 0
        for h in range(held):  # both ascending: mark the pages held
            while pages[at] != trial[h]:
                at += 1
            keep[at] = True
    return pages[keep]


@numba.njit(nogil=True, cache=True)
def _above_floor(
    gaps: Any,
    tfs: Any,
    lists: Any,
    scales: Any,
    bound_scale: float,
    norm: Any,
    live: Any,
    item_terms: Any,
    item_starts: Any,
    item_needs: Any,
    bounds: Any,
    essential: Any,
    floor: float,
    marks: Any,
) -> Any:
    """The live pages (ascending) that may score `floor` or more and hold every term of an
    item. Every such page holds an essential term (MaxScore): the essential lists are merged
    (`_merge_essential`), the other terms' lists probed for the pages kept (`_probe_others`),
    and last the items checked (`_check_items`: at least `item_needs[i]` of item i's terms).
    `bounds`: each term's bound on its weights; `gaps`, `tfs`: small values, exception
    positions, exception values; `lists`: as `_probe`'s."""
    known = lists[0].size <= WORD  # which terms each page holds is kept as it is found (a bit each)
    others = 0.0  # the bounds of the terms that are not essential
    for j in range(lists[0].size):
        if not essential[j]:
            others += bounds[j]
    pages, sums, have = _merge_essential(
        gaps, tfs, lists, scales, bound_scale, norm, live, bounds, essential, floor, others, known
    )
    n = _probe_others(
        gaps,
        tfs,
        lists,
        scales,
        norm,
        bounds,
        essential,
        others,
        floor,
        pages,
        sums,
        have,
        known,
        marks,
    )
    return _check_items(
        gaps, lists, item_terms, item_starts, item_needs, pages[:n], have[:n], known, marks
    )


@numba.njit(nogil=True, cache=True)
def _weigh(
    gaps: Any,
    tfs: Any,
    lists: Any,
    scales: Any,
    scored: Any,
    norm: Any,
    pages: Any,
    words: int,
    marks: Any,
) -> tuple[Any, Any]:
    """The scores and bit sets of `pages` (ascending), each term's list probed for them, or
    read through where they are many for it (`_find`): the same sums, in the same order, as
    `_scan`. `gaps`, `tfs`, `lists`: as `_above_floor`'s; `marks`: `_find`'s work array."""
    small, gap_at, gap_big = gaps
    tf_small, tf_at, tf_big = tfs
    los, his = lists[0], lists[1]
    n = pages.size
    score = np.zeros(n, np.float64)
    bits = np.zeros((n, words), np.uint64)
    found = np.empty(n, np.int64)
    for i in range(n):
        marks[pages[i]] = i + 1
    for j in range(los.size):
        if his[j] == los[j]:
            continue
        word = j // WORD
        mask = np.uint64(1) << np.uint64(j % WORD)
        scale = scales[j]
        weigh = scored[j]
        if n * DENSE >= his[j] - los[j]:  # read the list through
            g = np.searchsorted(gap_at, los[j])
            t = np.searchsorted(tf_at, los[j])
            page = 0
            for k in range(los[j], his[j]):
                if g < gap_at.size and gap_at[g] == k:
                    page += gap_big[g]
                    g += 1
                else:
                    page += small[k]
                m = marks[page]
                if m == 0:
                    continue
                bits[m - 1, word] |= mask
                if weigh:
                    while t < tf_at.size and tf_at[t] < k:
                        t += 1
                    tf = (
                        np.float32(tf_big[t])
                        if t < tf_at.size and tf_at[t] == k
                        else np.float32(tf_small[k])
                    )
                    score[m - 1] += np.float64((tf * scale) / (tf + norm[page]))
            continue
        _probe(gaps, lists, j, pages, n, found)
        for i in range(n):
            k = found[i]
            if k < 0:
                continue
            bits[i, word] |= mask
            if weigh:
                tf = _tf(k, tfs)
                score[i] += np.float64((tf * scale) / (tf + norm[pages[i]]))
    for i in range(n):
        marks[pages[i]] = 0
    return score, bits


class Workspace:
    """Zeroed work arrays for one thread, grown to the largest segment and term count seen;
    `segment_postings` leaves them zeroed again."""

    def __init__(self) -> None:
        self.bits = np.zeros((0, 1), np.uint64)
        self.score = np.zeros(0, np.float64)
        self.touched = np.zeros(0, np.int32)
        self._work: dict[str, np.ndarray] = {}

    def work(self, name: str, n_pages: int, dtype: type) -> np.ndarray:
        """A zeroed work array of a kernel (by `name`), one value a page of a segment of
        `n_pages` pages; the kernel leaves it zeroed."""
        have = self._work.get(name)
        if have is None or have.size < n_pages:
            have = self._work[name] = np.zeros(n_pages, dtype)
        return have[:n_pages]

    def arrays(self, n_pages: int, words: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.bits.shape[0] < n_pages or self.bits.shape[1] != words:
            size = max(n_pages, self.bits.shape[0])
            self.bits = np.zeros((size, words), np.uint64)
            self.score = np.zeros(size, np.float64)
            self.touched = np.zeros(size, np.int32)
        return self.bits[:n_pages], self.score[:n_pages], self.touched


@dataclass(frozen=True)
class Lists:
    """A query's terms in one segment: the posting arrays (small values, exception positions,
    exception values, for the gaps and the tfs), where each term's postings start and end
    (`los`, `his`) and its skip entries (`s0s`, `s1s` into `skip_page` and `skip_bound`, the
    segment's `regnb.index.segments.Blocks`)."""

    gaps: tuple[np.ndarray, np.ndarray, np.ndarray]
    tfs: tuple[np.ndarray, np.ndarray, np.ndarray]
    los: np.ndarray
    his: np.ndarray
    s0s: np.ndarray
    s1s: np.ndarray
    skip_page: np.ndarray
    skip_bound: np.ndarray


@dataclass(frozen=True)
class Gate:
    """Which of a segment's pages a search reads (`regnb.index.postings.Floors`): those holding at
    least `needs[i]` terms of some item i (`items`: each item's term positions, rarest first),
    and with a `floor`, only those of them that may score at least `floor`: `bounds` holds each
    term's bound on its weights in the segment (0 where it has no posting) and `bound_scale`
    what the segment's skip bounds are multiplied by, with a term's scale, to bound its
    weights."""

    items: list[list[int]]
    needs: list[int]
    floor: float | None = None
    bounds: np.ndarray | None = None
    bound_scale: float = 1.0


def essential(bounds: np.ndarray, floor: float, sizes: np.ndarray) -> np.ndarray:
    """The terms a page must hold one of to reach `floor` (MaxScore's essential lists): all but
    some whose bounds together stay below it. Those left out are read only for the pages the
    essential lists give, so the longest lists for their bound are left out first."""
    order = np.lexsort((np.arange(bounds.size), -sizes / np.maximum(bounds, 1e-12)))
    out = np.ones(bounds.size, np.bool_)
    total = 0.0
    for j in order.tolist():
        if total + bounds[j] < floor:
            total += bounds[j]
            out[j] = False
    return out


def segment_postings(
    space: Workspace,
    n_pages: int,
    lists: Lists,
    scales: np.ndarray,
    scored: np.ndarray,
    norm: np.ndarray,
    live: np.ndarray | None,
    gate: Gate | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One segment's candidates for a query: the local pages (ascending, int32) holding at
    least one of the terms (`lists`), each one's BM25 summed over the `scored` terms (`scales`:
    each term's idf times (k1 + 1), float32), and each one's bit set of the terms it holds
    (uint64, term j at bit j % 64 of word j // 64). With a `gate`, only the pages it lets
    through (a floor needs every term scored)."""
    words = max(1, -(-len(scales) // WORD))
    live_arr = np.zeros(0, np.bool_) if live is None else live
    if gate is not None:
        where = (lists.los, lists.his, lists.s0s, lists.s1s, lists.skip_page, lists.skip_bound)
        marks = space.work("marks", n_pages, np.int32)
        items = np.array([j for item in gate.items for j in item], np.int64)
        starts = np.cumsum([0] + [len(item) for item in gate.items]).astype(np.int64)
        needs = np.array(gate.needs, np.int64)
        if gate.floor is None or gate.bounds is None:
            held = space.work("held", n_pages, np.uint16)
            flags = space.work("flags", n_pages, np.uint8)
            pages = _matching_pages(
                lists.gaps, where, live_arr, items, starts, needs, held, marks, flags
            )
        else:
            pages = _above_floor(
                lists.gaps,
                lists.tfs,
                where,
                scales,
                gate.bound_scale,
                norm,
                live_arr,
                items,
                starts,
                needs,
                gate.bounds,
                essential(gate.bounds, gate.floor, lists.his - lists.los),
                gate.floor,
                marks,
            )
        pages = pages.astype(np.int32)
        score, bits = _weigh(
            lists.gaps, lists.tfs, where, scales, scored, norm, pages, words, marks
        )
        return pages, score, bits
    bits, score, touched = space.arrays(n_pages, words)
    n_touched = _scan(
        lists.gaps,
        lists.tfs,
        lists.los,
        lists.his,
        scales,
        scored,
        norm,
        live_arr,
        bits,
        score,
        touched,
    )
    if n_touched * 16 > n_pages:  # many: one pass over the pages is cheaper than a sort
        touched_any = bits[:, 0] != 0 if words == 1 else bits.any(axis=1)  # bool: fast nonzero
        pages = np.flatnonzero(touched_any).astype(np.int32)
    else:
        pages = np.sort(touched[:n_touched])
    page_score, page_bits = _take(pages, bits, score)
    return pages, page_score, page_bits


def _array(dtype: type, *, readonly: bool = False, dims: int = 1) -> Any:
    """The numba type of a C-contiguous array of `dtype` (read-only: a memory-mapped one)."""
    arr: np.ndarray = np.zeros((1,) * dims, dtype)
    arr.setflags(write=not readonly)
    return numba.typeof(arr)  # type: ignore[no-untyped-call]


def _signatures() -> dict[Any, tuple[Any, ...]]:
    """The argument types `segment_postings` (and a phrase's read of positions) calls each
    compiled entry with (a segment's posting arrays are read-only memory maps, incremental
    segments' too)."""
    i64, i32, f32, f64 = (_array(t) for t in (np.int64, np.int32, np.float32, np.float64))
    flags, u16, u8, bits = (
        _array(np.bool_),
        _array(np.uint16),
        _array(np.uint8),
        _array(np.uint64, dims=2),
    )
    tuple_of = numba.types.Tuple
    gaps = tuple_of((_array(np.uint16, readonly=True), i64, i64))  # type: ignore[no-untyped-call]
    tfs = tuple_of((_array(np.uint8, readonly=True), i64, i64))  # type: ignore[no-untyped-call]
    where = tuple_of((i64, i64, i64, i64, i32, f32))  # type: ignore[no-untyped-call]
    floor = numba.float64
    return {
        **best_kernels.signatures(),  # each dataset's best pages (`DatasetBest`)
        _matching_pages: (gaps, where, flags, i64, i64, i64, u16, i32, u8),
        _above_floor: (
            gaps,
            tfs,
            where,
            f32,
            floor,
            f32,
            flags,
            i64,
            i64,
            i64,
            f64,
            flags,
            floor,
            i32,
        ),
        _weigh: (gaps, tfs, where, f32, flags, f32, i32, numba.int64, i32),
        _scan: (gaps, tfs, i64, i64, f32, flags, f32, flags, bits, f64, i32),
        _take: (i32, bits, f64),
        # a phrase read from a segment's positions (`regnb.index.positions`)
        phrase_hits: (
            _array(np.uint8, readonly=True),
            i64,
            _array(np.int64, dims=2),
            _array(np.int64, dims=2),
            numba.int64,
        ),
    }


def compile_all(progress: bool = True) -> None:
    """Compile (or load from numba's cache) every entry `segment_postings` calls, for every type
    it calls it with, so that no search pays for it inside its time budget. Compiling takes
    about 20 s on a cold, busy machine, once per install; loading the cache well under a
    second. A progress bar shows when it takes over two seconds."""
    from tqdm.auto import tqdm

    work = list(_signatures().items())
    bar = tqdm(
        work, desc="compiling search kernels (once)", unit="kernel", delay=2, disable=not progress
    )
    for fn, sig in bar:
        fn.compile(sig)
