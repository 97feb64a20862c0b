"""The report as markdown: the answer with its markers, then the numbered sources they point to."""

from __future__ import annotations

from regnb.agent.types import Answer, Citation

from ._common import finding_text, markers, source_details, source_label


def report_markdown(answer: Answer, title: str) -> str:
    """Title, question, the answer's markdown (or one made from its parts), numbered sources."""
    body = answer.markdown.strip() or answer_markdown(answer)
    parts = [f"# {title}", f"*Question:* {_escape(answer.question)}", body]
    if answer.citations:
        parts.append(sources_markdown(answer.citations))
    return "\n\n".join(parts) + "\n"


def answer_markdown(answer: Answer) -> str:
    """The answer in the agent's shape: in short, themes, key documents, not found."""
    parts = []
    if answer.summary:
        summary = " ".join(finding_text(f) for f in answer.summary)
        parts.append(f"**In short:** {summary}")
    for theme in answer.themes:
        bullets = "\n".join(f"- {finding_text(f)}" for f in theme.findings)
        parts.append(f"### {theme.label}\n{bullets}")
    if answer.documents:
        rows = [
            f"| {_cell(d.title)} {markers([d.citation])} | {_cell(d.dataset)} | {d.date or ''} "
            f"| {_cell(d.firm_or_product or '')} |"
            for d in answer.documents
        ]
        head = "| Document | Dataset | Date | Firm or product |\n|---|---|---|---|"
        parts.append("### Key documents\n" + head + "\n" + "\n".join(rows))
    if answer.not_found:
        parts.append("### Not found\n" + "\n".join(f"- {line}" for line in answer.not_found))
    return "\n\n".join(parts)


def sources_markdown(citations: list[Citation]) -> str:
    """A "Sources" section: one paragraph per citation, a passage quoted under its source."""
    lines = ["### Sources"]
    for citation in sorted(citations, key=lambda c: c.index):
        lines.append(source_markdown(citation))
    return "\n\n".join(lines)


def source_markdown(citation: Citation) -> str:
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
