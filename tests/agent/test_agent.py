"""The research agent end to end on a small corpus: progress steps, stop between stages, the
pause setting, produced documents through the producer seam, follow-ups, clarifying questions and
their replies; and on the demo corpus with the real MiniLM encoder."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import pytest

import regnb
from regnb.agent._verify import marker_numbers
from regnb.agent.agent import ExtractiveAgent, run_turn
from regnb.agent.types import Agent, Answer, Produced, Stopped, TurnResult
from regnb.documents.words import fold_spaces
from regnb.errors import SearchTimeout
from tests.agent_support import Recorder, open_agent_corpus, prior, request

FIRST = "Which sterile drug makers got warning letters for media fill failures since 2018?"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    eng = open_agent_corpus(tmp_path_factory.mktemp("agent"))
    yield eng
    eng.close()


class FakeProducer:
    """Records what it was asked to produce."""

    def __init__(self) -> None:
        self.calls: list[tuple[Answer, list[str]]] = []

    def __call__(self, answer: Answer, formats: Sequence[str]) -> list[Produced]:
        self.calls.append((answer, list(formats)))
        return [
            Produced(title=f"{f} of {answer.question}", type="text", content=f) for f in formats
        ]


@pytest.fixture
def producer() -> FakeProducer:
    return FakeProducer()


@pytest.fixture
def agent(engine: regnb.Engine, producer: FakeProducer) -> ExtractiveAgent:
    return ExtractiveAgent(engine, producer=producer)


def ask(
    agent: ExtractiveAgent, message: str, history: list | None = None, first: int = 1
) -> TurnResult:
    recorder = Recorder()
    return agent.run(request(message, history, first=first), recorder.report, recorder.stopped)


def cited_titles(result: TurnResult) -> set[str]:
    return {c.name.rsplit(", page", 1)[0] for c in result.citations}


def test_the_agent_implements_the_protocol(agent: ExtractiveAgent) -> None:
    assert isinstance(agent, ExtractiveAgent)
    assert callable(agent.run)
    protocol: Agent = agent
    assert protocol is agent


def test_a_run_reports_its_steps_as_it_goes(agent: ExtractiveAgent) -> None:
    recorder = Recorder()
    result = agent.run(request(FIRST), recorder.report, recorder.stopped)
    assert result.status == "completed"
    final = recorder.reports[-1]
    assert [s.message for s in final] == [
        "Searching FDA Warning Letters",
        "Searching again FDA Warning Letters",  # 2 full matches: fewer than an answer needs
        "Reading 2 documents",
        "Writing the answer",
    ]
    assert final[0].count == 2
    assert [len(r) for r in recorder.reports] == [1, 2, 3, 4]


@pytest.mark.parametrize("stop_after", [0, 1, 3, 6, 9])
def test_a_stopped_run_raises_stopped_and_produces_nothing(
    agent: ExtractiveAgent, producer: FakeProducer, stop_after: int
) -> None:
    recorder = Recorder(stop_after=stop_after)
    with pytest.raises(Stopped):
        agent.run(request(FIRST + " Put them in a spreadsheet."), recorder.report, recorder.stopped)
    assert producer.calls == []


def test_the_pause_between_stages_uses_the_clock_and_can_be_stopped(engine: regnb.Engine) -> None:
    now = [0.0]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    agent = ExtractiveAgent(
        engine, clock=lambda: now[0], sleep=sleep, pace_s=0.2, producer=lambda a, f: []
    )
    assert ask(agent, FIRST).status == "completed"
    assert sum(sleeps) >= 0.2 * 3 - 1e-9  # a pause after searching, reading, writing at least
    assert max(sleeps) <= 0.05  # in short sleeps, so that a stop is seen at once
    recorder = Recorder(stop_after=8)
    with pytest.raises(Stopped):
        agent.run(request(FIRST), recorder.report, recorder.stopped)


def test_formats_asked_for_go_to_the_producer(
    agent: ExtractiveAgent, producer: FakeProducer
) -> None:
    result = ask(agent, FIRST + " Put the letters in an Excel table and a Word report.")
    assert [formats for _, formats in producer.calls] == [["docx", "xlsx"]]
    answer = producer.calls[0][0]
    assert answer.markdown == result.answer
    assert [d.content for d in result.documents] == ["docx", "xlsx"]


def test_no_format_asked_produces_nothing(agent: ExtractiveAgent, producer: FakeProducer) -> None:
    assert ask(agent, FIRST).documents == []
    assert producer.calls == []


def test_a_follow_up_narrows_the_previous_answer_and_numbers_continue(
    agent: ExtractiveAgent,
) -> None:
    first = ask(agent, FIRST)
    assert cited_titles(first) == {
        "Warning Letter: Acme Sterile Pharma Inc (612345)",
        "Warning Letter: Borealis Injectables LLC (598765)",
    }
    after = max(c.index for c in first.citations) + 1
    second = ask(agent, "Only those in California", [prior(FIRST, first)], first=after)
    assert second.status == "completed"
    assert cited_titles(second) == {"Warning Letter: Acme Sterile Pharma Inc (612345)"}
    assert min(c.index for c in second.citations) == after
    assert set(marker_numbers(second.answer or "")) <= {c.index for c in second.citations}
    assert second.state["plan"]["scope"]["places_in"] == ["US-CA"]  # a place, not a word
    assert "Only the documents of firms in California: 1 of the 2 found" in (second.answer or "")


def test_a_follow_up_that_narrows_to_nothing_says_so(agent: ExtractiveAgent) -> None:
    first = ask(agent, FIRST)
    second = ask(agent, "Only those in Texas", [prior(FIRST, first)], first=50)
    assert second.citations == []
    assert "None of the 2 documents found is from firms in Texas." in (second.answer or "")


def test_more_skips_what_was_cited_before(agent: ExtractiveAgent) -> None:
    first = ask(agent, "warning letters about manufacturing facility violations")
    second = ask(agent, "more", [prior("warning letters", first)], first=100)
    assert not cited_titles(first) & cited_titles(second)


def test_a_broad_message_gets_a_question_with_options_and_the_reply_is_answered(
    agent: ExtractiveAgent,
) -> None:
    asked = ask(agent, "Tell me about recalls")
    assert asked.status == "needs_input"
    assert asked.question is not None
    assert asked.answer == asked.question["question"]
    assert "too many to answer with citations" in asked.question["question"]
    assert asked.question["question"].startswith(
        "FDA Recalls, Market Withdrawals and Safety Alerts holds 32 matching documents"
    )
    assert (
        "This corpus holds no documents of FDA Enforcement Reports." in (asked.question["question"])
    )
    assert asked.question["options"] == [  # counted by the engine; no year after today's
        "in 2025 (1 document)",
        "in 2024 (1 document)",
        "in 2023 (1 document)",
        "before 2023 (13 documents)",
    ]
    assert asked.citations == []
    reply = ask(agent, "listeria", [prior("Tell me about recalls", asked)])
    assert reply.status == "completed"
    assert "listeria" in (reply.answer or "").split("### Key documents")[0]
    assert all(c.dataset.startswith("FDA Recalls") for c in reply.citations)


@pytest.mark.parametrize("message", ["???", "Hello, can you help me?", "please tell me"])
def test_a_message_with_nothing_to_search_gets_a_question(
    agent: ExtractiveAgent, message: str
) -> None:
    result = ask(agent, message)
    assert result.status == "needs_input"
    assert result.question is not None
    assert result.question["question"].startswith("What should I research?")


def test_an_enterprise_dataset_named_on_a_free_plan_is_not_searched(agent: ExtractiveAgent) -> None:
    recorder = Recorder()
    result = agent.run(
        request("complete response letters about stability data", plan="free"),
        recorder.report,
        recorder.stopped,
    )
    assert result.status == "completed"
    assert result.citations == []
    assert "FDA Complete Response Letters not searched: it needs an enterprise plan." in (
        result.answer or ""
    )


def test_an_identifier_finds_its_document(agent: ExtractiveAgent) -> None:
    result = ask(agent, "What did the 483 for FEI 3001234567 cite?")
    assert cited_titles(result) == {"FDA Form 483 - Acme Sterile Pharma Inc (2020-11-20)"}
    assert "smoke studies did not show unidirectional airflow" in (result.answer or "")


def test_run_turn_answers_one_message(engine: regnb.Engine) -> None:
    agent = ExtractiveAgent(engine, producer=lambda a, f: [])
    result = run_turn(agent, "insulin pump occlusion", first_citation=3)
    assert result.status == "completed"
    assert min(c.index for c in result.citations) == 3
    assert "OCCLUSION ALARM" in (result.answer or "")


DEMO_QUESTIONS = [
    "Which sterile drug makers got warning letters for media fill failures?",
    "What did complete response letters say about nitrosamine impurities?",
    "Which devices had adverse events involving battery failures?",
]


@pytest.fixture(scope="module")
def demo_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ExtractiveAgent]:
    from regnb.settings import Settings

    home = tmp_path_factory.mktemp("demo-home")
    settings = Settings(**{**Settings.from_env().__dict__, "home": home})
    engine = regnb.Engine(settings=settings, progress=False)
    yield ExtractiveAgent(engine, producer=lambda a, f: [])
    engine.close()


@pytest.mark.slow
@pytest.mark.parametrize("question", DEMO_QUESTIONS)
def test_demo_corpus_answers_verify_through_the_reader(
    demo_agent: ExtractiveAgent, question: str
) -> None:
    result = run_turn(demo_agent, question)
    assert result.status == "completed"
    answer = result.answer or ""
    by_index = {c.index: c for c in result.citations}
    assert re.match(r"\*\*In short:\*\* .+\[\d+\]", answer)
    assert set(marker_numbers(answer)) <= set(by_index)
    passages = [c for c in result.citations if c.block_id is not None]
    assert len(passages) >= 3
    engine = demo_agent.engine
    for c in passages:
        page = engine.read(c.document_id, c.page_num, c.page_num).page_list[0]["text"]
        assert fold_spaces(c.passage or "") in fold_spaces(page)
        assert by_index[c.parent_index].block_id is None  # type: ignore[index]


class FailingSearches:
    """The engine, except that searches of one dataset fail as a timed-out search would."""

    def __init__(self, engine: regnb.Engine, dataset: str) -> None:
        self.engine, self.dataset = engine, dataset
        self.plan = engine.plan

    def search(self, *args: object, **kwargs: object) -> object:
        if self.dataset in (kwargs.get("datasets") or []):
            raise SearchTimeout("the search took too long")
        return self.engine.search(*args, **kwargs)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        return getattr(self.engine, name)


def test_a_dataset_whose_search_fails_is_reported_and_the_rest_answered(
    engine: regnb.Engine,
) -> None:
    agent = ExtractiveAgent(
        FailingSearches(engine, "fda_483"),  # type: ignore[arg-type]
        producer=lambda a, f: [],
    )
    result = run_turn(agent, "media fill failures in warning letters and 483s")
    assert result.status == "completed"
    assert "FDA Form 483 Inspection Observations could not be searched." in (result.answer or "")
    assert cited_titles(result) >= {"Warning Letter: Acme Sterile Pharma Inc (612345)"}


def test_the_agent_package_offers_its_face_on_first_use() -> None:
    import regnb.agent as face
    from regnb.agent.agent import ExtractiveAgent as Agent

    assert face.__all__ == sorted(face.__all__) and len(face.__all__) >= 10
    assert face.ExtractiveAgent is Agent
    assert all(getattr(face, name) is not None for name in face.__all__)


def test_a_filter_the_words_imply_that_no_document_matches_is_let_go(
    agent: ExtractiveAgent,
) -> None:
    # "CDRH" implies center CDRH; this corpus's guidance has no center field
    result = ask(agent, "What does CDRH guidance recommend for threat models of a device?")
    assert result.status == "completed"
    assert "Cybersecurity in Medical Devices: Premarket Submissions" in cited_titles(result)
    assert "searched without it" in (result.answer or "")


def test_a_name_no_page_holds_is_let_go_before_other_datasets_are_searched(
    agent: ExtractiveAgent,
) -> None:
    result = ask(agent, "Our ZQX device: what does FDA guidance say about an SBOM?")
    assert "Cybersecurity in Medical Devices: Premarket Submissions" in cited_titles(result)
    assert "the other datasets were searched" not in (result.answer or "")
