"""A stopped run makes no more engine calls, whatever stage it is in; and the agent's work is
bounded by the message's size (it reads a bounded prefix, and says so)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import regnb
from regnb.agent.agent import ExtractiveAgent, bounded, bounded_request
from regnb.agent.types import Stopped, TurnResult
from regnb.settings import Settings
from tests.agent_support import open_agent_corpus, prior, request

CALLS = ("search", "read", "embed", "document_frequency", "common_sentences")
QUESTIONS = [
    "Which sterile drug makers got warning letters for media fill failures?",
    "What did FDA find at Acme Sterile Pharma Inc? Put it in a Word document.",
    "Which firms recalled products because of listeria and why?",
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> regnb.Engine:
    return open_agent_corpus(tmp_path_factory.mktemp("agent-stop"))


class StopAt:
    """The engine, whose `at`-th call flips the run's stop flag; calls made after it counted."""

    def __init__(self, engine: regnb.Engine, at: int = 0) -> None:
        self.engine, self.at = engine, at
        self.calls: list[str] = []
        self.after: list[str] = []
        self.stopped = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self.stopped:
            self.after.append(name)
        self.calls.append(name)
        if len(self.calls) == self.at:
            self.stopped = True
        return getattr(self.engine, name)(*args, **kwargs)

    def search(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("search", *args, **kwargs)

    def read(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("read", *args, **kwargs)

    def embed(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("embed", *args, **kwargs)

    def document_frequency(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("document_frequency", *args, **kwargs)

    def common_sentences(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("common_sentences", *args, **kwargs)


def run(engine: StopAt, message: str) -> Any:
    agent = ExtractiveAgent(engine, producer=lambda answer, formats: [])
    return agent.run(request(message), lambda steps: None, lambda: engine.stopped)


@pytest.mark.parametrize("message", QUESTIONS)
def test_a_run_stopped_at_any_engine_call_makes_no_more(engine, message: str) -> None:
    whole = StopAt(engine)
    assert run(whole, message).status == "completed"
    assert {"search", "read"} <= set(whole.calls)
    for at in range(1, len(whole.calls) + 1):
        stopping = StopAt(engine, at)
        with pytest.raises(Stopped):
            run(stopping, message)
        assert stopping.after == [], f"stopped at call {at} ({whole.calls[at - 1]})"


def test_an_agent_checks_the_stop_of_its_own_run_only(engine) -> None:
    """One agent serves several worker threads: the check belongs to the calling thread."""
    stopping = StopAt(engine, 1)
    agent = ExtractiveAgent(stopping, producer=lambda answer, formats: [])
    with pytest.raises(Stopped):
        agent.run(request(QUESTIONS[0]), lambda steps: None, lambda: stopping.stopped)
    # outside a run nothing is checked (the stages are public for tests and notebooks)
    assert agent.source.search(["sterility"], limit=1).results


# --- the message's size ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "chars", "expected"),
    [
        ("short", 10, "short"),
        ("exactly ten", 11, "exactly ten"),
        ("media fill failures", 9, "media"),  # a cut word is left out
        ("media fill failures", 10, "media fill"),  # cut at a space
        ("mediafillfailures", 5, "media"),  # no space to cut back to
    ],
)
def test_bounded_keeps_whole_words_of_the_first_characters(
    text: str, chars: int, expected: str
) -> None:
    assert bounded(text, chars) == expected


def test_a_long_message_and_the_earlier_ones_are_planned_from_their_first_characters() -> None:
    long = "media fill " * 1000
    earlier = prior("sterility " * 1000, TurnResult("completed", "an answer"))
    cut, notes = bounded_request(request(long, [earlier]), 100)
    assert len(cut.message) <= 100 and long.startswith(cut.message)
    assert len(cut.history[0].message) <= 100
    assert notes == [
        f"Only the first {len(cut.message)} characters of your message were read (of "
        "11,000); the research is about them alone."
    ]
    same, none = bounded_request(request("media fill"), 100)
    assert same.message == "media fill" and none == []
    assert bounded_request(request(long), 0) == (request(long), [])


def test_the_answer_to_a_long_message_says_that_only_its_start_was_read(engine) -> None:
    question = QUESTIONS[0] + " " + "x" * Settings.agent_message_chars
    agent = ExtractiveAgent(StopAt(engine), producer=lambda answer, formats: [])
    result = agent.run(request(question), lambda steps: None, lambda: False)
    assert result.status == "completed"
    read = len(QUESTIONS[0])
    assert f"Only the first {read} characters of your message were read" in (result.answer or "")
    assert result.state["plan"]["message"] == QUESTIONS[0]


def test_the_bound_is_a_setting(engine, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("REGNB_AGENT_MESSAGE_CHARS", "12")
    assert Settings.from_env().agent_message_chars == 12
    assert ExtractiveAgent(engine).message_chars == Settings.agent_message_chars == 4000
