"""The v3 search procedure: match per dataset (loosening when nothing matches), share the page
budget, rank by meaning or BM25, group pages into documents, slice.

Each stage is a function of plain values (`dataset_statuses`, `loosen_needs`, `match_levels`,
`split_budget`, `blend`, `group_documents`), tested without a corpus; `Searcher` runs them in
order over one index snapshot, grouping with `rank_groups` (`group_documents` over arrays: page
objects are made only for the documents returned). SQL, cursors and interrupts stay in the store.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from regnb.catalog import Catalog, Dataset
from regnb.errors import RankingFailed, SearchTimeout
from regnb.index.postings import Candidates, QueryPostings, kernels_ready
from regnb.index.store import IndexStore
from regnb.query import Field, Phrase
from regnb.request import DATE_KINDS, DocFilter, SearchRequest
from regnb.results import SearchResult
from regnb.search.budget import split_budget
from regnb.search.date_order import order_documents
from regnb.search.facets import count_facets
from regnb.search.matching import (
    LOOSEN_FRACTION,
    Gates,
    Lexicon,
    MatchItem,
    best_candidates,
    dataset_matches,
    loosen,
    loosen_needs,
    match_levels,
    phrase_pattern,
    plain_candidates,
    read_postings,
)
from regnb.text import surface_words

__all__ = [
    "LOOSEN_FRACTION",
    "PAGES_PER_DOCUMENT",
    "DocumentGroup",
    "FullMatches",
    "RankedPage",
    "Searcher",
    "blend",
    "dataset_statuses",
    "document_entry",
    "field_filter",
    "group_documents",
    "healing",
    "loosen_needs",
    "match_levels",
    "missing_field_notices",
    "place_filter",
    "undamaged",
]

log = logging.getLogger("regnb.search.procedure")

PAGES_PER_DOCUMENT = 3
SIMILARITY_WEIGHT = 0.7

Status = dict[str, Any]
T = TypeVar("T")


def dataset_statuses(req: SearchRequest, catalog: Catalog) -> tuple[dict[str, Status], list[str]]:
    """Each requested dataset's status before matching, and the datasets to match."""
    statuses: dict[str, Status] = {}
    runnable = []
    for ds in req.datasets:
        entry = catalog[ds]
        if not entry.available:
            statuses[ds] = {"status": "not_available"}
        elif not entry.open_to(req.plan):
            statuses[ds] = {"status": "forbidden"}
        elif req.dated and entry.date_field is None:
            statuses[ds] = {"status": "skipped", "reason": "no date field"}
        else:
            statuses[ds] = {"status": "no_match"}
            runnable.append(ds)
    return statuses, runnable


def undamaged(
    store: IndexStore, statuses: dict[str, Status], runnable: list[str]
) -> tuple[dict[str, Status], list[str]]:
    """The statuses and datasets to match without the datasets that a damaged segment leaves
    incomplete: those are `error`, with the damage as the reason."""
    statuses, kept = dict(statuses), []
    for ds in runnable:
        damage = store.damage_to(ds)
        if damage is None:
            kept.append(ds)
        else:
            statuses[ds] = {"status": "error", "reason": damage.reason}
    return statuses, kept


def healing(store: IndexStore, datasets: Sequence[str], attempt: Callable[[], T]) -> T:
    """`attempt()`, run again while a failure it meets is a segment newly found damaged
    (`IndexStore.diagnose`; each run leaves out the datasets of the damaged segments known):
    a damaged segment fails its own datasets, never the search."""
    while True:
        known = len(store.damage)
        try:
            return attempt()
        except Exception as exc:
            store.diagnose(datasets, exc)
            if len(store.damage) == known:
                raise


def field_filter(dataset: Dataset, cond: Field) -> DocFilter | None:
    """The document filter that `name:value` is in a dataset: a quoted value of several words
    is a phrase of the field's words; a filter's own kind where the name is a filter (`exact`
    numbers, `keyword` names, enums); else a keyword match (exact where the value has no
    word). None where the dataset lacks the field."""
    name = cond.name
    if name in dataset.place_fields and name not in dataset.fields:
        return place_filter(cond)
    is_filter = name in dataset.filters and name not in DATE_KINDS
    if not is_filter and name not in dataset.fields:
        return None
    field = dataset.filter_field(name) if is_filter else name
    if cond.quoted and len(cond.terms) > 1:
        return DocFilter("phrase", field, phrase_pattern(cond.terms, 0), name)
    kind = dataset.filter_kind(name) if is_filter else "keyword"
    if kind == "keyword" and not cond.terms:
        kind = "exact"
    return DocFilter(kind, field, cond.value, name)


def place_filter(cond: Field) -> DocFilter:
    """The filter of `country:IN`, `state:NJ` or `city:houston` on the place the index read for
    a document's firm: a country or state by its code (a name is read as one: `country:india`,
    `state:"new jersey"`), a city by its words."""
    if cond.name == "city":
        if cond.quoted and len(cond.terms) > 1:
            return DocFilter("phrase", "city", phrase_pattern(cond.terms, 0), "city")
        return DocFilter("keyword" if cond.terms else "exact", "city", cond.value, "city")
    from regnb.documents.places import place_code  # the place lists: read on first use

    return DocFilter("exact", cond.name, place_code(cond.name, cond.value), cond.name)


def missing_field_notices(req: SearchRequest, catalog: Catalog, datasets: list[str]) -> list[str]:
    """One notice per `name:value` of the items that some searched datasets lack (no page of
    theirs meets it)."""
    out = []
    for i, item in enumerate(req.items):
        for cond in item.fields:
            lacking = [ds for ds in datasets if field_filter(catalog[ds], cond) is None]
            if lacking:
                out.append(
                    f"keywords[{i}]: {cond.name}:{cond.value} is not a field of "
                    f"{', '.join(lacking)}; no page there meets it"
                )
    return out


def blend(cosine: np.ndarray, bm25: np.ndarray, weight: float = SIMILARITY_WEIGHT) -> np.ndarray:
    """One similarity scale for every dataset of a search: the cosine blended with the keyword
    evidence normalised by the best BM25 among the ranked pages."""
    top = float(bm25.max()) if bm25.size else 0.0
    evidence = bm25 / top if top > 0 else np.zeros_like(bm25)
    return weight * cosine + (1.0 - weight) * evidence


@dataclass(frozen=True)
class RankedPage:
    """A page kept for ranking: its id, dataset, BM25, and final score."""

    page_id: int
    dataset: str
    bm25: float
    score: float = 0.0


@dataclass
class DocumentGroup:
    """A document's ranked pages, best first."""

    doc_row: int
    dataset: str
    pages: list[RankedPage]

    @property
    def best(self) -> RankedPage:
        return self.pages[0]


def group_documents(
    pages: Sequence[RankedPage], doc_of: dict[int, int], loosened: set[str]
) -> list[DocumentGroup]:
    """Pages grouped into documents; a document ranks by its best page, documents of loosened
    datasets after all others; ties by page id, so the order is stable."""
    groups: dict[int, DocumentGroup] = {}
    for page in pages:
        doc = doc_of[page.page_id]
        groups.setdefault(doc, DocumentGroup(doc, page.dataset, [])).pages.append(page)
    for group in groups.values():
        group.pages.sort(key=lambda p: (-p.score, p.page_id))
    return sorted(
        groups.values(),
        key=lambda g: (g.dataset in loosened, -g.best.score, g.best.page_id),
    )


def rank_groups(
    page_ids: np.ndarray, docs: np.ndarray, scores: np.ndarray, loosened: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """`group_documents` over arrays (one entry per page: its id, document, score, and whether
    its dataset was loosened): the page positions, document by document in rank order and best
    page first within each, and where each document's pages start in them (one more: the end)."""
    if page_ids.size == 0:
        return np.zeros(0, np.int64), np.zeros(1, np.int64)
    within = np.lexsort((page_ids, -scores, docs))  # by document, then page rank
    doc = docs[within]
    first = np.flatnonzero(np.concatenate([[True], doc[1:] != doc[:-1]]))
    ends = np.append(first[1:], doc.size)
    best = within[first]
    ranked = np.lexsort((page_ids[best], -scores[best], loosened[best]))
    counts = (ends - first)[ranked]
    bounds = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    shift = np.repeat(first[ranked] - bounds[:-1], counts)
    return within[np.arange(doc.size) + shift], bounds


@dataclass
class DatasetRun:
    """One dataset's matching: its candidates, or why it has none."""

    candidates: Candidates | None = None
    loosened: bool = False
    error: str | None = None
    full: np.ndarray | None = None  # every full match: positions in the postings' candidates


@dataclass(frozen=True)
class FullMatches:
    """Every page that fully matches a search (no loosening) and passes its filters, over the
    datasets that ran; `statuses` says how each requested dataset fared."""

    pages: np.ndarray  # page ids, ascending
    bm25: np.ndarray  # each page's BM25 over the query's terms
    statuses: dict[str, Status]

    @classmethod
    def of(
        cls, runs: dict[str, DatasetRun], post: QueryPostings | None, statuses: dict[str, Status]
    ) -> FullMatches:
        """The full matches of the runs (`statuses`: the statuses before matching)."""
        statuses = dict(statuses)
        chosen = []
        for ds, run in runs.items():
            if run.error is not None:
                statuses[ds] = {"status": run.error}
            elif run.full is None or not run.full.size:
                statuses[ds] = {"status": "no_match"}
            else:
                statuses[ds] = {"status": "ok", "matches": int(run.full.size)}
                chosen.append(run.full)
        if post is None or not chosen:
            return cls(np.zeros(0, np.int64), np.zeros(0, np.float64), statuses)
        at = np.sort(np.concatenate(chosen))  # candidates ascend: so do their page ids
        return cls(post.candidates[at].astype(np.int64), post.candidate_score[at], statuses)


def document_entry(catalog: Catalog, row: dict[str, Any], places: bool = False) -> dict[str, Any]:
    """A document as the response shows it: id, dataset, title, the date of its dataset's date
    field, url and the dataset's fields (from a page's or a document's row); with `places`,
    its firm's place too, where its dataset is firm-facing (null where the index read none)."""
    dataset = catalog[row["dataset"]]
    names = [*dataset.fields, *dataset.place_fields] if places else dataset.fields
    fields = {f: row["fields"].get(f) for f in names}
    return {
        "document_id": row["document_id"],
        "dataset": row["dataset"],
        "title": row["title"],
        "date": fields.get(dataset.date_field) if dataset.date_field else None,
        "url": row["url"],
        "fields": fields,
    }


class DatasetChecks:
    """`PageChecks` for one dataset of a search: field conditions read once each (SQL, under
    the deadline), phrases verified on the pages' tokens."""

    def __init__(self, store: IndexStore, dataset: Dataset, deadline: float) -> None:
        self.store, self.dataset, self.deadline = store, dataset, deadline
        self._fields: dict[Field, Callable[[np.ndarray], np.ndarray] | None] = {}

    def field(self, cond: Field, page_ids: np.ndarray) -> np.ndarray:
        if cond not in self._fields:
            filt = field_filter(self.dataset, cond)
            self._fields[cond] = (
                None
                if filt is None
                else self.store.fields.allowed(self.dataset.id, [filt], deadline=self.deadline)
            )
        test = self._fields[cond]
        return np.zeros(page_ids.size, bool) if test is None else test(page_ids)

    def phrase(self, phrase: Phrase, page_ids: np.ndarray) -> np.ndarray:
        """Quoted words match as written: in order by their terms' positions, then as words."""
        return self.store.rows.phrase_pages(
            page_ids,
            phrase.terms,
            phrase.slop,
            words=surface_words(phrase.text),
            deadline=self.deadline,
        )


@dataclass(frozen=True)
class Resolved:
    """A search's items against one snapshot: each item's ids, the ids of its terms, the
    postings of every term the conditions read, and what the search should say."""

    items: list[MatchItem]
    lexicon: Lexicon
    post: QueryPostings
    notices: list[str]


class Searcher:
    """Runs searches over one index, each over the snapshot `stores()` gives when it starts;
    filtered datasets are matched in parallel under one deadline."""

    def __init__(
        self,
        stores: Callable[[], IndexStore],
        catalog: Catalog,
        embed_query: Callable[[str], np.ndarray],
        *,
        budget: int,
        cap: int,
        timeout_s: float,
        similarity_weight: float = SIMILARITY_WEIGHT,
        workers: int = 4,
        prefix_limit: int = 100,
    ) -> None:
        self.stores, self.catalog, self.embed_query = stores, catalog, embed_query
        self.prefix_limit = prefix_limit
        self.similarity_weight = similarity_weight
        self.budget, self.cap, self.timeout_s = budget, cap, timeout_s
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="regnb-match")

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def run(self, req: SearchRequest) -> SearchResult:
        kernels_ready()  # compiled before the budget starts: a first search never times out on it
        store = self.stores()  # one snapshot from start to end
        return healing(store, req.datasets, lambda: self._run(store, req))

    def _run(self, store: IndexStore, req: SearchRequest) -> SearchResult:
        started = time.perf_counter()
        deadline = started + self.timeout_s
        before, runnable = undamaged(store, *dataset_statuses(req, self.catalog))
        full_asked = req.sort != "relevance" or bool(req.facets)
        runs, resolved = self._match_all(store, req, runnable, deadline, rank=True, full=full_asked)
        statuses = dict(before)
        full, loose = {}, {}
        for ds, run in runs.items():
            if run.error is not None:
                statuses[ds] = {"status": run.error}
            elif run.candidates is None or not run.candidates.page_ids:
                statuses[ds] = {"status": "no_match"}
            elif run.loosened:
                loose[ds] = len(run.candidates.page_ids)
            else:
                full[ds] = (run.candidates.matches, len(run.candidates.page_ids))
        page_ids: list[np.ndarray] = []
        bm25: list[np.ndarray] = []
        page_ds: list[np.ndarray] = []
        names: list[str] = []
        for ds, n in split_budget(self.budget, full, loose).items():
            cand = runs[ds].candidates
            assert cand is not None
            page_ids.append(np.asarray(cand.page_ids[:n], np.int64))
            bm25.append(np.asarray(cand.scores[:n], np.float64))
            page_ds.append(np.full(min(n, len(cand.page_ids)), len(names), np.int32))
            names.append(ds)
            statuses[ds] = {
                "status": "ok",
                "matches": 0 if ds in loose else cand.matches,
                "pages": n,
            }
            if ds in loose:
                statuses[ds]["loosened"] = True
        matched_at = time.perf_counter()
        ids = np.concatenate(page_ids) if page_ids else np.zeros(0, np.int64)
        evidence = np.concatenate(bm25) if bm25 else np.zeros(0)
        ds_of = np.concatenate(page_ds) if page_ds else np.zeros(0, np.int32)
        post = resolved.post if resolved is not None else None
        matches = FullMatches.of(runs, post, before) if full_asked else None
        if req.sort != "relevance":
            assert matches is not None
            window, total = self._by_date(store, req, matches, ids, evidence)
        else:
            window, total = self._by_relevance(store, req, ids, evidence, ds_of, names, loose)
        result = self._result(store, req, window, total, statuses)
        result.notices = resolved.notices if resolved is not None else []
        if matches is not None and req.facets:
            result.facet_counts = count_facets(store, matches, req.facets)
        result.timings = {
            "match_ms": (matched_at - started) * 1000,
            "total_ms": (time.perf_counter() - started) * 1000,
        }
        return result

    def full_matches(self, req: SearchRequest) -> tuple[IndexStore, FullMatches]:
        """Every full match of the search (no ranking), over one snapshot, under the deadline."""
        kernels_ready()
        store = self.stores()

        def attempt() -> FullMatches:
            deadline = time.perf_counter() + self.timeout_s
            before, runnable = undamaged(store, *dataset_statuses(req, self.catalog))
            runs, resolved = self._match_all(store, req, runnable, deadline, rank=False, full=True)
            post = resolved.post if resolved is not None else None
            return FullMatches.of(runs, post, before)

        return store, healing(store, req.datasets, attempt)

    def _by_relevance(
        self,
        store: IndexStore,
        req: SearchRequest,
        ids: np.ndarray,
        evidence: np.ndarray,
        ds_of: np.ndarray,
        names: list[str],
        loose: dict[str, int],
    ) -> tuple[list[DocumentGroup], int]:
        """The spec's order: the ranked pages' documents by final score, the window of them."""
        scores = self._rank(store, req, ids, evidence)
        loose_ds = np.array([ds in loose for ds in names] or [False])
        order, bounds = rank_groups(ids, store.page_doc[ids], scores, loose_ds[ds_of])
        window = []
        score_list = scores.tolist()
        for g in range(req.offset, min(req.offset + req.limit, bounds.size - 1)):
            at = order[bounds[g] : bounds[g + 1]].tolist()
            pages = [
                RankedPage(int(ids[i]), names[ds_of[i]], float(evidence[i]), score_list[i])
                for i in at
            ]
            window.append(DocumentGroup(int(store.page_doc[ids[at[0]]]), pages[0].dataset, pages))
        return window, bounds.size - 1

    def _by_date(
        self,
        store: IndexStore,
        req: SearchRequest,
        matches: FullMatches,
        ids: np.ndarray,
        evidence: np.ndarray,
    ) -> tuple[list[DocumentGroup], int]:
        """Documents of every full match by date (`req.sort`), pages by BM25; where nothing
        matches fully, the ranked (loosened) pages' documents by date."""
        if matches.pages.size:
            ids, evidence = matches.pages, matches.bm25
        order = order_documents(ids, store.page_doc[ids], evidence, store.doc_day, req.sort)
        names = {c: d for d, c in store.dataset_codes.items()}
        window = []
        for g in range(req.offset, min(req.offset + req.limit, len(order))):
            at = order.pages_of(g)
            dataset = names[int(store.doc_ds[order.docs[g]])]
            pages = [
                RankedPage(int(ids[i]), dataset, float(evidence[i]), float(evidence[i]))
                for i in at.tolist()
            ]
            window.append(DocumentGroup(int(order.docs[g]), dataset, pages))
        return window, len(order)

    def resolve(
        self,
        store: IndexStore,
        req: SearchRequest,
        datasets: list[str],
        deadline: float,
        *,
        ranked_only: bool = False,
    ) -> Resolved:
        """The items' terms and prefixes looked up in the snapshot, and their postings read
        (weights of the terms only excluded set to 0: BM25 counts the positive ones) from the
        segments of `datasets`. `ranked_only`: only each dataset's best pages and its full
        matches counted up to the cap are needed, so pages that cannot be among them may be
        skipped (`Gates`, read level by level: `read_postings`) where the matching is plain."""
        notices = [f"keywords[{i}]: {n}" for i, item in enumerate(req.items) for n in item.notes]
        positive = {t for item in req.items for t in item.positive_terms}
        negative = {t for item in req.items for t in item.negative_terms} - positive
        ids = store.term_ids(sorted(positive | negative))
        expansions: dict[str, tuple[int, ...]] = {}
        required: set[int] = {ids[t] for t in positive if t in ids}
        for i, item in enumerate(req.items):
            for prefix, wanted in item.prefixes:
                if prefix.prefix not in expansions:
                    found, cut = store.prefix_terms(prefix.prefix, self.prefix_limit)
                    expansions[prefix.prefix] = tuple(found.values())
                    if cut:
                        notices.append(
                            f"keywords[{i}]: {prefix.text}* matches more than "
                            f"{self.prefix_limit} terms; only the first {self.prefix_limit} "
                            "(in alphabetical order) were searched"
                        )
                if wanted:
                    required.update(expansions[prefix.prefix])
        lexicon = Lexicon(ids, expansions)
        items = [
            MatchItem(
                tuple(dict.fromkeys(ids[t] for t in item.terms if t in ids)),
                item.size,
                item.conditions,
            )
            for item in req.items
        ]
        every = sorted(set(ids.values()) | {t for e in expansions.values() for t in e})
        codes = [store.dataset_codes[ds] for ds in datasets if ds in store.dataset_codes]
        sizes = [m.size for m in items]
        gates = None
        if ranked_only and all(not item.conditions for item in req.items):
            plain, dated = [], {}
            for ds in datasets:
                filters = req.dataset_filters(ds, self.catalog[ds].date_field)
                if ds not in store.dataset_codes or any(f.on_fields for f in filters):
                    continue  # field filters run SQL: such a dataset is read whole
                plain.append(store.dataset_codes[ds])
                test = store.fields.allowed(ds, filters)  # dates: checked in memory
                if test is not None:
                    dated[store.dataset_codes[ds]] = test
            gates = Gates(
                tuple(m.plain for m in items),
                tuple(sizes),  # level 0: every word
                frozenset(plain),
                self.budget,
                self.cap,
                dated,
            )
        if gates is None:
            post = store.postings.read_all(
                every, scored=required, deadline=deadline, datasets=codes
            )
        else:
            reading = store.postings.begin(every, scored=required, datasets=codes)
            read_postings(store.postings, reading, gates, sizes, deadline)
            post = store.postings.joined(reading)
        held = [ds for ds in datasets if ds in store.dataset_codes]  # with documents
        notices += missing_field_notices(req, self.catalog, held)
        return Resolved(items, lexicon, post, list(dict.fromkeys(notices)))

    def _match_all(
        self,
        store: IndexStore,
        req: SearchRequest,
        datasets: list[str],
        deadline: float,
        *,
        rank: bool,
        full: bool,
    ) -> tuple[dict[str, DatasetRun], Resolved | None]:
        """Each dataset's matching (`rank`: its best pages, loosening when none match; `full`:
        every full match), and the resolved terms and postings they read."""
        runs = {ds: DatasetRun() for ds in datasets}
        if not datasets:
            return runs, None
        try:
            resolved = self.resolve(store, req, datasets, deadline, ranked_only=rank and not full)
        except SearchTimeout:
            for run in runs.values():
                run.error = "timeout"
            return runs, None

        def one(ds: str) -> DatasetRun:
            return self._match_one(store, req, ds, resolved, deadline, rank=rank, full=full)

        # Field filters, field conditions and phrases run SQL, which can be slow on a large
        # dataset: those datasets run in worker threads under the deadline. The others are
        # bounded numpy work.
        reads = any(
            isinstance(leaf, Field) or (isinstance(leaf, Phrase) and len(leaf.terms) > 1)
            for item in req.items
            for leaf, _ in item.leaves()
        )
        queried = [
            ds for ds in datasets if reads or any(f.on_fields for f in req.filters.get(ds, ()))
        ]
        if queried:  # what the threads read, computed once before them
            resolved.post.prepare([item.plain for item in resolved.items])
        futures: dict[Future[DatasetRun], str] = {self._pool.submit(one, ds): ds for ds in queried}
        inline = [ds for ds in datasets if ds not in queried]
        if rank and not full and all(not item.conditions for item in resolved.items):
            runs.update(self._match_plain(store, req, inline, resolved, deadline))
            inline = []
        for ds in inline:
            if time.perf_counter() > deadline:
                runs[ds].error = "timeout"
                continue
            runs[ds] = one(ds)
        done, pending = wait(futures, timeout=max(deadline - time.perf_counter(), 0))
        for future in pending:
            future.cancel()
            runs[futures[future]].error = "timeout"
        for future in done:
            runs[futures[future]] = future.result()
        return runs, resolved

    def _match_plain(
        self,
        store: IndexStore,
        req: SearchRequest,
        datasets: list[str],
        resolved: Resolved,
        deadline: float,
    ) -> dict[str, DatasetRun]:
        """`_match_one` of datasets without field filters, for items of plain words, ranked
        only: every dataset at once (`plain_candidates`). A failure falls back to
        `_match_one` per dataset, which makes it each one's status."""
        runs = {ds: DatasetRun(Candidates(0, [], [])) for ds in datasets}
        if time.perf_counter() > deadline:
            return {ds: DatasetRun(error="timeout") for ds in datasets}
        try:
            tests = {}
            for ds in datasets:
                filters = req.dataset_filters(ds, self.catalog[ds].date_field)
                test = store.fields.allowed(ds, filters, deadline=deadline)  # dates: in memory
                if test is not None and ds in store.dataset_codes:
                    tests[store.dataset_codes[ds]] = test
            codes = {ds: store.dataset_codes[ds] for ds in datasets if ds in store.dataset_codes}
            found = plain_candidates(
                resolved.post, codes, resolved.items, tests, limit=self.budget, cap=self.cap
            )
        except SearchTimeout:
            return {ds: DatasetRun(error="timeout") for ds in datasets}
        except Exception:
            log.exception("matching %d datasets at once failed: one by one", len(datasets))
            return {
                ds: self._match_one(store, req, ds, resolved, deadline, rank=True)
                for ds in datasets
            }
        for ds, (cand, loosened) in found.items():
            runs[ds] = DatasetRun(cand, loosened)
        return runs

    def _match_one(
        self,
        store: IndexStore,
        req: SearchRequest,
        ds: str,
        resolved: Resolved,
        deadline: float,
        *,
        rank: bool = True,
        full: bool = False,
    ) -> DatasetRun:
        """One dataset: its filters, then each loosening level until pages match (`rank`), or
        only the full matches (level 0). A timeout or a failure becomes the dataset's status,
        never the search's."""
        try:
            dataset = self.catalog[ds]
            filters = req.dataset_filters(ds, dataset.date_field)
            allowed = store.fields.allowed(ds, filters, deadline=deadline)
            checks = DatasetChecks(store, dataset, deadline)
            code = store.dataset_codes.get(ds)
            post, items, lexicon = resolved.post, resolved.items, resolved.lexicon
            run = DatasetRun(Candidates(0, [], []) if rank else None)

            def attempt(level: int, needs: list[int]) -> bool:
                chosen = dataset_matches(post, code, items, needs, allowed, lexicon, checks)
                if level == 0 and full:
                    run.full = chosen
                if not rank:
                    return True
                cand = best_candidates(post, chosen, limit=self.budget, cap=self.cap)
                if cand.page_ids:
                    run.candidates, run.loosened = cand, level > 0
                    return True
                return False

            loosen([item.size for item in items], attempt)
            return run
        except SearchTimeout:
            return DatasetRun(error="timeout")
        except Exception as exc:
            if store.diagnose([ds], exc):
                raise  # a damaged segment: the search runs again without its datasets
            log.exception("dataset %s failed", ds)
            return DatasetRun(error="error")

    def _rank(
        self, store: IndexStore, req: SearchRequest, page_ids: np.ndarray, evidence: np.ndarray
    ) -> np.ndarray:
        """Each page's final score: its BM25, or the cosine blended with it."""
        bm25 = evidence.astype(np.float32)
        if req.ranking == "bm25" or not page_ids.size:
            return bm25
        try:
            vector = self.embed_query(req.ranking_text)
        except Exception as exc:
            raise RankingFailed(f"ranking failed: the query could not be embedded ({exc})") from exc
        matrix = store.rows.vectors(page_ids)
        return blend(matrix @ vector.astype(np.float32), bm25, self.similarity_weight)

    def _result(
        self,
        store: IndexStore,
        req: SearchRequest,
        window: list[DocumentGroup],
        total: int,
        statuses: dict[str, Status],
    ) -> SearchResult:
        """The response: the documents of the window (`offset`, `limit`) of `total`."""
        shown = [p.page_id for g in window for p in g.pages[:PAGES_PER_DOCUMENT]]
        rows = {r["page_id"]: r for r in store.rows.pages(shown)}
        results = []
        for group in window:
            results.append(
                {
                    **document_entry(self.catalog, rows[group.best.page_id], req.places),
                    "pages": [
                        {
                            "page_num": rows[p.page_id]["page_num"],
                            "score": round(float(p.score), 6),
                            "text": rows[p.page_id]["text"],
                        }
                        for p in group.pages[:PAGES_PER_DOCUMENT]
                    ],
                    "matched_pages": len(group.pages),
                }
            )
        end = req.offset + req.limit
        return SearchResult(
            results=results,
            dataset_statuses=statuses,
            total=total,
            next_offset=end if end < total else None,
            ranking=req.ranking,
            keywords=req.keywords,
            query=req.query,
            syntax=req.syntax,
        )
