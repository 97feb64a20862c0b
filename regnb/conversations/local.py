"""Research conversations on a local engine: the seven `ConversationAPI` methods for account
`local` with the engine's plan, over the store under the engine's REGNB_HOME.

`LocalConversations` is a mixin of `regnb.Engine`. Its service is created on first use, one per
engine; the conversations outlive the process (a notebook finds them again after a kernel
restart). The agent comes from `engine.agent_factory` when set (tests give a fake one), else the
extractive research agent over this engine.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from regnb.agent.types import Agent
from regnb.conversations.service import ConversationService
from regnb.conversations.store import ConversationStore
from regnb.errors import InternalError
from regnb.models import (
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ProducedDocument,
)
from regnb.settings import Settings

__all__ = ["LOCAL_ACCOUNT", "LocalConversations", "default_agent_factory", "server_service"]

LOCAL_ACCOUNT = "local"
_create_lock = threading.Lock()


def default_agent_factory(engine: Any, settings: Settings | None = None) -> Callable[[], Agent]:
    """The extractive research agent over `engine`: imported when the first run starts, then
    the same agent for every run (its caches, such as block embeddings, are kept). `settings`
    bound the part of a message it reads (default: the environment's)."""
    made: list[Agent] = []
    lock = threading.Lock()

    def make() -> Agent:
        with lock:
            if not made:
                try:
                    from regnb.agent.agent import ExtractiveAgent
                except ImportError as exc:
                    raise InternalError(
                        "the research agent is not part of this build (regnb.agent.agent is missing)"
                    ) from exc
                chars = (settings or Settings.from_env()).agent_message_chars
                made.append(ExtractiveAgent(engine, message_chars=chars))
            return made[0]

    return make


def server_service(engine: Any, settings: Settings) -> ConversationService:
    """The service of a serving process: the engine's agent factory if it has one."""
    factory = getattr(engine, "agent_factory", None) or default_agent_factory(engine, settings)
    return ConversationService(factory, ConversationStore.under(settings.home), settings)


def _block_text(page_text: str, block_id: str) -> str | None:
    """The text of `block_id` on a page, by the agent's block splitter (None until it exists)."""
    try:
        from regnb.agent.blocks import block_text
    except ImportError:
        return None
    try:
        return block_text(page_text, block_id)
    except ValueError:
        return None


class LocalConversations:
    """`ConversationAPI` for a local engine (a mixin: needs `settings`, `plan` and `read`)."""

    settings: Settings
    plan: str
    agent_factory: Callable[[], Agent] | None = None

    def conversation_service(self) -> ConversationService:
        """This engine's service, created on first use."""
        service = self.__dict__.get("_conversation_service")
        if service is None:
            with _create_lock:
                service = self.__dict__.get("_conversation_service")
                if service is None:
                    store = ConversationStore.under(self.settings.home)
                    service = ConversationService(self._make_agent, store, self.settings)
                    self.__dict__["_conversation_service"] = service
        return service

    def _make_agent(self) -> Agent:
        if self.agent_factory is not None:
            return self.agent_factory()
        if "_default_agent" not in self.__dict__:
            self.__dict__["_default_agent"] = default_agent_factory(self, self.settings)
        return self.__dict__["_default_agent"]()  # type: ignore[no-any-return]

    def start_conversation(
        self, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """Start a conversation; returns at once with its first turn running."""
        service = self.conversation_service()
        return service.start(LOCAL_ACCOUNT, self.plan, message, idempotency_key).body

    def send_message(
        self, conversation_id: str, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """A follow-up (or the reply to a clarifying question); returns at once."""
        service = self.conversation_service()
        accepted = service.send(LOCAL_ACCOUNT, self.plan, conversation_id, message, idempotency_key)
        return accepted.body

    def list_conversations(
        self, status: str = "all", limit: int = 20, offset: int = 0
    ) -> ConversationList:
        """Conversation summaries, most recent activity first."""
        return self.conversation_service().list_conversations(LOCAL_ACCOUNT, status, limit, offset)

    def read_conversation(self, conversation_id: str, wait: float = 0) -> ConversationRead:
        """The conversation; waits up to `wait` seconds while it runs."""
        return self.conversation_service().read(LOCAL_ACCOUNT, conversation_id, wait)

    def stop_conversation(self, conversation_id: str) -> ConversationStopped:
        """Stop the running message: it and what it produced are removed."""
        return self.conversation_service().stop(LOCAL_ACCOUNT, conversation_id)

    def produced_document(self, conversation_id: str, document_id: str) -> ProducedDocument:
        """A produced document: text inline, a file or image as a signed URL."""
        service = self.conversation_service()
        return service.document(LOCAL_ACCOUNT, self.plan, conversation_id, document_id)

    def download_document(self, conversation_id: str, document_id: str) -> tuple[str, bytes]:
        """A produced document's file name and bytes, read from the store."""
        service = self.conversation_service()
        data = service.file(LOCAL_ACCOUNT, self.plan, conversation_id, document_id)
        return data.filename, data.data

    def citation_documents(self, conversation_id: str) -> dict[int, str]:
        """The document each citation names (what the spec's citation object leaves out)."""
        rows = self.conversation_service().citation_rows(LOCAL_ACCOUNT, conversation_id)
        return {row["idx"]: row["document_id"] for row in rows if row["document_id"]}

    def citation_passages(self, conversation_id: str) -> dict[int, str | None]:
        """The cited text of each passage citation: as stored, else cut from the page by its
        block id (None where that cannot be done)."""
        rows = self.conversation_service().citation_rows(LOCAL_ACCOUNT, conversation_id)
        pages: dict[tuple[str, int], str | None] = {}
        out: dict[int, str | None] = {}
        for row in rows:
            if row["block_id"] is None:
                continue
            passage = row["passage"]
            if passage is None and row["page_num"] is not None:
                passage = self._cut(pages, row["document_id"], row["page_num"], row["block_id"])
            out[row["idx"]] = passage
        return out

    def _cut(
        self, pages: dict[tuple[str, int], str | None], document_id: str, page: int, block: str
    ) -> str | None:
        if (document_id, page) not in pages:
            try:
                read = self.read(document_id, page, page)  # type: ignore[attr-defined]
                pages[(document_id, page)] = read.page_list[0]["text"] if read.page_list else None
            except Exception:
                pages[(document_id, page)] = None
        text = pages[(document_id, page)]
        return _block_text(text, block) if text is not None else None

    def close_conversations(self) -> None:
        """Stop this engine's runs (they read `error` when reopened) and close the store."""
        service = self.__dict__.pop("_conversation_service", None)
        if service is not None:
            service.close()
