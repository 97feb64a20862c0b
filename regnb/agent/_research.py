"""The research stage of a turn: search, narrow to what a follow-up allows, read the best pages of
the best documents, split them into blocks, rank the blocks (keyword evidence first, then the
query embedding on the best few hundred), choose passages by MMR and group them into themes."""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import numpy as np

from regnb.agent._compose import theme_key
from regnb.agent._config import AgentConfig
from regnb.agent._evidence import BlockVectors, block_quality, copies_of
from regnb.agent._guidance import about, aspect_terms
from regnb.agent._placed import placed
from regnb.agent._plan import searchable_datasets
from regnb.agent._rank import (
    Term,
    blend,
    document_terms,
    focus_terms,
    holds_asked,
    keyword_score,
    mmr,
    part_terms,
    plan_terms,
)
from regnb.agent._searching import as_items, run_searches
from regnb.agent._source import Source
from regnb.agent._stages import Found, Passage, Plan, Searched, Searches
from regnb.agent._toc import contents, page_offset, section_pages
from regnb.agent._vocab import SUBSTANCE
from regnb.agent._wants import with_wanted
from regnb.agent.types import Step
from regnb.documents.furniture import common_share, is_furniture, sentence_key
from regnb.documents.structure import (
    Unit,
    document_kind,
    parse_document,
    states_standard,
    trimmed,
)
from regnb.documents.words import content_words, sentence_spans, words
from regnb.errors import RegnbError

__all__ = ["Researcher", "kind_weight"]

EMBED_BATCH = 32
FINGERPRINT_WORDS = 12
MENTION_LIMIT = 50  # documents of each search for a follow-up's required words
OTHER = "Other findings"
# How much a unit of each kind counts as evidence; furniture never does.
KIND_WEIGHT = {
    "finding": 1.0,
    "violation": 1.0,
    "deficiency": 1.0,
    "recommendation": 1.0,
    "description": 1.0,
    "narrative": 1.0,
    "request": 0.75,
    "response": 0.6,
    "text": 0.8,
}
# The kinds that answer each shape of question best.
SHAPE_KINDS = {
    "declined": {"deficiency"},
    "findings": {"finding", "violation", "description", "narrative"},
    "which": {"finding", "violation", "deficiency", "description"},
    "recommend": {"recommendation"},
}
SHAPE_BONUS = 1.25
FEW_FINDINGS = 3  # a document with fewer findings than this is listed with its other blocks


def kind_weight(kind: str, shape: str) -> float:
    """How much a unit of `kind` counts as evidence for a question of `shape` (0: furniture)."""
    weight = KIND_WEIGHT.get(kind, 0.0)
    return weight * (SHAPE_BONUS if kind in SHAPE_KINDS.get(shape, ()) else 1.0)


def block_query(plan: Plan) -> str:
    """The query that passages are compared with: the message without the firms, products and
    identifiers it names (the documents were chosen for those; within them the question is what
    counts, and a letterhead that repeats the name would otherwise win)."""
    text = plan.query
    for anchor in [*plan.topic.names, *plan.topic.identifiers]:
        text = re.sub(re.escape(anchor), " ", text, flags=re.IGNORECASE)
    text = " ".join(text.split())
    return text if content_words(text) else plan.query


def _fingerprint(text: str) -> str:
    return " ".join(content_words(text)[:FINGERPRINT_WORDS])


def _few_documents(passages: list[Passage], most: int) -> list[Passage]:
    """The passages of the `most` documents whose best passage ranks first: a question about one
    document is answered from it and at most a few others, never padded with a dozen."""
    kept: list[str] = []
    for p in passages:
        if p.found.document_id not in kept and len(kept) < most:
            kept.append(p.found.document_id)
    return [p for p in passages if p.found.document_id in kept]


def drop_form_text(passages: list[Passage], config: AgentConfig | None = None) -> list[Passage]:
    """Passages without those that open the same way in `config.form_documents` documents or
    more and hold little of the question: the standard paragraphs of a kind of document."""
    config = config or AgentConfig()
    documents: dict[str, set[str]] = {}
    for p in passages:
        documents.setdefault(_fingerprint(p.unit.text), set()).add(p.found.document_id)
    return [
        p
        for p in passages
        if len(documents[_fingerprint(p.unit.text)]) < config.form_documents
        or p.topic >= config.boilerplate_topic
    ]


def _boilerplate(passage: Passage, config: AgentConfig) -> bool:
    """A paragraph that several other documents carry word for word and that holds little of
    the question ("Failure to address any violations may ..."): the form, not the finding."""
    return len(passage.copies) >= 2 and passage.topic < config.boilerplate_topic


def _neighbours(best: list[int], n: int) -> list[int]:
    """Up to `n` pages next to the first of `best` (after it first), not already in `best`."""
    if n <= 0 or not best:
        return []
    out: list[int] = []
    for step in range(1, 2 * n + 2):
        for page in (best[0] + step, best[0] - step):
            if page >= 1 and page not in best and page not in out and len(out) < n:
                out.append(page)
    return out


def _runs(pages: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted page numbers as runs of consecutive pages (first, last)."""
    runs: list[tuple[int, int]] = []
    for page in pages:
        if runs and page == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], page)
        else:
            runs.append((page, page))
    return runs


# What a letter closes with, and its notes: the same in every letter of its kind.
_CLOSING = re.compile(r"^(?:conclusion|closing|requested action|response)\b", re.IGNORECASE)
_NOTE = re.compile(r"^\d{1,3}\s+(?:See|Under|Section|21 CFR|For)\b")


NAME_WORDS = 12  # a unit this short that says nothing but its document's names is its header


def _names_only(text: str, doc: Found) -> bool:
    """Whether a short unit says nothing but what its document's title and fields name ("EHT
    Pharmacy LLC dba Curexa" atop each page of a 483)."""
    said = words(text)
    if not said or len(said) > NAME_WORDS:
        return False
    named = " ".join([doc.title, *(str(v) for v in doc.fields.values() if isinstance(v, str))])
    return set(said) <= set(words(named))


def _parts(
    subject: Sequence[Term], aspect: Sequence[Term], split: list[list[Term]]
) -> list[tuple[list[Term], list[Term], float]]:
    """A guidance question as a whole and, when it asks several things, each part of it: the
    terms, the aspect's terms (what the title does not say), and how much the part counts (its
    aspect's weight against the weightiest part's), from the terms of each part (`split`,
    `part_terms`). A unit is as much about the question as
    about its best part: "can we pool units?" is answered by the pooling paragraph, which holds
    none of the part about submissions; a part that asks little ("say no to one") counts little."""
    whole = [(list(subject), list(aspect), 1.0)]
    if len(split) < 2:
        return whole
    asked = [[t for t in part if t in aspect] for part in split]
    weights = [sum(t.weight for t in a) for a in asked]
    most = max(weights)
    if most <= 0:
        return whole
    return whole + [
        (p, a, w / most) for p, a, w in zip(split, asked, weights, strict=True) if w > 0
    ]


# A unit that only asks: a question of a guidance's questions and answers, at most this long,
# ending in a question mark before any bullets after it; it keeps this share of its score.
QUESTION_WORDS, QUESTION_SHARE = 30, 0.5
_TRAILING_BULLETS = re.compile(r"(?:\s|\u2022|\bo\b)+$")


def _answered(passages: list[Passage]) -> list[Passage]:
    """A guidance of questions and answers: a unit that only asks ("What limits are placed on
    leakage and backscatter radiation?") hands its score to the unit after it, its answer,
    which says what it asks in other words ("…0.88 mGy in one hour…")."""
    order = sorted(
        range(len(passages)), key=lambda i: (passages[i].page_num, passages[i].unit.first)
    )
    out = list(passages)
    for i, j in itertools.pairwise(order):
        asks = _TRAILING_BULLETS.sub("", out[i].unit.text)
        if (
            asks.endswith("?")
            and len(asks.split()) <= QUESTION_WORDS
            and out[i].topic > out[j].topic
        ):
            out[j] = replace(out[j], topic=out[i].topic)
            out[i] = replace(out[i], topic=out[i].topic * QUESTION_SHARE)
    return out


def _says_more(unit: Unit) -> bool:
    """A unit besides a document's few findings that says more of it: its background, the
    claims it objects to, never its closing section or its notes."""
    return (
        unit.kind not in SUBSTANCE
        and not _CLOSING.match(unit.heading or "")
        and not _NOTE.match(unit.text)
    )


class Researcher:
    """Runs the research stage against one engine."""

    def __init__(
        self,
        source: Source,
        *,
        vectors: BlockVectors | None = None,
        config: AgentConfig | None = None,
    ) -> None:
        self.source = source
        self.config = config or AgentConfig()
        self.vectors = vectors or BlockVectors()
        self.catalog = source.datasets()
        self._common: dict[str, frozenset[str]] = {}
        self._held: dict[str, int] | None = None
        self._lock = threading.Lock()

    def held(self) -> dict[str, int]:
        """Documents per dataset of the corpus (datasets it holds none of are left out)."""
        with self._lock:
            if self._held is None:
                counts = self.source.counts()
                self._held = {
                    str(ds): int(n)
                    for ds, n in zip(counts["dataset"], counts["documents"], strict=True)
                    if int(n) > 0
                }
            return self._held

    def common(self, dataset: str) -> frozenset[str]:
        """The dataset's standard sentences (from the engine, once per agent)."""
        with self._lock:
            if dataset not in self._common:
                try:
                    self._common[dataset] = self.source.common_sentences(dataset)
                except RegnbError:
                    self._common[dataset] = frozenset()
            return self._common[dataset]

    def search(
        self,
        plan: Plan,
        request_plan: str,
        step: Callable[[Step], None],
        check: Callable[[], None],
        *,
        widen: bool = True,
    ) -> Searched:
        """Every planned dataset searched (every other one too when the datasets the message
        named hold no match, if `widen`); the documents a follow-up allows, best first. A name
        no page of the datasets named holds is let go before other datasets are searched: "an
        NSE on our 510(k)" asked of guidance is answered from the guidance."""
        searches = self._run(plan, request_plan, step, check)
        searches, loose = self._without_names(plan, searches, request_plan, step, check)
        notes = []
        if not searches.found and plan.scope.filters and not plan.follow_up.restrict_documents:
            # a filter the question's words implied ("CDRH": center) that no document matches
            # (a corpus whose guidance has no center field) is let go, and the answer says so
            unfiltered = replace(plan, scope=replace(plan.scope, filters={}))
            again = self._run(unfiltered, request_plan, step, check)
            again, loose_again = self._without_names(unfiltered, again, request_plan, step, check)
            if again.found:
                given = "; ".join(
                    f"{name.replace('_', ' ')} “{value}” in {self.catalog[ds].name}"
                    for ds, fields in plan.scope.filters.items()
                    for name, value in fields.items()
                )
                notes.append(f"No document matched {given}; searched without it.")
                plan, searches, loose = unfiltered, again, loose_again
        scope = plan.scope
        named = scope.named_datasets and not plan.follow_up.restrict_documents
        if widen and not searches.found and named:
            held = self.held()
            others = [
                d
                for d in searchable_datasets(self.catalog, request_plan)
                if d not in scope.datasets and d in held
            ]
            if others:
                wider = replace(plan, scope=replace(scope, datasets=tuple(others)))
                more = self._run(wider, request_plan, step, check)
                names = "; ".join(self.catalog[d].name for d in scope.datasets)
                notes.append(f"Nothing matched in {names}; the other datasets were searched.")
                searches = Searches(
                    found=more.found,
                    statuses={**searches.statuses, **more.statuses},
                    totals={**searches.totals, **more.totals},
                    reformulated=(*searches.reformulated, *more.reformulated),
                )
                searches, loose = self._without_names(wider, searches, request_plan, step, check)
        found, narrowed = self._narrow(plan, searches.found, request_plan)
        return Searched(searches, tuple(found), (*notes, *loose, *narrowed))

    def _without_names(
        self,
        plan: Plan,
        searches: Searches,
        request_plan: str,
        step: Callable[[Step], None],
        check: Callable[[], None],
    ) -> tuple[Searches, list[str]]:
        """A name that no catalog field holds is only a word the pages must contain: when few
        documents hold it, the question is searched again without it (its documents added after
        the others, as weaker evidence) and the answer says so."""
        confirmed = {v for given in plan.scope.filters.values() for v in given.values()}
        loose = [n for n in plan.topic.names if n not in confirmed]
        strong = sum(1 for f in searches.found if not f.weak)
        if not loose or strong >= self.config.min_strong or plan.follow_up.restrict_documents:
            return searches, []
        kept = tuple(n for n in plan.topic.names if n in confirmed)
        wider = replace(plan, topic=replace(plan.topic, names=kept))
        if not wider.topic.terms:
            return searches, []
        more = self._run(wider, request_plan, step, check)
        known = {f.document_id for f in searches.found}
        added = [replace(f, weak=True) for f in more.found if f.document_id not in known]
        searches = replace(searches, found=(*searches.found, *added))
        if not added:
            return searches, []
        listed = " and ".join(f"“{n}”" for n in loose)
        held = f"only {strong} document names" if strong == 1 else f"only {strong} documents name"
        if not strong:
            held = "no document names"
        return searches, [
            f"{held[0].upper()}{held[1:]} {listed} as a firm or product; documents with "
            "the other words of the question were searched too, as weaker evidence."
        ]

    def _run(
        self, plan: Plan, request_plan: str, step: Callable[[Step], None], check: Callable[[], None]
    ) -> Searches:
        which = plan.ask.shape in ("which", "count")
        return run_searches(
            self.source,
            plan,
            request_plan,
            lambda ds: self.catalog[ds].filters,
            lambda ds: self.catalog[ds].name,
            step,
            check,
            self.config,
            depth=self.config.which_documents if which else None,
            placed=lambda ds: bool(self.catalog[ds].place_fields),
        )

    def _narrow(
        self, plan: Plan, found: Sequence[Found], request_plan: str
    ) -> tuple[list[Found], list[str]]:
        notes = []
        follow_up = plan.follow_up
        kept = list(found)
        if follow_up.restrict_documents:
            allowed = set(follow_up.restrict_documents)
            kept = [f for f in kept if f.document_id in allowed]
        if follow_up.exclude_documents:
            seen = set(follow_up.exclude_documents)
            kept = [f for f in kept if f.document_id not in seen]
        scope = plan.scope
        if scope.places_in or scope.places_out:
            first = lambda doc: self.first_page(doc, request_plan)  # noqa: E731
            kept, placed_notes = placed(kept, scope.places_in, scope.places_out, first)
            notes += placed_notes
        if follow_up.require and kept:
            before = len({f.document_id for f in kept})
            mentioned = self._mentions(plan, sorted({f.dataset for f in kept}), request_plan)
            kept = [f for f in kept if f.document_id in mentioned]
            if not kept:
                words = ", ".join(follow_up.require)
                notes.append(f"None of the {before} documents found mention {words}.")
        return kept, notes

    def first_page(self, doc: Found, request_plan: str) -> str:
        """The text of the document's first page ("" when it cannot be read)."""
        pages: dict[tuple[str, int], str] = {}
        self._read_range(doc, 1, 1, request_plan, pages)
        return pages.get((doc.document_id, 1), "")

    def _mentions(self, plan: Plan, datasets: list[str], request_plan: str) -> set[str]:
        """Documents of `datasets` with a page that holds every required term."""
        ids: set[str] = set()
        item = " ".join(plan.follow_up.require)
        for ds in datasets:
            offset: int | None = 0
            for _ in range(self.config.mention_searches):
                if offset is None:
                    break
                try:
                    result = self.source.search(
                        as_items([item]),
                        datasets=[ds],
                        date_from=plan.scope.date_from,
                        date_to=plan.scope.date_to,
                        limit=MENTION_LIMIT,
                        offset=offset,
                        plan=request_plan,
                    )
                except RegnbError:
                    break
                if result.dataset_statuses.get(ds, {}).get("loosened"):
                    break
                ids |= {r["document_id"] for r in result.results}
                offset = result.next_offset
        return ids

    def read(
        self,
        documents: Sequence[Found],
        request_plan: str,
        check: Callable[[], None],
        subjects: Sequence[Found] = (),
        asked: Sequence[Term] = (),
    ) -> tuple[tuple[Found, ...], dict[tuple[str, int], str]]:
        """The best pages of each document, as the document reader returns them; when few
        documents are read, the pages next to their best ones too. A document the question
        names is read from its first page (its findings, in order); a guidance it names, at the
        sections its table of contents gives for what is `asked`. The documents as read (their
        `pages` the pages read), and the text of each page read."""
        config = self.config
        pages: dict[tuple[str, int], str] = {}
        named = {d.document_id for d in subjects}
        budget = config.page_budget // max(1, len(documents))
        per_doc = max(3, min(config.pages_per_document, budget))
        out: list[Found] = []
        for doc in documents:
            check()
            if doc.document_id in named and document_kind(doc.dataset) != "guidance":
                first = tuple(range(1, config.subject_pages + 1))
                if self._read_range(doc, 1, config.subject_pages, request_plan, pages):
                    first = tuple(n for n in first if (doc.document_id, n) in pages)
                out.append(replace(doc, pages=first))
                continue
            if doc.document_id in named:
                chosen = self._by_contents(doc, asked, request_plan, pages)
                if chosen:
                    out.append(replace(doc, pages=chosen))
                    continue
            wanted = config.subject_pages if doc.document_id in named else per_doc
            best = list(doc.pages)
            best += _neighbours(best, wanted - len(best))
            for page in best:
                self._read_range(doc, page, page, request_plan, pages)
            out.append(replace(doc, pages=tuple(n for n in best if (doc.document_id, n) in pages)))
        return tuple(out), pages

    def _by_contents(
        self,
        doc: Found,
        asked: Sequence[Term],
        request_plan: str,
        pages: dict[tuple[str, int], str],
    ) -> tuple[int, ...]:
        """The pages of a guidance chosen from its table of contents and read: its sections
        about the asked aspect, the search's best pages in its body, then each section's start;
        none when it has no contents the pages can be placed by."""
        config = self.config
        try:
            head = self.source.read(doc.document_id, 1, config.contents_pages, plan=request_plan)
        except RegnbError:
            return ()
        texts = {int(p["page_num"]): p["text"] for p in head.page_list}
        sections, toc_last = contents(texts)
        offset = page_offset(sections, texts, toc_last) if sections else None
        if offset is None:
            return ()
        aspect = aspect_terms(asked, doc.title)
        budget = config.subject_pages if aspect else config.guidance_pages
        wanted = section_pages(sections, offset, head.total_pages, aspect, budget, doc.pages)
        for num in wanted:
            if num in texts:
                pages[(doc.document_id, num)] = texts[num]
        for first, last in _runs(sorted(n for n in wanted if n not in texts)):
            while first <= last and self._read_range(doc, first, last, request_plan, pages):
                read = [n for n in range(first, last + 1) if (doc.document_id, n) in pages]
                if not read:
                    break
                first = read[-1] + 1  # a read stops at the reader's page or byte limit
        return tuple(n for n in wanted if (doc.document_id, n) in pages)

    def _read_range(
        self,
        doc: Found,
        first: int,
        last: int,
        request_plan: str,
        pages: dict[tuple[str, int], str],
    ) -> bool:
        """Pages `first` to `last` of the document added to `pages`; whether the reader read them."""
        try:
            read = self.source.read(doc.document_id, first, last, plan=request_plan)
        except RegnbError:
            return False
        for p in read.page_list:
            pages[(doc.document_id, int(p["page_num"]))] = p["text"]
        return True

    def units(
        self, doc: Found, pages: Mapping[tuple[str, int], str], asked: Sequence[Term] = ()
    ) -> list[Unit]:
        """The document's units on the pages read, furniture and standard sentences left out. A
        standard sentence that holds a word `asked` is what the question is about ("X recalled Y
        because of listeria", the same in every listeria recall), not furniture."""
        texts = {n: pages[(doc.document_id, n)] for n in doc.pages if (doc.document_id, n) in pages}
        common = self.common(doc.dataset)
        if asked and common:
            held = {
                sentence_key(text[a:b])
                for text in texts.values()
                for a, b in sentence_spans(text)
                if holds_asked(text[a:b], asked)
            }
            common = common - held
        out = []
        for parsed in parse_document(doc.dataset, texts):
            standard = frozenset() if states_standard(parsed.kind, doc.dataset) else common
            u = trimmed(
                parsed,
                texts[parsed.page_num],
                lambda text, s=standard: is_furniture(text, doc.dataset, common=s),  # type: ignore[misc]
            )
            if u is None:
                continue
            if u.kind == "furniture" or is_furniture(u.text, doc.dataset, common=standard):
                continue
            if _names_only(u.text, doc):  # a form's header again: the firm's name alone
                continue
            if standard and common_share(u.text, standard) >= self.config.furniture_share:
                continue
            out.append(u)
        return out

    def candidates(
        self,
        plan: Plan,
        documents: Sequence[Found],
        pages: Mapping[tuple[str, int], str],
        weights: Mapping[str, float],
    ) -> list[Passage]:
        """Every readable unit of the pages read, with its keyword evidence, its document's
        weight as a prior, and its quality (its kind's weight for the question's shape)."""
        terms = plan_terms(plan)
        subject = [t for t in terms if not t.anchor]  # what is asked, apart from whom about
        top = max((weights.get(d.document_id, 0.0) for d in documents), default=0.0) or 1.0
        out = []
        for doc in documents:
            given = document_terms(terms, doc.title, doc.fields)
            scored = [*terms, *focus_terms(doc.dataset)]
            doc_prior = max(0.0, min(1.0, weights.get(doc.document_id, 0.0) / top))
            rank_of = {page: rank for rank, page in enumerate(doc.pages)}
            for unit in self.units(doc, pages, subject):
                quality = block_quality(unit.text) * kind_weight(unit.kind, plan.ask.shape)
                if quality <= 0:
                    continue
                if doc.weak and not given and keyword_score(unit.text, terms) == 0:
                    continue  # a loose match's unit must hold a term of the question
                keyword = keyword_score(unit.text, scored, given)
                prior = doc_prior * (1.0 - 0.1 * min(rank_of.get(unit.page_num, 3), 3))
                topic = keyword_score(unit.text, subject)
                out.append(Passage(doc, unit.page_num, unit, keyword, prior, quality, topic))
        return drop_form_text(out, self.config)

    def subject_units(
        self, plan: Plan, subjects: Sequence[Found], pages: Mapping[tuple[str, int], str]
    ) -> dict[str, list[Passage]]:
        """The units of each document the question names, in document order: its substance
        (observations, violations, deficiencies…) when it has any, else its readable blocks."""
        terms = plan_terms(plan)
        subject = [t for t in terms if not t.anchor]
        split = part_terms(subject, plan.message)  # the question's parts, once for every document
        out: dict[str, list[Passage]] = {}
        for doc in subjects:
            units = self.units(doc, pages)
            substance = [
                u
                for u in units
                if u.kind in SUBSTANCE
                or (u.kind == "request" and subject and keyword_score(u.text, subject) > 0)
            ]
            readable = [u for u in units if block_quality(u.text) > 0]
            guidance = document_kind(doc.dataset) == "guidance"
            # a guidance keeps every readable unit: its list is its recommendations, but what it
            # says of the question may be in its introduction
            chosen = readable if guidance else substance or readable
            if 0 < len(substance) < FEW_FINDINGS:  # a letter of one violation: what else it says
                chosen = [u for u in readable if u in substance or _says_more(u)]
            aspect = aspect_terms(subject, doc.title) if guidance else subject
            parts = _parts(subject, aspect, split)
            passages = []
            for unit in chosen:
                passage = Passage(doc, unit.page_num, unit, keyword_score(unit.text, terms), 1.0)
                topic = keyword_score(unit.text, subject)
                if guidance:  # what of the guidance is asked counts as much as its subject
                    topic = max(
                        share * (about(passage, p) + about(passage, a)) / 2 for p, a, share in parts
                    )
                topic = with_wanted(topic, unit.text, plan.ask.wants)
                passages.append(replace(passage, topic=topic))
            out[doc.document_id] = _answered(passages) if guidance else passages
        return out

    def _shortlist(self, candidates: list[Passage]) -> list[Passage]:
        """The blocks worth embedding: the best three of each document, then the best overall."""

        def pre(p: Passage) -> float:
            weak = 0.75 if p.found.weak else 1.0
            return (0.65 * p.keyword + 0.35 * p.prior) * p.quality * weak

        ordered = sorted(candidates, key=pre, reverse=True)
        chosen: list[Passage] = []
        per_doc: dict[str, int] = {}
        for p in ordered:
            if per_doc.get(p.found.document_id, 0) < 3:
                per_doc[p.found.document_id] = per_doc.get(p.found.document_id, 0) + 1
                chosen.append(p)
        picked = {id(p) for p in chosen}
        chosen += [p for p in ordered if id(p) not in picked]
        return chosen[: self.config.embed_budget]

    def _embed(self, passages: list[Passage], check: Callable[[], None]) -> list[np.ndarray]:
        """The passages' embeddings, from the cache or in batches (the shortlist bounds the
        work by count, never by time)."""
        keys = [(p.found.document_id, p.page_num, p.unit.block_id) for p in passages]
        vectors = [self.vectors.get(key) for key in keys]
        missing = [i for i, vector in enumerate(vectors) if vector is None]
        words = self.config.embed_words
        for start in range(0, len(missing), EMBED_BATCH):
            check()
            batch = missing[start : start + EMBED_BATCH]
            texts = [" ".join(passages[i].unit.text.split()[:words]) for i in batch]
            for i, vector in zip(batch, self.source.embed(texts), strict=True):
                embedded = np.asarray(vector, dtype=np.float32)
                self.vectors.put(keys[i], embedded)
                vectors[i] = embedded
        return [v for v in vectors if v is not None]

    def rank(
        self, plan: Plan, candidates: list[Passage], check: Callable[[], None]
    ) -> tuple[list[Passage], list[Passage]]:
        """Embed the shortlist, score it, and choose passages by MMR (a few per document), each
        with its copies in other documents; the chosen passages, and the candidates with those
        of the shortlist scored."""
        shortlist = self._shortlist(candidates)
        if not shortlist:
            return [], candidates
        vectors = np.stack(self._embed(shortlist, check))
        query = np.asarray(self.source.embed([block_query(plan)])[0], dtype=np.float32)
        cosine = vectors @ query
        scores = blend(
            cosine,
            np.array([p.keyword for p in shortlist]),
            np.array([p.prior for p in shortlist]),
            np.array([p.found.weak for p in shortlist]),
        ) * np.array([p.quality for p in shortlist])
        scored = [
            replace(p, cosine=c, score=s)
            for p, c, s in zip(shortlist, cosine.tolist(), scores.tolist(), strict=True)
        ]
        documents = {p.found.document_id for p in scored}
        which_firms = plan.ask.which_firms
        per_doc = 2 if which_firms or len(documents) >= 6 else 3
        chosen = mmr(
            scores,
            vectors,
            self._count(plan) + self.config.spare_passages,
            groups=[p.found.document_id for p in scored],
            per_group=per_doc,
            duplicates_across_groups=which_firms,
        )
        top = float(scores[chosen[0]]) if chosen else 0.0
        chosen = [i for i in chosen if scores[i] >= self.config.relative_floor * top]
        for i, copies in copies_of(scored, vectors, chosen, self.config.copies).items():
            scored[i] = replace(scored[i], copies=copies)
        kept = [scored[i] for i in chosen if not _boilerplate(scored[i], self.config)]
        if plan.ask.kind == "document" and not plan.ask.which_firms:
            kept = _few_documents(kept, 1 + self.config.see_also_documents)
        ranked = {id(p): q for p, q in zip(shortlist, scored, strict=True)}
        return kept[: self._count(plan)], [ranked.get(id(p), p) for p in candidates]

    def _count(self, plan: Plan) -> int:
        """Passages chosen: one per firm listed for a "which…" question."""
        which = plan.ask.lists
        return max(self.config.passages, self.config.which_shown) if which else self.config.passages

    def themes(self, passages: Sequence[Passage]) -> tuple[list[str], list[Passage]]:
        """The themes of the passages, by what their units say they are (a CFR section with its
        title, a section heading, else their dataset): the labels, and the passages with their
        theme's number."""
        if not passages:
            return [], []
        most = self.config.themes
        keys = [theme_key(p, lambda ds: self.catalog[ds].name) for p in passages]
        order = list(dict.fromkeys(keys))
        if len(order) > most:
            counts = {k: keys.count(k) for k in order}
            kept = sorted(order, key=lambda k: (-counts[k], order.index(k)))[: most - 1]
            order = [k for k in order if k in kept] + [OTHER]
            keys = [k if k in kept else OTHER for k in keys]
        themed = [replace(p, theme=order.index(k)) for p, k in zip(passages, keys, strict=True)]
        return order, themed
