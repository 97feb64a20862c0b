"""The regulatory research benchmark (benchmarks/research/questions.json, scored by
tests/research_benchmark.py): the scorer on hand-made answers; the benchmark's data against the
real documents of ../shared/data/realcorpus (both halves, dev and sealed); and the 50 dev
questions the agent was tuned on, with the hashing encoder, held to the floors below (today's
figures, a little lower: raise them as the agent improves)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator

import pytest

import regnb
import regnb.ingest
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import SourcedCitation, Step, TurnRequest, TurnResult
from regnb.documents.blocks import split_blocks
from tests.research_benchmark import (
    FILES,
    HALVES,
    KINDS,
    QUESTIONS_PATH,
    REAL,
    BenchQuestion,
    EngineReader,
    Expect,
    Records,
    Score,
    by_half,
    contains,
    conversation,
    first_paragraph,
    is_salutation,
    load_questions,
    real_engine,
    score_answer,
    shared_folder,
    summarise,
    title_key,
)

# The 50 questions of FLOOR_QUESTIONS (the whole benchmark before its split into a dev and a
# sealed half) with the hashing encoder. The agent before the structure-aware answers
# (2026-11-26): gold-fact recall 0.47, expected documents cited 0.86, 5 boilerplate passages
# cited, other documents in single-document answers 3.1 on average and 10 at most. With them:
# recall 0.73, expected 0.98, 2 boilerplate passages, 0.7 others on average and 2 at most. With
# a guidance's outline, comparisons of years apart and fixed expressions as phrases: recall 0.81,
# expected 0.98, no boilerplate, 0.6 others on average and 2 at most. The floors sit a little below today's figures, so that the test catches regressions; raise them
# as the agent improves (the targets are in tests/research_benchmark.py: recall 0.80, expected
# 0.95, no boilerplate, at most 3 others).
FLOORS = {
    "gold_recall": 0.80,  # at least (the target)
    "expected_cited": 0.94,  # at least
    "boilerplate_cited": 0,  # at most (the target)
    "verified": 1.0,  # at least
    "single_extra_mean": 1.0,  # at most
    "single_extra_max": 3,  # at most (the target)
}

# The floors are held on the 50 questions the agent was tuned on (all in the dev half, the ones
# the benchmark had before it was split): the whole benchmark with both halves is for
# benchmarks/bench_research.py, and the floors test's time does not grow with it.
FLOOR_QUESTIONS = frozenset(
    {
        *("wl-brenntag", "wl-abbott-diabetes", "wl-carolina-infusion", "wl-apothecary-first-air"),
        *("crl-eylea-hd", "crl-dsuvia", "crl-paragard", "crl-repatha", "483-nubratori"),
        *("483-hospira-2020", "maude-linq-death", "wl-biosensors-mdr", "wl-unomedical"),
        *("which-media-fill-failures", "which-smoke-studies", "which-hand-sanitizer"),
        *("which-ruo-peptides", "which-mdr-reporting", "which-supplement-specs"),
        *("which-483-disinfectants", "multi-abbott", "multi-endotoxin", "multi-methanol"),
        *("multi-glp1-compounders", "guid-cyber-spdf", "guid-pccp-ai", "guid-dct", "guid-ots"),
        *("guid-recalls", "guid-excipients", "guid-part11", "guid-csa", "cmp-intas", "cmp-vyalev"),
        *("cmp-soluprep", "cmp-fy2019-devices-drugs", "cmp-imclone", "cmp-abbott-beta-bionics"),
        *("count-capa-fy2019", "count-drugs-fy2019-top", "count-fsvp-fy2019"),
        *("count-sato-media-fills", "count-linq-noise", "count-carto-map-shift"),
        *("fu-baxter-cleaning", "fu-media-fill-2026", "fu-kisunla-aria", "fu-cyber-sbom"),
        *("fu-imclone-2020", "fu-sanitizer-methanol"),
    }
)

shared = pytest.mark.shared_data
needs_real = pytest.mark.skipif(not REAL.exists(), reason=f"real corpus not found at {REAL}")


# --------------------------------------------------------------------------- the scorer


PAGE = (
    "Dear Dr. Smith:\n\n"
    "Please refer to your application dated May 1, 2020.\n\n"
    "The stability program failed to include the 36-month time point.\n\n"
    "Your firm did not validate the sterilization cycle for the vials.\n\n"
    "Sincerely, the Division Director"
)
OTHER = "An unrelated letter about hand sanitizer.\n\nIt says nothing about stability."


class FakeReader:
    """Pages and titles by document id, as an engine would return them."""

    def __init__(self) -> None:
        self.pages = {("doc-a", 1): PAGE, ("doc-b", 1): OTHER}
        self.titles = {
            "doc-a": "Complete Response Letter - Examplex",
            "doc-b": "Warning Letter: Other",
        }

    def page(self, document_id: str, page_num: int) -> str:
        return self.pages[(document_id, page_num)]

    def title(self, document_id: str) -> str:
        return self.titles[document_id]


def block(page: str, number: int) -> str:
    b = split_blocks(page)[number - 1]
    return page[b.start : b.end]


def cite(index: int, doc: str, number: int | None, passage: str | None = None) -> SourcedCitation:
    page = FakeReader().pages[(doc, 1)]
    return SourcedCitation(
        index=index,
        name=f"{doc}, page 1",
        dataset="FDA Complete Response Letters",
        date=None,
        page_num=1,
        url="",
        document_id=doc,
        dataset_id="fda_crl",
        block_id=None if number is None else f"¶{number}",
        parent_index=None if number is None else 1,
        passage=None if number is None else (passage or block(page, number)),
    )


QUESTION = BenchQuestion(
    id="toy",
    kind="single",
    turns=["Why was Examplex not approved?"],
    expect=[Expect("fda_crl__", "title", "Examplex")],
    need=1,
    gold=[
        ["failed to include the 36-month time point"],  # in a cited passage only
        ["did not validate the sterilization cycle"],  # on the page, in no cited passage
        ["a missing REMS", "risk evaluation and mitigation strategy"],  # in the answer only
    ],
    boilerplate=["Please refer to your application"],
)
TITLES = [{title_key("Complete Response Letter - Examplex")}]


def answer(text: str, citations: list[SourcedCitation]) -> TurnResult:
    return TurnResult(status="completed", answer=text, citations=citations)


def test_a_fact_counts_in_a_cited_passage_or_the_answer_but_not_in_an_uncited_one() -> None:
    result = answer(
        "Examplex was not approved [2]. FDA also asked for a Risk Evaluation and Mitigation "
        "Strategy.",
        [cite(1, "doc-a", None), cite(2, "doc-a", 3)],
    )
    score = score_answer(QUESTION, result, FakeReader(), TITLES)
    assert score.facts == [True, False, True]
    assert score.recall == pytest.approx(2 / 3)
    assert (score.expected_found, score.expected_ok, score.documents) == (1, True, 1)
    assert (score.passages, score.verified, score.extra_documents) == (1, 1, 0)
    assert score.boilerplate == []


def test_facts_are_read_from_the_page_not_from_the_citation_s_stored_text() -> None:
    forged = cite(2, "doc-a", 1, passage="Your firm did not validate the sterilization cycle.")
    score = score_answer(QUESTION, answer("See [2].", [forged]), FakeReader(), TITLES)
    assert score.facts == [False, False, False]
    assert (score.passages, score.verified) == (1, 0)


def test_boilerplate_passages_and_salutations_are_counted() -> None:
    citations = [
        cite(1, "doc-a", None),
        cite(2, "doc-a", 1),  # "Dear Dr. Smith:" — a salutation
        cite(3, "doc-a", 2),  # "Please refer to your application ..." — listed furniture
        cite(4, "doc-a", 4),  # a finding
        cite(5, "doc-b", 1),  # another document's text
    ]
    score = score_answer(QUESTION, answer("[2][3][4][5]", citations), FakeReader(), TITLES)
    assert score.boilerplate == ["doc-a p1 ¶1", "doc-a p1 ¶2"]
    assert (score.documents, score.extra_documents, score.verified) == (2, 1, 4)
    assert score.facts == [False, True, False]


def test_matching_folds_case_whitespace_and_punctuation() -> None:
    assert contains("the  Quality\nUnit failed", "quality unit FAILED")
    assert contains("in “dwell time” and", 'in "dwell time" and')
    assert contains("tests (21 CFR 211.84(d)(1)).", "21 CFR 211.84(d)(1)")
    assert contains("Review-by-exception, in short", "review by exception")
    assert not contains("reviewing", "review by")
    assert contains("systems that were 45\noperational before", "systems that were operational")
    assert not contains("Frequency: 31 2", "Frequency: 312")
    assert not contains("shown in 12 figures", "shown in figures 12")


def test_a_question_for_input_scores_nothing() -> None:
    asked = TurnResult(status="needs_input", answer="Which years?", citations=[])
    score = score_answer(QUESTION, asked, FakeReader(), TITLES)
    assert (score.facts, score.expected_found, score.passages) == ([False] * 3, 0, 0)


class EchoAgent:
    """Answers every message with one citation numbered from `first_citation`."""

    def __init__(self) -> None:
        self.requests: list[TurnRequest] = []

    def run(
        self,
        request: TurnRequest,
        report: Callable[[list[Step]], None],
        stopped: Callable[[], bool],
    ) -> TurnResult:
        self.requests.append(request)
        c = cite(request.first_citation, "doc-a", None)
        return TurnResult(
            "completed", request.message.upper(), [c], state={"n": len(self.requests)}
        )


def test_turns_are_asked_as_one_conversation() -> None:
    agent = EchoAgent()
    results = list(conversation(agent, ["first", "second", "third"], today=dt.date(2026, 1, 2)))
    assert [r.answer for r in results] == ["FIRST", "SECOND", "THIRD"]
    first, second, third = agent.requests
    assert [len(r.history) for r in agent.requests] == [0, 1, 2]
    assert [r.first_citation for r in agent.requests] == [1, 2, 3]
    assert (third.history[0].message, third.history[0].answer) == ("first", "FIRST")
    assert third.history[1].state == {"n": 2} and third.history[1].citations[0].index == 2
    assert second.today == dt.date(2026, 1, 2) and first.plan == "enterprise"


def test_the_overall_figures() -> None:
    def made(kind: str, facts: list[bool], found: int, boiler: int, extra: int) -> Score:
        return Score(
            id=kind,
            kind=kind,
            status="completed",
            need=1,
            expected_found=found,
            facts=facts,
            boilerplate=["x"] * boiler,
            documents=extra + found,
            extra_documents=extra,
            passages=4,
            verified=3,
            single_document=kind == "single",
            seconds=[1.0, 3.0],
        )

    scores = [made("single", [True, False], 1, 1, 4), made("which", [True, True], 0, 0, 2)]
    figures = summarise(scores)
    assert figures["gold_recall"] == pytest.approx(0.75)
    assert figures["expected_cited"] == pytest.approx(0.5)
    assert (figures["boilerplate_cited"], figures["single_extra_max"]) == (1, 4)
    assert figures["verified"] == pytest.approx(0.75)
    assert (figures["turns"], figures["turn_p50_s"], figures["turn_p95_s"]) == (4, 2.0, 3.0)


def test_the_first_paragraph_is_the_markdown_before_the_first_blank_line() -> None:
    text = "**In short:** No warning letter.\nOnly a 483 [1].\n\n## Details\n\nMore."
    assert first_paragraph(text) == "No warning letter.\nOnly a 483 [1]."
    assert first_paragraph("  **In short:**\n\nNone of them.\n \nLater.") == "None of them."
    assert first_paragraph("One paragraph only") == "One paragraph only"


ABSENT = BenchQuestion(
    id="toy-absence",
    kind="absence",
    turns=["Did FDA send Examplex's maker a warning letter?"],
    expect=[Expect("fda_crl__", "title", "Examplex")],
    need=1,
    gold=[["failed to include the 36-month time point"]] * 3,
    boilerplate=["Please refer to your application"],
    half="sealed",
    lead=[["no warning letter", "did not find"], ["complete response"]],
)


def test_the_lead_is_read_from_the_first_paragraph_only() -> None:
    def lead_of(text: str) -> bool | None:
        return score_answer(
            ABSENT, answer(text, [cite(1, "doc-a", None)]), FakeReader(), TITLES
        ).lead_ok

    assert lead_of("**In short:** There is NO warning letter; only a Complete Response letter.")
    assert not lead_of("Examplex got a complete response letter.\n\nThere is no warning letter.")
    assert not lead_of("I did not find one.")  # the second fact is missing
    assert score_answer(QUESTION, answer("Yes.", []), FakeReader(), TITLES).lead_ok is None
    asked = TurnResult(status="needs_input", answer="Which letter?", citations=[])
    assert score_answer(ABSENT, asked, FakeReader(), TITLES).lead_ok is False


def test_lead_share_answer_words_and_the_halves() -> None:
    def made(half: str, lead_ok: bool | None, words: int, status: str = "completed") -> Score:
        return Score(
            id=half,
            kind="absence",
            status=status,
            need=1,
            expected_found=1,
            facts=[True],
            boilerplate=[],
            documents=1,
            extra_documents=0,
            passages=1,
            verified=1,
            single_document=True,
            half=half,
            lead_ok=lead_ok,
            words=words,
        )

    scores = [
        made("dev", True, 100),
        made("dev", None, 300),
        made("sealed", False, 900),
        made("sealed", True, 500),
        made("sealed", None, 0, status="needs_input"),
    ]
    figures = summarise(scores)
    assert (figures["lead_questions"], figures["lead_ok"]) == (3, pytest.approx(2 / 3))
    assert figures["answer_words_p50"] == 400  # completed answers only
    halves = by_half(scores)
    assert list(halves) == ["dev", "sealed"]
    assert (halves["dev"]["questions"], halves["dev"]["lead_ok"]) == (2, 1.0)
    assert (halves["sealed"]["lead_ok"], halves["sealed"]["answer_words_p50"]) == (0.5, 700)
    assert summarise([made("dev", None, 10)])["lead_ok"] == 1.0  # no question has a lead
    assert (
        score_answer(QUESTION, answer("one two  three\nfour", []), FakeReader(), TITLES).words == 4
    )


# --------------------------------------------------------------------------- the data


@pytest.fixture(scope="module")
def records() -> Records:
    return Records(REAL, FILES)


def test_the_questions_are_well_formed() -> None:
    questions = load_questions(QUESTIONS_PATH)
    assert len(questions) >= 40
    assert len({q.id for q in questions}) == len(questions)
    assert {q.kind for q in questions} == set(KINDS)
    followups = [q for q in questions if q.kind == "followup"]
    assert len(followups) >= 4 and all(len(q.turns) >= 2 for q in followups)
    for q in questions:
        assert q.turns and all(t.strip() for t in q.turns), q.id
        assert 1 <= q.need <= len(q.expect), q.id
        assert 3 <= len(q.gold) <= 6, q.id
        assert all(fact for fact in q.gold), q.id
        for phrase in [alt for fact in q.gold for alt in fact]:
            assert 3 <= len(phrase.split()) <= 10, (q.id, phrase)
        assert len(q.boilerplate) <= 4, q.id
        for expect in q.expect:
            assert any(expect.file.startswith(f.split("__")[0]) for f in FILES), (q.id, expect)
        assert q.half in HALVES, (q.id, q.half)
        for fact in q.lead:  # the first paragraph must hold one phrase of each lead fact
            assert fact and all(isinstance(a, str) and a.strip() for a in fact), (q.id, fact)
    absence = [q for q in questions if q.kind == "absence"]
    assert absence and all(q.lead for q in absence)


def test_the_benchmark_is_split_into_a_dev_and_a_sealed_half() -> None:
    questions = load_questions(QUESTIONS_PATH)
    halves = {half: [q for q in questions if q.half == half] for half in HALVES}
    assert len(halves["dev"]) >= 70 and len(halves["sealed"]) >= 70
    assert FLOOR_QUESTIONS.issubset(q.id for q in halves["dev"])  # what the agent was tuned on
    for kind in KINDS:  # the draw is stratified by kind
        assert any(q.kind == kind for q in halves["sealed"]), kind
    raw = json.loads(QUESTIONS_PATH.read_text(encoding="utf-8"))["questions"]
    assert all(q.get("half") in HALVES for q in raw), "every question names its half"


@shared
@needs_real
@pytest.mark.parametrize("question", load_questions(QUESTIONS_PATH), ids=lambda q: q.id)
def test_every_phrase_is_in_an_expected_document(question: BenchQuestion, records: Records) -> None:
    for expect in question.expect:
        assert records.matching(expect), f"{expect} names no record"
    pages = records.pages(question)
    for phrase in [alt for fact in question.gold for alt in fact] + question.boilerplate:
        assert any(contains(page, phrase) for page in pages), phrase
    for page in pages:  # furniture must sit in blocks of its own: citing a finding never counts
        for b in split_blocks(page):
            text = page[b.start : b.end]
            if is_salutation(text) or any(contains(text, f) for f in question.boilerplate):
                fused = [alt for fact in question.gold for alt in fact if contains(text, alt)]
                assert not fused, f"a gold phrase shares a furniture block: {fused}"
    # letters, guidance and MAUDE reports have furniture of their own; 483 OCR pages, the FY2019
    # catalog and enforcement-report records have none (one structured page per record)
    bare = ("fda_483", "fda_recall_enforcement")
    furnished = any(not e.file.startswith(bare) for e in question.expect)
    assert not furnished or len(question.boilerplate) >= 2, "list 2-4 furniture phrases"


# --------------------------------------------------------------------------- the benchmark


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    eng = real_engine(tmp_path_factory.mktemp("research"), shared=shared_folder(tmp_path_factory))
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def scores(engine: regnb.Engine, records: Records) -> list[Score]:
    agent = ExtractiveAgent(engine, producer=lambda answer, formats: [])
    reader = EngineReader(engine)
    out = []
    for question in load_questions(QUESTIONS_PATH):
        if question.id not in FLOOR_QUESTIONS:
            continue
        *_, last = conversation(agent, question.turns)
        titles = [records.titles(e) for e in question.expect]
        out.append(score_answer(question, last, reader, titles))
    return out


@shared
@needs_real
def test_the_benchmark_holds_its_floors(scores: list[Score]) -> None:
    figures = summarise(scores)
    report = "\n".join(
        f"{s.id}: facts {sum(s.facts)}/{len(s.facts)}, expected {s.expected_found}/{s.need}, "
        f"boilerplate {len(s.boilerplate)}, other documents {s.extra_documents}"
        for s in scores
    )
    assert figures["gold_recall"] >= FLOORS["gold_recall"], report
    assert figures["expected_cited"] >= FLOORS["expected_cited"], report
    assert figures["boilerplate_cited"] <= FLOORS["boilerplate_cited"], report
    assert figures["single_extra_mean"] <= FLOORS["single_extra_mean"], report
    assert figures["single_extra_max"] <= FLOORS["single_extra_max"], report


@shared
@needs_real
def test_every_passage_citation_is_its_block_on_the_page_read(scores: list[Score]) -> None:
    figures = summarise(scores)
    assert figures["passages"] >= 3 * len(scores)
    unverified = [f"{s.id}: {s.verified}/{s.passages}" for s in scores if s.verified < s.passages]
    assert figures["verified"] >= FLOORS["verified"], unverified
