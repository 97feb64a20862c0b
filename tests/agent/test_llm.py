"""The optional model writer against a small fake chat-completions endpoint on loopback: its
sentences are kept only when their markers and words check out; a failing, slow or garbled
endpoint leaves the extractive answer, and the answer says so."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

import regnb
from regnb.agent._verify import marker_numbers
from regnb.agent._writer import ExtractiveWriter
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.llm import (
    SYSTEM,
    ModelSettings,
    ModelWriter,
    OpenAIChat,
    WritingPolicy,
    default_writer,
    parse_prose,
)
from regnb.agent.types import Answer, Finding, KeyDocument, SourcedCitation, Theme
from tests.agent_support import Recorder, open_agent_corpus, request

QUESTION = "Why did FDA issue a complete response letter for NDA 212345?"


class FakeModel(BaseHTTPRequestHandler):
    """Answers like a chat-completions endpoint; `mode` picks the behaviour."""

    mode = "ok"
    seen: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeModel.seen.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), **body}
        )
        if self.mode == "slow":
            time.sleep(1.5)
        if self.mode == "error":
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        content = self._prose(body["messages"][-1]["content"])
        payload = (
            b"not json"
            if self.mode == "garbage"
            else json.dumps(
                {"choices": [{"message": {"role": "assistant", "content": content}}]}
            ).encode()
        )
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the slow case: the client gave up waiting

    def _prose(self, prompt: str) -> str:
        """Sentences made from the passages given (kept), one invented (dropped), one citing a
        marker that was never given (dropped)."""
        passages = re.findall(r"^\[(\d+)\] \(.*?\): (.*)$", prompt, flags=re.MULTILINE)
        if self.mode == "unbacked":
            return f"**In short:** The firm was fined heavily by the agency [{passages[0][0]}]."
        number, text = next((n, t) for n, t in passages if "stability" in t)
        other, second = passages[0]
        return (
            f"**In short:** {' '.join(text.split()[1:14])} [{number}]. "
            f"The firm was fined a billion dollars and closed [{number}]. "
            f"A claim about nothing given [999].\n\n"
            f"### Review outcome\n- {' '.join(second.split()[:12])} [{other}]\n"
            f"- Sentence without any marker at all\n"
        )


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeModel)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()
    server.server_close()


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    eng = open_agent_corpus(tmp_path_factory.mktemp("llm"))
    yield eng
    eng.close()


def answer_with(engine: regnb.Engine, endpoint: str, mode: str, timeout: float = 5.0) -> str:
    FakeModel.mode = mode
    settings = ModelSettings(endpoint, "fake-model", "sk-test", timeout)
    agent = ExtractiveAgent(engine, writer=ModelWriter(settings), producer=lambda a, f: [])
    recorder = Recorder()
    result = agent.run(request(QUESTION), recorder.report, recorder.stopped)
    assert result.status == "completed"
    known = {c.index for c in result.citations}
    assert set(marker_numbers(result.answer or "")) <= known
    return result.answer or ""


def test_the_model_writes_the_prose_and_unbacked_sentences_are_dropped(
    engine: regnb.Engine, endpoint: str
) -> None:
    FakeModel.seen.clear()
    text = answer_with(engine, endpoint, "ok")
    assert "stability data do not support" in text.split("###")[0]
    assert "fined" not in text
    assert "[999]" not in text and "nothing given" not in text
    assert "### Review outcome" in text
    assert "without any marker" not in text
    assert "### Key documents" in text
    assert "Written by fake-model" in text
    sent = FakeModel.seen[-1]
    assert sent["path"] == "/v1/chat/completions"
    assert sent["auth"] == "Bearer sk-test"
    assert sent["model"] == "fake-model"


@pytest.mark.parametrize(
    ("mode", "timeout", "reason"),
    [
        ("error", 5.0, "HTTP 500"),
        ("slow", 0.3, "did not answer in time"),
        ("garbage", 5.0, "could not be read"),
        ("unbacked", 5.0, "could not be checked"),
    ],
)
def test_a_failing_or_slow_endpoint_falls_back_to_the_extractive_answer(
    engine: regnb.Engine, endpoint: str, mode: str, timeout: float, reason: str
) -> None:
    text = answer_with(engine, endpoint, mode, timeout)
    assert reason in text
    assert "quotes the passages directly" in text
    assert "stability data do not support" in text  # the extractive answer's quote


def test_an_unreachable_endpoint_falls_back(engine: regnb.Engine) -> None:
    text = answer_with(engine, "http://127.0.0.1:9/v1", "ok", 2.0)
    assert "could not be reached" in text or "did not answer in time" in text


def test_parse_prose_reads_the_summary_and_the_themes() -> None:
    summary, themes = parse_prose(
        "**In short:** First claim [3]. Second claim [4][5].\n\n### Theme A\n- Bullet one [6]\n"
        "- Bullet two [7].\n\n### Theme B\n* Bullet three [8]"
    )
    assert [(f.text, f.markers) for f in summary] == [
        ("First claim.", [3]),
        ("Second claim.", [4, 5]),
    ]
    assert [(label, [f.markers for f in found]) for label, found in themes] == [
        ("Theme A", [[6], [7]]),
        ("Theme B", [[8]]),
    ]


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, None),
        ({"REGNB_LLM_BASE_URL": "http://x/v1"}, None),
        (
            {"REGNB_LLM_BASE_URL": "http://x/v1/", "REGNB_LLM_MODEL": "m"},
            ModelSettings("http://x/v1", "m", None, 20.0),
        ),
        (
            {
                "REGNB_LLM_BASE_URL": "http://x/v1",
                "REGNB_LLM_MODEL": "m",
                "REGNB_LLM_API_KEY": "k",
                "REGNB_LLM_TIMEOUT_S": "5",
            },
            ModelSettings("http://x/v1", "m", "k", 5.0),
        ),
    ],
)
def test_settings_switch_the_model_writer_on(
    environ: dict[str, str], expected: ModelSettings | None
) -> None:
    assert ModelSettings.from_env(environ) == expected


def test_a_bad_timeout_setting_is_reported() -> None:
    with pytest.raises(ValueError, match="REGNB_LLM_TIMEOUT_S"):
        ModelSettings.from_env(
            {"REGNB_LLM_BASE_URL": "u", "REGNB_LLM_MODEL": "m", "REGNB_LLM_TIMEOUT_S": "soon"}
        )


def test_the_default_writer_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REGNB_LLM_BASE_URL", raising=False)
    assert isinstance(default_writer(), ExtractiveWriter)
    monkeypatch.setenv("REGNB_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("REGNB_LLM_MODEL", "m")
    assert isinstance(default_writer(), ModelWriter)


class QuotingModel:
    """A chat-model double: it answers with the first passage it is given, quoted, and its
    marker, as a model that follows the system prompt would."""

    name = "quoting-double"

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def complete(self, system: str, user: str) -> str:
        self.calls.append((system, user))
        first = re.search(r"\[(\d+)\] (.*)", user)
        assert first is not None
        marker, text = first[1], first[2].rsplit("): ", 1)[1]
        text = re.sub(r"^(?:[A-Z ]+ )?\d+\.\s*", "", text)  # "PRODUCT QUALITY 1. The…"
        text = text.rstrip(".")
        return f"**In short:** {text} [{marker}].\n\n### Findings\n- {text} [{marker}].\n"


def test_any_chat_model_can_write_and_the_answer_keeps_its_scope(engine: regnb.Engine) -> None:
    model = QuotingModel()
    agent = ExtractiveAgent(engine, writer=ModelWriter(model), producer=lambda a, f: [])
    req = request(QUESTION, first=1)
    answer = agent.answer(agent.plan(req), req)
    assert model.calls and "Passages:" in model.calls[0][1]
    assert any("Written by quoting-double" in note for note in answer.notes)
    assert answer.scope and answer.scope[0].startswith("Searched ")
    assert answer.topic
    assert "### Scope" in answer.markdown


STABILITY = "The stability data do not support the proposed expiration dating period."
STERILITY = "Media fill runs failed and the firm released the sterile batches."


def cited(index: int, text: str | None, block: str | None = "¶2") -> SourcedCitation:
    return SourcedCitation(
        index, "Letter to Acme, page 1", "FDA Warning Letters", "2021-03-04", 1, "u", block,
        1 if block else None, document_id="d1", dataset_id="fda_warning_letters", passage=text,
    )  # fmt: skip


def base_answer() -> Answer:
    """An extractive answer citing a page [1] and two of its passages [2][3]."""
    document = KeyDocument(
        "Letter to Acme", "FDA Warning Letters", "fda_warning_letters", "2021-03-04",
        "Acme Pharma", None, "d1", 1,
    )  # fmt: skip
    return Answer(
        question="Why did Acme get a letter?",
        summary=[Finding("A quoted sentence.", [2])],
        themes=[Theme("Extractive theme", [Finding("A quoted finding.", [3])])],
        documents=[document],
        not_found=[],
        citations=[
            cited(1, None, block=None),
            cited(2, STABILITY),
            cited(3, STERILITY, block="¶3"),
        ],
    )


def test_the_policy_gives_the_model_the_passages_alone_with_their_markers() -> None:
    policy = WritingPolicy()
    passages = policy.passages(base_answer())
    assert [c.index for c in passages] == [2, 3]  # the page citation is not a passage
    prompt = policy.prompt("Why did Acme get a letter?", passages)
    assert prompt.startswith("Question: Why did Acme get a letter?\n\nPassages:")
    assert f"[2] (Letter to Acme, page 1; FDA Warning Letters; 2021-03-04): {STABILITY}" in prompt
    assert policy.system == SYSTEM


@pytest.mark.parametrize(
    ("prose", "summary", "themes"),
    [
        (  # backed sentences kept; an invented one, a marker not given and no marker dropped
            "**In short:** The stability data do not support the expiration dating period [2]. "
            "The firm was fined a billion dollars [2]. Media fill runs failed [9].\n\n"
            "### Sterility\n- Media fill runs failed and the firm released batches [3]\n"
            "- A bullet without a marker\n",
            ["The stability data do not support the expiration dating period."],
            [("Sterility", ["Media fill runs failed and the firm released batches"])],
        ),
        (  # no theme backed: the extractive themes stay
            "**In short:** Media fill runs failed [3].\n\n### Invented\n- Fines were paid [2]\n",
            ["Media fill runs failed."],
            [("Extractive theme", ["A quoted finding."])],
        ),
        (  # a sentence citing a passage and a marker never given is dropped whole
            "**In short:** Media fill runs failed [3][7]. The stability data do not support "
            "the proposed period [2].",
            ["The stability data do not support the proposed period."],
            [("Extractive theme", ["A quoted finding."])],
        ),
    ],
)
def test_the_policy_keeps_only_sentences_their_passages_back(
    prose: str, summary: list[str], themes: list[tuple[str, list[str]]]
) -> None:
    base = base_answer()
    got = WritingPolicy().accept(base, prose, WritingPolicy().passages(base))
    assert got is not None
    assert [f.text for f in got.summary] == summary
    assert [(t.label, [f.text for f in t.findings]) for t in got.themes] == themes
    assert got.citations == base.citations and got.documents == base.documents
    assert base.summary == [Finding("A quoted sentence.", [2])]  # the base answer unchanged


@pytest.mark.parametrize(
    "prose",
    [
        "**In short:** The firm was fined a billion dollars [2].",
        "**In short:** The stability data do not support the period [4].",
        "### Only a theme\n- The stability data do not support the period [2]",
        "",
    ],
)
def test_the_policy_refuses_prose_whose_summary_nothing_backs(prose: str) -> None:
    base = base_answer()
    assert WritingPolicy().accept(base, prose, WritingPolicy().passages(base)) is None


class HangingModel:
    """A chat-model double that does not answer until released (a model that is slow to
    reply), and records whether the turn cancelled it."""

    name = "hanging-double"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        self.replied = False
        self.cancelled = False

    def complete(self, system: str, user: str) -> str:
        self.started.set()
        self.release.wait(60)
        self.replied = True
        return "**In short:** nothing."

    def cancel(self) -> None:
        self.cancelled = True
        self.release.set()


def test_stop_frees_the_turn_without_waiting_for_the_model(engine: regnb.Engine) -> None:
    """The turn waits for its model on a worker thread, checking for a stop: stopped, it ends
    before the model replies and cancels the model's request."""
    from regnb.agent.types import Stopped

    model = HangingModel()
    agent = ExtractiveAgent(engine, writer=ModelWriter(model), producer=lambda a, f: [])
    stop = threading.Event()
    recorder = Recorder()

    def stopped() -> bool:
        if model.started.is_set():
            stop.set()  # the user presses stop while the model is writing
        return stop.is_set()

    with pytest.raises(Stopped):
        agent.run(request(QUESTION), recorder.report, stopped)
    assert model.started.is_set() and model.cancelled
    assert not model.replied or model.cancelled  # it was released by the cancel, not by a reply


def test_a_cancelled_model_request_fails_instead_of_replying() -> None:
    """OpenAIChat.cancel closes the clients of the requests in flight: a reply that comes after
    it is never read as the model's answer."""
    release, arrived = threading.Event(), threading.Event()

    class Slow(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            arrived.set()
            release.wait(30)
            body = json.dumps({"choices": [{"message": {"content": "**In short:** late."}}]})
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    model = OpenAIChat(ModelSettings(f"http://127.0.0.1:{server.server_port}/v1", "m", None, 30))
    outcome: dict[str, Any] = {}

    def call() -> None:
        try:
            outcome["reply"] = model.complete("system", "user")
        except Exception as exc:
            outcome["error"] = exc

    caller = threading.Thread(target=call)
    caller.start()
    assert arrived.wait(30)
    model.cancel()
    release.set()
    caller.join(60)
    server.shutdown()
    server.server_close()
    assert "reply" not in outcome and "error" in outcome
    assert not model._clients
