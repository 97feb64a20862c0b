"""Research conversations from Python on a local engine (with the fake agent): `ask`, `wait`
with its progress, answers, questions, citations with their passages, produced documents,
stop, the list, and conversations that outlive the engine that started them."""

from __future__ import annotations

import dataclasses
import io
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import regnb
from regnb.conversations.conversation import (
    CITATION_COLUMNS,
    Conversation,
    ConversationMethods,
    Markdown,
)
from regnb.conversations.testing import FakeAgent, wait_until
from regnb.documents.blocks import block_text
from regnb.interface import ConversationAPI
from regnb.server.testing import sample_documents

WAIT = 30.0


def open_engine(corpus: Path, home: Path) -> Any:
    settings = dataclasses.replace(regnb.settings.Settings.from_env(), home=home)
    return regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings, progress=False)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("conv") / "corpus"
    regnb.write_corpus(path, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    return path


@pytest.fixture(scope="module")
def shared(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    eng = open_engine(corpus, tmp_path_factory.mktemp("conv-home"))
    yield eng
    eng.close()


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture
def agent(shared: Any, gate: threading.Event) -> FakeAgent:
    gate.set()
    return FakeAgent(shared, gate=gate)


@pytest.fixture
def eng(
    shared: Any, agent: FakeAgent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    """The shared engine with this test's own conversation store and the fake agent."""
    monkeypatch.setattr(shared, "settings", dataclasses.replace(shared.settings, home=tmp_path))
    monkeypatch.setattr(shared, "agent_factory", agent, raising=False)
    yield shared
    shared.close_conversations()


def test_a_local_engine_implements_the_conversation_interface(eng: Any) -> None:
    assert isinstance(eng, ConversationAPI)


def test_ask_starts_a_run_and_wait_returns_with_the_answer(eng: Any, gate) -> None:
    gate.clear()
    conv = eng.ask("Who failed sterility testing?")
    assert isinstance(conv, Conversation) and conv.id.startswith("conv_")
    assert conv.status == "running" and conv.answer is None
    gate.set()
    assert conv.wait(progress=False) is conv
    assert conv.status == "completed" and conv.error is None and conv.question is None
    assert isinstance(conv.answer, Markdown) and conv.answer.startswith("**In short:**")
    assert conv.answer._repr_markdown_() == str(conv.answer)
    assert [t["message"] for t in conv.turns] == ["Who failed sterility testing?"]


def test_citations_hold_the_cited_passage_of_a_real_page(eng: Any) -> None:
    conv = eng.ask("Who failed sterility testing?").wait(progress=False)
    frame = conv.citations
    assert list(frame.columns) == CITATION_COLUMNS
    page, passage = frame.to_dict("records")
    assert pd.isna(page["block_id"]) and pd.isna(page["passage"])
    assert passage["parent_index"] == page["index"] == 1 and passage["block_id"] == "¶1"
    document_id = eng.conversation_service().citation_rows("local", conv.id)[0]["document_id"]
    assert page["document_id"] == passage["document_id"] == document_id  # the page to open
    text = eng.read(document_id, 1, 1).page_list[0]["text"]
    assert passage["passage"] and passage["passage"] in text
    assert str(frame["page_num"].dtype) == "Int64"


class NoPassageAgent(FakeAgent):
    """Cites passages by block id only, as a store written before passages were kept."""

    def _answer(self, request: Any) -> Any:
        result = super()._answer(request)
        result.citations = [dataclasses.replace(c, passage=None) for c in result.citations]
        return result


def test_a_passage_not_stored_is_cut_from_its_page_by_block_id(
    eng: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(eng, "agent_factory", NoPassageAgent(eng))
    conv = eng.ask("q").wait(progress=False)
    row = eng.conversation_service().citation_rows("local", conv.id)[1]
    text = eng.read(row["document_id"], 1, 1).page_list[0]["text"]
    assert conv.citations["passage"][1] == block_text(text, "¶1")


def test_clarifying_question_then_reply(eng: Any) -> None:
    conv = eng.ask("tell me about recalls [clarify]").wait(progress=False)
    assert conv.status == "needs_input" and conv.answer is None
    assert conv.question == {
        "question": "Which dataset do you mean?",
        "options": ["Form 483", "Recalls"],
    }
    assert conv.reply("Form 483") is conv
    conv.wait(progress=False)
    assert conv.status == "completed" and conv.question is None
    assert list(conv.citations["index"]) == [1, 2]


def test_follow_up_citation_numbers_continue(eng: Any) -> None:
    conv = eng.ask("first").wait(progress=False)
    conv.reply("second", idempotency_key="second-1").wait(progress=False)
    assert list(conv.citations["index"]) == [1, 2, 3, 4]
    assert eng.send_message(conv.id, "second", idempotency_key="second-1").turn_index == 1


def test_documents_list_and_download(eng: Any, tmp_path: Path, monkeypatch) -> None:
    conv = eng.ask("q [text] [file] [image]").wait(progress=False)
    docs = conv.documents
    assert list(docs.columns) == ["id", "title", "type", "created_at"]
    assert list(docs["type"]) == ["text", "file", "image"]
    ids = dict(zip(docs["title"], docs["id"], strict=True))
    folder = tmp_path / "out"
    folder.mkdir()
    report = conv.download(ids["Report"], folder)
    assert report == folder / "Report.md" and "[2]" in report.read_text()
    sheet = conv.download(ids["Letters"], tmp_path / "mine.xlsx")
    assert sheet.read_bytes() == b"PK fake"
    monkeypatch.chdir(folder)
    assert conv.download(ids["Chart"]) == Path.cwd() / "chart.png"
    produced = conv.document(ids["Letters"])
    assert produced["url"].startswith("http://localhost:8000/api/v3/files/")
    assert (produced["filename"], produced["expires_in"]) == ("letters.xlsx", 300)
    assert conv.document(ids["Report"])["content"].startswith("**In short:**")


def test_free_plan_engine_cannot_download_office_files(eng: Any, monkeypatch) -> None:
    conv = eng.ask("q [file] [image]").wait(progress=False)
    monkeypatch.setattr(eng, "plan", "free")
    ids = dict(zip(conv.documents["title"], conv.documents["id"], strict=True))
    with pytest.raises(regnb.Forbidden):
        conv.download(ids["Letters"])
    assert eng.download_document(conv.id, ids["Chart"])[0] == "chart.png"


def test_stop_removes_the_running_message(eng: Any, gate) -> None:
    gate.clear()
    conv = eng.ask("q")
    assert conv.stop() is True
    assert conv.status == "stopped" and conv.turns == [] and conv.answer is None
    assert conv.stop() is False


def test_failed_run_shows_its_error(eng: Any) -> None:
    conv = eng.ask("q [fail]").wait(progress=False)
    assert conv.status == "error" and conv.answer is None
    assert conv.error is not None and conv.error.startswith("the research could not finish")
    assert "Error:" in conv._repr_markdown_()


def test_to_dict_is_the_spec_read_and_a_copy(eng: Any) -> None:
    conv = eng.ask("q").wait(progress=False)
    data = conv.to_dict()
    assert data == eng.read_conversation(conv.id).to_dict()
    data["turns"].clear()
    assert conv.to_dict()["turns"]


def test_conversations_frame_and_reopening_by_id(eng: Any, gate) -> None:
    done = eng.ask("done").wait(progress=False)
    gate.clear()
    running = eng.ask("runs")
    frame = eng.conversations()
    assert list(frame.columns) == [
        "conversation_id",
        "title",
        "status",
        "created_at",
        "last_activity_at",
        "turn_count",
        "url",
    ]
    assert list(frame["conversation_id"]) == [running.id, done.id]
    assert frame.attrs == {"total": 2, "limit": 20, "offset": 0}
    only = eng.conversations(status="running", limit=5)
    assert list(only["conversation_id"]) == [running.id] and only.attrs["total"] == 1
    assert eng.conversation(done.id).answer == done.answer
    with pytest.raises(regnb.NotFound):
        eng.conversation("conv_nope")
    with pytest.raises(regnb.InvalidRequest):
        eng.conversations(status="finished")


def test_conversations_outlive_the_engine_that_started_them(
    eng: Any, corpus: Path, tmp_path: Path, gate
) -> None:
    done = eng.ask("kept").wait(progress=False)
    gate.clear()
    cut = eng.ask("cut short by the restart")
    wait_until(lambda: bool(cut.refresh().turns[0].get("steps")))
    eng.close_conversations()  # the kernel goes away
    again = open_engine(corpus, tmp_path)  # the next kernel, on the same REGNB_HOME
    try:
        assert again.conversation(done.id).answer == done.answer
        reopened = again.conversation(cut.id)
        assert reopened.status == "error" and "interrupted" in (reopened.error or "")
    finally:
        again.close_conversations()
        again.close()


def test_wait_shows_the_steps_on_stderr_and_stops_at_its_timeout(eng: Any, gate, capsys) -> None:
    gate.clear()
    conv = eng.ask("q")
    wait_until(lambda: bool(conv.refresh().turns[0].get("steps")))
    assert conv.wait(timeout=0.05).status == "running"
    err = capsys.readouterr().err
    assert "running · Searching the fake corpus (3)" in err and err.endswith("\n")
    gate.set()
    conv.wait(progress=False)
    assert capsys.readouterr().err == ""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_wait_rewrites_one_line_on_a_terminal(eng: Any, gate, monkeypatch) -> None:
    gate.clear()
    conv = eng.ask("q")
    wait_until(lambda: bool(conv.refresh().turns[0].get("steps")))
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    conv.wait(timeout=0.05)
    out = terminal.getvalue()
    assert out == "\r\x1b[2Krunning · Searching the fake corpus (3)\n"


def test_wait_updates_one_display_in_a_notebook(eng: Any, gate, monkeypatch) -> None:
    shown: list[tuple[str, Any]] = []

    class Handle:
        def update(self, obj: Any) -> None:
            shown.append(("update", obj.data))

    def display(obj: Any, display_id: bool = False) -> Handle:
        shown.append(("display", obj.data))
        assert display_id is True
        return Handle()

    pytest.importorskip("IPython")
    monkeypatch.setattr("regnb.conversations.conversation._in_kernel", lambda: True)
    monkeypatch.setattr("IPython.display.display", display)
    gate.clear()
    conv = eng.ask("q")
    wait_until(lambda: bool(conv.refresh().turns[0].get("steps")))
    threading.Timer(0.1, gate.set).start()
    conv.wait()
    assert shown[0] == ("display", "running · Searching the fake corpus (3)")
    assert shown[-1] == ("update", "completed")
    assert all(kind == "update" for kind, _ in shown[1:])


class SpecOnly:
    """Only the seven protocol methods, as a remote client has them."""

    def __init__(self, eng: Any) -> None:
        self.eng = eng

    def __getattr__(self, name: str) -> Any:
        if name not in ConversationAPI.__dict__:
            raise AttributeError(name)
        return getattr(self.eng, name)


class SpecEngine(SpecOnly, ConversationMethods):
    pass


def test_objects_work_over_the_seven_protocol_methods_alone(eng: Any) -> None:
    api = SpecEngine(eng)
    conv = api.ask("q").wait(progress=False)
    assert conv.status == "completed"
    assert conv.citations["passage"].isna().all()  # no local store to read passages from
    assert api.conversations().attrs["total"] == 1


def test_reprs_are_short_and_escaped(eng: Any) -> None:
    conv = eng.ask("<b>bold</b> question").wait(progress=False)
    assert repr(conv) == f"<regnb.Conversation {conv.id} completed>"
    assert conv._repr_markdown_().startswith(f"**Conversation** `{conv.id}` · completed")
    html = conv._repr_html_()
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold" not in html
    assert "<pre" not in html and "<strong>Conversation</strong>" in html  # rendered markdown
    first = conv.citations.iloc[0]
    if first.url.startswith("http"):
        assert f'href="{first.url}"' in html  # markers link to their sources


def test_steps_line_names_each_step_and_its_count() -> None:
    from regnb.conversations.conversation import steps_line

    data = {
        "status": "running",
        "turns": [
            {
                "steps": [
                    {"message": "Searching FDA Warning Letters", "count": 12},
                    {"message": "Writing the answer", "count": 0},
                ]
            }
        ],
    }
    assert steps_line(data) == "running · Searching FDA Warning Letters (12) · Writing the answer"
    assert steps_line({"status": "stopped", "turns": []}) == "stopped"


def test_citations_of_a_conversation_without_turns_is_an_empty_frame(eng: Any, gate) -> None:
    gate.clear()
    conv = eng.ask("q")
    conv.stop()
    frame = conv.citations
    assert frame.empty and list(frame.columns) == CITATION_COLUMNS
    assert isinstance(conv.documents, pd.DataFrame) and conv.documents.empty


def test_a_conversation_exports_to_markdown_word_and_its_citations(
    eng: Any, tmp_path: Path
) -> None:
    import docx
    import openpyxl

    conv = eng.ask("Who failed sterility testing?").wait(progress=False)
    passage = conv.citations.passage.dropna().iloc[0]
    text = conv.to_markdown(tmp_path / "answer.md")
    assert (tmp_path / "answer.md").read_text(encoding="utf-8") == text
    assert "Who failed sterility testing?" in text and passage in text  # the passage quoted
    words = "\n".join(p.text for p in docx.Document(conv.to_docx(tmp_path / "a.docx")).paragraphs)
    assert "Who failed sterility testing?" in words and passage in words
    sheet = openpyxl.load_workbook(conv.to_excel(tmp_path / "c.xlsx"))["Citations"]
    assert [c.value for c in sheet[1]][:3] == ["index", "name", "dataset"]
    assert sheet.max_row == len(conv.citations) + 1
    back = pd.read_csv(conv.to_csv(tmp_path / "c.csv"))
    assert list(back["index"]) == list(conv.citations["index"])
    typed = pd.read_parquet(conv.to_parquet(tmp_path / "c.parquet"))
    assert str(typed["page_num"].dtype) == "Int64"
