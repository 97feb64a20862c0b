"""The Excel workbook (.xlsx): a "Documents" sheet, one row per cited document with its catalog
fields, and a "Citations" sheet; headers bold and frozen, autofilter, widths to fit."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from regnb.agent.types import Answer, Citation, KeyDocument

from ._common import as_date, naive_utc, stable_zip

if TYPE_CHECKING:
    from openpyxl.cell.cell import Cell
    from openpyxl.worksheet.worksheet import Worksheet

DOCUMENT_COLUMNS = ("Document", "Dataset", "Date", "Firm or product", "Citation")
CITATION_COLUMNS = (
    "index", "name", "dataset", "date", "page", "block_id", "parent_index", "passage", "url",
)  # fmt: skip
MAX_CELL = 32_767  # Excel's limit on a cell's characters
MAX_LINK = 2_079  # Excel calls a workbook with a longer link damaged
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class _Link:
    """A cell's text that links to a url."""

    text: str
    url: str


def excel_workbook(answer: Answer, title: str, now: dt.datetime) -> bytes:
    """The cited documents and the citations as two filterable sheets."""
    from openpyxl import Workbook

    workbook = Workbook()
    documents = workbook.active
    documents.title = "Documents"
    fields = field_names(answer.documents)
    rows = [_document_row(d, fields) for d in answer.documents]
    _fill(documents, [*DOCUMENT_COLUMNS, *fields], rows)
    citations = workbook.create_sheet("Citations")
    ordered = sorted(answer.citations, key=lambda c: c.index)
    _fill(citations, CITATION_COLUMNS, [_citation_row(c) for c in ordered])
    props = workbook.properties
    props.title, props.creator, props.lastModifiedBy = title, "regnb", "regnb"
    props.created = props.modified = naive_utc(now)
    return _workbook_bytes(workbook, now)


def field_names(documents: Sequence[KeyDocument]) -> list[str]:
    """The union of the documents' catalog fields, in the order they first appear."""
    return list(dict.fromkeys(name for d in documents for name in d.fields))


def _document_row(document: KeyDocument, fields: list[str]) -> list[Any]:
    title = _Link(document.title, document.url) if document.url else document.title
    head = [title, document.dataset, document.date]
    head += [document.firm_or_product, document.citation]
    return head + [document.fields.get(name) for name in fields]


def _citation_row(citation: Citation) -> list[Any]:
    return [
        citation.index,
        citation.name,
        citation.dataset,
        citation.date,
        citation.page_num,
        citation.block_id,
        citation.parent_index,
        " ".join(citation.passage.split()) if citation.passage else None,
        _Link(citation.url, citation.url) if citation.url else None,
    ]


def _fill(sheet: Worksheet, header: Sequence[str], rows: list[list[Any]]) -> None:
    """Write a table: bold frozen header, typed cells, links, autofilter over it, fitted widths."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    sheet.append(list(header))
    for cell in sheet[1]:
        cell.font = Font(name=cell.font.name, size=cell.font.size, bold=True)
    for values in rows:
        row = sheet.max_row + 1
        for column, value in enumerate(values, start=1):
            _set(sheet.cell(row=row, column=column), value)
    sheet.freeze_panes = "A2"
    sheet.page_setup.orientation = "landscape"
    sheet.sheet_properties.pageSetUpPr.fitToPage = True  # printed one page wide
    sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight = 1, 0
    last = get_column_letter(len(header))
    sheet.auto_filter.ref = f"A1:{last}{len(rows) + 1}"
    for column, name in enumerate(header, start=1):
        shown = [name, *(_shown(r[column - 1]) for r in rows)]
        width = max(display_width(text) for text in shown) + 2
        sheet.column_dimensions[get_column_letter(column)].width = min(max(width, 8), 60)


def _set(cell: Cell, value: Any) -> None:
    """Put a value in a cell: dates as dates, a link as its text, text never as a formula."""
    if isinstance(value, _Link):
        _set(cell, value.text)
        if len(value.url) <= MAX_LINK:
            cell.hyperlink = value.url
            cell.style = "Hyperlink"
        return
    value = _cell_value(value)
    cell.value = value
    if isinstance(value, dt.date):
        cell.number_format = "yyyy-mm-dd"
    elif isinstance(value, str):
        cell.data_type = "s"  # "=..." from a document stays text, not a formula


def _cell_value(value: Any) -> Any:
    """What a cell holds: numbers and dates as they are, "YYYY-MM-DD" as a date, else text."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    if value is None or isinstance(value, bool | int | float | dt.date):
        return value
    if isinstance(value, list | tuple | set):
        value = "; ".join(str(v) for v in value)
    elif isinstance(value, dict):
        value = json.dumps(value, ensure_ascii=False, sort_keys=True)
    text = ILLEGAL_CHARACTERS_RE.sub("", str(value))[:MAX_CELL]
    day = as_date(text) if _ISO_DAY.fullmatch(text) else None
    return day or text


def _shown(value: Any) -> str:
    if isinstance(value, _Link):
        value = value.text
    if isinstance(value, dt.date):
        return "2000-01-01"
    return "" if value is None else str(_cell_value(value))[:100]


def display_width(text: str) -> int:
    """Columns that `text` takes in a cell: Korean, Chinese and Japanese characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _workbook_bytes(workbook: Any, now: dt.datetime) -> bytes:
    """Saved without openpyxl's save(), which would stamp the modified time with the clock."""
    from zipfile import ZIP_DEFLATED, ZipFile

    from openpyxl.writer.excel import ExcelWriter

    out = io.BytesIO()
    ExcelWriter(workbook, ZipFile(out, "w", ZIP_DEFLATED, allowZip64=True)).save()
    return stable_zip(out.getvalue(), now)
