"""When the agent asks before it answers: nothing to search for, too broad, or one word that means
different things in different datasets; options are counted by the engine (`Choices`), or come
from the first search when it cannot count."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from regnb.agent._clarify import clarify, needs_probe
from regnb.agent._counts import Choices
from regnb.agent._stages import Count, Plan
from regnb.results import SearchResult
from tests.agent_support import flat_plan

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
    return flat_plan(**kwargs)


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


def counts(*pairs: tuple[str, int]) -> tuple[Count, ...]:
    return tuple(Count(value, n) for value, n in pairs)


CHOICES = Choices(
    total=120,
    datasets=counts(("fda_recalls", 80), ("fda_recall_enforcement", 40)),
    years=counts(("2019", 30), ("2021", 20), ("2023", 25), ("2024", 30), ("2025", 10), ("2026", 5)),
    cfr=counts(("21 CFR 211.113", 70), ("21 CFR 211.192", 12), ("21 CFR 211.22", 4), ("21 CFR 1", 1)),
    firms=counts(("Acme Foods", 9), ("Borealis", 3), ("Cary, NC 27518" * 6, 3), ("Lone Firm", 1)),
)  # fmt: skip


def test_a_broad_request_offers_firms_sections_years_and_datasets_with_their_counts() -> None:
    plan = a_plan(datasets=RECALLS, named_datasets=RECALLS)
    asked = clarify(plan, result([("fda_recalls", "A", None)]), name, TODAY, CHOICES)
    assert asked is not None
    assert asked["question"].startswith(
        "FDA Recalls and FDA Enforcement Reports hold 120 matching documents: too many"
    )
    assert asked["options"] == [
        "Acme Foods (9 documents)",
        "Borealis (3 documents)",
        "21 CFR 211.192 (Production record review; 12 documents)",
        "21 CFR 211.22 (Responsibilities of quality control unit; 4 documents)",
        "in 2025 (10 documents)",
        "in 2024 (30 documents)",
        "FDA Recalls (80 documents)",
        "FDA Enforcement Reports (40 documents)",
    ]


@pytest.mark.parametrize(
    ("years", "options"),
    [
        (
            (("2019", 30), ("2021", 20), ("2023", 25), ("2024", 30), ("2026", 5)),
            ["in 2024 (30 documents)", "in 2023 (25 documents)", "in 2021 (20 documents)",
             "before 2021 (30 documents)"],
        ),
        ((("2024", 1), ("2025", 1)), ["in 2025 (1 document)", "in 2024 (1 document)"]),
        ((("2025", 7), ("2027", 1)), []),  # one year up to today's: nothing to choose
    ],
)  # fmt: skip
def test_the_latest_years_are_offered_one_by_one_and_the_earlier_at_once(
    years: tuple[tuple[str, int], ...], options: list[str]
) -> None:
    choices = Choices(120, counts(("fda_recalls", 120)), counts(*years), (), ())
    plan = a_plan(datasets=["fda_recalls"], named_datasets=["fda_recalls"])
    asked = clarify(plan, None, name, TODAY, choices)
    assert asked is not None
    assert asked["question"].startswith("FDA Recalls holds 120 matching documents")
    assert asked["options"] == options


def test_a_request_matching_few_documents_by_the_counts_is_answered() -> None:
    choices = Choices(20, counts(("fda_recalls", 20)), counts(("2024", 20)), (), ())
    plan = a_plan(datasets=["fda_recalls"], named_datasets=["fda_recalls"])
    assert (
        clarify(plan, result([("fda_recalls", "A", None)], total=90), name, TODAY, choices) is None
    )


def test_a_dataset_asked_for_that_the_corpus_lacks_is_said_plainly() -> None:
    plan = a_plan(
        datasets=["fda_recalls"],
        named_datasets=RECALLS,
        unsearchable={"fda_recall_enforcement": "not_in_corpus"},
    )
    choices = Choices(80, counts(("fda_recalls", 80)), (), (), ())
    asked = clarify(plan, None, name, TODAY, choices)
    assert asked is not None
    assert asked["question"] == (
        "FDA Recalls holds 80 matching documents: too many to answer with citations. This corpus "
        "holds no documents of FDA Enforcement Reports. What should the answer be about: a "
        "topic, a firm or product, or a time range?"
    )


def test_nothing_to_search_for_offers_the_datasets_and_years_with_most_documents() -> None:
    asked = clarify(a_plan(datasets=list(NAMES)), None, name, TODAY, CHOICES)
    assert asked is not None
    assert asked["question"].startswith("What should I research?")
    assert asked["options"] == [
        "FDA Recalls (80 documents)",
        "FDA Enforcement Reports (40 documents)",
        "in 2025 (10 documents)",
        "in 2024 (30 documents)",
        "in 2023 (25 documents)",
        "before 2023 (50 documents)",
    ]


def test_a_word_spread_over_datasets_offers_each_sense_with_its_count() -> None:
    rows = [("fda_recalls", "A", None)] * 10 + [("fda_recall_enforcement", "B", None)] * 10
    rows += [("fda_483", "C", None)] * 10
    choices = Choices(
        60, counts(("fda_recalls", 30), ("fda_recall_enforcement", 20), ("fda_483", 10)), (), (), ()
    )
    plan = a_plan(words=["contamination"], datasets=list(NAMES))
    asked = clarify(plan, result(rows), name, TODAY, choices)
    assert asked is not None
    assert asked["options"] == [
        "contamination in FDA Recalls (30 documents)",
        "contamination in FDA Enforcement Reports (20 documents)",
        "contamination in FDA Form 483 (10 documents)",
    ]
