"""A deterministic agent for tests of the conversation service and its front ends.

Tags in the message steer it: `[clarify]` asks a clarifying question, `[fail]` raises, `[text]`,
`[file]`, `[docx]` and `[image]` produce a document. Otherwise it answers with a fixed answer and
one page and one passage citation, over a real page of `engine` when one is given. A `gate`
(threading.Event) holds every run after its first step until the test sets it, and `step_s`
spaces the steps, so a test can catch a run mid-way; both give way to a stop.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from regnb.agent.types import (
    Agent,
    Produced,
    SourcedCitation,
    Step,
    Stopped,
    TurnRequest,
    TurnResult,
)
from regnb.conversations._store import open_store
from regnb.conversations.service import ConversationService
from regnb.settings import Settings

__all__ = ["FAKE_PNG", "FakeAgent", "open_service", "wait_until"]

FAKE_PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


class FakeAgent:
    """An `Agent` that answers at once (or when its gate opens), the same way every time."""

    def __init__(
        self,
        engine: Any = None,
        *,
        gate: threading.Event | None = None,
        step_s: float = 0.0,
        keywords: Sequence[str] = ("sterility",),
    ) -> None:
        self.engine, self.gate, self.step_s, self.keywords = engine, gate, step_s, list(keywords)
        self.requests: list[TurnRequest] = []
        self.started = threading.Event()
        self.active = self.most_active = 0  # runs inside `run` now, and the most at once
        self._count = threading.Lock()
        self._source: dict[str, Any] | None = None

    def __call__(self) -> FakeAgent:
        """The agent factory: the same agent for every run, so a test can read `requests`."""
        return self

    def run(
        self,
        request: TurnRequest,
        report: Callable[[list[Step]], None],
        stopped: Callable[[], bool],
    ) -> TurnResult:
        with self._count:
            self.requests.append(request)
            self.active += 1
            self.most_active = max(self.most_active, self.active)
        try:
            return self._run(request, report, stopped)
        finally:
            with self._count:
                self.active -= 1

    def _run(
        self,
        request: TurnRequest,
        report: Callable[[list[Step]], None],
        stopped: Callable[[], bool],
    ) -> TurnResult:
        steps = [Step("Searching the fake corpus", 3)]
        report(steps)
        self.started.set()
        self._hold(stopped)
        steps.append(Step("Reading 1 document", 1))
        report(steps)
        self._pause(stopped)
        if "[fail]" in request.message:
            raise RuntimeError("the fake agent was told to fail")
        if "[clarify]" in request.message:
            question = {
                "question": "Which dataset do you mean?",
                "options": ["Form 483", "Recalls"],
            }
            return TurnResult("needs_input", "Which dataset do you mean?", question=question)
        steps.append(Step("Writing the answer", 0))
        report(steps)
        return self._answer(request)

    def _hold(self, stopped: Callable[[], bool]) -> None:
        while self.gate is not None and not self.gate.wait(0.01):
            if stopped():
                raise Stopped
        if stopped():
            raise Stopped

    def _pause(self, stopped: Callable[[], bool]) -> None:
        end = time.monotonic() + self.step_s
        while time.monotonic() < end:
            if stopped():
                raise Stopped
            time.sleep(min(0.01, max(0.0, end - time.monotonic())))
        if stopped():
            raise Stopped

    def source(self) -> dict[str, Any]:
        """The cited page: the first page of the best document for `keywords`, or a made-up one."""
        if self._source is None:
            self._source = self._real_page() if self.engine is not None else None
            if self._source is None:
                self._source = {
                    "document_id": "fake-document",
                    "dataset_id": "fda_483",
                    "dataset": "FDA Form 483",
                    "title": "A fake inspection record",
                    "date": "2021-01-15",
                    "url": "https://example.test/fake",
                    "text": "Sterility assurance failed. Nothing else was found.",
                }
        return self._source

    def _real_page(self) -> dict[str, Any] | None:
        found = self.engine.search(self.keywords, limit=1).to_dict()["results"]
        if not found:
            return None
        doc = found[0]
        read = self.engine.read(doc["document_id"], 1, 1)
        dataset = self.engine.datasets()[doc["dataset"]]
        return {
            "document_id": doc["document_id"],
            "dataset_id": doc["dataset"],
            "dataset": dataset.name,
            "title": doc["title"],
            "date": doc["date"],
            "url": doc["url"] or "",
            "text": read.page_list[0]["text"],
        }

    def _answer(self, request: TurnRequest) -> TurnResult:
        src = self.source()
        page, passage = request.first_citation, request.first_citation + 1
        cited = src["text"].split(". ")[0]
        common = {
            "dataset": src["dataset"],
            "date": src["date"],
            "page_num": 1,
            "url": src["url"],
            "document_id": src["document_id"],
            "dataset_id": src["dataset_id"],
        }
        citations = [
            SourcedCitation(index=page, name=f"{src['title']}, page 1", **common),
            SourcedCitation(
                index=passage,
                name=f"{src['title']}, page 1",
                block_id="¶1",
                parent_index=page,
                passage=cited,
                **common,
            ),
        ]
        answer = f"**In short:** {cited} [{passage}].\n\nSource: {src['title']} [{page}]."
        return TurnResult(
            "completed",
            answer,
            citations=citations,
            documents=self._documents(request.message, answer),
            state={"turn": len(request.history), "message": request.message},
        )

    @staticmethod
    def _documents(message: str, answer: str) -> list[Produced]:
        out = []
        if "[text]" in message:
            out.append(Produced("Report", "text", content=answer))
        if "[file]" in message:
            out.append(
                Produced("Letters", "file", "letters.xlsx", data=b"PK fake", media_type=XLSX)
            )
        if "[docx]" in message:
            out.append(Produced("Memo", "file", "memo.docx", data=b"PK memo", media_type=DOCX))
        if "[image]" in message:
            out.append(
                Produced("Chart", "image", "chart.png", data=FAKE_PNG, media_type="image/png")
            )
        return out


def open_service(
    home: str | Path,
    agent: Callable[[], Agent] | None = None,
    *,
    clock: Callable[[], float] = time.time,
    busy_timeout_s: float = 10.0,
    retry_sleep: Callable[[float], object] | None = None,
    **settings: Any,
) -> ConversationService:
    """A service over the store under `home` (the fake agent unless one is given), with
    `settings` changed from the environment's; `busy_timeout_s` is how long the store waits for
    another process's write lock, `retry_sleep` the wait between tries to record a failure."""
    base = dataclasses.replace(Settings.from_env(), home=Path(home), **settings)
    factory = agent if agent is not None else FakeAgent()
    store = open_store(base, busy_timeout_s)
    return ConversationService(factory, store, base, clock, retry_sleep)


def wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll `condition` until it holds; AssertionError after `timeout` seconds (a bound that a
    passing test never reaches)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"still false after {timeout:g} s")
        time.sleep(0.005)
