"""When the agent asks before it answers: nothing to search for, too broad, or one word that means
different things in different datasets; options come from the first search."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from regnb.agent._clarify import clarify, needs_probe
from regnb.agent._plan import Plan
from regnb.results import SearchResult

TODAY = dt.date(2025, 6, 1)
NAMES = {
    "fda_recalls": "FDA Recalls",
    "fda_recall_enforcement": "FDA Enforcement Reports",
    "fda_483": "FDA Form 483",
    "fda_maude": "FDA MAUDE",
    "fda_warning_letters": "FDA Warning Letters",
}


def name(dataset: str) -> str:
    return NAMES[dataset]


def result(rows: list[tuple[str, str, str | None]], total: int | None = None) -> SearchResult:
    """A search result of documents (dataset, firm, date)."""
    results = [
        {
            "document_id": f"d{i}",
            "dataset": ds,
            "title": f"Document {i}",
            "date": date,
            "url": None,
            "fields": {"company": firm},
            "pages": [{"page_num": 1, "score": 1.0, "text": "t"}],
            "matched_pages": 1,
        }
        for i, (ds, firm, date) in enumerate(rows)
    ]
    statuses: dict[str, dict[str, Any]] = {}
    for ds, _, _ in rows:
        statuses.setdefault(ds, {"status": "ok", "matches": 0, "pages": 0})["matches"] += 10
    return SearchResult(results, statuses, total if total is not None else len(rows), None, "bm25")


def a_plan(**kwargs: Any) -> Plan:
    return Plan(message="m", query="q", **kwargs)


RECALLS = ["fda_recalls", "fda_recall_enforcement"]


def test_nothing_to_search_for_asks_what_to_research() -> None:
    asked = clarify(
        a_plan(datasets=list(NAMES)), result([("fda_483", "A", "2020-01-01")]), name, TODAY
    )
    assert asked is not None
    assert asked["question"].startswith("What should I research?")
    assert asked["options"] == ["FDA Form 483"]


def test_a_dataset_and_nothing_else_over_many_documents_is_too_broad() -> None:
    rows = [("fda_recalls", "Acme Foods", f"20{10 + i % 15}-01-01") for i in range(40)]
    rows += [("fda_recall_enforcement", "Borealis", "2024-02-02") for _ in range(10)]
    plan = a_plan(datasets=RECALLS, named_datasets=RECALLS)
    asked = clarify(plan, result(rows, total=120), name, TODAY)
    assert asked is not None
    assert asked["question"].startswith(
        "FDA Recalls and FDA Enforcement Reports hold 120 matching documents"
    )
    assert asked["options"] == [
        "Acme Foods",
        "Borealis",
        "since 2023",
        "between 2010 and 2022",
        "FDA Recalls",
        "FDA Enforcement Reports",
    ]


def test_a_dataset_with_few_documents_is_answered_whole() -> None:
    plan = a_plan(datasets=["fda_recalls"], named_datasets=["fda_recalls"])
    assert clarify(plan, result([("fda_recalls", "A", None)] * 5), name, TODAY) is None


def test_one_word_spread_over_unrelated_datasets_is_ambiguous() -> None:
    rows = [("fda_recalls", "A", None)] * 10 + [("fda_483", "B", None)] * 10
    rows += [("fda_maude", "C", None)] * 10
    plan = a_plan(words=["contamination"], datasets=list(NAMES))
    asked = clarify(plan, result(rows), name, TODAY)
    assert asked is not None
    assert asked["question"] == (
        "“contamination” comes up in FDA Recalls, FDA Form 483 and FDA MAUDE, in different "
        "senses. Which do you mean?"
    )
    assert asked["options"][:3] == [
        "contamination in FDA Recalls",
        "contamination in FDA Form 483",
        "contamination in FDA MAUDE",
    ]


@pytest.mark.parametrize(
    "plan",
    [
        a_plan(words=["contamination"], datasets=list(NAMES), named_datasets=["fda_483"]),
        a_plan(words=["contamination"], datasets=list(NAMES), names=["Acme"]),
        a_plan(words=["contamination"], datasets=list(NAMES), date_from="2020-01-01"),
        a_plan(words=["contamination", "airflow"], datasets=list(NAMES)),
        a_plan(phrases=["media fill"], words=["contamination"], datasets=list(NAMES)),
    ],
)
def test_a_word_with_an_anchor_or_company_is_answered(plan: Plan) -> None:
    rows = [("fda_recalls", "A", None)] * 10 + [("fda_483", "B", None)] * 10
    rows += [("fda_maude", "C", None)] * 10
    assert clarify(plan, result(rows), name, TODAY) is None


def test_one_word_mostly_in_one_dataset_is_answered() -> None:
    rows = [("fda_483", "B", None)] * 25 + [("fda_maude", "C", None)] * 3
    assert (
        clarify(a_plan(words=["airflow"], datasets=list(NAMES)), result(rows), name, TODAY) is None
    )


@pytest.mark.parametrize(
    ("plan", "expected"),
    [
        (a_plan(), True),
        (a_plan(words=["contamination"]), True),
        (a_plan(words=["contamination"], named_datasets=["fda_483"]), False),
        (a_plan(phrases=["media fill"]), False),
        (a_plan(identifiers=["212345"]), False),
    ],
)
def test_which_plans_need_a_first_search_before_answering(plan: Plan, expected: bool) -> None:
    assert needs_probe(plan) is expected
