"""The extractive research agent: plans a message against the conversation, asks a clarifying
question when it must, searches, reads, ranks, writes a cited answer, verifies every citation
against the document reader, and produces the files the message asked for. Each stage is one
call that returns a frozen stage type (`regnb.agent._stages`); `ExtractiveAgent._run` is the
pipeline.

Its work is bounded by the message's size (it plans from the first `message_chars` characters
and says so), and a stopped run makes no more engine calls: each search, read and embedding
checks for a stop first, as each stage does."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from regnb.agent._clarify import absent, clarify, needs_probe
from regnb.agent._config import AgentConfig
from regnb.agent._counts import (
    asked_terms,
    count_choices,
    count_matches,
    list_matches,
    presence,
    term_documents,
)
from regnb.agent._evidence import BlockVectors, choose_documents, weigh_documents
from regnb.agent._firms import (
    Repeats,
    WatchSummary,
    asks_repeats,
    asks_watchlist,
    firm_lookup,
    firm_question,
    firm_records,
    repeats_table,
    watchlist_answer,
)
from regnb.agent._focus import (
    MAX_SUBJECTS,
    distinct_documents,
    leading_guidance,
    subject_documents,
    titles_by_meaning,
)
from regnb.agent._followup import plan_turn, turn_state
from regnb.agent._plan import searchable_datasets
from regnb.agent._rank import keyword_score, plan_terms
from regnb.agent._research import Researcher
from regnb.agent._searching import as_items, confirm_names, data_phrases, probe
from regnb.agent._source import CheckedSource, Source
from regnb.agent._stages import (
    Draft,
    Evidence,
    Found,
    Listing,
    Plan,
    Prepared,
    Reading,
    Searched,
    Searches,
    Side,
    SideCount,
    Tally,
    as_read,
)
from regnb.agent._verify import verify_answer
from regnb.agent._writer import Writer
from regnb.agent.llm import default_writer
from regnb.agent.types import (
    Answer,
    Produced,
    SourcedCitation,
    Step,
    Stopped,
    TurnRequest,
    TurnResult,
)
from regnb.documents.structure import document_kind
from regnb.errors import RegnbError
from regnb.settings import Settings

__all__ = ["ExtractiveAgent", "Producer", "default_producer", "run_turn"]

TITLE_FIT = 0.999  # a document named is answered from when its title fits the question best
# A count question that also asks what the documents say ("what problems…, and how often…")
ASKS_WHAT = re.compile(r"\b(?:what|which)\b", re.IGNORECASE)
# Kinds of question about every firm a name begins ("Teva's history"), not one of them to choose.
COLLECTIVE_KINDS = frozenset({"history", "absence", "which", "count", "trend", "comparison"})
POINTED_LIMIT = 50  # documents of the search for a user's pointer, to order the ones named
# Kinds that list or count documents of the kind named: without that kind, nothing to list.
LISTING_KINDS = frozenset({"which", "count", "trend"})
# A question that opens by asking about something, not for documents ("studies of insulin pumps").
ASKS_ABOUT = re.compile(
    r"\s*(?:when|how|why|can|could|may|must|should|does|do|is|are|will|would"
    r"|what(?:['’]s|\s+(?:is|are|does|do|should|must|can|fees?|happens)))\b",
    re.IGNORECASE,
)

Producer = Callable[[Answer, Sequence[str]], list[Produced]]


def default_producer(answer: Answer, formats: Sequence[str]) -> list[Produced]:
    """The produced documents (`regnb.agent.produce`, imported when a message asks for one)."""
    from regnb.agent.produce import produce

    return produce(answer, formats)


def bounded(text: str, chars: int) -> str:
    """The first `chars` characters of `text`, cut back to the last space when a word is cut."""
    if len(text) <= chars:
        return text
    head = text[:chars]
    if not text[chars].isspace() and any(c.isspace() for c in head):
        head = head.rsplit(None, 1)[0]
    return head


def bounded_request(request: TurnRequest, chars: int) -> tuple[TurnRequest, list[str]]:
    """The request with its message and the earlier turns' messages bounded to `chars`; and the
    note an answer carries when this message was cut."""
    if chars <= 0:
        return request, []
    history = [
        dataclasses.replace(t, message=bounded(t.message, chars)) if len(t.message) > chars else t
        for t in request.history
    ]
    message = bounded(request.message, chars)
    notes = []
    if len(message) < len(request.message):
        notes.append(
            f"Only the first {len(message):,} characters of your message were read (of "
            f"{len(request.message):,}); the research is about them alone."
        )
    return dataclasses.replace(request, message=message, history=history), notes


@dataclass
class _Run:
    """One turn's progress: its steps, the stop check, the optional pause between stages, and
    notes the answer carries. Not a stage's value: the run's own record, added to as it goes."""

    report: Callable[[list[Step]], None]
    stopped: Callable[[], bool]
    clock: Callable[[], float]
    sleep: Callable[[float], None]
    pace_s: float
    notes: Sequence[str] = ()
    steps: list[Step] = field(default_factory=list)

    def step(self, step: Step) -> None:
        self.steps.append(step)
        self.report(list(self.steps))

    def check(self) -> None:
        if self.stopped():
            raise Stopped()

    def stage(self) -> None:
        """Between stages: stop if asked, and pause `pace_s` (a setting, for tests of the service)."""
        self.check()
        end = self.clock() + self.pace_s
        while self.pace_s > 0 and (left := end - self.clock()) > 0:
            self.sleep(min(0.05, left))
            self.check()


def pointed_order(subjects: Sequence[Found], ranked_ids: Sequence[str]) -> list[Found]:
    """The subjects in the order a search for the user's pointer ranks them, those it did not
    find after, each group in its order before."""
    rank = {doc_id: i for i, doc_id in enumerate(ranked_ids)}
    return sorted(subjects, key=lambda d: rank.get(d.document_id, len(rank)))


def _same_application(doc: Found, others: Sequence[Found]) -> bool:
    """Whether the document is a letter of an application one of `others` is a letter of
    (the NDA's two complete response letters, titled by the drug and by its brand)."""
    number = doc.fields.get("application_number")
    return bool(number) and any(
        o.dataset == doc.dataset and o.fields.get("application_number") == number for o in others
    )


def _within_topic(plan: Plan) -> bool:
    """Whether the kinds of document a message names are part of what it asks about rather
    than where to look ("when can a change go in as a Special 510(k)?", "fees for 510(k)s, De
    Novo requests and PMAs"): it asks about something else as well, and not for a list or a
    count of those documents."""
    if not (plan.topic.words or plan.topic.phrases):
        return False
    if plan.ask.kind not in LISTING_KINDS:
        return True
    return not plan.ask.kind_said and ASKS_ABOUT.match(plan.message) is not None


class ExtractiveAgent:
    """Answers one message with quoted, verified passage citations (the `Agent` protocol).

    `writer` writes the prose (default: the model writer when REGNB_LLM_BASE_URL and
    REGNB_LLM_MODEL are set, else the extractive writer); `pace_s` pauses between stages (for
    tests of the service); `producer` makes the files a message asks for; `message_chars`
    bounds the part of a message that is read (REGNB_AGENT_MESSAGE_CHARS; 0: all of it);
    `watched` gives a saved watchlist's new documents by name (`regnb.watch.summary` over a local
    engine), for "what's new for my watchlists?"; `repeats` a firm's repeat findings from its
    timeline (`regnb.firms.timeline.repeat_findings`), for "were any observations repeats?"."""

    def __init__(
        self,
        engine: Source,
        *,
        writer: Writer | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        pace_s: float = 0.0,
        producer: Producer | None = None,
        config: AgentConfig | None = None,
        message_chars: int = Settings.agent_message_chars,
        watched: WatchSummary | None = None,
        repeats: Repeats | None = None,
    ) -> None:
        self.engine = engine
        self.watched, self.repeats = watched, repeats
        self.source = CheckedSource(engine)
        self.config = config or AgentConfig()
        self.writer = writer or default_writer(self.config)
        self.clock, self.sleep, self.pace_s = clock, sleep, pace_s
        self.producer = producer or default_producer
        self.message_chars = message_chars
        self.researcher = Researcher(self.source, vectors=BlockVectors(), config=self.config)
        self.catalog = engine.datasets()

    def dataset_name(self, dataset_id: str) -> str:
        entry = self.catalog.get(dataset_id)
        return entry.name if entry is not None else dataset_id

    def run(
        self,
        request: TurnRequest,
        report: Callable[[list[Step]], None],
        stopped: Callable[[], bool],
    ) -> TurnResult:
        request, notes = bounded_request(request, self.message_chars)
        run = _Run(report, stopped, self.clock, self.sleep, self.pace_s, notes)
        run.check()
        with self.source.checking(run.check):
            return self._run(request, run)

    def _run(self, request: TurnRequest, run: _Run) -> TurnResult:
        """The pipeline: each stage one call that returns a stage type."""
        watched = self.watchlists(request)
        if watched is not None:
            answer = self.verify_watchlists(watched, request, run)
            return TurnResult(
                status="completed",
                answer=answer.markdown,
                citations=answer.citations,
                state={"watchlists": True},
            )
        plan = self.plan(request)
        run.check()
        prepared = self.prepare(plan, request, run)
        if prepared.question is not None:
            return TurnResult(
                status="needs_input",
                answer=prepared.question["question"],
                question=prepared.question,
                state=turn_state(prepared.plan, [], [], request.history),
            )
        plan = prepared.plan
        searched = self.search(plan, request, run)
        reading = self.read(plan, searched, request, run)
        evidence = self.rank(plan, searched, reading, run)
        answer = self.with_repeats(self.write(evidence, request, run), plan, evidence)
        answer = self.verify(answer, request, run)
        produced = self.produce(answer, plan, run)
        firms = [d.firm_or_product for d in answer.documents if d.firm_or_product]
        documents = [d.document_id for d in answer.documents]
        return TurnResult(
            status="completed",
            answer=answer.markdown,
            citations=answer.citations,
            documents=produced,
            state=turn_state(plan, documents, firms, request.history, answer.subjects),
        )

    def watchlists(self, request: TurnRequest) -> Answer | None:
        """The answer to "what's new for my watchlists?" from the saved watchlists (a local
        engine's), else None: the question is researched as any other."""
        if self.watched is None or not asks_watchlist(request.message):
            return None
        return watchlist_answer(
            self.engine, request.message, request.first_citation, self.dataset_name, self.watched
        )

    def with_repeats(self, answer: Answer, plan: Plan, evidence: Evidence) -> Answer:
        """The answer with the repeat findings of the firm it is about, as data, when the
        question asks about repeats."""
        if self.repeats is None or not asks_repeats(plan.message):
            return answer
        table = repeats_table(plan, evidence.subjects, self.repeats)
        if table is None:
            return answer
        return replace(answer, tables=[table, *answer.tables])

    def verify_watchlists(self, answer: Answer, request: TurnRequest, run: _Run) -> Answer:
        """A watchlist answer with its documents' page citations checked; its summary counts
        the user's watchlists (data, as a scope line is), citing only the pages kept."""
        if not answer.citations:
            return answer
        checked = self.verify(replace(answer, summary=[]), request, run)
        kept = {c.index for c in checked.citations}
        summary = [replace(f, markers=[m for m in f.markers if m in kept]) for f in answer.summary]
        return replace(checked, summary=summary)

    def held(self) -> dict[str, int]:
        """Documents per dataset of the corpus (datasets it holds none of are left out)."""
        return self.researcher.held()

    def _quiet(self) -> _Run:
        return _Run(lambda steps: None, lambda: False, self.clock, self.sleep, 0.0)

    # -- the stages, in order ---------------------------------------------------------------

    def plan(self, request: TurnRequest) -> Plan:
        """The message planned against the conversation so far, over the datasets the corpus
        holds (one it names but does not hold is noted, not searched)."""
        plan = plan_turn(
            request.message,
            request.history,
            catalog=self.catalog,
            plan_name=request.plan,
            today=request.today,
            df=self.source.document_frequency,
            firms=firm_lookup(self.source.inner, request.plan),
        )
        held = self.held()
        scope = plan.scope
        kept = [d for d in scope.datasets if d in held]
        if scope.weakly_named and not kept:  # "trials", "recall": a word of the topic after all
            scope = replace(scope, named_datasets=(), weakly_named=False)
            kept = [d for d in searchable_datasets(self.catalog, request.plan) if d in held]
        lacking = {
            ds: "not_in_corpus"
            for ds in scope.named_datasets
            if ds not in held and ds not in scope.unsearchable
        }
        if lacking and not kept and _within_topic(plan):
            kept = [d for d in searchable_datasets(self.catalog, request.plan) if d in held]
        unsearchable = {**scope.unsearchable, **lacking}
        return replace(plan, scope=replace(scope, datasets=tuple(kept), unsearchable=unsearchable))

    def prepare(self, plan: Plan, request: TurnRequest, run: _Run | None = None) -> Prepared:
        """A first search when the plan needs one: a clarifying question, or the plan refined
        (firm and product filters the catalog confirms, phrases the pages use)."""
        run = run or self._quiet()
        replying = bool(request.history) and request.history[-1].status == "needs_input"
        scope = plan.scope
        missing = {scope.unsearchable.get(d) for d in scope.named_datasets}
        if (
            not replying
            and scope.named_datasets
            and not scope.datasets
            and missing == {"not_in_corpus"}
        ):
            return Prepared(plan, absent(plan, self.held(), self.dataset_name))
        collective = plan.ask.kind in COLLECTIVE_KINDS  # "Teva's history": every Teva firm
        asks = not (replying or collective)
        firm = firm_question(self.source.inner, plan, request.plan) if asks else None
        if firm is not None:
            return Prepared(plan, firm)
        ask = needs_probe(plan) and not replying
        if not (ask or plan.topic.names or plan.topic.pairs):
            return Prepared(plan)
        first = probe(self.source, plan, request.plan, self.config.probe_documents)
        run.stage()
        if ask:
            choices = count_choices(
                self.source,
                plan,
                request.plan,
                lambda ds: self.catalog[ds].filters,
                lambda ds: self.catalog[ds].fields,
                self.config,
            )
            question = clarify(plan, first, self.dataset_name, request.today, choices, self.config)
            if question is not None:
                return Prepared(plan, question)
        confirmed = confirm_names(plan, first, lambda ds: self.catalog[ds].filters)
        filters = dict(scope.filters)
        for ds, found in confirmed.items():
            filters[ds] = {**found, **filters.get(ds, {})}
        phrases = tuple(dict.fromkeys([*plan.topic.phrases, *data_phrases(plan, first)]))
        return Prepared(
            replace(
                plan,
                topic=replace(plan.topic, phrases=phrases),
                scope=replace(scope, filters=filters),
            )
        )

    def search(self, plan: Plan, request: TurnRequest, run: _Run | None = None) -> Searched:
        """Every planned dataset searched (each compared period on its own: neither side is
        lost), and, unless periods are compared, exact counts of what the searches match."""
        run = run or self._quiet()
        researcher = self.researcher
        if plan.ask.periods:
            searches, found, notes, sides = Searches(), list[Found](), list[str](), list[Side]()
            counted: list[SideCount] = []
            for period in plan.ask.periods:
                side = replace(
                    plan, scope=replace(plan.scope, dates=period), ask=replace(plan.ask, periods=())
                )
                got = researcher.search(side, request.plan, run.step, run.check, widen=False)
                searches = searches.merged(got.searches)
                notes += got.notes
                known = {f.document_id for f in found}
                found += [f for f in got.found if f.document_id not in known]
                sides.append((period.text, got.found))
                counted.append(self.side_count(side, request, got.searches, period.text))
            run.stage()
            sided = Searched(
                searches, tuple(found), tuple(notes), tuple(sides), side_counts=tuple(counted)
            )
            return self.with_firms(plan, request, sided)
        searched = researcher.search(plan, request.plan, run.step, run.check)
        run.stage()
        tally, listing = self.count(plan, request, searched.searches)
        searched = replace(searched, tally=tally, listing=listing)
        if plan.ask.kind == "absence":
            filters = lambda ds: self.catalog[ds].filters  # noqa: E731
            held = presence(self.source, plan, request.plan, filters, self.config)
            searched = replace(searched, presence=held)
        return self.with_firms(plan, request, searched)

    def side_count(
        self, side: Plan, request: TurnRequest, searches: Searches, text: str
    ) -> SideCount:
        """One compared period counted over every match: its matching documents, the documents
        of its datasets in the period, and the sections most cited."""
        tally, _ = self.count(side, request, searches)
        matched = tally.datasets if tally is not None else ()
        names = {self.dataset_name(d): d for d in side.scope.datasets}
        counted = [names[c.value] for c in matched if c.value in names] or list(side.scope.datasets)
        total = sum(
            self.source.document_count(ds, side.scope.date_from, side.scope.date_to)
            for ds in counted
        )
        return SideCount(
            text=text,
            matched=tally.total if tally is not None else 0,
            total=total,
            cfr=tally.cfr if tally is not None else (),
        )

    def pointed_first(self, plan: Plan, subjects: list[Found], request_plan: str) -> list[Found]:
        """Of several documents the question names ("Marius's Kyzatrex CRL": two letters), those
        whose pages hold what the user points at ("- something about PK samples") first, in the
        order a search for it ranks them."""
        if not plan.ask.pointers or len(subjects) < 2:
            return subjects
        try:
            result = self.source.search(
                as_items(list(plan.ask.pointers)),
                datasets=sorted({d.dataset for d in subjects}),
                plan=request_plan,
                limit=POINTED_LIMIT,
            )
        except RegnbError:
            return subjects
        return pointed_order(subjects, [r["document_id"] for r in result.results])

    def history_documents(self, plan: Plan, searched: Searched) -> list[Found]:
        """For a firm's history: its documents in the plan's datasets and dates, in date order
        (copies once), as found by the search where it found them; none for another question."""
        if plan.ask.kind != "history" or not searched.firms:
            return []
        by_id = {f.document_id: f for f in searched.found}
        scope = plan.scope
        own = [
            by_id.get(d.document_id, d)
            for r in searched.firms
            for d in r.of(scope.datasets)
            if (not scope.date_from or (d.date or "") >= scope.date_from)
            and (not scope.date_to or (d.date or "9999") <= scope.date_to)
        ]
        if len(own) < 2:  # "the 2021 483, and what happened after": its other documents too
            every = {d.document_id for d in own}
            own += [by_id.get(d.document_id, d) for r in searched.firms for d in r.documents]
            own = list({d.document_id: d for d in own}.values()) if every else own
        own.sort(key=lambda d: (d.date or "", d.document_id))
        return distinct_documents(own)[: self.config.history_documents]

    def with_firms(self, plan: Plan, request: TurnRequest, searched: Searched) -> Searched:
        """The firms the question names with their documents (their timelines), and those of
        their documents in the plan's datasets and dates first among the documents found."""
        records = firm_records(self.source.inner, plan, request.plan)
        if not records:
            return searched
        scope = plan.scope
        own = [
            d
            for r in records
            for d in r.of(scope.datasets)
            if (not scope.date_from or (d.date or "") >= scope.date_from)
            and (not scope.date_to or (d.date or "9999") <= scope.date_to)
            and d.document_id not in plan.follow_up.exclude_documents
        ]
        others = list(searched.found)
        if not own and plan.ask.kind == "absence":  # none asked for: what it holds instead
            own, others = [d for r in records for d in r.documents], []
        by_id = {f.document_id: f for f in searched.found}
        first = [
            by_id.get(d.document_id, d) for d in dict((d.document_id, d) for d in own).values()
        ]
        ids = {d.document_id for d in first}
        found = (*first, *(f for f in others if f.document_id not in ids))
        return replace(searched, found=found, firms=records)

    def read(
        self, plan: Plan, searched: Searched, request: TurnRequest, run: _Run | None = None
    ) -> Reading:
        """The documents to read and the pages read of each: the documents the question names
        (and a few others for "See also"), as many of each compared period, else the best
        documents found (for a count of several terms, each term's best documents first)."""
        run = run or self._quiet()
        config = self.config
        found, sides, tally = searched.found, searched.sides, searched.tally
        weights = weigh_documents(found, plan, config.title_share)
        terms = plan_terms(plan)
        kept = [f for f in found if f.document_id in plan.follow_up.subjects]  # a follow-up's
        named = subject_documents(found, plan)
        guidance_only = all(document_kind(d) == "guidance" for d in plan.scope.datasets)
        if not named and not kept and guidance_only and plan.scope.datasets:
            named = titles_by_meaning(found, plan, self.source.embed)  # words fail: meaning
            named = named or leading_guidance(found, plan)
        if (
            tally is not None
            and tally.terms
            and len(named) >= MAX_SUBJECTS
            and not ASKS_WHAT.search(plan.message)
        ):
            named = []  # terms counted among many documents of a firm or product: not one's list
        subjects = sorted(
            kept or named,
            key=lambda d: (-keyword_score(d.title, terms), -weights[d.document_id]),
        )
        subjects = self.pointed_first(plan, subjects, request.plan)
        asked = [t for t in terms if not t.anchor]  # what is asked, apart from whom about
        best = max((keyword_score(d.title, asked) for d in subjects), default=0.0)
        if best > 0:  # of several documents a name fits, those whose titles fit the question best
            fit = [d for d in subjects if keyword_score(d.title, asked) >= TITLE_FIT * best]
            subjects = [d for d in subjects if d in fit or _same_application(d, fit)]
        shown, per_subject = config.subjects_shown, config.findings_per_document
        history = self.history_documents(plan, searched)
        if history:  # a firm's record: each of its documents in date order, a few findings each
            subjects, shown, per_subject = history, len(history), config.history_findings
        matched = distinct_documents([f for f in found if not f.weak])
        if (
            not subjects
            and not sides
            and plan.ask.shape == "findings"
            and 2 <= len(matched) <= config.findings_documents
        ):  # what was found, asked of the few documents that match: each one's findings
            subjects, shown, per_subject = matched, len(matched), config.findings_each
        if subjects:  # the documents asked about, and a few others for "See also"
            others = [f for f in found if f not in subjects]
            documents = subjects + choose_documents(others, 2 * config.see_also, weights)
        elif sides:  # as many documents read from each side
            half = max(1, config.read_documents // len(sides))
            documents = []
            for _, side_found in sides:
                known = {d.document_id for d in documents}
                rest = [f for f in side_found if f.document_id not in known]
                documents += choose_documents(rest, half, weights)
        else:
            wanted = config.which_shown if plan.ask.lists else config.read_documents
            documents = self.examples(plan, request, tally)  # each term counted, read
            known = {d.document_id for d in documents}
            rest = [f for f in found if f.document_id not in known]
            documents += choose_documents(rest, wanted - len(documents), weights)
        noun = "document" if len(documents) == 1 else "documents"
        run.step(Step(f"Reading {len(documents)} {noun}", len(documents)))
        read, pages = self.researcher.read(documents, request.plan, run.check, subjects, asked)
        run.stage()
        by_id = {id(d): r for d, r in zip(documents, read, strict=True)}
        return Reading(
            documents=read,
            subjects=as_read(subjects, by_id),
            shown=shown,
            per_subject=per_subject,
            found=as_read(found, by_id),
            sides=tuple((text, as_read(side, by_id)) for text, side in sides),
            pages=pages,
            weights=weights,
        )

    def rank(
        self, plan: Plan, searched: Searched, reading: Reading, run: _Run | None = None
    ) -> Evidence:
        """The units of the pages read ranked and the best chosen and grouped into themes; the
        units of the documents the question names: the evidence an answer is written from."""
        run = run or self._quiet()
        researcher = self.researcher
        candidates = researcher.candidates(plan, reading.documents, reading.pages, reading.weights)
        passages, candidates = researcher.rank(plan, candidates, run.check)
        labels, passages = researcher.themes(passages)
        listed = reading.subjects[: reading.shown]
        return Evidence(
            plan,
            searched.searches,
            reading.found,
            reading.documents,
            passages,
            labels,
            reading.pages,
            (*run.notes, *searched.notes),
            subjects=reading.subjects,
            candidates=candidates,
            units=researcher.subject_units(plan, listed, reading.pages),
            shown=reading.shown,
            per_subject=reading.per_subject,
            common={d.dataset: researcher.common(d.dataset) for d in reading.documents},
            sides=reading.sides,
            tally=searched.tally,
            listing=searched.listing,
            firms=searched.firms,
            side_counts=searched.side_counts,
            presence=searched.presence,
        )

    def write(self, evidence: Evidence, request: TurnRequest, run: _Run | None = None) -> Answer:
        """The answer the writer writes from the evidence, with the documents it is about."""
        run = run or self._quiet()
        run.step(Step("Writing the answer", len(evidence.passages)))
        run.stage()
        answer = self.writer.write(replace(self.draft(evidence, request), check=run.check))
        subjects = [d.document_id for d in evidence.subjects[: evidence.shown]]
        run.check()
        return replace(answer, subjects=subjects)

    def verify(self, answer: Answer, request: TurnRequest, run: _Run | None = None) -> Answer:
        """The answer with every citation checked against the document reader (a sentence whose
        passage fails is dropped); citations of earlier turns may be cited again."""
        run = run or self._quiet()
        prior: list[SourcedCitation] = [c for turn in request.history for c in turn.citations]
        verified, _ = verify_answer(answer, self.source, request.plan, prior)
        run.stage()
        return verified

    def produce(self, answer: Answer, plan: Plan, run: _Run | None = None) -> list[Produced]:
        """The files the message asked for, made from the answer."""
        run = run or self._quiet()
        produced = self.producer(answer, list(plan.ask.formats)) if plan.ask.formats else []
        run.check()
        return produced

    # -- compositions and helpers ------------------------------------------------------------

    def research(self, plan: Plan, request: TurnRequest, run: _Run | None = None) -> Evidence:
        """Search, read and rank: the evidence an answer is written from."""
        run = run or self._quiet()
        searched = self.search(plan, request, run)
        return self.rank(plan, searched, self.read(plan, searched, request, run), run)

    def answer(self, plan: Plan, request: TurnRequest, run: _Run | None = None) -> Answer:
        """Research, write and verify: the answer, every citation checked against the reader."""
        run = run or self._quiet()
        return self.verify(
            self.write(self.research(plan, request, run), request, run), request, run
        )

    def draft(self, evidence: Evidence, request: TurnRequest) -> Draft:
        return Draft(request.message, evidence, request.first_citation, self.dataset_name)

    def examples(self, plan: Plan, request: TurnRequest, tally: Tally | None) -> list[Found]:
        """For a count of several terms, the documents that hold each term best, read first."""
        if tally is None or not tally.terms:
            return []
        out: list[Found] = []
        filters = lambda ds: self.catalog[ds].filters  # noqa: E731
        for term in (c.value for c in tally.terms if c.documents):
            for doc in term_documents(
                self.source, plan, request.plan, filters, term, self.config.term_examples
            ):
                if doc.document_id not in {d.document_id for d in out}:
                    out.append(doc)
        return out

    def count(
        self, plan: Plan, request: TurnRequest, searches: Searches
    ) -> tuple[Tally | None, Listing | None]:
        """Exact counts of what the searches matched (every full match, not the pages read),
        and every matching document for a "which…" question; none for a follow-up narrowed to
        some documents (the counts would not be of what it shows)."""
        if plan.follow_up.restrict_documents or plan.follow_up.require:
            return None, None
        matched = [ds for ds, s in searches.statuses.items() if s.get("status") == "ok"]
        if not matched:
            return None, None
        counted = replace(plan, scope=replace(plan.scope, datasets=tuple(matched)))
        filters = lambda ds: self.catalog[ds].filters  # noqa: E731
        pinned = any(plan.scope.filters.get(ds) for ds in matched)  # a firm or product within
        terms = asked_terms(plan, self.config) if plan.ask.shape == "count" and pinned else []
        tally = count_matches(
            self.source,
            counted,
            request.plan,
            filters,
            self.dataset_name,
            terms=terms,
            config=self.config,
        )
        listing = None
        if plan.ask.lists:
            listing = list_matches(
                self.source, counted, request.plan, filters, self.config.which_listed
            )
        return tally, listing


def run_turn(
    agent: ExtractiveAgent, message: str, *, first_citation: int = 1, plan: str = "enterprise"
) -> TurnResult:
    """One turn with no history, no stop and no progress display (benchmarks, notebooks)."""
    request = TurnRequest(message=message, history=[], first_citation=first_citation, plan=plan)
    return agent.run(request, lambda steps: None, lambda: False)
