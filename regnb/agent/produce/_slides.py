"""The PowerPoint deck (.pptx): title, the short answer, one slide per theme, key documents and
sources (over as many slides as they need)."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from regnb.agent.types import Answer, Citation, KeyDocument

from ._common import (
    finding_text,
    markers,
    naive_utc,
    shorten,
    source_details,
    source_label,
    stable_zip,
)

if TYPE_CHECKING:
    from pptx.presentation import Presentation
    from pptx.text.text import _Paragraph

T = TypeVar("T")
TITLE, CONTENT, TITLE_ONLY = 0, 1, 5  # layouts of python-pptx's default template
FINDING_CHARS = 220  # a theme's finding is shortened past this, keeping its markers
DOCUMENTS_PER_SLIDE = 8
SOURCES_PER_SLIDE = 6
DOCUMENT_COLUMNS = (("Document", 4.0), ("Dataset", 1.9), ("Date", 1.2), ("Firm or product", 1.9))


def slide_deck(answer: Answer, title: str, now: dt.datetime) -> bytes:
    """The answer as slides whose markers [n] match the numbered sources at the end."""
    from pptx import Presentation

    deck = Presentation()
    props = deck.core_properties
    props.title, props.author, props.last_modified_by = title, "regnb", "regnb"
    props.created = props.modified = naive_utc(now)
    props.revision = 1
    _title_slide(deck, answer.question, now)
    summary = [finding_text(f, limit=2 * FINDING_CHARS) for f in answer.summary]
    _bullet_slide(deck, "In short", summary or ["No short answer was written."])
    for theme in answer.themes:
        _bullet_slide(deck, theme.label, [finding_text(f, FINDING_CHARS) for f in theme.findings])
    pages = chunks(answer.documents, DOCUMENTS_PER_SLIDE)
    for number, documents in enumerate(pages, start=1):
        _documents_slide(deck, numbered("Key documents", number, len(pages)), documents)
    ordered = sorted(answer.citations, key=lambda c: c.index)
    pages_of_sources = chunks(ordered, SOURCES_PER_SLIDE)
    for number, citations in enumerate(pages_of_sources, start=1):
        _sources_slide(deck, numbered("Sources", number, len(pages_of_sources)), citations)
    out = io.BytesIO()
    deck.save(out)
    return stable_zip(out.getvalue(), now)


def chunks(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """`items` in consecutive groups of at most `size`."""
    return [items[start : start + size] for start in range(0, len(items), size)]


def numbered(title: str, number: int, total: int) -> str:
    """A section's title, with "(2 of 3)" when it runs over several slides."""
    return f"{title} ({number} of {total})" if total > 1 else title


def _title_slide(deck: Presentation, question: str, now: dt.datetime) -> None:
    from pptx.util import Pt

    slide = deck.slides.add_slide(deck.slide_layouts[TITLE])
    slide.shapes.title.text = " ".join(question.split())
    if len(question) > 90:
        for paragraph in slide.shapes.title.text_frame.paragraphs:
            for run in paragraph.runs:
                run.font.size = Pt(28)
    subtitle = slide.placeholders[1].text_frame
    subtitle.text = f"Produced {now.date().isoformat()} by regnb"
    subtitle.paragraphs[0].runs[0].font.size = Pt(20)


def _bullet_slide(deck: Presentation, title: str, lines: list[str]) -> None:
    from pptx.util import Pt

    slide = deck.slides.add_slide(deck.slide_layouts[CONTENT])
    slide.shapes.title.text = title
    frame = slide.placeholders[1].text_frame
    size = Pt(20 if len(lines) <= 4 else 16 if len(lines) <= 7 else 12)
    for number, line in enumerate(lines):
        paragraph = frame.paragraphs[0] if number == 0 else frame.add_paragraph()
        paragraph.text = line
        paragraph.runs[0].font.size = size


def _documents_slide(deck: Presentation, title: str, documents: Sequence[KeyDocument]) -> None:
    from pptx.util import Inches, Pt

    slide = deck.slides.add_slide(deck.slide_layouts[TITLE_ONLY])
    slide.shapes.title.text = title
    shape = slide.shapes.add_table(
        len(documents) + 1, len(DOCUMENT_COLUMNS), Inches(0.5), Inches(1.5), Inches(9), Inches(0.4)
    )
    table = shape.table
    for column, (heading, width) in enumerate(DOCUMENT_COLUMNS):
        table.columns[column].width = Inches(width)
        table.cell(0, column).text = heading
    for row, document in enumerate(documents, start=1):
        values = [document.dataset, document.date or "", document.firm_or_product or ""]
        _cell_text(table.cell(row, 0).text_frame.paragraphs[0], document)
        for column, value in enumerate(values, start=1):
            table.cell(row, column).text = shorten(value, 60)
    for row in table.rows:
        for cell in row.cells:
            for paragraph in cell.text_frame.paragraphs:
                for run in paragraph.runs:
                    run.font.size = Pt(12)


def _cell_text(paragraph: _Paragraph, document: KeyDocument) -> None:
    title = paragraph.add_run()
    title.text = shorten(document.title, 90)
    if document.url:
        title.hyperlink.address = document.url
    paragraph.add_run().text = f" {markers([document.citation])}"


def _sources_slide(deck: Presentation, title: str, citations: Sequence[Citation]) -> None:
    from pptx.util import Pt

    slide = deck.slides.add_slide(deck.slide_layouts[CONTENT])
    slide.shapes.title.text = title
    frame = slide.placeholders[1].text_frame
    for number, citation in enumerate(citations):
        paragraph = frame.paragraphs[0] if number == 0 else frame.add_paragraph()
        paragraph.add_run().text = f"[{citation.index}] "
        label = paragraph.add_run()
        label.text = shorten(source_label(citation), 100)
        if citation.url:
            label.hyperlink.address = citation.url
        details = source_details(citation, page=True)
        paragraph.add_run().text = (" — " + ", ".join(details)) if details else ""
        if citation.passage:
            quote = paragraph.add_run()
            quote.text = f" “{shorten(citation.passage, 160)}”"
            quote.font.italic = True
        for run in paragraph.runs:
            run.font.size = Pt(12)
