"""Search results for colleagues: Excel (a Documents and a Pages sheet, by regnb's one Excel
writer, `regnb.present.excel`), CSV and Parquet. Datasets are named by the catalog of the engine
that made the result.

Parquet: `to_parquet(path)` writes the documents; `pages_path=` writes the pages (with their best
passages) to a second file, so that each file is one flat typed table.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from regnb.present.excel import frame_sheet, frame_to_excel, frames_to_excel, workbook_bytes
from regnb.present.names import names_or_package

if TYPE_CHECKING:
    from regnb.results import SearchResult

__all__ = [
    "EXCEL_ROWS",
    "MATCH_FILE_KINDS",
    "documents_frame",
    "frame_to_excel",
    "match_file",
    "matches_to_file",
    "pages_frame",
    "search_csv",
    "search_to_csv",
    "search_to_excel",
    "search_to_parquet",
    "search_workbook",
]

EXCEL_ROWS = 1_048_575  # an Excel sheet's 1,048,576 rows, less the header
MATCH_FILE_KINDS = (".parquet", ".csv", ".xlsx")
LEAD = ["title", "dataset_name", "date", "score", "matched_pages", "cfr"]
TAIL = ["url", "dataset", "document_id"]


def documents_frame(result: SearchResult) -> pd.DataFrame:
    """One row per document: title, dataset name, date, score, matched pages, CFR sections
    cited, every field as a column, then url, dataset id and document id."""
    dataset_name = names_or_package(result.names)
    frame = result.documents_wide
    frame.insert(2, "dataset_name", frame["dataset"].map(dataset_name).astype("string"))
    fields = [c for c in frame.columns if c not in LEAD and c not in TAIL]
    return frame[[*LEAD, *fields, *TAIL]]


def pages_frame(result: SearchResult) -> pd.DataFrame:
    """One row per returned page: its document's title, dataset and url, page number, score,
    best passage and text."""
    dataset_name = names_or_package(result.names)
    docs = result.documents_wide.set_index("document_id")
    pages = result.pages
    pages.insert(1, "title", pages["document_id"].map(docs["title"]).astype("string"))
    names = pages["document_id"].map(docs["dataset"]).map(dataset_name)
    pages.insert(2, "dataset_name", names.astype("string"))
    pages["url"] = pages["document_id"].map(docs["url"]).astype("string")
    return pages[
        ["title", "dataset_name", "page_num", "score", "passage", "text", "url", "document_id"]
    ]


def search_workbook(result: SearchResult) -> bytes:
    """The .xlsx file `search_to_excel` writes: Documents and Pages sheets, titles linked to
    their sources."""
    frames = {"Documents": documents_frame(result), "Pages": pages_frame(result)}
    links = {"Documents": {"title": "url"}, "Pages": {"title": "url"}}
    return workbook_bytes([frame_sheet(n, f, links[n]) for n, f in frames.items()])


def search_to_excel(result: SearchResult, path: str | Path) -> Path:
    """Documents and Pages sheets; titles link to their sources."""
    target = Path(path).expanduser()
    target.write_bytes(search_workbook(result))
    return target


def search_csv(result: SearchResult) -> bytes:
    """The CSV file `search_to_csv` writes: the documents (fields as columns), UTF-8, ISO dates."""
    text = documents_frame(result).to_csv(index=False, date_format="%Y-%m-%d")
    return text.encode("utf-8")


def search_to_csv(result: SearchResult, path: str | Path) -> Path:
    """The documents (fields as columns), UTF-8, ISO dates."""
    target = Path(path).expanduser()
    target.write_bytes(search_csv(result))
    return target


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


def match_file(path: str | Path) -> Path:
    """Where `matches_to_file` writes `path`: refused (InvalidRequest on `to`) unless it ends in
    a kind it writes and names a file in a folder that exists and can be written, so that a
    bad destination fails before any search runs."""
    from regnb.errors import InvalidRequest

    target = Path(path).expanduser()
    if target.suffix.lower() not in MATCH_FILE_KINDS:
        raise InvalidRequest(
            f"{target.name}: the file must end in {', '.join(MATCH_FILE_KINDS)}", field="to"
        )
    if target.is_dir():
        raise InvalidRequest(f"{target} is a folder: name a file in it", field="to")
    folder = target.parent
    if not folder.is_dir():
        raise InvalidRequest(f"the folder {folder} does not exist: create it first", field="to")
    if not os.access(folder, os.W_OK):
        raise InvalidRequest(f"the folder {folder} cannot be written to", field="to")
    return target


def matches_to_file(
    batches: Iterable[pd.DataFrame], path: str | Path, *, progress: bool = False
) -> int:
    """Write `Engine.matches` batches to `path` (`.parquet`, `.csv` or `.xlsx`, by its suffix)
    as they come, so that memory holds one batch; the number of rows written. A workbook
    whose matches pass Excel's row limit is refused before anything is written; so is a path
    `match_file` refuses, before a batch is read."""
    from tqdm.auto import tqdm

    from regnb.errors import InvalidRequest
    from regnb.settings import show_progress

    path = match_file(path)
    kind = path.suffix.lower()
    stream = iter(batches)
    first = next(stream, None)
    total = int(first.attrs.get("total", len(first))) if first is not None else 0
    if kind == ".xlsx" and total > EXCEL_ROWS:
        raise InvalidRequest(
            f"{total:,} documents match, more than an Excel sheet's {EXCEL_ROWS:,} rows; "
            "export to .parquet or .csv, or narrow the search",
            field="to",
        )
    frames = _chain(first, stream)
    bar = tqdm(total=total, unit="doc", desc="exporting", disable=not show_progress(progress))
    write = {".parquet": _write_parquet, ".csv": _write_csv, ".xlsx": _write_xlsx}[kind]
    with bar:
        return write(_counted(frames, bar), path)


def _chain(first: pd.DataFrame | None, rest: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    if first is not None:
        yield first
        yield from rest


def _counted(frames: Iterable[pd.DataFrame], bar: Any) -> Iterator[pd.DataFrame]:
    for frame in frames:
        yield frame
        bar.update(len(frame))


def _write_parquet(frames: Iterable[pd.DataFrame], path: Path) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    written, writer = 0, None
    try:
        for frame in frames:
            table = pa.Table.from_pandas(_arrow_ready(frame), preserve_index=False)
            if writer is None:
                writer = pq.ParquetWriter(path, table.schema)
            writer.write_table(table.cast(writer.schema))
            written += len(frame)
    finally:
        if writer is not None:
            writer.close()
    if writer is None:  # no match: an empty file with no columns says too little
        pd.DataFrame().to_parquet(path, index=False)
    return written


def _write_csv(frames: Iterable[pd.DataFrame], path: Path) -> int:
    written = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        for frame in frames:
            flat = frame.assign(cfr=frame["cfr"].map("; ".join))
            flat.to_csv(out, index=False, header=written == 0)
            written += len(frame)
    return written


def _write_xlsx(frames: Iterable[pd.DataFrame], path: Path) -> int:
    return frames_to_excel(frames, path, "Matches")
