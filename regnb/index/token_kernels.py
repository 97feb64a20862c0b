"""The compiled half of `regnb.index.tokens`: the pages' bytes cut into runs and each distinct
run numbered, and the kept words counted and sorted by term into postings and positions. Apart
so that importing the index's formats does not import numba."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["numbered_runs", "run_bytes", "word_postings"]

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


@numba.njit(nogil=True, cache=True, inline="always")
def _in_run(c: int) -> bool:
    """A byte of a run: an ASCII letter or digit, or any byte of a non-ASCII character."""
    return (
        c >= 0x80
        or (c >= 0x30 and c <= 0x39)
        or (c >= 0x61 and c <= 0x7A)
        or (c >= 0x41 and c <= 0x5A)
    )


@numba.njit(nogil=True, cache=True)
def _grow(table: Any, hashes: Any, n: int) -> Any:
    """The hash table rebuilt at twice its size over the `n` runs numbered so far."""
    bigger = np.full(table.size * 2, -1, np.int32)
    mask = np.uint64(bigger.size - 1)
    for i in range(n):
        slot = hashes[i] & mask
        while bigger[slot] >= 0:
            slot = (slot + np.uint64(1)) & mask
        bigger[slot] = i
    return bigger


@numba.njit(nogil=True, cache=True)
def _page_ends(data: Any, offsets: Any) -> Any:
    """Where each page's words end: at its end, or at its first NUL byte where it holds a
    non-ASCII character (DuckDB's `strip_accents`, under `regnb_words`, stops there)."""
    ends = offsets[1:].copy()
    for p in range(offsets.size - 1):
        nul = -1
        wide = False
        for i in range(offsets[p], offsets[p + 1]):
            c = data[i]
            if c == 0 and nul < 0:
                nul = i
            wide |= c >= 0x80
        if wide and nul >= 0:
            ends[p] = nul
    return ends


@numba.njit(nogil=True, cache=True)
def numbered_runs(data: Any, offsets: Any) -> Any:
    """Each page's runs (maximal stretches of `_in_run` bytes; pages `offsets[i]:offsets[i+1]`
    of `data`, UTF-8), ASCII capitals lowered, each numbered by its bytes in order of first
    appearance. Returns (the lowered bytes, each run's number in page order, runs per page,
    each number's first run's start and length in the lowered bytes, and whether it holds a
    non-ASCII byte)."""
    low = data.copy()
    for i in range(low.size):
        c = low[i]
        if c >= 0x41 and c <= 0x5A:
            low[i] = c + 32
    n_pages = offsets.size - 1
    ends = _page_ends(data, offsets)
    page_runs = np.zeros(n_pages, np.int64)
    total = 0
    for p in range(n_pages):
        inside = False
        for i in range(offsets[p], ends[p]):
            here = _in_run(low[i])
            if here and not inside:
                page_runs[p] += 1
            inside = here
        total += page_runs[p]
    runs = np.empty(total, np.int32)
    cap = 1 << 16
    table = np.full(cap * 2, -1, np.int32)
    starts = np.empty(cap, np.int64)
    lengths = np.empty(cap, np.int32)
    hashes = np.empty(cap, np.uint64)
    wide = np.empty(cap, np.bool_)
    n = 0
    r = 0
    for p in range(n_pages):
        i = offsets[p]
        end = ends[p]
        while i < end:
            if not _in_run(low[i]):
                i += 1
                continue
            start = i
            h = _FNV_OFFSET
            is_wide = False
            while i < end and _in_run(low[i]):
                c = low[i]
                is_wide |= c >= 0x80
                h = (h ^ np.uint64(c)) * _FNV_PRIME
                i += 1
            length = i - start
            mask = np.uint64(table.size - 1)
            slot = h & mask
            found = -1
            while table[slot] >= 0:
                k = table[slot]
                if hashes[k] == h and lengths[k] == length:
                    s = starts[k]
                    same = True
                    for j in range(length):
                        if low[s + j] != low[start + j]:
                            same = False
                            break
                    if same:
                        found = k
                        break
                slot = (slot + np.uint64(1)) & mask
            if found < 0:
                if n == starts.size:
                    starts = np.concatenate((starts, np.empty(n, np.int64)))
                    lengths = np.concatenate((lengths, np.empty(n, np.int32)))
                    hashes = np.concatenate((hashes, np.empty(n, np.uint64)))
                    wide = np.concatenate((wide, np.empty(n, np.bool_)))
                found = n
                starts[n] = start
                lengths[n] = length
                hashes[n] = h
                wide[n] = is_wide
                table[slot] = n
                n += 1
                if 2 * n > table.size:
                    table = _grow(table, hashes, n)
            runs[r] = found
            r += 1
    return low, runs, page_runs, starts[:n].copy(), lengths[:n].copy(), wide[:n].copy()


@numba.njit(nogil=True, cache=True)
def run_bytes(low: Any, starts: Any, lengths: Any) -> Any:
    """The numbered runs' bytes one after another, and where each starts (and the last ends)."""
    offsets = np.zeros(starts.size + 1, np.int64)
    for k in range(starts.size):
        offsets[k + 1] = offsets[k] + lengths[k]
    out = np.empty(offsets[-1], np.uint8)
    for k in range(starts.size):
        out[offsets[k] : offsets[k + 1]] = low[starts[k] : starts[k] + lengths[k]]
    return out, offsets


@numba.njit(nogil=True, cache=True)
def word_postings(
    runs: Any, page_runs: Any, run_start: Any, run_word: Any, word_term: Any, n_terms: int
) -> Any:
    """The postings and positions of the pages' kept words: each run (`runs`, `page_runs` per
    page) is the words `run_word[run_start[r]:run_start[r + 1]]`, each word's term
    `word_term[w]` (0 to n_terms - 1, ascending with the term id; -1: dropped). A counting sort
    by term keeps each term's words in page and position order. Returns (posting term, page,
    tf, each posting's positions one after another, each page's kept words)."""
    n_pages = page_runs.size
    counts = np.zeros(n_terms + 1, np.int64)
    dl = np.zeros(n_pages, np.int32)
    r = 0
    for p in range(n_pages):
        for _ in range(page_runs[p]):
            k = runs[r]
            r += 1
            for j in range(run_start[k], run_start[k + 1]):
                t = word_term[run_word[j]]
                if t >= 0:
                    counts[t + 1] += 1
                    dl[p] += 1
    for t in range(n_terms):
        counts[t + 1] += counts[t]
    fill = counts[:-1].copy()
    pages = np.empty(counts[-1], np.int32)
    positions = np.empty(counts[-1], np.int32)
    r = 0
    for p in range(n_pages):
        pos = 0
        for _ in range(page_runs[p]):
            k = runs[r]
            r += 1
            for j in range(run_start[k], run_start[k + 1]):
                t = word_term[run_word[j]]
                if t >= 0:
                    at = fill[t]
                    pages[at] = p
                    positions[at] = pos
                    fill[t] = at + 1
                    pos += 1
    n_post = 0
    for t in range(n_terms):
        last = -1
        for i in range(counts[t], counts[t + 1]):
            if pages[i] != last:
                n_post += 1
                last = pages[i]
    post_term = np.empty(n_post, np.int32)
    post_page = np.empty(n_post, np.int32)
    post_tf = np.zeros(n_post, np.int32)
    q = -1
    for t in range(n_terms):
        last = -1
        for i in range(counts[t], counts[t + 1]):
            if pages[i] != last:
                q += 1
                post_term[q] = t
                post_page[q] = pages[i]
                last = pages[i]
            post_tf[q] += 1
    return post_term, post_page, post_tf, positions, dl
