"""Verification drops what fails and renumbers nothing: a passage that is not its block's text on
the page, a marker that resolves to nothing, a sentence its citations do not back."""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest

import regnb
from regnb.agent._verify import marker_numbers, passage_holds, supported, verify_answer
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import Answer, Finding, SourcedCitation, Theme
from tests.agent_support import open_agent_corpus, request

QUESTION = "Which sterile drug makers got warning letters for media fill failures since 2018?"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    eng = open_agent_corpus(tmp_path_factory.mktemp("verify"))
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def draft(engine: regnb.Engine) -> Answer:
    """An answer as the writer left it, before verification."""
    agent = ExtractiveAgent(engine)
    req = request(QUESTION)
    plan = agent.prepare(agent.plan(req), req).plan
    return agent.writer.write(agent.draft(agent.research(plan, req), req))


def passages(answer: Answer) -> list[SourcedCitation]:
    return [c for c in answer.citations if c.block_id is not None]


def changed(answer: Answer, citation: SourcedCitation, **changes: Any) -> SourcedCitation:
    """The answer's citation replaced by a copy with `changes` (citations are frozen)."""
    new = dataclasses.replace(citation, **changes)
    answer.citations[:] = [new if c is citation else c for c in answer.citations]
    return new


def bullets(answer: Answer) -> list[Finding]:
    return [f for t in answer.themes for f in t.findings]


def test_a_sound_answer_keeps_everything(engine: regnb.Engine, draft: Answer) -> None:
    verified, report = verify_answer(copy.deepcopy(draft), engine, "enterprise")
    assert report.bad_citations == [] and report.dropped_sentences == []
    assert [c.index for c in verified.citations] == [c.index for c in draft.citations]
    assert verified.markdown == draft.markdown


def test_a_passage_changed_after_writing_is_dropped_with_its_sentences(
    engine: regnb.Engine, draft: Answer
) -> None:
    answer = copy.deepcopy(draft)
    target = passages(answer)[0]
    target = changed(answer, target, passage=(target.passage or "") + " and the firm was closed.")
    verified, report = verify_answer(answer, engine, "enterprise")
    assert report.bad_citations == [target.index]
    assert target.index not in {c.index for c in verified.citations}
    assert target.index not in marker_numbers(verified.markdown)
    assert all(target.index not in f.markers for f in [*verified.summary, *bullets(verified)])
    kept = sorted(c.index for c in verified.citations)
    assert kept == sorted(c.index for c in draft.citations if c.index != target.index)


def test_a_passage_that_is_on_the_page_but_not_its_block_is_dropped(
    engine: regnb.Engine, draft: Answer
) -> None:
    answer = copy.deepcopy(draft)
    target = changed(answer, passages(answer)[0], block_id="¶1")
    _, report = verify_answer(answer, engine, "enterprise")
    assert report.bad_citations == [target.index]


def test_a_marker_that_resolves_to_nothing_drops_its_sentence(
    engine: regnb.Engine, draft: Answer
) -> None:
    answer = copy.deepcopy(draft)
    answer.themes.append(Theme("Made up", [Finding("Nothing backs this.", [999])]))
    verified, report = verify_answer(answer, engine, "enterprise")
    assert report.dropped_sentences == ["Nothing backs this."]
    assert "Made up" not in verified.markdown


def test_a_marker_of_an_earlier_turn_resolves(engine: regnb.Engine, draft: Answer) -> None:
    answer = copy.deepcopy(draft)
    earlier = dataclasses.replace(passages(draft)[0], index=900)
    sentence = Finding(f"Acme Sterile Pharma Inc: “{earlier.passage}”", [900], earlier.passage)
    answer.themes.append(Theme("Earlier", [sentence]))
    verified, _ = verify_answer(answer, engine, "enterprise", prior=[earlier])
    assert "[900]" in verified.markdown
    assert 900 not in {c.index for c in verified.citations}


def test_a_sentence_that_adds_words_no_citation_backs_is_dropped(
    engine: regnb.Engine, draft: Answer
) -> None:
    answer = copy.deepcopy(draft)
    first = next(f for f in [*bullets(answer), *answer.summary] if f.quote)
    first.text = first.text.replace(":", " was fined ten million dollars:", 1)
    verified, report = verify_answer(answer, engine, "enterprise")
    assert first.text in report.dropped_sentences
    assert "fined" not in verified.markdown


def test_a_document_whose_page_cannot_be_read_leaves_the_table(
    engine: regnb.Engine, draft: Answer
) -> None:
    answer = copy.deepcopy(draft)
    gone = answer.documents[0]
    answer.citations[:] = [
        dataclasses.replace(c, document_id="no-such-document")
        if c.document_id == gone.document_id
        else c
        for c in answer.citations
    ]
    verified, _ = verify_answer(answer, engine, "enterprise")
    assert gone.document_id not in {d.document_id for d in verified.documents}
    assert gone.document_id not in {c.document_id for c in verified.citations}
    listed = verified.markdown.split("### Every matching document")
    before = listed[0]
    assert gone.title not in before  # no finding or key document names it
    rows = [line for line in "".join(listed[1:]).splitlines() if gone.title in line]
    assert all(not re.search(r"\[\d+\]", row) for row in rows)  # a listed row, data only


def citation(passage: str, block_id: str = "¶2") -> SourcedCitation:
    return SourcedCitation(
        1,
        "T, page 1",
        "D",
        None,
        1,
        "u",
        block_id,
        0,
        document_id="d",
        dataset_id="x",
        passage=passage,
    )


PAGE = "First block here.\n\nSecond   block\nwraps here.\n\nThird block."


@pytest.mark.parametrize(
    ("passage", "block_id", "holds"),
    [
        ("Second block wraps here.", "¶2", True),
        ("Second block\n   wraps here.", "¶2", True),
        ("Second block wraps here. Third block.", "¶2-3", True),
        ("Second block", "¶2", False),
        ("Second block wraps here.", "¶3", False),
        ("Second block wraps here.", "¶9", False),
        ("Second block wraps there.", "¶2", False),
    ],
)
def test_a_passage_holds_when_it_is_its_block_range_on_the_page(
    passage: str, block_id: str, holds: bool
) -> None:
    assert passage_holds(PAGE, citation(passage, block_id)) is holds


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The stability data do not support the expiration dating period.", True),
        ("Stability data supported the dating period for Zentara Bio.", True),
        ("The firm was fined and its chief executive resigned.", False),
        ("", False),
    ],
)
def test_a_written_sentence_must_share_most_words_with_what_it_cites(
    text: str, expected: bool
) -> None:
    cited = [
        citation(
            "The drug product stability data do not support the proposed 24-month "
            "expiration dating period."
        )
    ]
    assert supported(Finding(text, [1]), cited, {"d": "Zentara Bio"}) is expected
