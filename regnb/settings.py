"""Every setting in one place: a default, a line of help, and the `REGNB_*` variable that overrides it.
No other module reads a `REGNB_*` variable.

    Settings        the engine and the server: limits and locations (`REGNB_*`)
    ClientSettings  the remote client: timeouts and retries (`REGNB_CLIENT_*`)
    LlmSettings   the model that writes answers' prose (`REGNB_LLM_*`)
    RemoteSettings  which server the command line reads from, and the key (`REGNB_SERVER`, ...)
    show_progress   whether progress bars show (`REGNB_PROGRESS`)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

__all__ = [
    "API_KEY_ENV",
    "SERVER_ENV",
    "ClientSettings",
    "LlmSettings",
    "RemoteSettings",
    "Settings",
    "show_progress",
]

API_KEY_ENV = "REGNB_API_KEY"  # RemoteSettings.api_key, named in messages
SERVER_ENV = "REGNB_SERVER"  # RemoteSettings.server

T = TypeVar("T")


def _flag(name: str, raw: str) -> bool:
    text = raw.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("", "0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be 1 or 0 (true or false), got {raw!r}")


def _read(cls: type[T], prefix: str, environ: Mapping[str, str] | None, **given: Any) -> T:
    """`cls` with each field not `given` from its `<prefix><FIELD>` variable, else its default;
    a value is read as the type of the default."""
    environ = os.environ if environ is None else environ
    values = dict(given)
    for f in fields(cls):  # type: ignore[arg-type]
        name = f"{prefix}{f.name.upper()}"
        raw = environ.get(name)
        if f.name in given or raw is None:
            continue
        if isinstance(f.default, bool):
            values[f.name] = _flag(name, raw)
            continue
        kind = type(f.default) if isinstance(f.default, float | str) else int
        try:
            values[f.name] = kind(raw)
        except ValueError:
            raise ValueError(f"{name} must be a number, got {raw!r}") from None
    return cls(**values)


@dataclass(frozen=True)
class Settings:
    """Limits and locations; the spec's numbers by default."""

    home: Path
    """REGNB_HOME: keys, index cache and conversation store (default: the user's data directory)."""
    database_url: str = field(default="", repr=False)  # may hold a password
    """REGNB_DATABASE_URL: `postgresql://...` puts keys, rate limits, search slots and the
    conversation store in PostgreSQL, shared by every replica (empty: SQLite under REGNB_HOME and
    limits counted in each process)."""
    files_dir: str = ""
    """REGNB_FILES_DIR: where produced files go (empty: REGNB_HOME/conversations/files); replicas
    on several machines name one shared folder."""
    replica_lease_s: float = 30.0
    """REGNB_REPLICA_LEASE_S: with REGNB_DATABASE_URL, a replica that has not renewed its lease
    for this long reads as gone, and its running conversations become `error`."""
    search_timeout_s: float = 30.0
    """REGNB_SEARCH_TIMEOUT_S: time budget of one v3 search; a dataset still running reports timeout."""
    page_budget: int = 500
    """REGNB_PAGE_BUDGET: pages ranked per search."""
    match_count_cap: int = 10_000
    """REGNB_MATCH_COUNT_CAP: `matches` is counted up to this number."""
    prefix_terms: int = 100
    """REGNB_PREFIX_TERMS: index terms a prefix (`steril*`) expands to at most; a search says when it cut."""
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
    agent_message_chars: int = 4000
    """REGNB_AGENT_MESSAGE_CHARS: characters of a message the research agent reads (0: all); an
    answer says when a message was cut."""
    agent_pace_s: float = 0.0
    """REGNB_AGENT_PACE_S: seconds a run waits before the agent starts (tests, demonstrations)."""
    conversation_wait_max_s: float = 45.0
    """REGNB_CONVERSATION_WAIT_MAX_S: the largest `wait` a conversation read accepts."""
    download_url_life_s: int = 300
    """REGNB_DOWNLOAD_URL_LIFE_S: seconds a produced file's signed download URL stays valid."""
    public_url: str = ""
    """REGNB_PUBLIC_URL: the base of the `url` fields (conversations, download links); empty:
    each request's own base URL (a local engine: http://localhost:8000)."""
    trust_proxy_headers: bool = False
    """REGNB_TRUST_PROXY_HEADERS: 1 to build links from X-Forwarded-Proto, -Host and -Prefix
    (only behind a proxy that sets them; uvicorn already trusts X-Forwarded-Proto from
    --forwarded-allow-ips)."""
    query_cache_size: int = 1024
    """REGNB_QUERY_CACHE_SIZE: query embeddings kept in memory."""
    similarity_weight: float = 0.7
    """REGNB_SIMILARITY_WEIGHT: share of the cosine in the similarity score (the rest: BM25 evidence)."""
    threads: int = 0
    """REGNB_THREADS: DuckDB threads (0: DuckDB's default)."""
    index_batch_pages: int = 100_000
    """REGNB_INDEX_BATCH_PAGES: pages per index segment built or merged at once (memory grows with it: about 3 GB at 100,000)."""
    merge_segments: int = 8
    """REGNB_MERGE_SEGMENTS: small index segments (under a tenth of REGNB_INDEX_BATCH_PAGES) that incremental adds may leave before an open engine merges them in the background (0: only `regnb index --merge` merges)."""

    ray_batch_pages: int = 2_000
    """REGNB_RAY_BATCH_PAGES: pages per shard an embedding actor writes on Ray where the cluster has no GPUs (`runner="ray"`)."""
    ray_gpu_batch_pages: int = 20_000
    """REGNB_RAY_GPU_BATCH_PAGES: pages per shard a GPU embedding actor writes (one GPU each)."""
    ray_gpu_encode_batch: int = 256
    """REGNB_RAY_GPU_ENCODE_BATCH: texts per model run on a GPU actor (CPU actors run 32, as locally)."""
    ray_cpus_per_worker: int = 1
    """REGNB_RAY_CPUS_PER_WORKER: CPUs (and threads) each CPU embedding actor and each index task on Ray takes."""
    ray_actors: int = 0
    """REGNB_RAY_ACTORS: embedding actors on Ray (0: one per GPU of the cluster, else one per REGNB_RAY_CPUS_PER_WORKER of its CPUs)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read every setting from its `REGNB_*` variable, falling back to the default."""
        environ = os.environ if environ is None else environ
        home = environ.get("REGNB_HOME") or platformdirs.user_data_dir("regnb")
        return _read(cls, "REGNB_", environ, home=Path(home).expanduser())

    @property
    def shared(self) -> bool:
        """Whether state is shared through PostgreSQL (REGNB_DATABASE_URL is set)."""
        return bool(self.database_url)

    @property
    def files_folder(self) -> Path:
        """Where produced files go: REGNB_FILES_DIR, else REGNB_HOME/conversations/files."""
        return (
            Path(self.files_dir).expanduser()
            if self.files_dir
            else self.home / "conversations" / "files"
        )

    @property
    def index_dir(self) -> Path:
        """Where derived indexes live, one folder per corpus version."""
        return self.home / "index"


@dataclass(frozen=True)
class ClientSettings:
    """How long the remote client waits and how often it tries again."""

    connect_timeout_s: float = 10.0
    """REGNB_CLIENT_CONNECT_TIMEOUT_S: time to open a connection to the server."""
    read_timeout_s: float = 75.0
    """REGNB_CLIENT_READ_TIMEOUT_S: time to wait for an answer; above the server's 45 s request
    timeout and the 45 s conversation wait, so the server's own answer (504, or the conversation
    as it stands) always comes first."""
    write_timeout_s: float = 30.0
    """REGNB_CLIENT_WRITE_TIMEOUT_S: time to send a request body."""
    pool_timeout_s: float = 30.0
    """REGNB_CLIENT_POOL_TIMEOUT_S: time to wait for a free connection of the pool."""
    max_connections: int = 10
    """REGNB_CLIENT_MAX_CONNECTIONS: connections kept open to the server, reused by each call."""
    max_tries: int = 5
    """REGNB_CLIENT_MAX_TRIES: tries of one call (the first included) on 429, 503 or a broken
    connection."""
    max_retry_time_s: float = 120.0
    """REGNB_CLIENT_MAX_RETRY_TIME_S: a call is not tried again once this much time has passed
    since its first try, nor when the server's Retry-After would take it past this bound."""
    backoff_s: float = 1.0
    """REGNB_CLIENT_BACKOFF_S: first wait before trying again when the server gives no
    Retry-After (a broken connection); it doubles at each try."""
    max_backoff_s: float = 30.0
    """REGNB_CLIENT_MAX_BACKOFF_S: the longest of those doubling waits."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ClientSettings:
        """Every setting from its `REGNB_CLIENT_*` variable, else the default."""
        return _read(cls, "REGNB_CLIENT_", environ)


@dataclass(frozen=True)
class LlmSettings:
    """The OpenAI-compatible endpoint that writes the answers' prose; off unless both its URL and
    its model are set (the extractive writer answers then)."""

    base_url: str = ""
    """REGNB_LLM_BASE_URL: the endpoint's base URL (with REGNB_LLM_MODEL, switches the model
    writer on)."""
    model: str = ""
    """REGNB_LLM_MODEL: the model the endpoint runs."""
    api_key: str = ""
    """REGNB_LLM_API_KEY: the endpoint's key, when it needs one."""
    timeout_s: float = 20.0
    """REGNB_LLM_TIMEOUT_S: time to wait for the model's answer."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LlmSettings:
        """Every setting from its `REGNB_LLM_*` variable, else the default."""
        return _read(cls, "REGNB_LLM_", environ)

    @property
    def enabled(self) -> bool:
        """Whether a model writes the prose: both the URL and the model are set."""
        return bool(self.base_url and self.model)


@dataclass(frozen=True)
class RemoteSettings:
    """Which server the command line reads from, and the key of a remote engine."""

    server: str = ""
    """REGNB_SERVER: the server `regnb search` and `regnb read` read from, as `--server` (empty:
    the local corpus)."""
    api_key: str = ""
    """REGNB_API_KEY: the key of `regnb.connect` and of `--server`, when none is given."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> RemoteSettings:
        """Both settings from their `REGNB_*` variables, else empty."""
        return _read(cls, "REGNB_", environ)


def show_progress(asked: bool = True, environ: Mapping[str, str] | None = None) -> bool:
    """Whether a long operation shows its progress bar: when asked, unless REGNB_PROGRESS is 0
    (or false, no, off); default 1."""
    environ = os.environ if environ is None else environ
    off = environ.get("REGNB_PROGRESS", "1").strip().lower() in ("0", "false", "no", "off")
    return asked and not off
