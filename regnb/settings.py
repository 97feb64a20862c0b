"""Every setting in one place: a default, a line of help, and the `REGNB_*` variable that overrides it."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path

import platformdirs


def _env(name: str, default: str) -> str:
    return os.environ.get(f"REGNB_{name.upper()}", default)


@dataclass(frozen=True)
class Settings:
    """Limits and locations; the spec's numbers by default."""

    home: Path
    """REGNB_HOME: keys, index cache and conversation store (default: the user's data directory)."""
    search_timeout_s: float = 30.0
    """REGNB_SEARCH_TIMEOUT_S: time budget of one v3 search; a dataset still running reports timeout."""
    page_budget: int = 500
    """REGNB_PAGE_BUDGET: pages ranked per search."""
    match_count_cap: int = 10_000
    """REGNB_MATCH_COUNT_CAP: `matches` is counted up to this number."""
    read_max_pages: int = 100
    """REGNB_READ_MAX_PAGES: pages per document-read response."""
    read_max_bytes: int = 2_000_000
    """REGNB_READ_MAX_BYTES: bytes of page text per document-read response."""
    rate_limit_per_minute: int = 50
    """REGNB_RATE_LIMIT_PER_MINUTE: requests per key in any 60 seconds."""
    concurrent_searches_per_account: int = 1
    """REGNB_CONCURRENT_SEARCHES_PER_ACCOUNT: searches one account may run at once."""
    concurrent_search_wait_s: float = 2.0
    """REGNB_CONCURRENT_SEARCH_WAIT_S: how long a second search waits for the first."""
    max_server_searches: int = 8
    """REGNB_MAX_SERVER_SEARCHES: searches the server runs at once before answering busy."""
    max_body_bytes: int = 1_000_000
    """REGNB_MAX_BODY_BYTES: largest request body."""
    request_timeout_s: float = 45.0
    """REGNB_REQUEST_TIMEOUT_S: a search or document read not answered by then gets 504 timeout."""
    concurrent_conversations: int = 3
    """REGNB_CONCURRENT_CONVERSATIONS: running conversations per account."""
    agent_workers: int = 2
    """REGNB_AGENT_WORKERS: conversation runs at once in a process (threads apart from searches)."""
    free_monthly_questions: int = 20
    """REGNB_FREE_MONTHLY_QUESTIONS: conversation messages a free account may send per month."""
    agent_pace_s: float = 0.0
    """REGNB_AGENT_PACE_S: seconds a run waits before the agent starts (tests, demonstrations)."""
    conversation_wait_max_s: float = 45.0
    """REGNB_CONVERSATION_WAIT_MAX_S: the largest `wait` a conversation read accepts."""
    download_url_life_s: int = 300
    """REGNB_DOWNLOAD_URL_LIFE_S: seconds a produced file's signed download URL stays valid."""
    public_url: str = "http://localhost:8000"
    """REGNB_PUBLIC_URL: the base of the `url` fields (conversations, download links)."""
    query_cache_size: int = 1024
    """REGNB_QUERY_CACHE_SIZE: query embeddings kept in memory."""
    similarity_weight: float = 0.7
    """REGNB_SIMILARITY_WEIGHT: share of the cosine in the similarity score (the rest: BM25 evidence)."""
    threads: int = 0
    """REGNB_THREADS: DuckDB threads (0: DuckDB's default)."""
    index_batch_pages: int = 100_000
    """REGNB_INDEX_BATCH_PAGES: pages per index segment built or merged at once (memory grows with it: about 3 GB at 100,000)."""

    @classmethod
    def from_env(cls) -> Settings:
        """Read every setting from its `REGNB_*` variable, falling back to the default."""
        values: dict[str, object] = {
            "home": Path(_env("home", platformdirs.user_data_dir("regnb"))).expanduser()
        }
        for f in fields(cls):
            if f.name == "home":
                continue
            raw = os.environ.get(f"REGNB_{f.name.upper()}")
            if raw is not None:
                kind = type(f.default) if isinstance(f.default, float | str) else int
                try:
                    values[f.name] = kind(raw)
                except ValueError as exc:
                    raise ValueError(
                        f"REGNB_{f.name.upper()} must be a number, got {raw!r}"
                    ) from exc
        return cls(**values)  # type: ignore[arg-type]

    @property
    def index_dir(self) -> Path:
        """Where derived indexes live, one folder per corpus version."""
        return self.home / "index"


def show_progress(asked: bool = True) -> bool:
    """Whether a long operation shows its progress bar: when asked, unless REGNB_PROGRESS is 0
    (or false, no, off)."""
    off = os.environ.get("REGNB_PROGRESS", "1").strip().lower() in ("0", "false", "no", "off")
    return asked and not off
