"""ResearchChat without a browser: a paced, scripted conversation behind an engine that has only
the interface (polled by hand), then the real conversation service with the fake agent over a
local engine (polled from a thread), and once from a task on a running asyncio loop."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

import ipywidgets as w

import regnb
from regnb.conversations.testing import FakeAgent, wait_until
from regnb.documents.blocks import block_text
from regnb.errors import ConcurrentConversations
from regnb.settings import Settings
from regnb.widgets import ResearchChat
from regnb.widgets import _turns as turns_module
from regnb.widgets._polling import ManualScheduler
from regnb.widgets.testing import PNG, PROTOCOL_METHODS, ProtocolOnly, ScriptedConversations, Source
from tests.outputs_support import Outputs

ACME_PAGE = (
    "OBSERVATION 1. Media fills did not simulate the worst case of interventions.\n\n"
    "OBSERVATION 2. Smoke studies of the ISO 5 line were not done under dynamic conditions."
)


def _doc(title: str, url: str, pages: list[str]) -> dict[str, Any]:
    fields = {"facility_name": "Acme Sterile", "fei_number": "3001234567"}
    return {"title": title, "date": "2021-03-05", "url": url, "fields": fields, "pages": pages}


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Two Form 483s with the same title (told apart by url) and a warning letter."""
    root = tmp_path_factory.mktemp("chat")
    docs = {
        "fda_483": [
            _doc("Form 483 for Acme Sterile", "https://example.test/483/a", ["Cover.", ACME_PAGE]),
            _doc("Form 483 for Acme Sterile", "https://example.test/483/b", ["Other.", "Other."]),
        ],
        "fda_warning_letters": [
            {
                "title": "Warning letter to Acme",
                "date": "2022-01-01",
                "url": None,
                "fields": {},
                "pages": ["Sterility failures at Acme Sterile; media fills failed."],
            },
        ],
    }
    regnb.write_corpus(root / "corpus", docs, encoder=regnb.HashingEncoder(), progress=False)
    settings = dataclasses.replace(Settings.from_env(), home=root / "home")
    eng = regnb.Engine(
        root / "corpus", encoder=regnb.HashingEncoder(), settings=settings, progress=False
    )
    yield eng
    eng.close_conversations()
    eng.close()


@pytest.fixture(scope="module")
def acme(local: Any) -> dict[str, Any]:
    found = local.search(["acme"], datasets=["fda_483"]).results
    return next(d for d in found if d["url"] == "https://example.test/483/a")


def _source(acme: dict[str, Any], *, reader_url: bool = False) -> Source:
    url = (
        f"/api/v3/documents/{acme['document_id']}?page_from=2&page_to=2"
        if reader_url
        else ("https://example.test/483/a#page=2")
    )
    return Source(acme["document_id"], acme["title"], "FDA Form 483", acme["date"], url, 2, "¶2")


@pytest.fixture
def scripted(acme: dict[str, Any]) -> ScriptedConversations:
    return ScriptedConversations(_source(acme), steps=3)


@pytest.fixture
def api(local: Any, scripted: ScriptedConversations) -> ProtocolOnly:
    return ProtocolOnly(local, scripted)


@pytest.fixture
def clock() -> ManualScheduler:
    return ManualScheduler()


def _run(chat: ResearchChat, clock: ManualScheduler, message: str) -> None:
    chat.input.value = message
    chat.send_button.click()
    while clock.tick():
        pass


def _plain(text: str) -> str:
    """HTML as the text a reader sees."""
    return re.sub(r"<[^>]+>", "", text)


def _texts(box: w.Box) -> str:
    """Every HTML value and button label under `box`, joined."""
    out = []
    for child in box.children:
        if isinstance(child, w.Box):
            out.append(_texts(child))
        elif isinstance(child, w.HTML):
            out.append(html.unescape(child.value))
        elif isinstance(child, w.Button):
            out.append(child.description)
    return "\n".join(out)


def test_the_running_turn_shows_its_steps_then_the_answer(
    api: ProtocolOnly, clock: ManualScheduler
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    chat.input.value = "Which firms failed media fills?"
    chat.send_button.click()
    assert chat.input.value == "" and chat.running and clock.live == 1
    assert chat.send_button.disabled and not chat.stop_button.disabled
    assert "Which firms failed media fills?" in _texts(chat.turns)
    steps = _plain(_texts(chat.turns))
    assert "done: Planning the search" in steps  # the send read the turn once
    assert "Searching FDA Warning Letters (3) Working…" in steps
    clock.tick()
    assert "Reading 3 documents (6) Working…" in _plain(_texts(chat.turns))
    assert 'data-poller="manual"' in chat.status.value and "working" in chat.status.value
    clock.tick()
    assert not chat.running and clock.live == 0
    answer = _texts(chat.turns)
    assert "In short:" in answer and "Planning the search" not in answer
    assert "<script>" in answer  # shown as text: it was escaped in the HTML
    assert "<script>" not in "".join(c.value for c in chat.turns.children[0].children[1:2])
    sources = chat.turns.children[0].children[-1].children
    assert [b.description for b in sources] == ["[1]", "[2]"]
    assert sources[0].tooltip == "[1] Form 483 for Acme Sterile, p. 2"
    assert sources[1].tooltip == "[2] passage ¶2 of Form 483 for Acme Sterile, p. 2"
    assert not chat.send_button.disabled and chat.stop_button.disabled


@pytest.mark.parametrize("reader_url", [False, True], ids=["source-url", "reader-url"])
def test_a_citation_opens_the_cited_page_with_the_passage_marked(
    local: Any, acme: dict[str, Any], clock: ManualScheduler, reader_url: bool
) -> None:
    api = ProtocolOnly(local, ScriptedConversations(_source(acme, reader_url=reader_url)))
    chat = ResearchChat(api, scheduler=clock)
    _run(chat, clock, "Which firms failed media fills?")
    buttons = [b for b in chat.turns.children[0].children[-1].children]
    buttons[1].click()  # [2]: the passage citation
    viewer = chat.viewer
    assert chat.reader.layout.display is None
    assert viewer.document_id == acme["document_id"] and viewer.page == 2
    cut = block_text(ACME_PAGE, "¶2")
    assert (
        cut.startswith("OBSERVATION 2") and f"<mark>{html.escape(cut)}</mark>" in viewer.body.value
    )
    assert chat.cited[2].passage == cut
    viewer.open(acme["document_id"], page=1)
    buttons[0].click()  # [1]: the page, its passage citation's text marked
    assert viewer.page == 2 and viewer.found is True


def test_a_citation_whose_document_cannot_be_found_says_so(
    local: Any, acme: dict[str, Any], clock: ManualScheduler
) -> None:
    gone = dataclasses.replace(_source(acme), title="A letter nobody wrote", url="https://x.test/")
    chat = ResearchChat(ProtocolOnly(local, ScriptedConversations(gone)), scheduler=clock)
    _run(chat, clock, "Which firms failed media fills?")
    cited = chat.open_citation(1)
    assert cited is not None and cited.document_id is None
    assert "A letter nobody wrote" in html.unescape(chat.errors.general.value)
    assert chat.reader.layout.display == "none"


def test_a_clarifying_question_offers_its_options_and_a_click_replies(
    api: ProtocolOnly, scripted: ScriptedConversations, clock: ManualScheduler
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    _run(chat, clock, "[clarify] Which recalls?")
    assert chat.data is not None and chat.data["status"] == "needs_input"
    assert "Which dataset do you mean?" in _texts(chat.turns)
    assert [b.description for b in chat.options.children] == ["Form 483", "Recalls"]
    chat.options.children[0].click()
    assert chat.running and chat.options.children == ()
    conv = scripted.conversations[chat.conversation_id]  # type: ignore[index]
    assert [t["message"] for t in conv.turns] == ["[clarify] Which recalls?", "Form 483"]
    while clock.tick():
        pass
    assert chat.data["status"] == "completed" and len(chat.turns.children) == 2


def test_follow_ups_continue_the_citation_numbers(
    api: ProtocolOnly, clock: ManualScheduler
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    _run(chat, clock, "Which firms failed media fills?")
    _run(chat, clock, "And smoke studies?")
    second = _texts(chat.turns.children[1])
    labels = [b.tooltip for b in chat.turns.children[1].children[-1].children]
    assert labels[0].startswith("[3] Form 483") and labels[1].startswith("[4] passage ¶2")
    assert "In short:" in second
    assert chat.citation(4)["parent_index"] == 3  # type: ignore[index]
    assert chat.open_citation(4).passage.startswith("OBSERVATION 2")  # type: ignore[union-attr]
    assert chat.conversation.citations["index"].tolist() == [1, 2, 3, 4]  # type: ignore[union-attr]


def test_stop_removes_the_running_message(
    api: ProtocolOnly, scripted: ScriptedConversations, clock: ManualScheduler
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    _run(chat, clock, "Which firms failed media fills?")
    chat.input.value = "And smoke studies?"
    chat.send_button.click()
    assert chat.running
    chat.stop_button.click()
    assert not chat.running and chat.data["status"] == "stopped"  # type: ignore[index]
    assert "stopped" in chat.status.value and len(chat.turns.children) == 1
    assert clock.live == 0 and not chat.send_button.disabled
    assert chat.stop() is False  # nothing runs now


def test_produced_documents_show_images_inline_and_files_as_links(
    api: ProtocolOnly, clock: ManualScheduler
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    _run(chat, clock, "Chart it [image] [file] [text]")
    image = next(
        c for box in chat.documents.children[1:] for c in box.children if isinstance(c, w.Image)
    )
    assert image.value == PNG and image.format == "png"
    links = _texts(chat.documents)
    assert all(f"Download {name}" in links for name in ("letters.xlsx", "report.md", "chart.png"))
    raw = "".join(
        c.value
        for box in chat.documents.children[1:]
        for c in box.children
        if isinstance(c, w.HTML)
    )
    workbook = base64.b64encode(b"PK fake workbook").decode()
    assert 'download="letters.xlsx" href="data:application/vnd.openxmlformats' in raw
    assert workbook in raw and "<details>" in raw and "<h1>Report</h1>" in raw


def test_a_file_too_large_to_inline_gets_a_save_button(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, api: ProtocolOnly, clock: ManualScheduler
) -> None:
    monkeypatch.setattr(turns_module, "INLINE_BYTES", 4)
    monkeypatch.chdir(tmp_path)
    chat = ResearchChat(api, scheduler=clock)
    _run(chat, clock, "The letters [file]")
    save = next(
        c for box in chat.documents.children[1:] for c in box.children if isinstance(c, w.Button)
    )
    assert "data:" not in _texts(chat.documents)
    save.click()
    assert (tmp_path / "letters.xlsx").read_bytes() == b"PK fake workbook"


def test_an_engine_error_is_shown_and_nothing_runs(local: Any, acme: dict[str, Any]) -> None:
    class Busy(ScriptedConversations):
        def start_conversation(self, message: str, **_: Any) -> dict[str, Any]:
            raise ConcurrentConversations("3 conversations are running; wait for one")

    chat = ResearchChat(ProtocolOnly(local, Busy(_source(acme))), scheduler=ManualScheduler())
    assert chat.send("Which firms?") is False
    assert "3 conversations are running" in chat.errors.general.value
    assert chat.conversation_id is None and not chat.running


def test_the_chat_calls_only_the_engine_interface(
    api: ProtocolOnly, clock: ManualScheduler
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    _run(chat, clock, "Which firms failed media fills? [image]")
    chat.open_citation(2)
    chat.viewer.next_button.click()
    assert set(api.calls) <= set(PROTOCOL_METHODS)
    assert {"start_conversation", "read_conversation", "download_document", "read"} <= set(
        api.calls
    )


def test_over_a_local_engine_with_the_fake_agent_polled_from_a_thread(
    local: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local, "settings", dataclasses.replace(local.settings, home=tmp_path))
    monkeypatch.setattr(
        local, "agent_factory", FakeAgent(local, keywords=["smoke studies"]), raising=False
    )
    try:
        chat = ResearchChat(local, poll_s=0.02)
        assert chat.send("Which firms skipped smoke studies? [image]")
        wait_until(lambda: not chat.running and bool(chat.documents.children))
        assert chat.poller == "thread"
        assert "In short:" in _texts(chat.turns)
        cited = chat.open_citation(2)  # the fake agent's passage citation
        assert (
            cited is not None
            and cited.document_id == local.search(["smoke studies"]).results[0]["document_id"]
        )
        assert chat.viewer.found is True and "<mark>" in chat.viewer.body.value
    finally:
        local.close_conversations()


def test_in_a_kernel_the_poll_is_a_task_on_its_running_loop(api: ProtocolOnly) -> None:
    async def session() -> ResearchChat:
        chat = ResearchChat(api, poll_s=0.001)
        chat.send("Which firms failed media fills?")
        while chat.running:
            await asyncio.sleep(0.001)  # the loop stays free while the chat polls
        return chat

    chat = asyncio.run(session())
    assert chat.poller == "asyncio" and "In short:" in _texts(chat.turns)


EMOJI = re.compile("[\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")


def test_the_answer_takes_the_height_it_needs(api: ProtocolOnly, clock: ManualScheduler) -> None:
    chat = ResearchChat(api, scheduler=clock)
    _run(chat, clock, "Which firms failed media fills?")
    answer = next(
        c
        for c in chat.turns.children[0].children
        if isinstance(c, w.HTML) and "In short:" in c.value
    )
    # no box of fixed height that cuts the key-documents table and the scope note off
    assert answer.layout.height in (None, "auto")
    assert answer.layout.max_height in (None, "none")
    assert answer.layout.overflow in (None, "visible")
    for box in (chat.widget, chat.turns, chat.turns.children[0]):
        assert box.layout.height is None and box.layout.max_height is None


def test_progress_is_written_in_words_that_every_font_has(
    api: ProtocolOnly, clock: ManualScheduler
) -> None:
    assert not EMOJI.search(turns_module.steps_html([]))
    chat = ResearchChat(api, scheduler=clock)
    chat.send("Which firms failed media fills?")
    running = _texts(chat.turns)
    assert "Working…" in running and not EMOJI.search(running)
    _run(chat, clock, "Chart it [image] [file] [text]")
    assert not EMOJI.search(_texts(chat.turns) + _texts(chat.documents))


def test_the_chat_has_a_static_html_fallback_of_its_state(
    api: ProtocolOnly, clock: ManualScheduler
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    bundle = chat._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == chat.widget.model_id
    assert "Send" in bundle["text/html"] and "In short:" not in bundle["text/html"]
    _run(chat, clock, "Which firms failed media fills?")
    page = chat._repr_mimebundle_()["text/html"]
    assert "Which firms failed media fills?" in page and "In short:" in page
    assert "[1]" in page and "<script>" not in page  # the answer's text stays escaped


def test_a_displayed_chat_keeps_the_answer_in_its_output_once_the_turn_ends(
    api: ProtocolOnly, clock: ManualScheduler, outputs: Outputs
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    chat._ipython_display_()
    chat.send("Which firms failed media fills?")
    clock.tick()
    assert [kind for kind, _ in outputs.calls] == ["display"]  # not redrawn while it runs
    assert "In short:" not in outputs.html()
    clock.tick()
    page = outputs.html()
    assert "Which firms failed media fills?" in page and "In short:" in page and "[1]" in page
    assert [kind for kind, _ in outputs.calls] == ["display", "update"]
    chat.open_citation(1)  # the cited page opens in the reader: the output too
    assert "Cited page" in outputs.html() and "<mark>" in outputs.html()


def test_wait_returns_once_the_answer_is_drawn(
    api: ProtocolOnly, clock: ManualScheduler, outputs: Outputs
) -> None:
    chat = ResearchChat(api, scheduler=clock)
    assert chat.wait() is None  # nothing sent
    chat._ipython_display_()
    chat.send("Which firms failed media fills?")
    data = chat.wait()  # reads until the turn ends, without the poller's ticks
    assert data is not None and data["status"] == "completed" and not chat.running
    assert "In short:" in _texts(chat.turns) and "In short:" in outputs.html()
