"""An answer as markdown: in short, the count tables, themes, key documents, see also, scope,
notes; every sentence with the markers of the passages it cites."""

from __future__ import annotations

import re

from regnb.agent.types import Answer, DataTable, Finding, KeyDocument
from regnb.documents.words import fold_spaces

__all__ = ["render_markdown", "sentence_markdown", "table_markdown"]


def _markers(numbers: list[int]) -> str:
    return "".join(f"[{n}]" for n in numbers)


def sentence_markdown(finding: Finding, stop: str = "") -> str:
    """A finding with its markers before its closing stop: "text [4]."; `stop` closes one that
    has none (the sentences of "In short" run on one line)."""
    text = fold_spaces(finding.text)
    body, own = re.fullmatch(r"(.*?)([.!?]?)", text, re.S).groups()  # type: ignore[union-attr]
    marks = f" {_markers(finding.markers)}" if finding.markers else ""
    return f"{body}{marks}{own or stop}"


def _cell(text: str) -> str:
    return fold_spaces(text).replace("|", "\\|")


def _bullet(finding: Finding) -> str:
    head = f"**{fold_spaces(finding.heading)}**: " if finding.heading else ""
    return head + sentence_markdown(finding)


def _document_row(d: KeyDocument, answer: Answer) -> str:
    numbers = sorted(
        c.index for c in answer.citations if c.document_id == d.document_id and c.block_id is None
    )
    cited_for = "; ".join(_brief(label) for label in d.cited_for[:2])
    return (
        f"| {_cell(d.title)} {_markers(numbers or [d.citation])} | {_cell(d.dataset)} "
        f"| {d.date or ''} | {_cell(d.firm_or_product or '')} | {_cell(cited_for)} |"
    )


CITED_FOR_WORDS = 8  # words of what a document is cited for, in the table (files get it whole)


def _brief(label: str) -> str:
    """ "21 CFR 211.113: Control of microbiological contamination" cut to a few words."""
    parts = label.split()
    return label if len(parts) <= CITED_FOR_WORDS else " ".join(parts[:CITED_FOR_WORDS]) + " …"


def _page_markers(answer: Answer, document_id: str | None) -> str:
    numbers = sorted(
        c.index for c in answer.citations if c.document_id == document_id and c.block_id is None
    )
    return _markers(numbers[:1])


def table_markdown(table: DataTable, answer: Answer) -> str:
    """A data table as markdown; a document row is marked with its page citation, if any."""
    head = "| " + " | ".join(table.header) + " |\n|" + "---|" * len(table.header)
    lines = []
    at = table.header.index("Document") if "Document" in table.header else 0
    for row in table.rows:
        cells = [_cell(c) for c in row.cells]
        if row.document_id is not None:
            cells[at] = f"{cells[at]} {_page_markers(answer, row.document_id)}".strip()
        lines.append("| " + " | ".join(cells) + " |")
    note = f"\n\n_{table.note}_" if table.note else ""
    return f"### {table.label}\n{head}\n" + "\n".join(lines) + note


def render_markdown(answer: Answer) -> str:
    """The answer as markdown: in short, themes (numbered where the document numbers them), key
    documents, see also, scope and what was not found, notes."""
    parts = []
    said = ""
    if answer.summary:
        said = " ".join(sentence_markdown(f, stop=".") for f in answer.summary)
        parts.append("**In short:** " + said)
    else:  # what left nothing ("None of the 2 documents found is from firms in Texas.") first
        emptied = next((line for line in answer.not_found if line.startswith("None of the")), "")
        said = emptied or "no passage of the documents searched answers this question."
        parts.append(f"**In short:** {said}")
    first = ("counts", "repeats")  # what the question asked for, right after "In short"
    counts = [t for t in answer.tables if t.kind in first]
    listed = [t for t in answer.tables if t.kind not in first]
    parts += [table_markdown(t, answer) for t in counts]
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
    parts += [table_markdown(t, answer) for t in listed]
    listed_ids = {r.document_id for t in listed for r in t.rows}
    key = [d for d in answer.documents if d.role != "see_also" and d.document_id not in listed_ids]
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
        lines = [
            *answer.scope,
            *(line for line in answer.not_found if answer.summary or line != said),
        ]
        parts.append("### Scope\n" + "\n".join(f"- {line}" for line in lines))
    for note in answer.notes:
        parts.append(f"_{note}_")
    return "\n\n".join(parts) + "\n"
