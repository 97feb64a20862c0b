"""The one Excel writer: search exports, a conversation's citations and the research agent's
workbook all become sheets here. Each sheet is a filterable table: bold frozen header,
autofilter, typed cells (numbers, dates, "YYYY-MM-DD" text as a date, text never read as a
formula), links, widths fitted to the text (wide characters count twice) and text wrapped in a
column too long to fit; printed landscape, one page wide. The same sheets and clock give the
same bytes.

    frame_to_excel({"Citations": frame}, "out.xlsx", links={"Citations": {"name": "url"}})
    workbook_bytes([Sheet("Documents", header, rows)], title="…", now=now)
"""

from __future__ import annotations

import datetime as dt
import io
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from regnb.present.office import naive_utc, stable_zip

if TYPE_CHECKING:
    import pandas as pd
    from openpyxl.cell.cell import Cell
    from openpyxl.workbook.workbook import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = [
    "Link",
    "Sheet",
    "display_width",
    "frame_sheet",
    "frame_to_excel",
    "frames_to_excel",
    "workbook_bytes",
    "write_workbook",
]

MAX_CELL = 32_767  # Excel's limit on a cell's characters
MAX_LINK = 2_079  # Excel calls a workbook with a longer link damaged
MIN_WIDTH, MAX_WIDTH = 8, 60  # a column's width in characters; wider text wraps
SHEET_FORBIDDEN = str.maketrans({c: "_" for c in "[]:*?/\\"})
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Link:
    """A cell's text that links to a url."""

    text: str
    url: str


@dataclass(frozen=True)
class Sheet:
    """A sheet's name, header and rows; a cell that links holds a `Link`."""

    name: str
    header: tuple[str, ...]
    rows: list[list[Any]]


def frame_sheet(name: str, frame: pd.DataFrame, links: Mapping[str, str] | None = None) -> Sheet:
    """A DataFrame as a sheet; `links` maps a column to the column of its url: that column's
    cells link to the row's url (http and https only)."""
    columns = [str(c) for c in frame.columns]
    targets = {columns.index(c): columns.index(u) for c, u in (links or {}).items()}
    rows = []
    for values in frame.itertuples(index=False, name=None):
        row = list(values)
        for column, url_column in targets.items():
            row[column] = _linked(values[column], values[url_column])
        rows.append(row)
    return Sheet(name, tuple(columns), rows)


def _linked(value: Any, url: Any) -> Any:
    text = "" if _missing(url) else str(url).strip()
    if _missing(value) or not text.lower().startswith(("http://", "https://")):
        return value
    return Link("" if _missing(value) else str(_cell_value(value)), text)


def frame_to_excel(
    frames: Mapping[str, pd.DataFrame],
    path: str | Path,
    links: Mapping[str, Mapping[str, str]] | None = None,
) -> Path:
    """Each frame as a sheet named by its key. `links` maps a sheet to {column: url column}:
    that column's cells link to the row's url (http and https only)."""
    sheets = [frame_sheet(n, f, (links or {}).get(n)) for n, f in frames.items()]
    return write_workbook(sheets, path)


def write_workbook(sheets: Sequence[Sheet], path: str | Path, *, title: str | None = None) -> Path:
    """The sheets as a workbook at `path`, stamped with the current time."""
    target = Path(path).expanduser()
    target.write_bytes(workbook_bytes(sheets, title=title))
    return target


def workbook_bytes(
    sheets: Sequence[Sheet], *, title: str | None = None, now: dt.datetime | None = None
) -> bytes:
    """The sheets as an .xlsx file; `now` stamps it (default: now), so that the same sheets and
    clock give the same bytes."""
    from openpyxl import Workbook

    when = now or dt.datetime.now(dt.UTC)
    workbook = Workbook()
    for i, sheet in enumerate(sheets):
        target = cast("Worksheet", workbook.active if i == 0 else workbook.create_sheet())
        target.title = _sheet_name(sheet.name)
        _fill(target, sheet)
    if not sheets:
        cast("Worksheet", workbook.active).title = "Sheet"
    props = workbook.properties
    props.title, props.creator, props.lastModifiedBy = title, "regnb", "regnb"
    props.created = props.modified = naive_utc(when)
    return _workbook_bytes(workbook, when)


def _sheet_name(name: str) -> str:
    return name.translate(SHEET_FORBIDDEN)[:31] or "Sheet"


def _fill(sheet: Worksheet, table: Sheet) -> None:
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
            _set(cast("Cell", sheet.cell(row=row, column=column)), value)  # a new row: not merged
    sheet.freeze_panes = "A2"
    sheet.page_setup.orientation = "landscape"
    fit = sheet.sheet_properties.pageSetUpPr
    assert fit is not None  # a new worksheet has one
    fit.fitToPage = True  # printed one page wide
    sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight = 1, 0
    last = get_column_letter(max(len(table.header), 1))
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
    if isinstance(value, dt.datetime):
        cell.number_format = "yyyy-mm-dd hh:mm"
    elif isinstance(value, dt.date):
        cell.number_format = "yyyy-mm-dd"
    elif isinstance(value, str):
        cell.data_type = "s"  # "=..." from a document stays text, not a formula


def _missing(value: Any) -> bool:
    """None, NaN, NaT and pandas' NA (a list or a dict is a value, however empty)."""
    if value is None:
        return True
    if isinstance(value, str | list | tuple | dict | set):
        return False
    if isinstance(value, float):
        return math.isnan(value)
    import pandas as pd

    return bool(pd.isna(value)) if pd.api.types.is_scalar(value) else False


def _cell_value(value: Any) -> Any:
    """What a cell holds: numbers, booleans and dates as they are (a timestamp at midnight as a
    date), "YYYY-MM-DD" text as a date, other values as text."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    if _missing(value):
        return None
    if hasattr(value, "to_pydatetime"):  # a pandas Timestamp
        value = value.tz_localize(None) if value.tzinfo else value
        stamp = value.to_pydatetime()
        return stamp.date() if stamp.time() == dt.time() else stamp
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalars
        value = value.item()
    if isinstance(value, bool | int | float | dt.date):
        return value
    if isinstance(value, list | tuple | set):
        value = "; ".join(str(v) for v in value)
    elif isinstance(value, dict):
        value = json.dumps(value, ensure_ascii=False, sort_keys=True)
    text = ILLEGAL_CHARACTERS_RE.sub("", str(value))[:MAX_CELL]
    return _iso_day(text) or text


def _iso_day(text: str) -> dt.date | None:
    if not _ISO_DAY.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _shown(value: Any) -> str:
    if isinstance(value, Link):
        value = value.text
    shown = _cell_value(value)
    if isinstance(shown, dt.date):
        return "2000-01-01"
    return "" if shown is None else str(shown)[:100]


def display_width(text: str) -> int:
    """Columns that `text` takes in a cell: Korean, Chinese and Japanese characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _workbook_bytes(workbook: Workbook, now: dt.datetime) -> bytes:
    """Saved without openpyxl's save(), which would stamp the modified time with the clock."""
    from zipfile import ZIP_DEFLATED, ZipFile

    from openpyxl.writer.excel import ExcelWriter

    out = io.BytesIO()
    ExcelWriter(workbook, ZipFile(out, "w", ZIP_DEFLATED, allowZip64=True)).save()
    return stable_zip(out.getvalue(), now)


def frames_to_excel(frames: Iterable[pd.DataFrame], path: str | Path, sheet: str) -> int:
    """DataFrames as the rows of one sheet, written as they come (openpyxl's write-only mode:
    memory holds one frame); the header is the first frame's columns. Rows written."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    out = book.create_sheet(_sheet_name(sheet))
    written = 0
    for frame in frames:
        if written == 0:
            out.append(list(frame.columns))
        for row in frame.itertuples(index=False, name=None):
            out.append([_cell_value(v) for v in row])
        written += len(frame)
    book.save(Path(path).expanduser())
    return written
