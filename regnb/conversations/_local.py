"""Research conversations on a local engine: the work of the seven `ConversationAPI` methods for
account `local`, over the store under the engine's REGNB_HOME.

`LocalConversations` is a part of `regnb.Engine`, made at its first conversation call (so that
`import regnb` opens no database); the conversations outlive the process (a notebook finds them
again after a kernel restart). The plan is the engine's, given with each call.
"""

from __future__ import annotations

from collections.abc import Callable

from regnb.agent.types import Agent
from regnb.conversations._store import open_store
from regnb.conversations.agents import default_agent_factory
from regnb.conversations.service import ConversationService
from regnb.models import (
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ProducedDocument,
)
from regnb.results import DocumentRead
from regnb.settings import Settings

__all__ = ["LOCAL_ACCOUNT", "LocalConversations", "default_agent_factory", "open_service"]

LOCAL_ACCOUNT = "local"


def open_service(agent: Callable[[], Agent], settings: Settings) -> ConversationService:
    """A conversation service over the store of `settings` (under `home`, or in PostgreSQL),
    answered by `agent`."""
    return ConversationService(agent, open_store(settings), settings)


def _block_text(page_text: str, block_id: str) -> str | None:
    """The text of `block_id` on a page, by the agent's block splitter (None until it exists)."""
    try:
        from regnb.documents.blocks import block_text
    except ImportError:
        return None
    try:
        return block_text(page_text, block_id)
    except ValueError:
        return None


class LocalConversations:
    """The account `local`'s conversations in `service`; `read` gives the pages that passage
    citations are cut from when the store has no passage."""

    def __init__(
        self, service: ConversationService, read: Callable[[str, int, int], DocumentRead]
    ) -> None:
        self.service = service
        self._read = read

    @classmethod
    def open(
        cls,
        settings: Settings,
        agent: Callable[[], Agent],
        read: Callable[[str, int, int], DocumentRead],
    ) -> LocalConversations:
        """Over the store under `settings.home`, answered by `agent`."""
        return cls(open_service(agent, settings), read)

    def start(self, plan: str, message: str, idempotency_key: str | None) -> ConversationAccepted:
        """Start a conversation; returns at once with its first turn running."""
        return self.service.start(LOCAL_ACCOUNT, plan, message, idempotency_key).body

    def send(
        self, plan: str, conversation_id: str, message: str, idempotency_key: str | None
    ) -> ConversationAccepted:
        """A follow-up (or the reply to a clarifying question); returns at once."""
        accepted = self.service.send(LOCAL_ACCOUNT, plan, conversation_id, message, idempotency_key)
        return accepted.body

    def summaries(self, status: str, limit: int, offset: int) -> ConversationList:
        """Conversation summaries, most recent activity first."""
        return self.service.list_conversations(LOCAL_ACCOUNT, status, limit, offset)

    def read(self, conversation_id: str, wait: float) -> ConversationRead:
        """The conversation; waits up to `wait` seconds while it runs."""
        return self.service.read(LOCAL_ACCOUNT, conversation_id, wait)

    def stop(self, conversation_id: str) -> ConversationStopped:
        """Stop the running message: it and what it produced are removed."""
        return self.service.stop(LOCAL_ACCOUNT, conversation_id)

    def document(self, plan: str, conversation_id: str, document_id: str) -> ProducedDocument:
        """A produced document: text inline, a file or image as a signed URL."""
        return self.service.document(LOCAL_ACCOUNT, plan, conversation_id, document_id)

    def download(self, plan: str, conversation_id: str, document_id: str) -> tuple[str, bytes]:
        """A produced document's file name and bytes, read from the store."""
        data = self.service.file(LOCAL_ACCOUNT, plan, conversation_id, document_id)
        return data.filename, data.data

    def citation_documents(self, conversation_id: str) -> dict[int, str]:
        """The document each citation names (what the spec's citation object leaves out)."""
        rows = self.service.citation_rows(LOCAL_ACCOUNT, conversation_id)
        return {row["idx"]: row["document_id"] for row in rows if row["document_id"]}

    def citation_passages(self, conversation_id: str) -> dict[int, str | None]:
        """The cited text of each passage citation: as stored, else cut from the page by its
        block id (None where that cannot be done)."""
        rows = self.service.citation_rows(LOCAL_ACCOUNT, conversation_id)
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
                read = self._read(document_id, page, page)
                pages[(document_id, page)] = read.page_list[0]["text"] if read.page_list else None
            except Exception:
                pages[(document_id, page)] = None
        text = pages[(document_id, page)]
        return _block_text(text, block) if text is not None else None

    def close(self) -> None:
        """Stop the runs (they read `error` when reopened) and close the store."""
        self.service.close()
