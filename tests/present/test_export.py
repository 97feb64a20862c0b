"""Exports opened by their own readers: openpyxl, pandas.read_csv, pyarrow.parquet."""

from __future__ import annotations

import datetime as dt
from typing import Any

import openpyxl
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from regnb.present.excel import frame_to_excel
from regnb.results import SearchResult
from tests.conftest import doc

PAGE = "Opening sentence of the page. " * 5 + "The media fills failed twice. " + "More. " * 5


def entry(n: int, dataset: str, fields: dict[str, Any], **over: Any) -> dict[str, Any]:
    return {
        "document_id": f"d{n}",
        "dataset": dataset,
        "title": f"Title {n}",
        "date": "2021-05-06",
        "url": f"https://x.invalid/{n}",
        "fields": fields,
        "pages": [{"page_num": 4, "score": 0.75, "text": PAGE}],
        "matched_pages": 2,
        **over,
    }


@pytest.fixture
def result() -> SearchResult:
    results = [
        entry(1, "fda_483", {"facility_name": "Acme", "fei_number": "3001234567"}),
        entry(2, "fda_faers", {"serious": True, "receive_date": "2020-01-02"}, date=None),
        entry(3, "fda_483", {"facility_name": "=1+1", "fei_number": None}, url="javascript:x"),
    ]
    statuses = {"fda_483": {"status": "ok", "matches": 2, "pages": 2}}
    statuses["fda_faers"] = {"status": "ok", "matches": 1, "pages": 1}
    body = {"results": results, "datasets": statuses, "total": 3, "next_offset": None}
    return SearchResult.from_dict({**body, "ranking": "similarity"}, keywords=["media fill"])


def rows(sheet) -> list[list[Any]]:
    return [list(r) for r in sheet.iter_rows(values_only=True)]


def test_excel_documents_sheet(result, tmp_path):
    path = result.to_excel(tmp_path / "out.xlsx")
    sheet = openpyxl.load_workbook(path)["Documents"]
    header, first, second, third = rows(sheet)
    assert header[:6] == ["title", "dataset_name", "date", "score", "matched_pages", "cfr"]
    assert header[6:] == [
        "facility_name", "fei_number", "serious", "receive_date", "url", "dataset", "document_id",
    ]  # fmt: skip
    assert first[:8] == [
        "Title 1", "FDA Form 483 Inspection Observations", dt.datetime(2021, 5, 6), 0.75, 2,
        None, "Acme", "3001234567",
    ]  # fmt: skip
    assert second[2] is None and second[8] is True and second[9] == dt.datetime(2020, 1, 2)
    assert sheet["C2"].number_format == "yyyy-mm-dd" and sheet["C2"].is_date
    assert sheet["A2"].hyperlink.target == "https://x.invalid/1"
    assert sheet["A4"].hyperlink is None  # a javascript: url is not linked
    assert third[6] == "=1+1" and sheet["G4"].data_type == "s"  # text, never a formula
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == "A1:M4"
    assert 8 <= sheet.column_dimensions["B"].width <= 60


def test_excel_pages_sheet_has_best_passages(result, tmp_path):
    sheet = openpyxl.load_workbook(result.to_excel(tmp_path / "out.xlsx"))["Pages"]
    header, *body = rows(sheet)
    assert header == [
        "title", "dataset_name", "page_num", "score", "passage", "text", "url", "document_id",
    ]  # fmt: skip
    assert len(body) == 3 and body[0][2] == 4
    assert "The media fills failed twice." in body[0][4] and body[0][5] == PAGE
    assert sheet["A2"].hyperlink.target == "https://x.invalid/1"


def test_csv_has_documents_with_fields_as_columns(result, tmp_path):
    frame = pd.read_csv(result.to_csv(tmp_path / "out.csv"), parse_dates=["date"])
    assert list(frame.title) == ["Title 1", "Title 2", "Title 3"]
    assert frame.date[0] == pd.Timestamp("2021-05-06") and pd.isna(frame.date[1])
    assert frame.fei_number[0] == 3001234567 and frame.receive_date[1] == "2020-01-02"
    assert list(frame.matched_pages) == [2, 2, 2]


def test_parquet_documents_and_pages_keep_their_types(result, tmp_path):
    path = result.to_parquet(tmp_path / "docs.parquet", pages_path=tmp_path / "pages.parquet")
    schema = pq.read_schema(path)
    assert pa.types.is_timestamp(schema.field("date").type)
    assert pa.types.is_timestamp(schema.field("receive_date").type)
    assert schema.field("matched_pages").type == pa.int64()
    assert schema.field("score").type == pa.float64()
    assert schema.field("serious").type == pa.bool_()
    assert pa.types.is_string(schema.field("title").type) or pa.types.is_large_string(
        schema.field("title").type
    )
    pages = pq.read_table(tmp_path / "pages.parquet").to_pandas()
    assert pages.passage.str.contains("media fills").all()
    assert pq.read_table(path).num_rows == 3


def test_parquet_without_pages_path_writes_one_file(result, tmp_path):
    result.to_parquet(tmp_path / "docs.parquet")
    assert [p.name for p in tmp_path.iterdir()] == ["docs.parquet"]


def test_parquet_turns_mixed_field_values_into_text(tmp_path):
    results = [entry(1, "fda_483", {"x": 1}), entry(2, "fda_483", {"x": "a"})]
    body = {"results": results, "datasets": {}, "total": 2, "next_offset": None}
    res = SearchResult.from_dict({**body, "ranking": "bm25"})
    frame = pd.read_parquet(res.to_parquet(tmp_path / "d.parquet"))
    assert list(frame.x) == ["1", "a"]


def test_frame_to_excel_writes_any_frames(tmp_path):
    frames = {
        "Cited: a/b?": pd.DataFrame(
            {
                "name": pd.array(["one", None], dtype="string"),
                "count": pd.array([1, None], dtype="Int64"),
                "when": pd.to_datetime(["2020-01-02 10:30", None]),
                "tags": [["a", "b"], []],
                "bad": ["bell\x07", "ok"],
                "link": ["https://a.invalid", None],
            }
        ),
        "Empty": pd.DataFrame({"a": []}),
    }
    path = frame_to_excel(frames, tmp_path / "f.xlsx", links={"Cited: a/b?": {"name": "link"}})
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Cited_ a_b_", "Empty"]
    sheet = book["Cited_ a_b_"]
    assert rows(sheet)[1:] == [
        ["one", 1, dt.datetime(2020, 1, 2, 10, 30), "a; b", "bell", "https://a.invalid"],
        [None, None, None, None, "ok", None],
    ]
    assert sheet["A2"].hyperlink.target == "https://a.invalid" and sheet["A3"].hyperlink is None
    assert rows(book["Empty"]) == [["a"]]


def test_real_search_exports(make_engine, tmp_path):
    eng = make_engine({"fda_483": [doc("A", [PAGE], fields={"fei_number": "3001234567"})]})
    res = eng.search(["media fill"])
    book = openpyxl.load_workbook(res.to_excel(tmp_path / "r.xlsx"))
    assert rows(book["Documents"])[1][0] == "A"
    assert "fei_number" in rows(book["Documents"])[0]
