"""The report as markdown: the answer with its markers and scope, then the numbered sources they
point to."""

from __future__ import annotations

from regnb.agent.types import Answer, KeyDocument, SourcedCitation, Theme

from ._answer import key_documents, see_also
from ._common import finding_text, markers, source_details, source_label


def report_markdown(answer: Answer, title: str) -> str:
    """Title, question, the answer's markdown (or one made from its parts) with its scope, then
    the numbered sources."""
    body = answer.markdown.strip() or answer_markdown(answer)
    if answer.scope and not any(line in body for line in answer.scope):  # written without it
        body += "\n\n" + _list_section("Scope", answer.scope)
    parts = [f"# {title}", f"*Question:* {_escape(' '.join(answer.question.split()))}", body]
    if answer.citations:
        parts.append(sources_markdown(answer.citations))
    return "\n\n".join(parts) + "\n"


def answer_markdown(answer: Answer) -> str:
    """The answer in the agent's shape: in short, themes (numbered where the theme is), key
    documents, see also, scope, not found, notes."""
    parts = []
    if answer.summary:
        summary = " ".join(finding_text(f) for f in answer.summary)
        parts.append(f"**In short:** {summary}")
    for theme in answer.themes:
        parts.append(f"### {theme.label}\n" + _findings_markdown(theme))
    if key_documents(answer):
        parts.append("### Key documents\n" + _documents_markdown(key_documents(answer)))
    if see_also(answer):
        parts.append(_list_section("See also", [_see_also_line(d) for d in see_also(answer)]))
    if answer.scope:
        parts.append(_list_section("Scope", answer.scope))
    if answer.not_found:
        parts.append(_list_section("Not found", answer.not_found))
    parts.extend(f"_{note}_" for note in answer.notes)
    return "\n\n".join(parts)


def _findings_markdown(theme: Theme) -> str:
    """ "1. **Heading**: text [n]." in a numbered theme, "- …" in another (as the writer has it)."""
    lines = []
    for number, finding in enumerate(theme.findings, start=1):
        bullet = f"{number}." if theme.numbered else "-"
        heading = " ".join((finding.heading or "").split())
        lead = f"**{_escape(heading.rstrip(':'))}**: " if heading else ""
        lines.append(f"{bullet} {lead}{finding_text(finding)}")
    return "\n".join(lines)


def _documents_markdown(documents: list[KeyDocument]) -> str:
    head = (
        "| Document | Dataset | Date | Firm or product | Cited for | CFR sections |\n"
        "|---|---|---|---|---|---|"
    )
    rows = [
        f"| {_cell(d.title)} {markers([d.citation])} | {_cell(d.dataset)} | {d.date or ''} "
        f"| {_cell(d.firm_or_product or '')} | {_cell('; '.join(d.cited_for))} "
        f"| {_cell('; '.join(d.cfr))} |"
        for d in documents
    ]
    return head + "\n" + "\n".join(rows)


def _see_also_line(document: KeyDocument) -> str:
    details = [document.dataset, document.date or "", document.firm_or_product or ""]
    shown = ", ".join(_escape(d) for d in details if d)
    return f"{_escape(document.title)} {markers([document.citation])}" + (
        f" — {shown}" if shown else ""
    )


def _list_section(heading: str, lines: list[str]) -> str:
    return f"### {heading}\n" + "\n".join(f"- {line}" for line in lines)


def sources_markdown(citations: list[SourcedCitation]) -> str:
    """A "Sources" section: one paragraph per citation, a passage quoted under its source."""
    lines = ["### Sources"]
    for citation in sorted(citations, key=lambda c: c.index):
        lines.append(source_markdown(citation))
    return "\n\n".join(lines)


def source_markdown(citation: SourcedCitation) -> str:
    """ "[n] name — dataset, date, <url>", and for a passage its page's number and the quote."""
    details = [_escape(d) for d in source_details(citation)]
    if citation.url:
        details.append(f"<{citation.url.replace(' ', '%20')}>")
    line = f"[{citation.index}] {_escape(source_label(citation))}"
    if citation.parent_index is not None:
        line += f" (on the page of [{citation.parent_index}])"
    if details:
        line += " — " + ", ".join(details)
    if citation.passage:
        line += "\n\n> " + _escape(" ".join(citation.passage.split()))
    return line


def _escape(text: str) -> str:
    """Text that markdown shows as written: brackets and emphasis characters escaped."""
    for char in "\\[]*_`<>|#":
        text = text.replace(char, "\\" + char)
    return text


def _cell(text: str) -> str:
    return _escape(" ".join(text.split()))
