"""Research conversations: the durable store, the turn state table, the worker pool, signed
download links, and the local engine's conversation methods.

    ConversationStore      SQLite (WAL) under REGNB_HOME/conversations, produced files beside it
                           (in PostgreSQL with REGNB_DATABASE_URL: `_pg_store.py`, the same Tx)
    ConversationService    the spec's state table for any account; runs agents in worker threads
    LocalConversations     the engine's part: ConversationAPI's work for the account `local`
"""

from __future__ import annotations

from regnb.conversations._local import LOCAL_ACCOUNT, LocalConversations, default_agent_factory
from regnb.conversations._store import ConversationStore
from regnb.conversations.service import Accepted, ConversationService, FileData

__all__ = [
    "LOCAL_ACCOUNT",
    "Accepted",
    "ConversationService",
    "ConversationStore",
    "FileData",
    "LocalConversations",
    "default_agent_factory",
]
