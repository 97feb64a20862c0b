"""Runs turns in a bounded pool of worker threads, apart from the search threads.

A run builds the agent's `TurnRequest` from the store, passes progress (`report`) into the turn's
`steps`, answers `stopped()` from a local event or from the store (a stop made by another
process), writes produced files (a temporary name, then a rename) before the turn's row says it
is finished, and turns any failure of the agent into the turn's `error`.

Queued runs are taken in turn across accounts (`FairQueue`). A failure the store cannot record
(a full disk, another process holding the write lock) is kept here: the run reads as failed at
once (`failing()`), its worker and its account's slot are free, and the `error` is written by the
next write of this process or by a retry with backoff, whichever comes first.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import mimetypes
import os
import re
import secrets
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from regnb._postgres import is_database_error
from regnb.agent.types import (
    Agent,
    PriorTurn,
    Produced,
    SourcedCitation,
    Step,
    Stopped,
    TurnRequest,
    TurnResult,
)
from regnb.conversations._fair import FairQueue
from regnb.conversations._files import write_produced
from regnb.conversations._store import Store, Tx
from regnb.errors import RegnbError

__all__ = [
    "INTERRUPTED",
    "Changes",
    "Failure",
    "Run",
    "Runner",
    "citations_from_rows",
    "iso",
]

log = logging.getLogger("regnb.conversations")

INTERRUPTED = "the run was interrupted: the server stopped before it finished"
RECHECK_S = 0.5  # how often a run asks the store whether another process stopped it
RETRY_FIRST_S = 0.25  # the first wait before a failure the store refused is written again
RETRY_MAX_S = 5.0  # the longest wait between two tries
SLUG = re.compile(r"[^A-Za-z0-9._-]+")


def iso(seconds: float) -> str:
    """An ISO 8601 UTC timestamp of epoch `seconds`."""
    return dt.datetime.fromtimestamp(seconds, dt.UTC).isoformat(timespec="seconds")


BACKGROUND_NICENESS = 10


def background_priority() -> None:
    """Run the calling thread at a lower scheduling priority (Linux: niceness is per thread), so
    that research runs yield the cores to searches; elsewhere a no-op."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BACKGROUND_NICENESS)


class Changes:
    """A counter per conversation, bumped at each change, that readers can wait on."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._counts: dict[str, int] = {}

    def generation(self, conversation_id: str) -> int:
        with self._cond:
            return self._counts.get(conversation_id, 0)

    def bump(self, conversation_id: str) -> None:
        with self._cond:
            self._counts[conversation_id] = self._counts.get(conversation_id, 0) + 1
            self._cond.notify_all()

    def wait(self, conversation_id: str, since: int, timeout: float) -> bool:
        """Block until the conversation changes after generation `since`, or `timeout` passes."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._counts.get(conversation_id, 0) != since, timeout
            )


@dataclass
class Run:
    """A turn being answered in this process."""

    run_id: str
    conversation_id: str
    turn_index: int
    message: str
    plan: str
    account: str = ""
    stop: threading.Event = field(default_factory=threading.Event)
    checked: float = 0.0


@dataclass(frozen=True)
class Failure:
    """A run that failed while the store could not record it: its turn reads `error`."""

    run_id: str
    conversation_id: str
    error: str


def citations_from_rows(rows: Sequence[dict[str, Any]]) -> list[SourcedCitation]:
    """Stored citation rows as the agent's `SourcedCitation` objects."""
    return [
        SourcedCitation(
            index=r["idx"],
            name=r["name"],
            dataset=r["dataset"],
            date=r["date"],
            page_num=r["page_num"],
            url=r["url"],
            document_id=r["document_id"],
            dataset_id=r["dataset_id"],
            block_id=r["block_id"],
            parent_index=r["parent_index"],
            passage=r["passage"],
        )
        for r in rows
    ]


def check_result(result: TurnResult, first: int) -> None:
    """What the store needs of a result; ValueError says plainly what is wrong."""
    if result.status not in ("completed", "needs_input"):
        raise ValueError(f"the agent ended with status {result.status!r}")
    numbers = [c.index for c in result.citations]
    if len(set(numbers)) != len(numbers) or any(n < first for n in numbers):
        raise ValueError(f"the agent numbered its citations wrongly (the next number was {first})")
    if result.status == "needs_input" and not isinstance(result.question, dict):
        raise ValueError("the agent asked for input without a question")
    for doc in result.documents:
        if doc.type == "text" and not isinstance(doc.content, str):
            raise ValueError(f"the text document {doc.title!r} has no content")
        if doc.type in ("file", "image") and not isinstance(doc.data, bytes):
            raise ValueError(f"the {doc.type} {doc.title!r} has no data")
        if doc.type not in ("text", "file", "image"):
            raise ValueError(f"the document {doc.title!r} has the unknown type {doc.type!r}")


def _question(question: dict[str, Any] | None) -> dict[str, Any] | None:
    if question is None:
        return None
    return {
        "question": str(question.get("question", "")),
        "options": list(question.get("options") or []),
    }


def _explain(exc: BaseException) -> str:
    if isinstance(exc, RegnbError | ValueError):
        return f"the research could not finish: {exc}"
    if isinstance(exc, sqlite3.Error | OSError) or is_database_error(exc):
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return (
            f"the research could not finish: the conversation store could not be written ({detail})"
        )
    return f"the research could not finish: an unexpected {type(exc).__name__} in the agent"


class Runner:
    """The worker threads and the runs of this process.

    `sleep(seconds)` waits between tries to record a failure (tests give a fake one); the
    default wait ends early when the runner closes."""

    def __init__(
        self,
        store: Store,
        agent_factory: Callable[[], Agent],
        workers: int,
        pace_s: float,
        clock: Callable[[], float],
        changes: Changes,
        sleep: Callable[[float], object] | None = None,
    ) -> None:
        self.store, self.agent_factory, self.clock, self.changes = (
            store,
            agent_factory,
            clock,
            changes,
        )
        self.workers, self.pace_s = max(1, workers), pace_s
        self._closing = threading.Event()
        self.sleep = sleep or self._closing.wait
        self._runs: dict[str, Run] = {}  # queued or running
        self._queue: FairQueue[Run] = FairQueue()
        self._failures: dict[str, Failure] = {}  # by run id: not yet written to the store
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._threads: list[threading.Thread] = []
        self._retrying: threading.Thread | None = None

    def launch(self, run: Run) -> None:
        """Queue `run`; it starts when a worker is free and its account's turn comes."""
        with self._lock:
            self._runs[run.run_id] = run
            self._queue.put(run.account, run)
            self._threads = [t for t in self._threads if t.is_alive()]
            if len(self._threads) < self.workers:
                self._closing.clear()
                thread = threading.Thread(
                    target=self._work, name=f"regnb-agent-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
            self._ready.notify()

    def signal_stop(self, run_id: str) -> None:
        """Tell a run of this process that it was stopped."""
        with self._lock:
            run = self._runs.get(run_id)
        if run is not None:
            run.stop.set()

    def live(self) -> list[Run]:
        """The runs of this process, queued or running."""
        with self._lock:
            return list(self._runs.values())

    def close(self, timeout: float) -> None:
        """Stop every run and wait up to `timeout` seconds for the workers to let go."""
        with self._lock:
            self._closing.set()
            for run in self._queue.clear():
                self._runs.pop(run.run_id, None)
            for run in self._runs.values():
                run.stop.set()
            threads, self._threads = self._threads, []
            self._ready.notify_all()
        end = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, end - time.monotonic()))

    def _work(self) -> None:
        """A worker: the next run in turn, until the runner closes."""
        background_priority()
        while True:
            with self._lock:
                while not len(self._queue) and not self._closing.is_set():
                    self._ready.wait()
                if self._closing.is_set():
                    return
                taken = self._queue.take()
            if taken is None:
                continue
            account, run = taken
            try:
                self._execute(run)
            finally:
                with self._lock:
                    self._queue.done(account)

    # failures the store refused

    def failing(self) -> dict[str, Failure]:
        """Failed runs whose `error` the store has not taken yet, by conversation id."""
        with self._lock:
            return {f.conversation_id: f for f in self._failures.values()}

    def record_failures(self, tx: Tx) -> list[str]:
        """Write the waiting failures in `tx`; the run ids to pass to `recorded()` once it commits."""
        with self._lock:
            waiting = list(self._failures.values())
        for failure in waiting:
            fail_turn(tx, failure.conversation_id, failure.run_id, failure.error)
        return [f.run_id for f in waiting]

    def recorded(self, run_ids: Sequence[str]) -> None:
        """The failures of `run_ids` are in the store (their transaction committed)."""
        with self._lock:
            settled = [f for r in run_ids if (f := self._failures.pop(r, None)) is not None]
        for failure in settled:
            log.warning("run %s: its error is recorded now", failure.run_id)
            self.changes.bump(failure.conversation_id)

    def _keep_failure(self, failure: Failure) -> None:
        with self._lock:
            self._failures[failure.run_id] = failure
            if self._retrying is None or not self._retrying.is_alive():
                self._retrying = threading.Thread(
                    target=self._retry, name="regnb-agent-failures", daemon=True
                )
                self._retrying.start()

    def _retry(self) -> None:
        """Try to write the waiting failures, waiting longer after each refusal (at most
        RETRY_MAX_S), until none waits or the runner closes."""
        delay = RETRY_FIRST_S
        while True:
            with self._lock:
                if not self._failures or self._closing.is_set():
                    self._retrying = None
                    return
            self.sleep(delay)
            if self._closing.is_set():
                continue
            try:
                with self.store.write() as tx:
                    done = self.record_failures(tx)
            except Exception as exc:
                log.warning("the store still refuses run errors (%s); next try in %g s", exc, delay)
                delay = min(2 * delay, RETRY_MAX_S)
                continue
            self.recorded(done)
            delay = RETRY_FIRST_S

    # one run

    def _execute(self, run: Run) -> None:
        try:
            if run.stop.is_set() or (self.pace_s > 0 and run.stop.wait(self.pace_s)):
                raise Stopped
            request = self._request(run)
            agent = self.agent_factory()
            result = agent.run(request, self._reporter(run), self._stopper(run))
            check_result(result, request.first_citation)
            self._finish(run, result)
        except Stopped:
            self._fail(run, "the run was stopped before it finished")
        except Exception as exc:
            log.warning("run %s of %s failed", run.run_id, run.conversation_id, exc_info=True)
            self._fail(run, _explain(exc))
        finally:
            with self._lock:
                self._runs.pop(run.run_id, None)
            self.changes.bump(run.conversation_id)

    def _request(self, run: Run) -> TurnRequest:
        with self.store.read() as tx:
            turns = [t for t in tx.turns(run.conversation_id) if t["turn_index"] < run.turn_index]
            rows = tx.citations(run.conversation_id)
            first = tx.highest_citation(run.conversation_id) + 1
        history = [
            PriorTurn(
                message=t["message"],
                status=t["status"],
                answer=t["answer"],
                citations=citations_from_rows(
                    [r for r in rows if r["turn_index"] == t["turn_index"]]
                ),
                question=t["question"],
                state=t["state"],
            )
            for t in turns
        ]
        today = dt.datetime.fromtimestamp(self.clock(), dt.UTC).date()
        return TurnRequest(run.message, history, first, run.plan, today)

    def _reporter(self, run: Run) -> Callable[[list[Step]], None]:
        def report(steps: list[Step]) -> None:
            body = [s.to_dict() if isinstance(s, Step) else dict(s) for s in steps]
            with self.store.write() as tx:
                live = tx.set_steps(run.run_id, body)
            if not live:
                run.stop.set()
            self.changes.bump(run.conversation_id)

        return report

    def _stopper(self, run: Run) -> Callable[[], bool]:
        def stopped() -> bool:
            now = time.monotonic()
            if not run.stop.is_set() and now - run.checked >= RECHECK_S:
                run.checked = now
                with self.store.read() as tx:
                    turn = tx.turn_by_run(run.run_id)
                if turn is None or turn["status"] != "running":
                    run.stop.set()
            return run.stop.is_set()

        return stopped

    def _save_files(self, run: Run, documents: list[Produced], now: str) -> list[dict[str, Any]]:
        """Rows of the produced documents; files are in place (renamed) before they return."""
        folder = self.store.run_folder(run.run_id)
        rows = []
        for doc in documents:
            document_id = "doc_" + secrets.token_hex(12)
            row: dict[str, Any] = {
                "document_id": document_id,
                "conversation_id": run.conversation_id,
                "turn_index": run.turn_index,
                "title": doc.title,
                "type": doc.type,
                "created_at": now,
            }
            if doc.type == "text":
                row.update(content=doc.content, media_type="text/markdown")
            else:
                filename = doc.filename or SLUG.sub("-", doc.title).strip("-") or document_id
                media = doc.media_type or mimetypes.guess_type(filename)[0]
                suffix = os.path.splitext(filename)[1]
                final = write_produced(folder, f"{document_id}{suffix}", doc.data or b"")
                row.update(
                    filename=filename,
                    media_type=media or "application/octet-stream",
                    path=final.relative_to(self.store.files).as_posix(),
                )
            rows.append(row)
        return rows

    def _finish(self, run: Run, result: TurnResult) -> None:
        rows = self._save_files(run, result.documents, iso(self.clock()))
        with self.store.write() as tx:
            done = tx.finish_turn(
                run.run_id, result.status, result.answer, _question(result.question), result.state
            )
            if done:
                tx.add_citations(run.conversation_id, run.turn_index, result.citations)
                for row in rows:
                    tx.add_document(row)
                tx.set_status(run.conversation_id, result.status)
        if not done:  # stopped meanwhile: its files go too
            shutil.rmtree(self.store.run_folder(run.run_id), ignore_errors=True)

    def _fail(self, run: Run, error: str) -> None:
        """The turn becomes `error`; when the store refuses, the failure waits here (the turn
        reads failed meanwhile) and is written as soon as the store takes it."""
        failure = Failure(run.run_id, run.conversation_id, error)
        try:
            with self.store.write() as tx:
                done = [*self.record_failures(tx)]
                fail_turn(tx, run.conversation_id, run.run_id, error)
            self.recorded(done)
        except Exception as exc:
            if self.store.closed:  # closed under the run: the next open marks it interrupted
                log.warning("run %s ended after its store was closed", run.run_id)
            else:
                log.error(
                    "run %s of %s failed and the store refused its error (%s); it reads as "
                    "failed and is written when the store takes it",
                    run.run_id,
                    run.conversation_id,
                    exc,
                )
                self._keep_failure(failure)
        shutil.rmtree(self.store.run_folder(run.run_id), ignore_errors=True)


def fail_turn(tx: Tx, conversation_id: str, run_id: str, error: str) -> bool:
    """A running turn and its conversation become `error`; False when it no longer runs."""
    if tx.fail_turn(run_id, error):
        tx.set_status(conversation_id, "error", error)
        return True
    return False
