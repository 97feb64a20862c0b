"""The error hierarchy maps back from the spec's error objects (what a remote client receives), with
the HTTP status table of `regnb.server.errors`; the core's errors carry codes, not statuses."""

from __future__ import annotations

import pytest

from regnb import errors
from regnb.server.errors import error_class_of, http_status

CLASSES = [
    c
    for c in vars(errors).values()
    if isinstance(c, type) and issubclass(c, errors.RegnbError) and c is not errors.RegnbError
]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_an_error_object_and_its_status_give_back_its_class(cls):
    sent = cls("went wrong", field="keywords[0]", retry_after=3)
    body = {**sent.to_dict(), "request_id": "req_" + "0" * 24}
    back = errors.error_from_dict(body, error_class_of(sent.code, http_status(sent)))
    parents = {errors.CorpusError: errors.InternalError}  # raised on one side only
    parents[errors.IndexDamaged] = errors.InternalError
    parents[errors.FeatureNotOffered] = errors.InvalidRequest
    expected = parents.get(cls, cls)
    assert type(back) is expected
    assert (back.code, http_status(back), back.field, back.message) == (
        sent.code,
        http_status(sent),
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
    assert error_class_of(code, status) is cls


def test_an_unknown_code_keeps_its_code():
    error = errors.error_from_dict({"code": "teapot", "message": "short and stout"})
    assert type(error) is errors.RegnbError
    assert (error.code, error.message) == ("teapot", "short and stout")
    assert error_class_of("teapot", 418) is errors.RegnbError


@pytest.mark.parametrize("cls", [errors.RegnbError, *CLASSES], ids=lambda c: c.__name__)
def test_core_errors_carry_no_http_status(cls):
    assert not hasattr(cls, "status")
    assert not hasattr(cls("x"), "status")
    assert 400 <= http_status(cls) <= 504


def test_every_code_is_listed_once():
    assert len(errors.ERROR_CODES) == len(set(errors.ERROR_CODES)) == 21  # 20 of the spec's
