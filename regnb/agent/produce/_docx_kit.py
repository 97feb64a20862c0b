"""python-docx helpers that both Word documents use: a new document, hyperlinks, stable bytes."""

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


def add_hyperlink(paragraph: Paragraph, text: str, url: str, *, bold: bool = False) -> None:
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
    props.extend([color, underline])
    run.append(props)
    text_element = OxmlElement("w:t")
    text_element.set(qn("xml:space"), "preserve")
    text_element.text = text
    run.append(text_element)
    link.append(run)
    paragraph._p.append(link)


def document_bytes(document: Document, now: dt.datetime) -> bytes:
    """The saved document, its zip members stamped `now` so that the same content is the same bytes."""
    out = io.BytesIO()
    document.save(out)
    return stable_zip(out.getvalue(), now)
