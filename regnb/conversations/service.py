"""The conversation service: the spec's turn state table over the store, for any account.

Each public method mirrors one endpoint and returns the spec's object as a `regnb.models` type
(start and follow-up return an `Accepted`, whose `started` tells 202 from a retry's 200). Rules are checked here, in one
transaction with the writes they guard; the SQL is the store's. The HTTP routes and the local
engine both call this class: the routes with the caller's account and plan, a notebook with the
account `local`.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread

from regnb.agent.types import Agent
from regnb.conversations._checks import (
    check_idempotency_key,
    check_list,
    check_message,
    check_wait,
    needs_paid_plan,
)
from regnb.conversations._files import mark_gone, read_produced
from regnb.conversations._runner import (
    INTERRUPTED,
    RECHECK_S,
    Changes,
    Failure,
    Run,
    Runner,
    fail_turn,
    iso,
)
from regnb.conversations._signing import Grant, Signer
from regnb.conversations._store import Store, Tx
from regnb.conversations._views import (
    accepted_body,
    conversation_body,
    link_base,
    produced_body,
    summary_body,
)
from regnb.errors import (
    ConcurrentConversations,
    Forbidden,
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    NotFound,
    QuotaExhausted,
    TurnInFlight,
)
from regnb.models import (
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ProducedDocument,
)
from regnb.settings import Settings

__all__ = ["Accepted", "ConversationService", "FileData"]

log = logging.getLogger("regnb.conversations")

POLL_S = 0.05  # how often an async read looks at this process's changes
CLOSE_WAIT_S = 5.0
TITLE_CHARS = 100


@dataclass(frozen=True)
class Accepted:
    """A start or follow-up: `body` is the spec's response, `started` False for a retry."""

    body: ConversationAccepted
    started: bool


@dataclass(frozen=True)
class FileData:
    """A produced document's bytes and how to save them."""

    filename: str
    media_type: str
    data: bytes


def _fingerprint(conversation_id: str | None, message: str) -> str:
    """What a retry must repeat: the same message to the same conversation (or a new one)."""
    target = conversation_id or ""
    return hashlib.sha256(f"{target}\0{message}".encode("utf-8", "surrogatepass")).hexdigest()


def _failed(
    conversation: dict[str, Any], turns: list[dict[str, Any]], failure: Failure
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The rows as they will read once the store records `failure`."""
    turns = [
        {**t, "status": "error", "steps": []} if t["run_id"] == failure.run_id else t for t in turns
    ]
    return {**conversation, "status": "error", "error": failure.error}, turns


def _title(message: str) -> str:
    line = " ".join(message.split())
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1].rstrip() + "…"


class ConversationService:
    """Conversations of every account of one store, answered by agents from `agent_factory`.

    `clock` gives epoch seconds (timestamps, months of the question quota, link expiry);
    `retry_sleep` waits between tries to record a failure the store refused (tests give a fake
    one). The service owns `store` and closes it in `close()`.
    """

    def __init__(
        self,
        agent_factory: Callable[[], Agent],
        store: Store,
        settings: Settings,
        clock: Callable[[], float] = time.time,
        retry_sleep: Callable[[float], object] | None = None,
    ) -> None:
        self.store, self.settings, self.clock = store, settings, clock
        self.changes = Changes()
        self.runner = Runner(
            store,
            agent_factory,
            settings.agent_workers,
            settings.agent_pace_s,
            clock,
            self.changes,
            retry_sleep,
        )
        self._signer: Signer | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"<regnb ConversationService over {self.store!r}>"

    @property
    def base_url(self) -> str:
        return link_base(self.settings.public_url)

    def _now(self) -> str:
        return iso(self.clock())

    @contextmanager
    def _write(self) -> Iterator[Tx]:
        """A write transaction that first records the failures the store refused before (a
        turn never reads `running` again once the store takes writes)."""
        with self.store.write() as tx:
            settled = self.runner.record_failures(tx)
            yield tx
        self.runner.recorded(settled)

    # start and follow-up

    def start(self, account: str, plan: str, message: Any, idempotency_key: Any = None) -> Accepted:
        """`POST /api/v3/conversations`: a new conversation whose first turn is running."""
        message = check_message(message)
        key = check_idempotency_key(idempotency_key)
        return self._accept(account, plan, None, message, key)

    def send(
        self,
        account: str,
        plan: str,
        conversation_id: str,
        message: Any,
        idempotency_key: Any = None,
    ) -> Accepted:
        """`POST /api/v3/conversations/{id}/messages`: a follow-up turn, running."""
        message = check_message(message)
        key = check_idempotency_key(idempotency_key)
        return self._accept(account, plan, conversation_id, message, key)

    def _accept(
        self, account: str, plan: str, conversation_id: str | None, message: str, key: str | None
    ) -> Accepted:
        self.recover()
        fingerprint = _fingerprint(conversation_id, message)
        if key is not None:
            retry = self._claim(account, key, fingerprint)
            if retry is not None:
                return retry
        try:
            run = self._begin(account, plan, conversation_id, message, key, fingerprint)
        except BaseException:
            if key is not None:
                with self._write() as tx:
                    tx.release_key(account, key, self.store.owner)
            raise
        self.runner.launch(run)
        self.changes.bump(run.conversation_id)
        body = accepted_body(self.base_url, run.conversation_id, run.turn_index, "running")
        return Accepted(body, started=True)

    def _claim(self, account: str, key: str, fingerprint: str) -> Accepted | None:
        """The earlier turn of a used key, or None once this request holds the key."""
        with self._write() as tx:
            row = tx.key(account, key)
            if row is None or (row["state"] == "pending" and not self.store.alive(row["owner"])):
                tx.claim_key(account, key, fingerprint, self.store.owner, self._now())
                return None
            if row["fingerprint"] != fingerprint:
                raise IdempotencyKeyReused(
                    "this Idempotency-Key was already used with a different message",
                    field="Idempotency-Key",
                )
            if row["state"] == "pending":
                raise IdempotencyKeyInUse(
                    "a request with this Idempotency-Key is still being processed; retry shortly",
                    field="Idempotency-Key",
                    retry_after=1,
                )
            turn = tx.turn_by_run(row["run_id"])
        status = turn["status"] if turn is not None else "stopped"
        body = accepted_body(self.base_url, row["conversation_id"], row["turn_index"], status)
        return Accepted(body, started=False)

    def _begin(
        self,
        account: str,
        plan: str,
        conversation_id: str | None,
        message: str,
        key: str | None,
        fingerprint: str,
    ) -> Run:
        """Check the state table's conditions and write the running turn, in one transaction."""
        now = self._now()
        run_id = "run_" + secrets.token_hex(12)
        with self._write() as tx:
            turn_index = 0
            if conversation_id is not None:
                turn_index = self._next_turn(tx, account, conversation_id)
            self._check_limits(tx, account, plan, now[:7])
            if conversation_id is None:
                conversation_id = "conv_" + secrets.token_hex(12)
                tx.add_conversation(conversation_id, account, _title(message), now)
            tx.add_turn(
                {
                    "conversation_id": conversation_id,
                    "turn_index": turn_index,
                    "message": message,
                    "submitted_at": now,
                    "plan": plan,
                    "run_id": run_id,
                    "owner": self.store.owner,
                    "idempotency_key": key,
                    "fingerprint": fingerprint,
                }
            )
            tx.touch(conversation_id, now)
            tx.set_status(conversation_id, "running")
            tx.count_question(account, now[:7], 1)
            if key is not None:
                tx.settle_key(account, key, conversation_id, turn_index, run_id)
        return Run(run_id, conversation_id, turn_index, message, plan, account)

    def _conversation(self, tx: Tx, account: str, conversation_id: str) -> dict[str, Any]:
        conversation = tx.conversation(account, conversation_id)
        if conversation is None:
            raise NotFound(f"no conversation {conversation_id!r} in this account")
        return conversation

    def _next_turn(self, tx: Tx, account: str, conversation_id: str) -> int:
        if self._conversation(tx, account, conversation_id)["status"] == "running":
            raise TurnInFlight(
                "the conversation is still running its previous message; wait for it or stop it"
            )
        latest = tx.latest_turn(conversation_id)
        return latest["turn_index"] + 1 if latest is not None else 0

    def _check_limits(self, tx: Tx, account: str, plan: str, month: str) -> None:
        limit = self.settings.concurrent_conversations
        if limit > 0 and tx.running_count(account) >= limit:
            raise ConcurrentConversations(
                f"the account already has {limit} conversations running; "
                "wait for one to finish or stop one",
                retry_after=5,
            )
        quota = self.settings.free_monthly_questions
        if plan == "free" and quota > 0 and tx.questions_used(account, month) >= quota:
            raise QuotaExhausted(
                f"the free plan's {quota} questions of this month are used up; "
                "a paid plan has no monthly limit"
            )

    # list, read, stop

    def list_conversations(
        self, account: str, status: Any = "all", limit: Any = 20, offset: Any = 0
    ) -> ConversationList:
        """`GET /api/v3/conversations`: summaries, most recent activity first."""
        status, limit, offset = check_list(status, limit, offset)
        self.recover()
        running = status == "running"
        failing = self.runner.failing()
        exclude = sorted(failing) if running else []
        with self.store.read() as tx:
            rows = tx.summaries(account, running, limit, offset, exclude)
            total = tx.count(account, running, exclude)
        for row in rows:
            if row["status"] == "running" and row["conversation_id"] in failing:
                row["status"] = "error"
        summaries = tuple(summary_body(self.base_url, r) for r in rows)
        return ConversationList(summaries, total, limit, offset)

    def view(self, account: str, conversation_id: str) -> ConversationRead:
        """The conversation read, now."""
        with self.store.read() as tx:
            conversation = self._conversation(tx, account, conversation_id)
            running = conversation["status"] == "running"
            turns = tx.turns(conversation_id)
            citations = tx.citations(conversation_id)
            documents = tx.documents(conversation_id)
        if running and self.recover():
            return self.view(account, conversation_id)
        failure = self.runner.failing().get(conversation_id) if running else None
        if failure is not None:
            conversation, turns = _failed(conversation, turns, failure)
        documents = mark_gone(self.store.files, documents)
        return conversation_body(self.base_url, conversation, turns, citations, documents)

    def read(self, account: str, conversation_id: str, wait: Any = 0) -> ConversationRead:
        """`GET /api/v3/conversations/{id}?wait=`: as soon as it is not running, or after
        `wait` seconds (blocking the calling thread)."""
        wait = check_wait(wait, self.settings.conversation_wait_max_s)
        deadline = time.monotonic() + wait
        while True:
            seen = self.changes.generation(conversation_id)
            body = self.view(account, conversation_id)
            remaining = deadline - time.monotonic()
            if body.status != "running" or remaining <= 0:
                return body
            self.changes.wait(conversation_id, seen, min(remaining, RECHECK_S))

    async def read_async(
        self, account: str, conversation_id: str, wait: Any = 0
    ) -> ConversationRead:
        """The same read for an event loop: waiting holds no thread (short async sleeps on
        this process's changes; the store is read again at least every half second)."""
        wait = check_wait(wait, self.settings.conversation_wait_max_s)
        deadline = time.monotonic() + wait
        while True:
            seen = self.changes.generation(conversation_id)
            body = await anyio.to_thread.run_sync(self.view, account, conversation_id)
            if body.status != "running" or time.monotonic() >= deadline:
                return body
            recheck = min(deadline, time.monotonic() + RECHECK_S)
            while time.monotonic() < recheck and self.changes.generation(conversation_id) == seen:
                await anyio.sleep(min(POLL_S, max(0.0, recheck - time.monotonic())))

    def stop(self, account: str, conversation_id: str) -> ConversationStopped:
        """`POST /api/v3/conversations/{id}/stop`: the running message and what it produced are
        removed and not counted; `stopped` False when nothing ran."""
        self.recover()
        with self._write() as tx:
            conversation = self._conversation(tx, account, conversation_id)
            turn = tx.latest_turn(conversation_id)
            if conversation["status"] != "running" or turn is None or turn["status"] != "running":
                return ConversationStopped(conversation_id, stopped=False)
            tx.drop_turn(conversation_id, turn["turn_index"])
            tx.count_question(account, turn["submitted_at"][:7], -1)
            tx.set_status(conversation_id, "stopped")
        self.runner.signal_stop(turn["run_id"])
        shutil.rmtree(self.store.run_folder(turn["run_id"]), ignore_errors=True)
        self.changes.bump(conversation_id)
        return ConversationStopped(conversation_id, stopped=True)

    def recover(self) -> bool:
        """Turns running under a process that is gone read `error`; its key claims are freed.
        True when something was recovered."""
        with self.store.read() as tx:
            running = tx.running_turns()
            owners = {t["owner"] for t in running} | set(tx.pending_key_owners())
        dead = {o for o in owners if not self.store.alive(o)}
        if not dead:
            return False
        lost = [t for t in running if t["owner"] in dead]
        with self._write() as tx:
            for turn in lost:
                fail_turn(tx, turn["conversation_id"], turn["run_id"], INTERRUPTED)
            for owner in dead:
                tx.drop_pending_keys(owner)
        for turn in lost:
            shutil.rmtree(self.store.run_folder(turn["run_id"]), ignore_errors=True)
            self.changes.bump(turn["conversation_id"])
        return True

    # produced documents

    @property
    def signer(self) -> Signer:
        if self._signer is None:
            self._signer = Signer(self.store.secret())
        return self._signer

    def _document(self, account: str, conversation_id: str, document_id: str) -> dict[str, Any]:
        with self.store.read() as tx:
            self._conversation(tx, account, conversation_id)
            row = tx.document(conversation_id, document_id)
        if row is None:
            raise NotFound(f"no document {document_id!r} in conversation {conversation_id!r}")
        return row

    @staticmethod
    def _check_plan(plan: str, row: dict[str, Any]) -> None:
        if plan == "free" and needs_paid_plan(row["filename"], row["media_type"]):
            raise Forbidden("Word, Excel and PowerPoint files need a paid or enterprise plan")

    def document(
        self, account: str, plan: str, conversation_id: str, document_id: str
    ) -> ProducedDocument:
        """`GET .../documents/{id}`: text inline; a file or image as a new signed link."""
        row = self._document(account, conversation_id, document_id)
        (row,) = mark_gone(self.store.files, [row])
        if row["type"] == "text":
            return produced_body(row, content=row["content"])
        self._check_plan(plan, row)
        life = self.settings.download_url_life_s
        grant = Grant(account, conversation_id, document_id, int(self.clock()) + life, plan)
        url = f"{self.base_url}/api/v3/files/{self.signer.sign(grant)}"
        return produced_body(row, url=url, filename=row["filename"], expires_in=life)

    def download(self, account: str | None, token: str, plan: str | None = None) -> FileData:
        """`GET /api/v3/files/{token}`: the file a valid, unexpired link opens, under the plan it
        was made for; with an `account` (the caller's key), only a link of that account, under
        the account's `plan` now."""
        grant = self.signer.verify(token, account, self.clock())
        plan = plan if plan is not None else grant.plan
        return self.file(grant.account, plan, grant.conversation_id, grant.document_id)

    def file(self, account: str, plan: str, conversation_id: str, document_id: str) -> FileData:
        """A produced document's bytes (a text document as markdown)."""
        row = self._document(account, conversation_id, document_id)
        if row["type"] == "text":
            name = "".join(c if c.isalnum() or c in "-_ " else "-" for c in row["title"]).strip()
            data = (row["content"] or "").encode("utf-8")
            return FileData(f"{name or row['document_id']}.md", "text/markdown", data)
        self._check_plan(plan, row)
        data = read_produced(self.store.files, row)
        return FileData(row["filename"], row["media_type"], data)

    def citation_rows(self, account: str, conversation_id: str) -> list[dict[str, Any]]:
        """Every citation with what the store keeps beside the spec's fields (`document_id`,
        `dataset_id`, `passage`), oldest first."""
        with self.store.read() as tx:
            self._conversation(tx, account, conversation_id)
            return tx.citations(conversation_id)

    @property
    def closed(self) -> bool:
        """Whether `close()` was called: a closed service takes no more calls."""
        return self._closed

    def close(self) -> None:
        """Stop this process's runs (they read `error`, as after a restart) and close the store."""
        if self._closed:
            return
        self._closed = True
        runs = self.runner.live()
        if (runs or self.runner.failing()) and not self.store.closed:
            try:
                with self._write() as tx:
                    for run in runs:
                        fail_turn(tx, run.conversation_id, run.run_id, INTERRUPTED)
            except Exception as exc:  # the next open finds them under a dead owner
                log.error("closing: the store refused the ends of this process's runs (%s)", exc)
        self.runner.close(CLOSE_WAIT_S)
        self.store.close()
