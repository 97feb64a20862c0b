"""Planning a message: identifiers, phrases, names, weighted words, datasets, dates, formats; and
follow-ups planned against the earlier turns."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

import pytest

import regnb
from regnb.agent._dates import find_dates
from regnb.agent._followup import plan_turn, turn_state
from regnb.agent._plan import plan_message, searchable_datasets
from regnb.agent._stages import Plan
from regnb.agent.types import PriorTurn
from regnb.catalog import load_catalog
from tests.agent_support import agent_corpus, plan_fields

TODAY = dt.date(2025, 6, 1)
CATALOG = load_catalog()
COMMON = {"failures": 0.4, "drug": 0.6, "observations": 0.3}


def fake_df(words: Sequence[str]) -> dict[str, float]:
    """Most words are rare; a few match a large share of pages."""
    return {w: COMMON.get(w.lower(), 0.01) for w in words}


def plan(message: str, plan_name: str = "enterprise", **kwargs: Any) -> Plan:
    return plan_message(message, catalog=CATALOG, plan_name=plan_name, today=TODAY, df=fake_df)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "Which sterile drug makers got warning letters for media fill failures since 2018? "
            "Put the letters in an Excel table.",
            {
                "phrases": ["sterile drug", "media fill"],
                "datasets": ["fda_warning_letters"],
                "date_from": "2018-01-01",
                "date_to": None,
                "formats": ["xlsx"],
                "which_firms": True,
            },
        ),
        (
            "Which CRLs cited 21 CFR 211.113(b) between 2019 and 2022?",
            {
                "identifiers": ["21 CFR 211.113(b)"],
                "datasets": ["fda_crl"],
                "date_from": "2019-01-01",
                "date_to": "2022-12-31",
            },
        ),
        (
            "What did the 483 for FEI 3001234567 cite?",
            {
                "identifiers": ["3001234567"],
                "datasets": ["fda_483", "fda_inspections"],
                "words": [],
            },
        ),
        (
            "NDA 212345 deficiencies",
            {"identifiers": ["212345"], "words": ["deficiencies"], "named_datasets": ["fda_crl"]},
        ),
        ("Trials like NCT01234567 and K123456", {"identifiers": ["NCT01234567", "K123456"]}),
        (
            "What did Abbott Diabetes Care get a warning letter for?",
            {"names": ["Abbott Diabetes Care"], "datasets": ["fda_warning_letters"]},
        ),
        (
            "MAUDE reports about the LINQ II Insertable Cardiac Monitor in the last 5 years",
            {
                "names": ["LINQ II Insertable Cardiac Monitor"],
                "datasets": ["fda_maude"],
                "date_from": "2020-06-01",
            },
        ),
        ("Johnson & Johnson recalls", {"names": ["Johnson & Johnson"]}),
        ("What did FDA say about Happiest Baby's sleep sacks?", {"names": ["Happiest Baby"]}),
        ("Why didn't FDA approve Tyenne?", {"names": ["Tyenne"], "words": ["approve"]}),
        (
            "What does FDA guidance say about data integrity and cleaning validation?",
            {
                "phrases": ["cleaning validation", "data integrity"],
                "datasets": ["fda_guidance"],
                "words": [],
            },
        ),
        ("Out-of-specification results in 483s", {"phrases": ["out of specification", "oos"]}),
        (
            "Observations about sterility in late 2019, with a chart per year",
            {
                "words": ["sterility"],
                "formats": ["png"],
                "date_from": "2019-09-01",
                "date_to": "2019-12-31",
            },
        ),
        ("Write a report on media fills", {"formats": ["text"], "phrases": ["media fills"]}),
        (
            "Warning letters about media fills: a Word document and slides",
            {"formats": ["docx", "pptx"]},
        ),
        ("warning letters that mention a recall", {"datasets": ["fda_warning_letters"]}),
        ("Tell me about recalls", {"datasets": ["fda_recalls", "fda_recall_enforcement"]}),
        ("adverse events with insulin pumps", {"datasets": ["fda_maude"]}),  # a device's
        (
            "Which inspections were classified OAI?",
            {"filters": {"fda_inspections": {"classification": "OAI"}}},
        ),
        (
            "Phase 3 trials in obesity",
            {"filters": {"fda_clinical_trials": {"phase": "phase3"}}},
        ),
        (
            "Class I recalls of BP monitors",
            {"filters": {"fda_recall_enforcement": {"classification": "Class I"}}},
        ),
        (
            "Class II recalls",
            {"filters": {"fda_recall_enforcement": {"classification": "Class II"}}},
        ),
        ("MAUDE reports of death with pumps", {"filters": {"fda_maude": {"event_type": "death"}}}),
        ("completed trials of other drugs", {"filters": {}}),
    ],
)
def test_a_message_is_planned_into_items_datasets_dates_and_formats(
    message: str, expected: dict[str, Any]
) -> None:
    got = plan_fields(plan(message))
    assert {k: got[k] for k in expected} == expected


def test_words_on_a_large_share_of_pages_do_not_steer() -> None:
    got = plan("drug failures observations about sterility and endotoxin")
    assert got.topic.words == ("sterility", "endotoxin")
    assert got.topic.weights["sterility"] > 4


def test_no_dataset_named_means_every_dataset_the_plan_can_search() -> None:
    free = plan("sterility assurance", plan_name="free")
    assert list(free.scope.datasets) == searchable_datasets(CATALOG, "free")
    assert "fda_crl" not in free.scope.datasets
    assert "fda_crl" in plan("sterility assurance").scope.datasets


def test_a_named_dataset_the_plan_cannot_search_is_kept_aside() -> None:
    got = plan("complete response letters about stability", plan_name="free")
    assert got.scope.datasets == ()
    assert got.scope.unsearchable == {"fda_crl": "forbidden"}


def test_a_dataset_named_by_its_display_name_is_planned() -> None:
    got = plan("sterility in FDA Enforcement Reports")
    assert got.scope.datasets == ("fda_recall_enforcement",)


def test_a_plan_survives_json() -> None:
    import json

    original = plan("Which firms got warning letters for media fills since 2018?")
    assert Plan.from_dict(json.loads(json.dumps(original.to_dict()))) == original


@pytest.mark.parametrize(
    ("text", "date_from", "date_to"),
    [
        ("since 2018", "2018-01-01", None),
        ("after 2018", "2019-01-01", None),
        ("in 2021", "2021-01-01", "2021-12-31"),
        ("between 2019 and 2022", "2019-01-01", "2022-12-31"),
        ("from 2015 to 2016", "2015-01-01", "2016-12-31"),
        ("2019-2022", "2019-01-01", "2022-12-31"),
        ("before 2020", None, "2019-12-31"),
        ("until 2020", None, "2020-12-31"),
        ("in the last 5 years", "2020-06-01", None),
        ("over the past two years", "2023-06-01", None),
        ("in the last 6 months", "2024-12-01", None),
        ("in the last year", "2024-06-01", None),
        ("late 2019", "2019-09-01", "2019-12-31"),
        ("early 2020", "2020-01-01", "2020-04-30"),
        ("March 2021", "2021-03-01", "2021-03-31"),
        ("since March 2021", "2021-03-01", None),
        ("this year", "2025-01-01", None),
        ("2023 letters", "2023-01-01", "2023-12-31"),
    ],
)
def test_dates_a_message_asks_for(text: str, date_from: str | None, date_to: str | None) -> None:
    found = find_dates(f"warning letters {text} about sterility", TODAY)
    assert found is not None
    assert (found.date_from, found.date_to) == (date_from, date_to)


@pytest.mark.parametrize(
    ("message", "date_from", "date_to"),
    [
        ("Did Edge get a warning letter after FDA's early-2020 inspection?", "2020-01-01", None),
        ("Any recalls following its March 2021 483?", "2021-03-01", None),
        ("What happened since the 2018 audit?", "2018-01-01", None),
        # the date of what is asked about, not of an event it followed
        ("Which 2019 inspections were followed by a letter?", "2019-01-01", "2019-12-31"),
        ("After review, what did the 2019 inspection find?", "2019-01-01", "2019-12-31"),
    ],
)
def test_a_date_of_an_event_asked_what_came_after_opens_the_range(
    message: str, date_from: str, date_to: str | None
) -> None:
    found = find_dates(message, TODAY)
    assert found is not None
    assert (found.date_from, found.date_to) == (date_from, date_to)


@pytest.mark.parametrize("text", ["21 CFR 211.113(b)", "FEI 3001234567", "no dates here"])
def test_identifiers_are_not_read_as_dates(text: str) -> None:
    assert find_dates(text, TODAY) is None


def completed(message: str, documents: list[str], firms: list[str]) -> PriorTurn:
    first = plan(message)
    return PriorTurn(
        message, "completed", "answer", [], None, turn_state(first, documents, firms, [])
    )


def follow(message: str, history: list[PriorTurn]) -> Plan:
    return plan_turn(
        message, history, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=fake_df
    )


FIRST = "Which sterile drug makers got warning letters for media fill failures since 2018?"


def test_only_those_in_a_place_narrows_the_previous_documents() -> None:
    history = [completed(FIRST, ["d1", "d2"], ["Acme", "Borealis"])]
    got = follow("Only those in California", history)
    assert got.follow_up.restrict_documents == ("d1", "d2")
    assert got.scope.places_in == ("US-CA",)  # where the firms are, not a word of their pages
    assert got.follow_up.require == ()
    assert got.topic.phrases == ("sterile drug", "media fill")
    assert got.scope.datasets == ("fda_warning_letters",)
    assert got.ask.formats == ()


def test_since_replaces_the_dates_and_keeps_the_topic() -> None:
    got = follow("since 2020", [completed(FIRST, ["d1"], [])])
    assert (got.scope.date_from, got.scope.date_to) == ("2020-01-01", None)
    assert got.topic.phrases == ("sterile drug", "media fill")
    assert got.follow_up.restrict_documents == ()


def test_put_them_in_a_spreadsheet_reuses_the_plan_and_asks_for_a_file() -> None:
    got = follow("Put them in a spreadsheet", [completed(FIRST, ["d1", "d2"], [])])
    assert got.ask.formats == ("xlsx",)
    assert got.follow_up.restrict_documents == ("d1", "d2")
    assert got.follow_up.require == ()


def test_only_an_enum_value_adds_a_filter_to_the_previous_plan() -> None:
    first = "Why were BP monitors recalled?"
    got = follow("Only Class I", [completed(first, ["d1"], [])])
    assert got.scope.filters == {"fda_recall_enforcement": {"classification": "Class I"}}
    assert got.scope.datasets == ("fda_recalls", "fda_recall_enforcement")


def test_more_skips_every_document_cited_so_far() -> None:
    history = [completed(FIRST, ["d1"], []), completed(FIRST, ["d2"], [])]
    got = follow("more", history)
    assert got.follow_up.exclude_documents == ("d1", "d2")


def test_what_about_switches_the_topic_and_keeps_datasets_and_dates() -> None:
    got = follow("What about data integrity?", [completed(FIRST, ["d1"], [])])
    assert got.topic.phrases == ("data integrity",)
    assert got.scope.datasets == ("fda_warning_letters",)
    assert got.scope.date_from == "2018-01-01"


def test_a_new_question_in_the_same_conversation_is_planned_on_its_own() -> None:
    got = follow("Which guidance covers cybersecurity?", [completed(FIRST, ["d1"], [])])
    assert got.scope.datasets == ("fda_guidance",)
    assert got.topic.phrases == ()
    assert got.scope.date_from is None


def test_a_reply_to_a_question_is_planned_with_the_question_s_message() -> None:
    asked = PriorTurn(
        "Tell me about recalls",
        "needs_input",
        "Which topic?",
        [],
        {"question": "Which topic?", "options": []},
        {"plan": plan("Tell me about recalls").to_dict()},
    )
    got = follow("listeria since 2015", [asked])
    assert got.scope.datasets == ("fda_recalls", "fda_recall_enforcement")
    assert got.topic.words == ("listeria",)
    assert got.scope.date_from == "2015-01-01"


def test_planning_reads_document_frequency_from_a_real_index(
    make_engine: Callable[..., regnb.Engine],
) -> None:
    engine = make_engine(agent_corpus())
    got = plan_message(
        "recall of products because of listeria and the voluntary recall",
        catalog=engine.datasets(),
        plan_name="enterprise",
        today=TODAY,
        df=engine.document_frequency,
    )
    # "voluntary" and "products" are on every recall page of this corpus: they steer nothing
    assert "listeria" in got.topic.words
    assert "voluntary" not in got.topic.words


@pytest.mark.parametrize(
    "message",
    [
        "Which device warning letters cite ISO 13485 clauses under the new QMSR instead of the QS reg?",
        "Do 483s still cite the QSR after the QMSR took effect?",
    ],
)
def test_a_regulation_spelled_short_is_the_topic_never_a_name(message: str) -> None:
    got = plan(message)
    assert not {"QMSR", "QS", "QSR"} & set(got.topic.names)
