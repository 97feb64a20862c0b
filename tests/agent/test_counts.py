"""Exact counts for answers (regnb.agent._counts): documents matched over every full match by
dataset, year and CFR section; terms counted within a firm's documents; every matching document
of a "which…" question; and the agent's answers that show them as data, not as findings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import regnb
from regnb.agent._counts import (
    asked_terms,
    condition_terms,
    count_choices,
    count_matches,
    counted_words,
    exact,
    list_matches,
    presence,
    presence_terms,
    specific,
    term_documents,
)
from regnb.agent._stages import Plan, Scope, Topic
from regnb.agent.agent import ExtractiveAgent
from regnb.errors import RegnbError
from tests.agent_support import Recorder, flat_plan, open_agent_corpus, request

LETTERS = "fda_warning_letters"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    eng = open_agent_corpus(tmp_path_factory.mktemp("counts"))
    yield eng
    eng.close()


def filters_of(engine: regnb.Engine) -> Any:
    catalog = engine.datasets()
    return lambda ds: catalog[ds].filters


def media_fill(**more: Any) -> Plan:
    question = "Which firms had media fill failures?"
    return flat_plan(question, question, phrases=["media fill"], datasets=[LETTERS], **more)


@pytest.mark.parametrize(
    ("phrases", "words", "names", "terms"),
    [
        (["electrical reset"], ["reset", "noise", "electrical"], ["LINQ II"], ["electrical reset", "noise"]),
        ([], ["noise"], [], ["noise"]),
        (["media fill"], ["acme", "media"], ["Acme"], ["media fill"]),
        ([], ["a", "b", "c", "d", "e"], [], ["a", "b", "c", "d"]),
    ],
)  # fmt: skip
def test_the_terms_counted_are_the_phrases_then_the_words_outside_them(
    phrases: list[str], words: list[str], names: list[str], terms: list[str]
) -> None:
    plan = Plan(
        "m", "m", topic=Topic(phrases=tuple(phrases), words=tuple(words), names=tuple(names))
    )
    assert asked_terms(plan) == terms


@pytest.mark.parametrize(
    ("message", "names", "words", "terms"),
    [
        ("Any deaths or patient injuries in the reports on LINQ II?", ["LINQ II"], [], ["deaths", "injuries"]),
        ("Did Acme's 2019 483 include any observation about media fills?", ["Acme"], ["media", "fills", "observation"], ["media fills"]),
        ("Did FDA have safety or efficacy concerns with Zorvax in its CRL?", ["Zorvax"], ["safety", "efficacy", "concerns"], ["safety", "efficacy"]),
        ("Was the letter to Acme about manufacturing/CGMP problems?", ["Acme"], ["manufacturing", "cgmp", "problems"], ["manufacturing", "cgmp"]),
        ("Did FDA inspect Acme before sending the 2025 letter?", ["Acme"], ["inspect", "sending"], ["inspect"]),
    ],
)  # fmt: skip
def test_what_an_absence_question_asks_the_documents_is_its_condition_not_its_framing(
    message: str, names: list[str], words: list[str], terms: list[str]
) -> None:
    plan = Plan(message, message, topic=Topic(words=tuple(words), names=tuple(names)))
    assert presence_terms(plan) == terms
    assert condition_terms(plan) == [t for t in terms if t != "inspect"]


def test_counts_are_over_every_match_by_dataset_and_year(engine: regnb.Engine) -> None:
    tally = count_matches(engine, media_fill(), "enterprise", filters_of(engine), str)
    assert tally is not None
    assert tally.total == 2
    assert [(c.value, c.documents) for c in tally.datasets] == [(LETTERS, 2)]
    assert [(c.value, c.documents) for c in tally.years] == [("2019", 1), ("2021", 1)]
    assert "“media fill”" in tally.counted
    assert tally.terms == ()


def test_dates_bound_the_counts(engine: regnb.Engine) -> None:
    tally = count_matches(
        engine, media_fill(date_from="2020-01-01"), "enterprise", filters_of(engine), str
    )
    assert tally is not None and tally.total == 1


def test_terms_are_counted_within_a_firms_documents(engine: regnb.Engine) -> None:
    plan = media_fill(filters={LETTERS: {"company": "Acme Sterile Pharma Inc"}})
    tally = count_matches(
        engine, plan, "enterprise", filters_of(engine), str, terms=["media fill", "audit trail"]
    )
    assert tally is not None
    assert tally.total == 1  # the filter chooses the documents
    assert [(c.value, c.documents) for c in tally.terms] == [("media fill", 1), ("audit trail", 0)]
    assert counted_words(plan, LETTERS, filters_of(engine)).startswith("every document with")


def test_every_matching_document_is_listed_newest_first_with_its_firm(
    engine: regnb.Engine,
) -> None:
    listing = list_matches(engine, media_fill(), "enterprise", filters_of(engine), limit=10)
    assert listing is not None
    assert listing.total == 2
    assert [(m.firm, m.date) for m in listing.rows] == [
        ("Acme Sterile Pharma Inc", "2021-03-04"),
        ("Borealis Injectables LLC", "2019-06-10"),
    ]


def test_a_listing_keeps_the_total_when_it_shows_fewer(engine: regnb.Engine) -> None:
    listing = list_matches(engine, media_fill(), "enterprise", filters_of(engine), limit=1)
    assert listing is not None and listing.total == 2 and len(listing.rows) == 1


def test_a_terms_examples_hold_the_term(engine: regnb.Engine) -> None:
    plan = media_fill()
    found = term_documents(engine, plan, "enterprise", filters_of(engine), "audit trail", 2)
    assert [f.fields.get("company") for f in found] == ["Cobalt Labs Inc"]


class NoCounts:
    """An engine whose counts fail: the agent answers without them."""

    def __init__(self, engine: regnb.Engine) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def facets(self, *args: Any, **kwargs: Any) -> Any:
        raise RegnbError("no counts here")

    def matches(self, *args: Any, **kwargs: Any) -> Any:
        raise RegnbError("no matches here")


def test_counts_that_fail_are_left_out(engine: regnb.Engine) -> None:
    assert (
        count_matches(NoCounts(engine), media_fill(), "enterprise", filters_of(engine), str) is None
    )  # type: ignore[arg-type]
    assert list_matches(NoCounts(engine), media_fill(), "enterprise", filters_of(engine), 5) is None  # type: ignore[arg-type]


def answer(agent: ExtractiveAgent, message: str) -> str:
    recorder = Recorder()
    result = agent.run(request(message), recorder.report, recorder.stopped)
    assert result.status == "completed"
    return result.answer or ""


def test_a_which_answer_lists_every_matching_document_and_says_how_many(
    engine: regnb.Engine,
) -> None:
    text = answer(ExtractiveAgent(engine), "Which firms got warning letters for media fill?")
    assert "### Every matching document (2 found)" in text
    assert "2 documents matched the question" in text
    listed = text.split("### Every matching document")[1]
    assert "Acme Sterile Pharma Inc" in listed and "Borealis Injectables LLC" in listed


def test_a_count_answer_gives_exact_counts_per_year_and_says_what_was_counted(
    engine: regnb.Engine,
) -> None:
    text = answer(ExtractiveAgent(engine), "How many warning letters mention media fill per year?")
    assert "### Matching documents per year" in text
    assert "| 2019 | 1 |" in text and "| 2021 | 1 |" in text
    assert "Counted over every match, not only the documents read" in text


def test_an_answer_without_counts_still_answers(engine: regnb.Engine) -> None:
    agent = ExtractiveAgent(NoCounts(engine))  # type: ignore[arg-type]
    text = answer(agent, "Which firms got warning letters for media fill?")
    assert "Every matching document" not in text
    assert "[1]" in text


@pytest.mark.parametrize(
    ("items", "kept"),
    [
        (["sterile drug", "media fill", "failures"], ["sterile drug", "media fill"]),
        (["failures", "sterility"], ["failures", "sterility"]),
        (["fda", "sterility"], ["sterility"]),
        (["fda"], ["fda"]),
    ],
)
def test_counts_and_listings_hold_documents_to_the_specific_items(items, kept):
    assert specific(items) == kept


def fields_of(engine: regnb.Engine) -> Any:
    catalog = engine.datasets()
    return lambda ds: catalog[ds].fields


def test_choices_count_every_match_by_dataset_year_and_firm(engine: regnb.Engine) -> None:
    plan = Plan("recalls", "recalls", scope=Scope(datasets=("fda_recalls", LETTERS)))
    choices = count_choices(engine, plan, "enterprise", filters_of(engine), fields_of(engine))
    assert choices is not None
    assert [(c.value, c.documents) for c in choices.datasets] == [
        ("fda_recalls", 32),
        (LETTERS, 4),
    ]
    assert choices.total == 36
    assert sum(c.documents for c in choices.years) == 36
    assert ("2021", 2) in [(c.value, c.documents) for c in choices.years]  # a recall, a letter
    assert ("Acme Sterile Pharma Inc", 1) in [(c.value, c.documents) for c in choices.firms]
    assert "(other)" not in [c.value for c in choices.firms]


def test_choices_that_fail_are_left_out(engine: regnb.Engine) -> None:
    plan = Plan("recalls", "recalls", scope=Scope(datasets=("fda_recalls",)))
    assert (
        count_choices(NoCounts(engine), plan, "enterprise", filters_of(engine), fields_of(engine))  # type: ignore[arg-type]
        is None
    )


def test_a_fixed_expression_is_listed_as_a_phrase() -> None:
    plan = Plan("m", "q", topic=Topic(phrases=("research use only",), words=("peptides",)))
    assert exact("research use only", plan) == '"research use only"'
    assert exact("peptides", plan) == "peptides"
    assert exact("glp peptides", plan) == "glp peptides"  # words the question put together


def test_presence_is_counted_in_the_first_dataset_that_holds_the_name(
    engine: regnb.Engine,
) -> None:
    """ "Was Borealis turned down over media fills?": the letters are further down the datasets
    searched than the approvals, which hold nothing of Borealis."""
    question = "Was Borealis Injectables cited over media fill?"
    plan = Plan(
        question,
        question,
        topic=Topic(words=("media", "fill"), phrases=("media fill",), names=("Borealis",)),
        scope=Scope(datasets=("fda_drug", "fda_guidance", LETTERS)),
    )
    held = presence(engine, plan, "enterprise", filters_of(engine))
    assert held is not None
    assert held.dataset == LETTERS and held.documents >= 1
    assert [(c.value, c.documents >= 1) for c in held.terms] == [("media fill", True)]


@pytest.mark.parametrize(
    ("words", "terms"),
    [
        (["ask", "another", "trial"], ["trial"]),  # "did the CRL ask for another trial?"
        (["turned", "down", "sterility"], ["sterility"]),  # "…turned down over sterility?"
        (["application", "rejected", "safety", "reasons"], ["safety"]),
    ],
)
def test_the_words_that_frame_a_refusal_are_not_what_is_asked(
    words: list[str], terms: list[str]
) -> None:
    plan = Plan("m", "m", topic=Topic(words=tuple(words), names=("Zorvax",)))
    assert presence_terms(plan) == terms
