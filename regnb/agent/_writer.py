"""The extractive answer: a direct answer first, findings by theme, the key documents and what was
not found. Every sentence is built from the text of the passage it cites (quoted word for word)
and the cited documents' own titles, firms and dates, so it says nothing that no passage says."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from regnb.agent._citations import CitationBook
from regnb.agent._compose import cfr_label, compose, document_noun
from regnb.agent._config import AgentConfig
from regnb.agent._dates import DateRange
from regnb.agent._labels import firm_of
from regnb.agent._leads import comparison_leads, firm_leads, presence_leads
from regnb.agent._stages import Draft, Evidence, Found, Tally
from regnb.agent.types import Answer, DataRow, DataTable, Finding, KeyDocument
from regnb.documents.cfr import sections as cfr_sections
from regnb.documents.statements import short_statement
from regnb.documents.words import fold_spaces, word_set

__all__ = [
    "FRAME_WORDS",
    "ExtractiveWriter",
    "Writer",
    "data_tables",
    "firm_of",
    "not_found_lines",
]

MAX_SUMMARY = 4  # sentences of "In short", at most

# Units a document's key findings are taken from: what it found, charged, lacked or recommends.
FINDING_KINDS = frozenset({"finding", "violation", "deficiency", "recommendation"})
# The only words a sentence may add to its quote and its documents' own titles, firms and dates.
# Counts (numbers of four digits or fewer) are the agent's own and allowed too.
FRAME_WORDS = word_set(
    "cited documents document concern page also cite cites citing more dated lists matches most among those read before after list listed match "
    "matched shown firms firm under repeat observation observations violation violations "
    "deficiency deficiencies recommendation recommendations recommends request requests "
    "event description descriptions manufacturer narrative narratives passage passages "
    "finding findings report reports letter letters guidance form section sections part parts "
    "product quality facility facilities inspection inspections clinical pharmacology "
    "nonclinical human factors labeling microbiology biopharmaceutics device safety update "
    "prescribing information carton container additional comments other corpus holds hold "
    "holds no yes none about kinds kind recall recalls enforcement share higher lower than "
    "both sides side only same percent mentions mention"
)


class Writer:
    """Writes an `Answer` from a `Draft`; the extractive writer and the model writer are two."""

    def write(self, draft: Draft) -> Answer:
        raise NotImplementedError


def _listed(names: list[str]) -> str:
    names = list(dict.fromkeys(names))
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _cited_for(
    found: Found, findings: list[Finding], evidence: Evidence, words: int
) -> tuple[list[str], list[str]]:
    """What a document is cited for (its findings' headings, else its CFR sections' titles) and
    every CFR section its units read cite."""
    own = [f for f in findings if f.document_id == found.document_id]
    units = evidence.units.get(found.document_id) or [
        p for p in evidence.candidates if p.found.document_id == found.document_id
    ]
    cfr = list(dict.fromkeys(c for p in units for c in p.unit.cfr))
    cfr = list(dict.fromkeys([*(c for f in own for c in f.cfr), *cfr]))
    labels = [cfr_label(c) for c in cfr[:3]]
    if not labels:
        labels = [short_statement(f.short, words) for f in own if f.short][:2]
    return list(dict.fromkeys(labels)), cfr


def _finding_line(heading: str | None, statement: str) -> str:
    heading = " ".join((heading or "").split())
    return f"{heading}: {statement}" if heading and heading not in statement else statement


def _key_findings(
    found: Found, findings: list[Finding], evidence: Evidence, config: AgentConfig
) -> list[str]:
    """A document's key findings, one line each: the findings, violations, deficiencies and
    recommendations of its units read, in the document's order, then what else the answer
    states of it (word for word, cut at `words`)."""
    lines: dict[str, str] = {}  # statement: line
    for passage in evidence.units.get(found.document_id, []):
        unit = passage.unit
        short = short_statement(unit.text, config.short_words) if unit.kind in FINDING_KINDS else ""
        if short and short not in lines:
            lines[short] = _finding_line(unit.heading, short)
    firm = firm_of(found) or found.title
    for f in findings:
        if f.document_id == found.document_id and f.short and f.short not in lines:
            heading = f.heading if f.heading and firm not in f.heading else None
            lines[f.short] = _finding_line(heading, f.short)
    return list(lines.values())[: config.key_findings]


def _pages_cfr(found: Found, pages: Sequence[int], evidence: Evidence) -> list[str]:
    """The CFR sections a document's cited pages cite (when its units read give none)."""
    texts = [evidence.pages.get((found.document_id, n), "") for n in pages]
    return list(dict.fromkeys(s for text in texts for s in cfr_sections(text)))


def _key_documents(
    evidence: Evidence, book: CitationBook, findings: list[Finding], config: AgentConfig
) -> list[KeyDocument]:
    """The documents the answer cites, with what each is cited for; beside the documents a
    question names, at most `config.see_also` others, marked "see_also"."""
    cited = {f.document_id for f in findings}
    by_id = {d.document_id: d for d in [*evidence.read, *evidence.documents]}
    named = [d for d in evidence.subjects if d.document_id in cited]
    order: list[Found] = list(named)
    passages = [
        q for p in sorted(evidence.passages, key=lambda p: -p.score) for q in [p, *p.copies]
    ]
    others = [p.found for p in passages if p.found not in order]
    if named:
        others = [d for d in others if d.document_id in cited or not d.weak]
    known = {d.document_id for d in order}
    for doc in others:
        if doc.document_id not in known:
            known.add(doc.document_id)
            order.append(doc)
    limit = config.key_documents + (5 if evidence.plan.ask.lists else 0)
    strong = any(not d.weak for d in evidence.read)
    for doc in evidence.read:
        if named or len(order) >= limit:
            break
        read = any((doc.document_id, n) in evidence.pages for n in doc.pages)
        if doc not in order and read and (not doc.weak or not strong) and evidence.passages:
            order.append(doc)
    if named:
        order = order[: len(named) + config.see_also]
    out = []
    for doc in order[:limit]:
        doc = by_id.get(doc.document_id, doc)
        on = sorted({p.page_num for p in passages if p.found.document_id == doc.document_id})
        on += sorted({p.page_num for p in evidence.units.get(doc.document_id, [])} - set(on))
        pages = on or [n for n in doc.pages if (doc.document_id, n) in evidence.pages][:1]
        if not pages:
            continue
        numbers = [book.page(doc, n) for n in pages[:1]]
        cited_for, cfr = _cited_for(doc, findings, evidence, config.cited_for_words)
        cfr = cfr or _pages_cfr(doc, pages, evidence)
        out.append(
            KeyDocument(
                title=fold_spaces(doc.title),
                dataset=book.dataset_name(doc.dataset),
                dataset_id=doc.dataset,
                date=None if doc.date is None else str(doc.date),
                firm_or_product=firm_of(doc),
                url=doc.url,
                document_id=doc.document_id,
                citation=numbers[0],
                fields=dict(doc.fields),
                cited_for=cited_for,
                cfr=cfr,
                findings=_key_findings(doc, findings, evidence, config),
                role="see_also" if named and doc not in named else "key",
            )
        )
    return out


def not_found_lines(
    evidence: Evidence, dataset_name: Callable[[str], str], notes: Sequence[str] = ()
) -> list[str]:
    """The evidence's notes and the writer's `notes`; datasets with no match, loosened
    matches, datasets and dates left out."""
    plan, searches, scope = evidence.plan, evidence.searches, evidence.plan.scope
    lines = [*evidence.notes, *notes]
    if not evidence.passages and scope.datasets and not searches.found:
        where = "; ".join(dataset_name(d) for d in scope.datasets[:4])
        more = f" and {len(scope.datasets) - 4} more datasets" if len(scope.datasets) > 4 else ""
        terms = [*plan.topic.terms, *plan.follow_up.require]
        asked = ", ".join(f"“{t}”" for t in terms[:4]) or "the question"
        lines.append(
            f"No page of {where}{more} holds {asked}: words are matched as written, so other "
            "wordings may still find such documents."
        )
    groups: dict[str, list[str]] = {}
    for ds, outcome in searches.statuses.items():
        groups.setdefault(str(outcome.get("status")), []).append(dataset_name(ds))
    served = any(d in scope.datasets for d in scope.named_datasets)
    for ds, reason in scope.unsearchable.items():
        if reason == "not_in_corpus" and served:
            continue  # "483s" asked: the corpus's 483s answer it, not its missing inspections
        groups.setdefault(reason, []).append(dataset_name(ds))
    texts = {
        "no_match": "No match in {}.",
        "loosened": "No page of {} holds every word asked for; pages with some of them are "
        "cited as weaker evidence.",
        "skipped": "{} left out: no date field to apply the dates asked for.",
        "forbidden": "{} not searched: it needs an enterprise plan.",
        "not_available": "{} not searched: not available yet.",
        "not_in_corpus": "{}: this corpus holds no documents of it.",
        "timeout": "{} did not answer in time.",
        "error": "{} could not be searched.",
    }
    named = {dataset_name(d) for d in scope.named_datasets}
    for status, text in texts.items():
        names = sorted(set(groups.get(status, [])))
        if status == "no_match" and len(names) > 3 and not named & set(names):
            lines.append(f"No match in {len(names)} other datasets.")
        elif status == "loosened" and len(names) > 3 and not named & set(names):
            lines.append(text.format(f"{len(names)} other datasets"))
        elif names:
            lines.append(text.format("; ".join(names)))
    if searches.reformulated:
        listed = "; ".join(dataset_name(d) for d in searches.reformulated)
        lines.append(
            f"{listed}: no page holds the words asked for together; pages holding some of them "
            "are cited as weaker evidence."
        )
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def scope_lines(
    evidence: Evidence, dataset_name: Callable[[str], str], shown: int, config: AgentConfig
) -> list[str]:
    """What was searched, in plain words: datasets and dates, filters applied, documents found
    and shown."""
    plan, searches, scope = evidence.plan, evidence.searches, evidence.plan.scope
    names = [dataset_name(d) for d in scope.datasets]
    where = _listed(names) if len(names) <= 4 else f"{len(names)} datasets"
    if plan.ask.periods:
        when = "documents dated " + " and, apart, ".join(p.inside() for p in plan.ask.periods)
    elif scope.date_from or scope.date_to:
        when = f"documents dated {_dates(evidence).inside()}"
    else:
        when = "all dates"
    filters = [
        f"{name.replace('_', ' ')} “{value}” in {dataset_name(ds)}"
        for ds, given in scope.filters.items()
        for name, value in given.items()
        if ds in searches.statuses
    ]
    used = "; filters: " + "; ".join(filters) if filters else "; no filters"
    strong = sum(1 for f in evidence.documents if not f.weak)
    loose = len(evidence.documents) - strong
    capped = plan.ask.shape in ("which", "count") and strong >= config.which_documents
    found = (
        f"{'at least ' if capped else ''}{_count(strong, 'document')} matched the question"
        if strong
        else "no document matched every word of the question"
        if not searches.found
        else "no document found is within the question's limits"  # its places, a follow-up's
    )
    if evidence.tally is not None and evidence.tally.total:
        found = f"{_count(evidence.tally.total, 'document')} matched the question"
    if loose:
        found += f", {loose} more matched some of its words"
    if not names:
        return ["No dataset could be searched."]
    return [f"Searched {where}, {when}{used}.", f"{found[0].upper()}{found[1:]}; {shown} shown."]


def _dates(evidence: Evidence) -> DateRange:
    """The dates the plan keeps (from, to, or both)."""
    return evidence.plan.scope.dates or DateRange(None, None, "")


def _span(evidence: Evidence) -> str:
    scope = evidence.plan.scope
    if not (scope.date_from or scope.date_to):
        return ""
    return ", dated " + _dates(evidence).inside()


def count_tables(tally: Tally, evidence: Evidence, cfr_rows: int) -> list[DataTable]:
    """Exact counts as small tables: documents per year, per dataset (when several), per term
    asked about, and the CFR sections their matching pages cite most."""
    note = f"Counted over every match, not only the documents read{_span(evidence)}: "
    note += f"{tally.counted}."
    tables = []
    if tally.terms:
        rows = [DataRow((f"“{c.value}”", str(c.documents))) for c in tally.terms]
        label = f"Documents holding each term asked about (of {tally.total})"
        tables.append(DataTable(label, ("Term", "Documents"), tuple(rows)))
    if tally.years:
        rows = [DataRow((c.value, str(c.documents))) for c in tally.years]
        tables.append(DataTable("Matching documents per year", ("Year", "Documents"), tuple(rows)))
    if len(tally.datasets) > 1:
        rows = [DataRow((c.value, str(c.documents))) for c in tally.datasets]
        header = ("Dataset", "Documents")
        tables.append(DataTable("Matching documents per dataset", header, tuple(rows)))
    if tally.cfr:
        rows = [DataRow((cfr_label(c.value), str(c.documents))) for c in tally.cfr[:cfr_rows]]
        label = "CFR sections their matching pages cite most"
        tables.append(DataTable(label, ("Section", "Documents"), tuple(rows)))
    if not tables:
        return []
    first = tables[0]
    return [DataTable(first.label, first.header, first.rows, note), *tables[1:]]


def listing_table(evidence: Evidence) -> DataTable | None:
    """Every matching document of a "which…" question (newest first), one row each: its firm or
    product, date, title and the CFR sections its matching pages cite (data from the engine)."""
    listing = evidence.listing
    if listing is None or not listing.rows:
        return None
    shown = len(listing.rows)
    told = f"{listing.total} found" + (
        f"; the {shown} newest listed" if shown < listing.total else ""
    )
    rows = tuple(
        DataRow(
            (m.firm or "", m.date or "", fold_spaces(m.title), "; ".join(m.cfr)),
            document_id=m.document_id,
            url=m.url,
        )
        for m in listing.rows
    )
    header = ("Firm or product", "Date", "Document", "CFR sections its matching pages cite")
    note = (
        "Every document that matches the search, listed from the index (a row is the "
        "document's catalog data, not a finding); the documents quoted above are marked."
    )
    return DataTable(f"Every matching document ({told})", header, rows, note, kind="matches")


def data_tables(evidence: Evidence, config: AgentConfig) -> list[DataTable]:
    """The answer's data tables: exact counts for a count question, every matching document
    for a "which…" question."""
    out: list[DataTable] = []
    if evidence.tally is not None and evidence.plan.ask.shape == "count":
        out += count_tables(evidence.tally, evidence, config.cfr_rows)
    listed = listing_table(evidence)
    if listed is not None:
        out.append(listed)
    return out


class ExtractiveWriter(Writer):
    """Quotes the documents' own units in the question's shape; the default writer and the
    model writer's fallback."""

    def __init__(self, config: AgentConfig | None = None) -> None:
        self.config = config or AgentConfig()

    def write(self, draft: Draft) -> Answer:
        evidence = draft.evidence
        book = CitationBook(draft.first_citation, draft.dataset_name, evidence.pages)
        leads = [*comparison_leads(evidence, book), *firm_leads(evidence, book)]
        if not leads:
            leads = presence_leads(evidence, book)
        summary, themes, notes = compose(evidence, book, self.config)
        summary = [*leads, *summary][: max(len(leads), MAX_SUMMARY)]
        findings = [*summary, *(f for t in themes for f in t.findings)]
        documents = _key_documents(evidence, book, findings, self.config)
        answer = Answer(
            question=draft.question,
            summary=summary,
            themes=themes,
            documents=documents,
            not_found=not_found_lines(evidence, draft.dataset_name, notes),
            citations=book.citations,
            topic=answer_topic(evidence, draft.dataset_name),
            scope=scope_lines(evidence, draft.dataset_name, len(documents), self.config),
            tables=data_tables(evidence, self.config),
        )
        return answer


def answer_topic(evidence: Evidence, dataset_name: Callable[[str], str]) -> str:
    """What the answer is about, for titles: the documents a question names, else its words."""
    named = evidence.subjects[:2]
    if named:
        return "; ".join(
            f"{document_noun(d.dataset).capitalize()}: {firm_of(d) or fold_spaces(d.title)}"
            + (f" ({d.date})" if d.date else "")
            for d in named
        )
    plan = evidence.plan
    words = list(plan.topic.terms[:5])
    where = " and ".join(dataset_name(d) for d in plan.scope.named_datasets[:2])
    head = ", ".join(words) or fold_spaces(plan.query)[:80]
    head = f"{where}: {head}" if where and words else head
    return head[0].upper() + head[1:] if head else "Research answer"
