"""The Word report (.docx): the answer itself. Title, question, in short, each theme (a numbered
theme as a numbered list), key documents, see also, scope, not found, then the sources quoted."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from regnb.agent.types import Answer, Finding, KeyDocument, SourcedCitation, Theme

from ._answer import key_documents, see_also
from ._common import finding_text, markers, source_details, source_label
from ._docx_kit import add_hyperlink, document_bytes, new_document, number_paragraph, numbered_list

if TYPE_CHECKING:
    from docx.document import Document
    from docx.text.paragraph import Paragraph

DOCUMENT_COLUMNS = (
    ("Document", 1.7), ("Dataset", 0.9), ("Date", 0.85), ("Firm or product", 1.05),
    ("Cited for", 1.2), ("CFR sections", 0.8),
)  # fmt: skip
TABLE_POINTS = 9


def word_report(answer: Answer, title: str, now: dt.datetime) -> bytes:
    """The answer as a Word document whose markers [n] match its numbered sources."""
    document = new_document(title, now)
    document.add_heading(title, level=0)
    question = document.add_paragraph()
    question.add_run("Question: ").bold = True
    question.add_run(" ".join(answer.question.split()))
    if answer.summary:
        document.add_heading("In short", level=1)
        document.add_paragraph(" ".join(finding_text(f) for f in answer.summary))
    for theme in answer.themes:
        _theme(document, theme)
    if key_documents(answer):
        document.add_heading("Key documents", level=1)
        _documents_table(document, key_documents(answer))
    if see_also(answer):
        document.add_heading("See also", level=1)
        for related in see_also(answer):
            _see_also_item(document.add_paragraph(style="List Bullet"), related)
    _bullet_section(document, "Scope", answer.scope)
    _bullet_section(document, "Not found", answer.not_found)
    if answer.citations:
        document.add_heading("Sources", level=1)
        add_sources(document, answer.citations)
    return document_bytes(document, now)


def _theme(document: Document, theme: Theme) -> None:
    """A theme's heading, then its findings as a numbered or a bulleted list."""
    document.add_heading(theme.label, level=1)
    num_id = numbered_list(document) if theme.numbered and theme.findings else None
    for finding in theme.findings:
        style = "List Number" if num_id is not None else "List Bullet"
        paragraph = document.add_paragraph(style=style)
        if num_id is not None:
            number_paragraph(paragraph, num_id)
        _finding(paragraph, finding)


def _finding(paragraph: Paragraph, finding: Finding) -> None:
    """ "**Heading:** text [n]." or, without a heading, the text and its markers."""
    if finding.heading:
        heading = " ".join(finding.heading.split())
        paragraph.add_run(heading if heading.endswith((":", ".")) else f"{heading}:").bold = True
        paragraph.add_run(" ")
    paragraph.add_run(finding_text(finding))


def _bullet_section(document: Document, heading: str, lines: list[str]) -> None:
    if lines:
        document.add_heading(heading, level=1)
        for line in lines:
            document.add_paragraph(line, style="List Bullet")


def _documents_table(document: Document, documents: list[KeyDocument]) -> None:
    from docx.shared import Inches, Pt

    table = document.add_table(rows=1, cols=len(DOCUMENT_COLUMNS))
    table.style = "Table Grid"
    for cell, (heading, _) in zip(table.rows[0].cells, DOCUMENT_COLUMNS, strict=True):
        cell.paragraphs[0].add_run(heading).bold = True
    for key_document in documents:
        cells = table.add_row().cells
        _linked_title(cells[0].paragraphs[0], key_document, points=TABLE_POINTS)
        cells[1].text = key_document.dataset
        cells[2].text = key_document.date or ""
        cells[3].text = key_document.firm_or_product or ""
        cells[4].text = "; ".join(key_document.cited_for)
        cells[5].text = "; ".join(key_document.cfr)
    table.autofit = False
    for column, (_, width) in zip(table.columns, DOCUMENT_COLUMNS, strict=True):
        column.width = Inches(width)  # the grid, which LibreOffice reads
        for cell in column.cells:
            cell.width = Inches(width)  # each cell, which Word reads
            for paragraph in cell.paragraphs:
                for run in paragraph.runs:
                    run.font.size = Pt(TABLE_POINTS)


def _linked_title(
    paragraph: Paragraph, document: KeyDocument, *, points: float | None = None
) -> None:
    """The document's title, linked to its url where it has one, and its page's marker."""
    if document.url:
        add_hyperlink(paragraph, document.title, document.url, points=points)
    else:
        paragraph.add_run(document.title)
    paragraph.add_run(f" {markers([document.citation])}")


def _see_also_item(paragraph: Paragraph, document: KeyDocument) -> None:
    """ "Title [n] — dataset, date, firm; cited for …"."""
    _linked_title(paragraph, document)
    details = [document.dataset, document.date or "", document.firm_or_product or ""]
    shown = ", ".join(d for d in details if d)
    if document.cited_for:
        shown += ("; " if shown else "") + "cited for " + "; ".join(document.cited_for)
    if shown:
        paragraph.add_run(f" — {shown}")


def add_sources(document: Document, citations: list[SourcedCitation]) -> None:
    """One paragraph per citation, "[n] name — dataset, date, page, url"; passages quoted below."""
    for citation in sorted(citations, key=lambda c: c.index):
        paragraph = document.add_paragraph()
        paragraph.add_run(f"[{citation.index}] ").bold = True
        paragraph.add_run(source_label(citation))
        if citation.parent_index is not None:
            paragraph.add_run(f" (on the page of [{citation.parent_index}])")
        details = source_details(citation, page=True)
        if details or citation.url:
            paragraph.add_run(
                " — " + ", ".join(details) + (", " if details and citation.url else "")
            )
        if citation.url:
            add_hyperlink(paragraph, citation.url, citation.url)
        if citation.passage:
            document.add_paragraph(" ".join(citation.passage.split()), style="Quote")
