"""Which candidate pages match a search's items, the levels a search loosens through, and
what a ranked search's read of its postings may skip.

The postings of a query's terms are read once per search (`regnb.index.postings`) as candidate
pages (those holding at least one query term), their BM25 summed over the query's distinct
terms, and the set of terms each holds. Counting (how many of an item's words a page holds) runs
over the candidates' bit sets, not over the corpus.

`match_mask` is the one rule of which candidates match a search's items: enough of an item's
plain words, and its conditions (OR-groups, exclusions, phrases, fields, prefixes, citations)
met, evaluated over the candidates still in play so that phrases are verified (and fields
read) on as few pages as possible.

`loosen` is the one walk of the loosening levels: a dataset with no match at a level is matched
at the next (`loosen_needs`). A ranked search's read walks them too (`read_postings`): each
level's read skips the pages that cannot count (`Gates`, `DatasetFloors`), and the datasets with
no match are read again at the next level.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

import numpy as np

from regnb.index.fields import PageTest
from regnb.index.postings import (
    Candidates,
    PostingRead,
    PostingReader,
    QueryPostings,
)
from regnb.query import (
    AllOf,
    AnyOf,
    Cfr,
    Field,
    Ident,
    Node,
    Not,
    PageTerm,
    Phrase,
    Prefix,
    Words,
)

__all__ = [
    "LOOSEN_FRACTION",
    "DatasetFloors",
    "Gates",
    "Lexicon",
    "MatchItem",
    "PageChecks",
    "best_candidates",
    "dataset_matches",
    "dated",
    "loosen",
    "loosen_needs",
    "match_levels",
    "match_mask",
    "phrase_pattern",
    "plain_candidates",
    "read_postings",
]

if TYPE_CHECKING:
    from regnb.index.best_kernels import DatasetBest

LOOSEN_FRACTION = 0.4


def loosen_needs(sizes: Sequence[int], level: int) -> list[int]:
    """Words a page must hold per item: all (level 0), at least 40% (level 1), any (level 2)."""
    if level == 0:
        return list(sizes)
    if level == 1:
        return [max(1, math.ceil(LOOSEN_FRACTION * n)) for n in sizes]
    return [1 for _ in sizes]


def match_levels(sizes: Sequence[int]) -> list[int]:
    """The loosening levels to try in turn: only items of more than one word can loosen."""
    return [0, 1, 2] if any(n > 1 for n in sizes) else [0]


def loosen(sizes: Sequence[int], attempt: Callable[[int, list[int]], bool]) -> None:
    """Walk the loosening levels (`match_levels`) in turn until `attempt(level, needs)` says
    it is done, `needs` being the words a page must hold per item there (`loosen_needs`): the
    one walk of a search's levels, for its pruned read and for each dataset's matching."""
    for level in match_levels(sizes):
        if attempt(level, loosen_needs(sizes, level)):
            return


@dataclass(frozen=True)
class Gates:
    """What one level of a ranked search's read may skip, for the datasets whose matching is
    plain (`datasets`: no field filters, date filters given as `allowed`; items of plain words,
    every term scored), as `match_mask` finds it. A dataset needs only the pages matching at
    the level (`needs`: the words a page must hold per item) and of them its `budget` best; at
    level 0 also their number up to `cap` (1 when loosened: one match is enough). Datasets
    matched at an `earlier` level keep what they matched there."""

    items: tuple[tuple[int, ...], ...]  # each item's known terms
    needs: tuple[int, ...]
    datasets: frozenset[int]
    budget: int
    cap: int
    allowed: Mapping[int, PageTest] = field(default_factory=dict)  # date filters, by dataset
    earlier: frozenset[int] = frozenset()


class DatasetFloors:
    """The floors one level's read reaches (`regnb.index.postings.Floors`): each plain
    dataset's matches and best scores in the segments read so far (`DatasetBest`, one compiled
    pass a segment), recorded by the reader threads under the reader's lock. Once a dataset has
    `budget` matches scored (and at level 0, `cap` matches), the lowest of its `budget` best
    scores is a floor: a page scoring below it is neither among its best pages nor needed for
    its count."""

    def __init__(self, gates: Gates) -> None:
        self.gates = gates
        self.recorded: set[int] = set()  # the datasets of the segments recorded
        self._best: DatasetBest | None = None

    def needs(self) -> list[tuple[tuple[int, ...], int]]:
        """The items that can match at this level, each with the words a page must hold."""
        return [
            (item, need)
            for item, need in zip(self.gates.items, self.gates.needs, strict=True)
            if 0 < need <= len(item)
        ]

    def matches(self, code: int) -> int:
        """The dataset's matches at this level in the segments recorded."""
        return 0 if self._best is None else self._best.matches(code)

    def unmatched(self, codes: Iterable[int]) -> set[int]:
        """Those of the datasets `codes` with no match at this level or an earlier one."""
        return {c for c in codes if not self.matches(c) and c not in self.gates.earlier}

    def next_level(self, needs: Sequence[int], unmatched: set[int]) -> DatasetFloors:
        """The floors of the next level (`needs` there), which reads the datasets `unmatched`;
        the others keep what they matched at theirs."""
        earlier = self.gates.earlier | {c for c in self.recorded if c not in unmatched}
        return DatasetFloors(replace(self.gates, needs=tuple(needs), cap=1, earlier=earlier))

    def floor(self, codes: Sequence[int]) -> float | None:
        """For a segment holding the datasets `codes`: None where it must be read whole (a
        dataset whose matching is not plain); else the score its matches must be able to reach
        to be read (-inf: any)."""
        gates = self.gates
        if not codes or any(c not in gates.datasets for c in codes):
            return None
        if any(c in gates.earlier for c in codes):  # a loosened read of a segment it shares
            return -math.inf
        best = self._best
        if best is None or any(best.matches(c) < gates.cap for c in codes):
            return -math.inf
        floors = [best.floor(c) for c in codes]
        return -math.inf if None in floors else min(f for f in floors if f is not None)

    def record(
        self,
        codes: Sequence[int],
        pages: np.ndarray,
        page_codes: Callable[[], np.ndarray],
        score: np.ndarray,
        bits: np.ndarray,
        columns: Mapping[int, int],
    ) -> None:
        """Count the matches at this level among a segment's candidates (`pages`, global ids;
        the segment holds the datasets `codes`; `page_codes` gives each candidate's dataset)
        that pass their dataset's filters, and keep each dataset's `budget` best scores."""
        gates = self.gates
        kept = [c for c in codes if c in gates.datasets]
        if not kept:
            return
        self.recorded.update(kept)
        if self._best is None:
            from regnb.index.best_kernels import DatasetBest  # numba: loaded by a search

            self._best = DatasetBest(
                gates.items,
                gates.needs,
                columns,
                max(gates.datasets) + 1,
                gates.budget,
                sorted(gates.datasets),
            )
        of = page_codes() if len(codes) > 1 else np.full(pages.size, codes[0], np.int16)
        self._best.record(of, pages, score, bits, dated(gates.allowed, kept, of, pages))


def dated(
    tests: Mapping[int, PageTest], codes: Iterable[int], of: np.ndarray, pages: np.ndarray
) -> np.ndarray | None:
    """Which candidates (`pages`, each of dataset `of`) pass their dataset's date filter
    (`tests`, by dataset; among the datasets `codes`); None where none of them has one."""
    filtered = [c for c in codes if c in tests]
    if not filtered:
        return None
    out = np.ones(pages.size, bool)
    for code in filtered:
        at = np.flatnonzero(of == code)
        if at.size:
            out[at] = tests[code](pages[at])
    return out


def read_postings(
    reader: PostingReader,
    posting_read: PostingRead,
    gates: Gates,
    sizes: Sequence[int],
    deadline: float | None,
) -> None:
    """A ranked search's postings read level by level (`loosen`): every segment at level 0,
    a segment only for the pages that may count (`gates`, floors reached); at each looser level,
    again the segments of the datasets that nothing matched at the levels before."""
    floors: DatasetFloors | None = None

    def attempt(level: int, needs: list[int]) -> bool:
        nonlocal floors
        if floors is None:
            floors = DatasetFloors(replace(gates, needs=tuple(needs)))
            reader.read(posting_read, deadline=deadline, floors=floors)
            return False
        unmatched = floors.unmatched(posting_read.gated_datasets())
        if not unmatched:
            return True
        floors = floors.next_level(needs, unmatched)
        if floors.needs():  # else no item can match at this level: on to the next
            reader.read(posting_read, deadline=deadline, floors=floors, datasets=unmatched)
        return False

    loosen(sizes, attempt)


def phrase_pattern(terms: Sequence[str], slop: int) -> str:
    """A regular expression (RE2) over a page's terms joined by single spaces that matches where
    `terms` occur in order with at most `slop` other terms between consecutive ones."""
    gap = f"(?: \\S+){{0,{slop}}} " if slop else " "
    return "(?:^| )" + gap.join(re.escape(t) for t in terms) + "(?: |$)"


@dataclass(frozen=True)
class Lexicon:
    """The index's ids of a search's terms (those some live page holds) and what each prefix
    expanded to."""

    term_ids: Mapping[str, int]
    expansions: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def all_of(self, terms: Sequence[str]) -> tuple[int, ...] | None:
        """The ids of the terms, or None when the index lacks one (no page holds them all)."""
        ids = [self.term_ids.get(t) for t in terms]
        return (
            None
            if any(i is None for i in ids)
            else tuple(dict.fromkeys(i for i in ids if i is not None))
        )


@dataclass(frozen=True)
class MatchItem:
    """A keyword item resolved against one index snapshot: the ids of its plain terms the index
    holds, how many distinct plain terms it has (known or not), and its conditions."""

    plain: tuple[int, ...]
    size: int
    conditions: tuple[Node, ...] = ()


class PageChecks(Protocol):
    """What matching reads beyond the postings, for one dataset's pages (by global page id)."""

    def field(self, cond: Field, page_ids: np.ndarray) -> np.ndarray:
        """Whether each page's document meets `name:value`."""

    def phrase(self, phrase: Phrase, page_ids: np.ndarray) -> np.ndarray:
        """Whether each page (which holds every term of the phrase) has its words as written,
        in order."""


def _cost(node: Node) -> int:
    """Evaluation order within a conjunction: postings first, then fields, phrases last."""
    if isinstance(node, Phrase):
        return 2
    if isinstance(node, Field):
        return 1
    if isinstance(node, Not):
        return _cost(node.node)
    if isinstance(node, AnyOf | AllOf):
        return max(_cost(n) for n in node.nodes)
    return 0


class _Evaluation:
    """Conditions evaluated over candidate indices (into `post.candidates`)."""

    def __init__(self, post: QueryPostings, lexicon: Lexicon, checks: PageChecks | None) -> None:
        self.post, self.lexicon, self.checks = post, lexicon, checks

    def holds(self, ids: tuple[int, ...] | None, sub: np.ndarray, *, every: bool) -> np.ndarray:
        if not ids:
            return np.zeros(sub.size, bool)
        counts: np.ndarray = self.post.counts(ids)[sub]
        return np.asarray(counts >= len(ids) if every else counts > 0, bool)

    def __call__(self, node: Node, sub: np.ndarray) -> np.ndarray:
        if isinstance(node, Words):
            return self.holds(self.lexicon.all_of(node.terms), sub, every=True)
        if isinstance(node, Cfr | Ident | PageTerm):
            return self.holds(self.lexicon.all_of([node.term]), sub, every=True)
        if isinstance(node, Prefix):
            return self.holds(self.lexicon.expansions.get(node.prefix), sub, every=False)
        if isinstance(node, Phrase):
            return self.phrase(node, sub)
        if isinstance(node, Field):
            assert self.checks is not None
            return np.asarray(self.checks.field(node, self.post.candidates[sub]), bool)
        if isinstance(node, Not):
            return ~self(node.node, sub)
        if isinstance(node, AnyOf):
            return self.any_of(node.nodes, sub)
        return self.all_of(node.nodes, sub)

    def phrase(self, node: Phrase, sub: np.ndarray) -> np.ndarray:
        has = self.holds(self.lexicon.all_of(node.terms), sub, every=True)
        if has.any():
            assert self.checks is not None
            at = np.flatnonzero(has)
            has[at] = self.checks.phrase(node, self.post.candidates[sub[at]])
        return has

    def all_of(self, nodes: Sequence[Node], sub: np.ndarray) -> np.ndarray:
        """Each node evaluated only where the ones before it (cheapest first) held."""
        ok = np.ones(sub.size, bool)
        for node in sorted(nodes, key=_cost):
            at = np.flatnonzero(ok)
            if at.size == 0:
                break
            ok[at] = self(node, sub[at])
        return ok

    def any_of(self, nodes: Sequence[Node], sub: np.ndarray) -> np.ndarray:
        """Each node evaluated only where none before it (cheapest first) held."""
        ok = np.zeros(sub.size, bool)
        for node in sorted(nodes, key=_cost):
            at = np.flatnonzero(~ok)
            if at.size == 0:
                break
            ok[at] = self(node, sub[at])
        return ok


def match_mask(
    post: QueryPostings,
    code: int,
    items: Sequence[MatchItem],
    needs: Sequence[int],
    allowed: PageTest | None,
    lexicon: Lexicon,
    checks: PageChecks | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Which candidates of dataset `code` match: `(idx, mask)`, `idx` the dataset's candidates
    (indices into `post.candidates`, ascending) and `mask` whether each matches some item: it
    holds at least `needs[i]` of item i's plain terms, passes `allowed` (the filters), and meets
    every condition of the item. `checks` reads fields and verifies phrases."""
    idx = post.in_dataset(code)
    bases: list[np.ndarray | None] = []
    for item, need in zip(items, needs, strict=True):
        if need > len(item.plain) or (need == 0 and not item.conditions):
            bases.append(None)
        elif need == 0:
            bases.append(np.ones(idx.size, bool))
        else:
            bases.append(post.counts(item.plain)[idx] >= need)
    reached = np.zeros(idx.size, bool)
    for base in bases:
        if base is not None:
            reached |= base
    if allowed is not None and reached.any():
        reached[reached] &= allowed(post.candidates[idx[reached]])
    evaluate = _Evaluation(post, lexicon, checks)
    matched = np.zeros(idx.size, bool)
    for item, base in zip(items, bases, strict=True):
        if base is None:
            continue
        at = np.flatnonzero(base & reached & ~matched)
        if item.conditions and at.size:
            at = at[evaluate.all_of(item.conditions, idx[at])]
        matched[at] = True
    return idx, matched


def dataset_matches(
    post: QueryPostings,
    code: int | None,
    items: Sequence[MatchItem],
    needs: Sequence[int],
    allowed: PageTest | None,
    lexicon: Lexicon,
    checks: PageChecks | None = None,
) -> np.ndarray:
    """Positions in `post.candidates` of the pages of dataset `code` (None: the index holds no
    page of it) that match (`match_mask`), ascending: every match, uncapped."""
    if code is None:
        return np.empty(0, np.int64)
    idx, matched = match_mask(post, code, items, needs, allowed, lexicon, checks)
    chosen: np.ndarray = idx[matched]
    return chosen


def plain_candidates(
    post: QueryPostings,
    codes: Mapping[str, int],
    items: Sequence[MatchItem],
    tests: Mapping[int, PageTest],
    *,
    limit: int,
    cap: int,
) -> dict[str, tuple[Candidates, bool]]:
    """`best_candidates` of every dataset at once, for items of plain words (no conditions)
    and datasets filtered by dates at most (`tests`, by dataset code): each dataset (`codes`,
    by name) matched at the first level (`loosen`) where it has a match, each level one
    compiled pass over the candidates (`DatasetBest`) for the datasets still without one. Its
    candidates, and whether it was loosened; a dataset that matches at no level is left out."""
    from regnb.index.best_kernels import DatasetBest  # numba: loaded by a search

    out: dict[str, tuple[Candidates, bool]] = {}
    left = dict(codes)
    if not left or not post.candidates.size or post.page_ds is None:
        return out
    of = post.page_ds[post.candidates]
    allowed = dated(tests, left.values(), of, post.candidates)
    n_codes = max(left.values()) + 1

    def attempt(level: int, needs: list[int]) -> bool:
        best = DatasetBest(
            [m.plain for m in items], needs, post.columns, n_codes, limit, list(left.values())
        )
        best.record(of, post.candidates, post.candidate_score, post.bits, allowed)
        for ds, code in list(left.items()):
            if best.matches(code):
                pages, scores = best.best(code)
                found = Candidates(min(best.matches(code), cap), pages.tolist(), scores.tolist())
                out[ds] = (found, level > 0)
                del left[ds]
        return not left

    loosen([m.size for m in items], attempt)
    return out


def best_candidates(post: QueryPostings, chosen: np.ndarray, *, limit: int, cap: int) -> Candidates:
    """The best `limit` of the chosen candidates by BM25, best first, ties by page id; their
    number counted up to `cap`."""
    if chosen.size == 0:
        return Candidates(0, [], [])
    hits = post.candidates[chosen]
    hit_scores = post.candidate_score[chosen]
    if hits.size > limit:
        top = np.argpartition(-hit_scores, limit - 1)[:limit]
        hits, hit_scores = hits[top], hit_scores[top]
    order = np.lexsort((hits, -hit_scores))
    total = int(chosen.size)
    return Candidates(min(total, cap), hits[order].tolist(), hit_scores[order].tolist())
