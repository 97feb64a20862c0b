"""The conversation input rules: message, Idempotency-Key, wait, list parameters, paid files."""

from __future__ import annotations

from typing import Any

import pytest

from regnb.conversations._checks import (
    check_idempotency_key,
    check_list,
    check_message,
    check_wait,
    needs_paid_plan,
)
from regnb.errors import InvalidRequest


@pytest.mark.parametrize("message", ["a", " What changed? ", "Korean 의약품", "x" * 10_000])
def test_message_with_something_in_it_is_kept_as_sent(message: str) -> None:
    assert check_message(message) == message


@pytest.mark.parametrize("message", [None, "", "   ", "\n\t", 5, ["a"], {"m": "a"}])
def test_missing_empty_or_non_string_message_is_invalid(message: Any) -> None:
    with pytest.raises(InvalidRequest) as err:
        check_message(message)
    assert err.value.field == "message"


@pytest.mark.parametrize("key", [None, "a", "k-1", "x" * 255, "!~", "550e8400-e29b-41d4-a716"])
def test_well_formed_idempotency_key_is_accepted(key: str | None) -> None:
    assert check_idempotency_key(key) == key


@pytest.mark.parametrize(
    "key", ["", "a b", " a", "x" * 256, "tab\there", "é", "line\n", "\x7f", 12, b"bytes"]
)
def test_malformed_idempotency_key_is_invalid(key: Any) -> None:
    with pytest.raises(InvalidRequest) as err:
        check_idempotency_key(key)
    assert err.value.field == "Idempotency-Key"


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(0, 0.0), (45, 45.0), (2.5, 2.5), ("0", 0.0), ("45", 45.0), ("1.5", 1.5), (".5", 0.5)],
)
def test_wait_from_0_to_45_seconds_is_read(value: Any, seconds: float) -> None:
    assert check_wait(value) == seconds


@pytest.mark.parametrize(
    "value",
    [
        -1,
        45.01,
        46,
        "46",
        "-1",
        "abc",
        "",
        "nan",
        "inf",
        float("nan"),
        float("inf"),
        True,
        None,
        [1],
    ],
)
def test_wait_that_is_not_a_number_from_0_to_45_is_invalid(value: Any) -> None:
    with pytest.raises(InvalidRequest) as err:
        check_wait(value)
    assert err.value.field == "wait"


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1e-05", 1e-05),
        ("1E1", 10.0),
        ("1e+1", 10.0),
        ("4.5e1", 45.0),
        ("4.5E+1", 45.0),
        ("450e-1", 45.0),
        ("-0", 0.0),
        ("-0.0e3", 0.0),
        ("0e0", 0.0),
        ("007", 7.0),
        ("5.", 5.0),
        (" 2 ", 2.0),
    ],
)
def test_wait_in_any_json_number_form_is_read(text: str, seconds: float) -> None:
    assert check_wait(text) == seconds


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1e2", "from 0 to 45 seconds, got 1e2"),
        ("1e999", "from 0 to 45 seconds, got 1e999"),
        ("-1e-9", "from 0 to 45 seconds, got -1e-9"),
        ("+1", "a number from 0 to 45"),
        ("NaN", "a number from 0 to 45"),
        ("Infinity", "a number from 0 to 45"),
        ("-inf", "a number from 0 to 45"),
        ("0x10", "a number from 0 to 45"),
        ("1_0", "a number from 0 to 45"),
        ("1e", "a number from 0 to 45"),
        ("e5", "a number from 0 to 45"),
        (".e1", "a number from 0 to 45"),
        ("١", "a number from 0 to 45"),  # an Arabic-Indic digit: float() reads it, JSON not
    ],
)
def test_wait_outside_the_json_number_grammar_or_range_is_invalid(text: str, says: str) -> None:
    with pytest.raises(InvalidRequest) as err:
        check_wait(text)
    assert err.value.field == "wait" and says in err.value.message


def test_wait_limit_follows_the_setting() -> None:
    assert check_wait("10", most=10) == 10
    with pytest.raises(InvalidRequest):
        check_wait("11", most=10)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("all", 20, 0), ("all", 20, 0)),
        (("running", 1, 0), ("running", 1, 0)),
        (("all", 100, 10_000), ("all", 100, 10_000)),
    ],
)
def test_list_parameters_in_range_are_kept(args: tuple, expected: tuple) -> None:
    assert check_list(*args) == expected


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("done", 20, 0), "status"),
        (("ALL", 20, 0), "status"),
        ((None, 20, 0), "status"),
        (("all", 0, 0), "limit"),
        (("all", 101, 0), "limit"),
        (("all", "5", 0), "limit"),
        (("all", True, 0), "limit"),
        (("all", 20, -1), "offset"),
        (("all", 20, 1.5), "offset"),
    ],
)
def test_list_parameters_out_of_range_name_their_field(args: tuple, field: str) -> None:
    with pytest.raises(InvalidRequest) as err:
        check_list(*args)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("filename", "media_type", "paid"),
    [
        ("memo.docx", None, True),
        ("TABLE.XLSX", None, True),
        ("deck.pptx", None, True),
        ("old.doc", None, True),
        ("letters", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", True),
        ("legacy", "application/vnd.ms-excel", True),
        ("chart.png", "image/png", False),
        ("data.csv", "text/csv", False),
        (None, None, False),
        ("report.md", "text/markdown", False),
    ],
)
def test_word_excel_and_powerpoint_files_need_a_paid_plan(
    filename: str | None, media_type: str | None, paid: bool
) -> None:
    assert needs_paid_plan(filename, media_type) is paid
