"""Verification before an answer leaves the agent: every passage citation's text is, whitespace
folded, the text of its block on the page as the document reader returns it; every marker
resolves; every sentence is backed by what it cites. What fails is dropped, nothing renumbered."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from regnb.agent._source import Source
from regnb.agent._writer import FRAME_WORDS
from regnb.agent.types import DATA, Answer, Finding, SourcedCitation
from regnb.documents.blocks import block_text
from regnb.documents.cfr import cfr_citations, cfr_title
from regnb.documents.words import content_words, fold_spaces, plain, stem, words
from regnb.errors import RegnbError
from regnb.present.markers import marker_numbers

__all__ = [
    "MIN_SHARED",
    "Report",
    "marker_numbers",
    "passage_holds",
    "supported",
    "verify_answer",
]

MIN_SHARED = 0.6


@dataclass
class Report:
    """What verification dropped, for the steps and the tests."""

    bad_citations: list[int] = field(default_factory=list)
    dropped_sentences: list[str] = field(default_factory=list)


def passage_holds(page: str, citation: SourcedCitation) -> bool:
    """The passage is the text of its block range on the page (whitespace folded)."""
    if citation.passage is None or citation.block_id is None:
        return False
    passage = fold_spaces(citation.passage)
    if not passage or passage not in fold_spaces(page):
        return False
    try:
        return fold_spaces(block_text(page, citation.block_id)) == passage
    except ValueError:
        return False


def _read(
    source: Source, citations: Iterable[SourcedCitation], request_plan: str
) -> dict[tuple[str, int], str | None]:
    pages: dict[tuple[str, int], str | None] = {}
    for c in citations:
        key = (c.document_id, c.page_num or 0)
        if key in pages:
            continue
        try:
            read = source.read(c.document_id, key[1], key[1], plan=request_plan)
            pages[key] = next((p["text"] for p in read.page_list if p["page_num"] == key[1]), None)
        except RegnbError:
            pages[key] = None
    return pages


def _allowed_words(citations: list[SourcedCitation], firms: dict[str, str]) -> set[str]:
    """Words a sentence may take from its documents: titles, datasets, dates, firms."""
    out: set[str] = set(FRAME_WORDS)
    for c in citations:
        for text in (c.name, c.dataset, c.date or "", firms.get(c.document_id, "")):
            out |= set(words(text))
    return out


def _count(word: str) -> bool:
    """A count or a year the agent states (at most four digits)."""
    return word.isdigit() and len(word) <= 4


def supported(
    finding: Finding,
    cited: list[SourcedCitation],
    firms: dict[str, str],
    context: Iterable[str] = (),
) -> bool:
    """A quoted sentence: its quotes are in cited passages and the rest comes from its documents
    (titles, firms, dates, the pages cited: a heading, a CFR section's title) or is a count.
    A written sentence: most of its content words are in its passages or their documents."""
    if not cited:
        return False
    passages = [plain(c.passage) for c in cited if c.passage]
    allowed = _allowed_words(cited, firms) | set(context)
    text = plain(finding.text)
    quotes = [q for q in [finding.quote, *finding.quotes] if q is not None]
    if quotes:
        frame = text
        for raw in quotes:
            quote = plain(raw)
            at = frame.find(quote)
            if not quote or at < 0 or not any(quote in p for p in passages):
                return False
            frame = frame[:at] + " " + frame[at + len(quote) :]
        return all(w in allowed or _count(w) for w in content_words(frame))
    stems_ = {stem(w) for w in content_words(" ".join(passages))}
    stems_ |= {stem(w) for w in allowed}
    own = [stem(w) for w in content_words(text) if not _count(w)]
    if not own:
        return False
    return sum(1 for w in own if w in stems_) / len(own) >= MIN_SHARED


def _keep(
    finding: Finding,
    good: dict[int, SourcedCitation],
    prior: dict[int, SourcedCitation],
    firms: dict[str, str],
    pages: dict[tuple[str, int], str | None],
) -> bool:
    if not finding.markers or any(m not in good and m not in prior for m in finding.markers):
        return False
    if finding.kind == DATA:  # counts of every match and what the corpus holds: the engine's
        return all(good.get(m, prior.get(m)) is not None for m in finding.markers)
    cited = [good.get(m) or prior[m] for m in finding.markers]
    return supported(finding, cited, firms, _context(cited, pages))


def _context(cited: list[SourcedCitation], pages: dict[tuple[str, int], str | None]) -> set[str]:
    """Words a sentence's frame may take from its documents' pages that the answer cites (a
    section heading, a count's unit) and the titles of the CFR sections those pages cite."""
    documents = {c.document_id for c in cited}
    out: set[str] = set(words("fd c act cfr u.s.c"))
    for (document_id, _), page in pages.items():
        if document_id not in documents or not page:
            continue
        out |= set(words(page))
        for citation in cfr_citations(page):
            out |= set(words(cfr_title(citation) or ""))
    return out


def verify_answer(
    answer: Answer, source: Source, request_plan: str, prior: Iterable[SourcedCitation] = ()
) -> tuple[Answer, Report]:
    """The answer with every failing citation, sentence and bullet dropped, and its markdown
    written again from what is left."""
    report = Report()
    pages = _read(source, answer.citations, request_plan)
    good: dict[int, SourcedCitation] = {}
    for c in sorted(answer.citations, key=lambda c: c.block_id is not None):
        page = pages.get((c.document_id, c.page_num or 0))
        ok = page is not None
        if ok and c.block_id is not None:
            ok = c.parent_index in good and passage_holds(page or "", c)
        if ok:
            good[c.index] = c
        else:
            report.bad_citations.append(c.index)
    earlier = {c.index: c for c in prior}
    firms = {d.document_id: d.firm_or_product or "" for d in answer.documents}

    def keep(findings: list[Finding]) -> list[Finding]:
        kept = [f for f in findings if _keep(f, good, earlier, firms, pages)]
        report.dropped_sentences += [f.text for f in findings if f not in kept]
        return kept

    summary = keep(answer.summary)
    themes = [replace(t, findings=kept) for t in answer.themes if (kept := keep(t.findings))]
    documents = [d for d in answer.documents if d.citation in good]
    used = {m for f in summary for m in f.markers}
    used |= {m for t in themes for f in t.findings for m in f.markers}
    used |= {good[m].parent_index for m in list(used) if m in good and good[m].parent_index}  # type: ignore[misc]
    kept_docs = {d.document_id for d in documents}
    used |= {i for i, c in good.items() if c.block_id is None and c.document_id in kept_docs}
    verified = replace(
        answer,
        summary=summary,
        themes=themes,
        documents=documents,
        not_found=list(answer.not_found),
        citations=[c for c in answer.citations if c.index in used and c.index in good],
        notes=list(answer.notes),
        scope=list(answer.scope),
    )
    known = {c.index for c in verified.citations} | set(earlier)
    missing = [n for n in marker_numbers(verified.markdown) if n not in known]
    if missing:  # the writer's structure and its markdown disagree: a bug, not a source problem
        raise AssertionError(f"unresolved markers after verification: {missing}")
    return verified, report
