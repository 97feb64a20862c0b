"""How research weighs what it gathers: how much each document found weighs and which are read,
how readable a block is, which passages are word-for-word copies of each other; and the cache of
block embeddings shared by an agent's runs."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from regnb.agent._rank import DUPLICATE, keyword_score, plan_terms
from regnb.agent._stages import Found, Passage, Plan
from regnb.documents.furniture import BOILERPLATE

__all__ = [
    "BlockVectors",
    "block_quality",
    "choose_documents",
    "copies_of",
    "weigh_documents",
]

MIN_BLOCK_WORDS = 8


class BlockVectors:
    """Block embeddings by (document, page, block id), bounded, shared by the runs of an agent."""

    def __init__(self, size: int = 20_000) -> None:
        self._items: OrderedDict[tuple[str, int, str], np.ndarray] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, str]) -> np.ndarray | None:
        with self._lock:
            vector = self._items.get(key)
            if vector is not None:
                self._items.move_to_end(key)
            return vector

    def put(self, key: tuple[str, int, str], vector: np.ndarray) -> None:
        with self._lock:
            self._items[key] = vector
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


def weigh_documents(found: Sequence[Found], plan: Plan, title_share: float) -> dict[str, float]:
    """A document's weight (0 to 1): its search score against the best, and how much of the
    question its title holds (`title_share` of the weight: a document about the topic beats one
    that mentions it)."""
    terms = plan_terms(plan)
    top = max((f.score for f in found), default=0.0) or 1.0
    return {
        f.document_id: title_share * keyword_score(f.title, terms)
        + (1 - title_share) * max(0.0, f.score / top)
        for f in found
    }


def choose_documents(found: Sequence[Found], n: int, weights: dict[str, float]) -> list[Found]:
    """The documents to read: the best of each dataset that weighs near the top, then the rest
    by weight; loosened and reformulated matches, and those whose firm is not known to be where
    the question asks, after the others."""
    placing = any(f.placed for f in found)
    ordered = sorted(
        found, key=lambda f: (f.weak, placing and not f.placed, -weights.get(f.document_id, 0.0))
    )
    if not ordered:
        return []
    top = weights.get(ordered[0].document_id, 0.0)
    chosen: list[Found] = []
    seen: set[str] = set()
    for doc in ordered:
        weight = weights.get(doc.document_id, 0.0)
        if doc.dataset not in seen and not doc.weak and weight >= 0.8 * top:
            seen.add(doc.dataset)
            chosen.append(doc)
    chosen = chosen[: max(1, (n + 1) // 2)]
    for doc in ordered:
        if len(chosen) >= n:
            break
        if doc not in chosen:
            chosen.append(doc)
    return sorted(
        chosen, key=lambda f: (f.weak, placing and not f.placed, -weights.get(f.document_id, 0.0))
    )


def block_quality(text: str) -> float:
    """How readable a block is as evidence (0 to 1): short, mostly numbers or codes, or
    boilerplate every document of its kind carries, counts less."""
    tokens = text.split()
    alpha = [t for t in tokens if sum(c.isalpha() for c in t) >= 2]
    if len(alpha) < MIN_BLOCK_WORDS:
        return 0.0
    quality = 0.75 if len(alpha) < 15 else 0.9 if len(alpha) < 25 else 1.0
    if len(alpha) < 0.6 * len(tokens):
        quality *= 0.6
    lowered = " ".join(tokens).lower()
    if any(marker in lowered for marker in BOILERPLATE):
        quality *= 0.4
    return quality


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def copies_of(
    shortlist: Sequence[Passage], vectors: np.ndarray, chosen: Sequence[int], limit: int
) -> dict[int, tuple[Passage, ...]]:
    """For each chosen passage (by its index in `shortlist`), the passages of other documents
    equal to it (the same paragraph, word for word, in several letters; `limit` at most): the
    finding cites them all instead of repeating itself. A passage only nearly equal (another
    lot, another count) stays evidence of its own; a passage is the copy of one passage only."""
    taken = set(chosen)
    out: dict[int, tuple[Passage, ...]] = {}
    for i in chosen:
        owner = shortlist[i]
        copies: list[Passage] = []
        for j in np.argsort(-(vectors @ vectors[i]), kind="stable"):
            j = int(j)
            if len(copies) >= limit or float(vectors[j] @ vectors[i]) < DUPLICATE:
                break
            other = shortlist[j]
            if j in taken or other.found.document_id == owner.found.document_id:
                continue
            if any(c.found.document_id == other.found.document_id for c in copies):
                continue
            if _folded(other.unit.text) != _folded(owner.unit.text):
                continue  # near, not the same: its own evidence (other numbers, other lots)
            copies.append(other)
            taken.add(j)
        out[i] = tuple(copies)
    return out
