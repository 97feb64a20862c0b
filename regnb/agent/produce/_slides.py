"""The PowerPoint deck (.pptx): a title slide, the short answer, one slide per theme (at most five
one-line bullets, the whole findings in the notes), the documents and the sources."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from regnb.agent.types import Answer, KeyDocument, SourcedCitation, Theme

from ._answer import SEE_ALSO, key_documents, lead_of, see_also
from ._common import (
    cut_words,
    finding_numbers,
    finding_text,
    markers,
    naive_utc,
    shorten,
    source_details,
    source_label,
    stable_zip,
    statement,
    with_markers,
)

if TYPE_CHECKING:
    from pptx.presentation import Presentation
    from pptx.slide import Slide
    from pptx.text.text import _Paragraph

T = TypeVar("T")
TITLE, CONTENT, TITLE_ONLY = 0, 1, 5  # layouts of python-pptx's default template
BULLET_WORDS = 25  # no bullet is longer, its lead, number and markers counted
LINE_WORDS = 18  # a theme's finding in one line
HEADING_WORDS = 6  # a finding's heading (its bold lead)
SUMMARY_WORDS = 22  # a sentence of the short answer
PASSAGE_WORDS = 15  # a source's passage, quoted
BULLETS_PER_SLIDE = 5
DOCUMENTS_PER_SLIDE = 6
SOURCES_PER_SLIDE = 6
DOCUMENT_COLUMNS = (("Document", 3.6), ("Firm or product", 2.0), ("Date", 1.1), ("Cited for", 2.3))
Runs = list[tuple[str, bool]]  # a bullet's runs: (text, bold)
_NO_SUMMARY: list[Runs] = [[("No short answer was written.", False)]]
_NO_FINDINGS: list[Runs] = [[("No finding.", False)]]


def slide_deck(answer: Answer, title: str, now: dt.datetime) -> bytes:
    """The answer as slides whose markers [n] match the numbered sources at the end."""
    from pptx import Presentation

    deck = Presentation()
    props = deck.core_properties
    props.title, props.author, props.last_modified_by = title, "regnb", "regnb"
    props.created = props.modified = naive_utc(now)
    props.revision = 1
    _title_slide(deck, title, now)
    summary = [
        with_markers(statement(f, SUMMARY_WORDS, quoted=False), finding_numbers(f))
        for f in answer.summary[:BULLETS_PER_SLIDE]
    ]
    _bullet_slide(deck, "In short", [[(line, False)] for line in summary] or _NO_SUMMARY)
    for theme in answer.themes:
        _theme_slide(deck, answer, theme)
    documents = [*key_documents(answer), *see_also(answer)]
    pages = chunks(documents, DOCUMENTS_PER_SLIDE)
    for number, page in enumerate(pages, start=1):
        _documents_slide(deck, numbered("Documents", number, len(pages)), page)
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


def theme_bullets(answer: Answer, theme: Theme) -> list[Runs]:
    """A theme's first findings as bullets: "1. " where numbered, the lead in bold (heading, else
    firm), then the finding in one line and its markers; at most `BULLET_WORDS` words each."""
    bullets = []
    for number, finding in enumerate(theme.findings[:BULLETS_PER_SLIDE], start=1):
        prefix = f"{number}. " if theme.numbered else ""
        lead = cut_words(lead_of(answer, finding) or "", HEADING_WORDS)
        budget = BULLET_WORDS - 1 - len(prefix.split()) - len(lead.split())
        line = statement(finding, min(LINE_WORDS, budget))
        if lead and line.casefold().startswith(lead.rstrip(":.").casefold()):
            lead, line = "", statement(finding, min(LINE_WORDS, budget + len(lead.split())))
        runs: Runs = [(prefix, False)] if prefix else []
        if lead:
            runs.append((lead if lead.endswith((":", ".", "…")) else f"{lead}:", True))
            runs.append((" ", False))
        runs.append((with_markers(line, finding_numbers(finding)), False))
        bullets.append(runs)
    return bullets


def _title_slide(deck: Presentation, title: str, now: dt.datetime) -> None:
    from pptx.util import Pt

    slide = deck.slides.add_slide(deck.slide_layouts[TITLE])
    slide.shapes.title.text = title
    if len(title) > 60:
        for paragraph in slide.shapes.title.text_frame.paragraphs:
            for run in paragraph.runs:
                run.font.size = Pt(28)
    subtitle = slide.placeholders[1].text_frame
    subtitle.text = f"Produced {now.date().isoformat()} by regnb"
    subtitle.paragraphs[0].runs[0].font.size = Pt(20)


def _theme_slide(deck: Presentation, answer: Answer, theme: Theme) -> None:
    """A theme's bullets, with every finding written out whole in the speaker notes."""
    slide = _bullet_slide(deck, theme.label, theme_bullets(answer, theme) or _NO_FINDINGS)
    notes = []
    for number, finding in enumerate(theme.findings, start=1):
        prefix = f"{number}. " if theme.numbered else ""
        heading = f"{' '.join(finding.heading.split())}: " if finding.heading else ""
        notes.append(f"{prefix}{heading}{finding_text(finding)}")
    frame = slide.notes_slide.notes_text_frame
    assert frame is not None  # the default template's notes master has a body placeholder
    frame.text = "\n".join(notes)


def _bullet_slide(deck: Presentation, title: str, bullets: list[Runs]) -> Slide:
    from pptx.util import Pt

    slide = deck.slides.add_slide(deck.slide_layouts[CONTENT])
    slide.shapes.title.text = title
    frame = slide.placeholders[1].text_frame
    size = Pt(20 if len(bullets) <= 3 else 16)
    for number, runs in enumerate(bullets):
        paragraph = frame.paragraphs[0] if number == 0 else frame.add_paragraph()
        for text, bold in runs:
            run = paragraph.add_run()
            run.text = text
            run.font.size = size
            if bold:
                run.font.bold = True
    return cast("Slide", slide)


def _documents_slide(deck: Presentation, title: str, documents: Sequence[KeyDocument]) -> None:
    from pptx.util import Inches, Pt

    slide = deck.slides.add_slide(deck.slide_layouts[TITLE_ONLY])
    slide.shapes.title.text = title
    shape = slide.shapes.add_table(
        len(documents) + 1, len(DOCUMENT_COLUMNS), Inches(0.3), Inches(1.5), Inches(9), Inches(0.4)
    )
    table = shape.table
    for column, (heading, width) in enumerate(DOCUMENT_COLUMNS):
        table.columns[column].width = Inches(width)
        table.cell(0, column).text = heading
    for row, document in enumerate(documents, start=1):
        values = [document.firm_or_product or "", document.date or "", cited_for(document)]
        _cell_text(table.cell(row, 0).text_frame.paragraphs[0], document)
        for column, value in enumerate(values, start=1):
            table.cell(row, column).text = shorten(value, 80)
    for row in table.rows:
        for cell in row.cells:
            for paragraph in cell.text_frame.paragraphs:
                for run in paragraph.runs:
                    run.font.size = Pt(11)


def cited_for(document: KeyDocument) -> str:
    """What a document is cited for; a related one says "See also" first."""
    shown = "; ".join(document.cited_for)
    if document.role == SEE_ALSO:
        return f"See also: {shown}" if shown else "See also"
    return shown


def _cell_text(paragraph: _Paragraph, document: KeyDocument) -> None:
    title = paragraph.add_run()
    title.text = shorten(document.title, 80)
    if document.url:
        title.hyperlink.address = document.url
    paragraph.add_run().text = f" {markers([document.citation])}"


def _sources_slide(deck: Presentation, title: str, citations: Sequence[SourcedCitation]) -> None:
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
        details = source_details(citation, page=", page " not in citation.name)
        paragraph.add_run().text = (" — " + ", ".join(details)) if details else ""
        if citation.passage:
            quote = paragraph.add_run()
            quote.text = f" “{cut_words(citation.passage, PASSAGE_WORDS)}”"
            quote.font.italic = True
        for run in paragraph.runs:
            run.font.size = Pt(12)
