"""Every 400 of the spec's error table that applies to search, with its code and field."""

from __future__ import annotations

from typing import Any

import pytest

import regnb
from regnb import text
from regnb.catalog import Catalog, Dataset, load_catalog
from regnb.errors import InvalidRequest
from regnb.server.errors import http_status
from regnb.validate import search_args, search_request

from .conftest import doc

CASES: list[tuple[dict[str, Any], type[regnb.RegnbError], str]] = [
    ({"keywords": []}, regnb.InvalidRequest, "keywords"),
    ({"keywords": None}, regnb.InvalidRequest, "keywords"),
    ({"keywords": ["a"] * 21}, regnb.InvalidRequest, "keywords"),
    ({"keywords": ["x" * 301]}, regnb.InvalidRequest, "keywords[0]"),
    ({"keywords": ["ok", 5]}, regnb.InvalidRequest, "keywords[1]"),
    ({"keywords": ["ok", "the of and"]}, regnb.InvalidRequest, "keywords[1]"),
    ({"keywords": ["ok", "  ;;  "]}, regnb.InvalidRequest, "keywords[1]"),
    ({"query": "q" * 2001}, regnb.InvalidRequest, "query"),
    ({"query": 7}, regnb.InvalidRequest, "query"),
    ({"datasets": ["fda_483", "fda_nope"]}, regnb.UnknownDataset, "datasets[1]"),
    ({"datasets": "fda_483"}, regnb.InvalidRequest, "datasets"),
    ({"datasets": []}, regnb.InvalidRequest, "datasets"),
    ({"limit": 0}, regnb.InvalidRequest, "limit"),
    ({"limit": 51}, regnb.InvalidRequest, "limit"),
    ({"limit": True}, regnb.InvalidRequest, "limit"),
    ({"limit": 2.0}, regnb.InvalidRequest, "limit"),
    ({"offset": -1}, regnb.InvalidRequest, "offset"),
    ({"offset": 501}, regnb.InvalidRequest, "offset"),
    ({"date_from": "2020-13-01"}, regnb.InvalidRequest, "date_from"),
    ({"date_from": "2020/01/01"}, regnb.InvalidRequest, "date_from"),
    ({"date_to": 2020}, regnb.InvalidRequest, "date_to"),
    ({"date_from": "2021-01-01", "date_to": "2020-01-01"}, regnb.InvalidRequest, "date_from"),
    ({"plan": "gold"}, regnb.InvalidRequest, "plan"),
    ({"filters": ["x"]}, regnb.InvalidFilter, "filters"),
    ({"filters": {"fda_483": "x"}}, regnb.InvalidFilter, "filters.fda_483"),
    ({"filters": {"fda_483": {"color": "red"}}}, regnb.InvalidFilter, "filters.fda_483.color"),
    (
        {"filters": {"fda_483": {"fei_number": 3001234567}}},
        regnb.InvalidFilter,
        "filters.fda_483.fei_number",
    ),
    (
        {"filters": {"fda_483": {"fei_number": ""}}},
        regnb.InvalidFilter,
        "filters.fda_483.fei_number",
    ),
    (
        {"filters": {"fda_guidance": {"center": "NASA"}}, "datasets": ["fda_guidance"]},
        regnb.InvalidFilter,
        "filters.fda_guidance.center",
    ),
    (
        {"filters": {"fda_faers": {"serious": "yes"}}, "datasets": ["fda_faers"]},
        regnb.InvalidFilter,
        "filters.fda_faers.serious",
    ),
    (
        {"filters": {"fda_483": {"date_from": "2020-02-30"}}},
        regnb.InvalidFilter,
        "filters.fda_483.date_from",
    ),
    (
        {"filters": {"fda_483": {"date_from": "2021-01-01", "date_to": "2020-01-01"}}},
        regnb.InvalidFilter,
        "filters.fda_483.date_from",
    ),
    ({"filters": {"fda_recalls": {"company": "x"}}}, regnb.InvalidFilter, "filters.fda_recalls"),
    ({"filters": {"not_a_dataset": {}}}, regnb.InvalidFilter, "filters.not_a_dataset"),
    (
        {"filters": {"fda_483": {"date_from": "2020-01-01"}}, "date_from": "2019-01-01"},
        regnb.InvalidFilter,
        "filters.fda_483.date_from",
    ),
    (
        {"filters": {"fda_483": {"date_to": "2020-01-01"}}, "date_to": "2021-01-01"},
        regnb.InvalidFilter,
        "filters.fda_483.date_to",
    ),
]


NO_WORD = ["the", "!!!", "\u200b", "of and the", "x" * 100_000, "ａｂ" * 30]
CASES += [
    (
        {"filters": {"fda_warning_letters": {"company": value}}, "datasets": None},
        regnb.InvalidFilter,
        "filters.fda_warning_letters.company",
    )
    for value in NO_WORD
]
CATALOG = load_catalog()


@pytest.mark.parametrize(("args", "error", "field"), CASES)
def test_bad_search_input_raises_the_spec_error_with_its_field(args, error, field):
    call = {"keywords": ["alpha"], "datasets": ["fda_483"], **args}
    with pytest.raises(error) as info:
        search_request(CATALOG, text.terms, {k: v for k, v in call.items() if v is not None})
    assert info.value.field == field
    assert info.value.code == error.code and http_status(info.value) == 400
    assert info.value.message


def test_the_engine_raises_the_same_errors(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha"])]})
    with pytest.raises(regnb.InvalidFilter) as info:
        eng.search(["alpha"], filters={"fda_483": {"facility_name": "the"}})
    assert info.value.field == "filters.fda_483.facility_name"
    assert "no searchable word" in info.value.message
    with pytest.raises(regnb.InvalidRequest) as info:
        eng.check_search(["alpha"], limit=0)
    assert info.value.field == "limit"


def test_one_date_at_the_top_and_the_other_in_filters_is_allowed(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha"], date="2020-05-05")]})
    res = eng.search(
        ["alpha"],
        datasets=["fda_483"],
        date_from="2020-01-01",
        filters={"fda_483": {"date_to": "2020-12-31"}},
    )
    assert res.total == 1


def test_filters_for_a_forbidden_dataset_are_still_checked(make_engine):
    eng = make_engine({"fda_483": [doc("A", ["alpha"])]})
    with pytest.raises(regnb.InvalidFilter):
        eng.search(["alpha"], datasets=["fda_crl"], filters={"fda_crl": {"x": "y"}}, plan="free")
    res = eng.search(
        ["alpha"], datasets=["fda_crl"], filters={"fda_crl": {"company": "y"}}, plan="free"
    )
    assert res.to_dict()["datasets"] == {"fda_crl": {"status": "forbidden"}}


NUMBERED = Catalog(
    [
        Dataset(
            "acme_batches",
            "ACME batches",
            "",
            True,
            False,
            None,
            {
                "lot": {"type": "integer", "description": "lot number"},
                "ph": {"type": "number", "description": "pH"},
            },
            ["lot", "ph"],
        )
    ]
)


@pytest.mark.parametrize(
    ("name", "value", "ok"),
    [
        ("lot", 12, True),
        ("lot", 12.5, False),
        ("lot", True, False),
        ("lot", "12", False),
        ("ph", 7, True),
        ("ph", 6.8, True),
        ("ph", False, False),
    ],
)
def test_integer_filters_take_integers_and_number_filters_numbers(name, value, ok):
    args = {"keywords": ["batch"], "filters": {"acme_batches": {name: value}}}
    if ok:
        req = search_request(NUMBERED, text.terms, args)
        assert req.filters["acme_batches"][0].value == value
    else:
        with pytest.raises(regnb.InvalidFilter) as info:
            search_request(NUMBERED, text.terms, args)
        assert info.value.field == f"filters.acme_batches.{name}"


def test_the_search_block_as_keyword_arguments_names_an_unknown_one() -> None:
    assert search_args({"datasets": ["fda_483"], "syntax": "plain"}) == {
        "datasets": ["fda_483"],
        "syntax": "plain",
    }
    with pytest.raises(InvalidRequest, match=r"unknown argument 'date_form'.*date_from") as err:
        search_args({"date_form": "2020-01-01"})
    assert err.value.field == "date_form"
    with pytest.raises(InvalidRequest, match="plan is not taken here: the key's") as err:
        search_args({"plan": "free"}, {"plan": "the key's"})
    assert err.value.field == "plan"
