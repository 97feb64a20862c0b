"""ResearchChat: ask a research question, watch the running turn's steps, read the answer, open a
cited page with its passage marked, answer a clarifying question with a click, get the produced
documents, stop a run. It calls only the engine's conversation methods (the spec's endpoints), so
it works over a local engine and over the remote client alike.

Reads happen off the kernel's thread (`regnb.widgets._polling`): the notebook stays usable while
the agent works.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from regnb.conversations.conversation import Conversation
from regnb.errors import RegnbError
from regnb.present.html import Html, escape, muted
from regnb.widgets._citations import CitedPage, resolve_citation
from regnb.widgets._common import ErrorSlots, WidgetView, error_html, resolve_engine, shown
from regnb.widgets._polling import Handle, Scheduler, default_scheduler
from regnb.widgets._turns import document_widget, turn_widget
from regnb.widgets._viewer import DocumentViewer

if TYPE_CHECKING:
    from regnb.interface import EngineAPI

__all__ = ["ResearchChat"]

POLL_S = 1.0
STATUS_TEXT = {
    "running": "working…",
    "completed": "answered",
    "needs_input": "the agent asks a question: pick an option or write a reply",
    "stopped": "stopped: the last message and what it produced were removed",
    "error": "the run failed",
}


@dataclass
class Snapshot:
    """One read of the conversation, with what was fetched beside it off the kernel's thread."""

    data: dict[str, Any]
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    unfetched: dict[str, str] = field(default_factory=dict)  # document id: why not
    passages: dict[int, str | None] = field(default_factory=dict)
    documents: dict[int, str] = field(default_factory=dict)


class ResearchChat(WidgetView):
    """A research conversation in a notebook (the default engine unless one is given)."""

    def __init__(
        self,
        engine: EngineAPI | None = None,
        *,
        poll_s: float = POLL_S,
        scheduler: Scheduler | None = None,
    ) -> None:
        self.engine = resolve_engine(engine)
        self.poll_s = poll_s
        self.scheduler = scheduler
        self.conversation_id: str | None = None
        self.data: dict[str, Any] | None = None
        self.files: dict[str, tuple[str, bytes]] = {}
        self.unfetched: dict[str, str] = {}  # documents whose download failed, and why
        self.passages: dict[int, str | None] = {}
        self.cited_documents: dict[int, str] = {}
        self.cited: dict[int, CitedPage] = {}
        self.handle: Handle | None = None
        self.poller: str | None = None  # which scheduler polled: asyncio, thread or manual
        self._lock = threading.RLock()
        self._drawn: dict[int, tuple[str, w.Widget]] = {}
        self._doc_widgets: dict[str, w.Widget] = {}
        self.errors = ErrorSlots()
        self.input = w.Textarea(
            placeholder="Ask a research question, e.g. Which sterile drug makers got warning "
            "letters for media fill failures?",
            layout=w.Layout(width="46em", height="4.5em"),
        )
        self.send_button = w.Button(description="Send", icon="paper-plane", button_style="primary")
        self.stop_button = w.Button(description="Stop", icon="stop", disabled=True)
        self.status = w.HTML("")
        self.turns = w.VBox()
        self.options = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.documents = w.VBox()
        self.viewer = DocumentViewer(engine=self.engine)
        self.viewer.on_change(self.changed)
        self.reader = w.VBox([w.HTML("<b>Cited page</b>"), self.viewer.widget])
        shown(self.reader, False)
        self.send_button.on_click(lambda _: self.send())
        self.stop_button.on_click(lambda _: self.stop())
        controls = w.HBox([self.send_button, self.stop_button, self.errors.general])
        self.widget = w.VBox(
            [
                self.turns,
                self.status,
                self.options,
                self.documents,
                self.input,
                controls,
                self.reader,
            ]
        )

    @property
    def running(self) -> bool:
        return self.data is not None and self.data.get("status") == "running"

    @property
    def conversation(self) -> Conversation | None:
        """The conversation as a `regnb.Conversation`, to go on in code."""
        if self.conversation_id is None:
            return None
        return Conversation(self.engine, self.conversation_id, self.data)

    def send(self, message: str | None = None) -> bool:
        """Send the text box's message (or `message`): it starts the conversation or follows it
        up; the turn's steps then show as it runs. False when nothing was sent."""
        text = (self.input.value if message is None else message).strip()
        if not text or self.running:
            return False
        self.errors.clear()
        try:
            if self.conversation_id is None:
                started = self.engine.start_conversation(text)
                self.conversation_id = started.conversation_id
            else:
                self.engine.send_message(self.conversation_id, text)
        except RegnbError as error:
            self.errors.show(error)
            self.changed()
            return False
        self.input.value = ""
        self.refresh()
        self._poll()
        return True

    def refresh(self) -> dict[str, Any] | None:
        """Read the conversation now and draw it."""
        if self.conversation_id is None:
            return None
        try:
            self._apply(self._fetch())
        except RegnbError as error:
            self.errors.show(error)
        return self.data

    def wait(self, timeout: float | None = None) -> dict[str, Any] | None:
        """Return once the running turn ends (or after `timeout` seconds), drawn: for a notebook
        run from top to bottom (nbconvert, a scheduled run), whose next cell would otherwise run
        before the answer came. The conversation's data, as `refresh` returns it."""
        conversation = self.conversation
        if conversation is None:
            return None
        try:
            conversation.wait(timeout, progress=False)
        except RegnbError as error:
            self.errors.show(error)
            self.changed()
            return self.data
        return self.refresh()

    def stop(self) -> bool:
        """Stop the running message; False when nothing was running."""
        if self.conversation_id is None:
            return False
        try:
            stopped = self.engine.stop_conversation(self.conversation_id).stopped
        except RegnbError as error:
            self.errors.show(error)
            return False
        if self.handle is not None:
            self.handle.cancel()
        self.refresh()
        return stopped

    def _poll(self) -> None:
        if not self.running or (self.handle is not None and not self.handle.done):
            return
        scheduler = self.scheduler or default_scheduler()
        self.poller = scheduler.name
        self.handle = scheduler.start(self._fetch, self._apply, self.poll_s, self._failed)

    def _failed(self, error: BaseException) -> None:
        message = error.message if isinstance(error, RegnbError) else repr(error)
        self.errors.general.value = error_html(f"reading the conversation failed: {message}")
        shown(self.errors.general, True)

    def _fetch(self) -> Snapshot:
        """Read the conversation; once a turn is done, its new files and cited passages too. A
        file that cannot be fetched is noted in the snapshot: the answer shows all the same."""
        assert self.conversation_id is not None
        cid = self.conversation_id
        read = self.engine.read_conversation(cid, 0)
        data = read.to_dict()  # what the widget draws: the spec's JSON
        snap = Snapshot(data)
        if data["status"] == "running":
            return snap
        for doc in data.get("documents") or []:
            if doc["id"] not in self.files:
                try:
                    snap.files[doc["id"]] = self.engine.download_document(cid, doc["id"])
                except RegnbError as error:
                    snap.unfetched[doc["id"]] = error.message
        cited = [c for t in data["turns"] for c in t.get("citations") or []]
        if any(c["index"] not in self.cited_documents for c in cited):
            frame = Conversation(self.engine, cid, read).citations
            snap.passages = {int(r["index"]): r["passage"] for _, r in frame.iterrows()}
            snap.documents = {
                int(r["index"]): str(r["document_id"])
                for _, r in frame.iterrows()
                if isinstance(r["document_id"], str)
            }
        return snap

    def _apply(self, snap: Snapshot) -> bool:
        """Draw a read; True while the turn runs (polling goes on)."""
        with self._lock:
            self.data = snap.data
            self.files.update(snap.files)
            self.unfetched = {
                k: v for k, v in {**self.unfetched, **snap.unfetched}.items() if k not in self.files
            }
            self.passages.update(snap.passages)
            self.cited_documents.update(snap.documents)
            self._draw(snap.data)
            if not self.running:  # an answer, a question or an error: what a saved notebook keeps
                self.changed()
            return self.running

    def _draw(self, data: dict[str, Any]) -> None:
        self._draw_turns(data["turns"])
        self._draw_options(data)
        self._draw_documents(data.get("documents") or [])
        self.status.value = self._status_html(data)
        self.send_button.disabled = self.running
        self.stop_button.disabled = not self.running

    def _status_html(self, data: dict[str, Any]) -> Html:
        """What the conversation is doing; while it runs, which poller reads it (an attribute
        for the browser test: `asyncio` in a kernel)."""
        status = str(data.get("status"))
        if status == "error":
            return error_html(f"The run failed: {data.get('error') or 'no reason given'}")
        if status == "completed":
            return Html("")
        text = muted(STATUS_TEXT.get(status, status))
        if status == "running" and self.poller:
            return Html(f'<span data-poller="{escape(self.poller)}">{text}</span>')
        return text

    def _draw_turns(self, turns: list[dict[str, Any]]) -> None:
        kept: dict[int, tuple[str, w.Widget]] = {}
        for turn in turns:
            key = repr(sorted(turn.items()))
            drawn = self._drawn.get(turn["turn_index"])
            if drawn is None or drawn[0] != key:
                drawn = (key, turn_widget(turn, self.open_citation))
            kept[turn["turn_index"]] = drawn
        self._drawn = kept
        self.turns.children = tuple(widget for _, widget in kept.values())

    def _draw_options(self, data: dict[str, Any]) -> None:
        question = data["turns"][-1].get("question") if data["turns"] else None
        options = (question or {}).get("options") or [] if data["status"] == "needs_input" else []
        buttons = []
        for option in options:
            button = w.Button(description=str(option), tooltip="send this as the reply")
            button.layout.width = "auto"
            button.on_click(lambda _, text=str(option): self.send(text))
            buttons.append(button)
        self.options.children = tuple(buttons)

    def _draw_documents(self, docs: list[dict[str, Any]]) -> None:
        for doc in docs:
            if doc["id"] not in self._doc_widgets and doc["id"] in self.files:
                filename, data = self.files[doc["id"]]
                save = self._saver(doc["id"])
                self._doc_widgets[doc["id"]] = document_widget(doc, filename, data, save)
        listed = [
            self._doc_widgets.get(d["id"]) or self._unfetched_widget(d)
            for d in docs
            if d["id"] in self._doc_widgets or d["id"] in self.unfetched
        ]
        head = [w.HTML("<b>Produced documents</b>")] if listed else []
        self.documents.children = tuple(head + listed)

    def _unfetched_widget(self, doc: dict[str, Any]) -> w.Widget:
        """A produced document whose file could not be fetched: its title and why."""
        why = f"could not be fetched: {self.unfetched[doc['id']]}"
        return w.HTML(f"<b>{escape(doc.get('title') or doc['id'])}</b> {error_html(why)}")

    def _saver(self, document_id: str) -> Any:
        def save() -> None:
            conversation = self.conversation
            if conversation is not None:
                where = conversation.download(document_id)
                self.status.value = muted(f"saved to {where}")

        return save

    def _all_citations(self) -> list[dict[str, Any]]:
        return [c for t in (self.data or {}).get("turns") or [] for c in t.get("citations") or []]

    def citation(self, index: int) -> dict[str, Any] | None:
        """Citation `index` of the conversation (the spec's object)."""
        return next((c for c in self._all_citations() if c["index"] == index), None)

    def open_citation(self, index: int) -> CitedPage | None:
        """Open the cited page in the viewer, the cited passage marked (for a page citation, its
        first passage citation's text)."""
        cite = self.citation(index)
        if cite is None:
            return None
        cited = self.cited.get(index) or resolve_citation(
            self.engine, cite, self._all_citations(), self.passages, self.cited_documents
        )
        if cited.document_id is None:
            name = escape(cite.get("name"))
            self.errors.general.value = error_html(f"The cited document was not found: {name}")
            shown(self.errors.general, True)
            self.changed()
            return cited
        self.cited[index] = cited
        shown(self.reader, True)
        self.viewer.open(cited.document_id, page=cited.page, highlight=cited.passage, document=cite)
        return cited
