"""The compiled half of `regnb.index.positions`: bit-packing a term's position gaps in blocks,
reading them back, and a phrase's hits on candidate pages (its words as written, too). Apart so that importing the index's
formats does not import numba (a compiled kernel is loaded only when a build or a phrase needs
one)."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from regnb.index.positions import BLOCK, BYTES_PER_BIT

__all__ = ["pack_values", "phrase_hits", "unpack_values", "written_hits"]


@numba.njit(nogil=True, cache=True)
def pack_values(values: Any) -> Any:
    """`values` (uint32) as blocks of BLOCK values, each `width` bits a value, least significant
    bit first; (bytes, block offsets)."""
    n_blocks = (values.size + BLOCK - 1) // BLOCK
    widths = np.zeros(n_blocks, np.int64)
    for b in range(n_blocks):
        top = np.uint32(0)
        for i in range(b * BLOCK, min(values.size, (b + 1) * BLOCK)):
            top |= values[i]
        w = 0
        while top:
            w += 1
            top >>= np.uint32(1)
        widths[b] = w
    offsets = np.zeros(n_blocks + 1, np.int64)
    for b in range(n_blocks):
        offsets[b + 1] = offsets[b] + widths[b] * BYTES_PER_BIT
    out = np.zeros(offsets[n_blocks], np.uint8)
    for b in range(n_blocks):
        w = widths[b]
        if w == 0:
            continue
        base = offsets[b] * 8
        for i in range(b * BLOCK, min(values.size, (b + 1) * BLOCK)):
            bit = base + (i - b * BLOCK) * w
            v = np.uint64(values[i]) << np.uint64(bit & 7)
            at = bit >> 3
            while v:
                out[at] |= np.uint8(v & np.uint64(255))
                v >>= np.uint64(8)
                at += 1
    return out, offsets


@numba.njit(nogil=True, cache=True, inline="always")
def _value(packed: Any, blocks: Any, v: int) -> int:
    """Value `v` of the packed stream."""
    b = v // BLOCK
    lo = blocks[b]
    w = (blocks[b + 1] - lo) // BYTES_PER_BIT
    if w == 0:
        return 0
    bit = lo * 8 + (v - b * BLOCK) * w
    at = bit >> 3
    shift = bit & 7
    got = np.uint64(0)
    k = 0
    while k * 8 < shift + w:
        got |= np.uint64(packed[at + k]) << np.uint64(k * 8)
        k += 1
    return int((got >> np.uint64(shift)) & ((np.uint64(1) << np.uint64(w)) - np.uint64(1)))


@numba.njit(nogil=True, cache=True)
def unpack_values(packed: Any, blocks: Any, start: int, count: int) -> Any:
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = _value(packed, blocks, start + i)
    return out


@numba.njit(nogil=True, cache=True)
def _decode(
    packed: Any, blocks: Any, start: int, count: int, v_packed: Any, v_blocks: Any, v_start: int,
    want: int, out: Any,
) -> int:  # fmt: skip
    """One posting's positions (its gaps summed) into `out`, those whose variant is `want`
    alone unless it is -1 (any): how many."""
    running = 0
    kept = 0
    for i in range(count):
        running += _value(packed, blocks, start + i)
        if want < 0 or _value(v_packed, v_blocks, v_start + i) == want:
            out[kept] = running
            kept += 1
    return kept


@numba.njit(nogil=True, cache=True)
def _has(v_packed: Any, v_blocks: Any, v_start: int, count: int, want: int) -> bool:
    """Whether any of `count` variants from `v_start` is `want`."""
    for i in range(count):  # noqa: SIM110 (a loop that stops: numba compiles no generator)
        if _value(v_packed, v_blocks, v_start + i) == want:
            return True
    return False


@numba.njit(nogil=True, cache=True)
def phrase_hits(packed: Any, blocks: Any, starts: Any, counts: Any, slop: int) -> Any:
    """`written_hits` with any variant of each word."""
    k = starts.shape[0]
    return written_hits(
        packed, blocks, starts, counts, slop, np.zeros(0, np.uint8), np.zeros(1, np.int64),
        np.zeros_like(starts), np.full(k, -1, np.int64),
    )  # fmt: skip


@numba.njit(nogil=True, cache=True)
def written_hits(
    packed: Any, blocks: Any, starts: Any, counts: Any, slop: int, v_packed: Any, v_blocks: Any,
    v_starts: Any, want: Any,
) -> Any:  # fmt: skip
    """For each candidate page (column i), whether phrase words 0..k-1 (rows; the positions of
    word j on page i are `counts[j, i]` values from `starts[j, i]`) occur in order with at most
    `slop` other words between consecutive ones: word j at p follows word j-1 at some q with
    p - slop - 1 <= q < p. A word whose `want` is not -1 counts only where its variant (from
    `v_starts[j, i]` in the variants' stream, aligned with its positions) is `want[j]`."""
    k, n = starts.shape
    hits = np.zeros(n, np.bool_)
    most = 1
    for j in range(k):
        for i in range(n):
            most = max(most, counts[j, i])
    reach = np.empty(most, np.int64)
    here = np.empty(most, np.int64)
    width = slop + 1
    for i in range(n):
        if counts[0, i] == 0:
            continue
        if k == 1:  # one word: any position of its variant will do, its place does not matter
            hits[i] = want[0] < 0 or _has(v_packed, v_blocks, v_starts[0, i], counts[0, i], want[0])
            continue
        n_reach = _decode(
            packed, blocks, starts[0, i], counts[0, i], v_packed, v_blocks, v_starts[0, i],
            want[0], reach,
        )  # fmt: skip
        for j in range(1, k):
            if n_reach == 0 or counts[j, i] == 0:
                n_reach = 0
                break
            c = _decode(
                packed, blocks, starts[j, i], counts[j, i], v_packed, v_blocks, v_starts[j, i],
                want[j], here,
            )  # fmt: skip
            kept = 0
            q = 0
            for m in range(c):  # both ascending: the reached position before p, if any
                p = here[m]
                while q < n_reach and reach[q] < p:
                    q += 1
                if q > 0 and reach[q - 1] >= p - width:
                    here[kept] = p
                    kept += 1
            reach[:kept] = here[:kept]
            n_reach = kept
        hits[i] = n_reach > 0
    return hits
