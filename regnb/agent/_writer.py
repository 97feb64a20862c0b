"""The extractive answer: a direct answer first, findings by theme, the key documents and what was
not found. Every sentence is built from the text of the passage it cites (quoted word for word)
and the cited documents' own titles, firms and dates, so it says nothing that no passage says."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from regnb.agent._citations import CitationBook
from regnb.agent._compose import cfr_label, compose, document_noun
from regnb.agent._config import AgentConfig
from regnb.agent._dates import DateRange
from regnb.agent._evidence import Evidence
from regnb.agent._labels import firm_of
from regnb.agent._quotes import short_statement
from regnb.agent._searching import Found
from regnb.agent._words import fold, word_set
from regnb.agent.types import Answer, Finding, KeyDocument

__all__ = [
    "FRAME_WORDS",
    "Draft",
    "ExtractiveWriter",
    "Writer",
    "firm_of",
    "not_found_lines",
    "render_markdown",
]

KEY_DOCUMENTS = 10
CITED_FOR_WORDS = 10
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
    "prescribing information carton container additional comments other"
)


@dataclass
class Draft:
    """What a writer needs: the question, the evidence, and how citations are numbered."""

    question: str
    evidence: Evidence
    first_citation: int
    dataset_name: Callable[[str], str]


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
    found: Found, findings: list[Finding], evidence: Evidence
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
        labels = [short_statement(f.short, CITED_FOR_WORDS) for f in own if f.short][:2]
    return list(dict.fromkeys(labels)), cfr


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
    limit = KEY_DOCUMENTS + (5 if evidence.plan.shape == "which" else 0)
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
        cited_for, cfr = _cited_for(doc, findings, evidence)
        out.append(
            KeyDocument(
                title=fold(doc.title),
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
                role="see_also" if named and doc not in named else "key",
            )
        )
    return out


def not_found_lines(evidence: Evidence, dataset_name: Callable[[str], str]) -> list[str]:
    """Datasets with no match, loosened matches, datasets and dates left out."""
    plan, searches = evidence.plan, evidence.searches
    lines = list(evidence.notes)
    if not evidence.passages and plan.datasets:
        where = "; ".join(dataset_name(d) for d in plan.datasets[:4])
        more = f" and {len(plan.datasets) - 4} more datasets" if len(plan.datasets) > 4 else ""
        asked = ", ".join(f"“{t}”" for t in [*plan.topic, *plan.require][:4]) or "the question"
        lines.append(
            f"No page of {where}{more} holds {asked}: words are matched as written, so other "
            "wordings may still find such documents."
        )
    groups: dict[str, list[str]] = {}
    for ds, outcome in searches.statuses.items():
        groups.setdefault(str(outcome.get("status")), []).append(dataset_name(ds))
    for ds, reason in plan.unsearchable.items():
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
    named = {dataset_name(d) for d in plan.named_datasets}
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


def scope_lines(evidence: Evidence, dataset_name: Callable[[str], str], shown: int) -> list[str]:
    """What was searched, in plain words: datasets and dates, filters applied, documents found
    and shown."""
    plan, searches = evidence.plan, evidence.searches
    names = [dataset_name(d) for d in plan.datasets]
    where = _listed(names) if len(names) <= 4 else f"{len(names)} datasets"
    if plan.periods:
        spans = [DateRange(f, t, w or "").inside() for f, t, w in plan.periods]
        when = "documents dated " + " and, apart, ".join(spans)
    elif plan.date_from or plan.date_to:
        span = DateRange(plan.date_from, plan.date_to, plan.date_text or "").inside()
        when = f"documents dated {span}"
    else:
        when = "all dates"
    filters = [
        f"{name.replace('_', ' ')} “{value}” in {dataset_name(ds)}"
        for ds, given in plan.filters.items()
        for name, value in given.items()
        if ds in searches.statuses
    ]
    used = "; filters: " + "; ".join(filters) if filters else "; no filters"
    strong = sum(1 for f in evidence.documents if not f.weak)
    loose = len(evidence.documents) - strong
    capped = plan.shape in ("which", "count") and strong >= AgentConfig().which_documents
    found = (
        f"{'at least ' if capped else ''}{_count(strong, 'document')} matched the question"
        if strong
        else "no document matched every word of the question"
    )
    if loose:
        found += f", {loose} more matched some of its words"
    if not names:
        return ["No dataset could be searched."]
    return [f"Searched {where}, {when}{used}.", f"{found[0].upper()}{found[1:]}; {shown} shown."]


class ExtractiveWriter(Writer):
    """Quotes the documents' own units in the question's shape; the default writer and the
    model writer's fallback."""

    def __init__(self, config: AgentConfig | None = None) -> None:
        self.config = config or AgentConfig()

    def write(self, draft: Draft) -> Answer:
        evidence = draft.evidence
        book = CitationBook(draft.first_citation, draft.dataset_name)
        summary, themes = compose(evidence, book, self.config)
        findings = [*summary, *(f for t in themes for f in t.findings)]
        documents = _key_documents(evidence, book, findings, self.config)
        answer = Answer(
            question=draft.question,
            summary=summary,
            themes=themes,
            documents=documents,
            not_found=not_found_lines(evidence, draft.dataset_name),
            citations=book.citations,
            topic=answer_topic(evidence, draft.dataset_name),
            scope=scope_lines(evidence, draft.dataset_name, len(documents)),
        )
        answer.markdown = render_markdown(answer)
        return answer


def answer_topic(evidence: Evidence, dataset_name: Callable[[str], str]) -> str:
    """What the answer is about, for titles: the documents a question names, else its words."""
    named = evidence.subjects[:2]
    if named:
        return "; ".join(
            f"{document_noun(d.dataset).capitalize()}: {firm_of(d) or fold(d.title)}"
            + (f" ({d.date})" if d.date else "")
            for d in named
        )
    plan = evidence.plan
    words = [*plan.identifiers, *plan.names, *plan.phrases, *plan.words][:5]
    where = " and ".join(dataset_name(d) for d in plan.named_datasets[:2])
    head = ", ".join(words) or fold(plan.query)[:80]
    head = f"{where}: {head}" if where and words else head
    return head[0].upper() + head[1:] if head else "Research answer"


def _markers(numbers: list[int]) -> str:
    return "".join(f"[{n}]" for n in numbers)


def sentence_markdown(finding: Finding) -> str:
    """A finding with its markers before its closing stop: "text [4]."."""
    text = fold(finding.text)
    body, stop = re.fullmatch(r"(.*?)([.!?]?)", text, re.S).groups()  # type: ignore[union-attr]
    return f"{body} {_markers(finding.markers)}{stop}"


def _cell(text: str) -> str:
    return fold(text).replace("|", "\\|")


def _bullet(finding: Finding) -> str:
    head = f"**{fold(finding.heading)}**: " if finding.heading else ""
    return head + sentence_markdown(finding)


def _document_row(d: KeyDocument, answer: Answer) -> str:
    numbers = sorted(
        c.index for c in answer.citations if c.document_id == d.document_id and c.block_id is None
    )
    cited_for = "; ".join(d.cited_for[:2])
    return (
        f"| {_cell(d.title)} {_markers(numbers or [d.citation])} | {_cell(d.dataset)} "
        f"| {d.date or ''} | {_cell(d.firm_or_product or '')} | {_cell(cited_for)} |"
    )


def render_markdown(answer: Answer) -> str:
    """The answer as markdown: in short, themes (numbered where the document numbers them), key
    documents, see also, scope and what was not found, notes."""
    parts = []
    if answer.summary:
        parts.append("**In short:** " + " ".join(sentence_markdown(f) for f in answer.summary))
    else:
        parts.append("**In short:** no passage of the documents searched answers this question.")
    for theme in answer.themes:
        if theme.table:
            rows = [
                f"| {_cell(f.heading or '')} | {sentence_markdown(f)} |" for f in theme.findings
            ]
            parts.append(f"### {theme.label}\n| | |\n|---|---|\n" + "\n".join(rows))
            continue
        if theme.numbered:
            items = [f"{i}. {_bullet(f)}" for i, f in enumerate(theme.findings, start=1)]
        else:
            items = [f"- {_bullet(f)}" for f in theme.findings]
        parts.append(f"### {theme.label}\n" + "\n".join(items))
    key = [d for d in answer.documents if d.role != "see_also"]
    also = [d for d in answer.documents if d.role == "see_also"]
    if key:
        head = "| Document | Dataset | Date | Firm or product | Cited for |\n|---|---|---|---|---|"
        table = "\n".join(_document_row(d, answer) for d in key)
        parts.append("### Key documents\n" + head + "\n" + table)
    if also:
        lines = []
        for d in also:
            when = f", {d.date}" if d.date else ""
            lines.append(f"- {_cell(d.title)} ({_cell(d.dataset)}{when}) {_markers([d.citation])}")
        parts.append("### See also\n" + "\n".join(lines))
    if answer.scope or answer.not_found:
        lines = [*answer.scope, *answer.not_found]
        parts.append("### Scope\n" + "\n".join(f"- {line}" for line in lines))
    for note in answer.notes:
        parts.append(f"_{note}_")
    return "\n\n".join(parts) + "\n"
