"""Page matching and BM25 scoring over the query's posting lists, in numpy.

The postings of a query's terms are read once per search, a segment at a time, in one compiled
pass (`regnb.index.kernels`) that gives the segment's candidate pages (those holding at least one
query term), their BM25 summed over the query's distinct terms, and the set of terms each holds.
Counting (how many of an item's words a page holds) runs over the candidates' bit sets, not over
the corpus, and each dataset's candidates are found from the runs of its pages (segments are
written a dataset at a time).

`match_mask` is the one rule of which candidates match a search's items: enough of an item's
plain words, and its conditions (OR-groups, exclusions, phrases, fields, prefixes, citations)
met, evaluated over the candidates still in play so that phrases are verified (and fields
read) on as few pages as possible.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from regnb.query import AllOf, AnyOf, Cfr, Field, Ident, Node, Not, Phrase, Prefix, Words

__all__ = [
    "LOOSEN_FRACTION",
    "Candidates",
    "Lexicon",
    "MatchItem",
    "PageChecks",
    "PageTest",
    "Pruning",
    "QueryPostings",
    "best_candidates",
    "loosen_needs",
    "match_levels",
    "match_mask",
    "phrase_pattern",
    "phrase_rows",
]

PageTest = Callable[[np.ndarray], np.ndarray]
"""Which of the given page ids pass a dataset's filters (a bool per page)."""

MAX_RUNS = 4_096  # runs of one dataset's pages beyond which candidates are split by a sort


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
            for word, mask in _masks(key, self.columns).items():
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


@dataclass
class Pruning:
    """How a ranked search may skip pages while it reads postings, a segment at a time.

    A dataset needs only the pages matching at its level (`loosen_needs`: every word of an item
    at level 0; a dataset with no such page is loosened) and of them its `budget` best; at level
    0 also their number up to `cap`. Segments are read for the pages matching at the `level`
    being read (`regnb.index.kernels`: an item's rarest lists read, the others probed); a dataset
    with no match there is read again at the next level (`IndexStore.postings`). Once a dataset
    has `budget` matches scored (and at level 0, `cap` matches), the lowest of its `budget` best
    scores is a floor: a page scoring below it is neither among its best pages nor needed for
    its count, so only the pages that may reach it are read. Only for datasets whose matching is
    plain (`datasets`: no field filters, date filters given as `allowed`; items of plain words,
    every term scored), as `match_mask` finds it."""

    items: list[tuple[int, ...]]  # each item's known terms
    sizes: list[int]  # each item's distinct words, known or not
    datasets: frozenset[int]
    budget: int
    cap: int
    allowed: Mapping[int, PageTest] = field(default_factory=dict)  # date filters, by dataset
    level: int = 0
    matched: dict[int, int] = field(default_factory=dict)
    best: dict[int, np.ndarray] = field(default_factory=dict)
    earlier: set[int] = field(default_factory=set)  # datasets matched at an earlier level

    def needs(self) -> list[tuple[tuple[int, ...], int]]:
        """The items that can match at this level, each with the words a page must hold."""
        return [
            (item, need)
            for item, need in zip(self.items, loosen_needs(self.sizes, self.level), strict=True)
            if 0 < need <= len(item)
        ]

    def loosen(self, unmatched: set[int]) -> None:
        """Go on to the next level, for the datasets `unmatched` (no match so far); the others
        keep what they matched at theirs."""
        self.earlier |= {c for c in self.matched if c not in unmatched}
        self.level += 1
        self.matched, self.best = {}, {}

    def floor(self, codes: Sequence[int]) -> float | None:
        """For a segment holding the datasets `codes`: None where it must be read whole (a
        dataset whose matching is not plain); else the score its matches must be able to reach
        to be read (-inf: any)."""
        if not codes or any(c not in self.datasets for c in codes):
            return None
        if any(c in self.earlier for c in codes):  # a loosened read of a segment it shares
            return -math.inf
        cap = self.cap if self.level == 0 else 1
        if any(self.matched.get(c, 0) < cap or self.best[c].size < self.budget for c in codes):
            return -math.inf
        return min(float(self.best[c].min()) for c in codes)

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
        kept_codes = [c for c in codes if c in self.datasets]
        if not kept_codes:
            return
        matched = np.zeros(score.size, bool)
        for item, need in self.needs():
            held = np.zeros(score.size, np.int16)
            for word, mask in _masks(item, columns).items():
                held += np.bitwise_count(bits[:, word] & np.uint64(mask)).astype(np.int16)
            matched |= held >= need
        of = page_codes() if len(codes) > 1 else None
        for code in kept_codes:
            mine = matched if of is None else matched & (of == code)
            if code in self.allowed and mine.any():
                at = np.flatnonzero(mine)
                mine = np.zeros_like(mine)
                mine[at[self.allowed[code](pages[at])]] = True
            scores = score[mine]
            self.matched[code] = self.matched.get(code, 0) + int(scores.size)
            kept = np.concatenate([self.best.get(code, np.zeros(0)), scores])
            if kept.size > self.budget:
                kept = np.partition(kept, kept.size - self.budget)[kept.size - self.budget :]
            self.best[code] = kept


def _masks(terms: Sequence[int], columns: Mapping[int, int]) -> dict[int, int]:
    """The bit masks (by word) of the terms' columns in a candidate's bit set."""
    masks: dict[int, int] = {}
    for t in terms:
        if t in columns:
            c = columns[t]
            masks[c // 64] = masks.get(c // 64, 0) | (1 << (c % 64))
    return masks


def phrase_pattern(terms: Sequence[str], slop: int) -> str:
    """A regular expression (RE2) over a page's terms joined by single spaces that matches where
    `terms` occur in order with at most `slop` other terms between consecutive ones."""
    gap = f"(?: \\S+){{0,{slop}}} " if slop else " "
    return "(?:^| )" + gap.join(re.escape(t) for t in terms) + "(?: |$)"


def phrase_rows(
    codes: np.ndarray, rows: np.ndarray, n_rows: int, phrase: Sequence[int], slop: int
) -> np.ndarray:
    """Whether each of `n_rows` token streams holds `phrase` in order with at most `slop` other
    tokens between consecutive ones (what `phrase_pattern` matches). The streams are given as
    one: each token's code (`codes`) and stream (`rows`, ascending)."""
    out = np.zeros(n_rows, bool)
    if not phrase or not codes.size:
        return out
    # Each token's position, with `slop + 1` empty places before every stream so that a window
    # of the `slop + 1` places before a token never reaches into the stream before it.
    width = slop + 1
    place = np.arange(codes.size, dtype=np.int64) + (rows.astype(np.int64) + 1) * width
    reach = codes == phrase[0]
    for code in phrase[1:]:
        at = np.flatnonzero(codes == code)
        marks = np.zeros(int(place[-1]) + 1, np.int64)
        marks[place[reach]] = 1
        before = np.concatenate([[0], np.cumsum(marks)])  # before[q]: marks at places < q
        reach = np.zeros(codes.size, bool)
        reach[at] = before[place[at]] > before[place[at] - width]
    out[rows[reach]] = True
    return out


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
        """Whether each page (which holds every term of the phrase) has them in order."""


def _cost(node: Node) -> int:
    """Evaluation order within a conjunction: postings first, then fields, phrases last."""
    if isinstance(node, Phrase) and len(node.terms) > 1:
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
        if isinstance(node, Cfr | Ident):
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
        if len(node.terms) > 1 and has.any():
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
