"""What research gathers: the documents found and how much each weighs, the passages (blocks of
pages read) with their evidence, and the cache of block embeddings shared by an agent's runs."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from regnb.agent._counts import Listing, Tally
from regnb.agent._furniture import BOILERPLATE
from regnb.agent._plan import Plan
from regnb.agent._rank import DUPLICATE, keyword_score, plan_terms
from regnb.agent._searching import Found, Searches
from regnb.agent._structure import Unit

__all__ = [
    "READ_DOCUMENTS",
    "BlockVectors",
    "Evidence",
    "Passage",
    "attach_copies",
    "block_quality",
    "choose_documents",
    "weigh_documents",
]

READ_DOCUMENTS = 12
MAX_COPIES = 4
TITLE_SHARE = 0.4
MIN_BLOCK_WORDS = 8


@dataclass
class Passage:
    """A unit of a page read (an observation, a violation, a deficiency, a recommendation, or a
    plain block), with its evidence and, once chosen, its theme."""

    found: Found
    page_num: int
    unit: Unit
    keyword: float
    prior: float
    quality: float = 1.0
    topic: float = 0.0  # evidence of what is asked: no firm, identifier, focus or title terms
    cosine: float = 0.0
    score: float = 0.0
    theme: int = 0
    vector: np.ndarray | None = None
    copies: list[Passage] = field(default_factory=list)  # the same words in other documents


@dataclass
class Evidence:
    """What research found: documents, the pages read, the chosen passages and their themes;
    the documents the question names and their units in document order."""

    plan: Plan
    searches: Searches
    documents: list[Found]
    read: list[Found]
    passages: list[Passage]
    themes: list[str]
    pages: dict[tuple[str, int], str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    subjects: list[Found] = field(default_factory=list)
    candidates: list[Passage] = field(default_factory=list)  # every readable unit of the pages
    common: dict[str, frozenset[str]] = field(default_factory=dict)  # standard sentences
    sides: list[tuple[str, list[Found]]] = field(default_factory=list)  # periods compared
    units: dict[str, list[Passage]] = field(default_factory=dict)  # by document id
    shown: int = 3  # documents of `subjects` whose units are listed
    per_subject: int = 12  # units listed for each of them
    tally: Tally | None = None  # documents matched, counted over every match
    listing: Listing | None = None  # every matching document, for a "which…" question


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


def weigh_documents(found: Sequence[Found], plan: Plan) -> dict[str, float]:
    """A document's weight (0 to 1): its search score against the best, and how much of the
    question its title holds (a document about the topic beats one that mentions it)."""
    terms = plan_terms(plan)
    top = max((f.score for f in found), default=0.0) or 1.0
    return {
        f.document_id: TITLE_SHARE * keyword_score(f.title, terms)
        + (1 - TITLE_SHARE) * max(0.0, f.score / top)
        for f in found
    }


def choose_documents(found: Sequence[Found], n: int, weights: dict[str, float]) -> list[Found]:
    """The documents to read: the best of each dataset that weighs near the top, then the rest
    by weight; loosened and reformulated matches after the others."""
    ordered = sorted(found, key=lambda f: (f.weak, -weights.get(f.document_id, 0.0)))
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
    return sorted(chosen, key=lambda f: (f.weak, -weights.get(f.document_id, 0.0)))


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


def attach_copies(shortlist: list[Passage], vectors: np.ndarray, chosen: list[int]) -> None:
    """Passages of other documents equal to a chosen one (the same paragraph, word for word, in
    several letters) become its copies: the finding cites them all instead of repeating itself.
    A passage only nearly equal (another lot, another count) stays evidence of its own."""
    taken = set(chosen)
    for i in chosen:
        owner = shortlist[i]
        for j in np.argsort(-(vectors @ vectors[i]), kind="stable"):
            j = int(j)
            if len(owner.copies) >= MAX_COPIES or float(vectors[j] @ vectors[i]) < DUPLICATE:
                break
            other = shortlist[j]
            if j in taken or other.found.document_id == owner.found.document_id:
                continue
            if any(c.found.document_id == other.found.document_id for c in owner.copies):
                continue
            if _folded(other.unit.text) != _folded(owner.unit.text):
                continue  # near, not the same: its own evidence (other numbers, other lots)
            owner.copies.append(other)
            taken.add(j)
