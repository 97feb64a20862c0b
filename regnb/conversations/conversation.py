"""Research conversations from Python: `Conversation`, and the `ask` / `conversation` /
`conversations` methods of every engine (local or remote; `ConversationMethods` gives them to a
class, `ask` and `summaries` are the same as functions of an engine).

    conv = eng.ask("Which sterile drug makers got warning letters for media fill failures?")
    conv.wait()          # returns when the turn leaves `running`; shows its steps meanwhile
    conv.answer          # markdown with [1], [2] ...; renders as Markdown in a notebook
    conv.citations       # DataFrame: index, name, dataset, date (datetime64), page_num, url, ...
    conv.reply("Only those in California").wait()

Everything here is built on the seven `ConversationAPI` methods (the spec's endpoints), so the
same objects work over a local engine and over HTTP. The conversation is held as the typed
`regnb.models.ConversationRead` (`conv.data`); `turns`, `question`, `document()` and `to_dict()`
give the spec's JSON objects, and the DataFrames' columns are the models' fields.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pandas as pd

from regnb.models import Citation, ConversationRead, ConversationSummary, ProducedDocumentEntry
from regnb.settings import Settings
from regnb.validate import spec_arguments

if TYPE_CHECKING:
    from regnb.interface import ConversationAPI

__all__ = ["Conversation", "ConversationMethods", "Markdown", "ask", "summaries"]

# the citation's fields, then what a local store knows beside them
CITATION_COLUMNS = [*Citation.wire_keys(), "passage", "document_id"]
DOCUMENT_COLUMNS = ProducedDocumentEntry.required_keys()  # `available` is an extension
SUMMARY_COLUMNS = ConversationSummary.wire_keys()
WAIT_MAX_S = Settings.conversation_wait_max_s  # the spec's largest `wait`
PROGRESS_POLL_S = 3.0  # a read per 3 s keeps a remote key well under its 50 requests a minute


class Markdown(str):
    """A str that a notebook renders as Markdown."""

    def _repr_markdown_(self) -> str:
        return str(self)


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def steps_line(data: ConversationRead | Mapping[str, Any]) -> str:
    """One line for a conversation's progress: its status and the running turn's steps."""
    if isinstance(data, ConversationRead):
        data = data.to_dict()
    turns = data.get("turns") or []
    steps = (turns[-1].get("steps") or []) if turns else []
    parts = [
        f"{s['message']} ({s['count']})" if s.get("count") else str(s["message"]) for s in steps
    ]
    return " · ".join([data.get("status", "?"), *parts])


class _Progress:
    """An updating display of the steps: in place in a notebook, one line on stderr elsewhere."""

    def __init__(self, enabled: bool) -> None:
        self.enabled, self.handle, self.last = enabled, None, ""
        self.kernel = enabled and _in_kernel()
        self.tty = enabled and not self.kernel and sys.stderr.isatty()

    def show(self, data: ConversationRead) -> None:
        line = steps_line(data)
        if not self.enabled or line == self.last:
            return
        self.last = line
        if self.kernel:
            from IPython.display import Markdown as IPMarkdown
            from IPython.display import display

            if self.handle is None:
                self.handle = display(IPMarkdown(line), display_id=True)
            else:
                self.handle.update(IPMarkdown(line))
        elif self.tty:  # one line, rewritten in place
            sys.stderr.write("\r\x1b[2K" + line)
            sys.stderr.flush()
        else:  # a log or a pipe: one line per change
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def close(self) -> None:
        if self.tty and self.last:
            sys.stderr.write("\n")
            sys.stderr.flush()


class Conversation:
    """One research conversation; properties read it again while it runs."""

    def __init__(
        self,
        api: ConversationAPI,
        conversation_id: str,
        data: ConversationRead | Mapping[str, Any] | None = None,
    ) -> None:
        self.api = api
        self.id = conversation_id
        if data is None:
            data = api.read_conversation(conversation_id, 0)
        elif not isinstance(data, ConversationRead):
            data = ConversationRead.from_dict(data)
        self._data = data

    def __repr__(self) -> str:
        return f"<regnb.Conversation {self.id} {self._data.status}>"

    def _current(self) -> ConversationRead:
        if self._data.status == "running":
            self.refresh()
        return self._data

    @property
    def data(self) -> ConversationRead:
        """The conversation read, typed (read again while it runs)."""
        return self._current()

    def refresh(self) -> Conversation:
        """Read the conversation now."""
        self._data = self.api.read_conversation(self.id, 0)
        return self

    def wait(self, timeout: float | None = None, *, progress: bool = True) -> Conversation:
        """Return when the latest turn leaves `running` (or after `timeout` seconds, still
        running); `progress` shows the steps meanwhile."""
        end = None if timeout is None else time.monotonic() + timeout
        display = _Progress(progress)
        poll = PROGRESS_POLL_S if progress else WAIT_MAX_S
        try:
            self._data = self.api.read_conversation(self.id, 0)
            while True:
                display.show(self._data)
                remaining = float("inf") if end is None else end - time.monotonic()
                if self._data.status != "running" or remaining <= 0:
                    return self
                self._data = self.api.read_conversation(self.id, min(poll, remaining))
        finally:
            display.close()

    @property
    def status(self) -> str:
        """`running`, `completed`, `needs_input`, `stopped` or `error`."""
        return self._current().status

    @property
    def error(self) -> str | None:
        """Why the run failed, when the status is `error`."""
        return self._current().error

    @property
    def turns(self) -> list[dict[str, Any]]:
        """Every message and its answer, oldest first (the spec's turn objects)."""
        return [t.to_dict() for t in self._current().turns]

    @property
    def answer(self) -> Markdown | None:
        """The latest answered turn's markdown, with citation markers [n]."""
        for turn in reversed(self._current().turns):
            if turn.status == "completed" and turn.answer is not None:
                return Markdown(turn.answer)
        return None

    @property
    def question(self) -> dict[str, Any] | None:
        """The clarifying question waiting for a reply (`question`, `options`), or None."""
        data = self._current()
        if data.status != "needs_input" or not data.turns or data.turns[-1].question is None:
            return None
        return data.turns[-1].question.to_dict()

    @property
    def citations(self) -> pd.DataFrame:
        """Every citation of the conversation, with the cited passage's text where known."""
        cited = self._current().citations
        passages: dict[int, str | None] = {}
        finder = getattr(self.api, "citation_passages", None)
        if finder is not None and any(c.block_id is not None for c in cited):
            passages = finder(self.id)
        documents: dict[int, str] = {}
        locator = getattr(self.api, "citation_documents", None)  # a local store knows them
        if locator is not None and cited:
            documents = locator(self.id)
        rows = [
            {
                **{key: getattr(c, key) for key in Citation.wire_keys()},
                "passage": passages.get(c.index) if c.block_id is not None else None,
                "document_id": documents.get(c.index),
            }
            for c in cited
        ]
        frame = pd.DataFrame(rows, columns=CITATION_COLUMNS)
        frame["date"] = pd.to_datetime(frame["date"], format="%Y-%m-%d", errors="coerce")
        return frame.astype({"page_num": "Int64", "parent_index": "Int64"})

    @property
    def documents(self) -> pd.DataFrame:
        """The reports, files and images produced: id, title, type, created_at."""
        rows = [d.to_dict() for d in self._current().documents]
        return pd.DataFrame(rows, columns=DOCUMENT_COLUMNS)

    def document(self, document_id: str) -> dict[str, Any]:
        """A produced document: text inline (`content`), a file or image as a signed `url`."""
        return self.api.produced_document(self.id, document_id).to_dict()

    def download(self, document_id: str, path: str | Path | None = None) -> Path:
        """Write a produced document to `path` (a file, or a folder; default: the current
        folder, under the document's file name) and return where it went. Text is `.md`."""
        filename, data = self.api.download_document(self.id, document_id)
        target = Path(path) if path is not None else Path.cwd()
        if target.is_dir():
            target = target / Path(filename).name
        target.write_bytes(data)
        return target

    def reply(self, message: str, *, idempotency_key: str | None = None) -> Conversation:
        """Send a follow-up, or the answer to a clarifying question; the conversation runs."""
        self.api.send_message(self.id, message, idempotency_key=idempotency_key)
        return self.refresh()

    def stop(self) -> bool:
        """Stop the running message (removed, with what it produced); False if none ran."""
        stopped = self.api.stop_conversation(self.id).stopped
        self.refresh()
        return stopped

    def _with_passages(self) -> dict[str, Any]:
        """The spec's conversation, each passage citation with its passage (what exports quote)."""
        data = self._current().to_dict()
        frame = self.citations
        passages = {int(i): p for i, p in zip(frame["index"], frame["passage"], strict=True)}
        for turn in data["turns"]:
            for cite in turn["citations"]:
                if isinstance(passages.get(cite["index"]), str):
                    cite["passage"] = passages[cite["index"]]
        return data

    def to_markdown(self, path: str | Path | None = None) -> str:
        """Every turn's message, answer and numbered sources (passages quoted), as Markdown;
        written to `path` when given."""
        from regnb.agent.produce import answer_to_markdown

        text = answer_to_markdown(self._with_passages())
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_docx(self, path: str | Path) -> Path:
        """The conversation as a Word document (headings, answers, tables, numbered sources)."""
        from regnb.agent.produce import answer_to_docx

        target = Path(path)
        target.write_bytes(answer_to_docx(self._with_passages()))
        return target

    def to_excel(self, path: str | Path) -> Path:
        """The citations as a filterable sheet, each linked to its source."""
        from regnb.present.excel import frame_to_excel

        return frame_to_excel(
            {"Citations": self.citations}, path, links={"Citations": {"name": "url"}}
        )

    def to_csv(self, path: str | Path) -> Path:
        """The citations as CSV."""
        target = Path(path)
        self.citations.to_csv(target, index=False)
        return target

    def to_parquet(self, path: str | Path) -> Path:
        """The citations as Parquet, typed."""
        target = Path(path)
        self.citations.to_parquet(target, index=False)
        return target

    def to_dict(self) -> dict[str, Any]:
        """Exactly the spec's conversation read."""
        return self._current().to_dict()

    def _repr_markdown_(self) -> str:
        data = self._current()
        lines = [f"**Conversation** `{self.id}` · {data.status}"]
        if data.turns:
            last = data.turns[-1]
            lines.append(f"> {last.message}")
            if last.status == "running":
                lines.append(steps_line(data))
            elif last.question:
                lines.append(f"*{last.question.question}*")
            elif last.answer:
                lines.append(last.answer)
        if data.error:
            lines.append(f"Error: {data.error}")
        return "\n\n".join(lines)

    def _repr_html_(self) -> str:
        """The same as `_repr_markdown_`, rendered safely (raw HTML in an answer is escaped);
        each citation marker links to its source."""
        from regnb.present.markdown import answer_html

        urls = {c.index: c.url for c in self._current().citations}
        body = answer_html(self._repr_markdown_(), urls)
        return f'<div class="regnb-conversation">{body}</div>'


def ask(api: ConversationAPI, message: str, *, idempotency_key: str | None = None) -> Conversation:
    """Start a research conversation over `api`; it runs in the background."""
    started = api.start_conversation(message, idempotency_key=idempotency_key)
    return Conversation(api, started.conversation_id)


def summaries(
    api: ConversationAPI, status: str = "all", limit: int = 20, offset: int = 0
) -> pd.DataFrame:
    """Conversation summaries of `api`, most recent activity first; `attrs["total"]` counts all
    that match `status` (`all` or `running`)."""
    body = api.list_conversations(status, limit, offset)
    rows = [s.to_dict() for s in body.conversations]
    frame = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
    frame.attrs.update(total=body.total, limit=body.limit, offset=body.offset)
    return frame


class ConversationMethods:
    """`ask`, `conversation` and `conversations` on anything that implements ConversationAPI."""

    @spec_arguments
    def ask(self, message: str, *, idempotency_key: str | None = None) -> Conversation:
        """Start a research conversation; it runs in the background (`.wait()` for the answer)."""
        return ask(cast("ConversationAPI", self), message, idempotency_key=idempotency_key)

    def conversation(self, conversation_id: str) -> Conversation:
        """An existing conversation of this account."""
        return Conversation(cast("ConversationAPI", self), conversation_id)

    def conversations(self, status: str = "all", limit: int = 20, offset: int = 0) -> pd.DataFrame:
        """Conversation summaries, most recent activity first; `attrs["total"]` counts all that
        match `status` (`all` or `running`)."""
        return summaries(cast("ConversationAPI", self), status, limit, offset)
