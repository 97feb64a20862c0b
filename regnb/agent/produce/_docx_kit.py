"""python-docx helpers that both Word documents use: a new document, hyperlinks, numbered lists
that start at 1, stable bytes."""

from __future__ import annotations

import datetime as dt
import io
from typing import TYPE_CHECKING

from ._common import naive_utc, stable_zip

if TYPE_CHECKING:
    from docx.document import Document
    from docx.text.paragraph import Paragraph

HYPERLINK_COLOR = "0563C1"


def new_document(title: str, now: dt.datetime) -> Document:
    """An empty Word document whose core properties say `title`, regnb and `now`."""
    import docx

    document = docx.Document()
    props = document.core_properties
    props.title = title
    props.author = props.last_modified_by = "regnb"
    props.created = props.modified = naive_utc(now)
    props.revision = 1
    return document


def add_hyperlink(
    paragraph: Paragraph, text: str, url: str, *, bold: bool = False, points: float | None = None
) -> None:
    """Append `text` linked to `url` (python-docx reads links but has no call to write one)."""
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    rel_id = paragraph.part.relate_to(url, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rel_id)
    run = OxmlElement("w:r")
    props = OxmlElement("w:rPr")
    if bold:
        props.append(OxmlElement("w:b"))
    color = OxmlElement("w:color")
    color.set(qn("w:val"), HYPERLINK_COLOR)
    underline = OxmlElement("w:u")
    underline.set(qn("w:val"), "single")
    props.append(color)
    if points is not None:  # w:sz goes between w:color and w:u, as the schema orders them
        size = OxmlElement("w:sz")
        size.set(qn("w:val"), str(round(points * 2)))  # in half-points
        props.append(size)
    props.append(underline)
    run.append(props)
    text_element = OxmlElement("w:t")
    text_element.set(qn("xml:space"), "preserve")
    text_element.text = text
    run.append(text_element)
    link.append(run)
    paragraph._p.append(link)


def numbered_list(document: Document, style: str = "List Number") -> int:
    """A new numbering of `style`'s list that starts at 1 (Word's own runs on across lists)."""
    numbering = document.part.numbering_part.element
    style_num = document.styles[style].element.pPr.numPr.numId.val
    abstract = numbering.num_having_numId(style_num).abstractNumId.val
    num = numbering.add_num(abstract)
    num.add_lvlOverride(ilvl=0).add_startOverride(1)
    return int(num.numId)


def number_paragraph(paragraph: Paragraph, num_id: int) -> None:
    """Put `paragraph` in the numbered list `num_id` (from `numbered_list`)."""
    num_pr = paragraph._p.get_or_add_pPr().get_or_add_numPr()
    num_pr.get_or_add_ilvl().val = 0
    num_pr.get_or_add_numId().val = num_id


def document_bytes(document: Document, now: dt.datetime) -> bytes:
    """The saved document, its zip members stamped `now` so that the same content is the same bytes."""
    out = io.BytesIO()
    document.save(out)
    return stable_zip(out.getvalue(), now)
