"""The Python API as a new user meets it: dates as date objects, a missing argument or a misspelled
name answered as the spec's `invalid_request` with its field and a suggestion, a `forbidden`
status that says why, and citation dates that are dates."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import regnb
from regnb.client import _calls as calls
from regnb.conversations.conversation import Conversation
from regnb.errors import InvalidFilter, InvalidRequest, UnknownDataset
from regnb.present.html import search_html
from regnb.results import SearchResult
from regnb.validate import check_date, date_text, did_you_mean
from tests.client_support import search_body


@pytest.mark.parametrize(
    "value",
    [
        dt.date(2020, 1, 1),
        dt.datetime(2020, 1, 1, 17, 30),
        pd.Timestamp("2020-01-01"),
        pd.Timestamp("2020-01-01 23:59", tz="UTC"),
        "2020-01-01",
    ],
    ids=["date", "datetime", "Timestamp", "Timestamp-tz", "str"],
)
def test_a_date_is_taken_as_a_date_object_or_the_specs_string(value: object) -> None:
    assert check_date(value, "date_from", InvalidRequest) == "2020-01-01"


@pytest.mark.parametrize("bad", [pd.NaT, 20200101, "01/01/2020", None])
def test_what_is_no_date_is_still_refused_with_its_field(bad: object) -> None:
    with pytest.raises(InvalidRequest) as caught:
        check_date(bad, "date_from", InvalidRequest)
    assert caught.value.field == "date_from"


def test_search_takes_date_objects_and_finds_what_the_string_finds(engine: regnb.Engine) -> None:
    by_text = engine.search(["sterility"], date_from="2015-01-01", date_to="2030-12-31")
    by_date = engine.search(
        ["sterility"], date_from=dt.date(2015, 1, 1), date_to=pd.Timestamp("2030-12-31")
    )
    assert by_date.total == by_text.total
    assert by_date.to_dict()["results"] == by_text.to_dict()["results"]


def test_a_date_filter_of_a_dataset_takes_a_date_object(engine: regnb.Engine) -> None:
    dated = engine.search(["sterility"], filters={"fda_483": {"date_from": dt.date(2015, 1, 1)}})
    assert (
        dated.total
        == engine.search(["sterility"], filters={"fda_483": {"date_from": "2015-01-01"}}).total
    )


def test_the_remote_client_sends_date_objects_as_the_specs_strings() -> None:
    body = search_body(
        ["x"],
        date_from=dt.date(2020, 1, 1),
        date_to=pd.Timestamp("2021-06-30 10:00"),
        filters={"fda_483": {"date_from": dt.datetime(2019, 5, 4, 3, 2)}},
    )
    sent = json.loads(calls.search(body).body or b"")
    assert sent["date_from"] == "2020-01-01" and sent["date_to"] == "2021-06-30"
    assert sent["filters"] == {"fda_483": {"date_from": "2019-05-04"}}


def test_date_text_leaves_other_values_alone() -> None:
    assert date_text("2020-01-01") == "2020-01-01"
    assert date_text(None) is None


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda eng: eng.search(), "keywords"),
        (lambda eng: eng.search(query="sterility failures"), "keywords"),
        (lambda eng: eng.check_search(), "keywords"),
        (lambda eng: eng.read(), "document_id"),
        (lambda eng: eng.ask(), "message"),
        (lambda eng: eng.ask(idempotency_key="k"), "message"),
    ],
    ids=["search", "search-query-only", "check_search", "read", "ask", "ask-key-only"],
)
def test_a_missing_argument_is_the_specs_invalid_request_with_its_field(
    engine: regnb.Engine, call: Any, field: str
) -> None:
    with pytest.raises(InvalidRequest) as caught:
        call(engine)
    assert caught.value.field == field
    assert caught.value.message == f"{field} is required"


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: regnb.search(), "keywords"),
        (lambda: regnb.ask(), "message"),
        (lambda: regnb.read(), "document_id"),
    ],
    ids=["search", "ask", "read"],
)
def test_the_module_functions_say_the_same(call: Any, field: str) -> None:
    with pytest.raises(InvalidRequest, match=f"^{field} is required$"):
        call()


def test_a_misspelled_argument_gets_a_suggestion(engine: regnb.Engine) -> None:
    with pytest.raises(InvalidRequest) as caught:
        engine.search(["sterility"], dataset=["fda_483"])  # type: ignore[call-arg]
    assert caught.value.field == "dataset"
    assert caught.value.message == "unknown argument 'dataset'; did you mean 'datasets'?"


def test_a_type_error_inside_the_call_is_not_hidden(engine: regnb.Engine) -> None:
    with pytest.raises(InvalidRequest, match="keywords must be a list"):
        engine.search(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("given", "hint"),
    [
        ("fda483", "; did you mean 'fda_483'?"),
        ("FDA_483", "; did you mean 'fda_483'?"),
        ("fda_warning_leters", "; did you mean 'fda_warning_letters'?"),
        ("zzz", ""),
        (7, ""),
    ],
)
def test_did_you_mean_names_the_closest_known_id(given: object, hint: str) -> None:
    ids = ["fda_483", "fda_warning_letters", "fda_recalls", "fda_recall_enforcement"]
    assert did_you_mean(given, ids) == hint


def test_a_misspelled_dataset_is_refused_with_a_suggestion(engine: regnb.Engine) -> None:
    with pytest.raises(UnknownDataset) as caught:
        engine.search(["sterility"], datasets=["fda_warning_leters"])
    assert caught.value.field == "datasets[0]"
    assert caught.value.message.endswith("did you mean 'fda_warning_letters'?")


def test_a_misspelled_filter_gets_a_suggestion(engine: regnb.Engine) -> None:
    with pytest.raises(InvalidFilter, match="did you mean 'fei_number'"):
        engine.search(["sterility"], filters={"fda_483": {"fei_numbr": "3000975914"}})


def test_the_servers_400_carries_the_suggestion(
    engine: regnb.Engine, accounts: Any, keys: dict[str, str]
) -> None:
    from starlette.testclient import TestClient

    from regnb.server import create_app

    with TestClient(create_app(engine, accounts=accounts)) as http:
        got = http.post(
            "/api/v3/search",
            json={"keywords": ["x"], "datasets": ["fda483"]},
            headers={"x-api-key": keys["ent"]},
        )
    assert got.status_code == 400
    assert got.json()["error"]["message"] == "unknown dataset 'fda483'; did you mean 'fda_483'?"


def _result(statuses: dict[str, dict[str, Any]]) -> SearchResult:
    return SearchResult(
        total=0, results=[], dataset_statuses=statuses, ranking="bm25", next_offset=None
    )


def test_a_forbidden_status_says_why_where_a_user_reads_it() -> None:
    result = _result({"fda_483": {"status": "forbidden"}, "fda_recalls": {"status": "no_match"}})
    reasons = dict(zip(result.statuses["dataset"], result.statuses["reason"], strict=True))
    assert reasons["fda_483"] == "needs an enterprise plan"
    assert pd.isna(reasons["fda_recalls"])
    assert "needs an enterprise plan" in search_html(result)
    assert result.to_dict()["datasets"]["fda_483"] == {"status": "forbidden"}  # the spec's shape


class Stored:
    """A conversation API that only reads one stored conversation."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def read_conversation(self, conversation_id: str, wait: float = 0) -> dict[str, Any]:
        return self.data


def _conversation() -> Conversation:
    cite = {
        "index": 1,
        "name": "Warning Letter to Acme, page 2",
        "dataset": "FDA Warning Letters",
        "date": "2021-03-04",
        "page_num": 2,
        "url": "https://example.invalid/acme",
    }
    undated = {**cite, "index": 2, "date": None}
    turn = {
        "turn_index": 0,
        "message": "q",
        "status": "completed",
        "answer": "Acme [1] [2].",
        "question": None,
        "citations": [cite, undated],
        "submitted_at": "2021-03-05T00:00:00+00:00",
        "steps": [],
    }
    data = {
        "conversation_id": "conv_0123456789abcdef01234567",
        "status": "completed",
        "url": "http://localhost:8000/api/v3/conversations/conv_0123456789abcdef01234567",
        "turns": [turn],
        "documents": [],
        "error": None,
    }
    return Conversation(Stored(data), data["conversation_id"], data)  # type: ignore[arg-type]


def test_citation_dates_are_a_datetime_column() -> None:
    frame = _conversation().citations
    assert pd.api.types.is_datetime64_any_dtype(frame["date"])
    assert frame["date"][0] == pd.Timestamp("2021-03-04")
    assert pd.isna(frame["date"][1])


def test_to_excel_writes_citation_dates_as_dates(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    path = _conversation().to_excel(tmp_path / "c.xlsx")
    sheet = load_workbook(path)["Citations"]
    column = [c.value for c in sheet[1]].index("date") + 1
    cell = sheet.cell(row=2, column=column)
    assert cell.is_date and cell.value.date() == dt.date(2021, 3, 4)
    assert sheet.cell(row=3, column=column).value is None
