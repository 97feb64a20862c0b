"""The compiled half of `regnb.index.tokens`: the pages' bytes cut into runs and each distinct
run numbered, and the kept words counted and sorted by term into postings and positions. Apart
so that importing the index's formats does not import numba."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

__all__ = ["numbered_runs", "posting_kernel"]

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)
NEAR_MASK = np.uint64(4095)  # runs remembered in front of the table (the frequent ones)


@numba.njit(nogil=True, cache=True, inline="always")
def _in_run(c: int) -> bool:
    """A byte of a run: an ASCII letter or digit, or any byte of a non-ASCII character."""
    return (
        c >= 0x80
        or (c >= 0x30 and c <= 0x39)
        or (c >= 0x61 and c <= 0x7A)
        or (c >= 0x41 and c <= 0x5A)
    )


@numba.njit(nogil=True, cache=True, inline="always")
def _lower(c: int) -> int:
    return c + 32 if c >= 0x41 and c <= 0x5A else c


@numba.njit(nogil=True, cache=True, inline="always")
def _same_tail(arena: np.ndarray, s: int, data: np.ndarray, start: int, length: int) -> bool:
    """Whether a numbered run (at `s` in the arena) and the page's run (at `start`) agree beyond
    their first 8 bytes, which the key already compared."""
    for j in range(8, length):  # noqa: SIM110 (compiled: no generators)
        if arena[s + j] != _lower(data[start + j]):
            return False
    return True


@numba.njit(nogil=True, cache=True)
def _grow(table: Any) -> Any:
    """The hash table (rows: hash, first 8 bytes, length << 32 | number + 1) at twice its size."""
    bigger = np.zeros((table.shape[0] * 2, 3), np.uint64)
    mask = np.uint64(bigger.shape[0] - 1)
    for i in range(table.shape[0]):
        if table[i, 2] == 0:
            continue
        slot = table[i, 0] & mask
        while bigger[slot, 2] != 0:
            slot = (slot + np.uint64(1)) & mask
        bigger[slot, 0] = table[i, 0]
        bigger[slot, 1] = table[i, 1]
        bigger[slot, 2] = table[i, 2]
    return bigger


@numba.njit(nogil=True, cache=True)
def _wide(data: Any, lo: int, hi: int) -> bool:
    """Whether bytes lo to hi hold a non-ASCII one."""
    for i in range(lo, hi):  # noqa: SIM110  (a loop numba compiles; `any` of a generator it does not)
        if data[i] >= 0x80:
            return True
    return False


@numba.njit(nogil=True, cache=True)
def numbered_runs(first: Any, first_at: Any, second: Any, second_at: Any) -> Any:
    """Each page's runs (maximal stretches of `_in_run` bytes; page p is the UTF-8 bytes
    `first[first_at[p, 0]:first_at[p, 1]]`, a space, then those of `second` at `second_at[p]`),
    ASCII capitals lowered, each numbered by its bytes in order of first appearance. A page
    that holds a non-ASCII byte ends at its first NUL byte, as it does for DuckDB's
    `strip_accents` (under `regnb_words`). Returns (each run's number, page after
    page; runs per page; the numbered runs' bytes one after another and where each starts (and
    the last ends); whether each holds a non-ASCII byte). A run of 8 bytes or fewer is told
    apart by one row of the table (its hash, bytes and length); a longer one also by its
    bytes."""
    n_pages = first_at.shape[0]
    page_runs = np.zeros(n_pages, np.int64)
    runs = np.empty(max(16, (first.size + second.size) // 6), np.int32)
    table = np.zeros((1 << 16, 3), np.uint64)
    arena = np.empty(1 << 20, np.uint8)
    starts = np.zeros((1 << 14) + 1, np.int64)
    wide = np.zeros(1 << 14, np.bool_)
    near_hash = np.zeros(NEAR_MASK + 1, np.uint64)  # the runs seen last, by hash: in cache
    near_key = np.zeros(NEAR_MASK + 1, np.uint64)
    near_row = np.zeros(NEAR_MASK + 1, np.uint64)
    n = 0
    r = 0
    for p in range(n_pages):
        checked = False  # for a NUL: whether the page is known to be ASCII
        stop = False
        for piece in range(2):
            if stop:
                break
            data = first if piece == 0 else second
            span = first_at[p] if piece == 0 else second_at[p]
            i = span[0]
            end = span[1]
            while i < end:
                c = data[i]
                if not _in_run(c):
                    if c == 0 and not checked:
                        if _wide(first, first_at[p, 0], first_at[p, 1]) or _wide(
                            second, second_at[p, 0], second_at[p, 1]
                        ):
                            stop = True
                            break
                        checked = True
                    i += 1
                    continue
                start = i
                h = _FNV_OFFSET
                key = np.uint64(0)
                is_wide = False
                while i < end:
                    c = data[i]
                    if not _in_run(c):
                        break
                    c = _lower(c)
                    is_wide |= c >= 0x80
                    h = (h ^ np.uint64(c)) * _FNV_PRIME
                    if i - start < 8:
                        key |= np.uint64(c) << np.uint64(8 * (i - start))
                    i += 1
                length = i - start
                row_here = np.uint64(length) << np.uint64(32)
                near = (h >> np.uint64(40)) & NEAR_MASK
                if (
                    near_hash[near] == h
                    and near_key[near] == key
                    and near_row[near] >> np.uint64(32) == length
                ):
                    k = np.int64(near_row[near] & np.uint64(0xFFFFFFFF)) - 1
                    if _same_tail(arena, starts[k], data, start, length):
                        if r == runs.size:
                            runs = np.concatenate((runs, np.empty(runs.size, np.int32)))
                        runs[r] = k
                        r += 1
                        page_runs[p] += 1
                        continue
                mask = np.uint64(table.shape[0] - 1)
                slot = h & mask
                found: Any = -1
                while table[slot, 2] != 0:
                    row = table[slot, 2]
                    if (
                        table[slot, 0] == h
                        and table[slot, 1] == key
                        and (row >> np.uint64(32)) == length
                    ):
                        k = np.int64(row & np.uint64(0xFFFFFFFF)) - 1
                        if _same_tail(arena, starts[k], data, start, length):
                            found = k
                            break
                    slot = (slot + np.uint64(1)) & mask
                if found < 0:
                    found = n
                    if n + 1 >= wide.size:
                        starts = np.concatenate((starts, np.zeros(starts.size, np.int64)))
                        wide = np.concatenate((wide, np.zeros(wide.size, np.bool_)))
                    put = starts[n]
                    if put + length > arena.size:
                        arena = np.concatenate((arena, np.empty(max(arena.size, length), np.uint8)))
                    for j in range(length):
                        arena[put + j] = _lower(data[start + j])
                    starts[n + 1] = put + length
                    wide[n] = is_wide
                    table[slot, 0] = h
                    table[slot, 1] = key
                    table[slot, 2] = (np.uint64(length) << np.uint64(32)) | np.uint64(n + 1)
                    n += 1
                    if 2 * n > table.shape[0]:
                        table = _grow(table)
                near_hash[near] = h
                near_key[near] = key
                near_row[near] = row_here | np.uint64(found + 1)
                if r == runs.size:
                    runs = np.concatenate((runs, np.empty(runs.size, np.int32)))
                runs[r] = found
                r += 1
                page_runs[p] += 1
    return (
        runs[:r].copy(),
        page_runs,
        arena[: starts[n]].copy(),
        starts[: n + 1].copy(),
        wide[:n].copy(),
    )


@numba.njit(nogil=True, cache=True)
def posting_kernel(
    runs: Any, page_runs: Any, run_start: Any, run_word: Any, word_term: Any, n_terms: int
) -> Any:
    """The postings and positions of the pages' kept words: each run (`runs`, `page_runs` per
    page) is the words `run_word[run_start[r]:run_start[r + 1]]`, each word's term
    `word_term[w]` (0 to n_terms - 1, ascending with the term id; -1: dropped). A counting sort
    by term keeps each term's words in page and position order. Returns (posting term, page,
    tf, each posting's positions one after another, each position's word (its place in the
    words), each page's kept words)."""
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
    position_words = np.empty(counts[-1], np.int32)
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
                    position_words[at] = run_word[j]
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
    return post_term, post_page, post_tf, positions, position_words, dl
