"""Search results for colleagues: Excel (a Documents and a Pages sheet), CSV and Parquet.

`frame_to_excel` writes any set of DataFrames as filterable sheets (bold frozen header,
autofilter, fitted widths, dates as date cells, chosen columns hyperlinked); conversation
citations reuse it.

Parquet: `to_parquet(path)` writes the documents; `pages_path=` writes the pages (with their best
passages) to a second file, so that each file is one flat typed table.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from regnb.display import dataset_name

if TYPE_CHECKING:
    from openpyxl.cell.cell import Cell
    from openpyxl.worksheet.worksheet import Worksheet

    from regnb.results import SearchResult

__all__ = [
    "documents_frame",
    "frame_to_excel",
    "pages_frame",
    "search_to_csv",
    "search_to_excel",
    "search_to_parquet",
]

MAX_CELL = 32_767  # Excel's limit on a cell's characters
MAX_LINK = 2_079  # Excel's limit on a hyperlink's length
MIN_WIDTH, MAX_WIDTH = 8, 60
WIDTH_SAMPLE = 200  # rows looked at to fit a column's width
LEAD = ["title", "dataset_name", "date", "score", "matched_pages"]
TAIL = ["url", "dataset", "document_id"]
SHEET_FORBIDDEN = str.maketrans({c: "_" for c in "[]:*?/\\"})


def documents_frame(result: SearchResult) -> pd.DataFrame:
    """One row per document: title, dataset name, date, score, matched pages, every field as a
    column, then url, dataset id and document id."""
    frame = result.documents_wide
    frame.insert(2, "dataset_name", frame["dataset"].map(dataset_name).astype("string"))
    fields = [c for c in frame.columns if c not in LEAD and c not in TAIL]
    return frame[[*LEAD, *fields, *TAIL]]


def pages_frame(result: SearchResult) -> pd.DataFrame:
    """One row per returned page: its document's title, dataset and url, page number, score,
    best passage and text."""
    docs = result.documents_wide.set_index("document_id")
    pages = result.pages
    pages.insert(1, "title", pages["document_id"].map(docs["title"]).astype("string"))
    names = pages["document_id"].map(docs["dataset"]).map(dataset_name)
    pages.insert(2, "dataset_name", names.astype("string"))
    pages["url"] = pages["document_id"].map(docs["url"]).astype("string")
    return pages[
        ["title", "dataset_name", "page_num", "score", "passage", "text", "url", "document_id"]
    ]


def search_to_excel(result: SearchResult, path: str | Path) -> Path:
    """Documents and Pages sheets; titles link to their sources."""
    frames = {"Documents": documents_frame(result), "Pages": pages_frame(result)}
    links = {"Documents": {"title": "url"}, "Pages": {"title": "url"}}
    return frame_to_excel(frames, path, links=links)


def search_to_csv(result: SearchResult, path: str | Path) -> Path:
    """The documents (fields as columns), UTF-8, ISO dates."""
    path = Path(path).expanduser()
    documents_frame(result).to_csv(path, index=False, date_format="%Y-%m-%d")
    return path


def search_to_parquet(
    result: SearchResult, path: str | Path, *, pages_path: str | Path | None = None
) -> Path:
    """The documents as a typed Parquet table; the pages to `pages_path` when given."""
    path = Path(path).expanduser()
    _arrow_ready(documents_frame(result)).to_parquet(path, index=False)
    if pages_path is not None:
        _arrow_ready(pages_frame(result)).to_parquet(Path(pages_path).expanduser(), index=False)
    return path


def _arrow_ready(frame: pd.DataFrame) -> pd.DataFrame:
    """Object columns Arrow cannot type (mixed values) as JSON text; lists stay lists."""
    import pyarrow as pa

    out = frame.copy()
    for name in [c for c in out.columns if out[c].dtype == "object"]:
        try:
            pa.array(out[name], from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            out[name] = out[name].map(_json_text).astype("string")
    return out


def _json_text(value: Any) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def frame_to_excel(
    frames: Mapping[str, pd.DataFrame],
    path: str | Path,
    links: Mapping[str, Mapping[str, str]] | None = None,
) -> Path:
    """Each frame as a sheet named by its key. `links` maps a sheet to {column: url column}:
    that column's cells link to the row's url (http and https only)."""
    from openpyxl import Workbook

    path = Path(path).expanduser()
    workbook = Workbook()
    workbook.remove(workbook.active)
    for name, frame in frames.items():
        sheet = workbook.create_sheet(_sheet_name(name))
        _fill(sheet, frame, (links or {}).get(name, {}))
    workbook.properties.creator = "regnb"
    workbook.save(path)
    return path


def _sheet_name(name: str) -> str:
    return name.translate(SHEET_FORBIDDEN)[:31] or "Sheet"


def _fill(sheet: Worksheet, frame: pd.DataFrame, links: Mapping[str, str]) -> None:
    """A table: bold frozen header, typed cells, links, autofilter over it, fitted widths."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    header = [str(c) for c in frame.columns]
    sheet.append(header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    columns = list(frame.columns)
    for values in frame.itertuples(index=False, name=None):
        row = sheet.max_row + 1
        for i, value in enumerate(values):
            cell = sheet.cell(row=row, column=i + 1)
            _set(cell, value)
            target = links.get(columns[i])
            if target is not None:
                _link(cell, values[columns.index(target)])
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{get_column_letter(max(len(header), 1))}{len(frame) + 1}"
    for i, name in enumerate(header, start=1):
        sample = [name, *(_shown(v) for v in frame.iloc[:WIDTH_SAMPLE, i - 1])]
        width = max(_width(text) for text in sample) + 2
        sheet.column_dimensions[get_column_letter(i)].width = min(max(width, MIN_WIDTH), MAX_WIDTH)


def _set(cell: Cell, value: Any) -> None:
    """Dates as date cells, missing values empty, text never read as a formula."""
    value = _cell_value(value)
    cell.value = value
    if isinstance(value, dt.datetime):
        cell.number_format = "yyyy-mm-dd hh:mm"
    elif isinstance(value, dt.date):
        cell.number_format = "yyyy-mm-dd"
    elif isinstance(value, str):
        cell.data_type = "s"  # "=..." in a document stays text


def _link(cell: Cell, url: Any) -> None:
    text = "" if _missing(url) else str(url).strip()
    if text.lower().startswith(("http://", "https://")) and len(text) <= MAX_LINK:
        cell.hyperlink = text
        cell.style = "Hyperlink"


def _missing(value: Any) -> bool:
    if isinstance(value, list | tuple | dict | set):
        return False
    return value is None or bool(pd.isna(value))


def _cell_value(value: Any) -> Any:
    """What a cell holds: numbers, booleans and dates as they are; other values as text."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    if _missing(value):
        return None
    if isinstance(value, pd.Timestamp):
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
    return ILLEGAL_CHARACTERS_RE.sub("", str(value))[:MAX_CELL]


def _shown(value: Any) -> str:
    shown = _cell_value(value)
    if isinstance(shown, dt.date):
        return "2000-01-01"
    return "" if shown is None else str(shown)[:100]


def _width(text: str) -> int:
    """Columns that `text` takes: Korean, Chinese and Japanese characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
