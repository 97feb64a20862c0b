"""The error hierarchy maps back from the spec's error objects (what a remote client receives)."""

from __future__ import annotations

import pytest

from regnb import errors

CLASSES = [
    c
    for c in vars(errors).values()
    if isinstance(c, type) and issubclass(c, errors.RegnbError) and c is not errors.RegnbError
]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_an_error_object_and_its_status_give_back_its_class(cls):
    sent = cls("went wrong", field="keywords[0]", retry_after=3)
    back = errors.error_from_dict({**sent.to_dict(), "request_id": "req_" + "0" * 24}, cls.status)
    expected = errors.InternalError if cls is errors.CorpusError else cls
    assert type(back) is expected
    assert (back.code, back.status, back.field, back.message) == (
        sent.code,
        sent.status,
        "keywords[0]",
        "went wrong",
    )
    assert back.request_id == "req_" + "0" * 24


@pytest.mark.parametrize(
    ("code", "status", "cls"),
    [
        ("upstream_error", 502, errors.UpstreamError),
        ("upstream_error", 503, errors.RankingFailed),
        ("timeout", 504, errors.SearchTimeout),
        ("timeout", 503, errors.RankingTimeout),
        ("timeout", None, errors.SearchTimeout),
    ],
)
def test_codes_with_two_statuses_pick_the_class_by_status(code, status, cls):
    assert errors.error_class(code, status) is cls


def test_an_unknown_code_keeps_its_code_and_status():
    error = errors.error_from_dict({"code": "teapot", "message": "short and stout"}, 418)
    assert type(error) is errors.RegnbError
    assert (error.code, error.status, error.message) == ("teapot", 418, "short and stout")


def test_every_code_is_listed_once():
    assert len(errors.ERROR_CODES) == len(set(errors.ERROR_CODES)) == 20
