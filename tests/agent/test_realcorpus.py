"""The research agent on the real documents of ../shared/data/realcorpus (warning letters, 483s,
complete response letters, guidance, MAUDE): analyst questions, each with the documents an analyst
would expect (tests/agent_questions.py). The expected documents must be cited in at least 90% of
the answers, and every passage citation must be its block's text on the page the reader returns."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator

import pytest

import regnb
import regnb.ingest
from regnb.agent._verify import marker_numbers
from regnb.agent.agent import ExtractiveAgent, run_turn
from regnb.agent.types import TurnResult
from regnb.documents.blocks import block_text
from regnb.documents.words import fold_spaces
from tests import paths
from tests.agent_questions import FILES, QUESTIONS, Expect, Question
from tests.research_benchmark import real_engine, shared_folder

SHARED = paths.SHARED_DATA
REAL = SHARED / "realcorpus"

pytestmark = [
    pytest.mark.shared_data,
    pytest.mark.skipif(not REAL.exists(), reason=f"real corpus not found at {REAL}"),
]


def _key(title: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", fold_spaces(title).lower())


def expected_titles(expect: Expect) -> set[str]:
    """Titles of the realcorpus records an expectation names (read at test time, never copied)."""
    out = set()
    for name in FILES:
        if not name.startswith(expect.file_prefix):
            continue
        with gzip.open(REAL / name, "rt", encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if expect.value.lower() in str(record.get(expect.key) or "").lower():
                    out.add(_key(record["title"]))
    return out


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    eng = real_engine(tmp_path_factory.mktemp("realcorpus"), shared=shared_folder(tmp_path_factory))
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def answers(engine: regnb.Engine) -> list[tuple[Question, TurnResult]]:
    agent = ExtractiveAgent(engine, producer=lambda answer, formats: [])
    return [(q, run_turn(agent, q.text)) for q in QUESTIONS]


def test_there_are_at_least_twenty_questions_with_known_documents() -> None:
    assert len(QUESTIONS) >= 20
    for question in QUESTIONS:
        for expect in question.expect:
            assert expected_titles(expect), f"{expect} names no record"


def test_the_expected_documents_are_cited_in_nine_answers_of_ten(
    answers: list[tuple[Question, TurnResult]],
) -> None:
    misses = []
    for question, result in answers:
        assert result.status == "completed", question.text
        cited = {_key(c.name.rsplit(", page", 1)[0]) for c in result.citations}
        found = sum(1 for e in question.expect if expected_titles(e) & cited)
        if found < question.need:
            misses.append(f"{question.text!r}: {found} of {question.need} expected cited")
    share = 1 - len(misses) / len(answers)
    assert share >= 0.9, "\n".join(misses)


def test_every_passage_citation_verifies_through_the_reader(
    engine: regnb.Engine, answers: list[tuple[Question, TurnResult]]
) -> None:
    checked = 0
    for question, result in answers:
        by_index = {c.index: c for c in result.citations}
        assert set(marker_numbers(result.answer or "")) <= set(by_index), question.text
        for c in result.citations:
            if c.block_id is None:
                continue
            page = engine.read(c.document_id, c.page_num, c.page_num).page_list[0]["text"]
            assert fold_spaces(c.passage or "") in fold_spaces(page), question.text
            assert fold_spaces(block_text(page, c.block_id)) == fold_spaces(c.passage or ""), (
                question.text
            )
            parent = by_index[c.parent_index]  # type: ignore[index]
            assert (parent.document_id, parent.page_num, parent.block_id) == (
                c.document_id,
                c.page_num,
                None,
            )
            checked += 1
    assert checked >= 3 * len(answers)
