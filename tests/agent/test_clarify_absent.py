"""A message naming a dataset the corpus holds no documents of: the agent says so and offers the
datasets it holds, with their document counts; a weak dataset word ("trials") whose dataset is
absent is a word of the topic, searched in the datasets held."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import regnb
from regnb.agent._clarify import absent
from regnb.agent._stages import Plan, Scope
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import TurnResult
from regnb.settings import Settings
from tests.agent_support import prior, request
from tests.conftest import doc

NAMES = {
    "fda_recalls": "FDA Recalls",
    "fda_recall_enforcement": "FDA Enforcement Reports",
    "fda_clinical_trials": "Clinical Trials",
    "fda_warning_letters": "FDA Warning Letters",
    "fda_483": "FDA Form 483",
    "fda_maude": "FDA MAUDE",
    "fda_guidance": "FDA Guidance",
}


def name(dataset: str) -> str:
    return NAMES[dataset]


def named(*datasets: str) -> Plan:
    return Plan("m", "q", scope=Scope(named_datasets=datasets))


@pytest.mark.parametrize(
    ("datasets", "opening"),
    [
        (["fda_recalls"], "This corpus holds no documents of FDA Recalls."),
        (
            ["fda_recalls", "fda_recall_enforcement"],
            "This corpus holds no documents of FDA Recalls and FDA Enforcement Reports.",
        ),
        (
            ["fda_recalls", "fda_recall_enforcement", "fda_clinical_trials"],
            "This corpus holds no documents of FDA Recalls, FDA Enforcement Reports and "
            "Clinical Trials.",
        ),
    ],
)
def test_the_question_names_every_dataset_the_corpus_lacks(
    datasets: list[str], opening: str
) -> None:
    asked = absent(named(*datasets), {"fda_483": 3}, name)
    assert asked["question"].startswith(opening)
    assert asked["question"].endswith("Which of the datasets it holds should I search instead?")


@pytest.mark.parametrize(
    ("held", "options"),
    [
        (
            {"fda_483": 3, "fda_warning_letters": 12, "fda_maude": 7},
            [
                "FDA Warning Letters (12 documents)",
                "FDA MAUDE (7 documents)",
                "FDA Form 483 (3 documents)",
            ],
        ),
        (  # equal counts: in the order of their ids
            {"fda_warning_letters": 4, "fda_483": 4},
            ["FDA Form 483 (4 documents)", "FDA Warning Letters (4 documents)"],
        ),
    ],
)
def test_the_options_are_the_datasets_held_most_documents_first(
    held: dict[str, int], options: list[str]
) -> None:
    assert absent(named("fda_recalls"), held, name)["options"] == options


def test_at_most_six_datasets_are_offered() -> None:
    held = {f"ds{i}": 10 + i for i in range(9)}
    options = absent(named("fda_recalls"), held, lambda ds: ds.upper())["options"]
    assert options == [f"DS{i} ({10 + i} documents)" for i in range(8, 2, -1)]


def test_a_dataset_of_one_document_is_offered_in_the_singular() -> None:
    asked = absent(named("fda_recalls"), {"fda_483": 1}, name)
    assert asked["options"] == ["FDA Form 483 (1 document)"]


def corpus() -> dict[str, list[dict[str, Any]]]:
    """Warning letters, 483s and MAUDE reports: no recalls, no clinical trials."""
    letters = [
        doc(
            f"Warning Letter: {firm}",
            [
                f"WARNING LETTER\n\n1. Your firm failed to validate the {topic} (21 CFR 211.100). "
                f"{firm} released batches made before the validation was complete."
            ],
            date=date,
            fields={"company": firm},
        )
        for firm, topic, date in [
            ("Orrin Pharma Inc", "tablet compression process", "2022-05-05"),
            ("Pellan Labs LLC", "sterilization cycle of the autoclave", "2023-07-12"),
            ("Sorvik Generics Ltd", "cleaning of the blender", "2020-01-30"),
        ]
    ]
    forms = [
        doc(
            f"FDA Form 483 - {firm}",
            [f"OBSERVATION 1\n\nProcedures for {topic} were not written or followed."],
            date="2021-09-09",
            fields={"facility_name": firm},
        )
        for firm, topic in [("Orrin Pharma Inc", "line clearance"), ("Tamsin Devices", "CAPA")]
    ]
    reports = [
        doc(
            "MAUDE MDR 7654321-2023-00012 - Corvel Insulin Pump",
            [
                "IT WAS REPORTED THAT THE INSULIN PUMP STOPPED DELIVERING INSULIN AFTER AN "
                "OCCLUSION ALARM. THE PATIENT WAS TREATED FOR HYPERGLYCEMIA. THE PUMP WAS "
                "RETURNED AND A BLOCKED CANNULA WAS FOUND."
            ],
            date="2023-03-03",
            fields={"brand_name": "Corvel Insulin Pump", "manufacturer": "Corvel Medical"},
        ),
        doc(
            "MAUDE MDR 7654321-2024-00031 - Lumen Pulse Oximeter",
            ["IT WAS REPORTED THAT THE OXIMETER DISPLAYED NO READING DURING SURGERY."],
            date="2024-06-06",
            fields={"brand_name": "Lumen Pulse Oximeter", "manufacturer": "Lumen Devices"},
        ),
    ]
    return {"fda_warning_letters": letters, "fda_483": forms, "fda_maude": reports}


HELD = [
    "FDA Warning Letters (3 documents)",
    "FDA Form 483 Inspection Observations (2 documents)",
    "FDA MAUDE Device Adverse Event Reports (2 documents)",
]


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ExtractiveAgent]:
    root: Path = tmp_path_factory.mktemp("absent")
    regnb.write_corpus(root / "corpus", corpus(), encoder=regnb.HashingEncoder(), progress=False)
    settings = Settings(**{**Settings.from_env().__dict__, "home": root / "home"})
    engine = regnb.Engine(
        root / "corpus", encoder=regnb.HashingEncoder(), settings=settings, progress=False
    )
    yield ExtractiveAgent(engine, producer=lambda answer, formats: [])
    engine.close()


def run(agent: ExtractiveAgent, message: str, history: list[Any] | None = None) -> TurnResult:
    return agent.run(request(message, history), lambda steps: None, lambda: False)


@pytest.mark.parametrize(
    ("message", "lacking"),
    [
        (
            "tell me about recalls",
            "FDA Recalls, Market Withdrawals and Safety Alerts and FDA Enforcement Reports",
        ),
        ("Which enforcement reports mention listeria?", "FDA Enforcement Reports"),
        ("clinicaltrials.gov studies of insulin pumps", "Clinical Trials (ClinicalTrials.gov)"),
    ],
)
def test_a_message_naming_a_dataset_the_corpus_lacks_asks_which_it_holds(
    agent: ExtractiveAgent, message: str, lacking: str
) -> None:
    result = run(agent, message)
    assert result.status == "needs_input"
    assert result.question is not None
    assert result.question["question"].startswith(f"This corpus holds no documents of {lacking}.")
    assert result.question["options"] == HELD
    assert result.answer == result.question["question"]
    assert result.citations == []


def test_choosing_a_dataset_offered_answers_from_it(agent: ExtractiveAgent) -> None:
    asked = run(agent, "tell me about recalls")
    assert asked.question is not None
    option = asked.question["options"][0]
    reply = run(agent, option, [prior("tell me about recalls", asked)])
    assert reply.status == "completed"
    assert reply.citations
    assert {c.dataset for c in reply.citations} == {"FDA Warning Letters"}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("insulin pump trials", "Corvel Insulin Pump"),
        ("trials of tablet compression process validation", "Orrin Pharma Inc"),
    ],
)
def test_a_weak_dataset_word_whose_dataset_is_absent_searches_the_datasets_held(
    agent: ExtractiveAgent, message: str, expected: str
) -> None:
    planned = agent.plan(request(message))
    assert planned.scope.named_datasets == ()
    assert set(planned.scope.datasets) == {"fda_warning_letters", "fda_483", "fda_maude"}
    result = run(agent, message)
    assert result.status == "completed"
    assert result.question is None
    assert expected in (result.answer or "")
    assert "holds no documents" not in (result.answer or "")


@pytest.mark.parametrize(
    "message",
    [
        "How should the autoclave sterilization cycle be validated before a recall is needed?",
        "Should an insulin pump occlusion be listed in an enforcement report?",
        "What's the fix for an insulin pump occlusion that an enforcement report lists?",
    ],
)
def test_a_kind_of_document_named_inside_a_question_about_something_else_is_answered(
    agent: ExtractiveAgent, message: str
) -> None:
    """ "When can a change go in as a Special 510(k)?" asks about the program, not for 510(k)
    decisions: the datasets held are searched, and the Scope says the kind named is not held."""
    result = run(agent, message)
    assert result.status == "completed"
    assert result.citations
    assert "this corpus holds no documents of it" in result.answer
