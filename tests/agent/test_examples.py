"""A question's list of examples ("leachables - e.g., X's A, Y's B, Z's C"): alternatives, each
searched with the topic's words, never two sides to compare, never a pointer to one passage, and
never the words every page must hold (regnb.agent._understand.find_examples, the plan and the
searches' items)."""

from __future__ import annotations

import datetime as dt

import pytest

from regnb.agent._plan import plan_message
from regnb.agent._rank import plan_terms
from regnb.agent._searching import items_for
from regnb.agent._understand import find_examples
from regnb.catalog import load_catalog

CATALOG = load_catalog()
TODAY = dt.date(2026, 12, 1)


def _plan(message: str):
    return plan_message(
        message, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=lambda ws: {}
    )


@pytest.mark.parametrize(
    ("message", "items"),
    [
        (
            "What have CRLs flagged about extractables, e.g. Acme's autoinjector, Beta's "
            "inhaler, Gamma's pen?",
            ("Acme's autoinjector", "Beta's inhaler", "Gamma's pen"),
        ),
        (
            "Which compounders had sterility gaps, such as media fill failures or smoke study gaps?",
            ("media fill failures", "smoke study gaps"),
        ),
        (
            "Recalls for undeclared allergens (for example milk, soy and peanuts) in 2012",
            ("milk", "soy", "peanuts"),
        ),
    ],
)
def test_a_list_of_examples_is_read_item_by_item(message: str, items: tuple[str, ...]) -> None:
    assert [got for got, _ in find_examples(message)] == [items]


@pytest.mark.parametrize(
    "message",
    [
        "What did the 483 say, for example about crossing staple lines?",  # one: a pointer
        "Which firms got warning letters in 2020?",
        "Products such as these were recalled.",
    ],
)
def test_one_example_or_none_is_not_a_list(message: str) -> None:
    assert find_examples(message) == []


def test_the_examples_are_alternatives_searched_with_the_topic() -> None:
    plan = _plan(
        "What have CRLs said about leachables - e.g., Acme's nasal spray, Beta's pen, Gamma's vial?"
    )
    assert plan.topic.examples == ("Acme's nasal spray", "Beta's pen", "Gamma's vial")
    assert plan.topic.words == ("leachables",)  # the examples' words are not required of all
    assert plan.ask.pointers == ()  # a list of examples points at documents, not a passage
    assert plan.ask.kind != "comparison"
    items = items_for(plan, {}, loosen=False)
    assert "Beta's pen leachables" in items and "Gamma's vial leachables" in items
    assert any(t.text == "Beta's pen" for t in plan_terms(plan))


def test_one_example_stays_a_pointer_and_example_is_no_topic_word() -> None:
    plan = _plan("What did the 483 say, for example about crossing staple lines?")
    assert plan.topic.examples == ()
    assert plan.ask.pointers == ("crossing staple lines",)
    assert "example" not in plan.topic.words


@pytest.mark.parametrize(
    ("message", "compared"),
    [
        # a comparison as a kind of evidence, with nothing to set beside it
        ("Under the Safety and Performance Based Pathway, what can a 510(k) show instead of a predicate comparison?", False),
        ("Is a bench comparison enough for a 510(k)?", False),
        ("Give me a comparison of the two Orvento letters", True),
        ("How did the 2020 483 compare?", True),
        ("Compare the 483s for Acme Pharma and Beta Labs", True),
    ],
)  # fmt: skip
def test_a_comparison_word_asks_for_a_comparison_only_with_sides(
    message: str, compared: bool
) -> None:
    from regnb.agent._understand import question_kind

    assert (question_kind(message)[0] == "comparison") is compared
