"""BM25 as the index scores it (Lucene's idf, k1 = 0.9, b = 0.4): the weight of a term on a page,
and the bound on a term's weights in a segment that lets a search skip pages that cannot reach
its best pages (`tf_bound`, `bound_scale`)."""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "K1",
    "B",
    "bm25_from_norms",
    "bm25_norms",
    "bm25_scale",
    "bm25_weight",
    "bm25_weights",
    "bound_scale",
    "tf_bound",
]

K1 = 0.9
B = 0.4


def bm25_weight(
    tf: float, df: float, n_pages: float, dl: float, avgdl: float, k1: float = K1, b: float = B
) -> float:
    """The BM25 impact of a term on a page (Lucene's idf)."""
    idf = math.log(1 + (n_pages - df + 0.5) / (df + 0.5))
    return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))


def bm25_weights(
    tf: np.ndarray, df: float, n_pages: float, dl: np.ndarray, avgdl: float
) -> np.ndarray:
    """`bm25_weight` over arrays, as float32."""
    return bm25_from_norms(tf, df, n_pages, bm25_norms(dl, avgdl))


def bm25_norms(dl: np.ndarray, avgdl: float) -> np.ndarray:
    """The length part of BM25's denominator for pages of lengths `dl` (double): what a store
    computes once per snapshot rather than per posting."""
    return K1 * (1 - B + B * dl / avgdl)


def bm25_scale(df: float, n_pages: float) -> float:
    """A term's idf times (k1 + 1): what each of its postings' BM25 weights is scaled by."""
    return math.log(1 + (n_pages - df + 0.5) / (df + 0.5)) * (K1 + 1)


def bm25_from_norms(tf: np.ndarray, df: float, n_pages: float, norms: np.ndarray) -> np.ndarray:
    """`bm25_weights` from the pages' `bm25_norms`: the term's idf and BM25's constant in
    double, the per-posting arithmetic in float32 (within 3e-7 of double: the weights are
    float32 anyway), in place."""
    scale = np.float32(bm25_scale(df, n_pages))
    weights = np.asarray(tf).astype(np.float32)  # a copy
    denominator = np.add(weights, norms, dtype=np.float32)
    weights *= scale
    weights /= denominator
    return weights


def tf_bound(tf: np.ndarray, dl: np.ndarray, starts: np.ndarray, avgdl: float) -> np.ndarray:
    """For each run of postings (`starts`: where each begins, in a non-empty array), the largest
    `tf / (tf + norm)` with the norms of lengths `dl` under `avgdl`: a term's weights in a
    segment are at most its `bm25_scale` times this (`bound_scale` corrects for another avgdl)."""
    part = tf.astype(np.float64)
    part /= part + bm25_norms(dl.astype(np.float64), avgdl)
    return np.asarray(np.maximum.reduceat(part, starts), np.float64)


def bound_scale(written_avgdl: float, avgdl: float) -> float:
    """What `tf_bound`s computed under `written_avgdl` are multiplied by to bound the weights
    under `avgdl`: 1 when the average length has not grown, else the ratio (a larger average
    divides every norm by at most that much), with a margin for float32 rounding."""
    return max(1.0, avgdl / written_avgdl) * (1 + 1e-5) if written_avgdl > 0 else math.inf
