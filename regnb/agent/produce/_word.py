"""The Word report (.docx): title, question, in short, themes, key documents, not found, sources."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from regnb.agent.types import Answer, Citation, KeyDocument

from ._common import finding_text, markers, source_details, source_label
from ._docx_kit import add_hyperlink, document_bytes, new_document

if TYPE_CHECKING:
    from docx.document import Document

DOCUMENT_COLUMNS = (("Document", 2.25), ("Dataset", 1.2), ("Date", 1.15), ("Firm or product", 1.4))


def word_report(answer: Answer, title: str, now: dt.datetime) -> bytes:
    """The answer as a Word document whose markers [n] match its numbered sources."""
    document = new_document(title, now)
    document.add_heading(title, level=0)
    question = document.add_paragraph()
    question.add_run("Question: ").bold = True
    question.add_run(answer.question)
    if answer.summary:
        document.add_heading("In short", level=1)
        document.add_paragraph(" ".join(finding_text(f) for f in answer.summary))
    for theme in answer.themes:
        document.add_heading(theme.label, level=1)
        for finding in theme.findings:
            document.add_paragraph(finding_text(finding), style="List Bullet")
    if answer.documents:
        document.add_heading("Key documents", level=1)
        _documents_table(document, answer.documents)
    if answer.not_found:
        document.add_heading("Not found", level=1)
        for line in answer.not_found:
            document.add_paragraph(line, style="List Bullet")
    if answer.citations:
        document.add_heading("Sources", level=1)
        add_sources(document, answer.citations)
    return document_bytes(document, now)


def _documents_table(document: Document, documents: list[KeyDocument]) -> None:
    from docx.shared import Inches

    table = document.add_table(rows=1, cols=len(DOCUMENT_COLUMNS))
    table.style = "Table Grid"
    for cell, (heading, _) in zip(table.rows[0].cells, DOCUMENT_COLUMNS, strict=True):
        cell.paragraphs[0].add_run(heading).bold = True
    for key_document in documents:
        cells = table.add_row().cells
        title = cells[0].paragraphs[0]
        if key_document.url:
            add_hyperlink(title, key_document.title, key_document.url)
        else:
            title.add_run(key_document.title)
        title.add_run(f" {markers([key_document.citation])}")
        cells[1].text = key_document.dataset
        cells[2].text = key_document.date or ""
        cells[3].text = key_document.firm_or_product or ""
    table.autofit = False
    for column, (_, width) in zip(table.columns, DOCUMENT_COLUMNS, strict=True):
        column.width = Inches(width)  # the grid, which LibreOffice reads
        for cell in column.cells:
            cell.width = Inches(width)  # each cell, which Word reads


def add_sources(document: Document, citations: list[Citation]) -> None:
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
