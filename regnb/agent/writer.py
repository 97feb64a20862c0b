"""The extractive answer: a direct answer first, findings by theme, the key documents and what was
not found. Every sentence is built from the text of the passage it cites (quoted word for word)
and the cited documents' own titles, firms and dates, so it says nothing that no passage says."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from regnb.agent.citations import CitationBook
from regnb.agent.dates import DateRange
from regnb.agent.evidence import Evidence, Passage
from regnb.agent.rank import Term, keyword_score, plan_terms
from regnb.agent.searching import Found
from regnb.agent.themes import OTHER
from regnb.agent.types import Answer, Finding, KeyDocument, Theme
from regnb.agent.vocab import FIRM_FIELDS, PRODUCT_FIELDS
from regnb.agent.words import fold, plain, sentence_spans, word_set

__all__ = [
    "FRAME_WORDS",
    "Draft",
    "ExtractiveWriter",
    "Writer",
    "firm_of",
    "not_found_lines",
    "quote_of",
    "render_markdown",
]

QUOTE_WORDS = 45
SUMMARY_WORDS = 32
SUMMARY_QUOTES = 3
THEME_FINDINGS = 5
KEY_DOCUMENTS = 10
# The only words a sentence may add to its quote and its documents' own titles, firms and dates.
FRAME_WORDS = word_set("cited documents concern page also")
_TITLE_PREFIX = re.compile(
    r"^(?:warning\s+letter|fda\s+form\s+483|complete\s+response\s+letter|maude\s+mdr\s+\S+)"
    r"\s*[:\-–]\s*",
    re.IGNORECASE,
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


def firm_of(found: Found) -> str | None:
    """The firm or product a document is about: a catalog field, else its title's subject."""
    for name in (*FIRM_FIELDS, *PRODUCT_FIELDS):
        value = found.fields.get(name)
        if isinstance(value, str) and value.strip():
            return fold(value)
    title = fold(found.title)
    stripped = _TITLE_PREFIX.sub("", title)
    if stripped != title:
        return re.sub(r"\s*\([^()]*\)\s*$", "", stripped) or None
    return None


def _who(found: Found) -> str:
    name = firm_of(found) or fold(found.title)
    return name if len(name) <= 90 else name[:89].rsplit(" ", 1)[0] + "…"


def quote_of(text: str, terms: list[Term], limit: int = QUOTE_WORDS) -> tuple[str, str]:
    """(shown, quote): the block's best sentences, at most `limit` words; `quote` is word for
    word from the block as `plain` gives it, `shown` adds an ellipsis where it was cut."""
    folded = plain(text)
    if len(folded.split()) <= limit:
        return folded, folded
    spans = sentence_spans(folded)
    scored = [(keyword_score(folded[s:e], terms), -i) for i, (s, e) in enumerate(spans)]
    best = max(range(len(spans)), key=lambda i: scored[i])
    start, end = spans[best]
    for _, e in spans[best + 1 :]:
        if len(folded[start:e].split()) > limit and len(folded[start:end].split()) >= 8:
            break
        end = e
        if len(folded[start:end].split()) > limit:
            break
    quote = folded[start:end]
    if len(quote.split()) <= limit:
        return quote, quote
    quote = " ".join(quote.split()[:limit])
    return quote + " …", quote


def _finding(
    passage: Passage, book: CitationBook, terms: list[Term], limit: int = QUOTE_WORDS
) -> Finding:
    shown, quote = quote_of(passage.block.text, terms, limit)
    when = f" ({passage.found.date})" if passage.found.date else ""
    same = [c for c in passage.copies if quote in plain(c.block.text)]
    others = [n for n in (_who(c.found) for c in same) if n != _who(passage.found)]
    also = f" (also {_listed(others)})" if others else ""
    return Finding(
        text=f"{_who(passage.found)}{when}{also}: “{shown}”",
        markers=[book.passage(p) for p in [passage, *same]],
        quote=quote,
    )


def _listed(names: list[str]) -> str:
    names = list(dict.fromkeys(names))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _firms_sentence(passages: list[Passage], book: CitationBook) -> Finding | None:
    """ "The cited documents concern A, B and C." with the best passage of each firm: the firms
    whose passages hold most of what was asked (at least half the best passage's evidence)."""
    best = max((p.topic for p in passages), default=0.0)
    firms: dict[str, Passage] = {}
    for p in passages:
        if p.topic < 0.5 * best:
            continue
        firm = firm_of(p.found)
        if firm and firm not in firms and len(firms) < 5:
            firms[firm] = p
    if not firms:
        return None
    listed = _listed(list(firms))
    markers = [book.passage(p) for p in firms.values()]
    return Finding(text=f"The cited documents concern {listed}.", markers=markers)


def _summary(evidence: Evidence, book: CitationBook, terms: list[Term]) -> list[Finding]:
    ordered = sorted(evidence.passages, key=lambda p: -p.score)
    out: list[Finding] = []
    if evidence.plan.which_firms:
        firms = _firms_sentence(ordered, book)
        if firms is not None:
            out.append(firms)
    seen: set[str] = set()
    for p in ordered:
        if len(out) >= SUMMARY_QUOTES or p.found.document_id in seen:
            continue
        seen.add(p.found.document_id)
        out.append(_finding(p, book, terms, SUMMARY_WORDS))
    return out


def _themes(evidence: Evidence, book: CitationBook, terms: list[Term]) -> list[Theme]:
    best: dict[int, float] = {}
    for p in evidence.passages:
        best[p.theme] = max(best.get(p.theme, -1.0), p.score)
    themes = []
    other = [i for i, label in enumerate(evidence.themes) if label == OTHER]
    for number in sorted(best, key=lambda t: (t in other, -best[t])):
        members = sorted(
            (p for p in evidence.passages if p.theme == number), key=lambda p: -p.score
        )
        label = evidence.themes[number] if number < len(evidence.themes) else "Findings"
        findings = [_finding(p, book, terms) for p in members[:THEME_FINDINGS]]
        themes.append(Theme(label=label, findings=findings))
    return themes


def _key_documents(evidence: Evidence, book: CitationBook) -> list[KeyDocument]:
    order: list[Found] = []
    cited = [q for p in sorted(evidence.passages, key=lambda p: -p.score) for q in [p, *p.copies]]
    for p in cited:
        if p.found not in order:
            order.append(p.found)
    limit = KEY_DOCUMENTS + (2 if evidence.plan.which_firms else 0)
    strong = any(not d.weak for d in evidence.read)
    for doc in evidence.read:
        if len(order) >= limit:
            break
        read = any((doc.document_id, n) in evidence.pages for n in doc.pages)
        if doc not in order and read and (not doc.weak or not strong) and evidence.passages:
            order.append(doc)
    out = []
    for doc in order:
        on = sorted({p.page_num for p in cited if p.found is doc})
        pages = on or [n for n in doc.pages if (doc.document_id, n) in evidence.pages][:1]
        numbers = [book.page(doc, n) for n in pages]
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
        lines.append(f"No page of {where}{more} holds {asked}.")
    groups: dict[str, list[str]] = {}
    for ds, status in searches.statuses.items():
        groups.setdefault(str(status.get("status")), []).append(dataset_name(ds))
    for ds, reason in plan.unsearchable.items():
        groups.setdefault(reason, []).append(dataset_name(ds))
    texts = {
        "no_match": "No match in {}.",
        "loosened": "Only loose matches (pages with some of the words asked for) in {}; "
        "cited as weaker evidence.",
        "skipped": "{} left out: no date field to apply the dates asked for.",
        "forbidden": "{} not searched: it needs an enterprise plan.",
        "not_available": "{} not searched: not available yet.",
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
        names = "; ".join(dataset_name(d) for d in searches.reformulated)
        lines.append(f"{names}: matched only when each word was searched on its own.")
    if plan.date_from or plan.date_to:
        span = DateRange(plan.date_from, plan.date_to, plan.date_text or "").outside()
        lines.append(f"Documents dated {span} were left out, as asked ({plan.date_text}).")
    return lines


class ExtractiveWriter(Writer):
    """Quotes the chosen passages; the default writer and the model writer's fallback."""

    def write(self, draft: Draft) -> Answer:
        evidence = draft.evidence
        book = CitationBook(draft.first_citation, draft.dataset_name)
        terms = plan_terms(evidence.plan)
        documents = _key_documents(evidence, book)
        summary = _summary(evidence, book, terms)
        said = {f.text for f in summary}
        themes = [
            Theme(t.label, kept)
            for t in _themes(evidence, book, terms)
            if (kept := [f for f in t.findings if f.text not in said])
        ]
        answer = Answer(
            question=draft.question,
            summary=summary,
            themes=themes,
            documents=documents,
            not_found=not_found_lines(evidence, draft.dataset_name),
            citations=book.citations,
        )
        answer.markdown = render_markdown(answer)
        return answer


def _markers(numbers: list[int]) -> str:
    return "".join(f"[{n}]" for n in numbers)


def sentence_markdown(finding: Finding) -> str:
    """A finding with its markers before its closing stop: "text [4]."."""
    text = fold(finding.text)
    body, stop = re.fullmatch(r"(.*?)([.!?]?)", text, re.S).groups()  # type: ignore[union-attr]
    return f"{body} {_markers(finding.markers)}{stop}"


def _cell(text: str) -> str:
    return fold(text).replace("|", "\\|")


def render_markdown(answer: Answer) -> str:
    """The answer as markdown: in short, themes, key documents, not found, notes."""
    parts = []
    if answer.summary:
        parts.append("**In short:** " + " ".join(sentence_markdown(f) for f in answer.summary))
    else:
        parts.append("**In short:** no passage of the documents searched answers this question.")
    for theme in answer.themes:
        bullets = "\n".join(f"- {sentence_markdown(f)}" for f in theme.findings)
        parts.append(f"### {theme.label}\n{bullets}")
    if answer.documents:
        rows = []
        for d in answer.documents:
            numbers = sorted(
                c.index
                for c in answer.citations
                if c.document_id == d.document_id and c.block_id is None
            )
            rows.append(
                f"| {_cell(d.title)} {_markers(numbers or [d.citation])} | {_cell(d.dataset)} "
                f"| {d.date or ''} | {_cell(d.firm_or_product or '')} |"
            )
        head = "| Document | Dataset | Date | Firm or product |\n|---|---|---|---|"
        parts.append("### Key documents\n" + head + "\n" + "\n".join(rows))
    if answer.not_found:
        parts.append("### Not found\n" + "\n".join(f"- {line}" for line in answer.not_found))
    for note in answer.notes:
        parts.append(f"_{note}_")
    return "\n\n".join(parts) + "\n"
