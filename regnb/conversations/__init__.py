"""Research conversations: the durable store, the turn state table, the worker pool, signed
download links, and the local engine's conversation methods.

    ConversationStore      SQLite (WAL) under REGNB_HOME/conversations, produced files beside it
                           (in PostgreSQL with REGNB_DATABASE_URL: `_pg_store.py`, the same Tx)
    ConversationService    the spec's state table for any account; runs agents in worker threads
    LocalConversations     the engine's part: ConversationAPI's work for the account `local`
    Conversation           what `Engine.ask` returns (`conversation`)
    Agents                 which research agent answers the engine's conversations (`agents`)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regnb._compat import exports

if TYPE_CHECKING:
    from regnb.conversations._local import (
        LOCAL_ACCOUNT,
        LocalConversations,
        default_agent_factory,
    )
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

# Loaded on first use: `regnb.conversations.conversation` (the engine's `Conversation`) is
# imported by `import regnb`, which opens no store.
__getattr__ = exports(
    __name__,
    {
        "LOCAL_ACCOUNT": "_local",
        "Accepted": "service",
        "ConversationService": "service",
        "ConversationStore": "_store",
        "FileData": "service",
        "LocalConversations": "_local",
        "default_agent_factory": "_local",
    },
)
