"""regnb: search and research regulatory documents from a notebook, and serve the same engine
over HTTP.

    import regnb
    eng = regnb.open()                      # the demo corpus
    res = eng.search(["sterility"], query="Who was warned about sterility assurance?")
    res.documents                           # pandas DataFrame, best first
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from regnb import _compat
from regnb._version import __version__
from regnb.catalog import Catalog, Dataset, add_datasets, load_catalog
from regnb.corpus.write import write_corpus
from regnb.encoder import Encoder, HashingEncoder, MiniLMEncoder
from regnb.engine import Engine
from regnb.errors import (
    Busy,
    ConcurrentConversations,
    ConcurrentSearch,
    CorpusError,
    Forbidden,
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    InternalError,
    InvalidApiKey,
    InvalidFilter,
    InvalidRequest,
    MethodNotAllowed,
    MissingApiKey,
    NotFound,
    PayloadTooLarge,
    QuotaExhausted,
    RateLimited,
    RegnbError,
    SearchTimeout,
    TurnInFlight,
    UnknownDataset,
    UpstreamError,
)
from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult
from regnb.validate import spec_arguments as _spec_arguments

__all__ = [
    "Busy",
    "Catalog",
    "ConcurrentConversations",
    "ConcurrentSearch",
    "ContentsResult",
    "CorpusError",
    "Dataset",
    "DocumentRead",
    "Encoder",
    "Engine",
    "Forbidden",
    "HashingEncoder",
    "IdempotencyKeyInUse",
    "IdempotencyKeyReused",
    "InternalError",
    "InvalidApiKey",
    "InvalidFilter",
    "InvalidRequest",
    "LegacySearchResult",
    "MethodNotAllowed",
    "MiniLMEncoder",
    "MissingApiKey",
    "NotFound",
    "PayloadTooLarge",
    "QuotaExhausted",
    "RateLimited",
    "RegnbError",
    "SearchResult",
    "SearchTimeout",
    "TurnInFlight",
    "UnknownDataset",
    "UpstreamError",
    "__version__",
    "add_datasets",
    "ask",
    "connect",
    "connect_async",
    "datasets",
    "default_engine",
    "facets",
    "legacy_contents",
    "legacy_search",
    "load_catalog",
    "matches",
    "open",
    "read",
    "search",
    "write_corpus",
]


_compat.install()  # the old paths of moved modules (`regnb.shards`...) still import

_default: Engine | None = None
_default_lock = threading.Lock()


def open(
    path: str | Path | None = None, plan: str = "enterprise", encoder: Encoder | None = None
) -> Engine:
    """Open a corpus: a folder, or a URL on object storage (`s3://bucket/prefix`); None: the
    demo corpus. Its index is built (or downloaded, where published) on first use."""
    return Engine(path, plan=plan, encoder=encoder)


def default_engine() -> Engine:
    """The engine the module-level functions use: the demo corpus, opened once."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Engine()
        return _default


@_spec_arguments
def search(keywords: Sequence[str] | str, query: str | None = None, **kwargs: Any) -> SearchResult:
    """`Engine.search` on the default engine."""
    return default_engine().search(keywords, query, **kwargs)


@_spec_arguments
def facets(
    keywords: Sequence[str] | str, query: str | None = None, **kwargs: Any
) -> dict[str, Any]:
    """`Engine.facets` on the default engine: counts over every full match, per facet."""
    return default_engine().facets(keywords, query, **kwargs)


@_spec_arguments
def matches(keywords: Sequence[str] | str, query: str | None = None, **kwargs: Any) -> Any:
    """`Engine.matches` on the default engine: every matching document (a DataFrame, or an
    iterator of them with `batch_size`)."""
    return default_engine().matches(keywords, query, **kwargs)


@_spec_arguments
def read(
    document_id: str, page_from: int = 1, page_to: int | None = None, **kwargs: Any
) -> DocumentRead:
    """`Engine.read` on the default engine."""
    return default_engine().read(document_id, page_from, page_to, **kwargs)


@_spec_arguments
def ask(message: str, **kwargs: Any) -> Any:
    """`Engine.ask` on the default engine: a research conversation running in the background."""
    return default_engine().ask(message, **kwargs)


def connect(base_url: str, api_key: str | None = None, **kwargs: Any) -> Any:
    """A remote engine for the server at `base_url` (key: `api_key`, else REGNB_API_KEY), with
    the local engine's methods, results and errors."""
    from regnb.client import connect as _connect

    return _connect(base_url, api_key, **kwargs)


def connect_async(base_url: str, api_key: str | None = None, **kwargs: Any) -> Any:
    """`connect` whose methods are coroutines (for many requests at once)."""
    from regnb.client import connect_async as _connect_async

    return _connect_async(base_url, api_key, **kwargs)


def datasets() -> Catalog:
    """The default engine's catalog."""
    return default_engine().datasets()


def legacy_search(
    query_text: str, top_k: int = 20, offset: int = 0, **kwargs: Any
) -> LegacySearchResult:
    """`Engine.legacy_search` on the default engine."""
    return default_engine().legacy_search(query_text, top_k, offset, **kwargs)


def legacy_contents(doc_id: str, top_k: int = 10, offset: int = 0, **kwargs: Any) -> ContentsResult:
    """`Engine.legacy_contents` on the default engine."""
    return default_engine().legacy_contents(doc_id, top_k, offset, **kwargs)


_LAZY_SUBMODULES = frozenset({"client", "ingest", "server", "widgets"})


def __getattr__(name: str) -> Any:
    """`regnb.server`, `regnb.ingest`, `regnb.client` and `regnb.widgets` on first use: importing
    them eagerly slows `import regnb`."""
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"regnb.{name}")
    raise AttributeError(f"module 'regnb' has no attribute {name!r}")
