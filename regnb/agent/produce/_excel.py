"""The Excel workbook (.xlsx): "Documents" (one row per document, its findings, CFR sections and
catalog fields), "Findings" (one row per finding) and "Sources"; headers bold and frozen,
autofilter, widths to fit, long text wrapped."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from regnb.agent.types import Answer

from ._common import as_date, naive_utc, stable_zip
from ._tables import Link, Table, documents_table, findings_table, sources_table

if TYPE_CHECKING:
    from openpyxl.cell.cell import Cell
    from openpyxl.worksheet.worksheet import Worksheet

MAX_CELL = 32_767  # Excel's limit on a cell's characters
MAX_LINK = 2_079  # Excel calls a workbook with a longer link damaged
MIN_WIDTH, MAX_WIDTH = 8, 60  # a column's width in characters; wider text wraps
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def excel_workbook(answer: Answer, title: str, now: dt.datetime) -> bytes:
    """The documents, the findings and the sources as three filterable sheets."""
    from openpyxl import Workbook

    workbook = Workbook()
    documents = workbook.active
    documents.title = "Documents"
    _fill(documents, documents_table(answer))
    _fill(workbook.create_sheet("Findings"), findings_table(answer))
    _fill(workbook.create_sheet("Sources"), sources_table(answer))
    props = workbook.properties
    props.title, props.creator, props.lastModifiedBy = title, "regnb", "regnb"
    props.created = props.modified = naive_utc(now)
    return _workbook_bytes(workbook, now)


def _fill(sheet: Worksheet, table: Table) -> None:
    """Write a table: bold frozen header, typed cells, links, autofilter over it, fitted widths,
    text wrapped in a column too long to fit."""
    from openpyxl.styles import Alignment, Font
    from openpyxl.utils import get_column_letter

    sheet.append(list(table.header))
    for cell in sheet[1]:
        cell.font = Font(name=cell.font.name, size=cell.font.size, bold=True)
    for values in table.rows:
        row = sheet.max_row + 1
        for column, value in enumerate(values, start=1):
            _set(sheet.cell(row=row, column=column), value)
    sheet.freeze_panes = "A2"
    sheet.page_setup.orientation = "landscape"
    sheet.sheet_properties.pageSetUpPr.fitToPage = True  # printed one page wide
    sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight = 1, 0
    last = get_column_letter(len(table.header))
    sheet.auto_filter.ref = f"A1:{last}{len(table.rows) + 1}"
    for column, name in enumerate(table.header, start=1):
        shown = [name, *(_shown(r[column - 1]) for r in table.rows)]
        width = max(display_width(text) for text in shown) + 2
        letter = get_column_letter(column)
        sheet.column_dimensions[letter].width = min(max(width, MIN_WIDTH), MAX_WIDTH)
        wrap = width > MAX_WIDTH
        for cells in sheet.iter_rows(min_row=2, min_col=column, max_col=column):
            cells[0].alignment = Alignment(vertical="top", wrap_text=wrap or None)


def _set(cell: Cell, value: Any) -> None:
    """Put a value in a cell: dates as dates, a link as its text, text never as a formula."""
    if isinstance(value, Link):
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
    if isinstance(value, Link):
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
