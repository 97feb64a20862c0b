"""The extractive answer's invariants on a small corpus: every marker resolves, every passage is
its block's text on the page the reader returns, no sentence of the summary or the findings goes
without a marker, numbers start at the turn's first and parents are page citations."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import regnb
from regnb.agent._markdown import sentence_markdown
from regnb.agent._stages import Evidence, Found, Plan, Searches
from regnb.agent._verify import marker_numbers
from regnb.agent._writer import _pages_cfr
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import Answer, Finding
from regnb.documents.blocks import block_text
from regnb.documents.words import fold_spaces, plain
from tests.agent_support import open_agent_corpus, request

QUESTIONS = [
    "Which sterile drug makers got warning letters for media fill failures since 2018?",
    "Why did FDA issue a complete response letter for NDA 212345?",
    "What did the 483 for FEI 3001234567 cite?",
    "What does FDA guidance say about cybersecurity in premarket submissions?",
    "insulin pump occlusion events in MAUDE",
    "data integrity and audit trails",
    "media fill failures in recalls and warning letters",
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    eng = open_agent_corpus(tmp_path_factory.mktemp("agent"))
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def answers(engine: regnb.Engine) -> dict[str, Answer]:
    agent = ExtractiveAgent(engine, producer=lambda answer, formats: [])
    out = {}
    for question in QUESTIONS:
        req = request(question, first=7)
        out[question] = agent.answer(agent.plan(req), req)
    return out


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_marker_resolves_to_a_citation_of_the_answer(
    answers: dict[str, Answer], question: str
) -> None:
    answer = answers[question]
    indexes = {c.index for c in answer.citations}
    assert marker_numbers(answer.markdown)
    assert set(marker_numbers(answer.markdown)) <= indexes


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_passage_is_its_block_on_the_page_the_reader_returns(
    engine: regnb.Engine, answers: dict[str, Answer], question: str
) -> None:
    passages = [c for c in answers[question].citations if c.block_id is not None]
    assert passages
    for c in passages:
        page = engine.read(c.document_id, c.page_num, c.page_num).page_list[0]["text"]
        assert fold_spaces(c.passage or "") in fold_spaces(page)
        assert fold_spaces(block_text(page, c.block_id)) == fold_spaces(c.passage or "")


@pytest.mark.parametrize("question", QUESTIONS)
def test_no_sentence_of_the_summary_or_the_findings_goes_without_a_marker(
    answers: dict[str, Answer], question: str
) -> None:
    answer = answers[question]
    findings = [*answer.summary, *(f for t in answer.themes for f in t.findings)]
    assert answer.summary
    assert all(f.markers for f in findings)
    bullets = [line for line in answer.markdown.splitlines() if line.startswith("- ")]
    findings_part = re.split(
        r"### (?:Key documents|Every matching document|Scope)", answer.markdown
    )[0]
    for line in [b for b in bullets if b in findings_part]:
        assert re.search(r"(\[\d+\])+[.!?]?$", line), line


@pytest.mark.parametrize("question", QUESTIONS)
def test_each_finding_quotes_a_passage_it_cites(answers: dict[str, Answer], question: str) -> None:
    answer = answers[question]
    by_index = {c.index: c for c in answer.citations}
    for theme in answer.themes:
        for f in theme.findings:
            passages = [plain(by_index[m].passage or "") for m in f.markers]
            assert f.quote is not None
            assert any(plain(f.quote) in p for p in passages)


@pytest.mark.parametrize("question", QUESTIONS)
def test_numbers_start_at_the_turn_s_first_and_parents_are_page_citations(
    answers: dict[str, Answer], question: str
) -> None:
    citations = answers[question].citations
    indexes = sorted(c.index for c in citations)
    assert indexes[0] == 7
    assert len(set(indexes)) == len(indexes)
    by_index = {c.index: c for c in citations}
    for c in citations:
        if c.block_id is None:
            assert c.parent_index is None and c.passage is None
            continue
        parent = by_index[c.parent_index]  # type: ignore[index]
        assert parent.block_id is None
        assert (parent.document_id, parent.page_num) == (c.document_id, c.page_num)
        assert c.name == parent.name and c.url == parent.url


def test_a_which_firms_answer_names_the_firms_first(answers: dict[str, Answer]) -> None:
    answer = answers[QUESTIONS[0]]
    first = answer.summary[0].text
    assert "Acme Sterile Pharma Inc" in first and "Borealis Injectables LLC" in first
    assert "Delta Generics" not in answer.markdown  # its letter is from 2016
    assert any("dated from 2018-01-01" in line for line in answer.scope)


def test_the_key_documents_table_cites_pages(answers: dict[str, Answer]) -> None:
    answer = answers[QUESTIONS[1]]
    assert [d.title for d in answer.documents] == [
        "Complete Response Letter - Zentavir (NDA 212345)"
    ]
    assert answer.documents[0].firm_or_product == "Zentara Bio"
    row = next(line for line in answer.markdown.splitlines() if "Zentavir" in line)
    assert re.search(r"Zentavir \(NDA 212345\) \[\d+\] \| FDA Complete Response Letters \|", row)


def test_a_crl_answer_lists_its_deficiencies_not_its_opening(answers: dict[str, Answer]) -> None:
    text = answers[QUESTIONS[1]].markdown
    assert "cannot approve it in its present form" not in text  # the letter's standard opening
    assert "stability data do not support" in text
    assert "did not show substantial evidence of effectiveness" in text


@pytest.mark.parametrize(
    ("question", "url"),
    [
        (QUESTIONS[3], r"^https://www\.fda\.gov/media/119933/download#page=1$"),
        (QUESTIONS[1], r"^/api/v3/documents/[^?]+\?page_from=1&page_to=1$"),
    ],
)
def test_citation_urls_open_the_source_at_the_page(
    answers: dict[str, Answer], question: str, url: str
) -> None:
    assert all(re.match(url, c.url) for c in answers[question].citations)


def test_datasets_named_without_a_match_are_listed_and_ones_the_corpus_lacks_are_not(
    answers: dict[str, Answer],
) -> None:
    lines = answers[QUESTIONS[6]].not_found
    assert "No match in FDA Recalls, Market Withdrawals and Safety Alerts." in lines
    # the recalls held were searched for "recalls": the enforcement reports the corpus lacks
    # are not the user's concern, and the Scope names only datasets the corpus holds
    assert not any("holds no documents" in line for line in lines)


def test_only_datasets_the_corpus_holds_are_searched_or_reported(
    engine: regnb.Engine, answers: dict[str, Answer]
) -> None:
    held = set(engine.counts()["dataset"])
    absent = [d.name for d in engine.datasets() if d.id not in held]
    answer = answers[QUESTIONS[5]]
    text = " ".join([*answer.scope, *answer.not_found])
    assert absent and answer.scope[0].startswith("Searched ")
    assert not any(name in text for name in absent)


@pytest.mark.parametrize(
    ("question", "lines"),
    [
        (
            "Why did FDA issue a complete response letter for NDA 212345?",
            [
                "Product quality: The drug product stability data do not support the proposed "
                "24-month expiration dating period.",
                "Product quality: The facility inspection of the drug substance manufacturer "
                "found objectionable conditions.",
                "Clinical: The single trial did not show substantial evidence of effectiveness.",
            ],
        ),
        (
            "What did the 483 for FEI 3001234567 cite?",
            [
                "Observation 1: Procedures designed to prevent microbiological contamination of "
                "drug products purporting to be sterile were not established.",
                "Observation 2: Laboratory records did not include complete data.",
            ],
        ),
    ],
)
def test_a_key_document_lists_its_findings_by_heading_in_the_document_s_order(
    answers: dict[str, Answer], question: str, lines: list[str]
) -> None:
    assert answers[question].documents[0].findings == lines


def test_a_which_answer_s_findings_are_not_repeated_under_the_firm_s_name(
    answers: dict[str, Answer],
) -> None:
    answer = answers[QUESTIONS[0]]
    assert [len(d.findings) for d in answer.documents] == [1, 1]
    assert all(d.findings[0].startswith("Violation 1: Your firm failed") for d in answer.documents)


def test_a_document_s_cited_pages_give_its_cfr_sections_when_its_units_give_none() -> None:
    found = Found(
        "d1", "fda_warning_letters", "Warning Letter: Acme", None, None, {}, 1.0, (1, 2), False
    )
    pages = {
        ("d1", 1): "Your firm violated 21 CFR 211.113(b) and 21 CFR 211.192.",
        ("d1", 2): "See also 21 CFR 211.192 and Part 820.",
        ("d2", 1): "21 CFR 314.50",
    }
    evidence = Evidence(Plan("m", "q"), Searches(), [found], [found], [], [], pages=pages)
    assert _pages_cfr(found, [1, 2], evidence) == ["21 CFR 211.113", "21 CFR 211.192"]
    assert _pages_cfr(found, [3], evidence) == []


@pytest.mark.parametrize(
    ("text", "stop", "expected"),
    [
        ("Both documents cite 21 CFR 211.22", ".", "Both documents cite 21 CFR 211.22 [2][3]."),
        ("Both documents cite 21 CFR 211.22", "", "Both documents cite 21 CFR 211.22 [2][3]"),
        ("It lists 3 violations.", ".", "It lists 3 violations [2][3]."),
        ("Was it a repeat?", ".", "Was it a repeat [2][3]?"),
    ],
)
def test_a_sentence_keeps_its_stop_after_its_markers(text: str, stop: str, expected: str) -> None:
    assert sentence_markdown(Finding(text=text, markers=[2, 3]), stop=stop) == expected
