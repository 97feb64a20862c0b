"""The documents a question is about: those whose firm, product or title fields hold a name the
message gives, or an identifier (never a CFR section); copies of a record kept once; and the
guidance whose title is what a question without names asks about."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from regnb.agent._focus import (
    MAX_SUBJECTS,
    distinct_documents,
    holds_name,
    leading_guidance,
    subject_documents,
    titled_documents,
    titles_by_meaning,
)
from regnb.agent._plan import plan_message
from regnb.agent._stages import Found, Plan, Topic
from regnb.catalog import load_catalog

TODAY = dt.date(2025, 6, 1)
CATALOG = load_catalog()
CYBER_TITLE = (
    "Cybersecurity in Medical Devices: Quality System Considerations and Content of Premarket "
    "Submissions: Guidance for Industry and Food and Drug Administration Staff"
)
EXCIPIENTS_TITLE = (
    "FDA Guidance: Nonclinical Studies for the Safety Evaluation of Pharmaceutical Excipients"
)


def rare(words: Sequence[str]) -> dict[str, float]:
    """Every word is rare: each one steers."""
    return dict.fromkeys(words, 0.01)


def plan(message: str) -> Plan:
    return plan_message(message, catalog=CATALOG, plan_name="enterprise", today=TODAY, df=rare)


def found(
    doc: str,
    *,
    dataset: str = "fda_warning_letters",
    title: str | None = None,
    date: str | None = "2021-01-01",
    weak: bool = False,
    **fields: Any,
) -> Found:
    return Found(doc, dataset, title or f"Document {doc}", date, None, fields, 1.0, (1,), weak)


def ids(documents: Sequence[Found]) -> list[str]:
    return [d.document_id for d in documents]


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Acme Sterile Pharma, Inc.", "Acme Sterile Pharma Inc", True),
        ("Borealis Injectables Inc", "Borealis Injectables LLC", True),
        ("Warning Letter: Johnson & Johnson Consumer", "Johnson & Johnson", True),
        ("Acme Foods", "Acme Sterile Pharma", False),
        ("Inc", "Inc", False),  # a name of nothing but a suffix names nothing
    ],
)
def test_a_name_is_held_when_every_word_is_company_suffixes_aside(
    text: str, name: str, expected: bool
) -> None:
    assert holds_name(text, name) is expected


CANDIDATES = [
    found("letter-acme", company="Acme Sterile Pharma, Inc."),
    found("483-acme", dataset="fda_483", facility_name="ACME STERILE PHARMA LLC"),
    found("crl-kisunla", dataset="fda_crl", company="Eli Lilly", product_name="Kisunla"),
    found("maude-vita", dataset="fda_maude", title="MAUDE MDR 1234567-2022-00001 - Vita Pump"),
    found("crl-zentavir", dataset="fda_crl", application_number="212345", company="Zentara Bio"),
    found("483-fei", dataset="fda_483", fei_number="3001234567", facility_name="Other Plant"),
    found(
        "letter-cfr",
        title="Warning Letter citing 21 CFR 211.192 (Delta Generics)",
        company="Delta Generics",
        cfr="21 CFR 211.192",
    ),
    found("letter-other", company="Borealis Injectables LLC"),
]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the firm field, company suffixes aside, in any dataset
        ("What did FDA find at Acme Sterile Pharma Inc?", ["letter-acme", "483-acme"]),
        ("Why was Kisunla not approved?", ["crl-kisunla"]),  # the product field
        ("What happened with the Vita Pump?", ["maude-vita"]),  # the title
        ("Why did FDA issue a complete response letter for NDA 212345?", ["crl-zentavir"]),
        ("What did the 483 for FEI 3001234567 cite?", ["483-fei"]),
        ("Which letters cited 21 CFR 211.192?", []),  # a CFR section names no document
        ("What did FDA find at Gamma Biologics?", []),
        ("media fill failures", []),  # no name and no guidance titled so
    ],
)
def test_subject_documents_are_those_the_message_names(message: str, expected: list[str]) -> None:
    assert ids(subject_documents(CANDIDATES, plan(message))) == expected


def test_a_cfr_identifier_is_never_matched_even_in_a_field_that_holds_it() -> None:
    kinds = {"21 CFR 211.192": "cfr", "212345": "application"}
    cited = Plan("m", "q", topic=Topic(identifiers=tuple(kinds), identifier_kinds=kinds))
    assert ids(subject_documents(CANDIDATES, cited)) == ["crl-zentavir"]


@pytest.mark.parametrize(
    ("weak", "expected"),
    [
        ((False, True, False), ["a", "c"]),  # strong matches only
        ((True, False, True), ["b"]),
        ((True, True, True), ["a", "b", "c"]),  # only loosened matches: those, then
    ],
)
def test_strong_matches_are_preferred_over_loosened_ones(
    weak: tuple[bool, bool, bool], expected: list[str]
) -> None:
    documents = [
        found(doc, company="Acme Sterile Pharma Inc", date=f"202{i}-01-01", weak=w)
        for i, (doc, w) in enumerate(zip("abc", weak, strict=True))
    ]
    assert ids(subject_documents(documents, plan("What about Acme Sterile Pharma?"))) == expected


def test_at_most_max_subjects_documents_are_the_subject() -> None:
    documents = [
        found(f"d{i}", company="Acme Sterile Pharma Inc", date=f"20{10 + i}-01-01")
        for i in range(MAX_SUBJECTS + 3)
    ]
    got = subject_documents(documents, plan("What about Acme Sterile Pharma?"))
    assert ids(got) == [f"d{i}" for i in range(MAX_SUBJECTS)]


def test_what_was_found_at_a_firm_is_its_inspections_and_letters_first() -> None:
    documents = [
        found(f"approval{i}", dataset="fda_drug", sponsor="Acme Sterile Pharma Inc")
        for i in range(MAX_SUBJECTS)
    ] + [
        found("483", dataset="fda_483", facility_name="Acme Sterile Pharma Inc"),
        found("letter", company="Acme Sterile Pharma Inc"),
    ]
    finds = subject_documents(documents, plan("What did FDA find at Acme Sterile Pharma?"))
    assert ids(finds)[:2] == ["483", "letter"]
    about = subject_documents(documents, plan("What about Acme Sterile Pharma?"))
    assert ids(about) == [f"approval{i}" for i in range(MAX_SUBJECTS)]  # the search's order


@pytest.mark.parametrize(
    ("second", "kept"),
    [
        (found("b", company="ACME Sterile Pharma Inc", date="2021-03-04"), ["a"]),
        (found("b", company="Acme Sterile Pharma, Inc.", date="2021-03-04", weak=True), ["a"]),
        (found("b", company="Acme Sterile Pharma Inc", date="2022-03-04"), ["a", "b"]),
        (
            found("b", dataset="fda_483", facility_name="Acme Sterile Pharma", date="2021-03-04"),
            ["a", "b"],
        ),
        (found("b", company="Borealis Injectables LLC", date="2021-03-04"), ["a", "b"]),
    ],
)
def test_a_record_held_twice_is_kept_once_the_first(second: Found, kept: list[str]) -> None:
    first = found("a", company="Acme Sterile Pharma Inc", date="2021-03-04")
    assert ids(distinct_documents([first, second])) == kept


def test_records_without_a_firm_are_told_apart_by_title() -> None:
    same = [found(d, dataset="fda_guidance", title="Process Validation", date=None) for d in "ab"]
    other = found("c", dataset="fda_guidance", title="Data Integrity", date=None)
    assert ids(distinct_documents([*same, other])) == ["a", "c"]


def test_a_title_with_its_date_in_parentheses_is_the_same_record_as_without_when_asked() -> None:
    plain = found(
        "a", dataset="fda_483", title="FDA Form 483 - Edge Pharma, LLC", date="2020-03-30"
    )
    dated = replace(plain, document_id="b", title="FDA Form 483 - Edge Pharma, LLC (2020-03-30)")
    later = replace(dated, document_id="c", date="2021-05-01")
    assert ids(distinct_documents([plain, dated, later], undated=True)) == ["a", "c"]
    assert ids(distinct_documents([plain, dated, later])) == ["a", "b", "c"]  # both read


GUIDANCE = [
    found("process", dataset="fda_guidance", title="Process Validation: General Principles"),
    found("cyber", dataset="fda_guidance", title=CYBER_TITLE),
    found("excipients", dataset="fda_guidance", title=EXCIPIENTS_TITLE),
    found(
        "excipients-copy",  # the same guidance held twice: kept once
        dataset="fda_guidance",
        title=EXCIPIENTS_TITLE,
    ),
    found(
        "stability",
        dataset="fda_guidance",
        title="FDA Guidance: Stability Testing of Drug Substances: Guidance for Industry",
    ),
    found("letter", title="Cybersecurity in Premarket Submissions and Nonclinical Excipients"),
]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("What does FDA recommend for cybersecurity in premarket submissions?", ["cyber"]),
        (
            "What does FDA guidance say about nonclinical studies of pharmaceutical excipients?",
            ["excipients"],
        ),
        ("What does FDA guidance say about stability testing of drug substances?", ["stability"]),
        ("What does FDA recommend about sterile drug media fills?", []),
        ("What does FDA recommend for cybersecurity?", []),  # one word tells no title apart
    ],
)
def test_the_guidance_titled_as_the_question_is_found(message: str, expected: list[str]) -> None:
    assert ids(titled_documents(GUIDANCE, plan(message))) == expected


def test_a_question_without_names_is_about_the_guidance_titled_so() -> None:
    got = subject_documents(GUIDANCE, plan("cybersecurity in premarket submissions"))
    assert ids(got) == ["cyber"]


@pytest.mark.parametrize(
    "candidate",
    [
        found("letter", title=CYBER_TITLE),  # a warning letter, not a guidance
        found("loose", dataset="fda_guidance", title=CYBER_TITLE, weak=True),
    ],
)
def test_only_a_strong_guidance_match_is_titled(candidate: Found) -> None:
    question = plan("What does FDA recommend for cybersecurity in premarket submissions?")
    assert titled_documents([candidate], question) == []


def _embedding(nearness: dict[str, float]):
    """A fake encoder: the question at (1, 0), each title at its given cosine with it."""

    def embed(texts: Sequence[str]) -> np.ndarray:
        rows = [[1.0, 0.0]]
        for text in texts[1:]:
            c = nearness[text]
            rows.append([c, (1 - c * c) ** 0.5])
        return np.array(rows, np.float32)

    return embed


DELAYS = "Circumstances that Constitute Delaying, Denying, Limiting, or Refusing a Drug Inspection"
MEETINGS = "Procedures for Meetings of the Medical Devices Advisory Committee"
ASKED = "If a plant keeps the investigator waiting, can FDA treat its products as adulterated?"


@pytest.mark.parametrize(
    ("nearness", "expected"),
    [
        ({DELAYS: 0.38, MEETINGS: 0.29}, ["d"]),  # near, and ahead of the next
        ({DELAYS: 0.38, MEETINGS: 0.36}, []),  # near, but not clearly the one
        ({DELAYS: 0.25, MEETINGS: 0.05}, []),  # ahead, but not near
    ],
)
def test_a_guidance_whose_title_means_the_question_is_its_subject_when_words_fail(
    nearness: dict[str, float], expected: list[str]
) -> None:
    docs = [
        found("m", dataset="fda_guidance", title=f"{MEETINGS}: Guidance for Industry"),
        found("d", dataset="fda_guidance", title=f"{DELAYS}: Guidance for Industry"),
        found("w", dataset="fda_warning_letters", title="Warning Letter: Acme"),
    ]
    assert ids(titles_by_meaning(docs, plan(ASKED), _embedding(nearness))) == expected


def test_a_rare_code_the_question_names_titles_the_guidance_on_it() -> None:
    on_517a = found("q517a", dataset="fda_guidance", title="CDRH Appeals Processes: About 517A")
    other = found("review", dataset="fda_guidance", title="Types of Communication During Review")
    question = plan("Under 517A how long do we have to ask for supervisory review?")
    question = replace(question, topic=replace(question.topic, weights={"517a": 6.4}))
    assert ids(titled_documents([other, on_517a], question)) == ["q517a"]


@pytest.mark.parametrize(
    ("first", "message", "expected"),
    [
        # the search's first guidance, its title sharing what is asked: the subject
        (
            "Pyrogen and Endotoxins Testing: Questions and Answers",
            "endotoxin testing: can we pool units?",
            ["g"],
        ),
        # a first guidance whose title shares nothing of the question is no subject
        ("Process Validation: General Principles", "endotoxin testing: can we pool units?", []),
        # a list of guidance has no one subject
        ("Pyrogen and Endotoxins Testing", "Which guidances cover endotoxin testing?", []),
    ],
)
def test_the_first_guidance_found_is_the_subject_when_its_title_shares_the_question(
    first: str, message: str, expected: list[str]
) -> None:
    docs = [found("g", dataset="fda_guidance", title=first), found("w", title="Warning Letter")]
    assert ids(leading_guidance(docs, plan(message))) == expected


def test_a_leading_document_that_is_no_guidance_is_no_guidance_subject() -> None:
    docs = [found("w", title="Endotoxin testing at Acme"), found("g", dataset="fda_guidance")]
    assert leading_guidance(docs, plan("endotoxin testing: can we pool units?")) == []
