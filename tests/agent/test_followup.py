"""Follow-ups to a turn about named firms or products: a short question keeps the names and takes
its own dates and words ("ARIA" is a word of the topic, not a firm); "What about Baxter?" asks
about another firm; a new question that names a dataset is planned on its own."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import pytest

from regnb.agent._followup import continues_subject, plan_turn, turn_state
from regnb.agent._plan import plan_message
from regnb.agent._stages import Plan
from regnb.agent.types import PriorTurn
from regnb.catalog import load_catalog
from tests.agent_support import plan_fields

TODAY = dt.date(2025, 6, 1)
CATALOG = load_catalog()
IMCLONE = "What did FDA observe at ImClone Systems?"
KISUNLA = "Why was Kisunla not approved?"
FEI = "What did the 483 for FEI 3001234567 cite?"
MEDIA_FILLS = "Which firms got warning letters for media fills?"


def rare(words: Sequence[str]) -> dict[str, float]:
    """Every word is rare: each one steers."""
    return dict.fromkeys(words, 0.01)


def plan(message: str) -> Plan:
    return plan_message(message, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=rare)


def answered(message: str, documents: Sequence[str] = ("d1",)) -> PriorTurn:
    """A completed turn as the agent leaves it: its plan and the documents it cited."""
    state = turn_state(plan(message), list(documents), [], [])
    return PriorTurn(message, "completed", "answer", [], None, state)


def follow(message: str, *earlier: str) -> Plan:
    history = [answered(m) for m in earlier]
    return plan_turn(
        message, history, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=rare
    )


@pytest.mark.parametrize(
    ("first", "message", "expected"),
    [
        (
            IMCLONE,
            "And what did the 2020 inspection find?",
            {
                "names": ["ImClone Systems"],
                "words": [],  # "inspection" names where to look: the 483s and inspections
                "datasets": ["fda_483", "fda_inspections"],
                "date_from": "2020-01-01",
                "date_to": "2020-12-31",
                "restrict_documents": [],
                "require": [],
            },
        ),
        (
            KISUNLA,
            "What did FDA ask for about ARIA?",
            {
                "names": ["Kisunla"],
                "datasets": ["fda_crl"],
                "phrases": ["amyloid related imaging abnormalities"],
                "date_from": None,
                "restrict_documents": [],
            },
        ),
        (
            FEI,
            "What about sterility?",
            {
                "identifiers": ["3001234567"],
                "words": ["sterility"],
                "datasets": ["fda_483", "fda_inspections"],
            },
        ),
    ],
)
def test_a_short_question_keeps_the_subject_and_takes_its_own_dates_and_words(
    first: str, message: str, expected: dict[str, Any]
) -> None:
    got = plan_fields(follow(message, first))
    assert {k: got[k] for k in expected} == expected


def test_the_previous_turn_s_words_are_replaced_not_kept() -> None:
    got = follow("And what did the 2020 inspection find?", IMCLONE)
    assert "observe" not in got.topic.words


def test_a_capitalised_word_of_the_follow_up_is_a_topic_word_not_a_name() -> None:
    got = follow("What did FDA ask for about ARIA?", KISUNLA)
    assert got.topic.names == ("Kisunla",)
    assert "aria" in got.topic.words
    assert got.topic.weights["aria"] >= got.topic.weights["Kisunla"]
    assert got.query.startswith("Kisunla ")


def test_what_about_another_firm_replaces_the_names() -> None:
    got = follow("What about Baxter?", IMCLONE)
    assert got.topic.names == ("Baxter",)
    assert "imclone" not in " ".join(got.topic.words).lower()
    assert "ImClone" not in got.query


@pytest.mark.parametrize("first", [IMCLONE, KISUNLA, FEI])
def test_a_new_question_naming_a_dataset_is_planned_on_its_own(first: str) -> None:
    assert follow(MEDIA_FILLS, first) == plan(MEDIA_FILLS)


@pytest.mark.parametrize(
    ("first", "message", "expected"),
    [
        (IMCLONE, "And what did the 2020 inspection find?", True),
        (KISUNLA, "What did FDA ask for about ARIA?", True),
        (IMCLONE, MEDIA_FILLS, False),  # names a dataset of its own
        (IMCLONE, "What did the 483 for FEI 3001234567 cite?", False),  # an identifier
        ("media fill failures in warning letters", "What about data integrity?", False),
        (
            IMCLONE,
            "What did FDA say in the letters about the sterility of the products made at the plant",
            False,  # too long to be a short follow-up
        ),
    ],
)
def test_which_questions_continue_the_subject(first: str, message: str, expected: bool) -> None:
    assert continues_subject(message, plan(message), plan(first)) is expected


@pytest.mark.parametrize(
    ("option", "planned"),
    [
        ("Acme Foods (4 documents)", "Acme Foods"),
        ("in 2024 (1,204 documents)", "in 2024"),
        ("21 CFR 211.113 (Control of microbiological contamination; 3 documents)", "21 CFR 211.113"),
        ("listeria", "listeria"),
    ],
)  # fmt: skip
def test_a_reply_to_a_question_drops_the_count_its_option_carried(
    option: str, planned: str
) -> None:
    asked = PriorTurn("Tell me about recalls", "needs_input", "?", [], {"options": [option]}, {})
    reply = plan_turn(
        option, [asked], catalog=CATALOG, plan_name="enterprise", today=TODAY, df=rare
    )
    assert reply.message == f"Tell me about recalls\n{planned}"


@pytest.mark.parametrize(
    "message",
    [
        "And did they get a warning letter afterwards?",
        "Did FDA send a warning letter after that?",
    ],
)
def test_afterwards_opens_the_earlier_period_and_asks_whether_a_document_exists(
    message: str,
) -> None:
    got = follow(message, "What did the 2019 483 for ImClone Systems list?")
    assert got.scope.date_from == "2019-01-01" and got.scope.date_to is None
    assert got.scope.datasets == ("fda_warning_letters",)
    assert got.ask.kind == "absence"
    assert not {"afterwards", "since", "then"} & set(got.topic.words)


def test_a_follow_up_with_its_own_dates_keeps_them_afterwards_or_not() -> None:
    got = follow(
        "After that, did they get a warning letter in 2022?",
        "What did the 2019 483 for ImClone Systems list?",
    )
    assert (got.scope.date_from, got.scope.date_to) == ("2022-01-01", "2022-12-31")


@pytest.mark.parametrize(
    "message",
    [
        "ok - and if we learn new info about an event we already reported, how long do we have "
        "to send it?",
        "thanks. so when it is a 5-day report, what has to be in it and who files it?",
    ],
)
def test_a_question_of_its_own_after_an_opener_asks_rather_than_narrows(message: str) -> None:
    first = "Under FDA's MDR guidance, what's the deadline for a regular MDR vs a 5-day report?"
    assert follow(message, first).follow_up.require == ()


def test_those_that_mention_narrows_whatever_opens_it() -> None:
    assert follow("ok, only those that mention listeria", MEDIA_FILLS).follow_up.require
